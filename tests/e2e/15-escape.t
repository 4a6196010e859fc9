#!/bin/sh
# The escape table (issue 11): the probe tries every attack of the table (tests/probe/probe.c,
# `probe escape`) as the container's root and as a container user (1000), at each security
# level, with +SYS_PTRACE and +SYS_ADMIN, and (as root) with `user = no`. Every attempt at
# default and strict, their variants included, must be refused; unconfined shows which layer
# stops what, and is held to the rows where the question is the host itself. The table is
# printed as TAP comments: a cell is the probe's word, marked ! where the test judges it an
# escape (or, for the rows judged "refused when confined", a missing layer).
#
# A success that stays in the container's own namespaces is not an escape, so the rows whose
# question is the host are judged on the host after each run: its mount table, the letter a
# TIOCSTI pushes into the test's own pty (crib runs on a new pty, `probe tty`, with terminal =
# no, so fd 0 is that pty), the ctime of /dev/null and /dev/full (the probe chmods them to the
# mode they have), setuid files in the rootfs owned by host root, a process of the test's that
# records the signals it gets, and the network and UTS namespaces compared with the host's. At
# the end the host must be as it was: device modes, core_pattern, hostname, ctrl-alt-del.
#
# The judgement of each row is in judge() below, with a comment per row.
. "$(dirname "$0")/../lib/libtest.sh"

# the probe, run on the host: the terminal crib runs on, and the target of the signal attacks
HPROBE=$ROOTFS/usr/local/bin/probe
# coreutils' timeout puts the command in a process group of its own unless --foreground;
# busybox's (the VM guests) does not
if timeout --foreground 5 true 2>/dev/null; then
	TIMEOUT="timeout --foreground -k 5 20"
else
	TIMEOUT="timeout -k 5 20"
fi

# the rows, in the probe's order
ROWS="mount nested-mount nested-unmask unshare-user unshare-mnt setns umount-masked remount-rw
umount-ro mount-proc bind-proc bind-rw kcore sysrq core-pattern ptrace-early mem-early ptrace-init proc1-mem proc1-exe
proc1-exe-reopen proc1-fd proc1-fd-host proc1-root proc1-cwd keyctl add_key bpf perf io_uring
userfaultfd kexec reboot init_module open_by_handle mknod-dev mknod-tmp mknod-root shipped-dev
raw-packet raw-inet tiocsti chmod-null chmod-full setuid kill-host kill-all pidfd sethostname
settimeofday adjtimex swapon swapoff acct"

# the block device the probe makes nodes of: one this host has (an open of a number without a
# driver says ENXIO and proves nothing), loop0 where there is one
DEV=7:0
if [ ! -e /sys/dev/block/7:0 ]; then
	for d in /sys/dev/block/*; do
		[ -e "$d" ] && DEV=${d##*/} && break
	done
fi
# a rootfs of the test's own: the setuid file and /mnt land in it, and as root it ships a node
# of that block device (0600 root) the probe tries to open
mkdir "$T/rootfs"
for dir in bin sbin usr etc dev proc sys tmp; do cp -a "$ROOTFS/$dir" "$T/rootfs/"; done
mkdir -p "$T/rootfs/mnt" "$T/rootfs/root"
if [ "$ROLE" = root ]; then
	mknod -m 600 "$T/rootfs/crib-shipped-blk" b "${DEV%:*}" "${DEV#*:}"
fi
# a host file the container must never read: through pid 1's descriptors (crib gets a
# descriptor of its directory as fd 9, as `crib run spec.ini 9</etc` in the issue), root or cwd
mkdir "$T/host"
echo "crib-host-marker $$" >"$T/host/crib-host-marker"
chmod 755 "$T/host"
# a host process the signal attacks aim at (its pid is the host's)
"$HPROBE" catch "$T/caught" &
catcher=$!
trap 'kill $catcher 2>/dev/null; rm -rf "$T"' EXIT

