#!/bin/sh
# The OCI runtime conformance cases (tests/conformance: crib's own, written from the runtime
# spec, since the opencontainers validation suite cannot be built from Debian here), against
# crib and, where it is installed, runc, in one run: every case crib fails must be listed in
# tests/conformance/crib-refuses with its reason, so a case that passed and stops passing fails
# here. As root (the cases make namespaces, devices and cgroups); the table is in the output.
# Also run in the x86_64 VM guest (tests/vm/guest-tests.sh), whose cgroup v2 has every controller:
# there the cases this hybrid host cannot pass (listed "the x86_64 guest ... passes it") pass.
. "$(dirname "$0")/../lib/libtest.sh"

: "${TOP:?set by tests/run-all}"
if [ "$(id -u)" != 0 ]; then
	skip "the conformance cases run as root (tests/conformance/run)"
	done_testing
	exit
fi
if ! command -v jq >/dev/null 2>&1; then
	skip "no jq here, which the cases build their configs with (rootfs-tools/install-deps check installs it; the x86_64 VM guest has it)"
	done_testing
	exit
fi
# the peers beside crib: runc where it is installed (CONFORMANCE_PEERS=PATH,...: these instead;
# the x86_64 guest's, runc and crun, are there when tests/vm/run copied them, CRIB_VM_PEERS=1)
peers=""
for p in $(echo "${CONFORMANCE_PEERS-/usr/sbin/runc}" | tr , ' '); do
	[ -x "$p" ] && peers="$peers $p"
done
CONFORMANCE_DIR="$T" timeout -k 10 900 "$TOP/tests/conformance/run" "$CRIB" $peers >"$T/table" 2>&1
assert_eq "$?" 0 "tests/conformance/run exits 0" || sed 's/^/#   /' "$T/table"
sed 's/^/# /' "$T/table"
listed() { grep -v '^#' "$TOP/tests/conformance/crib-refuses" | awk -v c="$1" '$1 == c { $1 = ""; sub(/^ +/, ""); print; f = 1 } END { exit !f }'; }
# a host of cgroup v2 alone (the x86_64 guest): the cases listed for a hybrid host must pass
v2=no
grep -q '^[^ ]* /sys/fs/cgroup cgroup2 ' /proc/mounts && v2=yes
n=0
while read -r c crib peer; do
	case "$crib" in pass | fail | skip) ;; *) continue ;; esac
	n=$((n + 1))
	why=$(listed "$c")
	case "$v2:$why" in yes:"on a hybrid host"*) why="" ;; esac
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
