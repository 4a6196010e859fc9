# default: the config `runc spec` writes (its mounts, /sys/fs/cgroup among them, masked and
# read-only paths, rlimits, a read-only root, the devices cgroup denying all), with a program
# that writes one file: it runs, and exits 0.
. "$(dirname "$0")/../lib.sh"
C_ROOT_RO=true
C_NS='[{"type":"pid"},{"type":"network"},{"type":"ipc"},{"type":"uts"},{"type":"mount"},{"type":"cgroup"}]'
C_PROCESS_EXTRA='"rlimits":[{"type":"RLIMIT_NOFILE","hard":1024,"soft":1024}]'
C_MOUNTS_EXTRA='{"destination":"/dev/mqueue","type":"mqueue","source":"mqueue","options":["nosuid","noexec","nodev"]},
 {"destination":"/sys","type":"sysfs","source":"sysfs","options":["nosuid","noexec","nodev","ro"]},
 {"destination":"/sys/fs/cgroup","type":"cgroup","source":"cgroup","options":["nosuid","noexec","nodev","relatime","ro"]}'
C_LINUX_EXTRA='"resources":{"devices":[{"allow":false,"access":"rwm"}]},
 "maskedPaths":["/proc/acpi","/proc/asound","/proc/kcore","/proc/keys","/proc/latency_stats","/proc/timer_list","/proc/timer_stats","/proc/sched_debug","/sys/firmware","/proc/scsi"],
 "readonlyPaths":["/proc/bus","/proc/fs","/proc/irq","/proc/sys","/proc/sysrq-trigger"]'
cfg
workload 'echo ran >/r/ran'
ct_run c && check "$(res ran)" ran "the program ran"
