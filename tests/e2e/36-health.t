#!/bin/sh
# Health checks (issue 36, item 2): [service] healthcheck and its timing, run by crib's monitor
# in a detached container as `crib exec` runs a program (runtime/launch/health.c); the status in
# `crib ps` and the health record; on_unhealthy = restart | kill; a check that overruns its
# timeout killed; the start period; the check confined as the workload is; what the container
# writes escaped. The truth from outside: /proc of the check and of the workload, the state
# directory's records, the processes left.
. "$(dirname "$0")/../lib/libtest.sh"

S="$T/state"
C() { "$CRIB" --root "$S" "$@"; }
cr() { run_crib --root "$S" "$@"; }
state_of() { C ps -a --format=ini | awk -v n="[container $1]" '$0 == n {f = 1} f && /^state = / {print $3; exit}'; }
ini_of() { C ps -a --format=ini | awk -v n="[container $1]" -v k="$2" '$0 == n {f = 1; next} /^\[/ {f = 0} f && $1 == k {sub(/^[^=]*= /, ""); print; exit}'; }
health_of() { ini_of "$1" health; }
pid_of() { _p=$(ini_of "$1" pid); [ "${_p:-0}" = 0 ] || echo "$_p"; }
# checks_running CMDLINE: the processes whose command line is CMDLINE, not zombies. One pass over
# /proc with the shell's own read of each stat file, the command line read only where the name
# is CMDLINE's program: a pass that forks for each process took longer on a loaded machine than
# a check lives, and missed it (each test's check has a command line of its own)
checks_running() {
	_comm=${1%% *}
	_comm=${_comm##*/}
	for _s in /proc/[0-9]*/stat; do
		read -r _line 2>/dev/null <"$_s" || continue
		case $_line in *"($_comm) "[ZX]*) continue ;; *"($_comm) "*) ;; *) continue ;; esac
		_d=${_s%/stat}
		[ "$(tr '\0' ' ' <"$_d/cmdline" 2>/dev/null)" = "$1 " ] && echo "${_d#/proc/}"
	done
}
# check_pid CMDLINE [TRIES]: the first running check of CMDLINE, looked for every 100 ms (at most
# TRIES times, 300): taken in the look that found it (a check may end between two looks: a
# slow guest once saw one in a wait and lost it in the next look)
check_pid() {
	_i=0 _c=""
	while [ -z "$_c" ] && [ $_i -lt "${2:-300}" ]; do
		_c=$(checks_running "$1" | head -n 1)
		[ -n "$_c" ] || sleep 0.1
		_i=$((_i + 1))
	done
	echo "$_c"
}
field() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status" 2>/dev/null; }
workload_of() { children_of "$1" | head -n 1; }

trap 'for n in $(ls "$S" 2>/dev/null); do C rm -f "$n" >/dev/null 2>&1; done; rm -rf "$T"' EXIT

# --- bad values: FILE:LINE, 125, nothing made
n=0
for kv in "healthcheck_interval = 5x" "healthcheck_interval = 0s" "healthcheck_interval = -1s" \
	"healthcheck_timeout = 30" "healthcheck_timeout = 2d" "healthcheck_start_period = 1.5s" \
	"healthcheck_retries = 0" "healthcheck_retries = abc" "on_unhealthy = sometimes" \
	"healthcheck = \"unterminated"; do
	n=$((n + 1))
	spec "$T/bad.ini" <<EOF2
[process]
args = /bin/sleep 100
[service]
$kv
EOF2
	cr run -d --name bad$n "$T/bad.ini"
	assert_eq "$rc:$(echo "$err" | grep -c "^crib: $T/bad.ini:6: ")" "125:1" "$kv: FILE:LINE: error, 125 ($err)"
done
assert_eq "$(ls "$S" 2>/dev/null | grep -c bad)" 0 "and no container was made"
spec "$T/fg.ini" <<'EOF2'
[process]
args = /bin/true
[service]
healthcheck = /bin/true
EOF2
cr run --name fg "$T/fg.ini"
assert_eq "$rc" 125 "a healthcheck in the foreground: refused, 125"
assert_contains "$err" "$T/fg.ini:6: healthcheck is for a detached container: 'crib run -d'" "the error names the line and says -d"

