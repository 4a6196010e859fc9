#!/bin/sh
# crib's init (pid 1 of the container) holds nothing a workload could take over: read from the
# host (/proc/PID of init) and tried from inside, with every capability the namespace gives.
# Issue 11, hole 1: init was dumpable until the workload had exec'd, and kept the setup's
# capabilities, crib's descriptors, the host's terminal and a death signal it could clear.
. "$(dirname "$0")/../lib/libtest.sh"

# the configurations that give the workload CAP_SYS_PTRACE
allcaps='[security]
level = unconfined'
realroot='[namespaces]
user = no
[security]
level = unconfined'

# init_status SPEC-EXTRA: start `sleep` in a container, print init's status fields, as the
# host sees them: "CapPrm CapEff CapBnd NoNewPrivs Seccomp session==pid tty_nr fds"
init_status() {
	spec "$T/s.ini" <<EOF2
[process]
args = /bin/sleep 30
$1
EOF2
	"$CRIB" run "$T/s.ini" </dev/null >/dev/null 2>"$T/s.err" 9</etc &
	crib=$!
	init=
	for _ in $(seq 50); do
		init=$(children_of $crib)
		[ -n "$init" ] && [ -n "$(children_of "$init")" ] && break
		sleep 0.1
	done
	sleep 0.2
	f=$(awk '/^CapPrm:|^CapEff:|^CapBnd:|^NoNewPrivs:|^Seccomp:/{printf "%s ", $2}' /proc/$init/status)
	# shellcheck disable=SC2046
	set -- $(sed 's/.*) //' /proc/$init/stat)
	# fields after the name: state ppid pgrp session tty_nr
	sess=no
	[ "$4" = "$init" ] && sess=own
	fds=$(ls /proc/$init/fd 2>/dev/null | wc -l)
	[ "$ROLE" = root ] || fds="-"
	echo "$f$sess $5 $fds"
	kill -TERM $crib
	wait $crib 2>/dev/null
}

zero=0000000000000000
want_fds=0
[ "$ROLE" = root ] || want_fds="-"
assert_eq "$(init_status '')" "$zero $zero $zero 1 2 own 0 $want_fds" \
	"default level: init has no capability, no_new_privs, a filter, its own session, no terminal, no fd"
assert_eq "$(init_status "$allcaps")" "$zero $zero $zero 1 2 own 0 $want_fds" \
	"unconfined level: the same (init's own filter is there without the container's)"
if [ "$ROLE" = root ]; then
	assert_eq "$(init_status "$realroot")" "$zero $zero $zero 1 2 own 0 0" \
		"user = no, unconfined: the same"
else
	skip "user = no needs root"
fi

# the race: the workload's first instructions attach to pid 1 (before the fix it won about
# one start in three rootless, and every time with user = no)
race() { # race SPEC-EXTRA N: how many of N starts could attach to init
	spec "$T/r.ini" <<EOF2
[process]
args = /usr/local/bin/probe ptrace-init
$1
EOF2
	won=0
	for _ in $(seq "$2"); do
		r=$(timeout -k 5 20 "$CRIB" run "$T/r.ini" 2>/dev/null </dev/null)
		[ "$r" = ok ] && won=$((won + 1))
	done
	echo "$won"
}
assert_eq "$(race "$allcaps" 40)" 0 "40 starts with every capability: the workload never attaches to crib's init"

# what a tracer of init would have found: with user = no and CAP_SYS_PTRACE (real root with
# ptrace, which can attach to any process it sees) init has no descriptor left to steal
if [ "$ROLE" = root ]; then
	spec "$T/fd.ini" <<EOF2
[process]
args = /bin/sh -c 'ls /proc/1/fd | wc -l; cat /proc/1/fd/9/marker 2>&1 | head -c 40; echo'
$realroot
EOF2
	mkdir "$T/hostdir"
	echo "host-marker-$$" >"$T/hostdir/marker"
	run_crib run "$T/fd.ini" 9<"$T/hostdir"
	assert_eq "$(echo "$out" | head -1)" 0 "user = no: init holds no descriptor (crib got fd 9, a host directory)"
	assert_not_contains "$out" "host-marker-$$" "and /proc/1/fd/9 does not lead to the host's directory"
else
	skip "user = no needs root"
	skip "user = no needs root"
fi

# crib's binary through /proc/1/exe: out of reach in a user namespace, even with SYS_PTRACE
spec "$T/exe.ini" <<'EOF2'
[process]
args = /bin/sh -c 'readlink /proc/1/exe || echo refused'
[security]
capabilities = default +SYS_PTRACE
EOF2
run_crib run "$T/exe.ini"
assert_eq "$out" "refused" "+SYS_PTRACE in a user namespace: /proc/1/exe cannot be read"
if [ "$ROLE" = root ]; then
	# host root with ptrace: init runs from a sealed copy of crib, not the binary on disk
	spec "$T/exe2.ini" <<'EOF2'
[process]
args = /bin/sh -c 'readlink /proc/1/exe; echo x >>/proc/1/exe 2>/dev/null && echo written'
[namespaces]
user = no
[security]
capabilities = default +SYS_PTRACE
EOF2
	run_crib run "$T/exe2.ini"
	assert_eq "$out" "/memfd:crib (deleted)" "user = no with SYS_PTRACE: /proc/1/exe is a sealed copy, and nothing could write it"
	assert_contains "$err" "host root with ptrace(2)" "with a warning about what that configuration is"
else
	skip "user = no needs root"
	skip "user = no needs root"
fi

# crib killed: init dies with it, even after it gave up its ids (which clears the death signal)
spec "$T/k.ini" <<EOF2
[process]
args = /bin/sleep 30
$allcaps
EOF2
"$CRIB" run "$T/k.ini" </dev/null >/dev/null 2>&1 &
crib=$!
for _ in $(seq 50); do
	init=$(children_of $crib)
	[ -n "$init" ] && [ -n "$(children_of "$init")" ] && break
	sleep 0.1
done
kill -KILL $crib
wait $crib 2>/dev/null
if [ -z "$init" ]; then
	ok 1 "crib killed by SIGKILL: its init never showed up (no child of crib $crib in 5 s)"
else
	sleep 0.3
	state=$(cut -d' ' -f3 /proc/"$init"/stat 2>/dev/null)
	case "$state" in "" | Z) ok 0 "crib killed by SIGKILL: its init ($init) is gone too" ;;
	*) ok 1 "crib killed by SIGKILL: its init ($init) is still there, state $state" ;;
	esac
fi

# pid = no: what the workload leaves running is killed when it exits (hole 6)
spec "$T/bg.ini" <<'EOF2'
[process]
args = /bin/sh -c 'sleep 300 & echo $!'
[namespaces]
pid = no
EOF2
run_crib run "$T/bg.ini"
assert_eq "$rc" 0 "pid = no: the workload exits"
if [ -n "$out" ] && [ -d "/proc/$out" ]; then
	ok 1 "pid = no: its background sleep ($out) was left running"
	kill "$out" 2>/dev/null
else
	ok 0 "pid = no: its background sleep is killed with it"
fi

done_testing
