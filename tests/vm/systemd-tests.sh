#!/bin/sh
# Tests run in the x86_64:systemd guest (tests/vm/systemd-image, booted by tests/vm/run): a real
# systemd as pid 1, user@1000.service started for the lingering user tester, and crib run by
# tester from a system service, whose cgroup (system.slice/crib-vmtest.service) is root's: the
# case where crib must ask tester's user manager over D-Bus for a delegated scope (issue 14);
# and systemd as the supervisor of crib's services (issue 36): units of crib generate systemd,
# root's and tester's, timed against podman's units of the same workload (podman generate
# systemd --new), and on a second boot of the same state (crib.boot=2) those enabled.
# Started as root by crib-vmtest.service, its output on the console. Prints one
# "VMTEST ok|not ok N - text" line a test and a final "VMTEST summary NONCE PASSED FAILED".
exec </dev/null
n=0
failed=0
nonce=$(sed -n 's/.*crib.nonce=\([^ ]*\).*/\1/p' /proc/cmdline)
variant=$(sed -n 's/.*crib.variant=\([^ ]*\).*/\1/p' /proc/cmdline)
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "VMTEST ok $n - $variant: $2"; else
		echo "VMTEST not ok $n - $variant: $2"
		failed=$((failed + 1))
	fi
}
is() { # is GOT WANT TEXT
	[ "$1" = "$2" ]
	ok $? "$3"
	[ "$1" = "$2" ] || echo "VMTEST #   got: $(echo "$1" | tr '\n' '|')  want: $2"
}
has() { # has HAYSTACK NEEDLE TEXT
	case "$1" in *"$2"*) ok 0 "$3" ;; *)
		ok 1 "$3"
		echo "VMTEST #   got: $(echo "$1" | tr '\n' '|')  want it to contain: $2"
		;;
	esac
}
say() { # say PREFIX FILE: the file's lines as comments
	sed "s/^/VMTEST # $1/" "$2"
}
# as_tester CMD...: CMD as tester, from this service (so in its cgroup), with what a program
# tester starts needs to find its user manager: the runtime directory and the user bus
as_tester() {
	runuser -u tester -- env XDG_RUNTIME_DIR=/run/user/1000 \
		DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus "$@"
}
cg=/sys/fs/cgroup
user=$cg/user.slice/user-1000.slice/user@1000.service

echo
echo "VMTEST # guest kernel $(uname -r) $(uname -m), cmdline: $(cat /proc/cmdline)"
echo "VMTEST # systemd $(systemctl --version | head -n 1 | cut -d' ' -f2), tests started $(cut -d' ' -f1 /proc/uptime) s after boot"

# logind starts user@1000.service for the lingering tester on its own schedule, which this
# service is not ordered after: wait (at most 60 s) for its bus, and for the manager to have
# started its units (the bus socket is there before: the service is still "activating")
i=0
until [ -S /run/user/1000/bus ] && [ "$(systemctl is-active user@1000.service)" = active ] ||
	[ $i -ge 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo "VMTEST # tester's manager and bus after $((i / 10)) s of waiting ($(cut -d' ' -f1 /proc/uptime) s after boot)"

# --- the second boot (crib.boot=2, tests/vm/run): the same guest's state, as the first boot left
# it on the disk (tests/vm/systemd-init puts it back): root's crib-bootr.service, enabled in
# multi-user.target, and lingering tester's crib-bootu.service, enabled in its default.target,
# must be running again without anyone starting them
if grep -q 'crib.boot=2' /proc/cmdline; then
	echo "VMTEST # second boot: the services the first boot enabled"
	end=$(($(date +%s) + 60)) # (each round's runuser takes a while: a deadline, not a count)
	until [ "$(systemctl is-active crib-bootr.service)" = active ] &&
		[ "$(as_tester systemctl --user is-active crib-bootu.service)" = active ] ||
		[ "$(date +%s)" -ge $end ]; do
		sleep 0.2
	done
	systemctl status --no-pager crib-bootr.service 2>&1 | head -n 12 | sed 's/^/VMTEST #   /'
	as_tester systemctl --user status --no-pager crib-bootu.service 2>&1 | head -n 12 | sed 's/^/VMTEST #   /'
	is "$(systemctl is-active crib-bootr.service)" active "after a reboot: root's unit (enabled, WantedBy=multi-user.target) is running again"
	is "$(as_tester systemctl --user is-active crib-bootu.service)" active "after a reboot: lingering tester's user unit (WantedBy=default.target) is running again"
	for u in "crib-bootr.service boot-root" "crib-bootu.service boot-user"; do
		set -- $u
		if [ $1 = crib-bootu.service ]; then
			main=$(as_tester systemctl --user show -p MainPID --value $1)
		else
			main=$(systemctl show -p MainPID --value $1)
		fi
		wl=""
		for p in /proc/[0-9]*; do
			case "$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)" in *"$2 up"*) wl=${p#/proc/} ;; esac
		done
		p=$wl
		while [ -n "$p" ] && [ "$p" -gt 1 ] && [ "$p" != "$main" ]; do
			p=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)
		done
		is "$(readlink /proc/$main/exe):$([ -n "$p" ] && [ "$p" = "$main" ] && echo descends)" \
			"/usr/local/bin/crib:descends" "$1: its main pid ($main) is crib's, its workload (${wl:-none}) below it"
	done
	crib ps 2>&1 | sed 's/^/VMTEST #   crib ps: /'
	echo "VMTEST # tests done $(cut -d' ' -f1 /proc/uptime) s after boot"
	echo "VMTEST summary $nonce $((n - failed)) $failed"
	exit 0
fi

