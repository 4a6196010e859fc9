#!/bin/sh
# crib exec's mechanism (runtime/launch/enter.c), through its test driver ($ENTER, which plans
# the spec afresh and takes any pid and start time, so it can aim at what the command line
# cannot; `crib exec` itself is tested in 20-detach.t): a process started in a running container has the workload's namespaces
# (its own nested ones with +SYS_ADMIN), ids, capabilities, no_new_privs and seccomp filter,
# runs with the container's PATH, the request's environment, cwd and ids, gives back its exit
# status as `crib run` does, and refuses a container that is gone or a pid that is not it.
. "$(dirname "$0")/../lib/libtest.sh"

if [ -z "${ENTER:-}" ] || [ ! -x "$ENTER" ]; then
	echo "1..0 # SKIP no tests/tools/enter (make build/tests/tools/enter)"
	exit 0
fi

# start SPEC: run the spec's container with a sleep in the background; sets $crib (crib's pid),
# $first (the container's first process, the clone child) and $work (the workload's process,
# as the host sees it: init's child, or $first with init = no)
start() {
	"$CRIB" run "$1" -- /bin/sleep 60 >/dev/null 2>"$T/.run-stderr" &
	crib=$!
	first=
	work=
	i=0
	while [ $i -lt 100 ]; do
		first=$(children_of "$crib" 2>/dev/null | head -n 1)
		if [ -n "$first" ]; then
			if [ "${2:-init}" = noinit ]; then
				# the workload is running once it is sleep, not crib any more
				[ "$(cat "/proc/$first/comm" 2>/dev/null)" = sleep ] && work=$first
			else
				work=$(children_of "$first" 2>/dev/null | head -n 1)
				[ -n "$work" ] && [ "$(cat "/proc/$work/comm" 2>/dev/null)" != sleep ] && work=
			fi
		fi
		[ -n "$work" ] && break
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$work" ]
}

# SIGKILL: with init = no the workload is pid 1, which ignores SIGTERM; the kernel kills the
# container's processes with crib (their parent-death signal)
stop() {
	kill -KILL "$crib" 2>/dev/null
	wait "$crib" 2>/dev/null
}

# enter SPEC PID [OPTIONS] -- CMD...: stdout in $out, stderr in $err, status in $rc
enter() {
	_spec=$1
	_pid=$2
	shift 2
	out=$("$ENTER" "$_spec" "$_pid" "$@" 2>"$T/.stderr" </dev/null)
	rc=$?
	err=$(strip_aa <"$T/.stderr")
}

fields='^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp|Seccomp_filters):'
# what the exec'd process and the workload must share, read inside the container (so ids are
# the container's): the status lines above, Uid, Gid and Groups, and every namespace link
inside='for f in self WORK; do grep -E "^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp|Seccomp_filters|Uid|Gid|Groups):" /proc/$f/status | tr -s "\t " " "; done'
ns_links='for n in user mnt pid ipc uts net cgroup; do readlink /proc/self/ns/$n; done'

# compare NAME SPEC [noinit]: exec in the container of SPEC, as the workload runs
compare() {
	_name=$1
	if ! start "$2" "${3:-init}"; then
		ok 1 "$_name: the container started"
		sed 's/^/#   /' "$T/.run-stderr"
		skips 4 "the container of $_name did not start"
		stop
		return
	fi
	_inner=$(awk '/^NSpid:/{print $NF}' "/proc/$work/status")
	enter "$2" "$first" -- /bin/sh -c "$(echo "$inside" | sed "s/WORK/$_inner/")"
	_self=$(echo "$out" | head -n 11)
	_work=$(echo "$out" | tail -n +12)
	assert_eq "$rc:$(echo "$out" | wc -l)" "0:22" "$_name: the exec'd process reads its status and the workload's"
	assert_eq "$_self" "$_work" "$_name: the same ids, groups, capabilities (every set), no_new_privs and seccomp filters as the workload"
	assert_contains "$_self" "Seccomp: 2" "$_name: under a seccomp filter"
	enter "$2" "$first" -- /bin/sh -c "$ns_links"
	_want=$(for n in user mnt pid ipc uts net cgroup; do readlink "/proc/$work/ns/$n"; done)
	assert_eq "$rc:$out" "0:$_want" "$_name: every namespace is the workload's (read from the host)"
	_host=$(grep -E "$fields" "/proc/$work/status")
	enter "$2" "$first" -- /bin/cat /proc/self/status
	assert_eq "$(echo "$out" | grep -E "$fields")" "$_host" "$_name: the same capabilities and filters as the host sees the workload's"
	stop
}

