#!/bin/sh
# Attacks on the lifecycle commands (issue 13): a caller's odd environment, a container caught
# while it is being created, and what `crib stop` and `crib kill` may signal. Each check failed
# before its fix; the truth is read from outside (exit statuses, /proc, the state directory).
. "$(dirname "$0")/../lib/libtest.sh"

S="$T/state"
C() { "$CRIB" --root "$S" "$@"; }
cr() { run_crib --root "$S" "$@"; }

spec "$T/seven.ini" <<'EOF2'
[process]
args = /bin/sh -c "sleep 0.2; exit 7"
EOF2
spec "$T/sleep.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
EOF2

# --- a caller that ignores SIGCHLD (inherited across exec): the kernel would reap crib's
# children unseen, and crib's init the workload: the container never ended, `wait` hung
if env --ignore-signal=CHLD true 2>/dev/null; then
	# output to files: a hung container would hold a pipe of $(...) open
	timeout -s KILL 10 env --ignore-signal=CHLD "$CRIB" --root "$S" run "$T/seven.ini" >"$T/fg" 2>&1 </dev/null
	assert_eq "$?" 7 "crib run from a caller that ignores SIGCHLD: the workload's exit status, no hang"
	timeout -s KILL 10 env --ignore-signal=CHLD "$CRIB" --root "$S" run -d --name ign "$T/seven.ini" >/dev/null 2>&1 </dev/null
	timeout -s KILL 10 "$CRIB" --root "$S" wait ign >"$T/wait" 2>&1
	assert_eq "$?:$(cat "$T/wait")" "7:7" "run -d from such a caller: the monitor records the exit status, wait returns it"
	C rm -f ign >/dev/null 2>&1
	# before the fix its monitor could not see the end either: it goes by hand
	m=$(sed -n 's/^pid=//p' "$S/ign/monitor" 2>/dev/null)
	[ -n "$m" ] && kill -9 "$m" 2>/dev/null && sleep 0.5 && C rm -f ign >/dev/null 2>&1
else
	skips 2 "env has no --ignore-signal here (coreutils < 8.31)"
fi

# --- crib stop of a container that has no workload yet (being created, or its pid record
# lost to a full /run): on a kernel without pidfd_open(2), its "pid 0" became kill(0, SIGKILL),
# crib stop's own process group
if [ -n "${OLD_KERNEL:-}" ]; then
	CRIB_TEST_STOP_AT="set the hostname" "$CRIB" --root "$S" run -d --name half "$T/sleep.ini" >/dev/null 2>&1 </dev/null &
	c=$!
	wait_for "$S/half/monitor"
	assert_eq "$(C ps | awk '$1 == "half" {print $2}')" created "a container held in its setup is 'created'"
	# in a session and process group of its own, so that only this shell is at stake
	out=$(setsid -w sh -c '"$1" "$2" --root "$3" stop -t 0 half >/dev/null 2>&1; echo "survived $?"' \
		sh "$OLD_KERNEL" "$CRIB" "$S" </dev/null 2>/dev/null)
	assert_contains "$out" "survived" "crib stop of it, without pidfd_open: signals nothing of its caller's"
	kill -9 $c 2>/dev/null
	wait $c 2>/dev/null
	C rm -f half >/dev/null 2>&1
else
	skips 2 "no old-kernel helper here (OLD_KERNEL is unset)"
fi

