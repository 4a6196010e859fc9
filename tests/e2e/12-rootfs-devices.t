#!/bin/sh
# The rootfs is the directory crib checked, however its name changes meanwhile; real root opens
# no device node but the standard ones; bad rootfs and mount paths fail early and clearly.
. "$(dirname "$0")/../lib/libtest.sh"

# a private copy of the test rootfs (these tests write to it, or change its names)
copy_rootfs() { # copy_rootfs DIR
	mkdir -p "$1"
	for d in bin sbin usr etc dev proc sys tmp; do cp -a "$ROOTFS/$d" "$1/"; done
	mkdir -p "$1/root" "$1/scratch"
}

# --- the rootfs swapped with a decoy during start-up (renameat2 RENAME_EXCHANGE in a loop) ---
# Each start must run in exactly one of the two trees, the one crib checked, with its /proc
# mounted, a masked file of /proc (/proc/kcore, or /proc/keys on a kernel without it) hidden
# and no way up out of / (a chroot could be left with `..`), or
# fail with 125 saying the rootfs was replaced. A decoy run is fine: it was the rootfs's name
# when crib looked; what must not happen is a mix of the two, or a chroot.
mask=/proc/kcore
[ -e $mask ] || mask=/proc/keys
# As root the race runs in a directory every user can reach, so that the path of kernels
# before 5.2 (no open_tree: the rootfs found again by name, by root's subordinate ids) can
# reach it; the rootfs is then read-only, which crib requires of a root-owned rootfs there.
if [ "$ROLE" = root ]; then
	RB=$(mktemp -d /tmp/crib-race.XXXXXX)
	chmod 755 "$RB"
	trap 'rm -rf "$T" "$RB"' EXIT
else
	RB=$T
fi
mkdir -p "$RB/race"
copy_rootfs "$RB/race/root"
copy_rootfs "$RB/race/decoy"
echo real >"$RB/race/root/which"
echo decoy >"$RB/race/decoy/which"
echo host >"$RB/race/hostmark"
cat >"$RB/race.ini" <<EOF2
[container]
rootfs = race/root
readonly_rootfs = yes
[process]
args = /bin/sh -c 'w=\$(cat /which 2>/dev/null); awk "\\\$5 == \\"/proc\\" && \\\$(NF-2) == \\"proc\\" {p=1} \\\$5 == \\"$mask\\" {k=1} END {printf \\"proc=%d mask=%d \\", p, k}" /proc/self/mountinfo 2>/dev/null; cd /; cd ../../..; [ "\$(ls -di . | cut -d" " -f1)" = "\$(ls -di / | cut -d" " -f1)" ] && u=1 || u=0; test -e $RB/race/hostmark && h=1 || h=0; echo "up=\$u host=\$h \$w"'
[mounts]
tmpfs = /scratch
EOF2
run_crib run "$RB/race.ini"
assert_eq "$rc:$out" "0:proc=1 mask=1 up=1 host=0 real" "the race's workload reports its tree, /proc, the $mask mask, no way up, no host"

# race LABEL SECONDS [WRAPPER]: at most 200 starts in SECONDS while the swaps run
race() {
	"$SWAP_RACE" "$RB/race/root" "$RB/race/decoy" $(($2 + 30)) >"$T/swaps" 2>&1 &
	swapper=$!
	starts=0 real=0 decoy=0 refused=0 bad=0 deadline=$(($(date +%s) + $2))
	while [ $starts -lt 200 ] && [ "$(date +%s)" -lt $deadline ]; do
		out=$($3 "$CRIB" run "$RB/race.ini" 2>"$T/.stderr" </dev/null)
		rc=$?
		err=$(strip_aa <"$T/.stderr")
		starts=$((starts + 1))
		case "$rc:$out:$err" in
		*"pivot_root is not possible"*) kind=bad ;; # the chroot fallback, escapable
		"0:proc=1 mask=1 up=1 host=0 real:") kind=real ;;
		"0:proc=1 mask=1 up=1 host=0 decoy:") kind=decoy ;;
		"125::crib: the rootfs '"*"' was replaced while crib started"*) kind=refused ;;
		*) kind=bad ;;
		esac
		eval "$kind=\$((\$kind + 1))"
		if [ $kind = bad ] && [ $bad -le 5 ]; then
			printf '# bad start %d: rc=%s out=%s err=%s\n' $starts "$rc" "$out" "$(echo "$err" | tr '\n' '|')"
		fi
	done
	kill $swapper 2>/dev/null
	wait $swapper 2>/dev/null
	echo "# $1: $starts starts during the swaps: $real in the rootfs, $decoy in the decoy, $refused refused with 125, $bad otherwise"
	assert_eq "$bad" 0 "$1: no start mixed the trees, ran without /proc or masks, chrooted, or failed otherwise"
	# (the test can tell: some start met the decoy, or was refused for it)
	[ $((decoy + refused)) -gt 0 ]
	ok $? "$1: the swaps raced the starts ($decoy ran the decoy, $refused were refused)"
	if [ "$(cat "$RB/race/root/which")" != real ]; then
		mv "$RB/race/root" "$RB/race/x" && mv "$RB/race/decoy" "$RB/race/root" && mv "$RB/race/x" "$RB/race/decoy"
	fi
}
# RACE_SECONDS: 90, less under emulation, where starts are slow
race "this kernel" "${RACE_SECONDS:-90}"
# before Linux 5.2 the rootfs is bound with mount(2) and found again by name, and checked
if [ -n "${OLD_KERNEL:-}" ]; then
	race "as before Linux 5.2 (no open_tree, openat2, mount_setattr)" "$(((${RACE_SECONDS:-90} + 2) / 3))" "$OLD_KERNEL"
