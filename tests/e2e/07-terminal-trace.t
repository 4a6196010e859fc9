#!/bin/sh
# terminal = yes gives the workload a pty of the container's own devpts; --trace shows each
# step with its system calls and times.
. "$(dirname "$0")/../lib/libtest.sh"

spec "$T/tty.ini" <<'EOF2'
[process]
args = /bin/sh -c 'tty; stty size; echo $TERM'
terminal = yes
EOF2
run_crib run "$T/tty.ini"
assert_eq "$rc" 0 "terminal = yes runs without a terminal on stdin"
assert_eq "$(echo "$out" | sed -n 1p | tr -d '\r')" "/dev/pts/0" "the workload's stdin is /dev/pts/0 of its own devpts"
assert_contains "$(echo "$out" | sed -n 3p)" "${TERM:-xterm}" "TERM is set for it (the caller's, or xterm)"

echo "typed line" >"$T/in"
spec "$T/cat.ini" <<'EOF2'
[process]
args = /bin/sh -c 'read x; echo "read: $x"'
terminal = yes
EOF2
out=$("$CRIB" run "$T/cat.ini" <"$T/in" 2>&1)
assert_contains "$out" "read: typed line" "input is relayed to the pty"

spec "$T/t.ini" <<'EOF2'
hostname = traced
[process]
args = /bin/true
EOF2
run_crib run --trace "$T/t.ini"
assert_eq "$rc" 0 "--trace runs"
assert_contains "$err" "crib: trace: parent: clone(CLONE_NEWUSER|CLONE_NEWNS|CLONE_NEWPID" "clone flags"
if [ "$ROLE" = root ]; then
	wantmap="0 $(root_range uid)"
else
	wantmap="0 $(id -u) 1"
fi
assert_contains "$err" "/uid_map\", \"$wantmap\") = ok" "the uid_map line written"
assert_contains "$err" "pivot_root(\".\", \".\") = 0" "pivot_root"
assert_contains "$err" "mount(\"proc\", \"/proc\", \"proc\", MS_NOSUID|MS_NODEV|MS_NOEXEC, NULL) = 0" "each mount with its flags"
assert_contains "$err" "sethostname(\"traced\") = 0" "sethostname"
assert_contains "$err" "execve(\"/bin/true\"" "execve"
steps=$(echo "$err" | grep -c 'crib: trace: step ')
assert_eq "$steps" 25 "all 25 steps are shown"
times=$(echo "$err" | grep -c 'crib: trace:   done in [0-9]* us')
assert_eq "$times" 24 "each step but exec reports its time in microseconds"
done_testing
