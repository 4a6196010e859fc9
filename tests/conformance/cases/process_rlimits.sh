# process_rlimits: the rlimits the program has, read from /proc/self/limits (lower than the
# host's, which a runtime without CAP_SYS_RESOURCE can set too)
. "$(dirname "$0")/../lib.sh"
C_PROCESS_EXTRA='"rlimits":[{"type":"RLIMIT_NOFILE","soft":100,"hard":200},{"type":"RLIMIT_CORE","soft":0,"hard":0},{"type":"RLIMIT_NPROC","soft":1000,"hard":1001}]'
cfg
workload 'cat /proc/self/limits >/r/limits'
ct_run c || exit 0
lim() { grep "^$1" "$R/limits" | sed "s/^$1 *//" | awk '{ print $1, $2 }'; }
check "$(lim 'Max open files')" "100 200" "RLIMIT_NOFILE soft 100, hard 200"
check "$(lim 'Max core file size')" "0 0" "RLIMIT_CORE 0"
check "$(lim 'Max processes')" "1000 1001" "RLIMIT_NPROC 1000, 1001"