# --- healthy: crib ps says so; the check ran confined as the workload is
spec "$T/ok.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[service]
healthcheck = /bin/sh -c "echo fine; grep -E '^(CapEff|CapBnd|NoNewPrivs|Seccomp|NSpid):' /proc/self/status; readlink /proc/self/ns/mnt; readlink /proc/self/ns/pid"
healthcheck_interval = 200ms
EOF2
cr run -d --name ok "$T/ok.ini"
assert_eq "$rc:$out" "0:ok" "run -d with a healthcheck ($err)"
wait_until '[ "$(health_of ok)" = healthy ]' 100
assert_eq "$(health_of ok)" healthy "crib ps --format=ini: health = healthy"
row=$(C ps | awk '$1 == "ok"')
assert_contains "$row" "running (healthy)" "crib ps: the STATE column says 'running (healthy)', as podman's STATUS"
# the columns after STATE stay in line under their heads: PID's starts where the head's does
head=$(C ps | head -n 1)
at_head=${head%%PID *}
pid=$(pid_of ok)
at_row=${row%%"$pid"*}
assert_eq "${#at_row}" "${#at_head}" "crib ps: the STATE column widens for 'running (healthy)', and the pid ($pid) stands under PID"
assert_eq "$(state_of ok)" running "crib ps --format=ini: state stays running (health apart)"
if command -v python3 >/dev/null 2>&1; then
	assert_eq "$(C ps --format=json | python3 -c 'import json,sys; print([c["health"]["status"] for c in json.load(sys.stdin) if c["name"] == "ok"][0])' 2>&1)" healthy "crib ps --format=json: health.status healthy"
else
	skip "no python3 here to parse crib ps --format=json (the host's run checks it)"
fi
o=$(ini_of ok health_output)
assert_contains "$o" "fine\\n" "health_output: the check's output, escaped (a newline as backslash n)"
p=$(pid_of ok)
w=$(workload_of "$p")
printf '%b' "$(echo "$o" | sed 's/\\t/ /g')" >"$T/check-status"
cap() { awk -v k="$1:" '$1 == k {print $2}' "$T/check-status"; }
assert_eq "$(cap CapEff)|$(cap CapBnd)" "$(field "$w" CapEff)|$(field "$w" CapBnd)" "the check's CapEff and CapBnd are the workload's ($(field "$w" CapEff))"
assert_eq "$(cap NoNewPrivs)|$(cap Seccomp)" "1|2" "the check runs with NoNewPrivs 1 and a seccomp filter (Seccomp 2)"
assert_contains "$(cat "$T/check-status")" "$(readlink "/proc/$w/ns/mnt")" "the check is in the workload's mount namespace"
assert_contains "$(cat "$T/check-status")" "$(readlink "/proc/$w/ns/pid")" "and its pid namespace"
assert_eq "$(cat "$S/ok/health" | sed -n 's/^status=//p')|$(sed -n 's/^pid=//p' "$S/ok/health")" "healthy|$p" "the health record: status=healthy, for this run's pid"
cr rm -f ok

# --- on_unhealthy = restart: killed, run again with a new pid, a restart counted, the log says
# why. The check fails in the first run only (a file on a bind mount says which run it is), so
# the restarted run stays up and healthy: its pid and record are there to read, however slow
# the machine (a check that always failed made a restart loop, in whose short runs a slow guest
# once found no pid to read)
# (root's container writes as root's subordinate ids; a user's as the user, and a directory
# others could reach would be refused)
DM=777
[ "$ROLE" = root ] || DM=700
mkdir -m "$DM" "$T/rsdata"
spec "$T/restart.ini" <<EOF2
[process]
args = /bin/sh -c "if [ -e /tmp/ran ]; then touch /tmp/again; else touch /tmp/ran; fi; exec /bin/sleep 1000"
[mounts]
bind = $T/rsdata /tmp
[service]
healthcheck = /bin/sh -c "[ -e /tmp/again ] || { echo broken; exit 3; }"
healthcheck_interval = 200ms
healthcheck_retries = 2
on_unhealthy = restart
EOF2
cr run -d --name rs "$T/restart.ini"
assert_eq "$rc:$out" "0:rs" "a container whose check fails in its first run only, on_unhealthy = restart ($err)"
p1=$(pid_of rs)
wait_until '[ "$(ini_of rs restarts)" = 1 ] && [ "$(health_of rs)" = healthy ]' 300
p2=$(pid_of rs)
assert_eq "$([ -n "$p2" ] && [ "$p2" != "$p1" ] && echo new)|$(ini_of rs restarts)|$(health_of rs)" "new|1|healthy" "unhealthy after 2 failures: restarted once, a new pid ($p1 -> $p2), healthy in the new run"
cr logs rs
assert_contains "$out" "'rs' is unhealthy (2 failed checks in a row): restarting it (on_unhealthy = restart)" "the log says the check made it unhealthy"
assert_contains "$out" "'rs' was unhealthy, killed (status 137): restarting in 100 ms" "and that the monitor restarted it"
assert_eq "$(sed -n 's/^status=//p' "$S/rs/health")|$(sed -n 's/^pid=//p' "$S/rs/health")" "healthy|$p2" "the health record is the new run's: healthy, its pid"
C stop -t 2 rs >/dev/null 2>&1
wait_until '[ "$(state_of rs)" = stopped ]' 50
assert_eq "$(state_of rs)|$(pid_of rs)" "stopped|" "crib stop ends it: not restarted by on_unhealthy"
cr rm -f rs

