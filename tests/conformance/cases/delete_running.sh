# delete_running: delete of a running container is refused and it keeps running; delete --force
# kills it and removes it
. "$(dirname "$0")/../lib.sh"
cfg
workload 'sleep 30'
id=$(id_of c)
ct_create c || exit 0
pid=$(ct_pid c)
rt start "$id"
rt_fails "delete of a running container fails" delete "$id"
check "$(state_of "$id" status)" running "it keeps running"
rt_ok "delete --force" delete --force "$id"
sleep 0.2
rt state "$id"
check "$([ "$rc" != 0 ] && echo fails)" fails "then state fails"
check "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null | grep -v Z)" "" "and its process is gone"
