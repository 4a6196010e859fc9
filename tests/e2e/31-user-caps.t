#!/bin/sh
# Issue 31, hole 6: a container user other than root keeps no capability it did not ask for by
# name (Docker's rule). An image's `USER web` ran with the default level's 14 capabilities in
# its ambient set (CapEff a80425fb), read root's 0600 files and setuid(0) succeeded; under podman
# and runc the same image has CapEff 0. Now such a user gets empty effective, permitted,
# inheritable and ambient sets, but for the capabilities the spec names (`default
# +NET_BIND_SERVICE`: NET_BIND_SERVICE alone); the bounding set stays the level's. The same
# rule for `crib exec -u UID`, whatever the workload's own uid. Read from /proc/self/status
# inside, and tried: a root-only file, setuid(0), port 80.
. "$(dirname "$0")/../lib/libtest.sh"

if ! has_subids; then
	echo "1..0 # SKIP user = 1000 needs subordinate ids for $(id -un) in /etc/subuid and /etc/subgid"
	exit 0
fi

P=/usr/local/bin/probe
# the default level's 14, as /proc/self/status shows a set
docker=00000000a80425fb
zero=0000000000000000
nbs=0000000000000400 # NET_BIND_SERVICE (10)

# caps: the five sets on one line, as /proc/self/status lists them: "Inh Prm Eff Bnd Amb "
caps='grep -E "^Cap(Inh|Prm|Eff|Bnd|Amb):" /proc/self/status | cut -f2 | tr "\n" " "'

# a directory container root owns, with a root-only file in it (made by container root itself,
# so it is a mapped owner's: DAC_OVERRIDE would open it)
mkdir "$T/secret"
chmod 1777 "$T/secret"
spec "$T/mkfile.ini" <<EOF2
[process]
args = /bin/sh -c 'echo s3cret > /home/f && chmod 600 /home/f && stat -c "%u %a" /home/f'
[idmap]
uid = auto
gid = auto
[mounts]
bind = $T/secret /home
EOF2
run_crib run "$T/mkfile.ini"
assert_eq "$rc:$out" "0:0 600" "container root makes a root-only file (0600, uid 0 inside)"

# one spec per case: [process] user and [security] capabilities
mk() { # mk NAME USER CAPABILITIES-LINE ARGS
	spec "$T/$1.ini" <<EOF2
[process]
user = $2
args = /bin/sh -c '$4'
[idmap]
uid = auto
gid = auto
[mounts]
bind = $T/secret /home
[security]
$3
EOF2
}

mk root 0:0 "" "$caps"
run_crib run "$T/root.ini"
assert_eq "$rc:$out" "0:$zero $docker $docker $docker $zero " \
	"uid 0: permitted, effective and bounding the level's 14; nothing inheritable or ambient"

mk dflt 1000:1000 "" "$caps"
run_crib run "$T/dflt.ini"
assert_eq "$rc:$out" "0:$zero $zero $zero $docker $zero " \
	"uid 1000, no capabilities key: none (the bounding set the level's)"

mk word 1000:1000 "capabilities = default" "$caps"
run_crib run "$T/word.ini"
assert_eq "$rc:$out" "0:$zero $zero $zero $docker $zero " \
	"uid 1000, capabilities = default: the word names nothing"

mk named 1000:1000 "capabilities = default +NET_BIND_SERVICE" "$caps; $P bind 80"
run_crib run "$T/named.ini"
assert_eq "$rc:$out" "0:$nbs $nbs $nbs $docker $nbs bound" \
	"uid 1000, default +NET_BIND_SERVICE: that one alone, through the ambient set; it binds port 80"

mk list 1000:1000 "capabilities = CHOWN KILL" "$caps"
run_crib run "$T/list.ini"
assert_eq "$rc:$out" "0:0000000000000021 0000000000000021 0000000000000021 0000000000000021 0000000000000021 " \
	"uid 1000, an explicit list (CHOWN KILL): those, in every set"

mk unconf 1000:1000 "level = unconfined" "$caps"
run_crib run "$T/unconf.ini"
set -- $out
assert_eq "$rc:$1 $2 $3 $5" "0:$zero $zero $zero $zero" \
	"uid 1000 at level unconfined: a level's list names nothing either (bounding $4)"

# the attack: as uid 1000 with the default level, a root-only file and setuid(0)
mk attack 1000:1000 "" "cat /home/f 2>&1; $P syscall setuid 0; $P bind 80; $P ids"
run_crib run "$T/attack.ini"
assert_contains "$(echo "$out" | sed -n 1p)" "Permission denied" \
	"uid 1000: the root-only 0600 file does not open (no DAC_OVERRIDE)"
assert_eq "$(echo "$out" | sed -n 2,4p | tr '\n' ' ')" "EPERM EACCES 1000 1000 " \
	"uid 1000: setuid(0) fails (no SETUID), port 80 stays shut, ids stay 1000"

# --- crib exec: the rule for the exec's uid
S="$T/state"
cr() { run_crib --root "$S" "$@"; }
mk sleeper0 0:0 "capabilities = default +NET_BIND_SERVICE" "exec sleep 1000"
mk sleeper1000 1000:1000 "" "exec sleep 1000"
cr run -d --name c0 "$T/sleeper0.ini"
assert_eq "$rc" 0 "a detached container, uid 0, default +NET_BIND_SERVICE"
cr exec c0 -- /bin/sh -c "$caps"
assert_eq "$rc:$out" "0:$zero $docker $docker $docker $zero " "exec into it as its uid 0: the level's 14"
cr exec -u 1000:1000 c0 -- /bin/sh -c "$caps"
assert_eq "$rc:$out" "0:$nbs $nbs $nbs $docker $nbs " \
	"exec -u 1000: NET_BIND_SERVICE alone, the one the spec named"
cr exec -u 1000:1000 c0 -- /bin/sh -c "cat /home/f 2>&1; $P syscall setuid 0"
assert_eq "$(echo "$out" | sed -n 2p)" "EPERM" "exec -u 1000: setuid(0) fails"
assert_contains "$(echo "$out" | sed -n 1p)" "Permission denied" "exec -u 1000: the root-only file does not open"
run_crib --root "$S" rm -f c0

cr run -d --name c1000 "$T/sleeper1000.ini"
assert_eq "$rc" 0 "a detached container, uid 1000, default level"
cr exec c1000 -- /bin/sh -c "$caps"
assert_eq "$rc:$out" "0:$zero $zero $zero $docker $zero " "exec into it as its uid 1000: none"
cr exec -u 0:0 c1000 -- /bin/sh -c "$caps"
assert_eq "$rc:$out" "0:$zero $docker $docker $docker $zero " \
	"exec -u 0: root's rule, the bounding set, nothing ambient"
run_crib --root "$S" rm -f c1000

done_testing