else
	skip "no old-kernel helper here (OLD_KERNEL is unset)"
	skip "no old-kernel helper here (OLD_KERNEL is unset)"
fi

# --- rootfs = / (or any path to the host's root) is refused before anything is made ---
if [ "$ROLE" = root ]; then
	before=$(ls -a /)
fi
mounts_before=$(host_mounts)
printf '[container]\nrootfs = /\n[process]\nargs = /bin/true\n[mounts]\nbind = /etc/hostname /crib-leftover-%s\ntmpfs = /crib-leftover-dir-%s\n' $$ $$ >"$T/slash.ini"
run_crib run "$T/slash.ini"
assert_eq "$rc" 125 "rootfs = /: 125"
assert_contains "$err" "slash.ini:2: rootfs '/' is the host's root directory" "with FILE:LINE and why"
assert_contains "$err" "rootfs-tools/mkrootfs" "and the remedy"
printf '[container]\nrootfs = ../../../../../../../../../../..\n[process]\nargs = /bin/true\n' >"$T/up.ini"
run_crib run "$T/up.ini"
assert_contains "$rc:$err" "125:crib: $T/up.ini:2: rootfs '" "a relative path that ends at / is refused too"
if [ "$ROLE" = root ]; then
	assert_eq "$(ls -a /)" "$before" "nothing was made in the host's /"
	rm -rf "/crib-leftover-$$" "/crib-leftover-dir-$$" # what the code before the fix left
else
	skip "only root can write the host's / (this run is as $ROLE)"
fi
assert_eq "$(host_mounts)" "$mounts_before" "and nothing was mounted"

# --- ELOOP: a link of /proc on the way to a mountpoint gets the right hint ---
copy_rootfs "$RB/magic"
ln -s /proc/self/cwd "$RB/magic/m"
mkdir -p "$RB/data"
printf '[container]\nrootfs = magic\nreadonly_rootfs = yes\n[process]\nargs = /bin/true\n[mounts]\nbind = data /m/x ro\n' >"$RB/magic.ini"
run_crib run "$RB/magic.ini"
assert_eq "$rc" 125 "a mountpoint through /proc/self/cwd: 125"
assert_contains "$err" "magic.ini:7: cannot open '/m/x' in the rootfs" "naming the spec line and the path"
assert_contains "$err" "passes through a link of /proc" "the hint names the /proc link"
assert_not_contains "$err" "this kernel has no openat2" "and does not blame a kernel that has openat2"
if [ -n "${OLD_KERNEL:-}" ]; then
	ln -s /etc "$RB/magic/plain"
	printf '[container]\nrootfs = magic\nreadonly_rootfs = yes\n[process]\nargs = /bin/true\n[mounts]\nbind = data /plain/x ro\n' >"$RB/plain.ini"
	"$OLD_KERNEL" "$CRIB" run "$RB/plain.ini" >/dev/null 2>"$T/.stderr"
	rc=$?
	err=$(strip_aa <"$T/.stderr")
	assert_contains "$rc:$err" "125:crib: $RB/plain.ini:7: cannot open '/plain/x' in the rootfs" "before Linux 5.6 a symlink on the way to a mountpoint is refused"
	assert_contains "$err" "this kernel has no openat2(2)" "and the hint names the missing openat2"
else
	skip "no old-kernel helper here (OLD_KERNEL is unset)"
	skip "no old-kernel helper here (OLD_KERNEL is unset)"
fi