# the host as it is before
dev_modes() { stat -c '%n %a %u:%g' /dev/null /dev/full; }
modes0=$(dev_modes)
core0=$(cat /proc/sys/kernel/core_pattern)
host0=$(hostname)
cad0=$(cat /proc/sys/kernel/ctrl-alt-del 2>/dev/null)
host_net=$(readlink /proc/self/ns/net)
host_uts=$(readlink /proc/self/ns/uts)
mounts_under_T() { awk -v t="$T/" 'index($5, t) == 1 {print $5}' /proc/self/mountinfo; }
root_setuid() { find "$T/rootfs" -xdev -name crib-probe-suid -perm -4000 -user 0 2>/dev/null; }
# can a host user other than root run it? (as root, crib keeps a root-owned rootfs that the
# container may write only where other users cannot reach it: hole 3)
OTHER=$(id -un crib-test 2>/dev/null || echo nobody)
reachable() { setpriv --reuid="$OTHER" --regid="$(id -g "$OTHER")" --clear-groups sh -c "test -x '$1'" 2>/dev/null; }

# the container user's map (as in 08-hardening.t): as root a subordinate range of its own, as a
# user its /etc/subuid range
if [ "$ROLE" = root ]; then
	MAP="uid = 0 1000000 65536
gid = 0 1000000 65536"
else
	MAP="uid = auto
gid = auto"
fi

# the columns: who runs the probe (r = the container's root, u = user 1000), and how
COLS="r:default r:strict r:unconf r:+PTRACE r:+ADMIN r:user=no u:default u:strict u:unconf u:+PTRACE u:+ADMIN u:user=no"

# column_spec COLUMN FILE: the spec of that column
column_spec() {
	{
		echo "[container]"
		echo "rootfs = $T/rootfs"
		echo "[process]"
		echo "args = /usr/local/bin/probe escape --pid $catcher --path $T/host/crib-host-marker --dev $DEV"
		echo "terminal = no"
		case $1 in u:*) echo "user = 1000:1000" ;; esac
		echo "[security]"
		case $1 in
		*:strict) echo "level = strict" ;;
		*:unconf) echo "level = unconfined" ;;
		*) echo "level = default" ;;
		esac
		case $1 in
		*:+PTRACE) echo "capabilities = default +SYS_PTRACE" ;;
		*:+ADMIN) echo "capabilities = default +SYS_ADMIN" ;;
		esac
		case $1 in
		*:user=no) printf '[namespaces]\nuser = no\n' ;;
		u:*) printf '[idmap]\n%s\n' "$MAP" ;;
		esac
	} >"$2"
}

