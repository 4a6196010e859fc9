#!/bin/sh
# An OCI config's .linux.seccomp with a default that allows and rules that deny, kill or trap
# (issue 34), as runc applies them: a deny-list (defaultAction SCMP_ACT_ALLOW) whose one rule
# gives mkdir and mkdirat EACCES: mkdir fails with "Permission denied", other calls work, and the
# workload runs under a filter (Seccomp: 2, read from the host in /proc/PID/status); a rule
# SCMP_ACT_KILL_PROCESS for uname kills the workload with SIGSYS (run's status 159, 128 + 31),
# one for mkdir kills a shell's subshell, the shell seeing it die so; SCMP_ACT_TRAP raises an
# uncaught SIGSYS the same way; SCMP_ACT_NOTIFY is refused (125, its JSON path). As root and as
# the unprivileged test user.
# (That a deny-list has no ENOSYS guard cannot be seen from inside, where the kernel answers an
# unknown number ENOSYS too: test_seccomp_actions.c runs the program on one.)
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/oci.sh"

if ! grep -q '^Seccomp:' /proc/self/status; then
	echo "1..0 # SKIP this kernel has no seccomp"
	exit 0
fi

# config ARGS_JSON SECCOMP_JSON: the bundle's config.json, a tmpfs at /tmp. As root no user
# namespace (the engines' default); as a user, one mapping the caller's own ids.
config() {
	oci_ns
	maps=${idmaps:+$idmaps,}
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":$1,"cwd":"/","env":["PATH=/bin:/usr/bin"],"user":{"uid":0,"gid":0},
   "capabilities":{"bounding":["CAP_KILL"],"effective":["CAP_KILL"],"permitted":["CAP_KILL"]},
   "noNewPrivileges":true},
 "mounts":[{"destination":"/proc","type":"proc","source":"proc"},
   {"destination":"/tmp","type":"tmpfs","source":"tmpfs","options":["nosuid","nodev"]}],
 "linux":{"namespaces":[$ns],$maps"seccomp":$2}}
EOF
}

# --- a deny-list: mkdir and mkdirat fail with EACCES, everything else is let through
deny='{"defaultAction":"SCMP_ACT_ALLOW","architectures":["SCMP_ARCH_X86_64","SCMP_ARCH_X86","SCMP_ARCH_AARCH64","SCMP_ARCH_ARM"],
 "syscalls":[{"names":["mkdir","mkdirat"],"action":"SCMP_ACT_ERRNO","errnoRet":13}]}'
config '["/bin/sh","-c","mkdir /tmp/d 2>&1; echo mkdir=$?; echo x >/tmp/f && cat /tmp/f; uname -s; grep ^Seccomp: /proc/self/status | tr -d \"\\t \"; echo done; exec sleep 100"]' "$deny"
R create --bundle "$B" d1 >"$T/d1.out" 2>"$T/d1.err" </dev/null
rc=$?
assert_eq "$rc:$(cat "$T/d1.err")" "0:" "create with a default-allow profile exits 0, saying nothing"
pid=$(pid_in_state d1)
R start d1 >/dev/null 2>&1
i=0
while ! grep -q '^done$' "$T/d1.out" 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
out=$(cat "$T/d1.out")
assert_contains "$out" "Permission denied" "mkdir fails with 'Permission denied' (EACCES from the rule)" ||
	sed 's/^/#   /' "$T/d1.out"
assert_contains "$out" "mkdir=1" "and mkdir exits 1"
assert_contains "$out" "$(printf 'x\nLinux')" "writing, reading and uname work (the default lets them through)"
assert_contains "$out" "Seccomp:2" "the workload sees itself under a filter"
assert_eq "$(awk '/^Seccomp:/{print $2}' "/proc/$pid/status" 2>/dev/null)" 2 \
	"from the host, /proc/$pid/status says Seccomp: 2"
R kill d1 KILL >/dev/null 2>&1
wait_status d1 stopped
R delete -f d1 >/dev/null 2>&1

# --- a kill rule: uname kills the workload with SIGSYS, under run (128 + 31) and in a shell
kill='{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":["uname"],"action":"SCMP_ACT_KILL_PROCESS"}]}'
config '["/bin/uname"]' "$kill"
oci run --bundle "$B" k1
assert_eq "$rc" 159 "SCMP_ACT_KILL_PROCESS for uname: run exits 159, a SIGSYS death" ||
	sed 's/^/#   /' "$T/.stderr"
assert_eq "$out" "" "and uname printed nothing"
# busybox sh calls uname itself as it starts: mkdir is the call a shell can watch its child die of
config '["/bin/sh","-c","(mkdir /tmp/k); echo status=$?; echo alive"]' \
	'{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":["mkdir","mkdirat"],"action":"SCMP_ACT_KILL_PROCESS"}]}'
oci run --bundle "$B" k2
assert_eq "$rc:$out" "0:$(printf 'status=159\nalive')" \
	"a kill rule for mkdir: the shell sees its subshell die of SIGSYS (159) and goes on (the caller's process alone)"

# --- a trap rule: SIGSYS, which busybox does not catch: the same death
config '["/bin/uname"]' '{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":["uname"],"action":"SCMP_ACT_TRAP"}]}'
oci run --bundle "$B" t1
assert_eq "$rc" 159 "SCMP_ACT_TRAP for uname: an uncaught SIGSYS, run exits 159"

# --- refused: a notify rule (crib runs no listener)
config '["/bin/true"]' '{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":["uname"],"action":"SCMP_ACT_NOTIFY"}]}'
oci create --bundle "$B" n1
assert_eq "$rc" 125 "SCMP_ACT_NOTIFY: create exits 125"
assert_contains "$err" ".linux.seccomp.syscalls[0].action: crib cannot honour 'SCMP_ACT_NOTIFY'" \
	"naming its JSON path"
R delete -f n1 >/dev/null 2>&1

done_testing
