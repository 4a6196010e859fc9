#!/bin/sh
# tools/seccomp-json2crib, which writes podman's seccomp.json (Docker's JSON form) in crib's
# profile language at build time: this machine's file converts and parses; a file it cannot say
# exactly stops it with an error (the build then carries no program for it), and no string of
# the file can add a line or a word to the profile it writes (a name with a newline and a rule
# in it, an errno that is not one, an action crib does not take, an unknown condition).
: "${CRIB:?set by tests/run-all}"
J2C="$(dirname "$0")/../../tools/seccomp-json2crib"
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 runs the converter (rootfs-tools/install-deps check)"
	exit 0
fi
T=$(mktemp -d /tmp/crib-json2crib.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0
failed=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then printf "ok %s - %s\n" $n "$2"; else printf "not ok %s - %s\n" $n "$2"; failed=1; fi; return "$1"; }

if [ -f /usr/share/containers/seccomp.json ]; then
	"$J2C" /usr/share/containers/seccomp.json /usr/share/containers/containers.conf >"$T/podman" 2>"$T/err"
	ok $? "this machine's seccomp.json converts" || sed 's/^/#   /' "$T/err"
	[ "$(grep -c '^# capabilities = .*CHOWN' "$T/podman")" -ge 1 ] &&
		grep -q '^# capabilities = AUDIT_WRITE CHOWN DAC_OVERRIDE FOWNER FSETID KILL MKNOD NET_BIND_SERVICE NET_RAW SETFCAP SETGID SETPCAP SETUID SYS_CHROOT$' "$T/podman"
	ok $? "with the two sets podman resolves it for named: containers.conf's and podman's own ($(grep '^# capabilities' "$T/podman" | cut -c18- | tr '\n' '|'))"
	"$CRIB" seccomp show "$T/podman" >"$T/show" 2>&1
	ok $? "crib parses what it wrote" || sed 's/^/#   /' "$T/show" | head -5
	# each rule of the JSON is one rule of the profile, and each name one name
	want=$(python3 -c 'import json; d = json.load(open("/usr/share/containers/seccomp.json"))
print(len(d["syscalls"]), sum(len(r.get("names") or [r.get("name")]) for r in d["syscalls"]))')
	got="$(grep -c '^\[' "$T/podman") $(grep -vc '^\[\|^#\|^default' "$T/podman")"
	[ "$want" = "$got" ]
	ok $? "rule for rule and name for name: $got (the JSON: $want)"
else
	echo "# this machine has no /usr/share/containers/seccomp.json (podman is not installed): the crafted files only"
fi

# a small file of every form the converter takes
cat >"$T/good.json" <<'EOF'
{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 38, "syscalls": [
 {"names": ["read", "write"], "action": "SCMP_ACT_ALLOW"},
 {"names": ["personality"], "action": "SCMP_ACT_ALLOW", "args": [{"index": 0, "value": 8, "op": "SCMP_CMP_EQ"}]},
 {"names": ["clone"], "action": "SCMP_ACT_ALLOW", "args": [{"index": 0, "value": 2114060288, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"}],
  "excludes": {"caps": ["CAP_SYS_ADMIN"], "arches": ["s390", "s390x"]}},
 {"names": ["arch_prctl"], "action": "SCMP_ACT_ALLOW", "includes": {"arches": ["amd64", "x32"], "minKernel": "4.8"}},
 {"names": ["ptrace"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1, "includes": {"caps": ["CAP_SYS_PTRACE"]}},
 {"names": ["kill"], "action": "SCMP_ACT_KILL_PROCESS"}]}
EOF
"$J2C" "$T/good.json" >"$T/good" 2>"$T/err"
ok $? "a file of every form converts" || sed 's/^/#   /' "$T/err"
expect='# capabilities = AUDIT_WRITE CHOWN DAC_OVERRIDE FOWNER FSETID KILL MKNOD NET_BIND_SERVICE NET_RAW SETFCAP SETGID SETPCAP SETUID SYS_CHROOT
default errno ENOSYS
[allow]
read
write
[allow if arg0 == 0x8]
personality
[allow if arg0 & 0x7e020000 == 0x0 when not cap SYS_ADMIN when not arch s390 s390x]
clone
[allow when arch x86_64 x32 when kernel >= 4.8]
arch_prctl
[errno EPERM when cap SYS_PTRACE]
ptrace
[kill]
kill'
[ "$(sed 1d "$T/good")" = "$expect" ]
ok $? "into crib's words: actions, comparisons, includes and excludes (podman 4's capabilities without a containers.conf)" ||
	diff "$T/good" - <<EOF | sed 's/^/#   /'
$expect
EOF
"$CRIB" seccomp show "$T/good" >"$T/show" 2>&1
ok $? "and crib parses it" || sed 's/^/#   /' "$T/show" | head -5

# bad: each must stop the converter (exit 1, nothing on stdout) and name the place
bad() {
	printf '%s' "$2" >"$T/bad.json"
	out=$("$J2C" "$T/bad.json" 2>"$T/err")
	rc=$?
	[ $rc = 1 ] && [ -z "$out" ] && grep -q "$3" "$T/err"
	ok $? "$1: refused ($(cat "$T/err" | cut -c1-120))" || echo "$out" | head -3 | sed 's/^/#   /'
}
bad "a name with a newline and a rule in it" \
	'{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read\n[allow]\nkeyctl"], "action": "SCMP_ACT_ALLOW"}]}' 'syscalls\[0\]: names'
bad "an errnoRet that is not an errno" \
	'{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": "1\n[allow]", "syscalls": []}' 'is not an errno'
bad "SCMP_ACT_NOTIFY (no listener)" \
	'{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_NOTIFY"}]}' 'not one crib says exactly'
bad "an unknown condition" \
	'{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW", "includes": {"os": ["linux"]}}]}' 'a condition crib does not know'
bad "an architecture crib does not know" \
	'{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW", "includes": {"arches": ["vax"]}}]}' 'architecture crib does not know'
bad "a capability with a space and a word in it" \
	'{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW", "includes": {"caps": ["CAP_KILL when kernel >= 1.0"]}}]}' 'is not a capability name'
bad "an argument value that is a string" \
	'{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW", "args": [{"index": 0, "value": "1 when cap KILL", "op": "SCMP_CMP_EQ"}]}]}' 'is not a 64-bit argument value'
bad "a minKernel with more in it" \
	'{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW", "includes": {"minKernel": "4.8\n[allow]"}}]}' 'minKernel'
bad "not JSON" 'defaultAction: allow' 'Expecting value'
bad "a name with a newline at its end" \
	'{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["getpid\n"], "action": "SCMP_ACT_ALLOW"}]}' 'syscalls\[0\]: names'
bad "a minKernel in other digits" \
	'{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW", "includes": {"minKernel": "\u0665.\u0668"}}]}' 'minKernel'

# errnos whose Python name is an alias of glibc's (crib's parser takes strerrorname_np's)
printf '%s' '{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 95, "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ERRNO", "errnoRet": 35}]}' >"$T/alias.json"
"$J2C" "$T/alias.json" >"$T/alias" 2>"$T/err" && grep -q '^default errno EOPNOTSUPP$' "$T/alias" &&
	grep -q '^\[errno EDEADLK\]$' "$T/alias" && "$CRIB" seccomp show "$T/alias" >/dev/null 2>&1
ok $? "errnos 95 and 35 are written EOPNOTSUPP and EDEADLK, which crib parses"

# what the converter passes and crib's parser or libseccomp still refuse is left out of the
# build with a warning (seccomp-gen --known), never failing it; a good file is taken
if [ -n "${SECCOMP_GEN:-}" ] && [ -f /usr/share/containers/seccomp.json ]; then
	level="$(dirname "$0")/../../profiles/levels/default"
	python3 -c '
import copy, json, sys
d = json.load(open("/usr/share/containers/seccomp.json"))
def w(name, f):
    a = copy.deepcopy(d)
    f(a)
    json.dump(a, open("%s/%s.json" % (sys.argv[1], name), "w"))
w("args7", lambda a: a["syscalls"].append({"names": ["read"], "action": "SCMP_ACT_ALLOW",
  "args": [{"index": i % 6, "value": i, "op": "SCMP_CMP_EQ"} for i in range(7)]}))
w("badcap", lambda a: a["syscalls"][0].update(includes={"caps": ["CAP_NOPE"]}))
w("many", lambda a: a.update(syscalls=a["syscalls"] * 9))
w("same", lambda a: None)
' "$T"
	for c in args7:"7 conditions" badcap:"an unknown capability" many:"more than 256 rules" same:"podman's own file"; do
		f=${c%%:*}
		"$J2C" "$T/$f.json" /usr/share/containers/containers.conf >"$T/$f" 2>/dev/null
		"$SECCOMP_GEN" x86_64 "$level" default --known podman "/x/$f.json" "$T/$f" >"$T/$f.h" 2>"$T/$f.err"
		rc=$?
		k=$(grep -c '{"podman"' "$T/$f.h")
		if [ "$f" = same ]; then
			[ $rc = 0 ] && [ "$k" = "$(grep -c '^# capabilities =' "$T/$f")" ] && [ ! -s "$T/$f.err" ]
			ok $? "seccomp-gen takes ${c#*:}, a program for each capability set (exit $rc, $k known programs)"
		else
			[ $rc = 0 ] && [ "$k" = 0 ] && grep -q "warning: /x/$f.json .* is left out of crib" "$T/$f.err"
			ok $? "seccomp-gen leaves out a file with ${c#*:} and warns (exit $rc, $k known programs: $(cut -c1-100 "$T/$f.err"))"
		fi
	done
	: >"$T/empty"
	"$SECCOMP_GEN" x86_64 "$level" default --known podman /x/none "$T/empty" >"$T/empty.h" 2>"$T/empty.err"
	[ $? = 0 ] && [ "$(grep -c '{"podman"' "$T/empty.h")" = 0 ] && [ ! -s "$T/empty.err" ]
	ok $? "an empty file (no seccomp.json on the build host) adds nothing, silently"
fi
echo "1..$n"
[ $failed = 0 ]