# --- on_unhealthy = kill: it ends and stays ended, even with restart = always
spec "$T/kill.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[service]
restart = always
healthcheck = /bin/false
healthcheck_interval = 200ms
healthcheck_retries = 2
on_unhealthy = kill
EOF2
cr run -d --name k "$T/kill.ini"
wait_until '[ "$(state_of k)" = stopped ]' 150
sleep 1
assert_eq "$(state_of k)|$(ini_of k restarts)|$(sed -n 's/^status=//p' "$S/k/exit")" "stopped|0|137" "on_unhealthy = kill with restart = always: stopped, 0 restarts, exit 137"
assert_eq "$(ini_of k health)|$(ini_of k health_action)" "unhealthy|killed" "crib ps --format=ini: health = unhealthy, health_action = killed"
cr logs k
assert_contains "$out" "'k' was unhealthy, killed (status 137): not restarted (on_unhealthy = kill)" "the log says why it was not restarted"
cr rm -f k

# --- a check that hangs past its timeout: killed, a failure; it held no descriptor of the host
spec "$T/hang.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[service]
healthcheck = /bin/sleep 4711
healthcheck_interval = 200ms
healthcheck_timeout = 5s
healthcheck_retries = 100
EOF2
cr run -d --name hang "$T/hang.ini"
c1=$(check_pid "/bin/sleep 4711")
assert_eq "$([ -n "$c1" ] && echo seen)" seen "the hanging check runs ($c1)"
fds=$(ls -l "/proc/$c1/fd/" 2>/dev/null | awk 'NR > 1 {print $NF}' | sort -u | tr '\n' ' ')
if [ -n "$fds" ]; then
	assert_eq "$(echo "$fds" | tr ' ' '\n' | grep -v '^$' | grep -cv '^/dev/null$\|^pipe:\[[0-9]*\]$')" 0 "from outside, /proc/$c1/fd: only /dev/null and a pipe, no descriptor of the host ($fds)"
else
	skip "/proc/$c1/fd cannot be read from outside as $ROLE (the check is not dumpable): its descriptors"
