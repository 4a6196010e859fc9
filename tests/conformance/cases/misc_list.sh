# misc_list: `list` shows the containers with their status; -q only their ids; --format json
# the id, pid, status and bundle of each
. "$(dirname "$0")/../lib.sh"
cfg
workload 'sleep 30'
ct_create a || exit 0
ct_create b || exit 0
rt start "$(id_of b)"
rt_ok "list exits 0" list || exit 0
check "$(echo "$out" | awk -v i="$(id_of a)" '$1 == i { print $3 }')" created "list: a is created"
check "$(echo "$out" | awk -v i="$(id_of b)" '$1 == i { print $3 }')" running "b is running"
rt_ok "list -q exits 0" list -q
check "$(echo "$out" | grep -c "^$IDP-[ab]$")" 2 "list -q: both ids"
rt_ok "list --format json exits 0" list --format json
echo "$out" >"$W/list.json"
check "$(jq -r --arg i "$(id_of a)" '.[] | select(.id == $i) | .pid' "$W/list.json" 2>&1)" "$(ct_pid a)" "json: a's pid"
check "$(jq -r --arg i "$(id_of b)" '.[] | select(.id == $i) | .status' "$W/list.json" 2>&1)" running "json: b's status"
check "$(jq -r --arg i "$(id_of a)" '.[] | select(.id == $i) | .bundle' "$W/list.json" 2>&1)" "$(cd "$B" && pwd -P)" "json: a's bundle"
