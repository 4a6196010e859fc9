#!/bin/sh
# crib-runc run and spec (issue 34): run is create + start, then it waits for the container as
# its parent and exits with the workload's status (128 + N for signal N), passing on the
# signals it gets, and deletes it (unless --keep); run -d returns once it runs. spec writes a
# config.json that run takes as it is (--rootless: a user's), never over one. Read from the
# host: the exit statuses, what the workload wrote to a bind-mounted directory, the state
# root, the container's cgroup and the mount table.
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/oci.sh"

O="$T/tmp" # bind-mounted at /tmp in the container
mkdir -p "$B" "$O"
chmod 1777 "$O"
listed() { R list --quiet 2>/dev/null | tr '\n' ' '; }

# config ARGS_JSON [EXTRA_PROCESS_JSON]: the bundle's config.json, $O bound at /tmp. As root no
# user namespace (the engines' default); as a user, one mapping the caller's own ids.
config() {
	oci_ns
	maps=${idmaps:+,$idmaps}
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":$1,"cwd":"/","env":["PATH=/bin:/usr/bin"],"user":{"uid":0,"gid":0}${2:-},
   "capabilities":{"bounding":["CAP_KILL"],"effective":["CAP_KILL"],"permitted":["CAP_KILL"]},
   "noNewPrivileges":true},
 "hostname":"runbox",
 "mounts":[{"destination":"/proc","type":"proc","source":"proc"},
   {"destination":"/dev","type":"tmpfs","source":"tmpfs","options":["nosuid","mode=755"]},
   {"destination":"/tmp","type":"bind","source":"$O","options":["rbind","nosuid","nodev"]}],
 "linux":{"namespaces":[$ns]$maps}}
EOF
}

