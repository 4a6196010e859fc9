#!/bin/sh
# Hardening, read from inside the container: capabilities (all five sets), no_new_privs,
# masked and read-only paths, resource limits, and the security levels.
. "$(dirname "$0")/../lib/libtest.sh"

# capability masks, computed here from the numbers in capabilities(7)
mask() {
	m=0
	for b in "$@"; do m=$((m | (1 << b))); done
	printf '%016x' $m
}
# CHOWN DAC_OVERRIDE FOWNER FSETID KILL SETGID SETUID SETPCAP NET_BIND_SERVICE NET_RAW
# SYS_CHROOT MKNOD AUDIT_WRITE SETFCAP
DOCKER="0 1 3 4 5 6 7 8 10 13 18 27 29 31"
NET_RAW=13 SYS_PTRACE=19 NET_BIND_SERVICE=10

caps() { # caps SPEC-LINES...: the five sets as "Bnd Prm Eff Inh Amb"
	printf '%s\n' "$@" >"$T/c.in"
	spec "$T/c.ini" <"$T/c.in"
	run_crib run "$T/c.ini" -- /bin/sh -c 'grep ^Cap /proc/self/status'
	echo "$out" | awk '{v[$1] = $2} END {print v["CapBnd:"], v["CapPrm:"], v["CapEff:"], v["CapInh:"], v["CapAmb:"]}'
}
zero=0000000000000000
d=$(mask $DOCKER)
assert_eq "$(caps '[process]' 'args = /bin/true')" "$d $d $d $zero $zero" "default: Docker's 14 capabilities, bounding = permitted = effective"
assert_eq "$(caps '[security]' 'capabilities = none')" "$zero $zero $zero $zero $zero" "none: no capability at all"
e=$(mask $(echo $DOCKER | sed "s/\b$NET_RAW\b//") $SYS_PTRACE)
assert_eq "$(caps '[security]' 'capabilities = default -NET_RAW +SYS_PTRACE')" "$e $e $e $zero $zero" "edits: default -NET_RAW +SYS_PTRACE"
x=$(mask 0 $NET_BIND_SERVICE)
assert_eq "$(caps '[security]' 'capabilities = CHOWN cap_net_bind_service')" "$x $x $x $zero $zero" "an explicit list, names with or without CAP_"

# a non-root container user gets, through the ambient set, only the capabilities the spec names
# (Docker's rule, issue 31 hole 6; needs a map covering 1000)
if [ "$ROLE" = root ]; then
	MAP="uid = 0 0 65536
gid = 0 0 65536"
else
	MAP="uid = auto
gid = auto"
fi
user_caps() { # user_caps CAPS: the five sets of user 1000 and its attempt to bind port 80
	spec "$T/u.ini" <<EOF2
[process]
args = /bin/sh -c 'grep ^Cap /proc/self/status | cut -f2 | tr "\\n" " "; /usr/local/bin/probe bind 80'
user = 1000:1000
[security]
capabilities = $1
[idmap]
$MAP
EOF2
	run_crib run "$T/u.ini"
	echo "$out"
}
if has_subids; then
	nb=$(mask $NET_BIND_SERVICE)
	assert_eq "$(user_caps NET_BIND_SERVICE)" "$nb $nb $nb $nb $nb bound" \
		"user 1000 with NET_BIND_SERVICE: all five sets (ambient too) hold it, and it binds port 80"
	assert_eq "$(user_caps none)" "$zero $zero $zero $zero $zero EACCES" \
		"without it, binding port 80 is refused (the test can tell)"
	# it used to get the level's 14 in every set; `default` names none (31-user-caps.t has more)
	assert_eq "$(user_caps default)" "$zero $zero $zero $d $zero EACCES" \
		"user 1000 at the default level: none but the bounding set, and port 80 stays shut"
else
	skips 3 "$(id -un) has no /etc/subuid range to map uid 1000"
fi

# no_new_privs: on by default, and a setuid binary does not raise the euid
mkdir -p "$T/rootfs"
for dir in bin sbin usr etc dev proc sys tmp; do cp -a "$ROOTFS/$dir" "$T/rootfs/"; done
cp "$ROOTFS/usr/local/bin/probe" "$T/rootfs/bin/suid-probe"
chmod 4755 "$T/rootfs/bin/suid-probe"
printf '[container]\nrootfs = rootfs\n[process]\nargs = /bin/suid-probe ids\nuser = 1000:1000\n[idmap]\n%s\n' "$MAP" >"$T/nnp.ini"
if has_subids; then
	run_crib run "$T/nnp.ini"
	assert_eq "$out" "1000 1000" "no_new_privileges (default): a setuid-root binary runs with euid 1000"
	printf '[security]\nno_new_privileges = no\n' >>"$T/nnp.ini"
	run_crib run "$T/nnp.ini"
	assert_eq "$out" "1000 0" "no_new_privileges = no: the same binary gets euid 0 (the test can tell)"
