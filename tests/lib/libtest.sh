# libtest.sh - TAP for crib's shell tests (sourced). Set by tests/run-all:
#   CRIB     the crib binary          ROOTFS   the busybox test rootfs (with /usr/local/bin/probe)
#   ROLE     root | user              TESTDATA tests/data
#   SWAP_RACE  tests/tools/swap-race (the rootfs-swapping attacker; RACE_SECONDS bounds its test)
#   OLD_KERNEL tests/tools/old-kernel (runs a program as on Linux < 5.2; unset: those tests skip)
#   CRIB_HOOKS crib built with the test hooks (CRIB_TEST_STOP_AT: the Makefile's CRIB_TEST_HOOKS),
#              which CRIB, the crib that ships, has not (has_hooks; without it those tests skip)
# Each test gets its own scratch directory, $T, removed at the end.

: "${CRIB:?set by tests/run-all}" "${ROOTFS:?set by tests/run-all}" "${ROLE:?}" "${TESTDATA:?}"
_n=0
_failed=0
T=$(mktemp -d "${TMPDIR:-/tmp}/crib-t.XXXXXX")
chmod 755 "$T"
# root's containers run as root's subordinate ids (container root is not host root): let them
# write to the scratch directory the tests bind in
[ "$ROLE" = root ] && chmod 1777 "$T"
: >"$T/.stderr"
trap 'rm -rf "$T"' EXIT

# ok and the asserts return 0 when the test passed, 1 when not (a TODO's too): so
# `assert_eq ... || sed 's/^/#   /' FILE` prints what explains a failure, and only then
ok() { # ok COND-STATUS DESCRIPTION
	_n=$((_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_n - $2${TODO:+ # TODO $TODO}"
	elif [ -n "${TODO:-}" ]; then
		# a known failure, written down where it is seen (TAP's TODO): not counted, not hidden
		echo "not ok $_n - $2 # TODO $TODO"
	else
		echo "not ok $_n - $2"
		_failed=$((_failed + 1))
	fi
	[ "$1" = 0 ]
}

assert_eq() { # assert_eq GOT WANT DESCRIPTION
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2"
		return 1
	fi
}

assert_contains() { # assert_contains HAYSTACK NEEDLE DESCRIPTION
	case "$1" in
	*"$2"*) ok 0 "$3" ;;
	*)
		ok 1 "$3"
		printf '#   got:  %s\n#   want it to contain: %s\n' "$1" "$2"
		return 1
		;;
	esac
}

assert_not_contains() {
	case "$1" in
	*"$2"*)
		ok 1 "$3"
		printf '#   got:  %s\n#   want it not to contain: %s\n' "$1" "$2"
		return 1
		;;
	*) ok 0 "$3" ;;
	esac
}

skip() { # skip REASON: one skipped test, with its reason
	_n=$((_n + 1))
	echo "ok $_n # SKIP $1"
}

skips() { # skips N REASON: the N tests of a block that cannot run here, each with the reason
	_k=$1
	shift
	while [ "$_k" -gt 0 ]; do
		skip "$*"
		_k=$((_k - 1))
	done
}

# has_subids: the caller may map more ids than its own (root, or a user with ranges in both
# /etc/subuid and /etc/subgid), so uid/gid = auto and user = 1000 work
has_subids() {
	[ "$ROLE" = root ] && return 0
	grep -q "^$(id -un):" /etc/subuid 2>/dev/null && grep -q "^$(id -un):" /etc/subgid 2>/dev/null
}

# wait_stopped FILE: wait (10 s at most) until the child of crib run --trace, with
# CRIB_TEST_STOP_AT set and its trace going to FILE, waits before its step; false if it never did
wait_stopped() {
	_ws=0
	while ! grep -q 'CRIB_TEST_STOP_AT: waiting' "$1" && [ $_ws -lt 200 ]; do
		sleep 0.05
		_ws=$((_ws + 1))
	done
	grep -q 'CRIB_TEST_STOP_AT: waiting' "$1"
}

# has_hooks: CRIB_HOOKS is there, crib built with the test hooks (tests/run-all stages it)
has_hooks() {
	[ -x "${CRIB_HOOKS:-}" ]
}
HOOKS_SKIP="no crib with the test hooks (CRIB_HOOKS: make BUILD/tests/crib-hooks)"