# --- /proc hidden under another mount is an error, not a container without masks ---
copy_rootfs "$T/hidden"
rmdir "$T/hidden/proc"
mkdir -p "$T/hidden/tmp/p"
ln -s /tmp/p "$T/hidden/proc"
printf '[container]\nrootfs = hidden\n[process]\nargs = /bin/sh -c "ls /proc/ | head -n 3"\n[mounts]\ntmpfs = /tmp\n' >"$T/hidden.ini"
run_crib run "$T/hidden.ini"
assert_eq "$rc" 125 "a /proc hidden by a later mount: 125"
assert_contains "$err" "'/proc' in the container is not a proc filesystem" "saying /proc is not proc"
spec "$T/nokernel.ini" <<'EOF2'
[process]
args = /bin/true
[security]
masked_paths = default +/proc/no-such-file
EOF2
out=$("$CRIB" run --trace "$T/nokernel.ini" 2>&1)
assert_eq "$?" 0 "a masked path this kernel does not have is skipped"
assert_eq "$(echo "$out" | grep no-such-file)" "crib: trace:   (no /proc/no-such-file on this kernel: skipped)" "and the trace says so"

# --- devices: only the standard nodes open ---
spec "$T/std.ini" <<'EOF2'
[process]
args = /bin/sh -c 'echo x >/dev/null && echo null; head -c 2 /dev/zero | wc -c; head -c 2 /dev/urandom | wc -c; head -c 2 /dev/random | wc -c; echo x 2>&1 >/dev/full | grep -c "No space"; : <>/dev/ptmx && echo ptmx'
EOF2
run_crib run "$T/std.ini"
assert_eq "$rc:$(echo $out)" "0:null 2 2 2 1 ptmx" "the standard nodes open (null, zero, urandom, random, full, ptmx)"

# real root (user = no) keeps CAP_MKNOD: every place it can make a node, and the rootfs's own
# nodes, are nodev (char 1:3 is the null device: harmless if a regression lets it open)
wanted="/dev /tmp /data /root /scratch block shipped"
if [ "$ROLE" != root ]; then
	for w in - $wanted chmod; do skip "user = no needs root (this run is as $ROLE)"; done
	done_testing
	exit
fi
copy_rootfs "$T/dev"
mkdir -p "$T/data"
mknod "$T/dev/root/shipped" c 1 3
cat >"$T/dev.ini" <<'EOF2'
[container]
rootfs = dev
[process]
args = /bin/sh -c 'for d in /dev /tmp /data /root /scratch; do mknod $d/made c 1 3 && (: <$d/made) 2>/dev/null && echo "$d opened"; done; mknod /dev/blk b 7 0 && (: <>/dev/blk) 2>/dev/null && echo "block opened"; (: </root/shipped) 2>/dev/null && echo "shipped opened"; (: </mynull) && echo "named node opened"; echo end'
[namespaces]
user = no
[mounts]
tmpfs = /tmp
bind = data /data
bind = /dev/null /mynull
tmpfs = /scratch
EOF2
run_crib run "$T/dev.ini"
assert_eq "$rc:$(echo $out)" "0:named node opened end" "user = no: only the device the spec binds by name opens"
[ "$rc" = 0 ] || sed "s/^/#   raw: /" "$T/.stderr"
for w in $wanted; do
	assert_not_contains "$out" "$w opened" "user = no: a node made in (or shipped as) $w does not open"
done

# its standard nodes are its own: a chmod inside leaves the host's alone
host_modes=$(stat -c %a /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty | tr '\n' ' ')
spec "$T/chmod.ini" <<'EOF2'
[process]
args = /bin/sh -c 'chmod 600 /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty'
[namespaces]
user = no
EOF2
run_crib run "$T/chmod.ini"
after=$(stat -c %a /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty | tr '\n' ' ')
assert_eq "$rc:$after" "0:$host_modes" "user = no: chmod of the standard nodes inside leaves the host's modes"
[ "$after" = "$host_modes" ] || chmod 666 /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty

# --- a host without one of the standard nodes, or with something else by its name: the
# container goes without it (the child checks the host's node where it binds it), and no empty
# file is left in its place. In a mount namespace of the test's own, /dev a tmpfs with null,
# zero, full, random and urandom bound from the real one; /dev/tty absent, then a regular file.
# As root crib runs as real root (the parent opens each node's tree); as the user under
# unshare -r (the child opens them by name).
cat >"$T/nodev.sh" <<'EOF2'
set -e
mkdir -p "$1/old"
mount --rbind /dev "$1/old"
mount -t tmpfs -o mode=755 none /dev
for n in null zero full random urandom; do
	touch /dev/$n
	mount --bind "$1/old/$n" /dev/$n
