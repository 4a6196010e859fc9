# root_readonly: root.readonly true makes / read-only inside; false leaves it writable
. "$(dirname "$0")/../lib.sh"
workload 'if touch /written 2>/r/err; then echo yes; else echo no; fi >/r/w; rm -f /written
awk '"'"'$5 == "/" { print $6 }'"'"' /proc/self/mountinfo | tail -n1 | cut -d, -f1 >/r/opt'
C_ROOT_RO=true
cfg
ct_run ro || exit 0
check "$(res w)" no "readonly: writing / fails"
check_contains "$(res err)" "Read-only file system" "with EROFS"
check "$(res opt)" ro "/ is mounted ro"
C_ROOT_RO=false
cfg
ct_run rw || exit 0
check "$(res w)" yes "not readonly: writing / works"