else
	skips 2 "$(id -un) has no /etc/subuid range to map uid 1000"
fi
spec "$T/n.ini" <<'EOF2'
[process]
args = /bin/sh -c 'grep ^NoNewPrivs /proc/self/status | cut -f2'
EOF2
run_crib run "$T/n.ini"
assert_eq "$out" "1" "NoNewPrivs is 1 by default"

# masked paths read empty, read-only paths refuse writes
spec "$T/m.ini" <<'EOF2'
[process]
args = /bin/true
[security]
masked_paths = default +/proc/cpuinfo
EOF2
for p in /proc/asound /proc/acpi /proc/interrupts /proc/kcore /proc/keys /proc/latency_stats \
	/proc/timer_list /proc/timer_stats /proc/sched_debug /proc/scsi /sys/firmware \
	/sys/devices/virtual/powercap /proc/cpuinfo; do
	run_crib run "$T/m.ini" -- /bin/sh -c "if [ -d $p ]; then ls -A $p | wc -l; elif [ -e $p ]; then cat $p | wc -c; else echo absent; fi"
	if [ "$out" = absent ]; then
		skip "$p does not exist on this kernel"
	else
		assert_eq "$out" "0" "$p is masked (reads empty)"
	fi
done
# the masked directories share one empty tmpfs: each is read-only and takes no new entry
run_crib run "$T/m.ini" -- /bin/sh -c 'for p in /proc/asound /proc/acpi /proc/scsi /sys/firmware /sys/devices/virtual/powercap; do
	[ -d $p ] || continue
	mkdir $p/x 2>/dev/null && echo "$p takes a new entry"
	grep " $p " /proc/self/mountinfo | cut -d" " -f6 | cut -d, -f1 | tr "\n" " "
done'
case "$out" in "" | *entry* | *rw*) ok 1 "every masked directory is read-only and stays empty (got: $out)" ;;
*) ok 0 "every masked directory is read-only and stays empty ($out)" ;; esac
run_crib run "$T/m.ini" -- /bin/sh -c 'cat /proc/interrupts | wc -c'
spec "$T/um.ini" <<'EOF2'
[security]
level = unconfined
[process]
args = /bin/sh -c 'cat /proc/interrupts | wc -c'
EOF2
run_crib run "$T/um.ini"
[ "$out" -gt 0 ]
ok $? "unmasked (level unconfined), /proc/interrupts has content (the test can tell)"

run_crib run "$T/m.ini" -- /bin/sh -c 'echo x > /proc/sys/kernel/domainname'
assert_contains "$err$out" "Read-only file system" "/proc/sys refuses writes"
for p in /proc/bus /proc/fs /proc/irq /proc/sys /proc/sysrq-trigger; do
	run_crib run "$T/m.ini" -- /bin/sh -c "[ -e $p ] || { echo absent; exit; }; grep \" $p \" /proc/self/mountinfo | cut -d' ' -f6 | cut -d, -f1"
	if [ "$out" = absent ]; then
		skip "$p does not exist on this kernel"
	else
		assert_eq "$out" "ro" "$p is mounted read-only"
	fi
done
run_crib run "$T/um.ini" -- /bin/sh -c 'echo x > /proc/sys/kernel/domainname'
assert_not_contains "$err$out" "Read-only file system" "unprotected (unconfined), the refusal is not EROFS (the test can tell)"

# resource limits
spec "$T/l.ini" <<'EOF2'
[process]
args = /bin/sh -c 'grep -E "^Max (open files|processes|core file size|file size)" /proc/self/limits | tr -s " "'
[limits]
nofile = 100:200
nproc = 500:600
core = 0
fsize = 1m
EOF2
run_crib run "$T/l.ini"
assert_contains "$out" "Max open files 100 200 files" "nofile = 100:200 is in force"
assert_contains "$out" "Max processes 500 600 processes" "nproc = 500:600 is in force"
assert_contains "$out" "Max core file size 0 0 bytes" "core = 0 is in force"
assert_contains "$out" "Max file size 1048576 1048576 bytes" "fsize = 1m is in force"
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ]; then
	spec "$T/raise.ini" <<EOF2
