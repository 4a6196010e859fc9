# delete_resources: delete removes what create made: the container's cgroup (where it has one
# of its own), its namespaces' last process, its state
. "$(dirname "$0")/../lib.sh"
cfg
workload 'true'
id=$(id_of c)
ct_create c || exit 0
pid=$(ct_pid c)
f=$(cg_file "$pid" pids pids.max pids.max)
netns=$(ns_of "$pid" net)
rt start "$id"
wait_status "$id" stopped
rt_ok "delete" delete "$id"
sleep 0.2
if [ -n "$f" ] && [ "$f" != "$(cg_file $$ pids pids.max pids.max)" ]; then
	check "$([ -e "$(dirname "$f")" ] && echo "left: $(dirname "$f")" || echo gone)" gone "its cgroup is gone"
else
	skip "the container had no pids cgroup of its own"
fi
check "$(for p in /proc/[0-9]*; do [ "$(readlink "$p/ns/net" 2>/dev/null)" = "$netns" ] && echo "$p"; done)" "" \
	"no process is left in its network namespace"
rt state "$id"
check "$([ "$rc" != 0 ] && echo fails)" fails "state fails"
