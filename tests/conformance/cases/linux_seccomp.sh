# linux_seccomp: a filter whose rule gives mkdir and mkdirat an errno: they fail with EPERM,
# other calls work, and the filter is on (Seccomp: 2 in /proc/self/status)
. "$(dirname "$0")/../lib.sh"
grep -q '^Seccomp:' /proc/self/status || skip_case "this kernel has no seccomp"
C_LINUX_EXTRA='"seccomp":{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":["mkdir","mkdirat"],"action":"SCMP_ACT_ERRNO"}]}'
cfg
workload 'if mkdir /tmp/d 2>/r/err; then echo yes; else echo no; fi >/r/mkdir
echo x >/tmp/f && cat /tmp/f >/r/write
grep ^Seccomp: /proc/self/status | tr -d "\t " >/r/mode'
ct_run c || exit 0
check "$(res mkdir)" no "mkdir fails"
check_contains "$(res err)" "Operation not permitted" "with EPERM"
check "$(res write)" x "other calls work"
check "$(res mode)" Seccomp:2 "the program runs under a filter"
