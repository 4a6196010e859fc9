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
if [ -n "${OLD_KERNEL:-}" ] && has_hooks; then
	CRIB_TEST_STOP_AT="set the hostname" "$CRIB_HOOKS" --root "$S" run -d --name half "$T/sleep.ini" >/dev/null 2>&1 </dev/null &
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
elif ! has_hooks; then
	skips 2 "$HOOKS_SKIP"
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

# --- crib exec and the cgroup the workload says it is in (found by the review of issue 14): a
# real-root workload with SYS_ADMIN and the host's cgroup namespace mounts a named cgroup v1
# hierarchy and moves itself into a cgroup whose path is long enough that its /proc/PID/cgroup
# line breaks, in a 1024-byte read, just before ".../0::/crib/vict/container". crib exec read
# the file line by line and took that piece for the cgroup v2 line: it joined the other
# container's cgroup, and with it left its own device program. A cgroup the workload makes
# below its own is still where crib exec goes.
cg2=$(awk '$9 == "cgroup2" { print $5 " " $4; exit }' /proc/self/mountinfo)
if [ "$ROLE" != root ] || [ -z "$cg2" ]; then
	skips 5 "needs root (user = no) and a cgroup v2 hierarchy (the VM guests have one)"
else
	spec "$T/real.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[namespaces]
user = no
[security]
capabilities = default +SYS_ADMIN
EOF2
	sed 's/^user = no/user = no\ncgroup = no/' "$T/real.ini" >"$T/liar.ini"
	cat >"$T/liar.sh" <<'EOF2'
mkdir -p /tmp/v1 && mount -t cgroup -o none,name=cribliar none /tmp/v1 || exit 9
pre=$(grep ':name=cribliar:' /proc/self/cgroup | sed 's/:name=cribliar:.*//')
left=$((1023 - ${#pre} - 15 - 5))
a() { head -c "$1" /dev/zero | tr '\0' a; }
q=$((left / 4))
d="/tmp/v1/$(a $q)/$(a $q)/$(a $q)/$(a $((left - 3 * q)))/0::/crib/vict/container"
mkdir -p "$d" && echo $$ >"$d/cgroup.procs" && touch /tmp/ready && exec sleep 1000
EOF2
	C run -d --name vict "$T/real.ini" >/dev/null 2>&1
	C run -d --name liar "$T/liar.ini" -- /bin/sh -c "$(cat "$T/liar.sh")" >/dev/null 2>&1
	i=0
	while ! C exec liar -- /bin/test -e /tmp/ready 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	cr exec liar -- /bin/sh -c 'grep "^0::" /proc/self/cgroup'
	assert_eq "$rc:$out" "0:0::/crib/liar/container" "a workload whose /proc/PID/cgroup line breaks before a forged '0::/crib/vict/container': crib exec stays in its own container's cgroup"
	[ "$rc" = 0 ] || echo "$err" | sed 's/^/#   /'
	C run -d --name deep "$T/real.ini" -- /bin/sh -c 'mkdir -p /tmp/v2 && mount -t cgroup2 none /tmp/v2 && mkdir /tmp/v2/deeper && echo $$ >/tmp/v2/deeper/cgroup.procs && touch /tmp/ready && exec sleep 1000' >/dev/null 2>&1
	i=0
	while ! C exec deep -- /bin/test -e /tmp/ready 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	cr exec deep -- /bin/sh -c 'grep "^0::" /proc/self/cgroup'
	assert_eq "$rc:$out" "0:0::/deeper" "a workload that moved itself into a cgroup below its own: crib exec joins it there"
	# crib exec -t opened the container's /dev/ptmx before it was in the container's cgroup:
	# as host root, outside the device program. The workload puts a block device there (loop0).
	C run -d --name pt "$T/real.ini" -- /bin/sh -c 'mount -o remount,dev /dev && rm /dev/ptmx && mknod -m 666 /dev/ptmx b 7 0 && touch /tmp/ready && exec sleep 1000' >/dev/null 2>&1
	i=0
	while ! C exec pt -- /bin/test -e /tmp/ready 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	cr exec -t pt -- /bin/true
	assert_eq "$rc:$(echo "$err" | grep -c "cannot open '/dev/ptmx' in the container: Operation not permitted")" "125:1" \
		"crib exec -t where the workload made /dev/ptmx a block device: the open is the device program's to refuse (it was host root's)"
	C rm -f vict liar deep pt >/dev/null 2>&1
	# the named hierarchy outlives its mount while the liar's cgroups are in it: they go (once
	# the liar's processes have), and the hierarchy with the last unmount after that (a mount
	# and unmount again, while a dying cgroup was still there)
	mkdir -p "$T/v1"
	i=0
	while grep -q ':name=cribliar:' /proc/self/cgroup && [ $i -lt 50 ]; do
		if mount -t cgroup -o none,name=cribliar none "$T/v1" 2>/dev/null; then
			find "$T/v1" -mindepth 1 -depth -type d | while IFS= read -r d; do rmdir "$d" 2>/dev/null; done
			umount "$T/v1"
		fi
		sleep 0.1
		i=$((i + 1))
	done
	assert_eq "$(grep -c ':name=cribliar:' /proc/self/cgroup)" 0 "and the liar's cgroup v1 hierarchy is gone again"
	assert_eq "$(ls "${cg2%% *}/crib" 2>/dev/null | grep -c -e '^vict$' -e '^liar$' -e '^deep$')" 0 "crib rm -f removes their cgroups, the liar's deep v2 path too"
fi

# --- nothing of the above left behind
assert_eq "$(ls "$S" | grep -v '^said-')" "" "no state directory left behind"

done_testing