# --- the host crib meets: systemd, tester's manager, delegation, and a service's cgroup
is "$(cat /proc/1/comm)" systemd "systemd is pid 1"
is "$(systemctl is-active user@1000.service)" active "user@1000.service is active (tester lingers)"
[ -S /run/user/1000/bus ]
ok $? "tester's user bus is at /run/user/1000/bus"
is "$(stat -c %u:%g $user 2>&1)" 1000:1000 "user@1000.service's cgroup belongs to tester (Delegate=yes)"
controllers=" $(cat $user/cgroup.controllers 2>/dev/null) "
echo "VMTEST # user@1000.service's cgroup.controllers:$controllers"
for c in cpu memory pids; do
	has "$controllers" " $c " "and it has the $c controller"
done
own=$(cat /proc/self/cgroup)
is "$own" "0::/system.slice/crib-vmtest.service" "the tests run in a system service's cgroup"
is "$(stat -c %u "$cg${own#0::}" 2>&1)" 0 "which is root's, delegated to no one"
is "$(as_tester cat /proc/self/cgroup)" "$own" "and so is tester's command run from it"

# --- crib itself
echo "VMTEST # crib: $(ls -l /usr/local/bin/crib | cut -d' ' -f1,5-)"
if [ -e /usr/local/bin/crib-scope ]; then
	echo "VMTEST # crib-scope: $(ls -l /usr/local/bin/crib-scope | cut -d' ' -f1,5-)"
else
	echo "VMTEST # no crib-scope in this build: crib cannot ask tester's manager for a scope yet"
fi
as_tester crib check >/tmp/check.out 2>&1
echo "VMTEST # crib check as tester, from the service (exit $?):"
say "  " /tmp/check.out

# crib refuses a writable rootfs that other users can reach: tester's copy of the test rootfs in
# a 0700 directory of tester's
mkdir -m 0700 /tmp/tester-root
cp -a /rootfs /tmp/tester-root/rootfs
chown 1000:1000 /tmp/tester-root
cat >/tmp/res.ini <<'EOF2'
[container]
rootfs = /tmp/tester-root/rootfs
[process]
args = /bin/cat /proc/self/cgroup
[resources]
memory = 64M
pids = 50
[security]
apparmor = unconfined
EOF2
chmod 644 /tmp/res.ini

# root: crib's own cgroup under the root, beside systemd's slices
# root's run on a copy of its own, in a directory of root's alone (crib refuses root a writable
# rootfs any other user, tester included, can reach)
mkdir -m 0700 /tmp/root-root
cp -a /rootfs /tmp/root-root/rootfs
sed 's#^rootfs = .*#rootfs = /tmp/root-root/rootfs#' /tmp/res.ini >/tmp/res-root.ini
out=$(crib run /tmp/res-root.ini 2>/tmp/err)
is "$?:$out" "0:0::/" "root, from the service: [resources] applied, the container's cgroup is 0::/"
say "  stderr: " /tmp/err

# tester, from the service, where nothing is delegated: crib asks tester's manager for a
# delegated scope (crib-scope, over D-Bus) and makes the container's cgroup in it
out=$(as_tester crib run /tmp/res.ini 2>/tmp/err)
rc=$?
echo "VMTEST # tester from the service: crib run exited $rc, printed: $(echo "$out" | tr '\n' '|')"
say "  stderr: " /tmp/err
is "$rc:$out" "0:0::/" "tester, from a system service: crib gets a delegated scope from tester's manager, the container's cgroup is 0::/"

# tester, detached, from the service: the container's cgroup in its own scope; crib ps reads
# its usage, crib exec (which gets a scope of its own first) joins it, crib rm ends it
sed 's#^args = .*#args = /bin/sleep 60#' /tmp/res.ini >/tmp/svc.ini
chmod 644 /tmp/svc.ini
as_tester crib run -d --name svc /tmp/svc.ini >/dev/null 2>/tmp/err
say "  run -d stderr: " /tmp/err
mem=$(as_tester crib ps --format=ini 2>/dev/null | sed -n 's/^memory_bytes = //p')
as_tester crib ps 2>/dev/null | sed 's/^/VMTEST #   crib ps: /'
is "$([ "${mem:-0}" -gt 0 ] && echo counted)" counted "tester's detached container: crib ps reads its memory from its scope's cgroup (${mem:-none} bytes)"
out=$(as_tester crib exec svc -- /bin/cat /proc/self/cgroup 2>/tmp/err)
is "$?:$out" "0:0::/" "crib exec into it, from the service: in the container's cgroup, 0::/"
say "  exec stderr: " /tmp/err
as_tester crib rm -f svc >/dev/null 2>&1
is "$(as_tester crib ps -a 2>/dev/null | grep -c '^svc ')" 0 "crib rm -f removes it"

# what crib relies on: tester's manager delegates a scope it is asked for
out=$(as_tester systemd-run --user --scope --quiet -p Delegate=yes \
	sh -c 'c=$(sed -n "s/^0:://p" /proc/self/cgroup); echo "$c $(stat -c %u /sys/fs/cgroup$c)"' 2>/tmp/err)
echo "VMTEST # systemd-run --user --scope -p Delegate=yes: $out"
say "  stderr: " /tmp/err
case "$out" in
/user.slice/user-1000.slice/user@1000.service/*.scope" 1000") ok 0 "systemd-run --user --scope -p Delegate=yes: a scope in user@1000.service, tester's" ;;
*) is "$out" "/user.slice/user-1000.slice/user@1000.service/.../run-*.scope 1000" "systemd-run --user --scope -p Delegate=yes: a scope in user@1000.service, tester's" ;;
esac

# and crib in such a scope, where its parent cgroup is tester's: the container's cgroup beside it
out=$(as_tester systemd-run --user --scope --quiet -p Delegate=yes crib run /tmp/res.ini 2>/tmp/err)
is "$?:$out" "0:0::/" "tester in a delegated scope: [resources] applied, the container's cgroup is 0::/"
say "  stderr: " /tmp/err

# tester, from the service, through the OCI front end (issue 16): the container's cgroup is in
# the scope crib asked for, whose name holds the pid of the crib that asked; create writes it
# down, and pause, update, kill --all and delete find it there, where the plan alone cannot name
# it. No pid namespace (podman's --pid=host): only the cgroup reaches the workload's child.
mkdir -p /tmp/ob
cat >/tmp/ob/config.json <<'EOF2'
{"ociVersion":"1.0.2","root":{"path":"/tmp/tester-root/rootfs"},
 "process":{"args":["/bin/sh","-c","sleep 1001 & exec sleep 1000"],"cwd":"/","env":["PATH=/bin:/usr/bin"],
   "user":{"uid":0,"gid":0},"noNewPrivileges":true},
 "linux":{"namespaces":[{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"user"}],
   "uidMappings":[{"containerID":0,"hostID":1000,"size":1}],"gidMappings":[{"containerID":0,"hostID":1000,"size":1}],
   "resources":{"pids":{"limit":40}}}}
EOF2
chown -R 1000:1000 /tmp/ob
oci() { as_tester crib oci --root /run/user/1000/crib-oci-vm "$@"; }
# oci_run ID: create and start ID; its leaf (the cgroup its workload is in, less /container)
oci_run() {
	oci create --bundle /tmp/ob --pid-file "/tmp/ob/$1.pid" "$1" </dev/null >/dev/null 2>/tmp/err
	echo "VMTEST # tester's OCI container $1: create exited $?"
	oci start "$1" 2>>/tmp/err
	say "  oci stderr: " /tmp/err
	opid=$(cat "/tmp/ob/$1.pid" 2>/dev/null)
	i=0 # the workload's sh has forked its child and exec'd
	while [ "$(cat "/proc/${opid:-none}/comm" 2>/dev/null)" != sleep ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ocg=$(sed -n 's/^0:://p' "/proc/${opid:-none}/cgroup" 2>/dev/null)
	leaf=$cg${ocg%/container}
	echo "VMTEST # $1: pid ${opid:-none}, cgroup ${ocg:-none}"
}
procs() { tr '\n' ' ' <"$leaf/container/cgroup.procs" 2>/dev/null | wc -w; }
oci_run o1
case "$ocg" in
/user.slice/user-1000.slice/user@1000.service/*/crib-o1-*.scope/crib-o1/container) ok 0 "oci create as tester, from the service: o1's cgroup is crib-o1 in a scope crib-o1-PID.scope" ;;
*) is "$ocg" ".../user@1000.service/.../crib-o1-PID.scope/crib-o1/container" "oci create as tester, from the service: o1's cgroup is crib-o1 in a scope crib-o1-PID.scope" ;;
esac
is "$(procs)" 2 "o1's two processes are in it"
oci pause o1 2>/tmp/err
is "$(cat "$leaf/cgroup.freeze" 2>&1):$(oci state o1 2>&1 | grep -c '"status":"paused"')" "1:1" "oci pause: the scope's crib-o1 is frozen, and state says paused"
say "  pause stderr: " /tmp/err
oci resume o1 2>/tmp/err
is "$(cat "$leaf/cgroup.freeze" 2>&1)" 0 "oci resume: thawed"
echo '{"pids":{"limit":77}}' | oci update --resources - o1 2>/tmp/err
is "$(cat "$leaf/pids.max" 2>&1)" 77 "oci update: pids.max of the scope's crib-o1 is 77"
say "  update stderr: " /tmp/err
oci kill --all o1 KILL 2>/tmp/err
say "  kill stderr: " /tmp/err
i=0
while [ "$(procs)" != 0 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
is "$(procs)" 0 "oci kill --all: both of o1's processes end, the workload's child too (cgroup.kill)"
oci delete o1 2>/tmp/err
is "$([ -d "$leaf" ] && echo left || echo removed)" removed "oci delete of the stopped o1: the scope's crib-o1 is removed"
say "  delete stderr: " /tmp/err
oci_run o2
is "$(procs)" 2 "o2's two processes are in its crib-o2"
oci delete --force o2 2>/tmp/err
is "$([ -d "$leaf" ] && echo "left, with $(procs) processes" || echo removed)" removed "oci delete --force of the running o2: its crib-o2 is removed at once, the workload's child ended"
say "  delete stderr: " /tmp/err

# --- issue 36: systemd is the supervisor. Units made by `crib generate systemd` (Type=notify,
# KillMode=mixed, Delegate=yes): crib run in the foreground is the main process, says READY=1
# when the workload runs, passes systemctl stop's SIGTERM on, and exits with the workload's
# status, which Restart= sees. Timed against podman's units below.
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# unit_show UNIT [--user]: MainPID ActiveState Type NRestarts, one line
unit_show() {
	if [ "${2:-}" = --user ]; then
		as_tester systemctl --user show -p MainPID -p ActiveState -p Type -p NRestarts "$1"
	else
		systemctl show -p MainPID -p ActiveState -p Type -p NRestarts "$1"
	fi | sort | tr '\n' ' '
}
prop() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# workload MARK: the pid of the process whose command line holds MARK (the container's sh)
workload() {
	for p in /proc/[0-9]*; do
		case "$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)" in *"$1"*) echo "${p#/proc/}" && return ;; esac
	done
}
# descends PID ANCESTOR: PID's parents lead to ANCESTOR
descends() {
	p=$1
	while [ -n "$p" ] && [ "$p" -gt 1 ]; do
		[ "$p" = "$2" ] && return 0
		p=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)
	done
	return 1
}
# wait_for SECONDS CODE: the shell code CODE (this shell's functions at hand) until it
# succeeds, at most SECONDS
wait_for() {
	w=$(($1 * 10))
	until eval "$2"; do
		[ $w -le 0 ] && return 1
		sleep 0.1
		w=$((w - 1))
	done
}

