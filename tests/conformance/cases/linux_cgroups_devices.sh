# linux_cgroups_devices: resources.devices: a device denied cannot be opened, one allowed can;
# the devices cgroup's list from outside (cgroup v1) says so. /dev/loop-control (10:237) is in
# no runtime's default allow list.
. "$(dirname "$0")/../lib.sh"
grep -q '^237 loop-control' /proc/misc || skip_case "no /dev/loop-control (10:237) in this kernel"
# the node is the host's, bind-mounted (linux.devices is linux_devices's case)
C_MOUNTS_EXTRA='{"destination":"/dev/loop-control","type":"bind","source":"/dev/loop-control","options":["bind"]}'
C_LINUX_EXTRA='"resources":{"devices":[{"allow":false,"access":"rwm"}]}'
cfg
workload 'if (: </dev/loop-control) 2>/r/err; then echo yes; else echo no; fi >/r/open'
ct_create deny || exit 0
list=$(cg_file "$(ct_pid deny)" devices devices.list "")
# a runtime may filter with cgroup v2's BPF program on a hybrid host too, and leave the container
# in the v1 devices cgroup it was started from (ours): the opens below are what count then
own=$(cg_file $$ devices devices.list "")
if [ -n "$list" ] && [ -r "$list" ] && [ "$list" != "$own" ]; then
	check "$(grep -c -e '^a ' -e '^c 10:237 ' "$list")" 0 "deny: devices.list allows neither all nor 10:237"
else
	skip "no cgroup v1 devices cgroup of the container's own (cgroup v2's BPF program filters)"
fi
rt start "$(id_of deny)"
wait_status "$(id_of deny)" stopped
check "$(res open)" no "deny: opening it fails"
check_contains "$(res err)" "Operation not permitted" "with EPERM"
rm -f "$R/open" "$R/err"
C_LINUX_EXTRA='"resources":{"devices":[{"allow":false,"access":"rwm"},{"allow":true,"type":"c","major":10,"minor":237,"access":"rw"}]}'
cfg
ct_create allow || exit 0
list=$(cg_file "$(ct_pid allow)" devices devices.list "")
if [ -n "$list" ] && [ -r "$list" ] && [ "$list" != "$own" ]; then
	check "$(grep -c '^c 10:237 rw$' "$list")" 1 "allow: devices.list has c 10:237 rw"
fi
rt start "$(id_of allow)"
wait_status "$(id_of allow)" stopped
check "$(res open)" yes "allow: opening it works"
