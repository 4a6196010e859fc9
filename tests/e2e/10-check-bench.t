#!/bin/sh
# crib check tries each feature for real and says what to do when one is missing; crib bench
# prints a complete table.
. "$(dirname "$0")/../lib/libtest.sh"

"$CRIB" check --rootfs "$ROOTFS" >"$T/table" 2>&1
rc=$?
"$CRIB" check --rootfs "$ROOTFS" --format=ini >"$T/check.ini" 2>&1
rc_ini=$?
"$INI_DUMP" "$T/check.ini" >"$T/rows"
ok $? "--format=ini parses with crib's own INI tokenizer"
get() { sed -n "s/^$1=//p" "$T/rows"; }
assert_eq "$(get user_namespace.status)" "ok" "user namespaces: ok"
assert_eq "$(get seccomp_filter.status)" "ok" "seccomp filters: ok"
assert_contains "$(get seccomp_filter.evidence)" "Seccomp: 2 in /proc/self/status" "seccomp evidence read back from /proc/self/status"
assert_eq "$(get pivot_root.status)" "ok" "pivot_root on the rootfs's filesystem: ok"
assert_eq "$(get mount_namespace.status)" "ok" "mount namespace: ok"
if [ -d /sys/kernel/security/apparmor ] || [ -e /sys/module/apparmor ]; then
	skip "this kernel has AppArmor (the missing-AppArmor case is tested where it is absent)"
	skips 2 "this kernel has AppArmor"
else
	assert_eq "$(get apparmor.status)" "missing" "AppArmor: missing"
	assert_contains "$(get apparmor.remedy)" "CONFIG_SECURITY_APPARMOR=y" "with the remedy"
	assert_eq "$rc:$rc_ini" "1:1" "exit 1: crib runs, degraded"
fi
assert_contains "$(cat "$T/table")" "AppArmor" "the table lists AppArmor"
if [ -r /proc/config.gz ] || [ -r "/boot/config-$(uname -r)" ]; then
	assert_contains "$(cat "$T/table")" "config: CONFIG_USER_NS" "and what the kernel config says"
else
	assert_contains "$(cat "$T/table")" "no kernel config here" "and that there is no kernel config to read"
fi

# user namespaces switched off: a user namespace of our own whose limit is 0
if userns_works; then
	unshare -Ur sh -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec "$0" check --format=ini' "$CRIB" >"$T/off.ini" 2>&1
	"$INI_DUMP" "$T/off.ini" >"$T/rows"
	assert_eq "$(get user_namespace.status)" "disabled" "max_user_namespaces = 0: user namespaces disabled"
	assert_contains "$(get user_namespace.evidence)" "user.max_user_namespaces = 0" "the evidence names the sysctl's value"
	assert_contains "$(get user_namespace.remedy)" "sysctl user.max_user_namespaces=15000" "the remedy names the sysctl"
else
	skips 3 "unshare -Ur does not work here"
fi

printf '[container]\nrootfs = %s\n[process]\nargs = /bin/true\n[namespaces]\nnet = no\n[security]\nseccomp = unconfined\n' "$ROOTFS" >"$T/s.ini"
"$CRIB" check --spec "$T/s.ini" --format=ini >"$T/spec.ini"
"$INI_DUMP" "$T/spec.ini" >"$T/rows"
assert_eq "$(get net_namespace.status)" "" "--spec: no network row for net = no"
assert_eq "$(get seccomp_filter.status)" "" "--spec: no seccomp row for seccomp = unconfined"
assert_eq "$(get pivot_root.status)" "ok" "--spec: pivot_root tried on the spec's rootfs"
run_crib check --bogus
assert_eq "$rc" 125 "a bad argument: 125"

# bench: every cell has a number
out=$("$CRIB" bench --rootfs "$ROOTFS" --quick 2>&1)
assert_eq "$?" 0 "crib bench --quick runs"
rows=$(echo "$out" | grep -cE '^(1|4k|1M) +[0-9.]+ MB/s +[0-9.]+ MB/s +[-+][0-9]+% +[0-9.]+ MB/s +[-+][0-9]+%$')
assert_eq "$rows" 3 "three block sizes, each with host, seccomp, container and impacts"
assert_contains "$out" "container start time" "the start time"
echo "$out" | grep -qE 'built-in program \(compiled at build time\) +[0-9]+ us$'
ok $? "the cost of taking the built-in seccomp program"
echo "$out" | grep -qE 'compile with libseccomp .* +[0-9]+ us$'
ok $? "the seccomp compile cost"
out=$("$CRIB" bench --rootfs "$ROOTFS" --quick --format=csv --levels 2>&1)
assert_eq "$(echo "$out" | head -n 1)" "block,host_mbps,seccomp_mbps,unconfined_mbps,default_mbps,strict_mbps" "--format=csv --levels: a column per level"
# --seccomp: the install cost per path alone; the clone's row has a cost only on a kernel with
# SECCOMP_CLONE_FILTER (the x86_64 clone VM guest), else it says why not
out=$("$CRIB" bench --seccomp 2>&1)
assert_eq "$?" 0 "crib bench --seccomp runs"
echo "$out" | grep -qE 'kernel load: seccomp\(SET_MODE_FILTER\) +[0-9]+ us$'
ok $? "with the kernel's load"
echo "$out" | grep -qE 'clone from a template \(SECCOMP_CLONE_FILTER\) +([0-9.]+ us|n/a)$'
ok $? "and the clone's row: a cost, or n/a with the reason"
assert_not_contains "$out" "MB/s" "and no dd run"
out=$("$CRIB" bench --seccomp --format=csv 2>&1)
echo "$out" | grep -qE '^seccomp_clone(_us,[0-9.]+|,n/a)$'
ok $? "--format=csv: seccomp_clone_us, or seccomp_clone,n/a"

done_testing
