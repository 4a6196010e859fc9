#!/bin/sh
# crib run --step (issue 37): a student at a terminal (a pseudo-terminal here:
# tests/lib/steppty.py) presses Enter before each step and, at each pause, reads from the host
# what the step is about to change in /proc/PID/status; the pauses come in the order of the
# tables, the process named is the one that runs the step, and the container ends as without
# --step. q stops it, leaving nothing; without a terminal --step is refused.
. "$(dirname "$0")/../lib/libtest.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP no python3 to play the student at a pseudo-terminal (tests/lib/steppty.py)"
	exit 0
fi
spec "$T/s.ini" <<EOF2
[process]
args = /bin/sh -c "echo ran-to-the-end; grep -E '^(CapEff|Seccomp):' /proc/self/status"
EOF2
python3 "$(dirname "$0")/../lib/steppty.py" "$CRIB" "$T/s.ini" >"$T/pauses" 2>&1
# (the run's own lines: the last pause's answer, the workload's output, the exit status)
assert_eq "$(sed -n 's/^EXIT\t//p' "$T/pauses")" 0 "crib run --step runs to the end, Enter at each pause" || sed 's/^/#   /' "$T/pauses"
assert_contains "$(cat "$T/pauses")" "OUTPUT	ran-to-the-end" "the workload ran"
steps() { grep -v -e '^OUTPUT' -e '^EXIT' "$T/pauses" | cut -f1; }
total=$(steps | sed -n 's|^\([0-9]*\)/\([0-9]*\)  .*|\2|p' | head -n 1)
# crib's own steps from the clone on (9 to 15 of 18: the ones before have no process to look
# at, the ones after follow it), then the container's from the third
assert_eq "$(steps | sed -n 's|^parent: \([0-9]*\)/18  .*|\1|p' | tr '\n' ' ')" "9 10 11 12 13 14 15 " "crib's own steps pause from the clone on, in order"
assert_eq "$(steps | sed -n 's|^\([0-9]*\)/[0-9]*  .*|\1|p' | tr '\n' ' ')" "$(seq 3 "$total" | tr '\n' ' ')" "then each of the container's $total steps from the third, in order"
row() { grep -F "$1" "$T/pauses" | head -n 1; }
col() { row "$1" | cut -f"$2"; }
if [ "$ROLE" = root ]; then set -- $(root_range uid); want_uid=$1; else want_uid=$(id -u); fi
assert_eq "$(col "become root in the user namespace" 3)" "$(id -u)" "before 'become root in the user namespace' the setup process is still crib's uid on the host"
assert_eq "$(col "set the parent-death signal" 3)" "$want_uid" "after it, uid 0 of the container: $want_uid on the host"
assert_eq "$(col "load the seccomp filter" 5):$(col "start crib's init" 5)" "0:2" "Seccomp goes from 0 to 2 across 'load the seccomp filter'"
workload_cap=$(sed -n 's/^OUTPUT\tCapEff:[[:space:]]*//p' "$T/pauses" | tr -d '\r')
assert_eq "$(col "close every descriptor the workload" 4)" "$workload_cap" "after 'set capabilities' the host sees the CapEff the workload then has ($workload_cap)"
assert_eq "$(col "set capabilities" 4 | grep -c "^$workload_cap\$")" 0 "before it, another (the namespace root's full set)"
assert_eq "$(col "lock the mounts" 2 | grep -c "^$(col "load the seccomp filter" 2)\$")" 0 "the workload's steps name the workload's process, not the setup's"

# q at a pause: the container stops there, nothing is left
before=$(host_mounts | wc -l)
python3 "$(dirname "$0")/../lib/steppty.py" "$CRIB" "$T/s.ini" "pivot_root" >"$T/quit" 2>&1
assert_eq "$(sed -n 's/^EXIT\t//p' "$T/quit")" 125 "q at the pause before pivot_root stops the container: 125"
pnum=$(steps | sed -n 's|^\([0-9]*\)/[0-9]*  pivot_root.*|\1|p')
assert_contains "$(cat "$T/quit")" "stopped before step $pnum/$total  pivot_root into the rootfs, as asked" "saying where, and why" || sed 's/^/#   /' "$T/quit"
assert_eq "$(crib_procs | wc -l):$(host_mounts | wc -l)" "0:$before" "no process and no mount of it is left"

# no terminal: refused before anything starts
run_crib run --step "$T/s.ini"
nottyrc=$rc nottyerr=$err
if [ -r /dev/tty ] && (: </dev/tty) 2>/dev/null; then
	out=$(setsid "$CRIB" run --step "$T/s.ini" 2>&1 </dev/null)
	nottyrc=$? nottyerr=$out
fi
assert_eq "$nottyrc:$(echo "$nottyerr" | grep -c 'waits for Enter on a terminal')" "125:1" "--step without a terminal: 125, said"
run_crib run --step -d "$T/s.ini"
assert_eq "$rc:$(echo "$err" | grep -c "'--step' runs one container")" "125:1" "--step with -d is refused"

done_testing
