#!/bin/sh
# Seccomp, read from inside the container: the default profile is in force for the workload
# and for crib's init, blocks what Docker blocks, answers ENOSYS where it should, and the
# compiled program is cached, checked, and never loaded when it was tampered with.
. "$(dirname "$0")/../lib/libtest.sh"

P=/usr/local/bin/probe
export XDG_CACHE_HOME="$T/cache"
spec "$T/s.ini" <<'EOF2'
[process]
args = /bin/true
EOF2
try() { # try SPEC CALL ARGS...: the probe's answer to one system call
	_s=$1
	shift
	run_crib run "$_s" -- $P syscall "$@"
	echo "$out"
}

run_crib run "$T/s.ini" -- /bin/sh -c 'grep ^Seccomp: /proc/self/status | cut -f2; grep ^Seccomp: /proc/1/status | cut -f2; echo hello | tr a-z A-Z; ls / >/dev/null && echo ls-ok'
assert_eq "$(echo $out)" "2 2 HELLO ls-ok" "Seccomp 2 for the workload and for crib's init; ordinary programs work"
assert_eq "$(try "$T/s.ini" keyctl 0)" EPERM "keyctl: EPERM"
assert_eq "$(try "$T/s.ini" unshare 0x10000000)" EPERM "unshare(CLONE_NEWUSER): EPERM"
assert_eq "$(try "$T/s.ini" mount 0 0 0 0 0)" EPERM "mount: EPERM"
assert_eq "$(try "$T/s.ini" clone3 0 0)" ENOSYS "clone3 without CAP_SYS_ADMIN: ENOSYS (glibc falls back to clone)"
assert_eq "$(try "$T/s.ini" 1000)" ENOSYS "an unnamed syscall above the profile's highest: ENOSYS"
assert_eq "$(try "$T/s.ini" getpid)" ok "getpid: allowed"
assert_eq "$(try "$T/s.ini" socket 40 1 0)" EPERM "socket(AF_VSOCK): EPERM, as Docker"
assert_eq "$(try "$T/s.ini" socket 2 1 0)" ok "socket(AF_INET): allowed"
run_crib run "$T/s.ini" -- $P ptrace-init
assert_eq "$out" EPERM "the workload cannot ptrace crib's init (not dumpable) to make calls for it"

spec "$T/u.ini" <<'EOF2'
[security]
seccomp = unconfined
[process]
args = /bin/sh -c 'grep ^Seccomp: /proc/self/status | cut -f2'
EOF2
run_crib run "$T/u.ini"
assert_eq "$out" "0" "seccomp = unconfined: no filter (the tests above can tell)"
assert_eq "$(try "$T/u.ini" keyctl 0)" "EINVAL" "unconfined, keyctl reaches the kernel"

spec "$T/strict.ini" <<'EOF2'
[security]
level = strict
[process]
args = /bin/true
EOF2
assert_eq "$(try "$T/strict.ini" ptrace 0 0)" EPERM "strict: ptrace EPERM"
assert_eq "$(try "$T/strict.ini" personality 8)" EPERM "strict: no personality change"
assert_eq "$(try "$T/strict.ini" personality 0xffffffff)" ok "strict: the personality query works"
assert_eq "$(try "$T/strict.ini" socket 17 3 0)" EPERM "strict: AF_PACKET EPERM"
assert_eq "$(try "$T/strict.ini" socket 16 3 0)" ok "strict: AF_NETLINK allowed"

# a profile of one's own, and a broken one
cat >"$T/mine.profile" <<'EOF2'
# allow everything busybox and the probe need, but not getpid
base default
drop getpid
EOF2
printf '[security]\nseccomp = ./mine.profile\n[process]\nargs = /bin/true\n' | spec "$T/mine.ini"
assert_eq "$(try "$T/mine.ini" getpid)" EPERM "seccomp = PATH: a profile of one's own, based on the default"
printf 'default errno EPERM\n[allow if arg9 == 1]\nread\n' >"$T/bad.profile"
printf '[security]\nseccomp = ./bad.profile\n[process]\nargs = /bin/true\n' | spec "$T/bad.ini"
run_crib run "$T/bad.ini"
assert_eq "$rc:$err" "125:crib: $T/bad.profile:2: expected 'if argN OP VALUE' (N from 0 to 5)" "a broken profile: FILE:LINE and 125"

