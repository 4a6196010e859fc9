#!/bin/sh
# Faults: crib killed with SIGKILL before each setup step leaves no process, no mount and no
# half-written file.
#
# CRIB_TEST_STOP_AT=NAME (runtime/steps/step.c, in the test build CRIB_HOOKS only) makes crib's
# child wait before the step NAME until crib is gone, then run it: the test kills crib there,
# and the child meets crib's death at exactly that step, as it would if crib were killed at that
# moment. The steps are those of both of the child's tables, as --trace lists them: the setup
# process's, the start of crib's init, and the workload's process's.
. "$(dirname "$0")/../lib/libtest.sh"
if ! has_hooks; then
	echo "1..0 # SKIP $HOOKS_SKIP"
	exit 0
fi

mkdir "$T/spec"
spec "$T/spec/f.ini" <<'EOF2'
[process]
args = /bin/sleep 30
EOF2
# with CAP_SYS_ADMIN kept, the workload's process forks the writer of its own maps
spec "$T/spec/admin.ini" <<'EOF2'
[process]
args = /bin/sleep 30
[security]
capabilities = default +SYS_ADMIN
EOF2
spec "$T/spec/nopid.ini" <<'EOF2'
[process]
args = /bin/sleep 30
[namespaces]
pid = no
EOF2

# the step table, as --trace prints it
steps=$("$CRIB" run --trace "$T/spec/f.ini" -- /bin/true 2>&1 </dev/null |
	sed -n 's/^crib: trace: step *[0-9]*\/[0-9]*  \(.*\)  (pid [0-9]*)$/\1/p')
nsteps=$(echo "$steps" | grep -c .)
ok "$([ "$nsteps" -ge 20 ] && echo 0 || echo 1)" "--trace lists the $nsteps setup steps"
assert_eq "$(echo "$steps" | grep -c -x -e "start crib's init as pid 1" -e "lock the mounts in a user namespace of the workload's own" -e "exec the workload")" 3 \
	"among them the start of crib's init and the workload's first and last steps"

# leftovers: temporary files where crib writes (the spec's directory, TMPDIR)
leftovers() {
	{
		ls -A "$T/spec" | grep -v -x -e f.ini -e nopid.ini -e admin.ini | sed "s|^|$T/spec/|"
		ls -A "${TMPDIR:-/tmp}" | grep -v -x "${T##*/}" | sed "s|^|${TMPDIR:-/tmp}/|"
	} | sort
}
# tree PID: "PID:STARTTIME" of every process below PID, from one read of /proc (start times,
# because pids are reused)
tree() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$1" '
		{ pid = $1; i = index($0, ") "); split(substr($0, i + 2), f, " ")
		  parent[pid] = f[2]; start[pid] = f[20] }
		END { n = 1; q[1] = root
		      for (k = 1; k <= n; k++) for (p in parent) if (parent[p] == q[k]) { q[++n] = p; print p ":" start[p] } }'
}
# alive PID:STARTTIME...: those of the processes that are still there. A zombie is gone: it
# holds nothing but its pid until the host's init (crib is dead) reaps it, whenever that is.
alive() {
	for _ps in "$@"; do
		_st=$(sed 's/.*) //' "/proc/${_ps%%:*}/stat" 2>/dev/null | cut -d' ' -f1,20)
		[ "$_st" = "${_st#Z }" ] && [ "${_st#* }" = "${_ps#*:}" ] && echo "${_ps%%:*}"
	done
}

before_mounts=$(host_mounts)
before_files=$(leftovers)

# kill_at SPEC STEP: start crib, wait for its child to reach STEP, SIGKILL crib; prints what
# is left after 5 s (pids of crib's processes, or nothing)
kill_at() {
	: >"$T/err"
	CRIB_TEST_STOP_AT="$2" "$CRIB_HOOKS" run --trace "$1" </dev/null >/dev/null 2>"$T/err" &
	_crib=$!
	if ! wait_stopped "$T/err"; then
		kill -KILL $_crib 2>/dev/null
		wait $_crib 2>/dev/null
		echo "never stopped: $(tail -n 3 "$T/err" | tr '\n' ' ')"
		return
	fi
	# every process below crib now
	_procs=$(tree $_crib)
	kill -KILL $_crib
	wait $_crib 2>/dev/null
	_i=0
	# shellcheck disable=SC2086
	while :; do
		_left=$(alive $_procs)
		[ -z "$_left" ] || [ $_i -ge 50 ] && break
		sleep 0.1
		_i=$((_i + 1))
	done
	for _p in $_left; do
		echo "left: pid $_p $(tr '\0' ' ' <"/proc/$_p/cmdline" 2>/dev/null)[$(sed -n 's/^State:.//p' "/proc/$_p/status" 2>/dev/null)]"
	done
	[ -n "$_procs" ] || echo "no child found below crib"
}

echo "$steps" >"$T/steps"
for mode in f nopid; do
	while IFS= read -r step; do
		got=$(kill_at "$T/spec/$mode.ini" "$step")
		assert_eq "$got" "" "$mode: SIGKILL before '$step': nothing of it is left"
	done <"$T/steps"
done
for step in "lock the mounts in a user namespace of the workload's own" "attach to the terminal"; do
	got=$(kill_at "$T/spec/admin.ini" "$step")
	assert_eq "$got" "" "+SYS_ADMIN: SIGKILL before '$step': nothing of it is left"
done
assert_eq "$(host_mounts)" "$before_mounts" "after $nsteps x 2 kills, the host's mount table is unchanged"
assert_eq "$(leftovers)" "$before_files" "and no file is left in the spec's directory or TMPDIR"

done_testing
