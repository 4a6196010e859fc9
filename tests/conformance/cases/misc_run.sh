# misc_run: `run` creates, starts and waits: the program's output and exit status are run's,
# and the container is gone after; `run --detach` returns with the container running
. "$(dirname "$0")/../lib.sh"
cfg
workload 'echo out-of-run; exit 7'
id=$(id_of c)
_ids="$id"
rt run --bundle "$B" "$id"
check "$rc" 7 "run exits with the program's status" || diag "$W/err"
check "$out" out-of-run "its stdout is the program's"
rt state "$id"
check "$([ "$rc" != 0 ] && echo fails)" fails "the container is gone after"
workload 'sleep 30'
id=$(id_of d)
_ids="$_ids $id"
rt_ok "run --detach exits 0" run --detach --bundle "$B" "$id"
check "$(state_of "$id" status)" running "and leaves the container running"
rt kill "$id" KILL
wait_status "$id" stopped
rt delete "$id"