# the cache: compiled once, then loaded; a bad file is recompiled, never loaded
cached() { echo "$err" | sed -n 's/.*\(kept in\|from\) \([^ ]*\.bpf\).*/\2/p' | head -n 1; }
run_crib run --trace "$T/s.ini"
rm -f "$(cached)"
run_crib run --trace "$T/s.ini"
assert_contains "$err" "seccomp program: compiled" "the first run compiles"
file=$(cached)
if [ "$ROLE" = root ]; then
	assert_contains "$file" "/var/cache/crib/seccomp-" "root's cache is /var/cache/crib"
else
	assert_contains "$file" "$XDG_CACHE_HOME/crib/seccomp-" "a user's cache is \$XDG_CACHE_HOME/crib"
	assert_eq "$(stat -c %a "$XDG_CACHE_HOME/crib")" "700" "its directory is private (0700)"
fi
assert_eq "$(stat -c %a "$file")" "600" "the cached program is private (0600)"
run_crib run --trace "$T/s.ini"
assert_contains "$err" "seccomp program: cached load of" "the second run does not compile"
assert_not_contains "$err" "compiled" "(and says nothing of compiling)"

cp "$file" "$T/good"
printf 'X' | dd of="$file" bs=1 seek=200 conv=notrunc 2>/dev/null
run_crib run --trace "$T/s.ini"
assert_contains "$err" "compiled" "a tampered program is not loaded"
assert_contains "$err" "checksum does not match" "and the trace says why"
truncate -s 100 "$file"
run_crib run --trace "$T/s.ini"
assert_contains "$err" "truncated" "a truncated program is not loaded"
cp "$T/good" "$file"
chmod 0620 "$file"
run_crib run --trace "$T/s.ini"
assert_contains "$err" "writable by group or others" "a group-writable program is not loaded"
if [ "$ROLE" = root ]; then
	cp "$T/good" "$file"
	chown 65534 "$file"
	run_crib run --trace "$T/s.ini"
	assert_contains "$err" "belongs to another user" "a program owned by another user is not loaded"
fi
run_crib run --trace "$T/s.ini"
assert_contains "$err" "cached load" "after a bad file, the fresh one is used again"

# the tools
"$CRIB" seccomp export >"$T/prog.bpf"
size=$(stat -c %s "$T/prog.bpf")
[ "$size" -gt 800 ] && [ $((size % 8)) = 0 ]
ok $? "crib seccomp export writes struct sock_filter records ($size bytes)"
if command -v bwrap >/dev/null 2>&1 && bwrap --ro-bind "$ROOTFS" / --proc /proc --dev /dev true 2>/dev/null; then
	out=$(bwrap --ro-bind "$ROOTFS" / --proc /proc --dev /dev --seccomp 3 $P syscall keyctl 0 3<"$T/prog.bpf")
	assert_eq "$out" EPERM "bwrap --seccomp FD loads the exported program as it is"
else
	skip "bubblewrap is not installed or cannot run here"
fi
"$CRIB" seccomp export --arch aarch64 >"$T/a64.bpf" && [ -s "$T/a64.bpf" ]
ok $? "crib seccomp export --arch aarch64"
run_crib seccomp explain socket 40
assert_contains "$out" "no rule matches: the default action, EPERM" "crib seccomp explain socket 40"
assert_contains "$out" "the compiled program (" "and what the compiled program answers"
run_crib seccomp explain --caps CAP_SYS_ADMIN clone3
assert_contains "$out" "decided by line" "explain with --caps"
assert_contains "$out" "allowed" "clone3 with CAP_SYS_ADMIN is allowed"
run_crib seccomp show
assert_contains "$out" "[errno ENOSYS when not cap SYS_ADMIN]" "crib seccomp show lists the resolved rules"
run_crib seccomp frob
assert_eq "$rc" 125 "an unknown seccomp command: 125"
done_testing
