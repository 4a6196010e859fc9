#!/bin/sh
# Terminal escapes in untrusted strings (issue 31, 9e): a spec's, a config.json's and a
# container's strings (program arguments, a working directory, the command crib ps shows, the
# setup process's error text, annotations) that hold ESC ] 0 ; TITLE BEL (set the window title),
# ESC [ 2 J (clear the screen), the 8-bit CSI byte 0x9b and U+009B never reach the terminal as
# control characters: crib's messages, trace lines, table cells, INI and JSON show them escaped
# (\xNN in text, \u00NN in JSON), and keep valid UTF-8 (an e-acute) as it is. The truth is the
# bytes crib wrote, read with od: no 0x1b, 0x07 or 0x9b anywhere. crib logs (the container's own
# output) is not crib's message: it stays raw.
. "$(dirname "$0")/../lib/libtest.sh"

S="$T/state"
C() { "$CRIB" --root "$S" "$@"; }
ESC=$(printf '\033')
BEL=$(printf '\007')
CSI8=$(printf '\233')     # the 8-bit CSI byte, not UTF-8
CSIU=$(printf '\302\233') # U+009B, CSI, in UTF-8
EACUTE=$(printf '\303\251')
EVIL="$ESC]0;pwned$BEL$ESC[2J$CSI8$CSIU[31m$EACUTE"

# ctl FILE: the control bytes (0x1b, 0x07, 0x9b) in FILE, one a line ("" when none)
ctl() {
	od -An -v -tx1 "$1" | tr -s ' ' '\n' | grep -E '^(1b|07|9b)$' | sort | uniq -c | tr -s ' ' | tr '\n' ' '
}

# --- a missing program: the error quotes it
spec "$T/missing.ini" <<EOF
[process]
args = "/bin/x$EVIL" arg
EOF
"$CRIB" run "$T/missing.ini" >"$T/m.out" 2>"$T/m.err" </dev/null
rc=$?
assert_eq "$rc:$(ctl "$T/m.err")" "127:" "a missing program named with escapes: 127, and no ESC, BEL or CSI byte on stderr"
assert_contains "$(cat "$T/m.err")" "'/bin/x\\x1b]0;pwned\\x07\\x1b[2J\\x9b\\xc2\\x9b[31m$EACUTE' does not exist in the container" "the name shown escaped, the e-acute kept"

# --- the same with --trace: each trace line (the execve of the program too)
"$CRIB" run --trace "$T/missing.ini" >/dev/null 2>"$T/t.err" </dev/null
assert_eq "$(ctl "$T/t.err")|$(grep -c 'execve("/bin/x\\x1b' "$T/t.err")" "|1" "--trace: no control byte in any trace line, the execve line escaped"

# --- the setup process's error, sent over the sync socket: a working directory not there
spec "$T/cwd.ini" <<EOF
[process]
args = /bin/true
cwd = "/nowhere$EVIL"
EOF
"$CRIB" run "$T/cwd.ini" >/dev/null 2>"$T/c.err" </dev/null
rc=$?
assert_eq "$rc:$(ctl "$T/c.err")" "125:" "the setup process's error (a working directory with escapes): 125, no control byte"
assert_contains "$(cat "$T/c.err")" "working directory '/nowhere\\x1b]0;pwned" "and it says which, escaped"

# --- crib ps: the command of a detached, named container, as a table, INI and JSON
spec "$T/ps.ini" <<EOF
[process]
args = /bin/sh -c "sleep 30" "$EVIL"
EOF
C run -d --name evil "$T/ps.ini" >"$T/d.out" 2>"$T/d.err" </dev/null
started="$?:$(cat "$T/d.out")"
C ps >"$T/ps.out" 2>&1
assert_eq "$started|$(ctl "$T/ps.out")|$(grep -c '^evil .*/bin/sh -c sleep 30 ' "$T/ps.out")" "0:evil||1" "crib run -d --name evil; crib ps: the command cell holds no ESC, BEL or CSI byte"
C ps --format=ini >"$T/ini.out" 2>&1
assert_eq "$(ctl "$T/ini.out")|$(grep -c '^command = /bin/sh' "$T/ini.out")" "|1" "crib ps --format=ini: none either"
C ps --format=json >"$T/json.out" 2>&1
assert_eq "$(ctl "$T/json.out")|$(grep -c '"command":"/bin/sh -c sleep 30 .*\\ufffd\\u009b\[31m'"$EACUTE" "$T/json.out")" "|1" "crib ps --format=json: none either (the lone byte as \\ufffd, U+009B as \\u009b, the e-acute kept)"
C rm -f evil >/dev/null 2>&1

# --- crib oci: config.json's strings in create's error, the --log file and the state's JSON
B="$T/bundle"
mkdir -p "$B"
ln -s "$ROOTFS" "$B/rootfs"
if [ "$ROLE" = root ]; then
	ns='{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"}'
	maps=''
else
	ns='{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"},{"type":"user"}'
	maps=",\"uidMappings\":[{\"containerID\":0,\"hostID\":$(id -u),\"size\":1}],\"gidMappings\":[{\"containerID\":0,\"hostID\":$(id -g),\"size\":1}]"
fi
# config ARGS_JSON: the bundle's config.json, with an annotation full of escapes
config() {
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":$1,"cwd":"/","env":["PATH=/bin"],"user":{"uid":0,"gid":0},"noNewPrivileges":true},
 "mounts":[{"destination":"/proc","type":"proc","source":"proc"}],
 "annotations":{"org.example.evil":"\u001b]0;pwned\u0007\u009b[2J\u007f"},
 "linux":{"namespaces":[$ns]$maps}}
EOF
}
O() { "$CRIB" oci --root "$S" "$@"; }
# a missing program: create resolves it, and says so (stderr, and the engine's --log file, which
# podman shows its user), in JSON and in text
config '["/bin/x\u001b]0;pwned\u0007\u001b[2J\u009b\u007f"]'
O --log "$T/oci.log" --log-format json create --bundle "$B" e1 >/dev/null 2>"$T/o.err" </dev/null
rc=$?
assert_eq "$rc:$(ctl "$T/o.err")|$(grep -c "does not exist" "$T/o.err")" "127:|1" "crib oci create of a missing program named with escapes: 127, no control byte on stderr"
assert_eq "$(ctl "$T/oci.log")|$(grep -c 'does not exist' "$T/oci.log")" "|1" "nor in the engine's --log file (JSON)"
O --log "$T/oci.txt" create --bundle "$B" e1 >/dev/null 2>&1 </dev/null
assert_eq "$(ctl "$T/oci.txt")|$(grep -c 'level=error' "$T/oci.txt")" "|1" "nor in the text --log file"
O delete --force e1 >/dev/null 2>&1
# a program that runs: the state's JSON carries the annotation
config '["/bin/sleep","30"]'
O create --bundle "$B" e2 >/dev/null 2>"$T/o2.err" </dev/null
created=$?
[ -s "$T/o2.err" ] && sed 's/^/#   /' "$T/o2.err"
O state e2 >"$T/state.out" 2>&1
assert_eq "$created|$(ctl "$T/state.out")|$(grep -c '"org.example.evil":"\\u001b\]0;pwned\\u0007\\u009b\[2J\\u007f"' "$T/state.out")" "0||1" "crib oci create, then state: the annotation holds no ESC, BEL or CSI byte (each as its JSON escape)"
O delete --force e2 >/dev/null 2>&1
done_testing
