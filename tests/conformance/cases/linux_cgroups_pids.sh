# linux_cgroups_pids: resources.pids.limit in pids.max read from outside, and it holds inside
. "$(dirname "$0")/../lib.sh"
C_LINUX_EXTRA='"resources":{"pids":{"limit":5}}'
cfg
workload 'for i in 1 2 3 4 5 6 7 8; do sleep 5 & done 2>/r/err; echo done >/r/done; kill $(jobs -p) 2>/dev/null'
ct_create c || exit 0
f=$(cg_file "$(ct_pid c)" pids pids.max pids.max)
[ -n "$f" ] || skip_case "no pids cgroup controller"
check "$(cat "$f" 2>&1)" 5 "pids.max"
rt start "$(id_of c)"
wait_status "$(id_of c)" stopped 100
check_contains "$(res err)" "fork" "the sixth process cannot be made"