# root's service: its spec at a path with a space, '%' and '$' (each means something to
# systemd's ExecStart=), restart = on-failure, output to the journal, and a workload that ends
# cleanly on SIGTERM
sd="/tmp/svc dir %i \$HOME"
mkdir -p "$sd"
cat >"$sd/web spec.ini" <<'EOF2'
[container]
rootfs = /tmp/root-root/rootfs
[process]
args = /bin/sh -c 'trap "echo svc-web got TERM; exit 0" TERM; echo svc-web says hello; while :; do sleep 0.2; done'
[resources]
memory = 64M
[security]
apparmor = unconfined
[service]
restart = on-failure
EOF2
crib generate systemd "$sd/web spec.ini" --name web >/etc/systemd/system/crib-web.service 2>/tmp/err
is "$?" 0 "crib generate systemd, root, a spec path with ' ', '%' and '\$': exit 0"
say "  unit: " /etc/systemd/system/crib-web.service
say "  stderr: " /tmp/err
has "$(cat /tmp/err)" "systemctl daemon-reload" "and says where the unit goes, and what to run"
systemctl daemon-reload
t0=$(now_ms)
systemctl start crib-web.service 2>/tmp/err
rc=$?
t1=$(now_ms)
say "  start stderr: " /tmp/err
echo "VMTEST # systemctl start crib-web (Type=notify): READY after $((t1 - t0)) ms (exit $rc)"
s=$(unit_show crib-web.service)
echo "VMTEST # $s"
is "$(prop "$s" ActiveState):$(prop "$s" Type)" "active:notify" "root's unit: systemctl start returns once crib says READY=1, the unit is active, Type=notify"
main=$(prop "$s" MainPID)
is "$(readlink /proc/$main/exe 2>&1)" /usr/local/bin/crib "its MainPID ($main) is crib's"
wait_for 5 '[ -n "$(workload "svc-web says")" ]'
wl=$(workload "svc-web says")
descends "${wl:-0}" "$main"
ok $? "the workload (${wl:-none}) is crib's descendant"
wcg=$(sed -n 's/^0:://p' /proc/${wl:-0}/cgroup 2>/dev/null)
is "$wcg" /system.slice/crib-web.service/web/container "Delegate=yes: the container's cgroup is inside the unit's"
is "$(cat $cg/system.slice/crib-web.service/web/memory.max 2>&1)" 67108864 "and its memory.max is the spec's 64M"
is "$(sed -n 's/^0:://p' /proc/$main/cgroup)" /system.slice/crib-web.service/supervisor "crib moved to the unit's supervisor cgroup"
is "$(tr '\0' '\n' </proc/${wl:-0}/environ 2>/dev/null | grep -c NOTIFY_SOCKET)" 0 "NOTIFY_SOCKET does not reach the container's environment"
wait_for 5 'journalctl -u crib-web.service -o cat --no-pager | grep -q "svc-web says hello"'
ok $? "journalctl -u crib-web has the container's output"
journalctl -u crib-web.service -o short --no-pager 2>&1 | tail -n 3 | sed 's/^/VMTEST #   journal: /'

