# lifecycle: create -> state "created" (the program not run yet) -> start -> "running" ->
# kill -> "stopped" -> delete -> no such container; state's ociVersion, id, pid, bundle,
# annotations on the way
. "$(dirname "$0")/../lib.sh"
cfg
workload 'echo started >/r/started; trap "echo term >/r/term; exit 0" TERM; while :; do sleep 0.1; done'
id=$(id_of c)
ct_create c || exit 0
check "$(state_of "$id" status)" created "state after create: created"
check "$(state_of "$id" id)" "$id" "state's id"
check "$(state_of "$id" bundle)" "$(cd "$B" && pwd -P)" "state's bundle: the absolute path"
check "$(state_of "$id" pid)" "$(ct_pid c)" "state's pid: the pid file's"
check "$([ -n "$(state_of "$id" ociVersion)" ] && echo has)" has "state has ociVersion"
check "$(state_of "$id" 'annotations["org.crib.conformance"]')" "$IDP" "state has the config's annotations"
sleep 0.2
check "$(res started)" "<missing started>" "the program has not run yet"
rt_ok "start" start "$id" || exit 0
i=0
while [ ! -e "$R/started" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "$(res started)" started "the program runs"
check "$(state_of "$id" status)" running "state after start: running"
check "$(state_of "$id" pid)" "$(ct_pid c)" "with the same pid"
rt_ok "kill TERM" kill "$id" TERM
wait_status "$id" stopped
check "$(state_of "$id" status)" stopped "state after the program ends: stopped"
check "$(res term)" term "the program got SIGTERM"
rt_ok "delete" delete "$id"
rt state "$id"
check "$([ "$rc" != 0 ] && echo fails)" fails "state of the deleted container fails"