done
[ "$2" = file ] && echo not-a-device >/dev/tty
shift 2
exec "$@"
EOF2
spec "$T/nodev.ini" <<'EOF2'
[process]
args = /bin/sh -c 'for n in null zero full random urandom tty; do [ -c /dev/$n ] && printf "%s " $n; done; [ -e /dev/tty ] || printf "no-tty "; head -c 2 /dev/zero | wc -c'
EOF2
wrap="unshare -m --propagation private"
[ "$ROLE" = root ] || wrap="unshare -rm --propagation private"
if [ "$ROLE" != root ] && ! userns_works; then
	skips 2 "this user cannot create a user namespace with unshare(1)"
else
	for kind in absent file; do
		mkdir -p "$T/nodev-$kind"
		out=$($wrap sh "$T/nodev.sh" "$T/nodev-$kind" $kind "$CRIB" run "$T/nodev.ini" 2>"$T/.stderr" </dev/null)
		rc=$?
		assert_eq "$rc:$out" "0:null zero full random urandom no-tty 2" \
			"a host whose /dev/tty is $kind: the container has the other nodes and no tty, not even a file"
		[ "$rc" = 0 ] || sed "s/^/#   stderr: /" "$T/.stderr"
	done
fi

# --- the device program (issue 14): with SYS_ADMIN real root mounts a fresh tmpfs without
# nodev, so there only the cgroup's BPF device program stands between a node and the device.
# zero (1:5) is standard, kmsg (1:11, written: one line in the kernel log) and loop0 (b 7:0) are
# not, unless the spec binds them by name.
cg2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ -z "$cg2" ]; then
	skips 6 "no cgroup v2 hierarchy here: the device program needs one (the VM guests test it)"
	done_testing
	exit
fi
probe='mkdir -p /tmp/d && mount -t tmpfs -o mode=755 t /tmp/d || exit 9; mknod /tmp/d/zero c 1 5; mknod /tmp/d/kmsg c 1 11 && echo mknod; head -c 3 /tmp/d/zero | wc -c; (echo "<6>crib e2e: device program probe" >/tmp/d/kmsg) 2>&1 | grep -o "not permitted"; mknod /tmp/d/loop b 7 0 && (: </tmp/d/loop) 2>&1 | grep -o "not permitted"'
cat >"$T/devprog.ini" <<EOF2
[container]
rootfs = $ROOTFS
[process]
args = /bin/sh -c '$probe'
[namespaces]
user = no
[security]
capabilities = default +SYS_ADMIN
EOF2
"$CRIB" run --trace "$T/devprog.ini" >"$T/dp.out" 2>"$T/dp.err"
rc=$?
assert_eq "$rc:$(grep -c '  device program (.*c 1:3, c 1:5' "$T/dp.err")" "0:1" "user = no: a device program goes on its cgroup (the trace lists what opens)"
assert_eq "$(cat "$T/dp.out" | tr '\n' ' ')" "mknod 3 not permitted not permitted " \
	"user = no with SYS_ADMIN, on a fresh tmpfs without nodev: mknod works, zero opens, kmsg and a block device do not"
sed 's/\[security\]/[mounts]\nbind = \/dev\/kmsg \/dev\/kmsg\n[security]/' "$T/devprog.ini" >"$T/devbind.ini"
"$CRIB" run "$T/devbind.ini" >"$T/db.out" 2>"$T/db.err"
assert_eq "$?:$(cat "$T/db.out" | tr '\n' ' ')" "0:mknod 3 not permitted " \
	"a device the spec binds by name (/dev/kmsg) opens, even through a node made elsewhere: the control"
assert_eq "$(ls "$cg2/crib" 2>/dev/null | grep -c '^run-')" 0 "and the cgroups of the containers above are gone"
# crib exec joins the container's cgroup, so its process meets the same program
"$CRIB" --root "$T/state" run -d --name devx "$T/devprog.ini" -- /bin/sleep 60 >/dev/null 2>"$T/dx.err"
"$CRIB" --root "$T/state" exec devx -- /bin/sh -c "$probe" >"$T/dx.out" 2>>"$T/dx.err"
assert_eq "$?:$(cat "$T/dx.out" | tr '\n' ' ')" "0:mknod 3 not permitted not permitted " \
	"crib exec into it: its process is in the cgroup, under the same program"
sed 's/^/#   stderr: /' "$T/dx.err"
"$CRIB" --root "$T/state" rm -f devx >/dev/null 2>&1
assert_eq "$([ -d "$cg2/crib/devx" ] && echo left || echo gone)" gone "crib rm removes its cgroup"
done_testing