[process]
args = /bin/sh -c 'ulimit -Hn'
[limits]
nofile = 100:$((hard + 1))
EOF2
	run_crib run "$T/raise.ini"
	if [ "$ROLE" = user ]; then
		assert_eq "$rc" 125 "raising nofile above our own hard limit as a user: 125"
		assert_contains "$err" "raise.ini:6: limit 'nofile' asks for a hard limit above your own ($hard); only root (with CAP_SYS_RESOURCE) can raise it" "says why"
	elif [ $(( 0x$(awk '/^CapEff/{print $2}' /proc/self/status) >> 24 & 1 )) = 1 ]; then
		assert_eq "$rc:$out" "0:$((hard + 1))" "root raises a hard limit for the container"
	else
		assert_eq "$rc" 125 "root without CAP_SYS_RESOURCE (as here) cannot raise it: 125"
	fi
fi

# levels
run_crib levels
assert_eq "$rc" 0 "crib levels runs"
assert_eq "$(echo "$out" | head -n 1 | tr -s ' ')" "setting default strict unconfined " "it lists every level"
assert_contains "$out" "capabilities            14 (Docker's)     none              all (" "capabilities side by side"
assert_eq "$(echo "$out" | grep '^private network' | grep -c '\*')" "0" "no mark where the levels agree"
assert_eq "$(echo "$out" | grep '^readonly_rootfs' | grep -c '\*')" "1" "a mark where they differ"

spec "$T/strict.ini" <<'EOF2'
[security]
level = strict
[process]
args = /bin/sh -c 'grep ^CapEff /proc/self/status | cut -f2; touch /x 2>&1; ulimit -n; /usr/local/bin/probe bind 80'
EOF2
run_crib run "$T/strict.ini"
assert_eq "$(echo "$out" | sed -n 1p)" "$zero" "strict: no capabilities, even for root"
assert_contains "$(echo "$out" | sed -n 2p)" "Read-only file system" "strict: the root filesystem is read-only"
assert_eq "$(echo "$out" | sed -n 3p)" "1024" "strict: nofile 1024"
assert_eq "$(echo "$out" | sed -n 4p)" "EACCES" "strict: root cannot bind port 80 without NET_BIND_SERVICE"
# a level's limits are ceilings: where the caller's own hard limit is lower, the level still runs
if command -v prlimit >/dev/null 2>&1; then
	out=$(prlimit --nproc=1000:1000 "$CRIB" run "$T/strict.ini" -- /bin/sh -c 'grep "^Max processes" /proc/self/limits' 2>&1 </dev/null | strip_aa | tr -s ' ' | sed 's/ *$//')
	assert_eq "$out" "Max processes 1000 1000 processes" "strict's nproc = 1024 under a caller's hard limit of 1000: runs, at 1000"
else
	skip "no prlimit(1) here to lower the caller's limit"
fi

spec "$T/strict2.ini" <<'EOF2'
[security]
level = strict
capabilities = +NET_BIND_SERVICE
[process]
args = /usr/local/bin/probe bind 80
EOF2
run_crib run "$T/strict2.ini"
assert_eq "$out" "bound" "a spec overrides its level key by key (+NET_BIND_SERVICE on strict)"

# a capability newer than the kernel: dropped with a warning (a kernel that knows up to 38
# is simulated by binding a file over cap_last_cap in a mount namespace of our own)
if userns_works; then
	echo 38 >"$T/last"
	spec "$T/new.ini" <<'EOF2'
[process]
args = /bin/sh -c 'grep ^CapBnd /proc/self/status | cut -f2'
[namespaces]
pid = no
[security]
capabilities = CHOWN BPF CHECKPOINT_RESTORE
EOF2
	out=$(unshare -Urm sh -c 'mount --bind "$1" /proc/sys/kernel/cap_last_cap && exec "$2" run "$3"' sh "$T/last" "$CRIB" "$T/new.ini" 2>&1 </dev/null | strip_aa)
	assert_eq "$out" "crib: warning: this kernel knows capabilities up to 38 (PERFMON); dropping the newer BPF CHECKPOINT_RESTORE
0000000000000001" "capabilities the kernel does not know are dropped with a warning"
else
	skip "unshare -Urm does not work here"
fi
done_testing
