#!/bin/sh
# Issue 31, hole 8: a user's container leaves no setuid program of the user's for other host
# users. What a rootless container writes in its rootfs is its user's on disk, so a setuid copy
# of a program that container root made there ran as the user for anyone who could reach it
# (seen: another user became the first). crib refused that only for root's containers. Now a
# user's writable rootfs that other users can reach is refused too, with the remedy (exit 125,
# nothing run); in a 0700 directory, or read-only, it runs. The attack itself needs a second
# host user, so as root the test plays both: crib-test runs the container, nobody tries the
# setuid file; as a user it checks what it can without one.
# An attacker's review of that fix found three ways around it, each tested below:
#  - a read-write bind of a directory other users reach takes the setuid file just as well: crib
#    warns (FILE:LINE, why, the remedy), and refuses one of the rootfs, in it or above it, that
#    would undo readonly_rootfs for a rootfs others reach;
#  - root's rootfs owned by its range (crib's own hint said to chown it so) was never checked:
#    another user became the range's first id, every root container's root;
#  - a rootfs on a nosuid mount was exempt, but the same directory through another mount is not
#    nosuid (seen: the tmpfs bound again elsewhere): a nosuid mount exempts nothing now.
. "$(dirname "$0")/../lib/libtest.sh"

# the probe switches users on the host (probe as UID GID CMD: setuid, then exec; the VM guests
# have no setpriv)
HPROBE=$ROOTFS/usr/local/bin/probe
tuser=crib-test
if [ "$ROLE" = root ]; then
	uid=$(awk -F: -v n="$tuser" '$1 == n {print $3}' /etc/passwd)
	gid=$(awk -F: -v n="$tuser" '$1 == n {print $4}' /etc/passwd)
	if [ -z "$uid" ]; then
		echo "1..0 # SKIP as root this test runs crib as $tuser (tests/run-all makes it), which is missing"
		exit 0
	fi
	# as_user CMD...: as the user who runs the containers
	as_user() { "$HPROBE" as "$uid" "$gid" env HOME=/ "$@"; }
else
	as_user() { "$@"; }
	uid=$(id -u)
	gid=$(id -g)
	tuser=$(id -un)
fi
# nobody FILE: another host user (uid and gid 65534) runs the setuid FILE; prints its real and
# effective uid
nobody() { "$HPROBE" as 65534 65534 sh -c "'$1' ids" 2>&1; }
# ucrib ARGS...: crib as that user; stdout in $out, stderr in $err, status in $rc
ucrib() {
	out=$(as_user "$CRIB" "$@" 2>"$T/.stderr" </dev/null)
	rc=$?
	err=$(strip_aa <"$T/.stderr")
}

# a directory every user can reach (/tmp is), the user's, with the user's rootfs in it: its
# own copy, so that the container's root (the user) owns its /
O=$(mktemp -d /tmp/crib-open.XXXXXX)
trap 'rm -rf "$T" "$O"' EXIT
mkdir "$O/rootfs"
for d in bin sbin usr etc dev proc sys tmp; do cp -a "$ROOTFS/$d" "$O/rootfs/" 2>/dev/null; done
[ "$ROLE" = root ] && chown -R "$uid:$gid" "$O"
chmod 755 "$O" "$O/rootfs"
if [ -z "$(find /tmp -maxdepth 0 -perm -o+x)" ]; then
	echo "1..0 # SKIP /tmp is not reachable by other users here: no place to test a reachable rootfs"
	exit 0
