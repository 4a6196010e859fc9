# process_oom_score_adj: oomScoreAdj, inside and from outside once created
. "$(dirname "$0")/../lib.sh"
C_PROCESS_EXTRA='"oomScoreAdj":432'
cfg
workload 'cat /proc/self/oom_score_adj >/r/adj'
ct_create c || exit 0
check "$(cat "/proc/$(ct_pid c)/oom_score_adj" 2>/dev/null)" 432 "the created container's process has 432 (outside)"
rt start "$(id_of c)"
wait_status "$(id_of c)" stopped
check "$(res adj)" 432 "and its program (inside)"
