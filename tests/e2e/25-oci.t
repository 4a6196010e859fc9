#!/bin/sh
# crib as an OCI runtime (issue 16): driven exactly as runc's command line is, with a bundle
# made here: create -> state says created -> start -> running -> kill -> stopped -> delete;
# exit statuses, a missing program (127 at start), a bad config.json (its JSON path, 125), the
# JSON log, and that a created container neither runs early nor outlives delete. Then podman,
# as root, with crib as its runtime, where podman is installed.
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/oci.sh"

# config ARGS_JSON [EXTRA_PROCESS_JSON]: the bundle's config.json. As root, no user namespace
# (podman's and containerd's default); as a user, one mapping the caller's own ids.
config() {
	if [ "$ROLE" = root ]; then
		ns='{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"}'
		maps=''
	else
		ns='{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"},{"type":"user"}'
		maps=",\"uidMappings\":[{\"containerID\":0,\"hostID\":$(id -u),\"size\":1}],\"gidMappings\":[{\"containerID\":0,\"hostID\":$(id -g),\"size\":1}]"
	fi
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":$1,"cwd":"/","env":["PATH=/bin:/usr/bin:/usr/local/bin"],
   "user":{"uid":0,"gid":0}${2:-},
   "capabilities":{"bounding":["CAP_KILL","CAP_CHOWN"],"effective":["CAP_KILL","CAP_CHOWN"],"permitted":["CAP_KILL","CAP_CHOWN"]},
   "noNewPrivileges":true},
 "hostname":"ocibox",
 "mounts":[{"destination":"/proc","type":"proc","source":"proc"},
   {"destination":"/dev","type":"tmpfs","source":"tmpfs","options":["nosuid","strictatime","mode=755","size=65536k"]},
   {"destination":"/tmp","type":"tmpfs","source":"tmpfs","options":["nosuid","nodev"]}],
 "annotations":{"org.example.test":"25-oci"},
 "linux":{"namespaces":[$ns]$maps,
   "maskedPaths":["/proc/kcore"],"readonlyPaths":["/proc/sys"]}}
EOF
}

# --- the version, as containerd's shim reads it
oci --version
assert_eq "$(echo "$out" | head -n1 | cut -c1-13)" "runc version " "--version starts with 'runc version '"
assert_eq "$("$CRIB" oci --version | head -n1 | cut -c1-13)" "runc version " "and so does 'crib oci --version'"

# --- create: set up in full, the program not run yet
config '["/bin/sh","-c","echo started as $(id -u) on $(hostname); trap \"exit 3\" TERM; while :; do sleep 0.1; done"]'
R create --bundle "$B" --pid-file "$T/pid" c1 >"$T/c1.out" 2>"$T/c1.err" </dev/null
rc=$?
assert_eq "$rc" 0 "create exits 0"
assert_eq "$(cat "$T/c1.err")" "" "and says nothing"
pid=$(cat "$T/pid" 2>/dev/null)
assert_eq "$(pid_in_state c1)" "$pid" "the pid file holds the pid state shows ($pid)"
assert_eq "$(status_of c1)" created "state says created"
state=$(R state c1)
assert_contains "$state" '"ociVersion":"1.0.2"' "state has ociVersion"
assert_contains "$state" "\"bundle\":\"$(cd "$B" && pwd -P)\"" "the bundle"
assert_contains "$state" '"org.example.test":"25-oci"' "and the annotations"
assert_eq "$(echo "$state" | grep -cE '"created":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}(\.[0-9]+)?Z"')" 1 \
	"created is RFC 3339"
sleep 0.3
assert_eq "$(cat "$T/c1.out")" "" "the program has not run: no output"
assert_eq "$(cat "/proc/$pid/comm" 2>/dev/null)" crib-runc "the process is still crib's, waiting (/proc/$pid/comm)"
assert_eq "$(awk '/^NSpid:/{print $NF}' "/proc/$pid/status" 2>/dev/null)" 1 "and the container's pid 1"
assert_eq "$(stat -c %a "$S/c1" "$S/c1/exec.fifo" | tr '\n' ' ')" "700 622 " \
	"the exec fifo sits in the 0700 state directory"
