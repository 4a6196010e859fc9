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
assert_contains "$err" "crib: trace:   clone(CLONE_NEWUSER|CLONE_NEWNS|CLONE_NEWPID" "clone flags"
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
# the steps as --trace numbers them: "NUMBER TOTAL PID NAME", one line each
echo "$err" | sed -n 's/^crib: trace: step *\([0-9]*\)\/\([0-9]*\)  \(.*\)  (pid \([0-9]*\))$/\1 \2 \4 \3/p' >"$T/steps"
total=$(sed -n '1s/^[0-9]* \([0-9]*\) .*/\1/p' "$T/steps")
assert_eq "$(cut -d' ' -f2 "$T/steps" | sort -u)" "$total" "every step line names the same total, $total"
assert_eq "$(cut -d' ' -f1 "$T/steps" | tr '\n' ' ')" "$(seq "$total" | tr '\n' ' ')" "all $total steps are shown, numbered 1 to $total in order"
# which process runs which: the setup table and the start of crib's init in pid 1, the
# workload's table in the workload's process (pid 2: the first the pid namespace has after 1)
split=$(grep -n " start crib's init as pid 1$" "$T/steps" | cut -d: -f1)
assert_eq "$(head -n "$split" "$T/steps" | cut -d' ' -f3 | sort -u)" "1" "the $split steps up to starting crib's init run in the setup process, pid 1"
assert_eq "$(tail -n +$((split + 1)) "$T/steps" | cut -d' ' -f3 | sort -u)" "2" "the $((total - split)) after it run in the workload's process, pid 2"
assert_eq "$(sed -n "$((split + 1))s/^[0-9]* [0-9]* [0-9]* //p" "$T/steps")" "lock the mounts in a user namespace of the workload's own" "the workload's table starts by locking the mounts"
# (the lines of a step run to the next step's; the parent's steps print neither)
blocks() { echo "$err" | awk '/^crib: trace: (parent: )?step /{if (s) print s "|" d; s=$0; d="none"; next} /^crib: trace:   done in [0-9]* us$/{d="done"} /^crib: trace:   skipped: ./{d=(d == "none" ? "skipped" : "both")} END{print s "|" d}'; }
times=$(blocks | grep -c '^crib: trace: step .*|\(done\|skipped\)$')
assert_eq "$times" $((total - 1)) "each step but exec reports its time in microseconds, or why it was skipped (never both)"
[ "$times" = $((total - 1)) ] || blocks | grep -v '|\(done\|skipped\)$' | sed 's/^/#   /'
# the parent's steps, numbered the same way; the container's steps run while the parent
# follows it
echo "$err" | sed -n 's/^crib: trace: parent: step *\([0-9]*\)\/\([0-9]*\)  \(.*\)$/\1 \2 \3/p' >"$T/parent"
ptotal=$(sed -n '1s/^[0-9]* \([0-9]*\) .*/\1/p' "$T/parent")
assert_eq "$(cut -d' ' -f1 "$T/parent" | tr '\n' ' ')" "$(seq "$ptotal" | tr '\n' ' ')" "all $ptotal steps of the parent are shown, numbered 1 to $ptotal in order"
assert_eq "$(echo "$err" | grep -e '^crib: trace: parent: step' -e '^crib: trace: step' | grep -B1 '^crib: trace: step  1/' | sed 's/^crib: trace: parent: step *[0-9]*\/[0-9]*  //;1q')" "follow the container" "the container's steps run while the parent follows it"
# issue 32: a step that did nothing says why, never "done"; the word after each step's line
after() { blocks | grep -F "$1" | sed 's/.*|//'; }
first() { echo "$err" | grep -A1 -F "$1" | sed -n '2s/^crib: trace:   //p'; }
assert_eq "$(first "remount the root read-only")" "skipped: readonly_rootfs = no: the rootfs stays writable" "readonly_rootfs = no: 'remount the root read-only' says skipped, and why"
assert_eq "$(first "lock the mounts in a user namespace")" "skipped: the workload has no SYS_ADMIN: it cannot undo the setup's mounts" "the default level: 'lock the mounts' says skipped, and why"
assert_eq "$(first "keep the host's loopback out of reach")" "skipped: no network helper: nothing connects the container to the host's loopback" "no network helper: 'keep the host's loopback out of reach' says skipped, and why"
assert_eq "$(first "parent: step  6/")" "skipped: no publish in [network]" "the parent's steps too: no ports to check"
spec "$T/ro.ini" <<'EOF2'
readonly_rootfs = yes
[process]
args = /bin/true
[security]
capabilities = default +SYS_ADMIN
EOF2
# --trace=explain: under each step, parent's and container's, why it stands there and where its
# code is (file:function; tools/check-steps checks each names a file that defines it)
run_crib run --trace=explain "$T/t.ini"
assert_eq "$rc" 0 "--trace=explain runs"
nsteps=$(echo "$err" | grep -c -e '^crib: trace: parent: step ' -e '^crib: trace: step ')
nwhy=$(echo "$err" | grep -A1 -e '^crib: trace: parent: step ' -e '^crib: trace: step ' | grep -c '^crib: trace:   why: .\{12,\}  \[runtime/[a-z]*/[a-z_]*\.c:[a-z_0-9]*\]$')
assert_eq "$nwhy" "$nsteps" "each of the $nsteps steps is followed by its why and its file:function"
assert_contains "$err" "[runtime/steps/pivot.c:step_pivot_root]" "pivot_root's row names runtime/steps/pivot.c"
run_crib run --trace "$T/t.ini"
assert_eq "$(echo "$err" | grep -c '^crib: trace:   why: ')" 0 "plain --trace prints no why"

run_crib run --trace "$T/ro.ini"
assert_eq "$(after "remount the root read-only")" "done" "readonly_rootfs = yes: the step runs and says done"
assert_eq "$(after "lock the mounts in a user namespace")" "done" "+SYS_ADMIN: the mounts are locked, done"
# init = no: the setup process runs the workload's table itself, and starts no init
spec "$T/noinit.ini" <<'EOF2'
[process]
args = /bin/true
init = no
EOF2
run_crib run --trace "$T/noinit.ini"
assert_eq "$rc" 0 "--trace with init = no runs"
assert_eq "$(echo "$err" | sed -n 's/^crib: trace: step *[0-9]*\/\([0-9]*\)  .*  (pid \([0-9]*\))$/\1 \2/p' | sort -u)" "$((total - 1)) 1" \
	"init = no: $((total - 1)) steps, all in pid 1 (no crib's init to start)"
done_testing
