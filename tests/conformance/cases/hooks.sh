# hooks: prestart, createRuntime, createContainer (at create), startContainer (at start, before
# the program), poststart (after it started), poststop (at delete) each run once, in that order
. "$(dirname "$0")/../lib.sh"
C_TOP_EXTRA="\"hooks\":{\"prestart\":[$(hook prestart)],\"createRuntime\":[$(hook createRuntime)],
 \"createContainer\":[$(hook createContainer)],\"startContainer\":[$(hook startContainer)],
 \"poststart\":[$(hook poststart)],\"poststop\":[$(hook poststop)]}"
cfg
workload 'echo process >>/r/order'
id=$(id_of c)
ct_create c || exit 0
check "$(tr '\n' ' ' <"$R/order" 2>/dev/null)" "prestart createRuntime createContainer " "create ran prestart, createRuntime, createContainer"
rt_ok "start" start "$id"
wait_status "$id" stopped
got=$(tr '\n' ' ' <"$R/order" | sed 's/process poststart/poststart process/')
check "$got" "prestart createRuntime createContainer startContainer poststart process " "start ran startContainer before the program, and poststart"
rt_ok "delete" delete "$id"
check "$(tail -n1 "$R/order")" poststop "delete ran poststop, last"
