# linux_masked_paths: a masked file reads empty, a masked directory is empty and cannot be
# written; a masked path that does not exist is no error
. "$(dirname "$0")/../lib.sh"
mkdir -p "$B/rootfs/masked-dir"
echo secret >"$B/rootfs/masked-dir/f"
echo secret >"$B/rootfs/masked-file"
C_LINUX_EXTRA='"maskedPaths":["/masked-dir","/masked-file","/proc/kcore","/no/such/path"]'
cfg
workload 'ls -A /masked-dir | wc -l >/r/dir-n; cat /masked-file >/r/file
head -c 16 /proc/kcore | wc -c >/r/kcore
if touch /masked-dir/x 2>/dev/null; then echo yes; else echo no; fi >/r/dir-write'
ct_run c || exit 0
check "$(res dir-n)" 0 "the masked directory is empty"
check "$(res dir-write)" no "and cannot be written"
check "$(res file)" "" "the masked file reads empty"
check "$(res kcore)" 0 "/proc/kcore reads empty"
