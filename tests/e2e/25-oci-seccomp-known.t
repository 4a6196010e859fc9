#!/bin/sh
# An OCI config carrying Docker's default seccomp profile as an engine resolves it (crib's
# profiles/seccomp/default, which is Docker's rule for rule, for Docker's 14 capabilities on this
# architecture: tests/lib/seccomp-oci.py writes it) gets the program crib compiled at build
# time: the plan in the state directory says "known profile compiled at build time", and the
# workload is under it (Seccomp: 2 from the host, keyctl fails with EPERM, mkdir works). The
# same profile with one rule changed (mkdir and mkdirat taken out of the allow rule) is compiled
# when the container is created, and gets its own filter: mkdir fails with EPERM there. A config
# crafted around the match (a duplicate key whose last value is the known profile's default,
# unknown fields) never gets a filter weaker than its rules: keyctl still fails. As root and as
# the unprivileged test user.
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/oci.sh"

if ! grep -q '^Seccomp:' /proc/self/status; then
	echo "1..0 # SKIP this kernel has no seccomp"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 writes the test's profile (rootfs-tools/install-deps check)"
	exit 0
fi
arch=$(uname -m)
case "$arch" in arm*) arch=arm ;; esac
DOCKER="CHOWN,DAC_OVERRIDE,FSETID,FOWNER,MKNOD,NET_RAW,SETGID,SETUID,SETFCAP,SETPCAP,NET_BIND_SERVICE,SYS_CHROOT,KILL,AUDIT_WRITE"
PROFILE="$(dirname "$0")/../profiles/seccomp/default"
profile() { python3 "$(dirname "$0")/../lib/seccomp-oci.py" "$PROFILE" "$arch" "$DOCKER" "$@"; }

# config SECCOMP_JSON: the bundle's config.json, a workload that reports and then waits
config() {
	oci_ns
	maps=${idmaps:+$idmaps,}
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":["/bin/sh","-c","probe syscall keyctl; mkdir /tmp/d 2>&1; echo mkdir=\$?; echo done; exec sleep 100"],
   "cwd":"/","env":["PATH=/bin:/usr/bin:/usr/local/bin"],"user":{"uid":0,"gid":0},
   "capabilities":{"bounding":["CAP_KILL"],"effective":["CAP_KILL"],"permitted":["CAP_KILL"]},
   "noNewPrivileges":true},
 "mounts":[{"destination":"/proc","type":"proc","source":"proc"},
   {"destination":"/tmp","type":"tmpfs","source":"tmpfs","options":["nosuid","nodev"]}],
 "linux":{"namespaces":[$ns],$maps"seccomp":$1}}
EOF
}

# run_one ID: create (the plan's seccomp line in $how), start, wait for "done"; $out is what the
# workload printed, $filter its Seccomp field read from the host
run_one() {
	R create --bundle "$B" "$1" >"$T/$1.out" 2>"$T/$1.err" </dev/null
	rc=$?
	how=$(grep -a -o 'known profile compiled at build time\|compiled at run time' "$S/$1/plan" 2>/dev/null | head -1)
	pid=$(pid_in_state "$1")
	R start "$1" >/dev/null 2>&1
	i=0
	while ! grep -q '^done$' "$T/$1.out" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	out=$(cat "$T/$1.out")
	filter=$(awk '/^Seccomp:/{print $2}' "/proc/$pid/status" 2>/dev/null)
	R kill "$1" KILL >/dev/null 2>&1
	wait_status "$1" stopped
	R delete -f "$1" >/dev/null 2>&1
}

# --- the known profile: the program from the build
known=$(profile)
config "$known"
run_one k1
assert_eq "$rc:$(cat "$T/k1.err")" "0:" "create with Docker's default as an engine resolves it exits 0"
assert_eq "$how" "known profile compiled at build time" \
	"the plan says the known profile's program compiled at build time was taken" ||
	grep -a -o 'compiled at run time[^)]*)[^)]*)' "$S/k1/plan" 2>/dev/null | sed 's/^/#   /'
assert_eq "$filter" 2 "from the host, the workload's /proc/PID/status says Seccomp: 2"
assert_contains "$out" "EPERM" "keyctl fails with EPERM (the profile does not allow it)" ||
	sed 's/^/#   /' "$T/k1.out"
assert_contains "$out" "mkdir=0" "mkdir works (the profile allows it)"

# --- one rule changed: compiled, with its own filter
config "$(profile mkdir mkdirat)"
run_one c1
assert_eq "$rc:$(cat "$T/c1.err")" "0:" "create with mkdir and mkdirat taken out of the allow rule exits 0"
assert_eq "$how" "compiled at run time" "the plan says that profile was compiled at run time, not matched"
assert_eq "$filter" 2 "from the host, Seccomp: 2"
assert_contains "$out" "Operation not permitted" \
	"mkdir fails with EPERM: the changed rule is in the filter the workload got" ||
	sed 's/^/#   /' "$T/c1.out"
assert_contains "$out" "mkdir=1" "and mkdir exits 1"
assert_contains "$out" "EPERM" "keyctl still fails with EPERM"

# --- crafted around the match: a duplicate defaultAction (first allow, last the known one's),
# unknown fields beside the rules. Whichever path, never weaker than the rules crib read.
crafted=$(printf '%s' "$known" | sed 's/^{/{"defaultAction": "SCMP_ACT_ALLOW", "comment": "x", "syscalls": [], /')
config "$crafted"
run_one a1
assert_eq "$rc" 0 "a config with a duplicate defaultAction and syscalls key and an unknown field: created"
assert_eq "$filter" 2 "under a filter (Seccomp: 2)"
assert_contains "$out" "EPERM" "keyctl fails with EPERM: the last value of each key, the known profile, holds" ||
	sed 's/^/#   /' "$T/a1.out"
echo "# path taken: ${how:-none}"
# and the other way round: the known profile first, an allow-all default last
crafted=$(printf '%s' "$known" | sed 's/}$/, "defaultAction": "SCMP_ACT_ALLOW"}/')
config "$crafted"
run_one a2
assert_eq "$how" "compiled at run time" \
	"the known rules with a last defaultAction of allow: not matched (another default), compiled"
assert_contains "$out" "mkdir=0" "and the deny-list it is lets mkdir through, as its rules say"

done_testing
