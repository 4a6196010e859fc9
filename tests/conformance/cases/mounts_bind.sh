# mounts_bind: a read-only and a read-write bind mount of host directories: their content is
# seen, the read-only one refuses writes, what is written in the other is on the host
. "$(dirname "$0")/../lib.sh"
mkdir -p "$W/src-ro" "$W/src-rw"
echo from-host >"$W/src-ro/f"
chmod 0777 "$W/src-rw"
C_MOUNTS_EXTRA="{\"destination\":\"/mnt/ro\",\"type\":\"bind\",\"source\":\"$W/src-ro\",\"options\":[\"bind\",\"ro\"]},
 {\"destination\":\"/mnt/rw\",\"type\":\"bind\",\"source\":\"$W/src-rw\",\"options\":[\"rbind\",\"rw\"]}"
cfg
workload 'cat /mnt/ro/f >/r/ro-content
if (echo x >/mnt/ro/new) 2>/r/ro-err; then echo yes; else echo no; fi >/r/ro-write
echo from-container >/mnt/rw/new'
ct_run c || exit 0
check "$(res ro-content)" from-host "the ro bind shows the host's file"
check "$(res ro-write)" no "writing it fails"
check_contains "$(res ro-err)" "Read-only file system" "with EROFS"
check "$(cat "$W/src-ro/new" 2>/dev/null)" "" "nothing was written on the host"
check "$(cat "$W/src-rw/new" 2>/dev/null)" from-container "the rw bind's write is on the host"
