# process_capabilities_user: five different sets for uid 1000. After its execve (capabilities(7):
# no file capabilities, not root) the permitted and effective sets are the ambient one; the
# bounding and inheritable sets are the config's.
. "$(dirname "$0")/../lib.sh"
C_USER='{"uid":1000,"gid":1000}'
C_CAPS='{"bounding":["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_KILL","CAP_SETUID","CAP_NET_RAW"],
 "permitted":["CAP_CHOWN","CAP_KILL","CAP_NET_RAW"],"effective":["CAP_CHOWN","CAP_KILL"],
 "inheritable":["CAP_KILL","CAP_NET_RAW"],"ambient":["CAP_KILL","CAP_NET_RAW"]}'
cfg
workload 'grep ^Cap /proc/self/status >/r/caps'
ct_run c || exit 0
cap() { sed -n "s/^Cap$1:[[:space:]]*//p" "$R/caps"; }
check "$(cap Bnd)" 00000000000020a3 "bounding: CHOWN DAC_OVERRIDE KILL SETUID NET_RAW"
check "$(cap Inh)" 0000000000002020 "inheritable: KILL NET_RAW"
check "$(cap Amb)" 0000000000002020 "ambient: KILL NET_RAW"
check "$(cap Prm)" 0000000000002020 "permitted after execve: the ambient set"
check "$(cap Eff)" 0000000000002020 "effective after execve: the ambient set"
