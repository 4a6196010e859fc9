#!/bin/sh
# The container's life: signals sent to crib reach the workload, zombies are reaped, and crib
# killed by SIGKILL leaves no process and no mount behind.
. "$(dirname "$0")/../lib/libtest.sh"

spec "$T/w.ini" <<EOF2
[process]
args = /usr/local/bin/probe wait-signal /tmp/ready
[mounts]
bind = $T /tmp
EOF2

for sig in TERM INT HUP USR1 QUIT; do
	rm -f "$T/ready"
	"$CRIB" run "$T/w.ini" >"$T/out" 2>"$T/err" </dev/null &
	crib=$!
	wait_for "$T/ready"
	kill -$sig $crib
	wait $crib
	rc=$?
	assert_eq "$(cat "$T/out")" "got SIG$sig" "SIG$sig sent to crib reaches the workload"
	assert_eq "$rc" 42 "and the workload's exit status comes back"
done

# init = no: the workload is pid 1 and gets the signal only because it has a handler
spec "$T/w1.ini" <<EOF2
[process]
args = /usr/local/bin/probe wait-signal /tmp/ready
init = no
[mounts]
bind = $T /tmp
EOF2
rm -f "$T/ready"
"$CRIB" run "$T/w1.ini" >"$T/out" 2>"$T/err" </dev/null &
crib=$!
wait_for "$T/ready"
kill -TERM $crib
wait $crib
assert_eq "$?:$(cat "$T/out")" "42:got SIGTERM" "init = no: SIGTERM reaches a pid-1 workload with a handler"

spec "$T/z.ini" <<'EOF2'
[process]
args = /usr/local/bin/probe orphans 5
EOF2
run_crib run "$T/z.ini"
assert_eq "$out" "0" "crib's init reaps orphaned zombies"
spec "$T/z1.ini" <<'EOF2'
[process]
args = /usr/local/bin/probe orphans 5
init = no
EOF2
run_crib run "$T/z1.ini"
assert_eq "$out" "5" "without init the same orphans stay zombies (the test can tell)"

# SIGKILL: the kernel kills the container (parent-death signal, pid namespace teardown)
before=$(host_mounts)
for variant in init noinit; do
	rm -f "$T/ready"
	if [ $variant = init ]; then s="$T/w.ini"; else s="$T/w1.ini"; fi
	"$CRIB" run "$s" >/dev/null 2>&1 </dev/null &
	crib=$!
	wait_for "$T/ready"
	pids=$(descendants_of $crib)
	[ -n "$pids" ]
	ok $? "$variant: the container's processes are running ($(echo $pids))"
	kill -KILL $crib
	wait $crib 2>/dev/null
	left=""
	for i in $(seq 50); do
		left=""
		for p in $pids; do [ -d /proc/$p ] && left="$left $p"; done
		[ -z "$left" ] && break
		sleep 0.1
	done
	assert_eq "$left" "" "$variant: crib killed by SIGKILL leaves no process behind"
done
assert_eq "$(host_mounts)" "$before" "and no mount"
done_testing
