#!/bin/sh
# Tests run inside a VM guest booted by tests/vm/run: crib on a stock kernel unlike the host's
# (AppArmor built in and on, or switched off, or user namespaces off; cgroup2 with every
# controller, or without memory, or cgroup v1 only, then hybrid), or on the patched minimal kernel of
# tests/vm/kernel/ with SECCOMP_CLONE_FILTER (the clone guest). Prints one "VMTEST ok|not ok N - text" line
# a test and a final "VMTEST summary NONCE PASSED FAILED".
exec </dev/null # the console is a terminal: keep crib's terminal = auto from using it
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
# crib refuses a writable rootfs that other users can reach (a setuid file its container made
# would run as the container's root, or the user, for them): root's is /rootfs, in /r, which is
# root's alone (tests/vm/run); user 1000's a copy in a 0700 directory of its own, as
# tests/run-all stages it. A spec names root's; as_user gives the user a copy naming theirs.
mkdir -m 0700 /tmp/vm-user
cp -a /r/rootfs /tmp/vm-user/rootfs
chown 1000:1000 /tmp/vm-user
urootfs=/tmp/vm-user/rootfs
spec() { # spec FILE: the test rootfs, then stdin
	{ printf '[container]\nrootfs = /rootfs\n'; cat; } >"$1"
}
# the leaf of the cgroup subtree /vm/cgroups.sh delegated to uid 1000 (none in the cgroupv1 guest)
session=/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/session.scope
[ -d $session ] || session=""
# as_user CMD...: CMD as uid 1000, started (as root, before the switch) in the user's session
# cgroup, as a program a user runs under systemd is; crib finds its delegated parent from there
as_user() {
	# a spec among the arguments: the user's copy of it, on the user's rootfs
	_n=$#
	while [ $_n -gt 0 ]; do
		_a=$1
		shift
		case $_a in
		/tmp/*.ini)
			if [ -f "$_a" ]; then
				sed "s|^rootfs = /rootfs\$|rootfs = $urootfs|" "$_a" >"${_a%.ini}.user.ini"
				chmod 644 "${_a%.ini}.user.ini"
				_a=${_a%.ini}.user.ini
			fi
			;;
		esac
		set -- "$@" "$_a"
		_n=$((_n - 1))
	done
	if [ -n "$session" ]; then
		sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec /bin/probe as 1000 1000 "$@"' as_user "$session" "$@"
	else
		/bin/probe as 1000 1000 "$@"
	fi
}

# every cgroup directory, v2 or v1; the list from before the tests is the one to come back to,
# but for /sys/fs/cgroup/crib, the parent crib keeps for root's containers (issue 14: crib/NAME,
# as systemd keeps machine.slice): a cgroup inside it is a leftover, the empty parent is not
cgroup_dirs() { find /sys/fs/cgroup -type d 2>/dev/null | sort; }
cgroup_dirs >/tmp/cgroups.before
echo /sys/fs/cgroup/crib >>/tmp/cgroups.before
cgroups_left() { cgroup_dirs | grep -vxF -f /tmp/cgroups.before; }
# remove what cgroups_left lists, deepest first, its processes killed (cgroup.kill, cgroup v2),
# so that the next test is not blamed for it
remove_cgroups() {
	cgroups_left | sort -r | while IFS= read -r d; do
		[ -e "$d/cgroup.kill" ] && echo 1 >"$d/cgroup.kill"
		tries=0
		until rmdir "$d" 2>/dev/null || [ $tries -ge 20 ]; do
			tries=$((tries + 1))
			sleep 0.1
		done
	done
}

# e2e FILE...: these tests of tests/e2e, each as root (in the root cgroup) and as user 1000 (in
# its session cgroup), each TAP line counted here; after each, no cgroup may be left behind.
# crib.roles=user (or root) on the command line runs one role: the two emulated 32-bit ARM
# guests share the suite's roles between them (see tests/vm/run), as each role of it takes ten
# minutes under software emulation. crib.roles=alternate runs the first test as root, the
# second as the user, and so on (arm64: its e2e suite took 13 minutes of a CI run for both
# roles, which x86_64 runs in full; what arm64 adds is its kernel and its system calls).
roles=$(sed -n 's/.*crib.roles=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
alternate=no
[ "$roles" = alternate ] && alternate=yes roles="root user"
[ -n "$roles" ] || roles="root user"
e2e() {
	mkdir -p /tmp/e2e-root /tmp/e2e-user /tmp/home-root /tmp/home-user
	chown 1000:1000 /tmp/e2e-user /tmp/home-user
	# root's and the user's rootfs copies live where other users cannot reach them (see
	# tests/run-all)
	chmod 0700 /tmp/e2e-root /tmp/e2e-user
	leaks_root=0 leaks_user=0 k=0
	for t in "$@"; do
		name=$(basename "$t" .t)
		these=$roles
		if [ $alternate = yes ]; then
			k=$((k + 1))
			these=root
			[ $((k % 2)) = 0 ] && these=user
		fi
		for role in $these; do
			t0=$(cut -d. -f1 /proc/uptime)
			# The scale tests at a guest's scale (QEMU emulates every instruction; the host
			# runs them in full), every assertion kept: the load test 100 runs in a row, not
			# the host's 1000 (its first 50 against its last 50 find growth all the same; 1000
			# took 480 s a role in the 32-bit ARM guests), and 3 rounds of 16 at a time, not 5;
			# 06-many 50 containers in a row, not 200; 27-hostile's descriptor walks fds 0 to
			# 24, not 40, and none through podman (the host's 100 podman runs took 370 s in the
			# x86_64 guest). Together 266 s of the armhf guest's root role where they took 364
			# s. The rootfs swap race keeps 20 s, not the host's 90: it is the race's only run
			# on an ARM kernel, and 10 s would save 10 s a role
			rootfs=/r/rootfs
			[ $role = user ] && rootfs=$urootfs
			# the tests that make an image of the rootfs take root's files from this tar
			# (tests/vm/run: the x86_64 guests, which have the engines)
			rtar=""
			[ -f /vm/rootfs.tar ] && rtar=/vm/rootfs.tar
			env="TOP=/vm CONFORMANCE_PEERS=/usr/sbin/runc,/usr/bin/crun CRIB=/bin/crib CRIB_HOOKS=/bin/crib-hooks ROOTFS=$rootfs ${rtar:+ROOTFS_TAR=$rtar} TESTDATA=/vm/data INI_DUMP=/bin/ini-dump SWAP_RACE=/bin/swap-race ENTER=/bin/enter RACE_SECONDS=20 LOAD_RUNS=100 LOAD_ROUNDS=3 MANY_RUNS=50 HOSTILE_FD_MAX=24 PODMAN_FDS= ROLE=$role TMPDIR=/tmp/e2e-$role HOME=/tmp/home-$role PATH=$PATH"
			if [ $role = root ]; then
				env $env sh "$t" >/tmp/e2e.out 2>&1
			else
				as_user env $env sh "$t" >/tmp/e2e.out 2>&1
			fi
			while IFS= read -r l; do
				case "$l" in
				"ok "*"# SKIP"*)
					r=${l#ok } # the whole test number goes, not only its first digit
					n=$((n + 1)); echo "VMTEST ok $n - e2e $role $name:${r#"${r%%[!0-9]*}"}" ;;
				"ok "*) n=$((n + 1)); echo "VMTEST ok $n - e2e $role $name:${l#ok [0-9]* -}" ;;
				"not ok "*"# TODO"*) n=$((n + 1)); echo "VMTEST not ok $n - e2e $role $name:${l#not ok [0-9]* -}" ;;
				"not ok "*) n=$((n + 1)); failed=$((failed + 1)); echo "VMTEST not ok $n - e2e $role $name:${l#not ok [0-9]* -}" ;;
				"1..0 # SKIP"*) echo "VMTEST # e2e $role $name skipped:${l#1..0 # SKIP}" ;;
				"#"*) echo "VMTEST $l" ;;
				esac
			done </tmp/e2e.out
			grep -q '^1\.\.' /tmp/e2e.out || {
				n=$((n + 1)); failed=$((failed + 1))
				echo "VMTEST not ok $n - e2e $role $name: ended without a plan"
				tail -n 5 /tmp/e2e.out | sed 's/^/VMTEST #   /'
			}
			echo "VMTEST # e2e $role $name took $(($(cut -d. -f1 /proc/uptime) - t0)) s"
			left=$(cgroups_left)
			if [ -n "$left" ]; then
				if [ $role = root ]; then leaks_root=$((leaks_root + 1)); else leaks_user=$((leaks_user + 1)); fi
				echo "$left" | sed "s/^/VMTEST # e2e $role $name left a cgroup behind: /"
				remove_cgroups
			fi
		done
	done
	case " $roles " in *" root "*)
		ok $leaks_root "e2e as root: no test left a cgroup behind ($leaks_root did)" ;;
	*) echo "VMTEST # e2e: not run as root in this guest (crib.roles=$roles)" ;;
	esac
	case " $roles " in *" user "*)
		ok $leaks_user "e2e as user 1000: no test left a cgroup behind, only session.scope is in user@1000.service ($leaks_user did)" ;;
	*) echo "VMTEST # e2e: not run as user 1000 in this guest (crib.roles=$roles)" ;;
	esac
}

# the last check of every guest, and the summary line tests/vm/run waits for
finish() {
	is "$(cgroups_left)" "" "no cgroup is left behind that was not there before the tests"
	echo "VMTEST summary $nonce $((n - failed)) $failed"
	exit 0
}

# the words of crib run with [resources] memory and of crib check where no limit can hold, as
# root and as user 1000 (in the cgroupv1 guest): cgroup v1 is the reason, the boot line its fix,
# not a delegation crib could ask systemd for (issue 32). WHERE says what the host is now.
limits_words() { # limits_words WHERE
	spec /tmp/lw.ini <<'EOF2'
readonly_rootfs = yes
[process]
args = /bin/echo ran
[resources]
memory = 64M
EOF2
	for who in root user; do
		if [ $who = root ]; then crib run /tmp/lw.ini >/dev/null 2>/tmp/err; else as_user crib run /tmp/lw.ini >/dev/null 2>/tmp/err; fi
		rc=$?
		sed 's/^/VMTEST #   /' /tmp/err
		is "$rc" 125 "$1, $who: crib run with memory = 64M: 125"
		has "$(cat /tmp/err)" "the memory limits cannot be applied: the memory controller is on a cgroup v1 hierarchy here" \
			"$1, $who: blamed on cgroup v1"
		has "$(cat /tmp/err)" "hint: boot with systemd.unified_cgroup_hierarchy=1" "$1, $who: the fix is the boot line"
		case "$(cat /tmp/err)" in *systemd-run* | *delegated*) ok 1 "$1, $who: no word of delegation, no systemd-run" ;;
		*) ok 0 "$1, $who: no word of delegation, no systemd-run" ;; esac
		if [ $who = root ]; then crib check --format=ini >/tmp/check.ini 2>&1; else as_user crib check --format=ini >/tmp/check.ini 2>&1; fi
		row=$(sed -n '/^\[cgroup_delegation\]$/,/^$/p' /tmp/check.ini)
		echo "$row" | sed 's/^/VMTEST #   /'
		has "$row" 'status = "disabled"' "$1, $who: crib check says containers' cgroups are disabled, not ok"
		has "$row" "memory, cpu, pids, io, cpuset are on cgroup v1 hierarchies" "$1, $who: crib check says why"
		has "$row" 'remedy = "boot with systemd.unified_cgroup_hierarchy=1' "$1, $who: and the boot line"
	done
}

# cgroupv1: the v1-only host's words, then systemd's hybrid setup: cgroup2 at unified/ with no
# controller (all of them are on v1), user 1000 first without a cgroup of its own (a login
# whose session scope is root's), then with one delegated, which gets no controller either;
# the engine-mode and hybrid e2e tests run on it
cgroup_v1_words() {
	cg=/sys/fs/cgroup
	limits_words "cgroup v1 only"
	mount -o remount,rw $cg && mkdir $cg/unified && mount -t cgroup2 -o nosuid,nodev,noexec cgroup2 $cg/unified
	ok $? "hybrid: cgroup2 mounted at $cg/unified"
	mount -o remount,ro $cg
	echo "VMTEST # hybrid: cgroup2's controllers: $(cat $cg/unified/cgroup.controllers) (those not on v1)"
	is "$(tr ' ' '\n' <$cg/unified/cgroup.controllers | grep -cxE 'memory|cpu|pids|io|cpuset')" 0 \
		"hybrid: cgroup2 has none of crib's controllers (memory, cpu, pids, io, cpuset are on cgroup v1)"
	is "$(grep -c '^0::/$' /proc/self/cgroup)" 1 "hybrid: /proc/self/cgroup has its 0:: line"
	cgroup_dirs >/tmp/cgroups.before
	echo $cg/unified/crib >>/tmp/cgroups.before
	limits_words "hybrid, user 1000 without a delegated cgroup"
	user=$cg/unified/user.slice/user-1000.slice/user@1000.service
	mkdir -p $user/session.scope
	chown 1000:1000 $user $user/cgroup.procs $user/cgroup.subtree_control $user/cgroup.threads \
		$user/session.scope $user/session.scope/cgroup.procs
	session=$user/session.scope
	cgroup_dirs >/tmp/cgroups.before
	echo $cg/unified/crib >>/tmp/cgroups.before
	is "$(as_user cat /proc/self/cgroup | grep '^0::')" "0::${session#$cg/unified}" "hybrid: user 1000's tests now start in its delegated session.scope"
	limits_words "hybrid, user 1000 with a delegated cgroup"
	e2e /vm/e2e/32-*.t
}

# matrix: another release's kernel (tests/vm/run's other_kernels): crib check and its JSON
# report as root and as user 1000, then a container per security level (crib levels) and per
# network mode this guest has, each as root and as the user and looked at from inside; not the
# e2e suite, so that each such kernel costs a minute or two
as_role() { # as_role root|user CMD...: CMD as root, or as user 1000 (as_user)
	if [ "$1" = root ]; then
		shift
		"$@"
	else
		shift
		as_user "$@"
	fi
}
matrix() {
	for who in root user; do
		as_role $who crib check >/tmp/check.out 2>&1
		rc=$?
		echo "VMTEST # crib check as $who (exit $rc):"
		sed 's/^/VMTEST #   /' /tmp/check.out
		[ $rc -le 1 ]
		ok $? "$who: crib check finds containers possible on $(uname -r) (exit $rc: 0 or 1)"
		as_role $who crib check --report --format=json >/tmp/r.json 2>/tmp/err
		is "$?" "$rc" "$who: crib check --report --format=json exits as crib check did"
		is "$(head -n 1 /tmp/r.json)$(tail -n 1 /tmp/r.json)" "{}" "$who: the report is one JSON object"
		has "$(cat /tmp/r.json)" "\"release\":\"$(uname -r)\"" "$who: the report names this kernel"
	done
	levels=$(crib levels | head -n 1 | cut -d' ' -f2-)
	echo "VMTEST # levels: $levels"
	for level in $levels; do
		printf "[process]\nargs = %s\n[security]\nlevel = %s\n" \
			"/bin/sh -c 'id -u; grep ^Seccomp: /proc/self/status | cut -f2; grep ^CapEff: /proc/self/status | cut -f2'" \
			"$level" | spec /tmp/l.ini
		# the level's seccomp mode: 2 (a filter) but for unconfined's 0
		want=2
		[ "$level" = unconfined ] && want=0
		for who in root user; do
			out=$(as_role $who crib run /tmp/l.ini 2>/tmp/err)
			is "$?" 0 "$who, level $level: the container runs"
			set -- $out
			is "${1:-}:${2:-}" "0:$want" "$who, level $level: uid 0 inside, Seccomp: $want"
			echo "VMTEST #   CapEff: ${3:-}; stderr: $(tr '\n' '|' </tmp/err)"
			if [ "$level" = strict ]; then is "${3:-}" 0000000000000000 "$who, level strict: no capability"; fi
		done
	done
	# a system restores its random seed at boot: this one has none, and bullseye's 5.10 blocks
	# getrandom(2) until its pool is ready (later kernels seed it at once), which pasta's start
	# then met with EINTR; one blocking read of /dev/random waits for it here
	timeout 120 head -c 1 /dev/random >/dev/null || echo "VMTEST # the random pool was not ready in 120 s"
	modes=none
	command -v slirp4netns >/dev/null && modes="$modes slirp4netns"
	command -v pasta >/dev/null && modes="$modes pasta"
	echo "VMTEST # network modes here: $modes"
	for mode in $modes; do
		printf "[process]\nargs = %s\n[network]\nmode = %s\n" \
			"/bin/sh -c 'ls /sys/class/net | tr \"\\n\" \" \"; echo; ip -o -4 addr show | grep -v \" lo \" | wc -l'" \
			"$mode" | spec /tmp/n.ini
		for who in root user; do
			out=$(as_role $who crib run /tmp/n.ini 2>/tmp/err)
			is "$?" 0 "$who, network $mode: the container runs"
			echo "VMTEST #   interfaces: $(echo "$out" | head -n 1); stderr: $(tr '\n' '|' </tmp/err)"
			if [ $mode = none ]; then
				is "$(echo "$out" | tr -d ' \n')" lo0 "$who, network none: only lo, no address beyond it"
			else
				is "$(echo "$out" | tail -n 1)" 1 "$who, network $mode: an interface with an IPv4 address beside lo"
			fi
		done
	done
}

echo
echo "VMTEST # guest kernel $(uname -r) $(uname -m), cmdline: $(cat /proc/cmdline)"
[ -r /proc/device-tree/model ] && echo "VMTEST # machine: $(tr -d '\0' </proc/device-tree/model)"
# the modules a system loads on first use (overlay, tun) where this guest has not loaded them:
# for crib check's report alone (these guests have no modprobe), removed after it, so that the
# report says what the kernel has and the tests find the guest as before (tests/vm/run)
loaded=""
for m in /vm/report-modules/"$(uname -r)"/*.ko; do
	[ -e "$m" ] && [ ! -d "/sys/module/$(basename "$m" .ko)" ] && insmod "$m" && loaded="$loaded $(basename "$m" .ko)"
done
# crib check's report, for the console log only (tests/vm/run passes on VMTEST lines alone)
crib check 2>&1 | sed "s/^/crib check [$variant]| /"
# and its JSON report as root, before any test changed the guest, for tests/vm/run's kernel
# matrix (build/kernel-matrix.*): base64 in numbered lines of 76 characters (a console line
# stays short, and a line the kernel's messages broke is found), then their count and the
# report's MD5 (busybox has no cksum)
crib check --report --format=json >/tmp/report.json 2>/dev/null
base64 </tmp/report.json | awk '{ print "VMTEST json " NR " " $0 }'
echo "VMTEST json-end $(base64 </tmp/report.json | wc -l) $(md5sum /tmp/report.json | cut -d' ' -f1)"
for m in $loaded; do rmmod "$m" || echo "VMTEST # rmmod $m failed: the tests find it loaded"; done

# the cgroups /vm/cgroups.sh made (the cgroupv1 guest reports its own below)
if [ -n "$session" ]; then
	echo "VMTEST # cgroup2 controllers: $(cat /sys/fs/cgroup/cgroup.controllers)"
	echo "VMTEST # delegated to uid 1000: ${session%/*} (controllers: $(cat "${session%/*}/cgroup.controllers")), its tests start in session.scope"
	is "$(cat /sys/fs/cgroup/cgroup.subtree_control)" "$(cat /sys/fs/cgroup/cgroup.controllers)" \
		"cgroup2: every controller is enabled below the root"
	is "$(cat /proc/self/cgroup)" "0::/" "tests as root run in the root cgroup"
	is "$(as_user cat /proc/self/cgroup)" "0::${session#/sys/fs/cgroup}" "tests as user 1000 run in its delegated session.scope"
fi

# the initramfs run before switch_root: pivot_root fails there, crib falls back
early=$(cat /vm/early 2>/dev/null)
has "$early" "rc=0" "on the initramfs itself crib still runs the container (MS_MOVE + chroot)"
has "$early" "pivot_root is not possible here" "and warns that the chroot is escapable"

# an ARMv6 board (the Pi Zero guest) given Debian's armhf busybox, built for ARMv7: crib reads
# its build attributes and refuses it with the reason, where the kernel would run it into SIGILL
if [ "$variant" = default ] && [ -x /rootfs/bin/busybox-armv7 ]; then
	spec /tmp/v7.ini <<'EOF2'
[process]
args = /bin/busybox-armv7 true
[security]
apparmor = unconfined
EOF2
	crib run /tmp/v7.ini >/dev/null 2>/tmp/err
	is "$?" 126 "an ARMv7 program on an ARMv6 board: 126, not SIGILL (132)"
	has "$(cat /tmp/err)" "'/bin/busybox-armv7': it is built for ARMv7; this machine is ARMv6KZ (armv6l)" \
		"and the error says which ARM each is"
	has "$(cat /tmp/err)" "Debian's armel" "and which rootfs to use"
fi

case "$variant" in
default)
	spec /tmp/h.ini <<'EOF2'
[process]
args = /bin/sh -c 'echo hello; grep ^Seccomp: /proc/self/status | cut -f2; /usr/local/bin/probe syscall keyctl 0; /usr/local/bin/probe syscall 1000; /usr/local/bin/probe syscall clone3 0 0'
[security]
apparmor = unconfined
EOF2
	out=$(crib run /tmp/h.ini 2>/tmp/err)
	is "$(echo $out)" "hello 2 EPERM ENOSYS ENOSYS" "root: a container with its seccomp filter (keyctl EPERM, unnamed and clone3 ENOSYS)"
	out=$(as_user crib run /tmp/h.ini 2>/tmp/err)
	is "$(echo $out)" "hello 2 EPERM ENOSYS ENOSYS" "an unprivileged user: the same container"
	out=$(as_user crib run /tmp/h.ini -- cat /proc/self/uid_map 2>/dev/null | tr -s ' ')
	is "$(echo $out)" "0 1000 1" "its uid 1000 is 0 inside"
	out=$(as_user crib run /tmp/h.ini -- sh -c 'cat /proc/1/comm; echo $$; hostname' 2>/dev/null)
	is "$(echo $out)" "crib 2 $(hostname)" "crib's init is pid 1, the workload pid 2"
	crib check --format=ini >/tmp/check.ini
	is "$?" "1" "crib check exits 1 (crib's AppArmor profiles are not loaded yet)"
	grep -A2 '^\[seccomp_filter\]' /tmp/check.ini | grep -q 'status = "ok"'
	ok $? "crib check: seccomp filters ok"
	grep -A2 '^\[apparmor\]' /tmp/check.ini | grep -q 'status = "ok"'
	ok $? "crib check: AppArmor ok (built in and on)"
	# crib.e2e=NAME,... (tests/vm/run's CRIB_VM_E2E, a developer's shortcut): only those
	only=$(sed -n 's/.*crib.e2e=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
	if [ "$only" = none ]; then
		echo "VMTEST # crib.e2e=none: no e2e test"
	elif [ -n "$only" ]; then
		set --
		for o in $only; do
			if [ "$o" = conformance ]; then set -- "$@" /vm/make/conformance.t; else set -- "$@" "/vm/e2e/$o.t"; fi
		done
		e2e "$@"
	else
		# and the OCI conformance cases (the guest with jq: the x86_64 one), on cgroup v2 alone
		e2e /vm/e2e/*.t /vm/make/conformance.t
	fi
	if ! command -v apparmor_parser >/dev/null 2>&1; then
		echo "VMTEST # no apparmor_parser in this guest: the AppArmor profile is tested in the x86_64 guest"
		finish
	fi
	sed -i '/^apparmor = unconfined$/d' /tmp/h.ini
	crib run /tmp/h.ini >/dev/null 2>/tmp/err
	has "$(cat /tmp/err)" "cannot switch to AppArmor profile 'crib-default'" "AppArmor on, crib-default not loaded yet: prefer warns and runs"
	has "$(cat /tmp/err)" "sudo make install-apparmor" "naming the fix"

	# AppArmor: load crib's profiles and an auditing twin of crib-default
	apparmor_parser -r /vm/crib-default 2>/tmp/aa.err
	ok $? "apparmor_parser loads crib-default"
	sed 's/^/VMTEST #   /' /tmp/aa.err
	sed -e 's/^profile crib-default /profile crib-audit /' -e 's/^  deny /  audit deny /' \
		-e 's/peer=crib-default/peer=crib-audit/' /vm/crib-default >/tmp/crib-audit
	apparmor_parser -r /tmp/crib-audit 2>>/tmp/aa.err
	ok $? "and its auditing twin"
	out=$(crib run /tmp/h.ini -- cat /proc/self/attr/current 2>/dev/null)
	is "$out" "crib-default (enforce)" "the workload runs under crib-default"
	echo "VMTEST # the workload's /proc/self/attr/current: $out"
	out=$(as_user crib run /tmp/h.ini -- cat /proc/self/attr/current 2>/dev/null)
	is "$out" "crib-default (enforce)" "as an unprivileged user too"
	# crib exec asks for the profile through the host's /proc before it joins the container
	crib run -d --name aa /tmp/h.ini -- /bin/sleep 100 >/dev/null 2>&1
	out=$(crib exec aa -- cat /proc/self/attr/current 2>/dev/null)
	is "$out" "crib-default (enforce)" "crib exec: the program runs under the container's profile"
	crib rm -f aa >/dev/null 2>&1
	out=$(crib run --trace /tmp/h.ini 2>&1 >/dev/null)
	has "$out" "the workload will run as 'crib-default'" "--trace shows the label"

	# what the profile denies, with everything else out of the way: root, no user namespace,
	# every capability, no seccomp, nothing masked
	for profile in crib-audit unconfined; do
		spec /tmp/p.ini <<EOF2
[process]
args = /bin/sh -c 'echo h >/proc/sysrq-trigger && echo sysrq-ok; mkdir -p /mnt; mount -t tmpfs none /mnt && echo mount-ok; cat /sys/firmware/memmap/0/type >/dev/null && echo firmware-ok; true'
[namespaces]
user = no
[security]
capabilities = all
seccomp = unconfined
masked_paths = none
readonly_paths = none
apparmor = $profile
[mounts]
tmpfs = /mnt
EOF2
		dmesg -c >/dev/null 2>&1
		out=$(crib run /tmp/p.ini 2>/tmp/err)
		rc=$?
		# kauditd prints audit records on its own schedule, after crib has returned: wait for them
		tries=0
		while :; do
			log=$(dmesg 2>/dev/null | grep 'apparmor="DENIED"')
			[ $profile = unconfined ] || [ $tries -ge 50 ] && break
			echo "$log" | grep -q 'operation="mount"' && echo "$log" | grep -q sysrq-trigger &&
				echo "$log" | grep -q /sys/firmware/ && break
			tries=$((tries + 1))
			sleep 0.1
		done
		if [ $profile = unconfined ]; then
			is "$(echo $out)" "sysrq-ok mount-ok firmware-ok" "without the profile the same workload writes sysrq-trigger, mounts, reads /sys/firmware/memmap/0/type"
		else
			is "$rc:$(echo $out)" "0:" "crib-default denies writing /proc/sysrq-trigger, mount, and reading /sys/firmware/memmap/0/type"
			has "$log" 'operation="mount"' "the mount leaves an apparmor=\"DENIED\" line"
			has "$log" 'name="/proc/sysrq-trigger"' "the sysrq-trigger write leaves one"
			has "$log" 'name="/sys/firmware/memmap/0/type"' "the /sys/firmware read leaves one"
			echo "$log" | sed 's/^/VMTEST # /'
			[ -n "$log" ] || dmesg | tail -20 | sed 's/^/VMTEST # dmesg: /'

		fi
	done
	;;
pull)
	# the Pi Zero's pulls, a boot of their own (tests/vm/run: armel:pull): crib pull from the
	# test registry on the host (tests/vm/pizero.sh puts the test here, with the network, the
	# registry's CA and credentials). Not in the default boot: QEMU's emulated USB controller,
	# the network's, slowed every test of the e2e suite there 3-4 times (CI run of 2026-12-06)
	if [ -f /vm/pull-tests.sh ]; then
		. /vm/pull-tests.sh
	else
		ok 1 "the pull guest has its tests (/vm/pull-tests.sh, from tests/vm/pizero.sh)"
	fi
	;;
apparmor0)
	# said once per boot: forget an earlier run's (the initramfs run above) record
	rm -f /run/crib/_said-apparmor-off
	spec /tmp/h.ini <<'EOF2'
[process]
args = /bin/echo hello
EOF2
	out=$(crib run /tmp/h.ini 2>/tmp/err)
	is "$out" "hello" "AppArmor off at boot: prefer still runs"
	has "$(cat /tmp/err)" "AppArmor is not available (it is built into this kernel but disabled at boot)" "and warns why"
	has "$(cat /tmp/err)" "apparmor=1 security=apparmor" "with the kernel command line fix"
	printf '[security]\napparmor_mode = require\n' >>/tmp/h.ini
	crib run /tmp/h.ini >/dev/null 2>/tmp/err
	is "$?" 125 "require: 125"
	has "$(cat /tmp/err)" "apparmor=1 security=apparmor" "with the same remedy"
	crib check --format=ini >/tmp/check.ini
	grep -A2 '^\[apparmor\]' /tmp/check.ini | grep -q 'status = "disabled"'
	ok $? "crib check: AppArmor disabled"
	has "$(cat /tmp/check.ini)" "apparmor=1 security=apparmor" "crib check names the command line fix"
	# on a Raspberry Pi the command line is the one line of a file the firmware reads, and the
	# remedies name it: /boot/firmware/cmdline.txt, or /boot/cmdline.txt before bookworm
	if grep -q "Raspberry Pi" /proc/device-tree/model 2>/dev/null; then
		has "$(cat /tmp/check.ini)" "command line in /boot/cmdline.txt" "a Raspberry Pi without /boot/firmware: crib check names /boot/cmdline.txt"
		mkdir -p /boot/firmware
		sed 's/crib\.[^ ]*//g' /proc/cmdline >/boot/firmware/cmdline.txt
		crib check --format=ini >/tmp/check.ini
		has "$(cat /tmp/check.ini)" "command line in /boot/firmware/cmdline.txt" "with /boot/firmware/cmdline.txt (Raspberry Pi OS bookworm): crib check names that file"
		crib run /tmp/h.ini >/dev/null 2>/tmp/err
		has "$(cat /tmp/err)" "command line in /boot/firmware/cmdline.txt" "and so does the require error"
		# Raspberry Pi OS also boots with the memory controller off (cgroup_disable=memory)
		if grep -q '^memory.*0$' /proc/cgroups; then
			spec /tmp/m.ini <<'EOF2'
[process]
args = /bin/echo hello
[resources]
memory = 64M
EOF2
			crib check >/tmp/check.out 2>&1
			grep -A1 'cgroup v2 memory controller' /tmp/check.out | sed 's/^/VMTEST #   /'
			has "$(grep -A1 'cgroup v2 memory controller' /tmp/check.out)" "cgroup_enable=memory to the kernel command line in /boot/firmware/cmdline.txt" "memory off at boot: crib check names cgroup_enable=memory and the file"
			crib run /tmp/m.ini >/dev/null 2>/tmp/err
			rc=$?
			sed 's/^/VMTEST #   /' /tmp/err
			is "$rc" 125 "a spec with memory = 64M: 125"
			has "$(cat /tmp/err)" "cgroup_enable=memory to the kernel command line in /boot/firmware/cmdline.txt" "with the same remedy"
			printf 'resources_mode = prefer\n' >>/tmp/m.ini
			is "$(crib run /tmp/m.ini 2>/tmp/err)" hello "resources_mode = prefer: it runs"
			has "$(cat /tmp/err)" "the memory limits are skipped" "and says what it skipped"
		else
			echo "VMTEST # the memory controller is on here: Raspberry Pi OS's cgroup_disable=memory not tested"
		fi
		rm -r /boot/firmware
	fi
	;;
nomemcg | cgroupv1)
	# A Raspberry Pi's kernel (the memory controller built in, disabled at boot) and a cgroup
	# v1-only system: the cgroup checks only, in seconds, not the whole e2e suite
	for who in root user; do
		if [ $who = root ]; then crib check >/tmp/check.out 2>&1; else as_user crib check >/tmp/check.out 2>&1; fi
		echo "$?" >/tmp/check-$who.rc
		echo "VMTEST # crib check as $who (exit $(cat /tmp/check-$who.rc)):"
		sed 's/^/VMTEST #   /' /tmp/check.out
	done
	# as in the default guest (root: crib's AppArmor profiles are not loaded): the cgroups take no
	# container away
	is "$(cat /tmp/check-root.rc)" 1 "crib check as root exits 1, as in the default guest"
	is "$(cat /tmp/check-user.rc)" 0 "crib check as user 1000 exits 0"
	if [ $variant = nomemcg ]; then
		controllers=" $(cat /sys/fs/cgroup/cgroup.controllers) "
		case "$controllers" in *" memory "*) memory=1 ;; *) memory=0 ;; esac
		is "$memory" 0 "cgroup_disable=memory: the root's cgroup.controllers has no memory"
		has "$controllers" " pids " "but has pids"
		has "$controllers" " cpu " "and cpu"
		has " $(cat "${session%/*}/cgroup.controllers") " " pids " "user@1000.service has pids to enable"
	else
		echo "VMTEST # cgroup v1 only: $(grep -v '^0::' /proc/self/cgroup | tr '\n' ' ')"
		is "$(stat -f -c %T /sys/fs/cgroup)" tmpfs "cgroup v1: /sys/fs/cgroup is a tmpfs"
		is "$(grep -c ' cgroup2 ' /proc/mounts)" 0 "with no cgroup2 mounted"
		is "$(grep -c '^0::' /proc/self/cgroup)" 0 "/proc/self/cgroup has no 0:: line"
		has "$(cat /proc/self/cgroup)" ":memory:/" "but a v1 memory hierarchy"
	fi
	spec /tmp/h.ini <<'EOF2'
[process]
args = /bin/echo hello
EOF2
	is "$(crib run /tmp/h.ini 2>/tmp/err)" hello "root: a container without [resources] runs"
	is "$(as_user crib run /tmp/h.ini 2>/tmp/err)" hello "user 1000: so does theirs"
	set -- /vm/e2e/22-*.t
	if [ -e "$1" ]; then
		e2e "$@"
	else
		echo "VMTEST # no /vm/e2e/22-*.t yet: the resource tests run here once tests/e2e has them"
	fi
	[ $variant = cgroupv1 ] && cgroup_v1_words
	;;
clone)
	# the patched kernel of tests/vm/kernel/ (SECCOMP_CLONE_FILTER): crib run --count N clones
	# each container's filter from a template; only these checks run here, not the e2e suite
	crib check --format=ini >/tmp/check.ini 2>&1
	grep -A3 '^\[seccomp_clone_filter\]' /tmp/check.ini | grep -q 'status = "ok"'
	ok $? "crib check: seccomp_clone_filter ok (the kernel has the operation)"
	grep -A4 '^\[seccomp_clone_filter\]' /tmp/check.ini | sed 's/^/VMTEST #   /'
	# the kernel's own answers (tests/tools/clone-filter.c)
	/bin/clone-filter >/tmp/kernel.tap 2>&1
	grep '^ok \|^not ok ' /tmp/kernel.tap | while IFS= read -r l; do
		case "$l" in ok*) echo "0 ${l#ok * - }" ;; *) echo "1 ${l#not ok * - }" ;; esac
	done >/tmp/kernel.res
	while read -r rc text; do ok "$rc" "kernel: $text"; done </tmp/kernel.res
	is "$(grep -c . /tmp/kernel.res)" 11 "kernel: all 11 cases of clone-filter ran"
	spec /tmp/c.ini <<'EOF2'
[process]
args = /usr/local/bin/probe syscall keyctl 0
EOF2
	for who in root user; do
		if [ $who = root ]; then crib run --trace --count 3 /tmp/c.ini >/tmp/out 2>/tmp/err
		else as_user crib run --trace --count 3 /tmp/c.ini >/tmp/out 2>/tmp/err; fi
		is "$?" 0 "$who: crib run --count 3 exits 0"
		is "$(echo $(cat /tmp/out))" "EPERM EPERM EPERM" "$who: each container is under the profile (keyctl EPERM)"
		is "$(grep -c 'cloned from template pid' /tmp/err)" 3 "$who: the trace says each container's filter was cloned from the template"
		is "$(grep -c 'exit status 0' /tmp/err)" 3 "$who: and reports each container's status"
		grep 'seccomp template pid\|cloned from' /tmp/err | sed 's/^/VMTEST #   /'
		cat /tmp/err >>/tmp/all-err
	done
	# the cloned filter answers as the loaded one: every x86_64 (and x32) number, with the
	# argument values Docker's conditional rules test (probe verdicts), inside both
	spec /tmp/v.ini <<'EOF2'
[process]
args = /usr/local/bin/probe verdicts
EOF2
	crib run --trace /tmp/v.ini >/tmp/loaded 2>/tmp/err.loaded
	crib run --trace --count 2 /tmp/v.ini >/tmp/cloned 2>/tmp/err.cloned
	is "$(grep -c 'loaded [0-9]* instructions' /tmp/err.loaded)" 1 "one container alone: its filter is loaded, not cloned"
	is "$(grep -c 'cloned from template pid' /tmp/err.cloned)" 2 "a batch of two: both cloned"
	cat /tmp/err.cloned >>/tmp/all-err
	cat /tmp/loaded /tmp/loaded >/tmp/loaded2
	cmp -s /tmp/loaded2 /tmp/cloned
	ok $? "the cloned filter answers every system call as the loaded one ($(grep -c . /tmp/loaded) calls each, compared line for line)"
	cmp /tmp/loaded2 /tmp/cloned 2>&1 | sed 's/^/VMTEST #   /'
	is "$(grep '^250 ' /tmp/loaded)" "250 0,0,0 EPERM" "and the table is the profile's (keyctl: EPERM)"
	echo "VMTEST #   verdicts: $(awk '{print $3}' /tmp/loaded | sort | uniq -c | tr -s ' \n' ' ')"
	# a template holding another filter (here an allow-all one) is refused: the plan's program
	# is loaded (CRIB_TEST_TEMPLATE: in the test build, crib-hooks, only)
	CRIB_TEST_TEMPLATE=other crib-hooks run --trace --count 2 /tmp/c.ini >/tmp/out 2>/tmp/err
	is "$(echo $(cat /tmp/out))" "EPERM EPERM" "a template with another filter: the containers are under their own profile"
	is "$(grep -c 'template unusable: template pid [0-9]* holds another filter' /tmp/err)" 2 "the trace says the template holds another filter"
	is "$(grep -c 'loaded [0-9]* instructions' /tmp/err)" 2 "and that the program was loaded"
	is "$(grep -c 'cloned from' /tmp/err)" 0 "nothing was cloned"
	# a dead template: killed while the first container runs, the second loads
	spec /tmp/d.ini <<'EOF2'
[process]
args = /bin/sh -c 'sleep 3; /usr/local/bin/probe syscall keyctl 0'
EOF2
	# (a file of its own: the background crib truncates it only when it starts)
	rm -f /tmp/err.dead
	crib run --trace --count 2 /tmp/d.ini >/tmp/out 2>/tmp/err.dead &
	crib_pid=$!
	tries=0
	until grep -q 'seccomp template pid [0-9]* holds' /tmp/err.dead 2>/dev/null || [ $tries -ge 100 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	tpl=$(sed -n 's/.*seccomp template pid \([0-9]*\) holds.*/\1/p' /tmp/err.dead)
	kill -9 "$tpl"
	ok $? "the template (pid $tpl) is killed while the first container runs"
	wait $crib_pid
	is "$?" 0 "a template killed during the batch: crib run exits 0"
	is "$(echo $(cat /tmp/out))" "EPERM EPERM" "both containers are under the profile"
	has "$(cat /tmp/err.dead)" "template unusable: seccomp(SECCOMP_CLONE_FILTER, 0, pidfd of $tpl): No such process, loaded" \
		"the trace says the dead template was not usable and the program was loaded"
	grep 'template\|cloned\|loaded [0-9]' /tmp/err.dead | sed 's/^/VMTEST #   /'
	cat /tmp/err.dead >>/tmp/all-err
	# what each path costs, for the closing note (on the clock the guest's kernel chose)
	cs=/sys/devices/system/clocksource/clocksource0
	echo "VMTEST # clocksource: $(cat $cs/current_clocksource 2>/dev/null) (available: $(cat $cs/available_clocksource 2>/dev/null))"
	crib bench --seccomp >/tmp/bench 2>&1
	ok $? "crib bench --seccomp runs"
	has "$(cat /tmp/bench)" "clone from a template (SECCOMP_CLONE_FILTER)" "and measures the clone"
	sed 's/^/VMTEST # /' /tmp/bench
	# for tests/vm/run's closing note: how many containers got a cloned filter here, and the
	# two costs side by side
	cloned=$(grep -c 'cloned from template pid' /tmp/all-err)
	load=$(sed -n 's/.*kernel load: seccomp(SET_MODE_FILTER) *\([0-9.]*\) us/\1/p' /tmp/bench)
	clone=$(sed -n 's/.*clone from a template (SECCOMP_CLONE_FILTER) *\([0-9.]*\) us/\1/p' /tmp/bench)
	echo "VMTEST # closing: patched 6.1 ($(uname -r), QEMU without KVM): containers started with a cloned filter in this guest's last checks: $cloned; seccomp install cost of the default profile: kernel load ${load:-?} us, clone from a template ${clone:-?} us"
	;;
k[0-9]*)
	matrix
	;;
nouserns)
	spec /tmp/h.ini <<'EOF2'
[process]
args = /bin/echo hello
EOF2
	as_user crib run /tmp/h.ini >/dev/null 2>/tmp/err
	is "$?" 125 "user namespaces off: an unprivileged user gets 125"
	has "$(cat /tmp/err)" "crib: cannot create user namespace" "naming the step"
	has "$(cat /tmp/err)" "sysctl user.max_user_namespaces" "and the sysctl that fixes it"
	as_user crib check --format=ini >/tmp/check.ini
	is "$?" 2 "crib check exits 2: no containers possible"
	grep -A2 '^\[user_namespace\]' /tmp/check.ini | grep -q 'status = "disabled"'
	ok $? "crib check: user namespace disabled"
	;;
esac
finish