# the workload killed from outside: crib exits with its status (137), Restart=on-failure
kill -KILL "${wl:-0}"
wait_for 15 '[ "$(systemctl show -p NRestarts --value crib-web.service)" = 1 ] && [ "$(systemctl is-active crib-web.service)" = active ] && [ -n "$(workload "svc-web says")" ]'
s=$(unit_show crib-web.service)
echo "VMTEST # after SIGKILL of the workload: $s"
wl2=$(workload "svc-web says")
main2=$(prop "$s" MainPID)
is "$(prop "$s" NRestarts):$(prop "$s" ActiveState)" "1:active" "SIGKILL of the workload from outside: systemd restarts it (Restart=on-failure), NRestarts=1"
[ -n "$wl2" ] && [ "$wl2" != "$wl" ] && [ "$main2" != "$main" ] && descends "$wl2" "$main2"
ok $? "a new workload (${wl2:-none}, was $wl) under a new crib (MainPID $main2, was $main)"
systemctl status --no-pager crib-web.service 2>&1 | head -n 14 | sed 's/^/VMTEST #   /'
crib ps 2>&1 | sed 's/^/VMTEST #   crib ps: /'

# systemctl stop: SIGTERM to crib, which passes it to the workload; within TimeoutStopSec=10
t0=$(now_ms)
systemctl stop crib-web.service
t1=$(now_ms)
echo "VMTEST # systemctl stop crib-web took $((t1 - t0)) ms"
is "$([ $((t1 - t0)) -lt 10000 ] && echo within)" within "systemctl stop stops it within its timeout (10 s)"
wait_for 5 'journalctl -u crib-web.service -o cat --no-pager | grep -q "svc-web got TERM"'
ok $? "the workload got systemctl stop's SIGTERM (its trap wrote to the journal)"
is "$(systemctl show -p Result --value crib-web.service)" success "and ended cleanly (Result=success: no SIGKILL)"
is "$([ -d /proc/${wl2:-0} ] && echo alive || echo gone)" gone "no process of it is left"
is "$([ -d $cg/system.slice/crib-web.service ] && echo left || echo gone)" gone "nor its cgroup"
is "$(crib ps -a 2>/dev/null | grep -c '^web ')" 0 "nor crib's record of it"

# a workload that ignores SIGTERM: at TimeoutStopSec=10 systemd kills every process of the
# unit (KillMode=mixed), the container's in its delegated cgroup included
sed 's#^args = .*#args = /bin/sh -c '"'"'trap "" TERM; echo svc-stubborn up; while :; do sleep 0.2; done'"'"'#; /^restart/d' \
	"$sd/web spec.ini" >/tmp/svc-stubborn.ini