spec "$T/a.ini" </dev/null
compare "default" "$T/a.ini"

spec "$T/admin.ini" <<'EOF2'
[security]
capabilities = default +SYS_ADMIN
EOF2
compare "+SYS_ADMIN (the workload's nested namespaces)" "$T/admin.ini"

# no pid namespace: the workload is init's child that started first
spec "$T/nopid.ini" <<'EOF2'
[namespaces]
pid = no
EOF2
compare "pid = no" "$T/nopid.ini"

# root's container without a user namespace: the others joined, as root
if [ "$ROLE" = root ]; then
	spec "$T/nouser.ini" <<'EOF2'
[namespaces]
user = no
EOF2
	compare "user = no" "$T/nouser.ini"
	# compare's crib was killed with SIGKILL: the cgroup of its container (for the device
	# program) waits for the next crib run, which removes it
	# (its processes die of their parent-death signal a moment later: a busy host may not have
	# run them yet, and a cgroup with processes cannot be removed by anyone)
	cg2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	i=0
	while grep -qs 'populated 1' "$cg2"/crib/run-*/cgroup.events && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	"$CRIB" run "$T/nouser.ini" -- /bin/true >/dev/null 2>&1
	assert_eq "$(ls "$cg2/crib" 2>/dev/null | grep -c '^run-')" 0 "the next crib run removes the cgroup its killed predecessor left"
else
	skips 6 "user = no is root's only"
fi

# before Linux 5.3 (no pidfd_open): the namespaces joined one at a time through /proc/PID/ns,
# the same ones, nested included, and the trace says so
if [ -z "${OLD_KERNEL:-}" ]; then
	skips 2 "no old-kernel helper here (OLD_KERNEL is unset)"
elif start "$T/admin.ini"; then
	out=$("$OLD_KERNEL" "$ENTER" --trace "$T/admin.ini" "$first" -- /bin/sh -c "$ns_links" 2>"$T/.stderr" </dev/null)
	rc=$?
	want=$(for n in user mnt pid ipc uts net cgroup; do readlink "/proc/$work/ns/$n"; done)
	assert_eq "$rc:$out" "0:$want" "without pidfd_open: every namespace of the workload, nested ones included"
	assert_contains "$(cat "$T/.stderr")" "no pidfd_open(2) (before Linux 5.3): joining /proc/$work/ns/* one at a time" "and the trace says how"
	stop
else
	ok 1 "the container of admin.ini started"
	skip "the container did not start"
	stop
fi

spec "$T/noinit.ini" <<'EOF2'
[process]
init = no
EOF2
compare "init = no" "$T/noinit.ini" noinit

# a container user other than root: the capabilities come through the ambient set (plan.c)
if [ "$ROLE" = root ]; then
	map=
else
	map='[idmap]
uid = auto
gid = auto'
fi
if has_subids; then
	spec "$T/u.ini" <<EOF2
[process]
user = 1000:1000
[security]
capabilities = default +NET_ADMIN
$map
EOF2
	compare "container user 1000 with +NET_ADMIN" "$T/u.ini"
	# -u: another user of the container, without the plan's groups; root's capabilities
	# (the plan's) are lost by the change to a non-root id, as with docker exec -u
	spec "$T/r.ini" <<EOF2
$map
EOF2
	if start "$T/r.ini"; then
		enter "$T/r.ini" "$first" -u 1000:1001 -- /bin/sh -c 'id -u; id -g; id -G; grep CapEff /proc/self/status'
		assert_eq "$rc:$(echo $out)" "0:1000 1001 1001 CapEff: 0000000000000000" "-u 1000:1001: those ids, no other group, no capability"
	else
		ok 1 "the container of r.ini started"
	fi
	stop
else
	skips 6 "$(id -un) has no /etc/subuid range to map uid 1000"
fi

