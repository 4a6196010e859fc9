# kill_no_effect: kill of a stopped container fails (it is neither created nor running)
. "$(dirname "$0")/../lib.sh"
cfg
workload 'true'
id=$(id_of c)
ct_create c || exit 0
rt start "$id"
wait_status "$id" stopped || { check "$(state_of "$id" status)" stopped "the container stops"; exit 0; }
rt_fails "kill of a stopped container fails" kill "$id" KILL
check "$(state_of "$id" status)" stopped "it is still stopped"