crib generate systemd /tmp/svc-stubborn.ini >/etc/systemd/system/crib-svc-stubborn.service 2>/dev/null
systemctl daemon-reload
systemctl start crib-svc-stubborn.service
wait_for 5 '[ -n "$(workload "svc-stubborn up")" ]'
wl=$(workload "svc-stubborn up")
t0=$(now_ms)
systemctl stop crib-svc-stubborn.service
t1=$(now_ms)
echo "VMTEST # a workload that ignores SIGTERM (${wl:-none}): systemctl stop took $((t1 - t0)) ms, Result=$(systemctl show -p Result --value crib-svc-stubborn.service)"
is "$([ $((t1 - t0)) -ge 9500 ] && [ $((t1 - t0)) -lt 20000 ] && echo at-timeout)" at-timeout "a workload that ignores SIGTERM: stopped at TimeoutStopSec=10 ($((t1 - t0)) ms), not before, not long after"
is "$(systemctl show -p Result --value crib-svc-stubborn.service)" timeout "systemd says so (Result=timeout)"
is "$([ -d /proc/${wl:-0} ] && echo alive || echo gone):$([ -d $cg/system.slice/crib-svc-stubborn.service ] && echo left || echo gone)" "gone:gone" "SIGKILL reached the container in the unit's cgroup: no process, no cgroup left"
systemctl reset-failed crib-svc-stubborn.service 2>/dev/null

# a health check that starts failing (issue 36): crib, the unit's main process, runs the checks
# as crib run -d's monitor does; unhealthy, on_unhealthy = restart kills the workload and crib
# exits 137, and Restart=always starts the unit again. The failure is a file the test makes in
# the container's own /tmp (a tmpfs: the next run starts healthy)
cat >/tmp/svc-hc.ini <<'EOF2'
[container]
rootfs = /tmp/root-root/rootfs
[process]
args = /bin/sh -c 'echo svc-hc up; while :; do sleep 0.2; done'
[mounts]
tmpfs = /tmp
[security]
apparmor = unconfined
[service]
restart = always
healthcheck = /bin/sh -c "test ! -e /tmp/fail"
healthcheck_interval = 1s
healthcheck_retries = 2
on_unhealthy = restart
EOF2
crib generate systemd /tmp/svc-hc.ini >/etc/systemd/system/crib-svc-hc.service 2>/tmp/err
is "$?" 0 "crib generate systemd takes a spec with a healthcheck"
systemctl daemon-reload
systemctl start crib-svc-hc.service 2>/tmp/err
say "  start stderr: " /tmp/err
# hc_health: the health crib ps --format=ini shows for svc-hc
hc_health() { crib ps --format=ini 2>/dev/null | awk '$0 == "[container svc-hc]" {f = 1; next} /^\[/ {f = 0} f && $1 == "health" {print $3; exit}'; }
# hc_cribs: crib's processes of the unit (crib and its checker, run --name svc-hc)
hc_cribs() {
	for p in /proc/[0-9]*; do
		case "$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)" in *"run --name svc-hc "*) echo "${p#/proc/}" ;; esac
	done
}
wait_for 30 '[ "$(hc_health)" = healthy ]'
h=$(hc_health)
s=$(unit_show crib-svc-hc.service)
echo "VMTEST # healthcheck unit: $s, crib ps health = $h"
is "$(prop "$s" ActiveState):$(prop "$s" NRestarts):$h" "active:0:healthy" "a unit with a healthcheck: active, crib ps --format=ini shows health = healthy"
main=$(prop "$s" MainPID)
wl=$(workload "svc-hc up")
crib exec svc-hc -- /bin/sh -c 'touch /tmp/fail'
ok $? "crib exec svc-hc touches /tmp/fail inside: the check fails from now on"
t0=$(now_ms)
wait_for 60 '[ "$(systemctl show -p NRestarts --value crib-svc-hc.service)" = 1 ] && [ "$(systemctl is-active crib-svc-hc.service)" = active ] && [ -n "$(workload "svc-hc up")" ]'
t1=$(now_ms)
s=$(unit_show crib-svc-hc.service)
echo "VMTEST # after the check started failing ($((t1 - t0)) ms): $s"
journalctl -u crib-svc-hc.service -o cat --no-pager 2>&1 | tail -n 6 | sed 's/^/VMTEST #   journal: /'
main2=$(prop "$s" MainPID)
wl2=$(workload "svc-hc up")
is "$(prop "$s" NRestarts):$(prop "$s" ActiveState)" "1:active" "unhealthy: crib killed the workload and exited, and Restart=always restarted the unit (NRestarts=1)"
[ -n "$main2" ] && [ "$main2" != "$main" ] && [ -n "$wl2" ] && [ "$wl2" != "${wl:-}" ] && descends "$wl2" "$main2"
ok $? "a new crib (MainPID $main2, was $main) and a new workload (${wl2:-none}, was ${wl:-none})"
journalctl -u crib-svc-hc.service -o cat --no-pager | grep -q "'svc-hc' is unhealthy (2 failed checks in a row): restarting it (on_unhealthy = restart)"
ok $? "the journal has crib's unhealthy line"
journalctl -u crib-svc-hc.service -o cat --no-pager | grep -q "status=137"
ok $? "systemd saw crib exit with the workload's 137"
systemctl stop crib-svc-hc.service
is "$(hc_cribs | wc -l):$([ -d /proc/${main2:-0} ] && echo alive || echo gone)" "0:gone" "systemctl stop: crib and its checker gone ($(hc_cribs | tr '\n' ' '))"
systemctl reset-failed crib-svc-hc.service 2>/dev/null

