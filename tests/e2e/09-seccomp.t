#!/bin/sh
# Seccomp, read from inside the container: the default profile is in force for the workload
# and for crib's init, blocks what Docker blocks, answers ENOSYS where it should; the built-in
# profiles' programs were compiled at build time, and no file a container can write changes them.
if [ "${ROLE:-}" = root ] && [ -z "${CRIB_PRIVATE_CACHE:-}" ]; then
	# root's old cache directory, /var/cache/crib, is the machine's: the forgery below is planted
	# in a private copy, so that no other crib on this machine can load it
	mkdir -p /var/cache/crib
	exec env CRIB_PRIVATE_CACHE=1 unshare -m --propagation private sh -c \
		'mount -t tmpfs -o mode=0700 crib-private-cache /var/cache/crib && exec sh "$0"' "$0"
fi
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

# the load: the program goes to the kernel with SECCOMP_SET_MODE_FILTER, and nothing else is
# asked of seccomp(2) on the way (no SECCOMP_CLONE_FILTER, op 4: upstream has not assigned it;
# crib check asks it, once, and a batch's parent, below)
run_crib run --trace "$T/s.ini"
assert_contains "$err" "seccomp(SECCOMP_SET_MODE_FILTER, 0, {len=" "the trace shows the program loaded"
assert_not_contains "$err" "CLONE_FILTER" "and no SECCOMP_CLONE_FILTER"
if command -v strace >/dev/null 2>&1; then
	# (a sanitizer build's leak checker refuses to run under ptrace: it is off for this run)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=seccomp -o "$T/strace" "$CRIB" run "$T/s.ini" </dev/null >/dev/null 2>&1
	ok $? "crib runs under strace"
	calls=$(grep -c 'seccomp(' "$T/strace")
	assert_eq "$(grep 'seccomp(' "$T/strace" | grep -v 'seccomp(SECCOMP_SET_MODE_FILTER, 0, ' | tr '\n' ' ')" "" "its $calls seccomp(2) calls are all SECCOMP_SET_MODE_FILTER with no flag"
else
	skip "no strace here: cannot list crib's seccomp(2) calls"
	skip "(and their operations)"
fi
# a batch: crib run --count N asks for SECCOMP_CLONE_FILTER once, in the parent; on a kernel
# without it (every mainline one) each container loads the program as it would alone (the
# x86_64 clone VM guest runs the patched kernel's side)
run_crib run --trace --count 2 "$T/s.ini" -- $P syscall keyctl 0
assert_eq "$rc" 0 "crib run --count 2: exits 0"
assert_eq "$(echo $out)" "EPERM EPERM" "both containers are under the profile"
assert_eq "$(echo "$err" | grep -c 'exit status 0')" 2 "and each one's status is reported"
if [ "$(echo "$err" | grep -c 'cloned from template pid')" = 2 ]; then
	ok 0 "this kernel has SECCOMP_CLONE_FILTER: both filters were cloned from the template"
	assert_eq "$(echo "$err" | grep -c 'loaded [0-9]* instructions')" 0 "(so none was loaded)"
else
	assert_contains "$err" "no seccomp template: the kernel has no SECCOMP_CLONE_FILTER" "no template on this kernel, and the trace says why"
	assert_eq "$(echo "$err" | grep -c 'loaded [0-9]* instructions')" 2 "each container loads the program"
fi
run_crib run --count 2 -d "$T/s.ini"
assert_eq "$rc" 125 "--count with -d: a usage error"
run_crib run --count 0 "$T/s.ini"
assert_contains "$err" "'0' is not a number of containers" "--count 0: refused"
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

# which program: the built-in profiles were compiled when crib was built, others now
case $(uname -m) in # libseccomp's name of the architecture
arm*) native=arm ;;
i?86) native=x86 ;;
*) native=$(uname -m) ;;
esac
run_crib run --trace "$T/s.ini"
assert_contains "$err" "seccomp program: built-in program compiled at build time (profile default" "the default level's program was compiled at build time"
run_crib run --trace "$T/strict.ini"
assert_contains "$err" "seccomp program: built-in program compiled at build time (profile strict" "and so was the strict level's"
printf '[security]\ncapabilities = default +SYS_PTRACE\n[process]\nargs = /bin/true\n' | spec "$T/ptrace.ini"
run_crib run --trace "$T/ptrace.ini"
assert_contains "$err" "built-in program compiled at build time (profile default on $native, capabilities the profile tests: SYS_CHROOT SYS_PTRACE" "default +SYS_PTRACE: built in too"
printf '[security]\ncapabilities = default +SYS_PTRACE +SYS_ADMIN\n[process]\nargs = /bin/true\n' | spec "$T/two.ini"
run_crib run --trace "$T/two.ini"
echo "$err" | grep -qE "seccomp program: compiled at run time in [0-9]+ us .*no built-in program for this bounding set"
ok $? "two added capabilities: compiled at run time, and the trace says why"
run_crib run --trace "$T/mine.ini"
echo "$err" | grep -qE "seccomp program: compiled at run time in [0-9]+ us .*a profile of one's own"
ok $? "a profile of one's own: compiled at run time"