if [ "$ROLE" = root ]; then
	leak=""
	for f in /proc/$pid/fd/*; do
		case "$(readlink "$f" 2>/dev/null)" in "$S"*) leak="$leak $(readlink "$f")" ;; esac
	done
	assert_eq "$leak" " $S/c1/exec.fifo" "the waiting process holds the fifo alone of the state tree"
else
	skip "a user cannot list the descriptors of the waiting process (it is not dumpable)"
fi
oci create --bundle "$B" c1
assert_eq "$rc" 125 "a second create of the same id fails"
assert_contains "$err" 'container "c1" already exists' "saying so"

# --- start: the program runs
oci start c1
assert_eq "$rc" 0 "start exits 0"
wait_for "$T/c1.out" 50
sleep 0.2
assert_eq "$(cat "$T/c1.out")" "started as 0 on ocibox" "the program ran with the config's user and hostname, on create's stdout"
assert_eq "$(status_of c1)" running "state says running"
assert_eq "$([ -e "$S/c1/exec.fifo" ] && echo yes || echo no)" no "the fifo is gone"
oci ps --format json c1
assert_contains "$out" "[$pid" "ps --format json lists the container's process"
oci start c1
assert_ne_rc=$([ "$rc" != 0 ] && echo 0 || echo 1)
ok "$assert_ne_rc" "a second start fails ($rc)"
assert_contains "$err" "is running, not created" "saying why"
oci delete c1
assert_eq "$rc" 125 "delete refuses a running container"
assert_eq "$(status_of c1)" running "which keeps running"

# --- kill, delete
oci kill c1 TERM
assert_eq "$rc" 0 "kill c1 TERM exits 0"
wait_status c1 stopped
assert_eq "$(status_of c1)" stopped "state says stopped"
assert_eq "$(pid_in_state c1)" 0 "with pid 0"
oci kill c1 KILL
assert_contains "$err" "is not running" "kill of a stopped container fails"
oci delete c1
assert_eq "$rc" 0 "delete exits 0"
assert_eq "$([ -e "$S/c1" ] && echo left || echo gone)" gone "its state directory is gone"
oci state c1
assert_contains "$err" 'container "c1" does not exist' "state of a deleted container says it does not exist"
oci delete --force c1
assert_eq "$rc" 0 "delete --force of a missing container is no error (as runc)"

# --- kill on a kernel without pidfd_open(2) (Linux < 5.3): kill(2) after the same start-time
# check, as crib kill does (crib oci kill failed there: "cannot open process")
if [ -n "${OLD_KERNEL:-}" ]; then
	oci create --bundle "$B" c0
	"$OLD_KERNEL" "$T/crib-runc" --root "$S" kill c0 KILL >"$T/.stdout" 2>"$T/.stderr" </dev/null
	assert_eq "$?:$(cat "$T/.stderr")" "0:" "kill without pidfd_open exits 0"
	wait_status c0 stopped
	assert_eq "$(status_of c0)" stopped "and the container's process ended"
	oci delete c0
else
	skips 2 "no old-kernel helper here (OLD_KERNEL is unset)"
fi

# --- delete of a created container: its waiting process ends, it never runs
config '["/bin/sh","-c","echo ran"]'
R create --bundle "$B" --pid-file "$T/pid2" c2 >"$T/c2.out" 2>&1 </dev/null
pid=$(cat "$T/pid2")
oci delete c2
assert_eq "$rc" 0 "delete of a created container exits 0"
sleep 0.2
assert_eq "$(cat "$T/c2.out")" "" "its program never ran"
assert_eq "$([ -e "/proc/$pid/exe" ] && readlink "/proc/$pid/exe" || echo gone)" gone "and its process is gone"

# --- delete --force of a running one
config '["/bin/sleep","1000"]'
R create --bundle "$B" --pid-file "$T/pid3" c3 </dev/null >/dev/null 2>&1
R start c3
pid=$(cat "$T/pid3")
oci delete --force c3
assert_eq "$rc" 0 "delete --force of a running container exits 0"
# (delete waits for it: at most 2 s, woken by its pidfd when it ends)
assert_eq "$(cat "/proc/$pid/stat" 2>/dev/null | awk '{print $3}' | grep -v Z)" "" "and it is gone when delete returns"

# --- kill --all
config '["/bin/sh","-c","sleep 1000 & sleep 1000"]'
R create --bundle "$B" --pid-file "$T/pid4" c4 </dev/null >/dev/null 2>&1
R start c4
oci kill --all c4 KILL
assert_eq "$rc" 0 "kill --all exits 0"
wait_status c4 stopped
assert_eq "$(status_of c4)" stopped "and the container stops"
R delete c4

# --- a program that is not there: create fails, 127, saying so (as runc: podman's 127)
config '["/bin/no-such-program"]'
oci create --bundle "$B" c5
assert_eq "$rc" 127 "create of a missing program exits 127"
assert_contains "$err" "'/bin/no-such-program' does not exist in the container" "and says what is missing"
assert_eq "$([ -e "$S/c5" ] && echo left || echo gone)" gone "nothing of it is left"
config '["no-such-program"]'
oci create --bundle "$B" c5
assert_eq "$rc" 127 "so does one searched in PATH"
assert_contains "$err" "'no-such-program' not found in the container" "and says so"

# --- a program that is there but cannot run: start reports the exec's error, 126
config '["/etc"]'
oci create --bundle "$B" c5
assert_eq "$rc" 0 "create of a program that is a directory succeeds (the exec decides)"
oci start c5
assert_eq "$rc" 126 "start exits 126"
assert_contains "$err" "/etc" "with the exec's error"
wait_status c5 stopped
assert_eq "$(status_of c5)" stopped "the container is stopped"
R delete c5

# --- the five capability sets as runc gives them (issue 34): buildah's RUN gives root an
# ambient set, `runc spec` an inheritable one. Read inside after the program's exec: root keeps
# the bounding set, its inheritable set and its ambient set; a user other than root has its
# ambient set alone in effect (capabilities(7))
# capsets UID SETS_JSON: run `grep ^Cap /proc/self/status` as UID with those sets; $out, $rc
capsets() {
	config '["/bin/grep","^Cap","/proc/self/status"]'
	sed -i "s|\"user\":{\"uid\":0,\"gid\":0}|\"user\":{\"uid\":$1,\"gid\":$1}|; s|\"capabilities\":{[^}]*}|\"capabilities\":$2|" "$B/config.json"
	R create --bundle "$B" c6 >"$T/c6.out" 2>"$T/c6.err" </dev/null
	rc=$?
	[ "$rc" = 0 ] && R start c6 >/dev/null 2>>"$T/c6.err" && wait_status c6 stopped
	out=$(cat "$T/c6.out")
	R delete --force c6 >/dev/null 2>&1
}
sets='{"bounding":["CAP_KILL","CAP_CHOWN"],"effective":["CAP_KILL","CAP_CHOWN"],"permitted":["CAP_KILL","CAP_CHOWN"],"inheritable":["CAP_KILL","CAP_CHOWN"],"ambient":["CAP_CHOWN"]}'
capsets 0 "$sets"
assert_eq "$rc:$(echo $out)" "0:CapInh: 0000000000000021 CapPrm: 0000000000000021 CapEff: 0000000000000021 CapBnd: 0000000000000021 CapAmb: 0000000000000001" \
	"root with inheritable KILL, CHOWN and ambient CHOWN: runs, and keeps them through its exec" ||
	sed 's/^/#   /' "$T/c6.err"
if [ "$ROLE" = root ]; then
	capsets 1000 "$sets"
	assert_eq "$rc:$(echo $out)" "0:CapInh: 0000000000000021 CapPrm: 0000000000000001 CapEff: 0000000000000001 CapBnd: 0000000000000021 CapAmb: 0000000000000001" \
		"uid 1000 with ambient CHOWN: CHOWN alone in effect after its exec" ||
		sed 's/^/#   /' "$T/c6.err"
	# an exec that names no capabilities gets the workload's own sets, as under runc: KILL,
	# not the whole bounding set (the attacker's review found CHOWN given)
	config '["/bin/sleep","60"]'
	sed -i "s|\"user\":{\"uid\":0,\"gid\":0}|\"user\":{\"uid\":1000,\"gid\":1000}|; s|\"capabilities\":{[^}]*}|\"capabilities\":{\"bounding\":[\"CAP_KILL\",\"CAP_CHOWN\"],\"effective\":[\"CAP_KILL\"],\"permitted\":[\"CAP_KILL\"],\"inheritable\":[\"CAP_KILL\"],\"ambient\":[\"CAP_KILL\"]}|" "$B/config.json"
	R create --bundle "$B" c7 </dev/null >/dev/null 2>"$T/c7.err" && R start c7 2>>"$T/c7.err"
	oci exec c7 /bin/grep -E "^Cap(Eff|Amb)" /proc/self/status
	assert_eq "$rc:$(echo $out)" "0:CapEff: 0000000000000020 CapAmb: 0000000000000020" \
		"an exec without capabilities gets the workload's sets (KILL), not the bounding set" ||
		sed 's/^/#   /' "$T/c7.err"
	R delete --force c7 >/dev/null 2>&1
else
	skips 2 "uid 1000 is not mapped in a user's config (its own uid alone)"
fi
capsets 0 '{"bounding":["CAP_KILL"],"permitted":["CAP_KILL"],"inheritable":["CAP_KILL"],"ambient":["CAP_CHOWN"]}'
assert_eq "$rc:$([ -e "$S/c6" ] && echo left)" "125:" "an ambient capability outside the bounding set: 125, nothing left"
assert_contains "$(cat "$T/c6.err")" ".process.capabilities.ambient: has CAP_CHOWN, which is not in the bounding set" "naming the path and why"
# buildah's RUN names ambient capabilities without an inheritable set: the kernel would not raise
# them, and runc leaves them out with a warning; so does crib (the container runs)
capsets 0 '{"bounding":["CAP_KILL","CAP_CHOWN"],"effective":["CAP_KILL","CAP_CHOWN"],"permitted":["CAP_KILL","CAP_CHOWN"],"inheritable":["CAP_KILL"],"ambient":["CAP_KILL","CAP_CHOWN"]}'
assert_eq "$rc:$(echo "$out" | grep CapAmb)" "0:CapAmb:	0000000000000020" \
	"ambient CHOWN not inheritable: the container runs, CHOWN left out of the ambient set, KILL kept" ||
	sed 's/^/#   /' "$T/c6.err"

# --- a bad config.json: its JSON path, 125, nothing left behind
config '["/bin/true"]' ',"terminal":"no"'
oci --log "$T/log.json" --log-format json create --bundle "$B" c6
assert_eq "$rc" 125 "a bad config.json: create exits 125"
assert_contains "$err" "config.json: .process.terminal: must be true or false" "naming the JSON path"
assert_eq "$([ -e "$S/c6" ] && echo left || echo gone)" gone "nothing of it is left in the state directory"
assert_contains "$(cat "$T/log.json")" '{"level":"error","msg":"crib: ' "the log gets a JSON error object"
assert_contains "$(cat "$T/log.json")" '.process.terminal: must be true or false' "with the message"
sed 's/"CAP_CHOWN"\]/"CAP_CHWON"]/' "$B/config.json" | sed 's/,"terminal":"no"//' >"$T/c.json" && mv "$T/c.json" "$B/config.json"
oci create --bundle "$B" c7
assert_contains "$err" ".process.capabilities.bounding[1]: unknown capability 'CAP_CHWON'" \
	"a typo in a capability is refused, not dropped"

# --- hooks: prestart and createRuntime when the namespaces exist (crib create), poststart once
# the program runs (crib start), poststop at delete; each gets the state JSON on stdin and runs
# in the runtime's namespaces. The hook records its kind, its mount namespace, its environment
# and the state it read.
cat >"$T/hook" <<'EOF'
#!/bin/sh
st=$(cat)
echo "$1 $(readlink /proc/self/ns/mnt) ${X:-noX} $st" >>"$HOOKLOG"
[ "$1" = fail ] && exit 3
[ "$1" = slow ] && sleep 30
exit 0
EOF
chmod 755 "$T/hook"
hooks() { # hooks JSON: the config's .hooks
	config '["/bin/sh","-c","echo ran >/tmp/ran; sleep 0.3"]'
	sed "s|\"noNewPrivileges\":true}|\"noNewPrivileges\":true},\"hooks\":$1|" "$B/config.json" >"$T/c.json" && mv "$T/c.json" "$B/config.json"
}
h() { printf '{"path":"%s","args":["hook","%s"],"env":["HOOKLOG=%s"%s]%s}' "$T/hook" "$1" "$T/hooks.log" "${2:-}" "${3:-}"; }
hooks "{\"prestart\":[$(h prestart ',"X=1"')],\"createRuntime\":[$(h createRuntime)],\"poststart\":[$(h poststart)],\"poststop\":[$(h poststop)]}"
: >"$T/hooks.log"
R create --bundle "$B" --pid-file "$T/pidh" h1 </dev/null >/dev/null 2>"$T/h.err"
assert_eq "$?:$(cut -d' ' -f1 "$T/hooks.log" | tr '\n' ' ')" "0:prestart createRuntime " \
	"create runs prestart, then createRuntime" || sed 's/^/#   /' "$T/h.err"
hpid=$(cat "$T/pidh" 2>/dev/null)
assert_contains "$(sed -n 1p "$T/hooks.log")" "$(readlink /proc/self/ns/mnt) 1 {\"ociVersion\":\"1.0.2\",\"id\":\"h1\",\"pid\":$hpid,\"status\":\"creating\"" \
	"in the runtime's mount namespace, with its own environment (X=1), the state on stdin"
assert_contains "$(sed -n 2p "$T/hooks.log")" " noX " "and only its own environment (createRuntime's has no X)"
R start h1
assert_eq "$(cut -d' ' -f1 "$T/hooks.log" | tr '\n' ' ')" "prestart createRuntime poststart " "start runs poststart"
assert_contains "$(sed -n 3p "$T/hooks.log")" '"status":"running"' "which reads status running"
wait_status h1 stopped
R delete h1
assert_eq "$(cut -d' ' -f1 "$T/hooks.log" | tr '\n' ' ')" "prestart createRuntime poststart poststop " "delete runs poststop"
hooks "{\"createRuntime\":[$(h fail)]}"
oci create --bundle "$B" h2
assert_eq "$rc" 125 "a createRuntime hook that fails: create exits 125"
assert_contains "$err" "the createRuntime hook '$T/hook' failed with exit status 3" "saying which and how"
assert_eq "$([ -e "$S/h2" ] && echo left || echo gone)" gone "and nothing of the container is left"
hooks "{\"createRuntime\":[$(h slow '' ',"timeout":1')]}"
oci create --bundle "$B" h3
assert_contains "$err" "the createRuntime hook '$T/hook' did not finish within 1 s" "a hook past its timeout is killed, and create fails"
hooks "{\"poststop\":[$(h fail)]}"
R create --bundle "$B" h4 </dev/null >/dev/null 2>&1
oci delete --force h4
assert_eq "$rc" 0 "a poststop hook that fails: delete still exits 0"
assert_contains "$err" "warning: the poststop hook '$T/hook' failed with exit status 3" "with a warning"
hooks "{\"prestart\":[{\"path\":\"relative/hook\"}]}"
oci create --bundle "$B" h6
assert_contains "$err" ".hooks.prestart[0].path: 'relative/hook' is not an absolute path" "a hook path must be absolute"

# --- exec: a process in a running container (conmon and containerd's shim: --process FILE
# --detach --pid-file FILE)
config '["/bin/sh","-c","trap \"exit 0\" TERM; while :; do sleep 0.1; done"]'
R create --bundle "$B" --pid-file "$T/pid9" c9 </dev/null >/dev/null 2>&1
oci exec c9 /bin/true
assert_eq "$rc" 125 "exec into a created container (not started) is refused"
assert_contains "$err" 'container "c9" is created, not running' "saying why"
R start c9
cpid=$(cat "$T/pid9")
oci exec -e X=1 --cwd /tmp c9 /bin/sh -c 'echo $X $(pwd) $(hostname); exit 5'
assert_eq "$rc" 5 "exec ID COMMAND: the program's exit status"
assert_eq "$out" "1 /tmp ocibox" "with -e and --cwd, in the container's uts namespace"
proc() { # proc ARGS_JSON [EXTRA]: a process.json
	printf '{"args":%s,"env":["PATH=/bin:/usr/bin","ONLY=this"],"cwd":"/","user":{"uid":0,"gid":0}%s}\n' "$1" "${2:-}" >"$T/process.json"
}
proc '["/bin/sh","-c","echo $ONLY $PATH; grep -E \"^(CapEff|NoNewPrivs|Seccomp):\" /proc/self/status | tr -d \"\\t\" | tr \"\\n\" \" \""]' ',"noNewPrivileges":false'
oci exec --process "$T/process.json" c9
assert_eq "$rc" 0 "exec --process FILE exits 0"
assert_eq "$(echo $out)" "this /bin:/usr/bin CapEff:0000000000000021 NoNewPrivs:1 Seccomp:0" \
	"the environment is process.json's alone; the container's capabilities; its no_new_privs kept though process.json says false"
proc '["/bin/sh","-c","echo $$ > /tmp/inner; exec sleep 1000"]'
oci exec --process "$T/process.json" --detach --pid-file "$T/epid" c9
assert_eq "$rc" 0 "exec --detach exits 0 while the program runs"
epid=$(cat "$T/epid" 2>/dev/null)
# (exec returns once the process is on its way to the program, as runc's: sh, then sleep, a
# moment later on a busy machine)
_i=0
while [ "$(cat "/proc/$epid/comm" 2>/dev/null)" != sleep ] && [ $_i -lt 50 ]; do
	sleep 0.1
	_i=$((_i + 1))
done
assert_eq "$(cat "/proc/$epid/comm" 2>/dev/null)" sleep "the pid file names the program, running ($epid)"
assert_eq "$(readlink "/proc/$epid/ns/pid")" "$(readlink "/proc/$cpid/ns/pid")" "in the container's pid namespace"
assert_eq "$(awk '/^NSpid:/{print $NF}' "/proc/$epid/status")" "$(R exec c9 /bin/cat /tmp/inner 2>/dev/null)" \
	"the container sees it under the pid it printed"
ppid=$(awk '/^PPid:/{print $2}' "/proc/$epid/status")
assert_ne_crib=$([ "$(readlink "/proc/$ppid/exe" 2>/dev/null)" != "$CRIB" ] && [ "$ppid" != "$$" ] && echo 0 || echo 1)
ok "$assert_ne_crib" "crib exec has exited, and the program was left to be adopted (its parent: $ppid)"
kill "$epid" 2>/dev/null
# a program that exits at once: crib never reaps it (its status is the engine's), and the pid
# file is written every time (the review found 8 in 40 missing when crib reaped it first)
missing=0
i=0
while [ $i -lt 40 ]; do
	rm -f "$T/fast.pid"
	R exec --detach --pid-file "$T/fast.pid" c9 /bin/true </dev/null >/dev/null 2>&1 || missing=$((missing + 100))
	[ -s "$T/fast.pid" ] || missing=$((missing + 1))
	i=$((i + 1))
done
assert_eq "$missing" 0 "exec --detach of a program that exits at once, 40 times: always 0 and a pid file"
proc '["/bin/no-such-program"]'
oci exec --process "$T/process.json" --detach --pid-file "$T/epid2" c9
assert_eq "$rc" 127 "exec of a program that is not there: 127"
assert_contains "$err" "'/bin/no-such-program' does not exist in the container" "saying so"
assert_eq "$([ -e "$T/epid2" ] && echo written || echo none)" none "and no pid file"
proc '["/bin/true"]' ',"capabilities":{"bounding":["CAP_SYS_ADMIN"],"effective":["CAP_SYS_ADMIN"],"permitted":["CAP_SYS_ADMIN"]}'
oci exec --process "$T/process.json" c9
assert_eq "$rc" 125 "exec asking for a capability the container lacks: 125"
assert_contains "$err" "capability 21 (SYS_ADMIN) is not in the container's bounding set" "saying which"
proc '["/bin/true"]' ',"apparmorProfile":"unconfined"'
oci exec --process "$T/process.json" c9
assert_eq "$rc" 125 "exec asking for another AppArmor profile: 125"
assert_contains "$err" "AppArmor profile 'unconfined' is not the container's" "saying so"
proc '["/bin/true"]' ',"terminal":"yes"'
oci exec --process "$T/process.json" c9
assert_eq "$rc" 125 "a process.json of the wrong type: 125"
assert_contains "$err" "process.json: .terminal: must be true or false" "naming its JSON path"
R kill c9 TERM
wait_status c9 stopped
oci exec c9 /bin/true
assert_contains "$err" 'container "c9" is stopped, not running' "exec into a stopped container is refused"
R delete c9

# --- pause and resume: the cgroup v2 freezer on the container's own cgroup (as root crib makes
# one for the device program; a user's container without limits has none, and pause says so)
# (the counter renamed into place: a read between echo's truncation and its write saw an empty
# file, which ended the armhf guest's wait for the count to move at once)
config '["/bin/sh","-c","i=0; while :; do i=$((i+1)); echo $i > /tmp/tick.new; mv /tmp/tick.new /tmp/tick; sleep 0.1; done"]'
R create --bundle "$B" --pid-file "$T/pidp" p1 </dev/null >/dev/null 2>&1
R start p1
ppid=$(cat "$T/pidp")
tick() { cat "/proc/$ppid/root/tmp/tick" 2>/dev/null; }
# (until the program has counted: on a busy machine its start takes a while)
_i=0
while [ -z "$(tick)" ] && [ $_i -lt 50 ]; do
	sleep 0.1
	_i=$((_i + 1))
done
oci pause p1
if [ "$rc" = 0 ] || [ "$ROLE" = root ]; then
	assert_eq "$rc" 0 "pause exits 0"
	assert_eq "$(status_of p1)" paused "state says paused"
	a=$(tick)
	sleep 0.5
	assert_eq "$(tick)" "$a" "the program is frozen (its counter stays at $a)"
	oci exec p1 /bin/true
	assert_contains "$err" 'container "p1" is paused, not running' "exec into a paused container is refused"
	oci resume p1
	assert_eq "$rc:$(status_of p1)" "0:running" "resume exits 0, and state says running"
	# (polled, at most 10 s: an emulated ARM guest beside another may take longer than 0.5 s
	# to fork the program's next sleep)
	_i=0
	while [ "$(tick)" -le "$a" ] 2>/dev/null && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	ok "$([ "$(tick)" -gt "$a" ] && echo 0 || echo 1)" "the program goes on (its counter moved past $a)"
	oci resume p1
	assert_contains "$err" 'container "p1" is running, not paused' "resume of a running container is refused"
else
	assert_eq "$rc" 125 "pause of a container without a cgroup of its own: 125"
	assert_contains "$err" 'has no cgroup v2 of its own to freeze' "saying why"
	assert_eq "$(status_of p1)" running "and it keeps running"
	skips 4 "this user's container has no cgroup of its own here (no limits, no delegated subtree)"
fi
if [ "$ROLE" = root ]; then
	oci pause p1
	oci delete p1
	assert_contains "$err" 'container "p1" is paused' "delete without --force refuses a paused container"
	R resume p1
else
	skip "no paused container as a user here"
fi
R delete --force p1

# --- cgroupsPath: the container's cgroup where the engine asks (containerd's /NAMESPACE/ID, the
# kubelet's pod cgroups), read from the host: /proc/PID/cgroup, and the cgroup gone after delete
# (its parents are the engine's and stay). Where crib cannot put it there (no cgroup v2 here,
# or a path a user may not make cgroups in) the container runs, and the log says why. A path
# with '..' is refused with its JSON path.
cg2=$(sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup2 .*/\1/p' /proc/self/mountinfo | head -n 1)
cgp="/crib-e2e-$$"
config '["/bin/sleep","1000"]'
sed "s|\"linux\":{|\"linux\":{\"cgroupsPath\":\"$cgp/c1\",|" "$B/config.json" >"$T/c.json" &&
	mv "$T/c.json" "$B/config.json"