# The judgement of one cell, in $verdict: escape, held (refused) or allowed (succeeded where
# that is no escape). Reads the column's facts: $level (default, strict, unconfined), $admin
# (yes when the spec grants CAP_SYS_ADMIN, as unconfined does), and what the host saw in this
# run. At unconfined a cell is held only to the rows judged "never" or on the host.
confined_refuses() { # success is a missing layer at default and strict, allowed at unconfined
	if [ "$1" != ok ]; then verdict=held; elif [ "$level" = unconfined ]; then verdict=allowed; else verdict=escape; fi
}
never() { # success is an escape at every level, unconfined included
	if [ "$1" = ok ]; then verdict=escape; else verdict=held; fi
}
unless_admin() { # allowed with CAP_SYS_ADMIN granted (it stays in the container's namespaces)
	if [ "$1" != ok ]; then verdict=held; elif [ "$admin" = yes ]; then verdict=allowed; else verdict=escape; fi
}
judge() { # judge ROW WORD
	case $1 in
	# a tmpfs over /mnt, in the probe's mount namespace or in a user+mount namespace of its
	# own: CAP_SYS_ADMIN may do that (the namespace is the container's); without it the layer
	# is missing; at any level the host must not see a mount under the test's directory
	mount | nested-mount)
		if [ -n "$leak" ]; then verdict=escape; else unless_admin "$2"; fi ;;
	# a user or mount namespace below the container's: the container's business with
	# CAP_SYS_ADMIN, refused without it
	unshare-user | unshare-mnt) unless_admin "$2" ;;
	# entering a namespace of pid 1 that is not the probe's own ("own-ns" changes nothing)
	setns) never "$2" ;;
	# a mask or read-only path undone from inside, or from a user namespace of its own; a
	# fresh /proc, or a bind of it, without the masks; a writable bind of /proc/sys: the levels that set them promise they hold, with
	# CAP_SYS_ADMIN too, which crib's workload then holds in a user namespace of its own, where
	# the kernel locks them (issue 11, hole 3; runtime/steps/lockmounts.c); unconfined sets none
	nested-unmask | umount-masked | remount-rw | umount-ro | mount-proc | bind-proc | bind-rw)
		confined_refuses "$2" ;;
	# the host kernel's memory, its sysrq trigger and its core_pattern (opened for writing,
	# never written): global, so a success is the host's, at every level
	kcore | sysrq | core-pattern) never "$2" ;;
	# crib's init is host code holding host things (hole 1): tracing it (first thing, racing
	# its setup, or later), its memory, a writable crib binary, its descriptors, and the host
	# file through its descriptors, root or working directory are escapes at every level
	ptrace-early | mem-early | ptrace-init | proc1-*) never "$2" ;;
	# unprivileged in the kernel where its sysctls allow them; Docker's default blocks them
	keyctl | add_key | bpf | perf | io_uring | userfaultfd) confined_refuses "$2" ;;
	# each needs a capability of the host's user namespace: "ok" (permitted up to the
	# harmless argument) means the container holds a host privilege
	kexec | init_module | open_by_handle | settimeofday | adjtimex | swapon | swapoff | acct)
		never "$2" ;;
	# reboot in the container's pid namespace is "own-pidns"; "ok" changed the host's
	# ctrl-alt-del (checked at the end too)
	reboot) never "$2" ;;
	# a host block device opened, from a node made in /dev, /tmp or /, or shipped in the
	# rootfs (hole 2): the open is the escape, at every level
	mknod-* | shipped-dev) never "$2" ;;
	# a raw socket is the container's own in its own network namespace (NET_RAW is a default
	# capability); in the host's it is an escape
	raw-packet | raw-inet)
		if [ "$2" = ok ] && [ "$c_net" = "$host_net" ]; then verdict=escape; else verdict=held; fi ;;
	# did the letter reach the test's pty (the host's terminal, fd 0 with terminal = no)?
	tiocsti) if [ -n "$typed" ]; then verdict=escape; else verdict=held; fi ;;
	# did the host's node change (its ctime moves even though the mode is the same)?
	chmod-null) if [ -n "$null_touched" ]; then verdict=escape; else verdict=held; fi ;;
	chmod-full) if [ -n "$full_touched" ]; then verdict=escape; else verdict=held; fi ;;
	# is there a setuid file owned by host root in the rootfs now (hole 3), that a host user
	# other than root can run? With user = no too: whoever asked for real root in the
	# container, any host user who could reach the rootfs would run it as root
	setuid) if [ -n "$suid" ] && reachable "$suid"; then verdict=escape; else verdict=held; fi ;;
	# did the host process get the signal (SIGWINCH by pid, SIGCONT from kill(-1), SIGURG by
	# pidfd)? A success inside the pid namespace reaches only the container's processes.
	kill-host) case $caught in *SIGWINCH*) verdict=escape ;; *) verdict=held ;; esac ;;
	kill-all) case $caught in *SIGCONT*) verdict=escape ;; *) verdict=held ;; esac ;;
	pidfd) case $caught in *SIGURG*) verdict=escape ;; *) verdict=held ;; esac ;;
	# the hostname it already has: CAP_SYS_ADMIN's business in the container's own UTS
	# namespace; in the host's, an escape
	sethostname)
		if [ "$2" = ok ] && [ "$c_uts" = "$host_uts" ]; then verdict=escape; else unless_admin "$2"; fi ;;
	*) verdict=escape ;; # a row this test does not know
	esac
}

# controls: the host-side judgements can tell
kill -WINCH $catcher
i=0
while ! grep -q SIGWINCH "$T/caught" 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
assert_eq "$(cat "$T/caught" 2>/dev/null)" "SIGWINCH" "the host process records a signal it gets (the test can tell)"
: >"$T/caught"
"$HPROBE" tty "$T/control.typed" "$HPROBE" tiocsti >"$T/control.out" 2>&1
if [ "$(cat "$T/control.out")" = ok ]; then
	assert_eq "$(cat "$T/control.typed")" "Q" "a letter pushed into the pty by TIOCSTI is found there afterwards (the test can tell)"
