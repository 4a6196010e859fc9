#!/bin/sh
# Id mapping, read from inside (/proc/self/uid_map) and outside (/proc/PID/status on the host).
. "$(dirname "$0")/../lib/libtest.sh"

me=$(id -u)
mygid=$(id -g)

spec "$T/s.ini" <<EOF2
[process]
args = /usr/local/bin/probe wait-signal /tmp/ready
[mounts]
bind = $T /tmp
EOF2
"$CRIB" run "$T/s.ini" >"$T/out" 2>&1 &
crib=$!
wait_for "$T/ready"
ok $? "the workload started"
init=$(children_of $crib)
work=$(children_of "$init")
if [ "$ROLE" = root ]; then
	# root's containers: container root is the start of root's own range, never host root
	set -- $(root_range uid)
	wantu=$1 wantmap="0 $1 $2"
	set -- $(root_range gid)
	wantg=$1
	what="root's subordinate range"
else
	wantu=$me wantg=$mygid wantmap="0 $me 1" what="the invoking"
fi
assert_eq "$(awk '/^Uid:/{print $2}' /proc/$work/status)" "$wantu" "uid 0 inside is $what uid outside"
assert_eq "$(awk '/^Gid:/{print $2}' /proc/$work/status)" "$wantg" "gid 0 inside is $what gid outside"
assert_eq "$(awk '/^NSpid:/{print $3}' /proc/$work/status)" "2" "the workload is pid 2 in its namespace"
assert_eq "$(awk '/^NSpid:/{print $3}' /proc/$init/status)" "1" "crib's init is pid 1 in it"
assert_eq "$(tr -s ' ' </proc/$work/uid_map | sed 's/^ //')" "$wantmap" "uid_map seen from the host"
if [ "$ROLE" = user ]; then
	assert_eq "$(cat /proc/$work/setgroups)" "deny" "setgroups denied for an unprivileged single map"
fi
for ns in user mnt pid ipc uts net cgroup; do
	a=$(readlink /proc/$work/ns/$ns)
	b=$(readlink /proc/self/ns/$ns)
	[ "$a" != "$b" ]
	ok $? "the workload has its own $ns namespace"
done
kill -TERM $crib
wait $crib

# who writes the maps: the container itself when they are the caller's own ids alone (no
# round trip to the parent), else the parent
trace=$("$CRIB" run --trace "$T/s.ini" -- /bin/true 2>&1 >/dev/null)
if [ "$ROLE" = user ]; then
	assert_contains "$trace" 'write("/proc/self/uid_map", "0 '"$me"' 1") = ok' "a map of our own uid alone: the container writes /proc/self/uid_map"
	assert_not_contains "$trace" "sendmsg(sync, GO)" "and the parent has nothing to send"
else
	assert_contains "$trace" "write(\"/proc/" "root's maps are written"
	assert_contains "$trace" "sendmsg(sync, GO)" "by the parent (root keeps setgroups, which a self-written gid map cannot)"
fi

groups_test() { # groups_test UIDMAP GIDMAP DESCRIPTION
	spec "$T/groups.ini" <<EOF2
[process]
args = /bin/sh -c 'id -G; grep ^Groups: /proc/self/status'
user = 1000:1000
groups = 10, 20
[idmap]
$1
$2
EOF2
	run_crib run "$T/groups.ini"
	assert_eq "$(echo $out | tr -s '\t' ' ')" "1000 10 20 Groups: 10 20" "$3"
}

# uid = auto: 0 = the invoking user, then its /etc/subuid range
subuid=$(awk -F: -v u="$(id -un)" -v n="$me" '$1==u || $1==n {print $2, $3; exit}' /etc/subuid 2>/dev/null)
subgid=$(awk -F: -v u="$(id -un)" -v n="$me" '$1==u || $1==n {print $2, $3; exit}' /etc/subgid 2>/dev/null)
spec "$T/auto.ini" <<'EOF2'
[process]
args = /bin/sh -c 'cat /proc/self/uid_map /proc/self/gid_map'
[idmap]
uid = auto
gid = auto
EOF2
if [ -n "$subuid" ] && [ -n "$subgid" ]; then
	run_crib run "$T/auto.ini"
	assert_eq "$rc" 0 "uid = auto runs"
	if [ "$ROLE" = root ]; then
		want=$(printf '0 %s\n0 %s' "$subuid" "$subgid")
		assert_eq "$(echo "$out" | tr -s ' ' | sed 's/^ //')" "$want" "root: uid = auto maps 0.. to root's range alone (never host root)"
	else
		want=$(printf '0 %s 1\n1 %s\n0 %s 1\n1 %s' "$me" "$subuid" "$mygid" "$subgid")
		assert_eq "$(echo "$out" | tr -s ' ' | sed 's/^ //')" "$want" "uid = auto maps 0 to us and 1.. to our subordinate ranges"
	fi

	spec "$T/user.ini" <<'EOF2'
