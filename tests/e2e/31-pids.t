#!/bin/sh
# Issue 31, hole 9: a default bound on processes. A container started 1000 processes, and
# would have gone on (podman's default is 2048). Now the default level has nproc = 2048:
# RLIMIT_NPROC in the container's user namespace, counted per container uid there and out of
# container root's reach; with user = no, where it binds no one, the pids.max of the cgroup crib
# makes for the device program. A fork bomb under one uid fails to start more, the limit shows
# from the host (/proc/PID/limits, pids.max), and a spec may set its own.
# What it is not (an attacker's review: uid 1 left 1200 sleepers, root started 1200 more): a
# bound on the container as a whole. Container root, which holds SETUID, runs as many again
# under each uid it maps; crib.ini(5), `crib levels` and README say so, and that [resources]
# pids is the bound for the whole container. Both are shown here, on a small scale.
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

# --- per uid, not per container: root starts 30 sleepers, then uid 1 tries 60 under
# nproc = 40; the shell counts the processes of each uid with builtins
# shellcheck disable=SC2016 # expanded by the container's shell
count='n0=0; n1=0; for s in /proc/[0-9]*/status; do while read -r k v r; do if [ $k = Uid: ]; then case $v in 0) n0=$((n0+1));; 1) n1=$((n1+1));; esac; break; fi; done <$s; done; echo $n0 $n1'
# (root's 30 first: a shell whose fork fails may give up altogether, as busybox's does, so the
# one that meets the limit is uid 1's, and the counting shell forks no more)
bomb="i=0; while [ \$i -lt 30 ]; do sleep 60 & i=\$((i+1)); done 2>/dev/null; /usr/local/bin/probe as 1 1 /bin/sh -c 'i=0; while [ \$i -lt 60 ]; do sleep 60 & i=\$((i+1)); done' 2>/dev/null"
if ! has_subids; then
	skips 4 "a second container uid needs subordinate ranges ([idmap] uid = auto)"
else
	spec "$T/peruid.ini" <<EOF2
[process]
args = /bin/sh -c "$bomb; $count"
[idmap]
uid = auto
gid = auto
[limits]
nproc = 40
EOF2
	run_crib run "$T/peruid.ini"
	# shellcheck disable=SC2086 # COUNT0 COUNT1
	set -- $out
	assert_eq "$rc" 0 "nproc = 40, uid 1 tries 60 processes, root 30: it runs${err:+ ($err)}"
	[ "${2:-0}" -le 40 ] && [ "${2:-0}" -ge 30 ]
	ok $? "a fork bomb under one uid stops at nproc: uid 1 has ${2:-?} processes (at most 40)"
	[ $((${1:-0} + ${2:-0})) -gt 40 ]
	ok $? "but nproc bounds each uid, not the container: root runs ${1:-?} more, $((${1:-0} + ${2:-0})) in all (as crib.ini(5) says)"

	# the whole-container bound: [resources] pids, a cgroup
	spec "$T/whole.ini" <<EOF2
[process]
args = /bin/sh -c "$bomb; $count"
[idmap]
uid = auto
gid = auto
[resources]
pids = 40
EOF2
	run_crib run "$T/whole.ini"
	# shellcheck disable=SC2086 # COUNT0 COUNT1
	set -- $out
	if [ "$rc" = 125 ] && case "$err" in *"cannot be applied"*) true ;; *) false ;; esac; then
		skip "[resources] pids cannot be applied here: $(echo "$err" | head -1)"
	else
		[ "$rc" = 0 ] && [ $((${1:-0} + ${2:-0})) -le 40 ] && [ $((${1:-0} + ${2:-0})) -ge 30 ]
		ok $? "[resources] pids = 40 bounds the container as a whole: $((${1:-0} + ${2:-0})) processes in all (rc $rc)"
	fi
fi

# and the documents say so: `crib levels`, the output a user reads first
run_crib levels
assert_contains "$out" "it bounds each uid, not the container" "crib levels: nproc bounds each uid, not the container"
assert_contains "$out" "[resources] pids" "and names the whole-container bound"

done_testing
