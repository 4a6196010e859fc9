#!/bin/sh
# The root filesystem: pivot_root left no way back to the host, /proc, /dev and /sys are the
# container's, [mounts] apply with their options, and nothing is mounted on the host.
. "$(dirname "$0")/../lib/libtest.sh"

before=$(host_mounts)
# crib makes the mountpoints of [mounts] in the rootfs as the container's root: as a user, in a
# rootfs of one's own (the shared test rootfs is root's)
if [ "$ROLE" = user ]; then
	cp -R "$ROOTFS" "$T/own" 2>/dev/null # all but root's 0700 /root
	ROOTFS=$T/own
fi
mkdir -p "$T/data"
echo "host data" >"$T/data/file"
# root's container root is root's subordinate uid: let it write there too
[ "$ROLE" = root ] && chmod 1777 "$T/data"
spec "$T/m.ini" <<EOF2
[process]
args = /bin/true
[mounts]
bind = $T/data /data ro
bind = $T/data /rw
tmpfs = /scratch size=1m,mode=700
EOF2

run_crib run "$T/m.ini" -- /bin/sh -c 'cat /proc/self/mountinfo'
assert_eq "$rc" 0 "runs"
# (the masks over /proc/... and /sys/... are the hardening tests' business)
# (in order of mount ids: root's bind sources are opened by crib before the container's mounts)
points=$(echo "$out" | awk '$5 !~ "^/(proc|sys)/" {print $5}' | sort | tr '\n' ' ')
assert_eq "$points" "/ /data /dev /dev/full /dev/mqueue /dev/null /dev/pts /dev/random /dev/shm /dev/tty /dev/urandom /dev/zero /proc /rw /scratch /sys " \
	"the container's mounts and nothing of the host's (the old root is detached)"
run_crib run "$T/m.ini" -- /bin/sh -c 'test -e /work || test -e /etc/debian_version || test -e /root/.profile && echo host-visible; ls / | tr "\n" " "'
assert_not_contains "$out" "host-visible" "the host's root is not reachable"
assert_contains "$out" "bin data dev etc" "the rootfs is /"

run_crib run "$T/m.ini" -- /bin/sh -c 'cat /data/file; echo x > /data/new 2>&1 || echo ro-refused; echo y > /rw/new && echo rw-ok; grep " /data " /proc/self/mountinfo | grep -c " ro,"'
assert_eq "$(echo "$out" | sed -n 1p)" "host data" "the bind shows the host's files"
assert_contains "$out" "ro-refused" "a ro bind refuses writes"
assert_contains "$out" "rw-ok" "a rw bind takes writes"
assert_eq "$(cat "$T/data/new")" "y" "which reach the host directory"
assert_eq "$(echo "$out" | tail -n 1)" "1" "the ro bind is read-only in mountinfo"

run_crib run "$T/m.ini" -- /bin/sh -c 'grep " /scratch " /proc/self/mountinfo; stat -c %a /scratch'
assert_contains "$out" "tmpfs" "tmpfs mounted"
assert_contains "$out" "size=1024k" "with its size"
assert_eq "$(echo "$out" | tail -n 1)" "700" "and its mode"

run_crib run "$T/m.ini" -- /bin/sh -c 'echo /proc/[0-9]*; ls /dev | tr "\n" " "; echo; readlink /dev/fd; grep -c . /proc/net/dev; cat /sys/class/net/lo/operstate; grep " /sys " /proc/self/mountinfo | cut -d" " -f6'
assert_eq "$(echo "$out" | sed -n 1p)" "/proc/1 /proc/2" "/proc shows only the container's processes"
assert_eq "$(echo "$out" | sed -n 2p)" "fd full mqueue null ptmx pts random shm stderr stdin stdout tty urandom zero " "/dev holds the standard nodes and links"
assert_eq "$(echo "$out" | sed -n 3p)" "/proc/self/fd" "/dev/fd"
assert_eq "$(echo "$out" | sed -n 4p)" "3" "the network namespace has only lo"
assert_eq "$(echo "$out" | sed -n 5p)" "unknown" "lo is up (operstate unknown is how lo reports up)"
assert_contains "$(echo "$out" | sed -n 6p)" "ro" "/sys is read-only"

run_crib run "$T/m.ini" -- /bin/sh -c 'echo hi >/dev/null && head -c 4 /dev/zero | wc -c && echo x > /dev/shm/x && cat /dev/shm/x'
assert_eq "$(echo $out)" "4 x" "/dev/null, /dev/zero and /dev/shm work"

spec "$T/ro.ini" <<'EOF2'
readonly_rootfs = yes
[process]
args = /bin/sh -c 'touch /etc/x 2>&1; echo ok > /tmp/y && cat /tmp/y'
[mounts]
tmpfs = /tmp
EOF2
run_crib run "$T/ro.ini"
assert_contains "$out" "Read-only file system" "readonly_rootfs refuses writes to /"
assert_contains "$out" "ok" "a tmpfs on it still takes writes"

spec "$T/hostnet.ini" <<'EOF2'
[process]
args = /bin/sh -c 'grep -c . /proc/net/dev'
[namespaces]
net = no
pid = no
EOF2
run_crib run "$T/hostnet.ini"
assert_eq "$rc" 0 "net = no and pid = no run"
hostifs=$(grep -c . /proc/net/dev)
assert_eq "$out" "$hostifs" "net = no shares the host's interfaces"

# a symlink in the rootfs cannot lead a mount out of it: /escape -> /etc is resolved inside
mkdir -p "$T/rootfs"
for d in bin sbin usr etc dev proc sys tmp; do cp -a "$ROOTFS/$d" "$T/rootfs/"; done
ln -s /etc "$T/rootfs/escape"
ln -s ../../../../../../../../tmp "$T/rootfs/up"
name=crib-escape-$$
printf '[container]\nrootfs = rootfs\n[process]\nargs = /bin/sh -c "cat /etc/%s/file; cat /tmp/%s/file"\n[mounts]\nbind = data /escape/%s\nbind = data /up/%s\n' \
	"$name" "$name" "$name" "$name" >"$T/esc.ini"
run_crib run "$T/esc.ini"
assert_eq "$rc:$(echo $out)" "0:host data host data" "binds through symlinks land inside the rootfs"
[ ! -e "/etc/$name" ] && [ ! -e "/tmp/$name" ]
ok $? "and nothing is created on the host outside it"
[ -d "$T/rootfs/etc/$name" ] && [ -d "$T/rootfs/tmp/$name" ]
ok $? "the mountpoints were made under the rootfs"

after=$(host_mounts)
assert_eq "$after" "$before" "the host's mount table is unchanged"
done_testing