"$T/crib-runc" --root "$S" --log "$T/cg.log" create --bundle "$B" --pid-file "$T/pidc" cg1 </dev/null >/dev/null 2>"$T/cg.err"
rc=$?
R start cg1 2>/dev/null
cgline=$(sed -n 's/^0:://p' "/proc/$(cat "$T/pidc" 2>/dev/null)/cgroup" 2>/dev/null)
if [ "$ROLE" = root ] && [ -n "$cg2" ] && [ -w "$cg2" ]; then
	assert_eq "$rc:$cgline" "0:$cgp/c1/container" "cgroupsPath '$cgp/c1': the workload's cgroup, read from the host" ||
		sed 's/^/#   /' "$T/cg.err" "$T/cg.log"
	"$T/crib-runc" --root "$S" create --bundle "$B" --pid-file "$T/pidc2" cg2 </dev/null >/dev/null 2>"$T/cg2.err"
	assert_contains "$?:$(cat "$T/cg2.err")" "125:crib: the cgroup '$cg2$cgp/c1' exists, and is another container's" \
		"a second container given the same running cgroupsPath is refused"
	R delete --force cg2 >/dev/null 2>&1
	assert_eq "$(status_of cg1):$(sed -n 's/^0:://p' "/proc/$(cat "$T/pidc")/cgroup" 2>/dev/null)" "running:$cgp/c1/container" \
		"and the refusal leaves the first container and its cgroup alone"
	# inside another container's cgroup, or below a cgroup another user owns: refused
	sed "s|\"cgroupsPath\":\"$cgp/c1\"|\"cgroupsPath\":\"$cgp/c1/in\"|" "$B/config.json" >"$T/in.json"
	mkdir -p "$T/bin" && cp "$T/in.json" "$T/bin/config.json" && ln -sf "$ROOTFS" "$T/bin/rootfs"
	oci create --bundle "$T/bin" --pid-file "$T/pidc3" cg5
	assert_contains "$rc:$err" "125:crib: the cgroup '$cg2$cgp/c1' is another container's" \
		"a cgroupsPath inside another container's cgroup is refused"
	R delete --force cg5 >/dev/null 2>&1
	mkdir -p "$cg2$cgp-u" && chown 1000 "$cg2$cgp-u"
	sed "s|\"cgroupsPath\":\"$cgp/c1\"|\"cgroupsPath\":\"$cgp-u/c6\"|" "$B/config.json" >"$T/bin/config.json"
	oci create --bundle "$T/bin" --pid-file "$T/pidc3" cg6
	assert_contains "$rc:$err" "125:crib: the cgroup '$cg2$cgp-u' is uid 1000's" \
		"a root container's cgroupsPath below a cgroup a user owns is refused"
	R delete --force cg6 >/dev/null 2>&1
	rmdir "$cg2$cgp-u" 2>/dev/null
	# an engine's own cgroup, made before create (podman's and systemd's are): a create that
	# fails (its program is missing) removes what crib made in it, never that cgroup
	mkdir -p "$cg2$cgp/pre"
	sed -e "s|\"cgroupsPath\":\"$cgp/c1\"|\"cgroupsPath\":\"$cgp/pre\"|" \
		-e 's|"args":\[[^]]*\]|"args":["/no/such/program"]|' "$B/config.json" >"$T/bin/config.json"
	oci create --bundle "$T/bin" --pid-file "$T/pidc3" cg7
	assert_eq "$rc:$([ -d "$cg2$cgp/pre" ] && echo kept || echo gone):$([ -d "$cg2$cgp/pre/container" ] && echo left || echo gone)" \
		"127:kept:gone" "a create that fails on an engine's existing cgroupsPath leaves that cgroup, and removes what crib made in it"
	R delete --force cg7 >/dev/null 2>&1
	rmdir "$cg2$cgp/pre" 2>/dev/null
	R delete --force cg1
	assert_eq "$([ -d "$cg2$cgp/c1" ] && echo left || echo gone):$([ -d "$cg2$cgp" ] && echo kept)" "gone:kept" \
		"delete removes the container's cgroup, not the engine's above it"
	rmdir "$cg2$cgp" 2>/dev/null