# notify = container: the container's own READY=1 makes the unit active, through crib's socket,
# with crib's MAINPID; what a hostile container sends besides (MAINPID=1, descriptors, 64 KiB,
# garbage) never reaches systemd as it is
cat >/tmp/svc-ready.ini <<'EOF2'
[container]
rootfs = /tmp/root-root/rootfs
[process]
args = /bin/sh -c 'sleep 2; notify-send attack; notify-send ready; exec sleep 1000'
[security]
apparmor = unconfined
[service]
notify = container
EOF2
# the helper in root's copy of the rootfs (a bind needs a mountpoint, which container root
# cannot make in a rootfs of host root's on this 6.1 kernel: tmpfs has no idmapped mounts)
cp /usr/local/bin/notify-send /tmp/root-root/rootfs/bin/
# and a /run, as images have: crib mounts a tmpfs there for the socket (this test rootfs has
# none, and container root cannot make one in a rootfs of host root's here)
mkdir -p /tmp/root-root/rootfs/run
crib generate systemd /tmp/svc-ready.ini >/etc/systemd/system/crib-svc-ready.service 2>/dev/null
sed 's#^args = .*#args = /bin/sleep 1000#' /tmp/svc-ready.ini >/tmp/svc-quiet.ini
crib generate systemd /tmp/svc-quiet.ini >/etc/systemd/system/crib-svc-quiet.service 2>/dev/null
mkdir -p /etc/systemd/system/crib-svc-quiet.service.d
printf '[Service]\nTimeoutStartSec=4\n' >/etc/systemd/system/crib-svc-quiet.service.d/short.conf
systemctl daemon-reload
t0=$(now_ms)
systemctl start crib-svc-ready.service 2>/tmp/err
rc=$?
t1=$(now_ms)
say "  start stderr: " /tmp/err
s=$(unit_show crib-svc-ready.service)
echo "VMTEST # notify = container: $s, start took $((t1 - t0)) ms"
journalctl -u crib-svc-ready.service -o cat --no-pager 2>&1 | tail -n 8 | sed 's/^/VMTEST #   journal: /'
is "$rc:$(prop "$s" ActiveState)" "0:active" "notify = container: the container's READY=1 makes the unit active"
is "$([ $((t1 - t0)) -ge 2000 ] && echo after)" after "not before the container said it (it waits 2 s first): $((t1 - t0)) ms"
main=$(prop "$s" MainPID)
is "$(readlink /proc/$main/exe 2>&1)" /usr/local/bin/crib "MainPID is crib's ($main), though the container sent MAINPID=1"
is "$(systemctl show -p StatusText --value crib-svc-ready.service)" "ready, said the container" "STATUS= from the container reaches systemd"
systemctl stop crib-svc-ready.service
t0=$(now_ms)
systemctl start crib-svc-quiet.service 2>/dev/null
rc=$?
t1=$(now_ms)
echo "VMTEST # notify = container, a container that never says READY: start exited $rc after $((t1 - t0)) ms, $(systemctl is-active crib-svc-quiet.service)"
is "$([ $rc != 0 ] && [ $((t1 - t0)) -ge 3500 ] && echo timed-out)" timed-out "a container that never says READY: the start times out (crib does not say it for it)"
systemctl stop crib-svc-quiet.service 2>/dev/null
systemctl reset-failed 2>/dev/null

# tester's user unit, lingering: crib generate systemd --user, systemctl --user
cat >/tmp/svc-user.ini <<'EOF2'
[container]
rootfs = /tmp/tester-root/rootfs
[process]
args = /bin/sh -c 'trap "exit 0" TERM; echo svc-user says hello; while :; do sleep 0.2; done'
[resources]
memory = 64M
[security]
apparmor = unconfined
[service]
restart = always
EOF2
chmod 644 /tmp/svc-user.ini
as_tester mkdir -p /home/tester/.config/systemd/user
as_tester sh -c 'crib generate systemd --user /tmp/svc-user.ini --name webu >/home/tester/.config/systemd/user/crib-webu.service' 2>/tmp/err
is "$?" 0 "crib generate systemd --user, as tester: exit 0"
say "  unit: " /home/tester/.config/systemd/user/crib-webu.service
has "$(cat /tmp/err)" "loginctl enable-linger tester" "and it hints at loginctl enable-linger"
has "$(cat /home/tester/.config/systemd/user/crib-webu.service)" "WantedBy=default.target" "the user unit is wanted by default.target"
as_tester systemctl --user daemon-reload
t0=$(now_ms)
as_tester systemctl --user start crib-webu.service 2>/tmp/err
rc=$?
t1=$(now_ms)
say "  start stderr: " /tmp/err
s=$(unit_show crib-webu.service --user)
echo "VMTEST # tester's crib-webu: $s, READY after $((t1 - t0)) ms"
is "$rc:$(prop "$s" ActiveState):$(prop "$s" Type)" "0:active:notify" "tester's user unit: active once crib says READY=1"
main=$(prop "$s" MainPID)
is "$(readlink /proc/$main/exe 2>&1)" /usr/local/bin/crib "its MainPID ($main) is crib's"
wait_for 5 '[ -n "$(workload "svc-user says")" ]'
wl=$(workload "svc-user says")
descends "${wl:-0}" "$main"
ok $? "the workload (${wl:-none}) is crib's descendant"
ucg=$(sed -n 's/^0:://p' /proc/${wl:-0}/cgroup 2>/dev/null)
unitcg=/user.slice/user-1000.slice/user@1000.service/app.slice/crib-webu.service
is "$ucg" "$unitcg/crib-webu/container" "Delegate=yes: the container's cgroup is inside the user unit's"
wait_for 5 'journalctl _SYSTEMD_USER_UNIT=crib-webu.service -o cat --no-pager | grep -q "svc-user says hello"'
ok $? "the journal has the user unit's container output (_SYSTEMD_USER_UNIT=crib-webu.service)"
journalctl -o verbose --no-pager 2>&1 | grep -B 30 "MESSAGE=svc-user says hello" | grep -E "_SYSTEMD_USER_UNIT|SYSLOG_IDENTIFIER|_SYSTEMD_UNIT|MESSAGE=" | head -n 5 | sed 's/^/VMTEST #   journal: /'

