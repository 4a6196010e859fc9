#!/bin/sh
# Issue 31, hole 9: a default bound on a container's processes. A container started 1000
# processes, and would have gone on (podman's default is 2048). Now the default level has
# nproc = 2048: RLIMIT_NPROC in the container's user namespace, counted per container uid there
# and out of container root's reach; with user = no, where it binds no one, the pids.max of the
# cgroup crib makes for the device program. A container that tries to start more fails to, the
# limit shows from the host (/proc/PID/limits, pids.max), and a spec may set its own.
. "$(dirname "$0")/../lib/libtest.sh"

P=/usr/local/bin/probe
S="$T/state"

spec "$T/many.ini" <<EOF2
[process]
args = $P procs 2100
EOF2
run_crib run "$T/many.ini"
set -- $out
assert_eq "$rc:$1:${3:-}" "0:started:EAGAIN" "the default level: starting 2100 processes fails, EAGAIN ($out)"
[ "${2:-9999}" -lt 2048 ] && [ "${2:-0}" -gt 2000 ]
ok $? "after fewer than 2048 (the bound counts crib's init and the probe too): $2"

spec "$T/more.ini" <<EOF2
[process]
args = $P procs 2100
[limits]
nproc = 3000
EOF2
hard=$(awk '/^Max processes/ {print $4}' /proc/self/limits)
if [ "$hard" != unlimited ] && [ "$hard" -lt 3000 ]; then
	# (a small machine: the kernel's default hard limit is a share of its memory)
	skip "the caller's hard limit of processes is $hard here: a spec cannot ask for 3000"
else
	run_crib run "$T/more.ini"
	assert_eq "$rc:$out" "0:started 2100" "a spec's own nproc = 3000 overrides it: all 2100 start" ||
		echo "#   $err"
fi

spec "$T/less.ini" <<EOF2
[process]
args = $P procs 2100
[limits]
nproc = 50
EOF2
run_crib run "$T/less.ini"
set -- $out
assert_eq "$rc:${3:-}" "0:EAGAIN" "and nproc = 50 tightens it ($out)"

# from the host: the workload's limits
spec "$T/sleep.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
EOF2
run_crib --root "$S" run -d --name s "$T/sleep.ini"
pid=$("$CRIB" --root "$S" ps | awk '$1 == "s" {print $3}')
assert_eq "$(grep '^Max processes' "/proc/$pid/limits" 2>&1 | tr -s ' ' | sed 's/ *$//')" \
	"Max processes 2048 2048 processes" "/proc/$pid/limits on the host says 2048"
run_crib --root "$S" rm -f s

# user = no: real root, whom RLIMIT_NPROC does not bind; the device program's cgroup bounds it
if [ "$ROLE" != root ]; then
	skips 3 "user = no needs root"
else
	spec "$T/nouser.ini" <<EOF2
[namespaces]
user = no
[process]
args = $P procs 2100
EOF2
	run_crib run --trace "$T/nouser.ini"
	m=$(awk '$9 == "cgroup2" {print $5; exit}' /proc/self/mountinfo)
	ctrl=$(cat "$m/cgroup.controllers" 2>/dev/null)
	nodev=$(echo "$err" | grep -m1 -o 'no device program: .*' || :)
	if [ -z "$m" ] || [ -n "$nodev" ]; then
		skips 3 "${nodev:-no cgroup v2 hierarchy here}: user = no has no cgroup, so no bound here, as crib.ini(5) says"
	elif ! echo " $ctrl " | grep -q ' pids '; then
		skips 3 "the cgroup v2 hierarchy ($m) has no pids controller (it has: ${ctrl:-none}; cgroup v1 holds it here): user = no has no bound here, as crib.ini(5) says"
	else
		set -- $out
		assert_eq "$rc:${3:-}" "0:EAGAIN" "user = no: starting 2100 processes fails ($out)"
		assert_contains "$err" 'pids.max", "2048") = 0' "crib wrote pids.max 2048 for its cgroup (the trace)"
		spec "$T/nouser-sleep.ini" <<'EOF2'
[namespaces]
user = no
[process]
args = /bin/sleep 1000
EOF2
		run_crib --root "$S" run -d --name n "$T/nouser-sleep.ini"
		pid=$("$CRIB" --root "$S" ps | awk '$1 == "n" {print $3}')
		cg=$(sed -n 's/^0:://p' "/proc/$pid/cgroup" 2>/dev/null)
		assert_eq "$(cat "$m$cg/pids.max" 2>&1)" 2048 "from the host: pids.max of its cgroup ($cg) is 2048"
		run_crib --root "$S" rm -f n
	fi
fi

done_testing
