# process_rlimits_fail: an rlimit type the kernel has not is an error, and nothing runs
. "$(dirname "$0")/../lib.sh"
C_PROCESS_EXTRA='"rlimits":[{"type":"RLIMIT_NO_SUCH_LIMIT","soft":1,"hard":1}]'
cfg
workload 'echo ran >/r/ran'
expect_refused c