[process]
args = /bin/sh -c 'id -u; id -g; touch /tmp/f; stat -c %u:%g /tmp/f'
user = 1000:1000
[idmap]
uid = auto
gid = auto
[mounts]
tmpfs = /tmp
EOF2
	run_crib run "$T/user.ini"
	assert_eq "$(echo $out)" "1000 1000 1000:1000" "user = 1000:1000 runs as that user through the subordinate range"

	groups_test "uid = auto" "gid = auto" "supplementary groups are set (through newgidmap)"
elif [ "$ROLE" = root ]; then
	# root has no subordinate range here, but may write any map itself
	spec "$T/multi.ini" <<'EOF2'
[process]
args = /bin/sh -c 'cat /proc/self/uid_map; id -u; touch /tmp/f; stat -c %u /tmp/f'
user = 1000:1000
[idmap]
uid = 0 300000 1
uid = 1 400000 65535
gid = 0 300000 1
gid = 1 400000 65535
[mounts]
tmpfs = /tmp
EOF2
	run_crib run "$T/multi.ini"
	assert_eq "$rc" 0 "root: explicit multi-range maps run"
	assert_eq "$(echo "$out" | sed -n 1,2p | tr -s ' ' | sed 's/^ //')" "$(printf '0 300000 1\n1 400000 65535')" "root: both ranges written"
	assert_eq "$(echo "$out" | sed -n 3,4p | tr '\n' ' ')" "1000 1000 " "root: user = 1000 runs as uid 1000 through the second range"
	groups_test "uid = 0 300000 65536" "gid = 0 300000 65536" "root: supplementary groups are set"
else
	skips 3 "$(id -un) has no /etc/subuid and /etc/subgid range"
fi

spec "$T/nogroups.ini" <<'EOF2'
[process]
args = /bin/true
groups = 0
EOF2
run_crib run "$T/nogroups.ini"
if [ "$ROLE" = user ]; then
	assert_eq "$rc" 125 "groups with a single-gid map as a user: 125"
	assert_contains "$err" "nogroups.ini:5: supplementary groups need setgroups(2)" "says why"
else
	assert_eq "$rc" 0 "root may set groups with the default map"
fi

spec "$T/unmapped.ini" <<'EOF2'
[process]
args = /bin/true
user = 70000
EOF2
run_crib run "$T/unmapped.ini"
assert_eq "$rc" 125 "a container user the map does not cover: 125"
assert_contains "$err" "unmapped.ini:5: uid 70000 is not mapped into the container" "FILE:LINE names it"
assert_contains "$err" "crib: hint: map it in [idmap]" "with a remedy"

spec "$T/notmine.ini" <<'EOF2'
[process]
args = /bin/true
[idmap]
uid = 0 4000000000 10
gid = 0 4000000000 10
EOF2
run_crib run "$T/notmine.ini"
if [ "$ROLE" = user ]; then
	assert_eq "$rc" 125 "a range we may not map: 125"
	assert_contains "$err" "notmine.ini:6: uid range '0 4000000000 10' is not yours to map" "says whose ranges are allowed"
else
	assert_eq "$rc" 0 "root may map any range"
fi

spec "$T/nouserns.ini" <<'EOF2'
[process]
args = /bin/sh -c 'cat /proc/self/uid_map; readlink /proc/self/ns/user'
[namespaces]
user = no
EOF2
run_crib run "$T/nouserns.ini"
if [ "$ROLE" = user ]; then
	assert_eq "$rc" 125 "user = no as a user: 125"
	assert_contains "$err" "nouserns.ini:6: user = no needs root" "says why"
else
	assert_eq "$rc" 0 "user = no as root runs"
	assert_eq "$(echo "$out" | sed -n 2p)" "$(readlink /proc/self/ns/user)" "in the host's user namespace"
fi
done_testing
