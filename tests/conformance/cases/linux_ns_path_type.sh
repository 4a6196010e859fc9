# linux_ns_path_type: a namespace path of another type than the entry's (a UTS namespace given
# as the network one) is an error, and nothing runs
. "$(dirname "$0")/../lib.sh"
ns_target uts || skip_case "unshare could not make a uts namespace"
C_NS="[{\"type\":\"pid\"},{\"type\":\"mount\"},{\"type\":\"network\",\"path\":\"/proc/$tpid/ns/uts\"}]"
C_HOSTNAME=""
cfg
workload 'echo ran >/r/ran'
expect_refused c