# userns_works: this caller may create a user namespace with unshare(1) (the tests that change
# a sysctl or a file for crib alone do it inside one)
userns_works() {
	unshare -Ur true 2>/dev/null
}

done_testing() {
	echo "1..$_n"
	[ "$_failed" = 0 ]
}

# requires root|user: skip the whole file (with a reason) unless running in that role
requires() {
	if [ "$ROLE" != "$1" ]; then
		echo "1..0 # SKIP only as $1 (this run is as $ROLE)"
		exit 0
	fi
}

# spec FILE: write a spec with the test rootfs ([container] rootfs) and the lines from stdin
# appended (sections repeat freely: a [container] or [process] of the test's own follows).
spec() {
	{
		echo "[container]"
		echo "rootfs = $ROOTFS"
		cat
	} >"$1"
}

# strip_aa: drop the warnings of a host whose AppArmor is absent, off, or lacks crib's profile,
# or that has no idmapped mounts for root's rootfs
# (each with its hint line) from stdin; 11-apparmor.t and the VM guests test them
strip_aa() {
	sed -e '/^crib: warning: AppArmor is not available/{N;d}' \
		-e '/^crib: warning: this kernel has no idmapped mounts/{N;d}' \
		-e '/^crib: warning: cannot show rootfs .* (idmapped mount)/{N;d}' \
		-e '/^crib: warning: cannot switch to AppArmor profile/{N;d}'
}

# run_crib ARGS...: run crib, stdout in $out, stderr in $err, status in $rc. On a kernel
# without AppArmor (or without crib's profile loaded) the default level warns once that it
# runs without its profile: that warning and its hint are left out of $err (see strip_aa).
run_crib() {
	out=$("$CRIB" "$@" 2>"$T/.stderr" </dev/null)
	rc=$?
	err=$(strip_aa <"$T/.stderr")
}

# root_range uid|gid: "START COUNT" of root's range in /etc/subuid or /etc/subgid, which crib
# maps root's containers to (it records one on its first run as root)
root_range() {
	awk -F: '$1 == "root" || $1 == "0" {print $2, $3; exit}' "/etc/sub$1" 2>/dev/null
}

# children_of PID: pids whose parent is PID (read from /proc: no ps in a minimal system)
children_of() {
	_parent=$1
	for _s in /proc/[0-9]*/stat; do
		read -r _line 2>/dev/null <"$_s" || continue
		# shellcheck disable=SC2086
		set -- ${_line##*) }
		if [ "$2" = "$_parent" ]; then
			_p=${_s#/proc/}
			echo "${_p%/stat}"
		fi
	done
}

# descendants PID: every pid below PID
descendants_of() {
	for c in $(children_of "$1"); do
		echo "$c"
		descendants_of "$c"
	done
}

# wait_for FILE [TENTHS]: wait until FILE exists (default 10 s)
wait_for() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt "${2:-100}" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$1" ]
}

# the host's mount table, without the fields that change by themselves
host_mounts() {
	awk '{print $5, $9, $10}' /proc/self/mountinfo | sort
}

# wait_until CMD [TENTHS]: until CMD (eval) succeeds, at most TENTHS tenths of a second
# (default 10 s); its status is the last try's
wait_until() {
	_i=0
	while ! eval "$1" && [ $_i -lt "${2:-100}" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	eval "$1"
}

# crib_procs: processes of crib or of its containers: crib's own binary, or this user's
# processes in a pid namespace below ours. Empty when nothing is left behind.
crib_procs() {
	_me=$(id -u)
	_depth=$(awk '/^NSpid:/{print NF}' /proc/self/status)
	for _d in /proc/[0-9]*; do
		[ "$(readlink "$_d/exe" 2>/dev/null)" = "$CRIB" ] && { echo "${_d#/proc/}"; continue; }
		awk -v me="$_me" -v depth="$_depth" -v pid="${_d#/proc/}" '
			/^Uid:/ {uid = $2}
			/^NSpid:/ {n = NF}
			END {if (uid == me && n > depth) print pid}' "$_d/status" 2>/dev/null
	done
}