# --- a FIFO planted in a container's state directory: every crib command that read it hung
cr run -d --name fifo "$T/seven.ini"
C wait fifo >/dev/null 2>&1
m=$(sed -n 's/^pid=//p' "$S/fifo/monitor")
i=0
while [ -e "/proc/$m" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
for f in info exit log; do
	rm -f "$S/fifo/$f"
	mkfifo "$S/fifo/$f"
done
timeout -s KILL 10 "$CRIB" --root "$S" ps -a >"$T/ps" 2>&1
assert_eq "$?:$(awk '$1 == "fifo" {print $2}' "$T/ps")" "0:stopped" "ps -a with FIFOs for records: no hang"
timeout -s KILL 10 "$CRIB" --root "$S" logs fifo >"$T/logs" 2>&1
assert_eq "$?" 0 "logs with a FIFO for the log: no hang"
timeout -s KILL 10 "$CRIB" --root "$S" rm fifo >"$T/rm" 2>&1
assert_eq "$?:$(ls "$S" | grep -c fifo)" "0:0" "rm removes it"

# --- crib rm waiting for the lock while another command removes the container and a new one
# takes its name: it removed the new one's state, leaving that container running unrecorded
cr run -d --name old "$T/seven.ini"
C wait old >/dev/null 2>&1
if ! flock -n "$S/old" true 2>/dev/null; then
	# busybox's flock opens what it locks with O_CREAT, which a directory refuses
	skips 2 "flock(1) here cannot lock a directory (busybox's): util-linux's can, on the host"
else
	flock "$S/old" sleep 2 & # another crib command holds its lock...
	f=$!
	sleep 0.3
	C rm old >"$T/rm" 2>&1 &
	r=$!
	sleep 0.3
	rm -r "$S/old" # ...and removes it meanwhile
	cr run -d --name old "$T/sleep.ini"
	wait $f
	wait $r
	assert_eq "$?:$(C ps | awk '$1 == "old" {print $2}')" "125:running" \
		"crib rm of a container removed while it waited: refused, the new one keeps its state"
	assert_contains "$(cat "$T/rm")" "no container named 'old'" "and says why"
fi
C rm -f old >/dev/null 2>&1

# --- crib rm (without -f) while `crib run -d --name` is still making the container: it took
# the new directory, without a monitor record yet, for a stopped container and removed it
ok_runs=0
refused=0
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	"$CRIB" --root "$S" run -d --name "new$i" "$T/sleep.ini" >/dev/null 2>&1 </dev/null &
	p=$!
	while [ ! -d "$S/new$i" ] && kill -0 $p 2>/dev/null; do :; done
	C rm "new$i" >/dev/null 2>&1 || refused=$((refused + 1))
	wait $p && ok_runs=$((ok_runs + 1))
	C rm -f "new$i" >/dev/null 2>&1
done
assert_eq "$ok_runs:$refused" "20:20" \
	"20 crib rm at the moment crib run -d makes the container: each refused, each run starts"

# --- a state root whose filesystem fills up while the container starts: room for six inodes
# (the root, the container's directory, plan, info, monitor, log), none for the pid record.
# The workload ran unrecorded: listed as "created" forever, beyond crib stop's reach
if [ "$(id -u)" = 0 ]; then
	full="$T/full"
	mkdir -p "$full"
	if mount -t tmpfs -o nr_inodes=6,mode=0700 crib-test-full "$full" 2>/dev/null; then
		run_crib --root "$full" run -d --name full "$T/sleep.ini" -- /bin/sleep 1001 </dev/null
		assert_eq "$rc:$(echo "$err" | grep -c "state file 'pid'")" "125:1" "no room for the pid record: the start fails (125) and says which record"
		sleep 0.2
		assert_eq "$(pgrep -f 'sleep 1001' | wc -l)" 0 "and the workload that ran is stopped"
		assert_eq "$(ls -A "$full")" "" "and its state directory removed"
		umount "$full" 2>/dev/null || { # (a failed check left the container running)
			pkill -KILL -f 'sleep 1001'
			sleep 0.2
			umount -l "$full"
		}
	else
		skips 3 "cannot mount a tmpfs at $full"
	fi
else
	skips 3 "filling a filesystem on purpose needs root (a tmpfs of six inodes)"
fi

# --- nothing of the above left behind
assert_eq "$(ls "$S" | grep -v '^said-')" "" "no state directory left behind"

done_testing