kill -KILL "${wl:-0}"
wait_for 15 '[ "$(as_tester systemctl --user show -p NRestarts --value crib-webu.service)" = 1 ] && [ -n "$(workload "svc-user says")" ]'
s=$(unit_show crib-webu.service --user)
is "$(prop "$s" NRestarts):$(prop "$s" ActiveState)" "1:active" "SIGKILL of its workload: Restart=always restarts it (NRestarts=1)"
wl2=$(workload "svc-user says")
t0=$(now_ms)
as_tester systemctl --user stop crib-webu.service
t1=$(now_ms)
is "$([ $((t1 - t0)) -lt 10000 ] && echo within):$(as_tester systemctl --user is-active crib-webu.service)" "within:inactive" "systemctl --user stop: stopped within its timeout ($((t1 - t0)) ms)"
is "$([ -d /proc/${wl2:-0} ] && echo alive || echo gone):$([ -d $cg$unitcg ] && echo left || echo gone)" "gone:gone" "no process and no cgroup of it left"

# --- crib's unit against podman's (issue 36): the time from systemctl start to active (READY
# for both: crib's Type=notify, podman's --sdnotify=conmon) of the same workload, on the test
# rootfs, as root, in units made by crib generate systemd and podman generate systemd --new,
# started and stopped in turn. No network for either (crib's default, podman's --network
# none). Only root's podman: tester's would need newuidmap and subordinate ids, which the
# image leaves out. podman's own trouble here (missing, no storage driver, an import or a
# run that fails) is a skip with its reason; a unit that does not become active is a failure.
# Every systemctl and podman call is bounded.
rounds=5
bench_wl='trap "exit 0" TERM; echo bench up; while :; do sleep 0.2; done'
echo "VMTEST # memory before podman: $(grep -E '^Mem(Total|Available):' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
pskip=""
pm() { timeout 120 podman "$@"; }
if ! command -v podman >/dev/null 2>&1; then
	pskip="podman is not in this guest's image"
else
	echo "VMTEST # $(podman --version 2>&1), $(crun --version 2>&1 | head -n 1), conmon $(conmon --version 2>&1 | head -n 1)"
	# the test rootfs as an image, its files root's (the guest's copy belongs to the mapped
	# range of tests/vm/run's guests)
	tar --numeric-owner --owner=0 --group=0 -C /rootfs -cf /tmp/bench-rootfs.tar . 2>/tmp/err
	# the storage driver: overlay where the guest's root (the initramfs's tmpfs) takes it, vfs
	# (a copy of the image per container: 3 MB here) where not; a driver's storage is wiped
	# before the next is tried (podman refuses to switch over an existing one)
	mkdir -p /etc/containers
	for d in overlay vfs; do
		rm -rf /var/lib/containers/storage /run/containers/storage /run/libpod
		printf '[storage]\ndriver = "%s"\nrunroot = "/run/containers/storage"\ngraphroot = "/var/lib/containers/storage"\n' \
			"$d" >/etc/containers/storage.conf
		pskip=""
		pm import /tmp/bench-rootfs.tar localhost/crib-bench:test >/dev/null 2>/tmp/perr ||
			pskip="podman import with the $d driver failed: $(tail -n 1 /tmp/perr)"
		[ -z "$pskip" ] && { out=$(pm run --rm --network none localhost/crib-bench:test /bin/echo podman-ok 2>/tmp/perr) &&
			[ "$out" = podman-ok ] || pskip="podman run with the $d driver failed: $(tail -n 1 /tmp/perr)"; }
		echo "VMTEST # podman with the $d storage driver: ${pskip:-import and a run work}"
		[ -z "$pskip" ] && break
	done
	rm -f /tmp/bench-rootfs.tar
fi
if [ -z "$pskip" ]; then
	pm create --name pbench --network none localhost/crib-bench:test /bin/sh -c "$bench_wl" >/dev/null 2>/tmp/perr &&
		(cd /etc/systemd/system && pm generate systemd --new --files --name pbench >/dev/null 2>>/tmp/perr) &&
		[ -s /etc/systemd/system/container-pbench.service ] ||
		pskip="podman create or generate systemd --new failed: $(tail -n 1 /tmp/perr)"
	pm rm -f pbench >/dev/null 2>&1
fi
if [ -n "$pskip" ]; then
	echo "VMTEST ok $((n += 1)) - $variant: crib's unit against podman's # SKIP $pskip"
else
	say "  podman's unit: " /etc/systemd/system/container-pbench.service
	cat >/tmp/bench.ini <<EOF2
