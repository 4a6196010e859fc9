# hooks_prestart_fail: a prestart hook that fails stops the container: create or start fails,
# the program never runs, and the next hook does not run
. "$(dirname "$0")/../lib.sh"
C_TOP_EXTRA="\"hooks\":{\"prestart\":[$(hook failing 1),$(hook after)]}"
cfg
workload 'echo ran >/r/ran'
expect_refused c
check "$(tr '\n' ' ' <"$R/order" 2>/dev/null)" "failing " "the failing hook ran, the one after it did not"
