# linux_cgroups_memory: resources.memory's limit and reservation, in the container's cgroup
# files read from outside
. "$(dirname "$0")/../lib.sh"
C_LINUX_EXTRA='"resources":{"memory":{"limit":67108864,"reservation":33554432}}'
cfg
workload 'sleep 30'
ct_create c || exit 0
pid=$(ct_pid c)
f=$(cg_file "$pid" memory memory.limit_in_bytes memory.max)
[ -n "$f" ] || skip_case "no memory cgroup controller"
check "$(cat "$f" 2>&1)" 67108864 "limit: $(basename "$f")"
f=$(cg_file "$pid" memory memory.soft_limit_in_bytes memory.low)
check "$(cat "$f" 2>&1)" 33554432 "reservation: $(basename "$f")"
