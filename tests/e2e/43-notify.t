#!/bin/sh
# crib run as a systemd Type=notify unit's main process, as the unit `crib generate systemd`
# writes, with a listener of this test's in systemd's place ($NOTIFY_SOCKET; python3): crib
# says READY=1 with MAINPID its own pid once the workload runs, and NOTIFY_SOCKET stays out of
# the container; with [service] notify = container the container's own messages come through
# crib's socket, filtered (tests/tools/notify-send plays a hostile container). And crib
# generate systemd's unit, its ExecStart= quoting and its errors; [service] healthcheck under a
# unit (crib runs the checks; unhealthy, it ends for Restart=). The real systemd, its
# restarts, stop and cgroups are the systemd VM guest's (tests/vm/systemd-tests.sh).
. "$(dirname "$0")/../lib/libtest.sh"

# listen SOCKET SECONDS: datagrams to SOCKET ('@' abstract) until SECONDS of quiet after the
# first (at most a minute for that one), one line each ("\n" for a newline, "FDS" when descriptors came along), into $T/got
listen() {
	rm -f "$T/got" # (the last listener's LISTENING must not pass for this one's)
	python3 - "$1" "$2" >"$T/got" <<'EOF2' &
import os, socket, sys
p, quiet = sys.argv[1], float(sys.argv[2])
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
if p[0] == "/" and os.path.exists(p):
    os.unlink(p)
s.bind("\0" + p[1:] if p[0] == "@" else p)
print("LISTENING", flush=True)
first = True
try:
    while True:
        # the first datagram may be long in coming (crib built with ASan, a loaded machine):
        # the quiet that ends the listening counts from the first on
        s.settimeout(60 if first else quiet)
        d, anc, fl, a = s.recvmsg(70000, 4096)
        first = False
        print(d.decode(errors="replace").replace("\n", "\\n") + (" FDS" if anc else ""), flush=True)
except socket.timeout:
    pass
EOF2
	lpid=$!
	i=0
	# python's start may take seconds on a loaded machine (the VM guests beside the sanitizer
	# pass): a crib that sent before the bind would have its datagrams refused
	until grep -q LISTENING "$T/got" 2>/dev/null || [ $i -ge 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q LISTENING "$T/got" 2>/dev/null || echo "# the listener on $1 did not start within 60 s"
}
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed: it plays systemd's notify socket here"
	exit 0
fi

spec "$T/a.ini" <<'EOF2'
[process]
args = /bin/sh -c 'echo env: $(env | grep -c NOTIFY_SOCKET); sleep 0.3'
EOF2
# an abstract socket, as systemd's own may be named
listen "@crib-t-$$" 3
NOTIFY_SOCKET="@crib-t-$$" "$CRIB" --root "$T/state" run --name nt1 "$T/a.ini" >"$T/out" 2>"$T/err" &
cpid=$!
wait $cpid
rc=$?
wait $lpid
assert_eq "$rc:$(cat "$T/out")" "0:env: 0" "crib run under a unit: the workload runs, NOTIFY_SOCKET is not in its environment"
assert_eq "$(sed 1d "$T/got")" "READY=1\\nMAINPID=$cpid" "crib says READY=1 with MAINPID its own pid (@abstract socket)" ||
	sed 's/^/#   /' "$T/err"

# a path, and a restart policy: under a unit systemd's Restart= is the supervisor, so crib
# run in the foreground takes it; without one it is refused as before
spec "$T/r.ini" <<'EOF2'
[process]
args = /bin/true
[service]
restart = on-failure
EOF2
run_crib run "$T/r.ini"
assert_eq "$rc" 125 "restart = on-failure in the foreground without a unit: refused, exit 125"
assert_contains "$err" "$T/r.ini:6:" "the error names FILE:LINE"
listen "$T/sys.sock" 2
NOTIFY_SOCKET="$T/sys.sock" "$CRIB" run "$T/r.ini" >"$T/out" 2>"$T/err" &
cpid=$!
wait $cpid
rc=$?
wait $lpid
assert_eq "$rc:$(sed 1d "$T/got")" "0:READY=1\\nMAINPID=$cpid" "under a unit (a socket path): the policy is systemd's, and crib says READY=1" ||
	sed 's/^/#   /' "$T/err"

# notify = container: the container's messages, through crib's socket at
# /run/notify/notify.sock; the helper bound over the probe (a mountpoint that exists, a file
# of its own: /bin's are links to busybox)
if [ -x "${NOTIFY_SEND:-}" ]; then
	spec "$T/c.ini" <<EOF2
[process]
args = /bin/sh -c 'echo \$NOTIFY_SOCKET; ls -l /run/notify/notify.sock | cut -c1; sleep 0.5; /usr/local/bin/probe attack; echo attack \$?; /usr/local/bin/probe ready; echo ready \$?; sleep 0.3'
[mounts]
bind = $NOTIFY_SEND /usr/local/bin/probe ro
[service]
notify = container
EOF2
	listen "$T/sys.sock" 5
	NOTIFY_SOCKET="$T/sys.sock" "$CRIB" --root "$T/state" run "$T/c.ini" >"$T/out" 2>"$T/err" &
	cpid=$!
	wait $cpid
	rc=$?
	wait $lpid
	assert_eq "$rc:$(cat "$T/out" | tr '\n' ' ')" "0:/run/notify/notify.sock s attack 0 ready 0 " "notify = container: NOTIFY_SOCKET names crib's socket inside, a socket there; the container's sender ran" ||
		sed 's/^/#   /' "$T/err"
	assert_eq "$(sed 1d "$T/got")" "READY=1\\nMAINPID=$cpid
STATUS=attacked\\nMAINPID=$cpid
READY=1\\nSTATUS=ready, said the container\\nMAINPID=$cpid" \
		"only what may go on reaches systemd, MAINPID always crib's: MAINPID=1, a descriptor, 64 KiB and garbage are dropped" ||
		sed 's/^/#   /' "$T/err"
	assert_not_contains "$(cat "$T/got")" "FDS" "no descriptor reaches systemd"
	left=$(find "$T/state" -maxdepth 1 -name '.notify-*' 2>/dev/null)
	assert_eq "$left" "" "crib's socket and its directory are gone when it ends"
	# systemd's socket gone: the container's three passable messages fail to go on, and crib
	# says so once (a container sending on would otherwise fill the unit's journal)
	NOTIFY_SOCKET="$T/gone.sock" "$CRIB" --root "$T/state" run "$T/c.ini" >"$T/out" 2>"$T/err"
	assert_eq "$?:$(grep -c 'cannot notify systemd' "$T/err")" "0:1" "systemd's socket gone: the container runs, and crib warns once, not per message" ||
		sed 's/^/#   /' "$T/err"
else
	skips 5 "no tests/tools/notify-send (NOTIFY_SEND): make build/tests/tools/notify-send"
fi

spec "$T/bad.ini" <<'EOF2'
[process]
args = /bin/true
[service]
notify = systemd
EOF2
run_crib run "$T/bad.ini"
assert_eq "$rc" 125 "notify = systemd: exit 125"
assert_contains "$err" "$T/bad.ini:6: 'notify' must be crib or container, not 'systemd'" "FILE:LINE: and what it may be"

# crib generate systemd: the unit; a path with ' ', '%', '$', '"' written for ExecStart=
d="$T/my dir %h \$HOME"
mkdir -p "$d"
cp "$T/r.ini" "$d/web \"x\".ini"
run_crib generate systemd "$d/web \"x\".ini" --name web
assert_eq "$rc" 0 "crib generate systemd: exit 0"
esc=$(printf '%s' "$d" | sed 's/%/%%/g; s/\$/$$/g')
assert_contains "$out" "ExecStart=$CRIB run --name web \"$esc/web \\\"x\\\".ini\"" "ExecStart=: the spec in quotes, '%' and '\$' doubled, '\"' escaped"
for line in Type=notify KillMode=mixed Delegate=yes Restart=on-failure SyslogIdentifier=crib-web \
	TimeoutStopSec=10 WantedBy=multi-user.target; do
	assert_contains "$out" "
$line" "the unit has $line"
done
assert_contains "$err" "/etc/systemd/system/crib-web.service" "stderr says where a system unit goes"
run_crib generate systemd "$T/a.ini" --user
assert_contains "$out" "WantedBy=default.target" "--user: WantedBy=default.target"
assert_contains "$out" "ExecStart=$CRIB run --name a $T/a.ini" "the name is the spec's, without .ini"
assert_contains "$err" "loginctl enable-linger" "--user: the linger hint on stderr"
run_crib generate systemd "$T/a.ini" --name 'bad name'
assert_eq "$rc" 125 "a name crib refuses: exit 125"
run_crib generate docker "$T/a.ini"
assert_eq "$rc" 125 "crib generate knows systemd only: exit 125"
run_crib generate systemd "$T/bad.ini"
assert_eq "$rc:$(echo "$err" | head -n 1)" "125:crib: $T/bad.ini:6: 'notify' must be crib or container, not 'systemd'" "a bad spec: its FILE:LINE error, exit 125"
# [service] healthcheck under a unit: crib in the foreground runs the checks as crib run -d's
# monitor does (runtime/launch/health.c), and ends with the workload when it kills it, for
# systemd's Restart= to restart the unit; without a unit it is refused as before
S="$T/state"
ini_of() { "$CRIB" --root "$S" ps -a --format=ini | awk -v n="[container $1]" -v k="$2" '$0 == n {f = 1; next} /^\[/ {f = 0} f && $1 == k {sub(/^[^=]*= /, ""); print; exit}'; }
# checker_of PID: crib's checker, a child of crib's in crib's own pid namespace running crib
# (the workload's first process is in the container's)
checker_of() {
	for _c in $(children_of "$1"); do
		[ "$(readlink "/proc/$_c/ns/pid")" = "$(readlink "/proc/$1/ns/pid")" ] &&
			[ "$(readlink "/proc/$_c/exe")" = "$(readlink "/proc/$1/exe")" ] && echo "$_c"
	done
}
# unit_run NAME SPEC: crib run --name NAME SPEC under the listener, in the background ($cpid),
# with a watchdog that kills it after a minute ($wd)
unit_run() {
	listen "$T/sys.sock" 2
	NOTIFY_SOCKET="$T/sys.sock" "$CRIB" --root "$S" run --name "$1" "$2" >"$T/out" 2>"$T/err" &
	cpid=$!
	(
		sleep 60
		kill -KILL $cpid
	) >/dev/null 2>&1 &
	wd=$!
}
for act in restart kill; do
	spec "$T/hu-$act.ini" <<EOF2
[process]
args = /bin/sleep 1000
[service]
restart = always
healthcheck = /bin/sh -c "echo not well; exit 3"
healthcheck_interval = 1s
healthcheck_retries = 2
on_unhealthy = $act
EOF2
	t0=$(date +%s)
	unit_run "hu-$act" "$T/hu-$act.ini"
	wait_until "[ -n \"\$(checker_of $cpid)\" ] || ! kill -0 $cpid 2>/dev/null" 100
	ck=$(checker_of $cpid)
	wait $cpid
	rc=$?
	t=$(($(date +%s) - t0))
	kill $wd 2>/dev/null
	wait $lpid
	want=137
	says="restarting it"
	[ $act = kill ] && want=124 && says=killed
	assert_eq "$rc:$([ $t -lt 30 ] && echo soon)" "$want:soon" "under a unit, a failing check with on_unhealthy = $act: crib exits $want after ${t} s (2 checks 1 s apart)" ||
		sed 's/^/#   /' "$T/err"
	assert_contains "$(cat "$T/err")" "'hu-$act' is unhealthy (2 failed checks in a row): $says (on_unhealthy = $act)" "crib's stderr (the unit's journal) says why"
	assert_eq "$(sed 1d "$T/got")" "READY=1\\nMAINPID=$cpid" "READY=1 came first, with MAINPID crib's"
	assert_eq "$([ -n "$ck" ] && echo seen)|$([ -n "$ck" ] && [ -d "/proc/$ck" ] && echo left)" "seen|" "the checker ran as crib's child ($ck), and is gone when crib ends"
	assert_eq "$([ -e "$S/hu-$act" ] && echo left)" "" "the foreground container's record is gone"
done

spec "$T/hok.ini" <<'EOF2'
[process]
args = /bin/sleep 1000
[service]
healthcheck = /bin/true
healthcheck_interval = 200ms
EOF2
unit_run hok "$T/hok.ini"
wait_until '[ "$(ini_of hok health)" = healthy ] || ! kill -0 $cpid 2>/dev/null' 150
assert_eq "$(ini_of hok health)|$(ini_of hok pid)" "healthy|$(children_of $cpid | while read -r c; do [ "$(readlink "/proc/$c/ns/pid")" != "$(readlink "/proc/$cpid/ns/pid")" ] && echo "$c"; done | head -n 1)" "a passing check under a unit: crib ps --format=ini shows health = healthy for the running container" ||
	sed 's/^/#   /' "$T/err"
ck=$(checker_of $cpid)
kill -TERM $cpid
wait $cpid
rc=$?
kill $wd 2>/dev/null
wait $lpid
assert_eq "$rc|$([ -n "$ck" ] && echo seen)|$([ -n "$ck" ] && [ -d "/proc/$ck" ] && echo left)" "143|seen|" "systemctl stop's SIGTERM: crib exits 143, its checker ($ck) gone with it"

# crib killed outright (SIGKILL, as systemd does at the stop timeout): its checker dies with it
unit_run hok "$T/hok.ini"
wait_until '[ -n "$(checker_of $cpid)" ] || ! kill -0 $cpid 2>/dev/null' 100
ck=$(checker_of $cpid)
kill -KILL $cpid
wait $cpid 2>/dev/null
kill $wd 2>/dev/null
wait $lpid
wait_until '[ -z "$ck" ] || ! [ -d "/proc/$ck" ]' 50
assert_eq "$([ -n "$ck" ] && echo seen)|$([ -n "$ck" ] && [ -d "/proc/$ck" ] && echo left)" "seen|" "crib killed by SIGKILL: its checker ($ck) dies with it, no orphan"
"$CRIB" --root "$S" rm -f hok >/dev/null 2>&1
run_crib --root "$S" run --name hok "$T/hok.ini"
assert_eq "$rc:$(echo "$err" | head -n 1 | cut -d: -f1-3)" "125:crib: $T/hok.ini:6" "without a unit a healthcheck in the foreground is refused: FILE:LINE, exit 125"
assert_eq "$([ -e "$S/hok" ] && echo left)" "" "nothing recorded"
NOTIFY_SOCKET="$T/none.sock" run_crib --root "$S" run "$T/hok.ini"
assert_eq "$rc:$(echo "$err" | head -n 1 | cut -d: -f1-3)" "125:crib: $T/hok.ini:6" "under a unit without --name: refused, FILE:LINE, exit 125"
assert_contains "$err" "--name" "and it says --name"

run_crib generate systemd "$T/hok.ini"
assert_eq "$rc:$(echo "$out" | grep -c '^ExecStart=')" "0:1" "crib generate systemd takes a spec with a healthcheck"
assert_not_contains "$out" "RestartPreventExitStatus" "on_unhealthy = none: no RestartPreventExitStatus="
run_crib generate systemd "$T/hu-kill.ini"
assert_contains "$out" "
RestartPreventExitStatus=124
" "on_unhealthy = kill: RestartPreventExitStatus=124, the status crib exits with, so Restart=always does not undo the kill"
done_testing
