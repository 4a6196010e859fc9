# config_updates_without_affect: changing config.json after create changes nothing: start runs
# the program of create's config
. "$(dirname "$0")/../lib.sh"
cfg
workload 'echo "$0" >/r/which'
id=$(id_of c)
ct_create c || exit 0
C_ARGS='["/bin/sh","-c","echo changed >/r/which"]'
cfg
rt_ok "start" start "$id"
wait_status "$id" stopped
check "$(res which)" /r/w.sh "the program is create's"
