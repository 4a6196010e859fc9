# pidfile: create --pid-file writes the container process's pid, which is state's and is a
# process in the container's namespaces
. "$(dirname "$0")/../lib.sh"
cfg
workload 'sleep 30'
id=$(id_of c)
ct_create c || exit 0
pid=$(ct_pid c)
check "$(echo "$pid" | grep -cE '^[0-9]+$')" 1 "the pid file holds a number ($pid)"
check "$(state_of "$id" pid)" "$pid" "state's pid"
check_ne "$(ns_of "$pid" pid)" "$(ns_of $$ pid)" "the process is in a new pid namespace"
check "$(awk '/^NSpid:/ { print $NF }' "/proc/$pid/status")" 1 "as its pid 1"
