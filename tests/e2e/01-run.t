#!/bin/sh
# The basics of `crib run`: the workload runs in the rootfs with the spec's hostname, env,
# cwd and user, crib's init is pid 1, and the exit status comes back.
. "$(dirname "$0")/../lib/libtest.sh"

spec "$T/a.ini" <<'EOF2'
hostname = box1
[process]
args = /bin/sh -c "echo hello from $(hostname)"
env = FOO=bar baz
cwd = /tmp
EOF2
# as root on a machine where root has no subordinate ids yet (a fresh one), the first container
# gives root a range and says so, once: that note is all it may print
fresh=no
[ "$ROLE" = root ] && ! grep -q '^root:' /etc/subuid 2>/dev/null && fresh=yes
run_crib run "$T/a.ini"
assert_eq "$rc" 0 "exit status 0"
assert_eq "$out" "hello from box1" "output of the spec's args, with its hostname"
if [ $fresh = yes ]; then
	assert_eq "$(echo "$err" | sed 's/subordinate ids [0-9]*-[0-9]* .*/subordinate ids N-M .../')" \
		"crib: warning: gave root the subordinate ids N-M ..." "a fresh machine: root gets a range of subordinate ids, said once ($err)"
	assert_eq "$(grep -c '^root:' /etc/subuid):$(grep -c '^root:' /etc/subgid)" "1:1" "recorded in /etc/subuid and /etc/subgid"
	run_crib run "$T/a.ini"
fi
assert_eq "$err" "" "nothing on stderr"

run_crib run "$T/a.ini" -- /bin/sh -c 'echo "$FOO|$PATH|$HOME|$(pwd)"'
assert_eq "$out" "bar baz|/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin|/root|/tmp" \
	"env from the spec, default PATH and HOME, cwd"

run_crib run "$T/a.ini" -- /bin/sh -c 'cat /proc/1/comm; echo $$; grep -E "^(Uid|Gid):" /proc/self/status'
assert_eq "$(echo "$out" | sed -n 1p)" "crib" "pid 1 is crib's init"
assert_eq "$(echo "$out" | sed -n 2p)" "2" "the workload is pid 2"
assert_eq "$(echo "$out" | sed -n 3p | tr -s '\t' ' ')" "Uid: 0 0 0 0" "uid 0 inside"
assert_eq "$(echo "$out" | sed -n 4p | tr -s '\t' ' ')" "Gid: 0 0 0 0" "gid 0 inside"

spec "$T/noinit.ini" <<'EOF2'
[process]
args = /bin/sh -c 'echo $$'
init = no
EOF2
run_crib run "$T/noinit.ini"
assert_eq "$out" "1" "init = no: the workload itself is pid 1"

for code in 0 3 77; do
	run_crib run "$T/a.ini" -- /bin/sh -c "exit $code"
	assert_eq "$rc" "$code" "the workload's exit status $code comes back"
done
run_crib run "$T/a.ini" -- /usr/local/bin/probe die 9
assert_eq "$rc" 137 "killed by SIGKILL: 128+9"
run_crib run "$T/a.ini" -- /usr/local/bin/probe die 15
assert_eq "$rc" 143 "killed by SIGTERM: 128+15"
spec "$T/nopid.ini" <<'EOF2'
[process]
args = /usr/local/bin/probe die 6
init = no
[namespaces]
pid = no
EOF2
run_crib run "$T/nopid.ini"
assert_eq "$rc" 134 "init = no without a pid namespace, killed by SIGABRT: 128+6"
run_crib run "$T/noinit.ini" -- /usr/local/bin/probe die 6
assert_eq "$rc" 99 "init = no: a pid-1 workload cannot kill itself with a signal (the kernel's rule)"

run_crib run "$T/a.ini" -- /bin/nonexistent
assert_eq "$rc" 127 "program missing: 127"
assert_contains "$err" "crib: '/bin/nonexistent' does not exist in the container" "says it is missing"
run_crib run "$T/a.ini" -- nosuchprogram
assert_eq "$rc" 127 "program not on PATH: 127"
assert_contains "$err" "'nosuchprogram' not found in the container" "says it is not found"
assert_contains "$err" "crib: hint: crib looked in PATH=" "and where it looked"
run_crib run "$T/a.ini" -- /etc/passwd
assert_eq "$rc" 126 "not executable: 126"
assert_contains "$err" "cannot execute '/etc/passwd': Permission denied" "says why"

spec "$T/umask.ini" <<'EOF2'
[process]
args = /bin/sh -c umask
umask = 027
EOF2
run_crib run "$T/umask.ini"
assert_eq "$out" "0027" "umask from the spec"

spec "$T/args.ini" <<'EOF2'
[process]
args = /bin/sh -c 'printf "[%s]" "$@"' sh "a b" 'c"d' e\ f
EOF2
run_crib run "$T/args.ini"
assert_eq "$out" '[a b][c"d][e f]' "args are split with shell-like quoting, without expansion"

run_crib spec
printf '%s\n' "$out" >"$T/example.ini"
sed -i "s|^rootfs = rootfs .*|rootfs = $ROOTFS|" "$T/example.ini"
run_crib run "$T/example.ini"
assert_eq "$rc" 0 "the example from 'crib spec' runs as is"
assert_contains "$out" "hello from demo: uid 0, pid 2, cwd /" "and prints its greeting"
done_testing
