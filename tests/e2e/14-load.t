#!/bin/sh
# Load: 1000 containers in a row and 16 at a time, with no failure and no growth.
#
# crib is one short process per container, so "growth" is what outlives a run or what a run
# finds left by the ones before it: processes (crib's own binary, or anything whose root is the
# test rootfs), mounts in the host's table, the system's open files
# (/proc/sys/fs/file-nr, shared with everything else on the host: a loose bound), and, per run,
# crib's peak memory (max RSS of crib and the container processes it reaps, from time(1)): the
# first 50 runs against the last 50. The figures (and the wall times) are printed as comments.
. "$(dirname "$0")/../lib/libtest.sh"

N=${LOAD_RUNS:-1000}
# the sanitizer pass (make check SANITIZE=1) looks for memory errors, not figures: fewer runs
[ "${SANITIZE:-}" = yes ] && N=${LOAD_RUNS:-200}
P=16
# LOAD_ROUNDS: the rounds of 16 at a time, 5 unless set (the VM guests run 3: each of the 16
# compiles its profile with libseccomp, seconds under QEMU's emulation). Never fewer than 3:
# fs.file-nr is a per-CPU counter, read inexact by up to 32 a CPU (a one-CPU guest read 0
# before and 32 after 2 rounds), and the bound below is one file per container
ROUNDS=${LOAD_ROUNDS:-5}
[ "$ROUNDS" -ge 3 ] 2>/dev/null || ROUNDS=3
if [ ! -x /usr/bin/time ]; then
	echo "1..0 # SKIP /usr/bin/time is missing (rootfs-tools/install-deps check installs it)"
	exit 0
fi

spec "$T/t.ini" <<'EOF2'
[process]
args = /bin/true
EOF2
# what is left of crib: its binary running, or a process whose root is the test rootfs
leftover() {
	for _d in /proc/[0-9]*; do
		_exe=$(readlink "$_d/exe" 2>/dev/null) || continue
		_root=$(readlink "$_d/root" 2>/dev/null)
		if [ "$_exe" = "$CRIB" ] || [ "$_root" = "$ROOTFS" ]; then
			grep -q '^State:.Z' "$_d/status" 2>/dev/null || echo "${_d#/proc/}"
		fi
	done
}
files() { cut -f1 /proc/sys/fs/file-nr; }
# files_below BOUND: the host's open files, sampled until under BOUND (at most 10 times, half a
# second apart): other processes' files come and go, a leak of crib's stays
files_below() {
	_i=0
	_f=$(files)
	while [ "$_f" -ge "$1" ] && [ $_i -lt 10 ]; do
		sleep 0.5
		_f=$(files)
		_i=$((_i + 1))
	done
	echo "$_f"
}
# the mean of a column of numbers, integer
mean() { awk '{s += $1; n++} END {printf "%d", n ? s / n : 0}'; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

"$CRIB" run "$T/t.ini" </dev/null >/dev/null 2>&1 # a first run: the page cache warm
before_mounts=$(host_mounts)
before_files=$(files)

# --- 1000 in a row ----------------------------------------------------------------------------
fails=0
i=0
t0=$(now_ms)
: >"$T/rss"
while [ $i -lt "$N" ]; do
	[ $i = 50 ] && t50=$(now_ms)
	[ $i = $((N - 50)) ] && tlast=$(now_ms)
	/usr/bin/time -f %M -o "$T/one" "$CRIB" run "$T/t.ini" </dev/null >/dev/null 2>>"$T/err" ||
		fails=$((fails + 1))
	tail -n 1 "$T/one" >>"$T/rss"
	i=$((i + 1))
	# bounded: a run that hangs or crawls fails the test instead of holding up make check
	if [ $(($(now_ms) - t0)) -gt 600000 ]; then
		echo "# stopped after $i runs: 600 s are up"
		fails=$((fails + N - i))
		break
	fi
done
tend=$(now_ms)
assert_eq "$fails" 0 "$N containers in a row exit 0"
assert_eq "$(strip_aa <"$T/err")" "" "with nothing on stderr (but the AppArmor warning where AppArmor is absent)"
first=$(head -n 50 "$T/rss" | mean)
last=$(tail -n 50 "$T/rss" | mean)
ms_first=$(((t50 - t0) * 1000 / 50))
ms_last=$(((tend - tlast) * 1000 / 50))
echo "# max RSS of crib and its container per run: first 50 $first KB, last 50 $last KB (min $(sort -n "$T/rss" | head -n 1), max $(sort -n "$T/rss" | tail -n 1))"
# printed, not judged: the wall time follows the load of a shared machine
echo "# wall time per run, time(1) included: first 50 $ms_first us, last 50 $ms_last us; $N runs in $(((tend - t0) / 1000)) s"
ok "$([ "$last" -le $((first + first / 20 + 256)) ] && echo 0 || echo 1)" \
	"crib's memory does not grow: last 50 runs $last KB, first 50 $first KB (5% + 256 KB allowed)"

left=$(leftover)
assert_eq "$left" "" "no process of crib or its containers is left"
assert_eq "$(host_mounts)" "$before_mounts" "the host's mount table is the same ($(host_mounts | wc -l) mounts)"
after_files=$(files_below $((before_files + N)))
echo "# open files on the host (fs.file-nr): $before_files before, $after_files after (other processes share it)"
ok "$([ "$after_files" -lt $((before_files + N)) ] && echo 0 || echo 1)" \
	"the host's open files did not grow by one per run ($before_files -> $after_files)"

# --- 16 at a time -----------------------------------------------------------------------------
# a profile of this run's own: each of the 16 compiles it with libseccomp at once
printf 'base default\n# %s\ndrop ptrace\n' "$T" >"$T/prof"
spec "$T/p.ini" <<EOF2
[process]
args = /bin/sh -c 'sleep 0.2; echo ok'
[security]
seccomp = $T/prof
EOF2
before_files=$(files)
fails=0
r=0
t0=$(now_ms)
while [ $r -lt "$ROUNDS" ]; do
	j=0
	pids=""
	while [ $j -lt $P ]; do
		"$CRIB" run "$T/p.ini" </dev/null >"$T/out.$r.$j" 2>"$T/err.$r.$j" &
		pids="$pids $!"
		j=$((j + 1))
	done
	for p in $pids; do
		wait "$p" || fails=$((fails + 1))
	done
	r=$((r + 1))
done
t1=$(now_ms)
bad=$(cat "$T"/out.* | grep -vcx ok)
assert_eq "$fails:$bad" "0:0" "$((P * ROUNDS)) containers, $P at a time, exit 0 and print their output"
assert_eq "$(cat "$T"/err.* | strip_aa)" "" "with nothing on stderr"
echo "# $ROUNDS rounds of $P parallel containers in $((t1 - t0)) ms"
assert_eq "$(leftover)" "" "no process of crib or its containers is left"
assert_eq "$(host_mounts)" "$before_mounts" "the host's mount table is the same"
after_files=$(files_below $((before_files + P * ROUNDS)))
echo "# open files on the host (fs.file-nr): $before_files before, $after_files after"
ok "$([ "$after_files" -lt $((before_files + P * ROUNDS)) ] && echo 0 || echo 1)" \
	"the host's open files did not grow by one per container ($before_files -> $after_files)"

done_testing
