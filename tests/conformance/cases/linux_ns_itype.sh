# linux_ns_itype: a namespace type the config leaves out is the runtime's own (uts and ipc here)
. "$(dirname "$0")/../lib.sh"
C_NS='[{"type":"pid"},{"type":"network"},{"type":"mount"}]'
C_HOSTNAME=""
cfg
workload 'for t in ipc uts; do readlink /proc/self/ns/$t >/r/ns-$t; done'
ct_run c || exit 0
for t in ipc uts; do
	check "$(res "ns-$t")" "$(ns_of $$ "$t")" "the $t namespace is the runtime's"
done
