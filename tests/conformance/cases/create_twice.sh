# create_twice: creating a container with the id of one that exists fails, and leaves the first
. "$(dirname "$0")/../lib.sh"
cfg
workload 'sleep 30'
id=$(id_of c)
ct_create c || exit 0
rt_fails "a second create of the same id fails" create --bundle "$B" "$id"
check "$(state_of "$id" status)" created "the first is still created"
check "$(state_of "$id" pid)" "$(ct_pid c)" "with its pid"
