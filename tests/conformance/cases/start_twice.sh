# start_twice: start of a running container fails
. "$(dirname "$0")/../lib.sh"
cfg
workload 'sleep 30'
id=$(id_of c)
ct_create c || exit 0
rt_ok "start" start "$id"
rt_fails "a second start fails" start "$id"
check "$(state_of "$id" status)" running "the container still runs"
