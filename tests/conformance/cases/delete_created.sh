# delete_created: delete of a created container removes it; its program never runs
. "$(dirname "$0")/../lib.sh"
cfg
workload 'echo ran >/r/ran'
id=$(id_of c)
ct_create c || exit 0
pid=$(ct_pid c)
rt_ok "delete of a created container" delete "$id"
sleep 0.3
check "$(res ran)" "<missing ran>" "its program never ran"
check "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null | grep -v Z)" "" "its process is gone"
rt state "$id"
check "$([ "$rc" != 0 ] && echo fails)" fails "state fails"
