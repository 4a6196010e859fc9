#!/bin/sh
# The OCI runtime conformance cases (tests/conformance: crib's own, written from the runtime
# spec, since the opencontainers validation suite cannot be built from Debian here), against
# crib and, where it is installed, runc, in one run: every case crib fails must be listed in
# tests/conformance/crib-refuses with its reason, so a case that passed and stops passing fails
# here. As root (the cases make namespaces, devices and cgroups); the table is in the output.
. "$(dirname "$0")/../lib/libtest.sh"

: "${TOP:?set by tests/run-all}"
if [ "$(id -u)" != 0 ]; then
	skip "the conformance cases run as root (tests/conformance/run)"
	done_testing
	exit
fi
peers=""
[ -x /usr/sbin/runc ] && peers=/usr/sbin/runc
CONFORMANCE_DIR="$T" timeout -k 10 600 "$TOP/tests/conformance/run" "$CRIB" $peers >"$T/table" 2>&1
assert_eq "$?" 0 "tests/conformance/run exits 0" || sed 's/^/#   /' "$T/table"
sed 's/^/# /' "$T/table"
listed() { grep -v '^#' "$TOP/tests/conformance/crib-refuses" | awk -v c="$1" '$1 == c { $1 = ""; sub(/^ +/, ""); print; f = 1 } END { exit !f }'; }
n=0
while read -r c crib peer; do
	case "$crib" in pass | fail | skip) ;; *) continue ;; esac
	n=$((n + 1))
	why=$(listed "$c")
	if [ "$crib" = fail ]; then
		ok "$([ -n "$why" ] && echo 0 || echo 1)" "$c: crib fails it for a reason it lists (${why:-none listed; runc: ${peer:-not run}})" ||
			grep -A12 "^=== $c on crib-runc" "$T/conformance.log" 2>/dev/null | sed 's/^/#   /'
	else
		ok 0 "$c: crib: $crib"
		[ -n "$why" ] && [ "$crib" = pass ] && echo "# $c passes here, but crib-refuses lists it ($why): lift it from the list"
	fi
done <"$T/table"
ok "$([ $n -ge 50 ] && echo 0 || echo 1)" "the table has every case ($n)"
done_testing
