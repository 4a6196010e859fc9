#!/bin/sh
# Run as root, a container's root is not host root (issue 11, hole 3): root's default map is its
# own range of subordinate ids, a root-owned rootfs still looks root's inside (idmapped mount),
# and what uid 0 of the host could do from inside (change host device nodes, leave a setuid-root
# file for host users, write the host's kernel settings) fails.
. "$(dirname "$0")/../lib/libtest.sh"
requires root

set -- $(root_range uid)
spec "$T/map.ini" <<'EOF2'
[process]
args = /bin/sh -c 'cat /proc/self/uid_map; stat -c %u:%g /bin/busybox /'
EOF2
run_crib run "$T/map.ini"
set -- $(root_range uid)
assert_eq "$(echo "$out" | head -1 | tr -s ' ' | sed 's/^ //')" "0 $1 $2" "root's default map: container root is root's subordinate uid $1, not 0"
assert_eq "$(echo "$out" | sed -n 2,3p | tr '\n' ' ')" "0:0 0:0 " "the root-owned rootfs still looks root's inside (idmapped)"
assert_not_contains "$err" "maps host uid 0" "and no warning about host root"

# host device nodes are bound into /dev: container root may not change them
before=$(stat -c %a /dev/full)
spec "$T/dev.ini" <<'EOF2'
[process]
args = /bin/sh -c 'chmod 600 /dev/full 2>&1 || true; chown 1:1 /dev/null 2>&1 || true'
EOF2
run_crib run "$T/dev.ini"
assert_contains "$out" "Operation not permitted" "chmod of the bound /dev/full is refused"
assert_eq "$(stat -c %a /dev/full)" "$before" "the host's /dev/full keeps mode $before"
chmod "$before" /dev/full

# a setuid-root file made by container root: host users cannot reach it
spec "$T/suid.ini" <<'EOF2'
[process]
args = /bin/sh -c 'cp /bin/busybox /suid && chmod 4755 /suid && stat -c %a /suid'
EOF2
run_crib run "$T/suid.ini"
assert_eq "$out" "4755" "container root may make a setuid file in its rootfs"
owner=$(stat -c %u "$ROOTFS/suid")
if [ "$owner" = 0 ]; then
	# owned by host root on disk (idmapped): only safe because no other user can reach it
	r=$(setpriv --reuid=crib-test --regid=crib-test --init-groups sh -c "'$ROOTFS/suid' id -u" 2>&1)
	assert_contains "$r" "Permission denied" "a host user cannot run it (the rootfs sits in a 0700 directory)"
else
	assert_eq "$owner" "$1" "it belongs to root's subordinate uid on the host, not to host root"
fi
rm -f "$ROOTFS/suid"

# crib refuses a writable root-owned rootfs other users can reach
mkdir -p "$T/open"
chmod 755 "$T/open"
cp -a "$ROOTFS" "$T/open/rootfs"
chown -hR 0:0 "$T/open/rootfs" # host root's, whatever the test rootfs was given
printf '[container]\nrootfs = open/rootfs\n[process]\nargs = /bin/true\n' >"$T/open.ini"
if [ -z "$(find "$T" -maxdepth 0 -perm -o+x)" ] || [ -z "$(find "$(dirname "$T")" -maxdepth 0 -perm -o+x)" ]; then
	# the scratch directory is shut: open every directory above the test rootfs
	d=$T/open
	while [ "$d" != / ]; do
		[ -n "$(find "$d" -maxdepth 0 -perm -o+x)" ] || { opened="$opened $d:$(stat -c %a "$d")"; chmod o+x "$d"; }
		d=$(dirname "$d")
	done
fi
run_crib run "$T/open.ini"
assert_eq "$rc" 125 "a writable root-owned rootfs others can reach: 125"
assert_contains "$err" "open.ini:2: " "FILE:LINE names it"
assert_contains "$err" "setuid file" "and says why"
# (giving it to root's range is no remedy: such a rootfs is checked too, 31-user-rootfs.t)
assert_contains "$err" "hint: shut other users out of a directory above it (chmod 700 $T/open/rootfs/..), or set readonly_rootfs = yes" "with the remedies"
printf '[container]\nrootfs = open/rootfs\nreadonly_rootfs = yes\n[process]\nargs = /bin/true\n' >"$T/open.ini"
run_crib run "$T/open.ini"
case "$err" in
*"no idmapped mounts"* | *"idmapped mounts need"*) assert_eq "$rc" 0 "read-only, it runs (without idmapped mounts here: $(echo "$err" | head -1))" ;;
*) assert_eq "$rc:$err" "0:" "read-only, it runs" ;;
esac
for o in $opened; do chmod "${o#*:}" "${o%:*}"; done

# +SYS_ADMIN may undo the mask on /proc/sys, but the host's settings stay out of reach
pattern=$(cat /proc/sys/kernel/core_pattern)
spec "$T/sys.ini" <<'EOF2'
[process]
args = /bin/sh -c 'umount /proc/sys 2>/dev/null; umount -l /proc/sys 2>/dev/null; echo "|/tmp/evil" > /proc/sys/kernel/core_pattern 2>/dev/null && echo written || echo refused'
[security]
capabilities = default +SYS_ADMIN
EOF2
run_crib run "$T/sys.ini"
assert_eq "$out" "refused" "+SYS_ADMIN: writing the host's core_pattern is refused"
assert_eq "$(cat /proc/sys/kernel/core_pattern)" "$pattern" "the host's core_pattern is unchanged"

# host root only when asked for plainly, and then with a warning
spec "$T/hostroot.ini" <<'EOF2'
[process]
args = /bin/true
[idmap]
uid = 0 0 65536
gid = 0 0 65536
EOF2
run_crib run "$T/hostroot.ini"
assert_eq "$rc" 0 "an explicit map of host root runs"
assert_contains "$err" "crib: warning: the spec maps host uid 0 into the container" "with a warning"

done_testing
