# linux_readonly_paths: a read-only path reads as before and refuses writes; one that does not
# exist is no error
. "$(dirname "$0")/../lib.sh"
mkdir -p "$B/rootfs/ro-dir"
echo content >"$B/rootfs/ro-dir/f"
echo content >"$B/rootfs/ro-file"
C_LINUX_EXTRA='"readonlyPaths":["/ro-dir","/ro-file","/proc/sys","/no/such/path"]'
cfg
workload 'cat /ro-dir/f >/r/read
if touch /ro-dir/x 2>/r/dir-err; then echo yes; else echo no; fi >/r/dir-write
if (echo x >>/ro-file) 2>/r/file-err; then echo yes; else echo no; fi >/r/file-write
if (echo 1 >/proc/sys/net/ipv4/ip_forward) 2>/r/sys-err; then echo yes; else echo no; fi >/r/sys-write'
ct_run c || exit 0
check "$(res read)" content "a read-only directory reads"
check "$(res dir-write)" no "and refuses a new file"
check_contains "$(res dir-err)" "Read-only file system" "with EROFS"
check "$(res file-write)" no "a read-only file refuses a write"
check "$(res sys-write)" no "/proc/sys refuses a write"
check_contains "$(res sys-err)" "Read-only file system" "with EROFS"