fi
# the checker signals the run (on_unhealthy) through a pidfd taken while the run was the
# monitor's unreaped child, never by a pid that may be another process's once the run is reaped
checker=$(awk '{print $4}' "/proc/$c1/stat" 2>/dev/null)
if ls "/proc/$checker/fdinfo/" >/dev/null 2>&1; then
	pinned=$(for f in /proc/"$checker"/fdinfo/*; do awk '$1 == "Pid:" {print $2}' "$f"; done 2>/dev/null | grep -cx "$(pid_of hang)")
	assert_eq "$pinned" 1 "the checker ($checker) holds a pidfd of the run ($(pid_of hang)): what on_unhealthy signals"
else
	skip "/proc/$checker/fdinfo cannot be read as $ROLE (the checker is not dumpable): its pidfd"
fi
wait_until '[ "$(ini_of hang health_timed_out)" = yes ]' 300
assert_eq "$(ini_of hang health_timed_out)|$(ini_of hang health_last_exit)|$([ "$(ini_of hang health_failing_streak)" -ge 1 ] && echo counted)" "yes|137|counted" "after its timeout: timed_out, killed (137), counted as a failure"
# (c1 may be a later check than the one that timed out first: its own time is up 5 s on)
wait_until '! { kill -0 "$c1" 2>/dev/null && [ "$(field "$c1" State)" != Z ]; }' 100
assert_eq "$(kill -0 "$c1" 2>/dev/null && [ "$(field "$c1" State)" != Z ] && echo left)" "" "the check that overran ($c1) is gone"
assert_contains "$(ini_of hang health_output)" "crib: the check overran its timeout: killed" "health_output says it overran"
# crib stop while a check runs: nothing left (the check, the checker, the monitor)
c2=$(check_pid "/bin/sleep 4711")
mon=$(sed -n 's/^pid=//p' "$S/hang/monitor")
C stop -t 2 hang >/dev/null 2>&1
# (stop returns once the exit is recorded: the monitor may take a moment more to end)
wait_until '! { kill -0 "$c2" 2>/dev/null && [ "$(field "$c2" State)" != Z ]; } && ! { kill -0 "$mon" 2>/dev/null && [ "$(field "$mon" State)" != Z ]; }' 50
assert_eq "$(kill -0 "$c2" 2>/dev/null && [ "$(field "$c2" State)" != Z ] && echo check)|$(kill -0 "$mon" 2>/dev/null && [ "$(field "$mon" State)" != Z ] && echo monitor)" "|" "crib stop during a check ($c2): no check, no monitor left"
cr rm -f hang

# --- a check that closes its output and runs on: the checker waits, it does not spin (the
# attacker's review: poll said POLLHUP at once, again and again, and the checker burnt a CPU of
# the host for the whole timeout, check after check: 1.9 s of CPU in 2.4 s)
spec "$T/hup.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[service]
healthcheck = /bin/sh -c "exec >&- 2>&-; exec /bin/sleep 4712"
healthcheck_interval = 100ms
healthcheck_timeout = 20s
EOF2
cr run -d --name hup "$T/hup.ini"
c=$(check_pid "/bin/sleep 4712" 100)
checker=$(awk '{print $4}' "/proc/$c/stat" 2>/dev/null)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null; }
# (idle: under half of the 2 s; the spin took 74-94% of it, and the emulated Pi Zero's checker,
# whose every wait costs more there, a third)
t0=$(ticks "$checker")
sleep 2
t1=$(ticks "$checker")
hz=$(getconf CLK_TCK 2>/dev/null || echo 100) # (USER_HZ: 100 on every architecture; busybox has no getconf)
assert_eq "$([ -n "$c" ] && [ -n "$t0" ] && [ -n "$t1" ] && [ $((t1 - t0)) -lt "$hz" ] && echo idle)" idle "a check with its output closed ($c): its checker ($checker) used $((${t1:-0} - ${t0:-0})) of $((2 * hz)) ticks in 2 s"
cr rm -f hup

# --- the start period: failures in it do not count
spec "$T/start.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[service]
healthcheck = /bin/sh -c "echo broken; exit 3"
healthcheck_interval = 200ms
healthcheck_retries = 1
healthcheck_start_period = 5s
EOF2
cr run -d --name sp "$T/start.ini"
# (two checks are enough to see; the period is long enough for them on a loaded machine)
wait_until '[ "$(ini_of sp health_checks)" -ge 2 ] 2>/dev/null' 40
assert_eq "$(health_of sp)|$(ini_of sp health_failing_streak)|$([ "$(ini_of sp health_checks)" -ge 2 ] && echo checked)" "starting|0|checked" "in the start period: failed checks, still starting, streak 0"
wait_until '[ "$(health_of sp)" = unhealthy ]' 80
assert_eq "$(health_of sp)" unhealthy "after it: 1 failure makes it unhealthy (retries = 1)"
assert_eq "$(state_of sp)" running "on_unhealthy = none: only reported, it runs on"
assert_eq "$(sed -n 's/^last_exit=//p' "$S/sp/health")|$(sed -n 's/^output=//p' "$S/sp/health")" '3|broken\n' "the health record: last_exit=3, the check's exit status, and its output"
cr rm -f sp

# a success in the start period makes it healthy at once
spec "$T/start2.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[service]
healthcheck = /bin/sh -c "test -e /tmp/up"
healthcheck_interval = 200ms
healthcheck_retries = 1
healthcheck_start_period = 1m
EOF2
cr run -d --name sp2 "$T/start2.ini"
sleep 0.7
assert_eq "$(health_of sp2)" starting "failing in a start period of a minute: starting"
cr exec sp2 -- /bin/touch /tmp/up
wait_until '[ "$(health_of sp2)" = healthy ]' 30
assert_eq "$rc:$(health_of sp2)" "0:healthy" "the first success in it: healthy"
cr rm -f sp2

# --- what the container writes is escaped: no line of its own in crib ps's INI, no ESC byte
spec "$T/evil.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[service]
healthcheck = /bin/sh -c "printf 'x\\n[container fake]\\nstate = running\\n\\033]0;title\\007\\033[2J'; head -c 100000 /dev/zero"
healthcheck_interval = 200ms
EOF2
cr run -d --name evil "$T/evil.ini"
wait_until '[ "$(health_of evil)" = healthy ]' 100
C ps --format=ini >"$T/ini"
assert_eq "$(grep -c '^\[container' "$T/ini")|$(grep -c "$(printf '\033')" "$T/ini")" "1|0" "crib ps --format=ini: one [container] line, no ESC byte"
o=$(ini_of evil health_output)
assert_contains "$o" 'x\n[container fake]\nstate = running\n\x1b]0;title\x07' "health_output: the newlines and control bytes escaped"
[ ${#o} -le 16384 ]
ok $? "health_output bounded: ${#o} bytes for 100000 written (4 KiB, escaped)"
if command -v python3 >/dev/null 2>&1; then
	C ps --format=json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d))' >"$T/json" 2>&1
	assert_eq "$(cat "$T/json")" 1 "crib ps --format=json: valid JSON"
else
	skip "no python3 here to parse crib ps --format=json (the host's run checks it)"
fi
cr rm -f evil

# --- the attacker's review: what else a check's output may hold, and checks that leave
# processes behind. A quote, a backslash, a NUL, bytes not UTF-8: escaped, JSON still parses
spec "$T/bytes.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[service]
healthcheck = /bin/sh -c "printf 'q\\042\\134\\000\\377\\033[31m'; exit 1"
healthcheck_interval = 200ms
EOF2
cr run -d --name bytes "$T/bytes.ini"
wait_until '[ -n "$(ini_of bytes health_output)" ]' 100
assert_eq "$(ini_of bytes health_output)" 'q"\\\x00\xff\x1b[31m' "a quote, a backslash, NUL, 0xff, ESC: the quote kept, the backslash doubled, the others as backslash-x and two hex digits"
if command -v python3 >/dev/null 2>&1; then
	assert_eq "$(C ps --format=json | python3 -c 'import json,sys; print([c["health"]["output"] for c in json.load(sys.stdin) if c["name"] == "bytes"][0])' 2>&1)" 'q"\\\x00\xff\x1b[31m' "crib ps --format=json: the same text, parsed"
else
	skip "no python3 here to parse crib ps --format=json (the host's run checks it)"
fi
cr rm -f bytes
# a check that leaves a process holding its pipe and exits: the checker does not wait for it
spec "$T/left.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[service]
healthcheck = /bin/sh -c "/bin/sleep 4714 & echo up"
healthcheck_interval = 100ms
EOF2
cr run -d --name left "$T/left.ini"
wait_until '[ "$(ini_of left health_checks)" -ge 3 ] 2>/dev/null' 100
assert_eq "$(health_of left)|$(ini_of left health_output)|$([ "$(ini_of left health_checks)" -ge 3 ] 2>/dev/null && echo on)" 'healthy|up\n|on' "a check whose child holds its pipe: healthy, its output, and the checks go on ($(ini_of left health_checks))"
cr rm -f left
# a check that ignores SIGTERM and forks: killed at its timeout with its process group
spec "$T/stubborn.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[service]
healthcheck = /bin/sh -c "trap '' TERM; /bin/sleep 4715 & exec /bin/sleep 4716"
healthcheck_interval = 100ms
healthcheck_timeout = 500ms
healthcheck_retries = 1000
EOF2
cr run -d --name stubborn "$T/stubborn.ini"
wait_until '[ "$(ini_of stubborn health_checks)" -ge 3 ] 2>/dev/null' 150
left=$(checks_running "/bin/sleep 4715" | wc -l)
assert_eq "$(ini_of stubborn health_timed_out)|$(ini_of stubborn health_last_exit)|$([ "$left" -le 1 ] && echo gone)" "yes|137|gone" "a check that ignores SIGTERM: killed at its timeout (137), its group's child with it ($left running: the current check's at most)"
cr rm -f stubborn

done_testing