# No window in which a process entering the container is more privileged than the workload,
# as the container sees it. Two moments, each held with CRIB_TEST_STOP_AT (tests/tools/enter is
# built with the test hooks; the process waits there until crib exec is gone, then is killed
# with it): the joiner while it holds every
# capability of the container's user namespace (before it limits the bounding set) is in no
# pid namespace of the container, so nothing there can name it; the entered process before its
# first step (the filter) already has the workload's ids, capabilities and no_new_privs, and is
# not dumpable, so container root with CAP_SYS_PTRACE reads nothing of it. The controls: the
# workload is readable, crib's init is not.
spec "$T/ptrace.ini" <<'EOF2'
[security]
capabilities = default +SYS_PTRACE
EOF2
# (the pid goes in the environment: a file in the rootfs may be another role's, and not ours to
# overwrite; "exists" shows the check looked at a live process)
peek='p=$PEEK; [ -r /proc/$p/status ] && echo exists; cat /proc/$p/environ >/dev/null 2>&1 && echo environ; ls /proc/$p/fd >/dev/null 2>&1 && echo fd; (: </proc/$p/fd/1) 2>/dev/null && echo fd1; readlink /proc/$p/root >/dev/null 2>&1 && echo root; true'
caps='^(Uid|Gid|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):'
# held STEP: start an exec stopped before STEP; $e is the driver, $held its child that stopped
# there, if any (the joiner, or the entered process: both are the driver's children)
held() {
	CRIB_TEST_STOP_AT="$1" "$ENTER" "$T/ptrace.ini" "$first" -- /bin/true </dev/null >/dev/null 2>&1 &
	e=$!
	held=
	# (30 s: an emulated Pi Zero beside another guest takes seconds to get there)
	_end=$(($(date +%s) + 30))
	while [ -z "$held" ] && [ "$(date +%s)" -lt $_end ]; do
		sleep 0.1
		for c in $(children_of "$e" 2>/dev/null); do
			case "$1" in # the entered process is in the container's pid namespace
			"load the seccomp filter, with no_new_privs") [ "$(awk '/^NSpid:/{print NF}' "/proc/$c/status" 2>/dev/null)" = 3 ] && held=$c ;;
			*) held=$c ;;
			esac
		done
	done
}
release() {
	kill -KILL "$e"
	wait "$e" 2>/dev/null
	_i=0
	while [ -e "/proc/$held" ] && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	assert_eq "$([ -e "/proc/$held" ] || echo gone)" gone "$1: killed with crib exec before it ran anything"
}
if start "$T/ptrace.ini"; then
	held "limit the capability bounding set"
	if [ -n "$held" ]; then
		assert_eq "$(grep -c '^CapEff:.*ffffff' "/proc/$held/status"):$(awk '/^NSpid:/{print NF - 1}' "/proc/$held/status")" "1:1" \
			"the joiner, holding every capability of the container's user namespace, is in the host's pid namespace only"
		enter "$T/ptrace.ini" "$first" -- /bin/sh -c 'for s in /proc/[0-9]*/status; do grep -q "^CapEff:.*ffffff" $s && echo "$s"; done; true'
		assert_eq "$rc:$out" "0:" "inside, no process of the container holds every capability meanwhile"
		release "the joiner"
	else
		# the step's name is enter.c's, as --trace prints it: a renamed step stops nothing
		ok 1 "crib exec stopped at the step: no joiner found below $e after 30 s"
		skips 2 "no joiner to look at"
		kill -KILL "$e"
		wait "$e" 2>/dev/null
	fi
	held "load the seccomp filter, with no_new_privs"
	if [ -n "$held" ]; then
		assert_eq "$(grep -E "$caps" "/proc/$held/status")" "$(grep -E "$caps" "/proc/$work/status")" \
			"the entered process, before its first step: the workload's ids, capabilities and no_new_privs already"
		inner=$(awk '/^NSpid:/{print $NF}' "/proc/$held/status")
		enter "$T/ptrace.ini" "$first" -e PEEK="$inner" -- /bin/sh -c "$peek"
		assert_eq "$rc:$(echo $out)" "0:exists" "and its environ, fds and root are closed to container root with CAP_SYS_PTRACE (not dumpable)"
		release "the entered process"
	else
		# the step's name is enter.c's, as --trace prints it: a renamed step stops nothing
		ok 1 "crib exec stopped at the step: no entered process found below $e after 30 s"
		skips 2 "no entered process to look at"
		kill -KILL "$e"
		wait "$e" 2>/dev/null
	fi
	inner=$(awk '/^NSpid:/{print $NF}' "/proc/$work/status")
	enter "$T/ptrace.ini" "$first" -e PEEK="$inner" -- /bin/sh -c "$peek"
	assert_eq "$rc:$(echo $out)" "0:exists environ fd fd1 root" "the control: the workload's environ, fds and root are open to container root with CAP_SYS_PTRACE"
	enter "$T/ptrace.ini" "$first" -e PEEK=1 -- /bin/sh -c "$peek"
	assert_eq "$rc:$(echo $out)" "0:exists" "crib's init (pid 1, not dumpable, crib's memory): closed to container root with CAP_SYS_PTRACE as well"
else
	ok 1 "the container of ptrace.ini started"
	skips 7 "the container did not start"
fi
stop