# Issue 11, hole 5: crib once kept compiled programs in a cache ($XDG_CACHE_HOME/crib, or
# /var/cache/crib as root) and trusted a file there because the user owned it; any process of
# the user, a container with the directory bound in too, could replace it. Plant exactly what
# that cache_store() wrote, with the key that seccomp_prepare() computed (FNV-1a over the
# profile text, the arch, the bounding set, kernel and libseccomp versions, crib's version),
# holding one instruction: return ALLOW. For the default level, and for a profile file.
if ! command -v python3 >/dev/null 2>&1; then
	skip "no python3 here to forge the old cache's file (the forgery is tested on the host)"
else
	if [ "$ROLE" = root ]; then cache=/var/cache/crib; else cache=$XDG_CACHE_HOME/crib; fi
	mkdir -p "$cache" && chmod 700 "$cache"
	if [ "$ROLE" = root ]; then
		assert_eq "$(stat -f -c %T "$cache")" tmpfs "as root, /var/cache/crib is a private tmpfs for this test"
	fi
	run_crib run "$T/s.ini" -- /bin/sh -c 'grep ^CapBnd: /proc/self/status | cut -f2'
	capbnd=$out
	libseccomp=$("$CRIB" seccomp show | sed -n 's/.*this libseccomp \([0-9.]*\):.*/\1/p')
	cat >"$T/forge.py" <<'EOF2'
import re, struct, sys
crib, cache, arch, capbnd, release, libseccomp, version, profile = sys.argv[1:]
def fnv(h, data):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h
if profile == "default":  # the text embedded in crib, as the old code hashed it
    binary = open(crib, "rb").read()
    start = binary.find(b"# crib's default seccomp profile.\n")
    text = binary[start:binary.find(b"\0", start)]
else:
    text = open(profile, "rb").read()
kmaj, kmin = map(int, re.match(r"(\d+)\.(\d+)", release).groups())
key = fnv(0xcbf29ce484222325, text)
key = fnv(key, arch.encode() + b"\0")
key = fnv(key, struct.pack("<Q", int(capbnd, 16)))
key = fnv(key, struct.pack("<5I", kmaj, kmin, *map(int, libseccomp.split("."))))
key = fnv(key, version.encode() + b"CRIBBPF2\0")
allow = struct.pack("<HBBI", 0x06, 0, 0, 0x7FFF0000)  # BPF_RET|BPF_K, SECCOMP_RET_ALLOW
path = "%s/seccomp-%016x.bpf" % (cache, key)
with open(path, "wb") as f:
    f.write(b"CRIBBPF2" + struct.pack("<QIIQ", key, 1, 0, fnv(0xcbf29ce484222325, allow)) + allow)
print(path)
EOF2
	forge() { python3 "$T/forge.py" "$CRIB" "$cache" "$native" "$capbnd" "$(uname -r)" "$libseccomp" "$("$CRIB" version | cut -d' ' -f2)" "$1"; }
	forged=$(forge default)
	mine=$(forge "$T/mine.profile")
	[ -f "$forged" ] && [ "$(stat -c %s "$forged")" = 40 ] && [ -f "$mine" ]
	ok $? "forged programs planted where crib used to look ($forged)"
	chmod 600 "$forged" "$mine"
	run_crib run --trace "$T/s.ini" -- $P syscall keyctl 0
	assert_eq "$out" EPERM "after the forgery, keyctl is still refused"
	assert_contains "$err" "seccomp program: built-in program compiled at build time" "and the trace names the built-in program"
	assert_not_contains "$err" "cached load" "(no cached load)"
	assert_eq "$(try "$T/s.ini" unshare 0x10000000)" EPERM "unshare(CLONE_NEWUSER) is still refused"
	run_crib run --trace "$T/mine.ini" -- $P syscall keyctl 0
	assert_eq "$out" EPERM "a profile of one's own: keyctl still refused, the profile compiled afresh"
	assert_contains "$err" "seccomp program: compiled at run time in" "(and the trace says so)"
	assert_eq "$(ls -A "$cache" | grep -v "^$(basename "$forged")\$" | grep -v "^$(basename "$mine")\$" | grep -c 'seccomp')" 0 "no run wrote a program or a temporary file there"
	rm -f "$forged" "$mine"
fi

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
assert_contains "$out" "the program: built-in program compiled at build time" "the program a container gets"
run_crib seccomp builtin --check
assert_eq "$rc" 0 "crib seccomp builtin --check: every embedded program is what libseccomp compiles now"
assert_contains "$out" "default  $native" "and it lists the default profile's programs"
assert_not_contains "$out" "DIFFERENT" "(none differs)"
run_crib seccomp explain --caps CAP_SYS_ADMIN clone3
assert_contains "$out" "decided by line" "explain with --caps"
assert_contains "$out" "allowed" "clone3 with CAP_SYS_ADMIN is allowed"
run_crib seccomp show
assert_contains "$out" "[errno ENOSYS when not cap SYS_ADMIN]" "crib seccomp show lists the resolved rules"
run_crib seccomp frob
assert_eq "$rc" 125 "an unknown seccomp command: 125"
done_testing
