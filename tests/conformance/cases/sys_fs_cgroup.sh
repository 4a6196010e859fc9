# sys_fs_cgroup: the config's cgroup mount at /sys/fs/cgroup (after a read-only sysfs at /sys),
# read-only, shows the cgroup hierarchies (each v1 controller, or v2's files) with the
# container's own cgroup at their root (a cgroup namespace)
. "$(dirname "$0")/../lib.sh"
C_NS='[{"type":"pid"},{"type":"network"},{"type":"ipc"},{"type":"uts"},{"type":"mount"},{"type":"cgroup"}]'
C_MOUNTS_EXTRA='{"destination":"/sys","type":"sysfs","source":"sysfs","options":["nosuid","noexec","nodev","ro"]},
 {"destination":"/sys/fs/cgroup","type":"cgroup","source":"cgroup","options":["nosuid","noexec","nodev","relatime","ro"]}'
cfg
workload 'awk '"'"'$5 == "/sys/fs/cgroup" || $5 ~ "^/sys/fs/cgroup/" { print $5, $6 }'"'"' /proc/self/mountinfo >/r/mounts
cat /sys/fs/cgroup/pids/cgroup.procs /sys/fs/cgroup/cgroup.procs 2>/dev/null | grep -cx 1 >/r/procs
ls /sys/fs/cgroup >/r/ls
if (: >/sys/fs/cgroup/conformance) 2>/dev/null; then echo yes; else echo no; fi >/r/write'
ct_run c || exit 0
echo "#   the cgroup mounts inside:"
diag "$R/mounts"
check_ne "$(grep -c '^/sys/fs/cgroup' "$R/mounts" 2>/dev/null)" 0 "something is mounted at /sys/fs/cgroup"
if [ -d /sys/fs/cgroup/pids ]; then
	check "$(grep -c '^/sys/fs/cgroup/pids ' "$R/mounts")" 1 "v1: the pids hierarchy is mounted"
else
	check "$(grep -c '^cgroup.controllers$' "$R/ls")" 1 "v2: cgroup.controllers is there"
fi
check "$(res procs)" 1 "the hierarchy's root holds the program (pid 1): the container's own cgroup"
check "$(res write)" no "writing fails"
check "$(awk '$1 != "/sys/fs/cgroup" { split($2, o, ","); if (o[1] != "ro") print $1 }' "$R/mounts")" "" "each hierarchy is mounted read-only"
