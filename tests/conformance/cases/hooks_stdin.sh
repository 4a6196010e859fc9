# hooks_stdin: each hook gets the container's state on its stdin: its id and bundle, the pid
# of its process as the host sees it (all but poststop), and the status of that moment
. "$(dirname "$0")/../lib.sh"
C_TOP_EXTRA="\"hooks\":{\"prestart\":[$(hook prestart)],\"createRuntime\":[$(hook createRuntime)],
 \"createContainer\":[$(hook createContainer)],\"startContainer\":[$(hook startContainer)],
 \"poststart\":[$(hook poststart)],\"poststop\":[$(hook poststop)]}"
cfg
workload 'true'
id=$(id_of c)
ct_create c || exit 0
rt start "$id"
wait_status "$id" stopped
rt delete "$id"
bundle=$(cd "$B" && pwd -P)
for h in prestart createRuntime createContainer startContainer poststart poststop; do
	f="$R/hook-$h.json"
	check "$(jq -r '.id' "$f" 2>&1)|$(jq -r '.bundle' "$f" 2>&1)" "$id|$bundle" "$h's stdin: the state's id and bundle"
	echo "#   $h's state: $(jq -c '{status, pid}' "$f" 2>&1)"
done
for h in prestart createRuntime createContainer startContainer poststart; do
	check "$(jq -r '.pid' "$R/hook-$h.json" 2>&1)" "$(ct_pid c)" "$h's state has the container's pid"
done
check "$(jq -r .status "$R/hook-createRuntime.json")" creating "createRuntime's status is creating"
check "$(jq -r .status "$R/hook-startContainer.json")" created "startContainer's status is created"
check "$(jq -r .status "$R/hook-poststart.json")" running "poststart's status is running"
check "$(jq -r .status "$R/hook-poststop.json")" stopped "poststop's status is stopped"
