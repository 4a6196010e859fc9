# state_unknown: state, kill, start and delete of an id no container has fail
. "$(dirname "$0")/../lib.sh"
id=$(id_of nosuch)
rt_fails "state fails" state "$id"
check "$out" "" "and prints no state"
rt_fails "start fails" start "$id"
rt_fails "kill fails" kill "$id" KILL
rt_fails "delete fails" delete "$id"