else
	why="no cgroup v2 hierarchy"
	[ -n "$cg2" ] && why="not below the cgroup this user may make cgroups in"
	[ "$ROLE" = root ] || [ -z "$cg2" ] || why="not where the engine asked"
	assert_eq "$rc:$([ -n "$cgline" ] && echo running)" "0:running" "cgroupsPath where crib cannot honour it: the container runs"
	assert_contains "$(cat "$T/cg.log")" "not where the engine asked (cgroupsPath '$cgp/c1'): " "and the log says why"
	if [ "$ROLE" = root ]; then
		skips 5 "a second container on the same cgroupsPath, one inside it, one below a user's cgroup, a failed create on an engine's cgroup: none honoured here (the VM guests test them)"
	else
		skips 5 "a second container on the same cgroupsPath, one inside it, one below a user's cgroup, a failed create on an engine's cgroup: root's absolute paths, tested as root"
	fi
	R delete --force cg1
	skip "the cgroup removed by delete: none made here (the VM guests test it)"
fi
# a user's: relative, below the parent of crib's own cgroup, where a delegated subtree lets the
# user make cgroups (the VM guests delegate one)
own=$(sed -n 's/^0:://p' /proc/self/cgroup)
if [ "$ROLE" = user ] && [ -n "$cg2" ] && [ -w "$cg2${own%/*}" ]; then
	sed "s|\"cgroupsPath\":\"$cgp/c1\"|\"cgroupsPath\":\"crib-e2e-$$/c4\"|" "$B/config.json" >"$T/c.json" &&
		mv "$T/c.json" "$B/config.json"
	oci create --bundle "$B" --pid-file "$T/pidc" cg4
	R start cg4 2>/dev/null
	assert_eq "$rc:$(sed -n 's/^0:://p' "/proc/$(cat "$T/pidc" 2>/dev/null)/cgroup" 2>/dev/null)" "0:${own%/*}/crib-e2e-$$/c4/container" \
		"a user's relative cgroupsPath: below the parent of its own cgroup, read from the host"
	R delete --force cg4
	assert_eq "$([ -d "$cg2${own%/*}/crib-e2e-$$/c4" ] && echo left || echo gone)" gone "and delete removes it"
	rmdir "$cg2${own%/*}/crib-e2e-$$" 2>/dev/null
	sed "s|\"cgroupsPath\":\"crib-e2e-$$/c4\"|\"cgroupsPath\":\"$cgp/c1\"|" "$B/config.json" >"$T/c.json" &&
		mv "$T/c.json" "$B/config.json"
else
	skips 2 "no cgroup this user may make cgroups in here (as root: its paths are above; the VM guests delegate one to the user)"
fi
sed "s|\"cgroupsPath\":\"$cgp/c1\"|\"cgroupsPath\":\"$cgp/../escape\"|" "$B/config.json" >"$T/c.json" &&
	mv "$T/c.json" "$B/config.json"
oci create --bundle "$B" --pid-file "$T/pidc" cg3
assert_contains "$rc:$err" "125:crib: $B/config.json: .linux.cgroupsPath: '$cgp/../escape' has a '.' or '..' component" \
	"a cgroupsPath with '..' is refused (125), naming its JSON path"
R delete --force cg3 >/dev/null 2>&1

# --- update: new limits for the container's cgroup, as containerd's shim (--resources -, the
# JSON on stdin) and podman (--resources FILE) send them: only what it names changes, -1 lifts
# a limit; read from the host's cgroup files, the leaf's and the copy the processes' cgroup has
config '["/bin/sleep","1000"]'
sed 's/"linux":{/"linux":{"resources":{"pids":{"limit":50}},/' "$B/config.json" >"$T/c.json" &&
	mv "$T/c.json" "$B/config.json"
printf '{"pids":{"limit":-1},"memory":{}}' >"$T/res.json"
oci create --bundle "$B" --pid-file "$T/pidu" u1
if [ "$rc" = 0 ]; then
	R start u1
	# the cgroup2 mount from mountinfo (field 5; the VM guests have no findmnt)
	cg2=$(sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup2 .*/\1/p' /proc/self/mountinfo | head -n 1)
	inner=$cg2$(sed -n 's/^0:://p' "/proc/$(cat "$T/pidu")/cgroup")
	assert_eq "$(cat "$inner/../pids.max" "$inner/pids.max" 2>&1 | tr '\n' ' ')" "50 50 " \
		"create: pids.max 50 on the container's cgroup and its copy"
	echo '{"pids":{"limit":100}}' | R update --resources - u1 2>"$T/e"
	assert_eq "$?:$(cat "$inner/../pids.max" "$inner/pids.max" 2>&1 | tr '\n' ' ')" "0:100 100 " \
		"update --resources - (stdin): pids.max 100 on both" || sed 's/^/#   /' "$T/e"
	oci update --resources "$T/res.json" u1
	assert_eq "$rc:$(cat "$inner/../pids.max" "$inner/pids.max" 2>&1 | tr '\n' ' ')" "0:max max " \
		"update --resources FILE with limit -1: the limit lifted" || echo "#   $err"
	echo '{"pids":{"limit":"10"}}' | R update --resources - u1 2>"$T/e"
	assert_eq "$?:$(cat "$inner/../pids.max")" "125:max" "a wrong type is refused (125), the limit unchanged"
	assert_contains "$(cat "$T/e")" "stdin: .pids.limit: must be a number" "naming its JSON path"
else
	# this host cannot apply limits: create refused them, saying why; without them, update
	# refuses too, with the reason (root's container has a cgroup, a user's none here)
	assert_contains "$err" "cannot be applied" "create with limits this host cannot apply: refused, saying why"
	config '["/bin/sleep","1000"]'
	R create --bundle "$B" --pid-file "$T/pidu" u1 </dev/null >/dev/null 2>&1
	R start u1
	echo '{"pids":{"limit":100}}' | R update --resources - u1 2>"$T/e"
	rc=$?
	err=$(cat "$T/e")
	why="the pids limits cannot be applied"
	[ "$ROLE" = root ] || why="has no cgroup v2 of its own"
	assert_eq "$rc" 125 "update where the limits cannot be applied: 125"
	assert_contains "$err" "$why" "saying why"
	skips 2 "this host's cgroup v2 cannot take the limits ($(echo "$err" | head -n 1)); the VM guests test them"
fi
oci update --memory 10m u1
assert_contains "$rc:$err" "125:crib: update: '--memory' is not supported by crib" "update's single-limit flags are refused, never ignored"
oci update --resources "$T/res.json" no-such
assert_contains "$rc:$err" 'container "no-such" does not exist' "update of an unknown container"
R delete --force u1

# --- a workload that hides processes in a cgroup of its own named ".h", or "..h", which every
# rule that reads a cgroup path refuses (it has SYS_ADMIN and a cgroup namespace, and no pid
# namespace): ps lists them, kill --all and delete end them (the leaf is create's, not theirs)
if [ "$ROLE" = root ]; then
	config '["/bin/sh","-c","mkdir -p /tmp/cg && mount -t cgroup2 none /tmp/cg && mkdir /tmp/cg/.h && (sh -c \"echo \\$\\$ > /tmp/cg/.h/cgroup.procs; exec sleep 1001\" &) ; (sleep 1002 &) ; while :; do sleep 1; done"]'
	sed -e 's/"CAP_KILL","CAP_CHOWN"/"CAP_KILL","CAP_CHOWN","CAP_SYS_ADMIN"/g' \
		-e 's/{"type":"pid"},//' -e 's/{"type":"network"}/{"type":"network"},{"type":"cgroup"}/' \
		-e 's/"maskedPaths"/"readonlyPaths_":[],"maskedPaths"/' "$B/config.json" >"$T/c.json" && mv "$T/c.json" "$B/config.json"
	R create --bundle "$B" hid </dev/null >/dev/null 2>"$T/hid.err"
	R start hid
	sleep 1
	hidden=$(pgrep -f '^sleep 1001$')
	visible=$(pgrep -f '^sleep 1002$')
	assert_contains "$(R ps --format json hid 2>&1)" "$hidden" "ps lists a process in the workload's own cgroup '.h' ($hidden)" ||
		sed 's/^/#   /' "$T/hid.err"
	R kill --all hid TERM
	sleep 0.5
	assert_eq "$(pgrep -f '^sleep 100[12]$' | tr '\n' ' ')" "" "kill --all TERM reaches it too (the cgroup frozen meanwhile)"
	R kill hid KILL 2>/dev/null
	wait_status hid stopped
	R delete hid
	config '["/bin/sh","-c","mkdir -p /tmp/cg && mount -t cgroup2 none /tmp/cg && mkdir /tmp/cg/..h && (sh -c \"echo \\$\\$ > /tmp/cg/..h/cgroup.procs; exec sleep 1003\" &) ; while :; do sleep 1; done"]'
	sed -e 's/"CAP_KILL","CAP_CHOWN"/"CAP_KILL","CAP_CHOWN","CAP_SYS_ADMIN"/g' \
		-e 's/{"type":"pid"},//' -e 's/{"type":"network"}/{"type":"network"},{"type":"cgroup"}/' "$B/config.json" >"$T/c.json" && mv "$T/c.json" "$B/config.json"
	R create --bundle "$B" hid2 </dev/null >/dev/null 2>&1
	R start hid2
	sleep 1
	R delete --force hid2
	sleep 0.3
	assert_eq "$(pgrep -f '^sleep 1003$')" "" "delete --force ends what hid in '..h' (cgroup.kill: a name no path rule accepts), not only what ps found"
else
	skips 3 "the hidden-cgroup workload needs real root's cgroup of its own (a user's container has none here)"
fi

# --- features: what crib takes, as runc's JSON (containerd reads it), each list checked
# against what create accepts (read with sed: the VM guests have no python)
oci features
feat=$out
# flist KEY: the strings of the list KEY, one a line (crib prints one item a line)
flist() { printf '%s\n' "$feat" | sed -n "/\"$1\":\[/,/\]/p" | sed '1d;$d' | tr -d ' ",'; }
assert_eq "$rc:$(printf '%s\n' "$feat" | grep -c -e '"ociVersionMin":"1.0.0"' -e '"ociVersionMax":"1.0.2"' -e '"v2":true'):$(flist hooks | tr '\n' ' ')" \
	"0:3:prestart createRuntime createContainer startContainer poststart poststop " "features: the spec versions, cgroup v2, the hooks crib runs (every kind)"
# every capability it lists, in a bounding set create takes, and every namespace it lists, in
# one config (as root with a user namespace too: a container of host root may have only the
# capabilities crib's own bounding set has, which a sandbox may lack)
fcaps=$(flist capabilities | sed 's/.*/"&"/' | tr '\n' ',' | sed 's/,$//')
fns=$(flist namespaces | sed 's/.*/{"type":"&"}/' | tr '\n' ',' | sed 's/,$//')
config '["/bin/true"]'
sed -i "s|\"capabilities\":{[^}]*}|\"capabilities\":{\"bounding\":[$fcaps]}|; s|\"namespaces\":\[[^]]*\]|\"namespaces\":[$fns]|" "$B/config.json"
[ "$ROLE" = root ] &&
	sed -i "s|\"namespaces\":\[[^]]*\]|&,\"uidMappings\":[{\"containerID\":0,\"hostID\":300000,\"size\":65536}],\"gidMappings\":[{\"containerID\":0,\"hostID\":300000,\"size\":65536}]|" "$B/config.json"
oci create --bundle "$B" f1
assert_eq "$rc:$(flist capabilities | wc -l):$(flist namespaces | wc -l)" "0:$(flist capabilities | grep -c '^CAP_'):7" \
	"every capability and every namespace features lists, create takes ($fns)" ||
	echo "$err" | sed 's/^/#   /'
R delete --force f1 >/dev/null 2>&1
# each hook kind it lists is one create takes (25-oci-hooks.t runs the ones inside the container)
for k in $(flist hooks); do
	config '["/bin/true"]'
	sed -i "s|^ \"hostname\"| \"hooks\":{\"$k\":[{\"path\":\"/bin/true\"}]},\n \"hostname\"|" "$B/config.json"
	oci create --bundle "$B" f2
	echo "$k $rc"
	R delete --force f2 >/dev/null 2>&1
done >"$T/hooks.rc"
assert_eq "$(tr '\n' ' ' <"$T/hooks.rc")" "prestart 0 createRuntime 0 createContainer 0 startContainer 0 poststart 0 poststop 0 " \
	"each hook kind features lists is one create takes"

# --- unsupported commands say so
oci checkpoint c1
assert_contains "$err" "not supported by crib's OCI runtime yet" "checkpoint says it is not supported yet"

assert_eq "$(ls "$S" | grep -v '^_' | tr '\n' ' ')" "" "no container is left in the state directory"

# --- podman with crib as its runtime, as root and rootless: an image imported from the test
# rootfs. Rootless podman runs crib as root of its own user namespace, with no user namespace
# in the config: crib keeps its state in XDG_RUNTIME_DIR/crib then, as runc does.
# podman refuses a runroot path over 50 characters
PR=$(mktemp -d /tmp/crib-pod.XXXXXX)
if [ "$ROLE" = user ]; then
	export XDG_RUNTIME_DIR="$PR/xdg"
	mkdir -m 0700 "$XDG_RUNTIME_DIR"
	crib_state="$XDG_RUNTIME_DIR/crib"
else
	crib_state=/run/crib
fi
if ! command -v podman >/dev/null 2>&1; then
	skips 21 "podman is not installed"
elif [ "$ROLE" = user ] && ! podman --root "$PR/s" --runroot "$PR/r" unshare true 2>/dev/null; then
	skips 21 "rootless podman cannot make its user namespace here (newuidmap, /etc/subuid)"
else
	P="$T/podman"
	mkdir -p "$P"
	# a podman of the test's own: its storage, state and containers.conf in $T
	cat >"$P/containers.conf" <<EOF
[engine]
runtime = "crib"
[engine.runtimes]
crib = ["$T/crib-runc"]
EOF
	# podman's cgroupfs parent (each container's cgroupsPath is /libpod_parent/libpod-ID):
	# crib removes the container's cgroup, the engine's parent stays, and goes at the end
	lp_before=$([ -n "$cg2" ] && [ -d "$cg2/libpod_parent" ] && echo kept)
	# (and the empty cgroup podman makes to probe cgroup v2 for --memory)
	pp_before=$([ -n "$cg2" ] && [ -d "$cg2/podman_probe" ] && echo kept)
	pod() {
		CONTAINERS_CONF="$P/containers.conf" timeout -k 10 60 podman --root "$P/storage" \
			--runroot "$PR/r" --runtime "$T/crib-runc" --cgroup-manager cgroupfs \
			--events-backend none "$@"
	}
	# podman's default pids limit needs the pids controller on cgroup v2 (not on a hybrid
	# host), and its default rlimits may be above the test's own
	lim="--network none --pids-limit 0 --ulimit nofile=1024:1024 --ulimit nproc=1024:1024"
	# (as a user, what it cannot read stays out: /root)
	tar -C "$ROOTFS" -cf "$P/rootfs.tar" . 2>/dev/null
	pod import "$P/rootfs.tar" localhost/crib-test:25 >/dev/null 2>&1
	pout=$(pod run --rm $lim localhost/crib-test:25 /bin/sh -c 'echo hello from podman; exit 7' 2>"$T/p.err")
	prc=$?
	assert_eq "$pout" "hello from podman" "podman run --rm: the program's output" ||
		sed 's/^/#   /' "$T/p.err"
	assert_eq "$prc" 7 "and its exit status"
	pout=$(pod run --rm $lim localhost/crib-test:25 /bin/no-such-program 2>&1)
	prc=$?
	assert_eq "$prc" 127 "a missing program: podman exits 127"
	assert_contains "$pout" "does not exist" "saying so"
	# podman's seccomp profile (in config.json) goes through crib's compiler; without one, none
	pout=$(pod run --rm $lim localhost/crib-test:25 /bin/grep Seccomp: /proc/self/status 2>/dev/null)
	assert_eq "$(echo $pout)" "Seccomp: 2" "podman's seccomp profile is loaded (a filter, mode 2)"
	pout=$(pod run --rm $lim --security-opt seccomp=unconfined localhost/crib-test:25 /bin/grep Seccomp: /proc/self/status 2>/dev/null)
	assert_eq "$(echo $pout)" "Seccomp: 0" "and seccomp=unconfined gives none"
	pout=$(pod run --rm $lim --cap-add SYS_NICE localhost/crib-test:25 /bin/grep CapEff /proc/self/status 2>/dev/null)
	assert_eq "$(echo $pout)" "CapEff: 00000000a88425fb" "podman run --cap-add SYS_NICE: podman's default set and SYS_NICE (bit 23)"
	pout=$(pod run --rm $lim --cap-drop ALL --cap-add KILL localhost/crib-test:25 /bin/grep CapEff /proc/self/status 2>/dev/null)
	assert_eq "$(echo $pout)" "CapEff: 0000000000000020" "podman run --cap-drop ALL --cap-add KILL: KILL alone"
	pout=$(pod run --rm $lim --read-only localhost/crib-test:25 /bin/sh -c 'touch /x 2>/dev/null; echo root=$?; touch /tmp/y; echo tmp=$?' 2>/dev/null)
	assert_eq "$(echo $pout)" "root=1 tmp=0" "podman run --read-only: the root is read-only, podman's /tmp tmpfs is not"
	# --memory: the limit on the container's cgroup, read from the host; where crib cannot
	# apply it (the memory controller on cgroup v1), refused with the reason, never dropped
	mid=$(pod run -d $lim --name crib-mem --memory 64m localhost/crib-test:25 /bin/sleep 100 2>"$T/m.err")
	prc=$?
	if grep -q "not supported and ignored" "$T/m.err"; then
		skip "rootless podman ignores --memory on this host ($(head -n 1 "$T/m.err"))"
	elif [ "$prc" = 0 ]; then
		mpid=$(pod inspect --format '{{.State.Pid}}' "$mid" 2>/dev/null)
		assert_eq "$(cat "$cg2$(sed -n 's/^0:://p' "/proc/$mpid/cgroup")/memory.max" 2>/dev/null)" 67108864 \
			"podman run --memory 64m: memory.max of the container's cgroup, read from the host"
	else
		assert_contains "$(cat "$T/m.err")" "the memory controller" "podman run --memory 64m where the memory controller is not crib's to use: refused, saying why"
	fi
	pod rm -f crib-mem >/dev/null 2>&1
	pout=$(pod run --rm -t $lim localhost/crib-test:25 /bin/sh -c tty </dev/null 2>/dev/null | tr -d '\r')
	assert_eq "$pout" /dev/pts/0 "podman run -t: a terminal, through the console socket"
	id=$(pod run -d $lim localhost/crib-test:25 /bin/sleep 1000 2>"$T/p.err")
	assert_eq "$(pod ps --format '{{.ID}} {{.Status}}' | grep -c "^$(echo "$id" | cut -c1-12) Up")" 1 \
		"podman run -d: the container is up"
	pout=$(pod exec "$id" /bin/sh -c 'echo in $(hostname); exit 4' 2>"$T/p.err")
	prc=$?
	assert_eq "$pout:$prc" "in $(echo "$id" | cut -c1-12):4" "podman exec: the output and exit status of a program in the container" ||
		sed 's/^/#   /' "$T/p.err"
	# (the program outlives its output a little: once, on a host busy building a kernel,
	# podman printed nothing of a terminal program that exited at once)
	pout=$(pod exec -t "$id" /bin/sh -c 'tty; sleep 0.3' </dev/null 2>"$T/p.err" | tr -d '\r')
	assert_eq "$(echo "$pout" | grep -cE '^/dev/pts/[0-9]+$')" 1 "podman exec -t: a terminal of the container's devpts, through the console socket ($pout)" ||
		sed 's/^/#   /' "$T/p.err"
	pout=$(pod exec "$id" /bin/no-such-program 2>&1)
	prc=$?
	assert_eq "$prc" 127 "podman exec of a missing program: 127"
	assert_contains "$pout" "does not exist" "saying so"
	pout=$(pod exec -u 1000:1000 "$id" /bin/grep -E '^(Uid|CapEff):' /proc/self/status 2>&1 | tr -s ' \t' ' ')
	assert_eq "$(echo $pout)" "Uid: 1000 1000 1000 1000 CapEff: 0000000000000000" \
		"podman exec -u 1000:1000: that user, with no capability in effect (as under runc)"
	pout=$(pod run --rm $lim -u 1000:1000 localhost/crib-test:25 /bin/grep -E '^(Uid|CapEff):' /proc/self/status 2>/dev/null | tr -s ' \t' ' ')
	assert_eq "$(echo $pout)" "Uid: 1000 1000 1000 1000 CapEff: 0000000000000000" \
		"podman run -u 1000:1000: the same"
	pod stop -t 1 "$id" >/dev/null 2>&1
	assert_eq "$(pod ps -a --format '{{.ID}} {{.Status}}' | grep "^$(echo "$id" | cut -c1-12)" | cut -d' ' -f2-3)" \
		"Exited (137)" "podman stop: it exited (SIGKILL after the timeout: sleep ignores SIGTERM as pid 1)"
	pod rm "$id" >/dev/null 2>&1
	assert_eq "$(pod ps -a -q | wc -l)" 0 "podman rm: no container is left"
	assert_eq "$(ls "$crib_state" 2>/dev/null | grep -c "^$id$")" 0 \
		"nor anything of it in crib's state directory"
	pod rmi -a -f >/dev/null 2>&1
	[ -n "$cg2" ] && [ -z "$lp_before" ] && rmdir "$cg2/libpod_parent/conmon" "$cg2/libpod_parent" 2>/dev/null
	[ -n "$cg2" ] && [ -z "$pp_before" ] && rmdir "$cg2/podman_probe" 2>/dev/null
	# its storage holds files of the user namespace's ids: removed from inside it
	[ "$ROLE" = user ] && podman --root "$P/storage" --runroot "$PR/r" unshare rm -rf "$P/storage" "$PR/s" 2>/dev/null
fi
# rootless podman's pause process (it holds the user namespace), started for this test: last
pause=$(cat "$PR/xdg/libpod/tmp/pause.pid" 2>/dev/null)
[ -n "$pause" ] && kill "$pause" 2>/dev/null
rm -rf "$PR" 2>/dev/null

done_testing