fi
# a setuid copy of the probe, made by container root in its rootfs
printf '[container]\nrootfs = rootfs\n[process]\nargs = /bin/sh -c "cp /usr/local/bin/probe /suid && chmod 4755 /suid"\n' >"$O/suid.ini"
printf '[container]\nrootfs = rootfs\n[process]\nargs = /bin/touch /ran\n' >"$O/ran.ini"
printf '[container]\nrootfs = rootfs\nreadonly_rootfs = yes\n[process]\nargs = /bin/true\n' >"$O/ro.ini"
[ "$ROLE" = root ] && chown "$uid:$gid" "$O"/*.ini

# --- reachable: refused, with the remedy, and nothing runs
ucrib run "$O/ran.ini"
assert_eq "$rc" 125 "a writable rootfs in a 0755 directory other users reach: 125"
assert_contains "$err" "ran.ini:2: other users can reach rootfs '$O/rootfs', and the container can write it: a setuid file the container made there would run as you for them" \
	"FILE:LINE, and why"
assert_contains "$err" "hint: shut other users out of a directory above it (chmod 700 $O/rootfs/..), or set readonly_rootfs = yes" \
	"with the remedy"
[ ! -e "$O/rootfs/ran" ]
ok $? "nothing ran (no /ran)"

chmod 700 "$O/rootfs"
ucrib run "$O/ran.ini"
assert_eq "$rc" 125 "the rootfs itself 0700 is no shelter: container root owns it and may chmod it"
chmod 755 "$O/rootfs"

# through a symlink in a 0700 directory of the user's: the directories above the rootfs itself
L=$(as_user mktemp -d /tmp/crib-link.XXXXXX)
trap 'rm -rf "$T" "$O" "$L"' EXIT
as_user ln -s "$O/rootfs" "$L/link"
printf '[container]\nrootfs = %s/link\n[process]\nargs = /bin/true\n' "$L" | as_user tee "$L/link.ini" >/dev/null
ucrib run "$L/link.ini"
assert_eq "$rc" 125 "nor is a symlink to it from a 0700 directory: the directories above the rootfs itself count"

ucrib run "$O/ro.ini"
assert_eq "$rc:$err" "0:" "read-only, it runs"

# --- the attack, where it can be made: container root leaves a setuid copy of a program in the
# reachable rootfs, another host user runs it
rm -f "$O/rootfs/suid"
ucrib run "$O/suid.ini"
assert_eq "$rc" 125 "the container that would make a setuid file there does not run"
if [ "$ROLE" = root ]; then
	if [ -e "$O/rootfs/suid" ]; then
		r=$(nobody "$O/rootfs/suid")
	else
		r="no setuid file"
	fi
	assert_not_contains "$r" " $uid" "another user (65534) does not become $tuser ($r)"
else
	skip "another host user is needed to try the setuid file: only root can be one (run as root)"
fi

# --- shut: in a 0700 directory it runs, and what it leaves is out of others' reach
chmod 700 "$O"
ucrib run "$O/ran.ini"
assert_eq "$rc:$err" "0:" "in a 0700 directory of the user's, it runs"
assert_eq "$(stat -c %u "$O/rootfs/ran" 2>&1)" "$uid" "and ran (its /ran is the user's on the host)"
ucrib run "$O/suid.ini"
assert_eq "$rc:$(stat -c '%a %u' "$O/rootfs/suid" 2>&1)" "0:4755 $uid" \
	"container root may make a setuid file there: the user's, setuid, on the host"
if [ "$ROLE" = root ]; then
	r=$(nobody "$O/rootfs/suid")
	assert_contains "$r" "ermission denied" "another user (65534) cannot reach it"
else
	skip "another host user is needed to try the setuid file: only root can be one (run as root)"
fi
rm -f "$O/rootfs/suid"

# the user's private group may reach it: its primary group, no one else's, no other member
private=no
gname=$(awk -F: -v g="$gid" '$3 == g {print $1; exit}' /etc/group)
if [ -n "$gname" ] &&
	[ "$(awk -F: -v g="$gid" '$4 == g' /etc/passwd | wc -l)" = 1 ] &&
	[ -z "$(awk -F: -v g="$gid" -v n="$tuser" '$3 == g {n2 = split($4, m, ","); for (i = 1; i <= n2; i++) if (m[i] != "" && m[i] != n) print m[i]}' /etc/group)" ]; then
	private=yes
fi
chmod 750 "$O"
[ "$ROLE" = root ] && chgrp "$gid" "$O"
ucrib run "$O/ran.ini"
if [ "$private" = yes ]; then
	assert_eq "$rc:$err" "0:" "0750, the group the user's private one ($gname): it runs"
else
	assert_eq "$rc" 125 "0750, the group $gname, which others have: 125"
fi
if [ "$ROLE" = root ]; then
	# a group others are in
	chgrp users "$O" 2>/dev/null || chgrp 100 "$O"
	ucrib run "$O/ran.ini"
	assert_eq "$rc" 125 "0750, a group others may be in (users): 125"
else
	skip "only root can give the directory a group the user does not own"
fi

# --- a read-write bind of a directory other users can reach: a warning, with the remedy
B=$(mktemp -d /tmp/crib-bind.XXXXXX)
trap 'rm -rf "$T" "$O" "$L" "$B"' EXIT
chmod 755 "$B"
mkdir -m 0700 "$B/shut"
mkdir -m 0755 "$B/pub" "$B/shut/src" "$B/shut/rootfs"
for d in bin sbin usr etc dev proc sys tmp var; do cp -a "$ROOTFS/$d" "$B/shut/rootfs/" 2>/dev/null; done
mkdir -p "$B/shut/rootfs/var"
printf '[container]\nrootfs = rootfs\n[process]\nargs = /bin/sh -c "cp /usr/local/bin/probe /pub/s && chmod 4755 /pub/s"\n[mounts]\nbind = %s /pub rw\n' "$B/pub" >"$B/shut/bind.ini"
printf '[container]\nrootfs = rootfs\n[process]\nargs = /bin/true\n[mounts]\nbind = %s /pub ro\nbind = %s /src rw\n' "$B/pub" "$B/shut/src" >"$B/shut/quiet.ini"
[ "$ROLE" = root ] && chown -R "$uid:$gid" "$B"
ucrib run "$B/shut/bind.ini"
assert_eq "$rc" 0 "a rw bind of a directory others reach runs (the spec's own choice, as with podman)"
assert_contains "$err" "crib: warning: $B/shut/bind.ini:6: other users can reach bind source '$B/pub', and the container can write it: a setuid file the container made there would run as you for them" \
	"but crib warns: FILE:LINE, and why"
assert_contains "$err" "crib: hint: bind it ro, or shut other users out of a directory above it (chmod 700 $B/pub/..)" \
	"with the remedy"
# what the warning is about: the user's setuid file, on the host, where others reach it
assert_eq "$(stat -c '%a %u' "$B/pub/s" 2>&1)" "4755 $uid" "(the risk it names: container root left a setuid file of the user's there)"
rm -f "$B/pub/s"
ucrib run "$B/shut/quiet.ini"
assert_eq "$rc:$err" "0:" "bound ro, or a rw bind from a 0700 directory: no warning"
# ro at level unconfined (SYS_ADMIN): the kernel locks the read-only flag in the workload's own
# mount namespace (lockmounts.c), so it stays read-only, and needs no warning
cat >"$B/shut/sysadmin.ini" <<EOF
[container]
rootfs = rootfs
[process]
args = /bin/sh -c "mount -o remount,rw /pub 2>/dev/null; touch /pub/w 2>/dev/null || echo ro"
[mounts]
bind = $B/pub /pub ro
[security]
level = unconfined
EOF
[ "$ROLE" = root ] && chown "$uid:$gid" "$B/shut/sysadmin.ini"
ucrib run "$B/shut/sysadmin.ini"
assert_eq "$rc:$out:$err:$(test -e "$B/pub/w" && echo written)" "0:ro::" \
	"bound ro at level unconfined (SYS_ADMIN): no warning, and a remount rw fails, the bind stays ro"

# readonly_rootfs with a rw bind of the rootfs's own /var, or of the directory holding it: that
# would undo readonly_rootfs, and the rootfs is where others reach it: refused like the rootfs
mkdir -m 0755 "$B/pub/open"
cp -a "$B/shut/rootfs" "$B/pub/open/rootfs"
printf '[container]\nrootfs = rootfs\nreadonly_rootfs = yes\n[process]\nargs = /bin/touch /var/ran\n[mounts]\nbind = %s /var rw\n' "$B/pub/open/rootfs/var" >"$B/pub/open/var.ini"
printf '[container]\nrootfs = rootfs\nreadonly_rootfs = yes\n[process]\nargs = /bin/touch /up/rootfs/ran\n[mounts]\nbind = %s /up rw\n' "$B/pub/open" >"$B/pub/open/up.ini"
[ "$ROLE" = root ] && chown -R "$uid:$gid" "$B/pub/open"
ucrib run "$B/pub/open/var.ini"
assert_eq "$rc" 125 "readonly_rootfs others reach, with its /var bound rw: 125"
assert_contains "$err" "var.ini:7: bind source '$B/pub/open/rootfs/var' is in rootfs '$B/pub/open/rootfs', which other users can reach" \
	"FILE:LINE, and why"
[ ! -e "$B/pub/open/rootfs/var/ran" ]
ok $? "nothing ran (no /var/ran)"
ucrib run "$B/pub/open/up.ini"
assert_eq "$rc" 125 "readonly_rootfs others reach, with the directory above it bound rw: 125"
assert_contains "$err" "up.ini:7: bind source '$B/pub/open' holds rootfs" "FILE:LINE, and why"
[ ! -e "$B/pub/open/rootfs/ran" ]
ok $? "nothing ran (no /ran)"

# --- root's rootfs owned by its range (as crib's hint once said), where others reach it
if [ "$ROLE" != root ]; then
	skips 3 "root's containers need root"
else
	# shellcheck disable=SC2046 # START COUNT
	set -- $(root_range uid)
	start=${1:-}
	if [ -z "$start" ]; then
		skips 3 "root has no subordinate range here"
	else
		R=$B/pub/ranged
		mkdir -m 0755 "$R"
		cp -a "$B/shut/rootfs" "$R/rootfs"
		chown -hR "$start:$start" "$R/rootfs"
		printf '[container]\nrootfs = rootfs\n[process]\nargs = /bin/sh -c "cp /usr/local/bin/probe /s && chmod 4755 /s"\n[idmap]\nuid = auto\ngid = auto\n' >"$R/s.ini"
		run_crib run "$R/s.ini"
		r=none
		[ -e "$R/rootfs/s" ] && r=$(nobody "$R/rootfs/s")
		assert_eq "$rc" 125 "root's writable rootfs owned by its range ($start), others reach it: 125 (nobody ran what it left: '$r')"
		assert_contains "$err" "s.ini:2: other users can reach rootfs '$R/rootfs', and the container can write it: a setuid file the container made there would run as uid $start (the container's root, and root in every container root runs with its own range) for them" \
			"FILE:LINE, and why"
		assert_not_contains "$err" "chown" "the remedy no longer says to give it to the range"
	fi
fi

# --- a rootfs on a nosuid mount, which another mount shows without nosuid
N=$B/pub/nosuid
mkdir -m 0755 "$N" "$B/pub/suid"
# nosuid_run CMD...: mount a nosuid tmpfs on $N holding a copy of the user's rootfs, bind it
# again (suid) on $B/pub/suid, and run crib's suid.ini there
printf '[container]\nrootfs = rootfs\n[process]\nargs = /bin/sh -c "cp /usr/local/bin/probe /suid && chmod 4755 /suid"\n' >"$B/suid.ini"
chmod 644 "$B/suid.ini"
mounts="mount -t tmpfs -o nosuid,nodev,mode=0755,size=16m tmpfs '$N' && mount --bind '$N' '$B/pub/suid' && mount -o remount,bind,suid '$B/pub/suid' && cp -a '$B/shut/rootfs' '$N/rootfs' && cp '$B/suid.ini' '$N/' && findmnt -no OPTIONS '$N' >'$T/opts'"
if [ "$ROLE" = root ]; then
	# a mount namespace of the test's own; crib-test's container, nobody runs what it left
	out=$(unshare -m --propagation private sh -c "$mounts && chown -R $uid:$gid '$N' && $HPROBE as $uid $gid env HOME=/ '$CRIB' run '$N/suid.ini' </dev/null; echo rc=\$?; ls -ln '$B/pub/suid/rootfs/suid' 2>&1; [ -e '$B/pub/suid/rootfs/suid' ] && $HPROBE as 65534 65534 sh -c \"'$B/pub/suid/rootfs/suid' ids\" 2>&1" 2>"$T/.stderr")
else
	out=$(unshare -Urm sh -c "$mounts && '$CRIB' run '$N/suid.ini' </dev/null; echo rc=\$?" 2>"$T/.stderr")
fi
err=$(strip_aa <"$T/.stderr")
case "$(cat "$T/opts" 2>/dev/null)" in
*nosuid*)
	assert_contains "$out" "rc=125" "a writable rootfs others reach on a nosuid tmpfs (bound suid elsewhere): 125"
	assert_contains "$err" "other users can reach rootfs '$N/rootfs'" "and says why"
	if [ "$ROLE" = root ]; then
		assert_not_contains "$out" "65534 $uid" "another user (65534) does not become $tuser through the suid mount ($(echo "$out" | tail -1))"
		echo "$out" | sed "s/^/# /"
	else
		skip "another host user is needed to try the setuid file: only root can be one (run as root)"
	fi
	;;
*) skips 3 "no nosuid tmpfs in a mount namespace of the test's own here: $(head -1 "$T/.stderr")" ;;
esac

done_testing
