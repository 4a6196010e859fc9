#!/bin/sh
# Tests run in the x86_64:systemd guest (tests/vm/systemd-image, booted by tests/vm/run): a real
# systemd as pid 1, user@1000.service started for the lingering user tester, and crib run by
# tester from a system service, whose cgroup (system.slice/crib-vmtest.service) is root's: the
# case where crib must ask tester's user manager over D-Bus for a delegated scope (issue 14).
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

# nothing of crib's is left: root's crib/*, tester's crib-*, a scope of crib's (a transient
# scope goes when its last process does: give systemd a moment); this service is not crib's
i=0
while :; do
	left=$(find $cg -mindepth 1 -type d \( -path "$cg/crib/*" -o -name 'crib*' \) \
		! -path "$cg/crib" ! -path "$cg${own#0::}" | sort)
	[ -z "$left" ] || [ $i -ge 20 ] && break
	sleep 0.1
	i=$((i + 1))
done
is "$left" "" "no cgroup of crib's is left behind"

echo "VMTEST # tests done $(cut -d' ' -f1 /proc/uptime) s after boot"
echo "VMTEST summary $nonce $((n - failed)) $failed"
