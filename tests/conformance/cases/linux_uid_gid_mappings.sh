# linux_uid_gid_mappings: a new user namespace with uidMappings and gidMappings: the maps inside
# and from outside, and the program's ids
. "$(dirname "$0")/../lib.sh"
[ -e /proc/self/ns/user ] || skip_case "no user namespaces in this kernel"
C_NS='[{"type":"pid"},{"type":"network"},{"type":"ipc"},{"type":"uts"},{"type":"mount"},{"type":"user"}]'
C_LINUX_EXTRA='"uidMappings":[{"containerID":0,"hostID":231072,"size":65536}],"gidMappings":[{"containerID":0,"hostID":331072,"size":65536}]'
# the mappings' root must reach the rootfs and the result directory; the root is read-only (a
# runtime may refuse a writable host-owned rootfs that a mapped root could plant setuid files in)
chmod 0755 "$W" "$B"
C_ROOT_RO=true
cfg
workload 'cat /proc/self/uid_map >/r/uid_map; cat /proc/self/gid_map >/r/gid_map; id -u >/r/uid; id -g >/r/gid'
ct_create c || exit 0
pid=$(ct_pid c)
check "$(tr -s ' ' ' ' <"/proc/$pid/uid_map" | sed 's/^ //')" "0 231072 65536" "uid_map from outside"
check "$(tr -s ' ' ' ' <"/proc/$pid/gid_map" | sed 's/^ //')" "0 331072 65536" "gid_map from outside"
check "$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")" 231072 "its process is host uid 231072"
rt start "$(id_of c)"
wait_status "$(id_of c)" stopped
check "$(tr -s ' ' ' ' <"$R/uid_map" 2>/dev/null | sed 's/^ //')" "0 231072 65536" "uid_map inside"
check "$(tr -s ' ' ' ' <"$R/gid_map" 2>/dev/null | sed 's/^ //')" "0 331072 65536" "gid_map inside"
check "$(res uid):$(res gid)" "0:0" "the program is uid 0, gid 0 inside"