[container]
rootfs = /tmp/root-root/rootfs
[process]
args = /bin/sh -c '$bench_wl'
[security]
apparmor = unconfined
EOF2
	crib generate systemd /tmp/bench.ini --name bench >/etc/systemd/system/crib-bench.service 2>/dev/null
	timeout 60 systemctl daemon-reload
	# start_ms UNIT: systemctl start's time in ms, "fail" when it failed or the unit is not
	# active after it; then stopped, and waited for (at most 90 s) to be inactive
	start_ms() {
		t0=$(now_ms)
		timeout 120 systemctl start "$1" 2>/tmp/err
		rc=$?
		t1=$(now_ms)
		if [ $rc = 0 ] && [ "$(timeout 30 systemctl is-active "$1")" = active ]; then
			echo $((t1 - t0))
		else
			echo fail
			timeout 30 journalctl -u "$1" -o cat --no-pager 2>&1 | tail -n 5 | sed "s/^/VMTEST #   $1: /" >&2
		fi
		timeout 90 systemctl stop "$1" 2>/dev/null
		timeout 30 systemctl reset-failed "$1" 2>/dev/null
	}
	# median LIST: the middle one of an odd count
	median() { echo "$1" | tr ' ' '\n' | grep . | sort -n | sed -n "$(((rounds + 1) / 2))p"; }
	# a start of each first, not counted: the first podman run of a boot loads its binaries
	# and storage, crib's its own
	w1=$(start_ms crib-bench.service)
	w2=$(start_ms container-pbench.service)
	echo "VMTEST # first starts, not counted: crib ${w1} ms, podman ${w2} ms"
	cs="" ps="" bad=0
	i=0
	while [ $i -lt $rounds ]; do
		i=$((i + 1))
		# alternating which goes first in a round
		if [ $((i % 2)) = 1 ]; then
			c=$(start_ms crib-bench.service)
			p=$(start_ms container-pbench.service)
		else
			p=$(start_ms container-pbench.service)
			c=$(start_ms crib-bench.service)
		fi
		echo "VMTEST # round $i: systemctl start to active: crib $c ms, podman $p ms"
		[ "$c" = fail ] || [ "$p" = fail ] && bad=$((bad + 1))
		cs="$cs $c" ps="$ps $p"
	done
	ok $bad "crib's unit and podman's both became active in each of $rounds rounds"
	if [ $bad = 0 ]; then
		mc=$(median "$cs") mp=$(median "$ps")
		echo "VMTEST # systemctl start to active, median of $rounds: crib $mc ms, podman $mp ms, crib/podman $(awk -v c="$mc" -v p="$mp" 'BEGIN { printf "%.2f", c / p }')"
	fi
	echo "VMTEST # memory after: $(grep -E '^MemAvailable:' /proc/meminfo | tr -s ' ')"
	timeout 60 systemctl disable crib-bench.service >/dev/null 2>&1
	rm -f /etc/systemd/system/crib-bench.service /etc/systemd/system/container-pbench.service
	timeout 60 systemctl daemon-reload
fi

# --- for the second boot (tests/vm/run boots this guest again, crib.boot=2): a root service and
# tester's user service, each enabled and not started, their specs and rootfs copies, written
# with the unit files and tester's linger to the raw disk /dev/vda that tests/vm/systemd-init
# reads back before systemd starts
mkdir -m 0700 /srv/boot
cp -a /rootfs /srv/boot/rootfs
cat >/srv/boot/root.ini <<'EOF2'
[container]
rootfs = /srv/boot/rootfs
[process]
args = /bin/sh -c 'echo boot-root up; while :; do sleep 1; done'
[security]
apparmor = unconfined
[service]
restart = always
EOF2
crib generate systemd /srv/boot/root.ini --name bootr >/etc/systemd/system/crib-bootr.service 2>/dev/null
systemctl enable crib-bootr.service 2>&1 | sed 's/^/VMTEST #   enable: /'
as_tester mkdir -p -m 0700 /home/tester/boot
cp -a /rootfs /home/tester/boot/rootfs
chown -R 1000:1000 /home/tester/boot/rootfs
sed 's#/srv/boot/rootfs#/home/tester/boot/rootfs#; s#boot-root#boot-user#' /srv/boot/root.ini >/home/tester/boot/user.ini
chown 1000:1000 /home/tester/boot/user.ini
as_tester sh -c 'crib generate systemd --user /home/tester/boot/user.ini --name bootu >/home/tester/.config/systemd/user/crib-bootu.service' 2>/dev/null
as_tester systemctl --user enable crib-bootu.service 2>&1 | sed 's/^/VMTEST #   enable --user: /'
loginctl enable-linger tester
tar -C / -cf /tmp/boot.tar etc/systemd/system/crib-bootr.service \
	etc/systemd/system/multi-user.target.wants/crib-bootr.service srv/boot \
	home/tester/.config/systemd home/tester/boot var/lib/systemd/linger 2>/tmp/err
say "  tar: " /tmp/err
size=$(stat -c %s /tmp/boot.tar)
[ -b /dev/vda ] || echo "VMTEST # no block device /dev/vda (tests/vm/systemd-init loads virtio_blk): $(ls -l /dev/vda 2>&1)"
{ [ -b /dev/vda ] && printf 'CRIBBOOT%016d' "$size" | dd of=/dev/vda bs=512 conv=sync,notrunc 2>/dev/null &&
	dd if=/tmp/boot.tar of=/dev/vda bs=512 seek=1 conv=notrunc 2>/dev/null && sync; }
ok $? "the first boot's state ($size bytes: two enabled units, their specs and rootfs copies, tester's linger) is on /dev/vda for the second boot"

# nothing of crib's is left: root's crib/*, tester's crib-*, a scope of crib's (a transient
# scope goes when its last process does, and systemd, emulated without KVM on a loaded CI
# machine, has taken more than 2 s for it: give it at most 20 s); this service is not crib's
i=0
while :; do
	left=$(find $cg -mindepth 1 -type d \( -path "$cg/crib/*" -o -name 'crib*' \) \
		! -path "$cg/crib" ! -path "$cg${own#0::}" | sort)
	[ -z "$left" ] || [ $i -ge 200 ] && break
	sleep 0.1
	i=$((i + 1))
done
echo "VMTEST # crib's cgroups gone $((i / 10)).$((i % 10)) s after the last delete"
is "$left" "" "no cgroup of crib's is left behind${left:+ (left after 20 s: $(echo "$left" | sed "s|^$cg||" | tr '\n' ' '))}"

echo "VMTEST # tests done $(cut -d' ' -f1 /proc/uptime) s after boot"
# the second boot's summary is the guest's: the first one's, on a line of its own, must not
# pass for it when the second never gets as far (its tests are counted either way)
if grep -q 'crib.boot=1' /proc/cmdline; then
	echo "VMTEST # first boot: $((n - failed)) passed, $failed failed; the second boot follows"
else
	echo "VMTEST summary $nonce $((n - failed)) $failed"
fi