else
	skip "TIOCSTI on its own terminal is refused here ($(cat "$T/control.out")): no control"
fi
if [ "$ROLE" = root ]; then
	: >"$T/rootfs/tmp/crib-probe-suid"
	chmod 4755 "$T/rootfs/tmp/crib-probe-suid"
	assert_eq "$(root_setuid)" "$T/rootfs/tmp/crib-probe-suid" "a setuid file of host root's in the rootfs is found (the test can tell)"
	rm -f "$T/rootfs/tmp/crib-probe-suid"
else
	skip "only root makes a setuid file of host root's: no control as $ROLE"
fi

# run every column; its cells go to $T/NAME.cells, one a line in the order of $ROWS
for row in $ROWS; do echo "$row"; done >"$T/rows"
for col in $COLS; do
	name=$(echo "$col" | tr ':+=' '_pe')
	case $col in
	*:user=no)
		if [ "$ROLE" != root ]; then
			sed 's/.*/skip/' "$T/rows" >"$T/$name.cells"
			continue
		fi
		;;
	u:*)
		if [ "$ROLE" != root ] && ! grep -q "^$(id -un):" /etc/subuid 2>/dev/null; then
			sed 's/.*/skip/' "$T/rows" >"$T/$name.cells"
			skip "$col: $(id -un) has no /etc/subuid range to map uid 1000"
			continue
		fi
		;;
	esac
	column_spec "$col" "$T/$name.ini"
	: >"$T/caught"
	null0=$(stat -c %z /dev/null)
	full0=$(stat -c %z /dev/full)
	# crib on a new pty (fd 0, terminal = no), fd 9 on the host directory
	# shellcheck disable=SC2086 # $TIMEOUT is a command and its options
	"$HPROBE" tty "$T/$name.typed" $TIMEOUT "$CRIB" run "$T/$name.ini" >"$T/$name.out" 2>"$T/$name.err" 9<"$T/host"
	echo $? >"$T/$name.rc"
	sleep 0.1 # the host process writes what it caught every 20 ms
	# what the host saw
	leak=$(mounts_under_T)
	typed=$(grep Q "$T/$name.typed")
	caught=$(cat "$T/caught")
	null_touched="" full_touched=""
	[ "$(stat -c %z /dev/null)" = "$null0" ] || null_touched=yes
	[ "$(stat -c %z /dev/full)" = "$full0" ] || full_touched=yes
	suid=$(root_setuid)
	rm -f "$T/rootfs/crib-probe-suid" "$T/rootfs/tmp/crib-probe-suid"
	c_net=$(awk '$1 == "info-ns-net" {print $2}' "$T/$name.out")
	c_uts=$(awk '$1 == "info-ns-uts" {print $2}' "$T/$name.out")
	case $col in
	*:strict) level=strict admin=no ;;
	*:unconf) level=unconfined admin=yes ;;
	*:+ADMIN) level=default admin=yes ;;
	*) level=default admin=no ;;
	esac
	# the probe's word for each row ("-" for none), then the verdicts
	awk 'NR == FNR {w[$1] = $2; next} {print $1, ($1 in w) ? w[$1] : "-"}' "$T/$name.out" "$T/rows" >"$T/$name.words"
	escaped="" missing=""
	while read -r row word; do
		if [ "$word" = - ]; then
			missing="$missing $row"
			echo -
			continue
		fi
		judge "$row" "$word"
		if [ "$verdict" = escape ]; then
			escaped="$escaped $row=$word"
			echo "$word!"
		else
			echo "$word"
		fi
	done <"$T/$name.words" >"$T/$name.cells"
	who="the container's root"
	case $col in u:*) who="container user 1000" ;; esac
	if [ -n "$missing" ]; then
		ok 1 "$col: the probe ran every attack as $who"
		printf '#   crib exit %s, rows missing:%s\n' "$(cat "$T/$name.rc" 2>/dev/null)" "$missing"
		sed 's/^/#   stderr: /' "$T/$name.err"
	else
		ok 0 "$col: the probe ran every attack as $who"
	fi
	if [ -z "$escaped" ]; then
		ok 0 "$col: nothing escapes"
	else
		ok 1 "$col: nothing escapes"
		echo "#   escaped:$escaped"
	fi
