#!/bin/sh
# Bad input gets a clear error, exit status 125, and changes nothing on the host. Failures of
# the workload's program are explained (126/127).
. "$(dirname "$0")/../lib/libtest.sh"

before_mounts=$(host_mounts)

# every invalid spec of tests/data/invalid, run for real
for f in "$TESTDATA"/invalid/*.ini; do
	cp "$f" "$T/"
	name=$(basename "$f")
	want=$(sed -n '1s/^# expect: //p' "$f")
	find "$T" ! -name '.*' >"$T/.before"
	run_crib run "$T/$name"
	assert_eq "$rc:$(echo "$err" | head -n 1)" "125:crib: $T/$name$want" "$name: 125 and its message"
	find "$T" ! -name '.*' >"$T/.after"
	cmp -s "$T/.before" "$T/.after"
	ok $? "$name: nothing created"
done

run_crib run "$T/none.ini"
assert_eq "$rc" 125 "a spec that does not exist: 125"
assert_contains "$err" "crib: cannot open spec '$T/none.ini': No such file or directory" "says so"
assert_contains "$err" "crib: hint: 'crib spec > $T/none.ini' writes an example" "and how to start one"

printf '[container]\nrootfs = missing-rootfs\n[process]\nargs = /bin/true\n' >"$T/nr.ini"
run_crib run "$T/nr.ini"
assert_eq "$rc" 125 "a missing rootfs: 125"
assert_eq "$(echo "$err" | head -n 1)" "crib: $T/nr.ini:2: rootfs '$T/missing-rootfs' does not exist: No such file or directory" "FILE:LINE and the resolved path"
assert_contains "$err" "crib: hint: build a busybox rootfs there with: rootfs-tools/mkrootfs" "with a remedy"
[ ! -e "$T/missing-rootfs" ]
ok $? "and it is not created"
# a spec in the working directory: the paths as written, not joined to "."
printf '[container]\nrootfs = ./missing-rootfs\n[process]\nargs = /bin/true\n' >"$T/nr2.ini"
(cd "$T" && run_crib run nr2.ini && echo "$err" | head -n 1 >"$T/.first")
assert_eq "$(cat "$T/.first")" "crib: nr2.ini:2: rootfs './missing-rootfs' does not exist: No such file or directory" \
	"a spec in the working directory: the rootfs path as written"

: >"$T/afile"
printf '[container]\nrootfs = afile\n[process]\nargs = /bin/true\n' >"$T/nd.ini"
run_crib run "$T/nd.ini"
assert_eq "$rc:$err" "125:crib: $T/nd.ini:2: rootfs '$T/afile' is not a directory" "a rootfs that is a file"

spec "$T/b.ini" <<EOF2
[process]
args = /bin/true
[mounts]
bind = $T/nothing-here /data
EOF2
run_crib run "$T/b.ini"
assert_eq "$rc:$err" "125:crib: $T/b.ini:6: bind source '$T/nothing-here' does not exist" "a missing bind source"

spec "$T/cwd.ini" <<'EOF2'
[process]
args = /bin/true
cwd = /no/such/dir
EOF2
run_crib run "$T/cwd.ini"
assert_eq "$rc:$err" "125:crib: working directory '/no/such/dir' does not exist in the container: No such file or directory" "a missing working directory"

# programs that cannot run: another architecture, a missing loader, no format at all
mkdir -p "$T/rootfs"
for d in bin sbin usr etc dev proc sys tmp; do cp -a "$ROOTFS/$d" "$T/rootfs/"; done
# a 32-bit ARM ELF header (or x86-64 on ARM machines): the kernel answers ENOEXEC
case "$(uname -m)" in
x86_64 | i?86) machine='\050\000' name="32-bit ARM" ;;
*) machine='\076\000' name="x86-64" ;;
esac
printf "\177ELF\001\001\001\000\000\000\000\000\000\000\000\000\002\000$machine\001\000\000\000" >"$T/rootfs/bin/foreign"
head -c 100 /dev/zero >>"$T/rootfs/bin/foreign"
chmod 755 "$T/rootfs/bin/foreign"
printf '#!/bin/bash\necho hi\n' >"$T/rootfs/bin/needs-bash"
chmod 755 "$T/rootfs/bin/needs-bash"
printf 'just text\n' >"$T/rootfs/bin/text"
chmod 755 "$T/rootfs/bin/text"
dyn=/bin/true
cp "$dyn" "$T/rootfs/bin/dyntrue"
printf '[container]\nrootfs = rootfs\n[process]\nargs = /bin/true\n' >"$T/x.ini"

run_crib run "$T/x.ini" -- /bin/foreign
assert_eq "$rc" 126 "a binary for another architecture: 126"
assert_contains "$err" "cannot execute '/bin/foreign': it is a $name binary, and this machine is $(uname -m): Exec format error" "names both architectures"
assert_contains "$err" "crib: hint: use a rootfs built for $(uname -m)" "with a remedy"
run_crib run "$T/x.ini" -- needs-bash
assert_eq "$rc" 126 "a script whose interpreter is missing: 126"
assert_contains "$err" "cannot execute '/bin/needs-bash': its interpreter '/bin/bash' is missing from the container" "names the interpreter"
run_crib run "$T/x.ini" -- /bin/text
assert_eq "$rc" 126 "neither ELF nor script: 126"
assert_contains "$err" "it is neither a program for this machine nor a script" "says so"
if ldd "$dyn" >/dev/null 2>&1; then
	interp=$(ldd "$dyn" | awk '/ld-linux|ld64|ld\.so/ {print $1; exit}')
	run_crib run "$T/x.ini" -- /bin/dyntrue
	assert_eq "$rc" 126 "a dynamic binary without its loader: 126"
	assert_contains "$err" "its program interpreter '$interp' is missing from the container" "names the loader"
else
	skips 2 "$dyn is not dynamically linked"
fi

# user namespaces switched off: a user namespace of our own whose limit we set to 0
spec "$T/t.ini" <<'EOF2'
[process]
args = /bin/true
EOF2
if userns_works; then
	unshare -Ur sh -c 'echo 0 >/proc/sys/user/max_user_namespaces && exec "$0" run "$1"' "$CRIB" "$T/t.ini" >"$T/o" 2>&1 </dev/null
	rc=$?
	out=$(strip_aa <"$T/o")
	assert_eq "$rc" 125 "user.max_user_namespaces = 0: 125"
	assert_eq "$out" "crib: cannot create user namespace: No space left on device
crib: hint: user namespaces are disabled (user.max_user_namespaces = 0); enable them with: sudo sysctl user.max_user_namespaces=15000" \
		"names the sysctl and the fix"
	# network namespaces switched off: the clone fails with ENOSPC, and the parent names the
	# namespace whose limit is 0
	unshare -Ur sh -c 'echo 0 >/proc/sys/user/max_net_namespaces && exec "$0" run "$1"' "$CRIB" "$T/t.ini" >"$T/o" 2>&1 </dev/null
	rc=$?
	out=$(strip_aa <"$T/o")
	assert_eq "$rc" 125 "user.max_net_namespaces = 0: 125"
	assert_eq "$out" "crib: cannot create net namespace: No space left on device
crib: hint: net namespaces are switched off here (user.max_net_namespaces = 0): enable them with: sudo sysctl user.max_net_namespaces=15000, or set net = no in [namespaces]" \
		"names the sysctl and the fixes"
	{ cat "$T/t.ini"; printf '[namespaces]\nnet = no\n'; } >"$T/nonet.ini"
	unshare -Ur sh -c 'echo 0 >/proc/sys/user/max_net_namespaces && exec "$0" run "$1"' "$CRIB" "$T/nonet.ini" >/dev/null 2>&1 </dev/null
	assert_eq "$?" 0 "and net = no runs there"
else
	skips 5 "unshare -Ur does not work here"
fi

run_crib bogus
# (its list of commands: 32-cli.t)
assert_eq "$rc:$(echo "$err" | head -n 1):$(echo "$err" | tail -n 1)" "125:crib: unknown command 'bogus':crib: hint: run 'crib help' for the usage" \
	"an unknown command: 125"
run_crib run --frobnicate "$T/x.ini"
assert_eq "$rc" 125 "an unknown option: 125"
run_crib run
assert_eq "$rc" 125 "no spec: 125"
run_crib help
assert_eq "$rc" 0 "crib help"
assert_contains "$out" "usage: crib run" "prints the usage"
# every command crib answers to is in it (the help once left out four of eight)
missing=""
for verb in run spec levels check bench seccomp version help; do
	case "$out" in *"crib $verb"*) ;; *) missing="$missing $verb" ;; esac
done
assert_eq "$missing" "" "crib help names every command"

assert_eq "$(host_mounts)" "$before_mounts" "the host's mount table is unchanged"
assert_eq "$(crib_procs)" "" "no process of crib or its containers is left"
done_testing