# the request: program on the container's PATH, environment, cwd, exit status, errors
if start "$T/a.ini"; then
	enter "$T/a.ini" "$first" -- sh -c 'exit 7'
	assert_eq "$rc" 7 "the program's exit status comes back"
	enter "$T/a.ini" "$first" -- /usr/local/bin/probe die 15
	assert_eq "$rc" 143 "killed by SIGTERM: 128+15"
	enter "$T/a.ini" "$first" -e FOO=bar -e PATH=/bin -w /tmp -- sh -c 'echo $FOO $PATH; pwd'
	assert_eq "$rc:$(echo $out)" "0:bar /bin /tmp" "-e adds and replaces variables, -w sets the cwd"
	enter "$T/a.ini" "$first" -- /bin/sh -c 'echo $$; cat /proc/1/comm'
	assert_eq "$rc:$(echo $out | cut -d' ' -f2)" "0:crib" "in the container's pid namespace, below crib's init"
	enter "$T/a.ini" "$first" -- /nonexistent
	assert_eq "$rc" 127 "a program that does not exist: 127"
	assert_contains "$err" "'/nonexistent' does not exist in the container" "and says so"
	enter "$T/a.ini" "$first" -- nope
	assert_eq "$rc" 127 "a program not on PATH: 127"
	enter "$T/a.ini" "$first" -- /etc/passwd
	assert_eq "$rc" 126 "a file that is not executable: 126"
	enter "$T/a.ini" "$first" -w /nope -- /bin/true
	assert_eq "$rc" 125 "a working directory that does not exist: 125"
	assert_contains "$err" "working directory '/nope' does not exist in the container" "and says so"
	enter "$T/a.ini" "$first" -e NOEQUALS -- /bin/true
	assert_eq "$rc" 125 "an environment entry without '=': 125"
	enter "$T/a.ini" "$first" -u 4000000:4000000 -- /bin/true
	assert_eq "$rc:$err" "125:enter: error: uid 4000000 is not mapped in the container
  hint: the container's ids are those its uid and gid maps name ('crib run --trace' shows them)" \
		"-u with an id the container does not map: 125, and why"
	start_tick=$(awk '{sub(/.*\) /, ""); print $20}' "/proc/$first/stat")
	enter "$T/a.ini" "$first" --start "$start_tick" -- /bin/true
	assert_eq "$rc" 0 "the recorded start time of the container's process: accepted"
	enter "$T/a.ini" "$first" --start $((start_tick + 1)) -- /bin/true
	assert_eq "$rc" 125 "another start time (a pid reused by another process): refused"
	assert_contains "$err" "is not the container's process any more" "and says so"
	enter "$T/a.ini" "$$" -- /bin/true
	assert_eq "$rc" 125 "a process that is no container's init (it has no workload child): refused"

	# signals reach the process; crib exec killed takes it along
	"$ENTER" "$T/a.ini" "$first" -- /bin/sleep 30 </dev/null >/dev/null 2>&1 &
	e=$!
	sleep 0.5
	kill -TERM "$e"
	wait "$e"
	assert_eq "$?" 143 "SIGTERM to crib exec is forwarded: the program's status 128+15"
	"$ENTER" "$T/a.ini" "$first" -- /bin/sleep 31 </dev/null >/dev/null 2>&1 &
	e=$!
	sleep 0.5
	p=$(children_of "$e" 2>/dev/null)
	kill -KILL "$e"
	wait "$e" 2>/dev/null
	i=0
	while [ -n "$p" ] && [ -e "/proc/$p" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	assert_eq "$([ -n "$p" ] && [ ! -e "/proc/$p" ] && echo gone)" gone "crib exec killed with SIGKILL: its process dies too (parent-death signal)"

	# a terminal from the container's devpts, relayed (as 07-terminal-trace.t, without one here)
	out=$(echo typed line | "$ENTER" -t "$T/a.ini" "$first" -- /bin/sh -c 'tty; [ -t 0 ] && echo stdin-tty; read l; echo "read: $l"' 2>&1 | tr -d '\r')
	assert_eq "$(echo "$out" | grep -E '^(/dev/pts/|stdin-tty)' | tr '\n' ' ')" "/dev/pts/0 stdin-tty " "-t: a pty of the container's own devpts"
	assert_contains "$out" "read: typed line" "-t: input is relayed to the pty"
	stop
	# crib's init dies of its parent-death signal, a moment after crib
	i=0
	while [ -e "/proc/$first" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	enter "$T/a.ini" "$first" -- /bin/true
	assert_eq "$rc" 125 "the container stopped: 125"
	assert_contains "$err" "is gone" "and says so"
else
	ok 1 "the container started"
	sed 's/^/#   /' "$T/.run-stderr"
	stop
fi

done_testing