cg2=$(sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup2 .*/\1/p' /proc/self/mountinfo | head -n 1)
own_cg=$(sed -n 's/^0:://p' /proc/self/cgroup)

# --- run: the workload's status, its stdout to the caller, nothing left after it
config '["/bin/sh","-c","echo out of $(hostname); sed -n s/^0:://p /proc/self/cgroup >/tmp/cg; exit 7"]'
mounts_before=$(host_mounts)
oci run --bundle "$B" r1
assert_eq "$rc" 7 "run exits with the workload's status (exit 7)" || sed 's/^/#   /' "$T/.stderr"
assert_eq "$out" "out of runbox" "its stdout reaches run's caller"
assert_eq "$err" "" "and run says nothing"
assert_eq "$(listed)" "" "it is gone from list afterwards"
assert_eq "$([ -e "$S/r1" ] && echo left || echo gone)" gone "its state directory is gone"
cg=$(cat "$O/cg" 2>/dev/null)
if [ -n "$cg2" ] && [ -n "$cg" ] && [ "$cg" != "$own_cg" ]; then
	assert_eq "$([ -d "$cg2$cg" ] && echo left || echo gone)" gone "its cgroup '$cg' is removed"
else
	skip "the container had no cgroup of its own here ('$cg')"
fi
assert_eq "$(host_mounts)" "$mounts_before" "no mount is left on the host"

# --- killed by a signal: 128 + N; a kill from outside while run waits
config '["/bin/sh","-c","echo $$ >/tmp/r2; exec sleep 1000"]'
"$T/crib-runc" --root "$S" run --bundle "$B" r2 </dev/null >/dev/null 2>"$T/r2.err" &
rpid=$!
wait_for "$O/r2" 100
wait_status r2 running
assert_eq "$(status_of r2)" running "state says running while run waits"
R kill r2 KILL
wait "$rpid"
assert_eq "$?" 137 "run of a workload killed by SIGKILL exits 137" || sed 's/^/#   /' "$T/r2.err"
assert_eq "$(listed)" "" "and it is deleted"

# --- SIGTERM to a waiting run reaches the workload (it traps TERM: as runc, pid 1 of its pid
# namespace gets a signal it has a handler for)
rm -f "$O/ready" "$O/got"
config '["/bin/sh","-c","trap \"echo TERM >/tmp/got; exit 3\" TERM; echo 1 >/tmp/ready; while :; do sleep 0.1; done"]'
"$T/crib-runc" --root "$S" run --bundle "$B" r3 </dev/null >/dev/null 2>"$T/r3.err" &
rpid=$!
wait_for "$O/ready" 100
kill -TERM "$rpid"
wait "$rpid"
assert_eq "$?:$(cat "$O/got" 2>/dev/null)" "3:TERM" \
	"SIGTERM to run is passed on: the workload's trap ran, and run exits with its status 3" ||
	sed 's/^/#   /' "$T/r3.err"

# --- run -d: create + start, returns once it runs; then state, kill, delete
config '["/bin/sleep","1000"]'
oci run -d --bundle "$B" --pid-file "$T/r4.pid" r4
assert_eq "$rc" 0 "run -d exits 0"
assert_eq "$(status_of r4)" running "state says running"
pid=$(cat "$T/r4.pid" 2>/dev/null)
assert_eq "$(awk '/^NSpid:/{print $NF}' "/proc/$pid/status" 2>/dev/null)" 1 \
	"the pid file names the container's pid 1 ($pid)"
oci kill r4 KILL
wait_status r4 stopped
assert_eq "$rc:$(status_of r4)" "0:stopped" "kill stops it"
oci delete r4
assert_eq "$rc:$(listed)" "0:" "delete removes it"

# --- --keep: left stopped, for state and delete
config '["/bin/sh","-c","exit 4"]'
oci run --keep --bundle "$B" r5
assert_eq "$rc:$(status_of r5)" "4:stopped" "run --keep exits with the status and leaves it stopped"
oci delete r5
assert_eq "$rc:$(listed)" "0:" "which delete removes"

# --- failures: a program that is not there (127), a bad config (125 and its JSON path), a
# terminal with --detach and no console socket; none leaves a container
config '["/bin/no-such-program"]'
oci run --bundle "$B" r6
assert_eq "$rc" 127 "run of a missing program exits 127"
assert_contains "$err" "'/bin/no-such-program' does not exist in the container" "saying so"
config '["/bin/true"]' ',"terminal":"yes"'
oci run --bundle "$B" r7
assert_eq "$rc" 125 "run of a bad config exits 125"
assert_contains "$err" "config.json: .process.terminal: " "naming the JSON path"
config '["/bin/true"]' ',"terminal":true'
oci run -d --bundle "$B" r8
assert_eq "$rc" 125 "run -d with a terminal and no --console-socket exits 125"
assert_contains "$err" ".process.terminal: a terminal needs --console-socket" "naming .process.terminal"
assert_eq "$(listed)" "" "no failed run leaves a container"
oci run --bundle "$B" r1 extra
assert_eq "$rc" 125 "run with two ids is a usage error"
oci checkpoint r1
assert_contains "$rc:$err" "125:crib: 'checkpoint' is not supported by crib's OCI runtime yet" \
	"checkpoint is still refused, saying so"

# --- spec: a config run takes as it is, with a terminal (relayed: its stdin is a file here)
SB="$T/specbundle"
mkdir -p "$SB"
ln -s "$ROOTFS" "$SB/rootfs"
if [ "$ROLE" = root ]; then
	oci spec --bundle "$SB"
else
	oci spec --rootless --bundle "$SB"
fi
assert_eq "$rc:$err" "0:" "spec$([ "$ROLE" = root ] || echo ' --rootless') writes config.json"
assert_contains "$(tr -d ' \n' <"$SB/config.json")" '"terminal":true' "with a terminal, as runc's"
printf '%s\n' 'echo "in $(hostname) as $(id -u): $(cat /proc/self/uid_map)"' 'exit 5' >"$T/typed"
timeout 60 "$T/crib-runc" --root "$S" run --bundle "$SB" s1 <"$T/typed" >"$T/s1.out" 2>"$T/s1.err"
rc=$?
if [ "$ROLE" = root ]; then
	want="in crib as 0: 0 0 4294967295"
else
	want="in crib as 0: 0 $(id -u) 1"
fi
assert_eq "$rc" 5 "run of spec's config exits with the shell's status" || sed 's/^/#   /' "$T/s1.err"
assert_eq "$(tr -d '\r' <"$T/s1.out" | grep '^in crib' | tr -s ' ')" "$want" \
	"the shell ran on the relayed terminal$([ "$ROLE" = root ] || echo ', its root the caller')"
assert_eq "$(listed)" "" "and it is gone"
sum=$(cksum <"$SB/config.json")
oci spec --bundle "$SB"
assert_eq "$rc" 125 "a second spec is refused"
assert_contains "$err" "config.json' exists" "saying the file exists"
assert_eq "$(cksum <"$SB/config.json")" "$sum" "and the file is as it was"
# a config.json that is a symbolic link (to a file that does not exist yet): refused, nothing
# written through it
mkdir -p "$T/lb"
ln -s "$T/victim" "$T/lb/config.json"
oci spec --bundle "$T/lb"
assert_eq "$rc:$([ -e "$T/victim" ] && echo written || echo none)" "125:none" \
	"spec does not write through a symbolic link named config.json"
oci spec --bundle "$T/no-such-dir"
assert_contains "$rc:$err" "125:crib: cannot open the bundle '$T/no-such-dir'" "spec into a missing bundle fails"

done_testing
