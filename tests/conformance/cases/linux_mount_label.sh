# linux_mount_label: with no linux.mountLabel (and no SELinux here), the container's mounts
# carry no context= option. Where SELinux is on, its labels are not checked here.
. "$(dirname "$0")/../lib.sh"
[ -d /sys/fs/selinux ] && [ -e /sys/fs/selinux/enforce ] && skip_case "SELinux is on: mountLabel's labelling is not checked here"
cfg
workload 'grep -c "context=" /proc/self/mountinfo >/r/n'
ct_run c || exit 0
check "$(res n)" 0 "no mount has a context= option"
