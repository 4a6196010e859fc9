# killsig: kill with a signal by name (USR1) and by number (2) reaches the program; with none
# it is SIGTERM; a created container can be killed too
. "$(dirname "$0")/../lib.sh"
cfg
workload 'trap "echo usr1 >>/r/sig" USR1; trap "echo int >>/r/sig" INT; trap "echo term >>/r/sig; exit 0" TERM
echo ready >/r/ready; while :; do sleep 0.1; done'
id=$(id_of c)
ct_create c || exit 0
rt start "$id"
i=0
while [ ! -e "$R/ready" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
sig_seen() { # wait for N lines in sig
	i=0
	while [ "$(wc -l <"$R/sig" 2>/dev/null || echo 0)" -lt "$1" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
}
rt_ok "kill USR1" kill "$id" USR1
sig_seen 1
rt_ok "kill 2" kill "$id" 2
sig_seen 2
rt_ok "kill (no signal)" kill "$id"
wait_status "$id" stopped
check "$(tr '\n' ' ' <"$R/sig" 2>/dev/null)" "usr1 int term " "the program got USR1, INT, then TERM"
ct_create d || exit 0
rt_ok "kill KILL of a created container" kill "$(id_of d)" KILL
wait_status "$(id_of d)" stopped
check "$(state_of "$(id_of d)" status)" stopped "which is then stopped"
