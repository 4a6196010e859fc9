# hostname: the container's hostname, in its own UTS namespace; the host's is unchanged
. "$(dirname "$0")/../lib.sh"
C_HOSTNAME=conf-host-name
before=$(hostname)
cfg
workload 'hostname >/r/h'
ct_run c || exit 0
check "$(res h)" conf-host-name "hostname inside"
check "$(hostname)" "$before" "the host's is unchanged"
