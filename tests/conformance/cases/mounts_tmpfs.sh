# mounts_tmpfs: a tmpfs with options (nosuid, nodev, noexec, mode, size): its mount flags and
# its superblock options, as /proc/self/mountinfo shows them, and its mode
. "$(dirname "$0")/../lib.sh"
C_MOUNTS_EXTRA='{"destination":"/mnt/t","type":"tmpfs","source":"tmpfs","options":["nosuid","nodev","noexec","mode=1770","size=1m"]}'
cfg
workload 'awk '"'"'$5 == "/mnt/t"'"'"' /proc/self/mountinfo >/r/mi; stat -c %a /mnt/t >/r/mode'
ct_run c || exit 0
mi=$(cat "$R/mi")
check "$(echo "$mi" | wc -l)" 1 "one mount at /mnt/t"
flags=$(echo "$mi" | awk '{ print $6 }')
for f in nosuid nodev noexec; do check_contains ",$flags," ",$f," "$f"; done
check "$(echo "$mi" | sed 's/.* - //' | awk '{ print $1 }')" tmpfs "type tmpfs"
super=$(echo "$mi" | sed 's/.* - //' | awk '{ print $3 }')
check_contains ",$super," ",size=1024k," "size=1m"
check "$(res mode)" 1770 "mode=1770"