done

# the table
[ -e "/sys/dev/block/$DEV" ] || echo "# this host has no block device: the mknod rows can only say ENXIO"
echo "# escape table (crib run as $ROLE; r = the container's root, u = container user 1000;"
echo "# a cell is the probe's word, ! = escape, - = no answer,"
echo "# skip = not in this role)"
files=""
for col in $COLS; do files="$files $T/$(echo "$col" | tr ':+=' '_pe').cells"; done
# shellcheck disable=SC2086
{
	echo "attack $COLS"
	paste -d ' ' "$T/rows" $files
} | awk '{line = sprintf("%-17s", $1); for (i = 2; i <= NF; i++) line = line sprintf(" %-10s", $i); sub(/ +$/, "", line); print "# " line}'

# The race of hole 1: a workload whose first instructions trace crib's init or open its memory
# (`probe early`) wins only now and then (one start in three, rootless), so each
# configuration that holds CAP_SYS_PTRACE starts it up to 20 times (for 15 seconds at most, for
# slow machines and emulated guests); one win is an escape.
RACE_STARTS=20 RACE_SECONDS=15
# (user = no with SYS_PTRACE is host root with ptrace(2): it can attach to any process it sees,
# crib's init included, and crib warns so; what init then holds is nothing: no descriptor, no
# capability, a sealed copy of crib as its binary and a filter that allows only its own loop's
# calls, which 16-init.t checks)
for col in r:+PTRACE r:unconf u:+PTRACE; do
	name=race_$(echo "$col" | tr ':+=' '_pe')
	case $col in
	*user=no*)
		if [ "$ROLE" != root ]; then
			skip "$col: user = no needs root"
			continue
		fi
		spec "$T/$name.ini" <<EOF2
[process]
args = /usr/local/bin/probe early
[security]
capabilities = default +SYS_PTRACE
[namespaces]
user = no
EOF2
		;;
	*)
		column_spec "$col" "$T/$name.ini"
		sed -i 's|^args = .*|args = /usr/local/bin/probe early|' "$T/$name.ini"
		;;
	esac
	case $col in
	u:*)
		if [ "$ROLE" != root ] && ! grep -q "^$(id -un):" /etc/subuid 2>/dev/null; then
			skip "$col: $(id -un) has no /etc/subuid range to map uid 1000"
			continue
		fi
		;;
	esac
	i=0
	end=$(($(date +%s) + RACE_SECONDS))
	while [ $i -lt $RACE_STARTS ] && [ "$(date +%s)" -lt $end ]; do
		# shellcheck disable=SC2086
		$TIMEOUT "$CRIB" run "$T/$name.ini" </dev/null 2>/dev/null | tr '\n' ' '
		echo
		i=$((i + 1))
	done >"$T/$name.out"
	wins=$(grep -c ' ok' "$T/$name.out")
	runs=$(grep -c 'ptrace-early' "$T/$name.out")
	if [ "$runs" -gt 0 ] && [ "$runs" = "$i" ] && [ "$wins" = 0 ]; then
		ok 0 "$col: in $runs starts, the workload's first instructions never trace crib's init nor open its memory"
	else
		ok 1 "$col: in $i starts, the workload's first instructions never trace crib's init nor open its memory"
		echo "#   $runs starts answered, $wins won:"
		sort "$T/$name.out" | uniq -c | sed 's/^ */#   /'
	fi
done

# the host as it was
assert_eq "$(dev_modes)" "$modes0" "the host's /dev/null and /dev/full keep their modes and owners"
assert_eq "$(cat /proc/sys/kernel/core_pattern)" "$core0" "the host's core_pattern is unchanged"
assert_eq "$(hostname)" "$host0" "the host's hostname is unchanged"
assert_eq "$(cat /proc/sys/kernel/ctrl-alt-del 2>/dev/null)" "$cad0" "the host's ctrl-alt-del is unchanged"
assert_eq "$(mounts_under_T)" "" "no mount is left on the host under the test's directory"
done_testing
