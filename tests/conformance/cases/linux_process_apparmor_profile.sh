# linux_process_apparmor_profile: process.apparmorProfile is the program's confinement, as
# /proc/self/attr/current says (where AppArmor is on and has a profile loaded)
. "$(dirname "$0")/../lib.sh"
[ "$(cat /sys/module/apparmor/parameters/enabled 2>/dev/null)" = Y ] ||
	skip_case "AppArmor is not on in this kernel (/sys/module/apparmor/parameters/enabled)"
prof=$(sed -n 's/ (enforce)$//p' /sys/kernel/security/apparmor/profiles 2>/dev/null | grep -v '//' | head -n1)
[ -n "$prof" ] || skip_case "AppArmor has no profile loaded in enforce mode"
C_PROCESS_EXTRA="\"apparmorProfile\":\"$prof\""
cfg
workload 'cat /proc/self/attr/current >/r/attr'
ct_run c || exit 0
check "$(res attr)" "$prof (enforce)" "the program is confined by '$prof'"
