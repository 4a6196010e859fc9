#!/bin/sh
# AppArmor on a host without it: the default level (prefer) warns, names the reason and the
# fix, and runs; it says so once per boot and user (a file in the user's state directory), and
# every time with --trace; require, or a profile the spec names itself, is an error (125), unless the
# spec itself also says apparmor_mode = prefer; unconfined says nothing. Where AppArmor is on, the profile itself is tested in the VM harness.
. "$(dirname "$0")/../lib/libtest.sh"

if [ -d /sys/kernel/security/apparmor ]; then
	echo "1..0 # SKIP this kernel has AppArmor on: the absent case is tested elsewhere, the profile in the VM harness"
	exit 0
fi
why="it is not built into this kernel"
[ -e /sys/module/apparmor ] && why="it is built into this kernel but disabled at boot"

# where crib remembers it said so: root's /run/crib, a user's XDG_RUNTIME_DIR/crib (a private
# one here); forgotten first, so this test sees the first time
if [ "$ROLE" = root ]; then
	said=/run/crib/_said-apparmor-off
else
	export XDG_RUNTIME_DIR="$T/run"
	mkdir -m 0700 "$XDG_RUNTIME_DIR"
	said=$XDG_RUNTIME_DIR/crib/_said-apparmor-off
fi
rm -f "$said"

spec "$T/d.ini" <<'EOF2'
[process]
args = /bin/sh -c 'cat /proc/self/attr/current 2>/dev/null || echo no-lsm-label; echo ran'
EOF2
"$CRIB" run "$T/d.ini" >"$T/out" 2>"$T/err" </dev/null
assert_eq "$?" 0 "prefer (the default level): the container runs"
assert_contains "$(cat "$T/out")" "ran" "and its workload ran"
assert_eq "$(grep -c '^crib: warning:' "$T/err")" 1 "exactly one warning"
assert_eq "$(head -n 1 "$T/err")" "crib: warning: AppArmor is not available ($why); running without the profile 'crib-default'" "it names the reason"
assert_contains "$(sed -n 2p "$T/err")" "crib: hint: " "and the fix, on the next line"
assert_eq "$(cat "$said" 2>/dev/null)" "$(cat /proc/sys/kernel/random/boot_id)" \
	"crib remembers it said so, with this boot's id"
"$CRIB" run "$T/d.ini" >"$T/out" 2>"$T/err" </dev/null
assert_eq "$?:$(cat "$T/err")" "0:" "the next container of this boot runs without saying it again"
"$CRIB" run --trace "$T/d.ini" >"$T/out" 2>"$T/err" </dev/null
assert_contains "$(grep '^crib: warning:' "$T/err")" "AppArmor is not available ($why)" \
	"--trace says it every time"
echo "an-older-boot" >"$said"
"$CRIB" run "$T/d.ini" >"$T/out" 2>"$T/err" </dev/null
assert_contains "$(cat "$T/err")" "AppArmor is not available ($why)" "a record of another boot: said again"

printf '[security]\napparmor_mode = require\n' | spec "$T/r.ini"
printf '[process]\nargs = /bin/true\n' >>"$T/r.ini"
run_crib run "$T/r.ini"
assert_eq "$rc" 125 "apparmor_mode = require: 125"
assert_eq "$(echo "$err" | head -n 1)" "crib: $T/r.ini:4: AppArmor profile 'crib-default' was asked for, but $why" "FILE:LINE and the reason"
assert_contains "$err" "crib: hint: " "with the remedy"

printf '[security]\napparmor = crib-default\n[process]\nargs = /bin/true\n' | spec "$T/n.ini"
run_crib run "$T/n.ini"
assert_eq "$rc" 125 "a profile the spec names itself: 125"

printf '[security]\napparmor = crib-default\napparmor_mode = prefer\n[process]\nargs = /bin/true\n' | spec "$T/np.ini"
rm -f "$said"
"$CRIB" run "$T/np.ini" >"$T/out" 2>"$T/err" </dev/null
assert_eq "$?" 0 "a profile the spec names itself, with apparmor_mode = prefer: the container runs"
assert_eq "$(head -n 1 "$T/err")" "crib: warning: AppArmor is not available ($why); running without the profile 'crib-default'" "and warns with the reason"

printf '[security]\napparmor = unconfined\n[process]\nargs = /bin/true\n' | spec "$T/u.ini"
"$CRIB" run "$T/u.ini" >"$T/out" 2>"$T/err" </dev/null
assert_eq "$?:$(cat "$T/err")" "0:" "apparmor = unconfined: runs and says nothing"

run_crib run --trace "$T/u.ini"
assert_contains "$err" "no AppArmor profile: the workload runs as crib does" "--trace shows the label question"
done_testing
