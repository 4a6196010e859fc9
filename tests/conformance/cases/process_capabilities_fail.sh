# process_capabilities_fail: a capability the kernel has not named is an error at create
. "$(dirname "$0")/../lib.sh"
C_CAPS='{"bounding":["CAP_KILL","CAP_NO_SUCH_THING"],"effective":["CAP_KILL"],"permitted":["CAP_KILL"]}'
cfg
workload 'echo ran >/r/ran'
expect_refused c
