# linux_sysctl: sysctls of the container's own namespaces (net.* with a network namespace,
# kernel.shm* with an IPC namespace) are set inside; the host's stay as they were
. "$(dirname "$0")/../lib.sh"
fwd=$(cat /proc/sys/net/ipv4/ip_forward)
want_fwd=$((1 - fwd))
shm=$(cat /proc/sys/kernel/shmmni)
C_LINUX_EXTRA="\"sysctl\":{\"net.ipv4.ip_forward\":\"$want_fwd\",\"kernel.shmmni\":\"1234\",\"net.ipv4.ping_group_range\":\"0 10\"}"
cfg
workload 'cat /proc/sys/net/ipv4/ip_forward >/r/fwd; cat /proc/sys/kernel/shmmni >/r/shm
cat /proc/sys/net/ipv4/ping_group_range | tr -s "\t " " " >/r/ping'
ct_run c || exit 0
check "$(res fwd)" "$want_fwd" "net.ipv4.ip_forward inside"
check "$(res shm)" 1234 "kernel.shmmni inside"
check "$(res ping)" "0 10" "net.ipv4.ping_group_range inside"
check "$(cat /proc/sys/net/ipv4/ip_forward):$(cat /proc/sys/kernel/shmmni)" "$fwd:$shm" "the host's are unchanged"
