# process_capabilities: the five capability sets for uid 0 as runtime-tools' generator gives
# them (all five the same list), read from /proc/self/status
. "$(dirname "$0")/../lib.sh"
l='"CAP_CHOWN","CAP_KILL","CAP_NET_RAW"'
C_CAPS="{\"bounding\":[$l],\"effective\":[$l],\"permitted\":[$l],\"inheritable\":[$l],\"ambient\":[$l]}"
cfg
workload 'grep ^Cap /proc/self/status >/r/caps'
ct_run c || exit 0
# CAP_CHOWN 0, CAP_KILL 5, CAP_NET_RAW 13
for s in Bnd Prm Eff Inh Amb; do
	check "$(sed -n "s/^Cap$s:[[:space:]]*//p" "$R/caps")" 0000000000002021 "Cap$s is CHOWN, KILL, NET_RAW"
done
