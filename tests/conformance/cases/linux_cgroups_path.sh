# linux_cgroups_path: linux.cgroupsPath (absolute) is the container's cgroup, and delete
# removes it
. "$(dirname "$0")/../lib.sh"
C_LINUX_EXTRA="\"cgroupsPath\":\"/conformance-$IDP\""
cfg
workload 'sleep 30'
ct_create c || exit 0
pid=$(ct_pid c)
f=$(cg_file "$pid" pids pids.max pids.max)
want="$( [ -d /sys/fs/cgroup/pids ] && echo /sys/fs/cgroup/pids || echo /sys/fs/cgroup)/conformance-$IDP"
check "$f" "$want/pids.max" "the container's pids cgroup is cgroupsPath"
if [ -d /sys/fs/cgroup/memory ]; then
	check "$(cg_file "$pid" memory memory.limit_in_bytes "")" "/sys/fs/cgroup/memory/conformance-$IDP/memory.limit_in_bytes" \
		"and so is its memory cgroup"
fi
rt delete --force "$(id_of c)"
sleep 0.2
check "$([ -e "$want" ] && echo left || echo gone)" gone "delete removes it"
