# linux_ns_nopath: a new namespace of each type the config names (pid, network, ipc, uts, mount,
# cgroup): each differs from the runtime's own
. "$(dirname "$0")/../lib.sh"
C_NS='[{"type":"pid"},{"type":"network"},{"type":"ipc"},{"type":"uts"},{"type":"mount"},{"type":"cgroup"}]'
cfg
workload 'for t in pid net ipc uts mnt cgroup; do readlink /proc/self/ns/$t >/r/ns-$t; done'
ct_run c || exit 0
for t in pid net ipc uts mnt cgroup; do
	in=$(res "ns-$t")
	check_contains "$in" "$t:[" "$t namespace read"
	check_ne "$in" "$(ns_of $$ "$t")" "$t namespace is new"
done
