#!/bin/sh
# An OCI container's /sys/fs/cgroup (issue 34): the cgroup mount every engine puts in config.json
# gives the container its own cgroup there, read-only as the mount's "ro" says, and nothing of
# the host's tree. What it is depends on the host, and the test reads it from outside first:
#   cgroup v2 (unified), the container in a cgroup of its own: a cgroup2 rooted at that cgroup
#     (a cgroup namespace), or a bind of its directory (no cgroup namespace);
#   hybrid (v1 controllers, cgroup2 in /sys/fs/cgroup/unified): a read-only tmpfs, the
#     container's cgroup v2 in its unified/;
#   no cgroup of its own (a user without a delegated cgroup): an empty read-only tmpfs.
# The truth comes from inside (/proc/self/mountinfo, a write, the cgroup's files, cgroup.procs)
# and from outside (the container's /proc/PID/cgroup, the host's top-level cgroups). Once with a
# cgroup namespace and a network namespace, once with neither (containerd's default; the /sys
# then is a bind of the host's, which brings the host's whole tree along under /sys/fs/cgroup),
# once with a cgroup namespace and the host's network.
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/oci.sh"

# the host: where its cgroup2 is, our own cgroup in it, and where the container's goes (root:
# anywhere, as runc; a user: below the parent of its own cgroup, when that is delegated)
cgmnt=$(sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup2 .*/\1/p' /proc/self/mountinfo | head -n 1)
own=$(sed -n 's/^0:://p' /proc/self/cgroup)
name=crib-t-cg-$$
if [ "$ROLE" = root ]; then
	cgpath=/$name
	parent=$cgmnt
else
	cgpath=$name
	parent=$cgmnt$(dirname "$own")
fi
unified=no
[ "$cgmnt" = /sys/fs/cgroup ] && unified=yes
# a memory limit where the host can take one (cgroup v2 with memory where the cgroup goes)
mem=no
[ $unified = yes ] && grep -qw memory "$parent/cgroup.controllers" 2>/dev/null && mem=yes
echo "# cgroup2 at '${cgmnt:-none}', unified: $unified, our cgroup '$own', the container's '$cgpath', memory limit: $mem"
# the host's top-level cgroups (init.scope, system.slice, user.slice...), none of which may show
host_top=$(ls "$cgmnt" 2>/dev/null | while read -r d; do [ -d "$cgmnt/$d" ] && echo "$d"; done)

# what the container reports, one line each, tagged
cat >"$T/look.sh" <<'EOF'
grep ' /sys/fs/cgroup' /proc/self/mountinfo | sed 's/^/MNT /'
ls -a /sys/fs/cgroup | sed 's/^/LS /'
[ -d /sys/fs/cgroup/unified ] && ls -a /sys/fs/cgroup/unified | sed 's/^/LSU /'
find /sys/fs/cgroup -mindepth 1 -type d | sed 's/^/DIR /'
echo "W $(mkdir /sys/fs/cgroup/x 2>&1)"
v2=/sys/fs/cgroup
[ -d /sys/fs/cgroup/unified ] && v2=/sys/fs/cgroup/unified
echo "WV $(mkdir $v2/x 2>&1)"
echo "TYPE $(cat $v2/cgroup.type 2>&1)"
echo "CTRL $(cat $v2/cgroup.controllers 2>&1)"
echo "MEM $(cat $v2/memory.max 2>&1)"
# read by the shell itself: no process of the reading is in the list (a process outside the
# container's pid namespace shows as 0)
while read -r p; do
	if [ "$p" -gt 0 ] && [ -d "/proc/$p" ]; then echo "PROC mine"; else echo "PROC foreign $p"; fi
done <$v2/cgroup.procs
echo END
EOF
chmod 644 "$T/look.sh"

# config NS_JSON: the bundle's config.json, with the cgroup mount podman sends
config() {
	maps=""
	ns=$1
	if [ "$ROLE" = user ]; then
		ns="$ns,{\"type\":\"user\"}"
		maps=",\"uidMappings\":[{\"containerID\":0,\"hostID\":$(id -u),\"size\":1}],\"gidMappings\":[{\"containerID\":0,\"hostID\":$(id -g),\"size\":1}]"
	fi
	res=""
	[ $mem = yes ] && res=',"resources":{"memory":{"limit":67108864}}'
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":["/bin/sh","/tmp/look.sh"],"cwd":"/","env":["PATH=/bin:/usr/bin"],
   "user":{"uid":0,"gid":0},"noNewPrivileges":true},
 "mounts":[{"destination":"/proc","type":"proc","source":"proc"},
   {"destination":"/sys","type":"sysfs","source":"sysfs","options":["nosuid","noexec","nodev","ro"]},
   {"destination":"/sys/fs/cgroup","type":"cgroup","source":"cgroup","options":["rprivate","nosuid","noexec","nodev","relatime","ro"]},
   {"destination":"/tmp","type":"bind","source":"$T","options":["bind","ro"]}],
 "linux":{"namespaces":[$ns]$maps,"cgroupsPath":"$cgpath"$res}}
EOF
}

# box ID: create (the container's cgroup read from outside while it waits: $incg), start, wait
# for its end, delete; its report in $look
box() {
	R create --bundle "$B" "$1" >"$T/$1.out" 2>"$T/$1.err" </dev/null
	rc=$?
	pid=$(pid_in_state "$1")
	incg=$(sed -n 's/^0:://p' "/proc/$pid/cgroup" 2>/dev/null)
	R start "$1" 2>>"$T/$1.err"
	i=0
	while ! grep -q '^END' "$T/$1.out" && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	R delete -f "$1" 2>/dev/null
	look=$(cat "$T/$1.out")
}
field() { echo "$look" | sed -n "s/^$1 //p"; }

# check WHAT: the assertions on $look for one container
check() {
	what=$1
	assert_eq "$rc" 0 "$what: create accepts the cgroup mount" || sed 's/^/#   /' "$T/$what.err"
	case "$incg" in
	*"/$name/container") mine=yes ;;
	*) mine=no ;;
	esac
	echo "# $what: the container runs in '$incg' (a cgroup of its own: $mine)"
	# the mount on top at /sys/fs/cgroup, and one on its unified/ (a bind of the host's /sys
	# lists the host's own there too, under ours: mountinfo shows what the path no longer reaches)
	top=$(field MNT | awk '$5 == "/sys/fs/cgroup"' | tail -n 1)
	top_id=$(echo "$top" | awk '{print $1}')
	below=$(field MNT | awk -v id="$top_id" '$5 == "/sys/fs/cgroup/unified" && $2 == id')
	top_type=$(echo "$top" | sed -n 's/.* - \([^ ]*\) .*/\1/p')
	below_type=$(echo "$below" | sed -n 's/.* - \([^ ]*\) .*/\1/p')
	case "$(echo "$top" | awk '{print $6}')" in
	ro,* | ro) ro=yes ;;
	*) ro=no ;;
	esac
	assert_eq "$ro" yes "$what: /sys/fs/cgroup is a read-only mount inside ($(echo "$top" | awk '{print $6}'))"
	assert_contains "$(field W)" "Read-only file system" "$what: a directory made in it fails with EROFS"
	want_dirs=""
	if [ $mine = no ]; then
		want_top=tmpfs want_below=""
	elif [ $unified = yes ]; then
		want_top=cgroup2 want_below=""
	else
		want_top=tmpfs want_below=cgroup2 want_dirs=/sys/fs/cgroup/unified
	fi
	assert_eq "$top_type${below_type:+ + $below_type}" "$want_top${want_below:+ + $want_below}" \
		"$what: its filesystem in mountinfo (unified host: $unified, own cgroup: $mine)"
	assert_eq "$(field DIR | tr '\n' ' ')" "$(echo $want_dirs)${want_dirs:+ }" \
		"$what: no cgroup below it is shown (the container made none)"
	leak=""
	for d in $host_top; do
		echo "$look" | grep -qx "LSU* $d" && leak="$leak $d"
	done
	assert_eq "$leak" "" "$what: none of the host's top-level cgroups shows ($(echo $host_top | wc -w) on the host)"
	if [ $mine = no ]; then
		assert_eq "$(field LS | tr '\n' ' ')" ". .. " "$what: without a cgroup of its own, an empty tmpfs"
		skips 3 "$what: the container has no cgroup of its own here ($incg)"
		return
	fi
	if [ -n "$below" ]; then
		case "$(echo "$below" | awk '{print $6}')" in ro,* | ro) r=yes ;; *) r=no ;; esac
		assert_eq "$r" yes "$what: the cgroup2 in unified/ is read-only too"
	else
		assert_contains "$(field WV)" "Read-only file system" "$what: and a cgroup made in it too"
	fi
	# the hierarchy's root has no cgroup.type: this is a cgroup below it
	assert_eq "$(field TYPE)" domain "$what: it shows a cgroup, not the hierarchy's root (cgroup.type)"
	procs=$(field PROC | sort -u | tr '\n' ' ')
	assert_eq "$procs" "mine " "$what: its cgroup.procs lists the container's processes alone"
	if [ $mem = yes ]; then
		assert_eq "$(field MEM)" 67108864 "$what: memory.max shows the config's limit"
	else
		skip "$what: no memory limit on this host (cgroup v1 memory, or not delegated)"
	fi
}

# --- with cgroup and network namespaces (podman's default on cgroup v2)
config '{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"},{"type":"cgroup"}'
box ns
check ns
if [ $mine = yes ]; then
	assert_eq "$(field CTRL | grep -c 'No such file')" 0 "ns: cgroup.controllers is there to read"
else
	skip "ns: the container has no cgroup of its own here"
fi

# --- with neither (containerd's default): a bind of the container's own cgroup directory over a
# bind of the host's /sys, which holds the host's whole tree at /sys/fs/cgroup
config '{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"}'
box nons
check nons
if [ $mine = yes ]; then
	b=$(printf "%s\n%s\n" "$top" "$below" | grep ' - cgroup2 ' | awk '{print $4}')
	assert_eq "$b" "${incg%/container}/container" "nons: the cgroup2 shown is a bind of the container's own cgroup ($b)"
else
	skip "nons: the container has no cgroup of its own here"
fi

# --- a cgroup namespace, the host's network (podman run --network host): /sys is a bind of the
# host's, which on a cgroup v2 host has the host's cgroup2 at /sys/fs/cgroup, the very
# filesystem the container's is mounted from (the kernel refuses it on its own root)
config '{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"cgroup"}'
box hostnet
check hostnet

# --- what crib cannot honour on it: an error naming the mount, exit status 125
config '{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"}'
sed -i 's/"relatime","ro"\]/"relatime","ro","size=1m"]/' "$B/config.json"
R create --bundle "$B" bad >"$T/bad.out" 2>"$T/bad.err" </dev/null
rc=$?
assert_eq "$rc" 125 "a cgroup mount with size= is refused (125)"
assert_contains "$(cat "$T/bad.err")" ".mounts[2]" "naming the mount's path in config.json"
R delete -f bad 2>/dev/null

# --- crib.ini's [mounts] cgroup, and what --trace says about it
spec "$T/c.ini" <<EOF
[process]
args = /bin/sh -c "grep ' /sys/fs/cgroup' /proc/self/mountinfo"
[mounts]
cgroup = ro
EOF
run_crib run --trace "$T/c.ini"
assert_eq "$rc" 0 "crib run with cgroup = ro"
assert_contains "$out" " /sys/fs/cgroup ro," "a read-only mount at /sys/fs/cgroup"
assert_contains "$(grep 'crib: trace:   .*cgroup' "$T/.stderr" | grep -v 'mount(\|mkdir\|clone\|skipped')" "/sys/fs/cgroup" \
	"--trace says what crib put at /sys/fs/cgroup, and why" || grep cgroup "$T/.stderr" | sed 's/^/#   /'

# --- a cgroup2 mounted over /sys/fs/cgroup in a mount namespace of its own (as some engines
# do on a hybrid host): the host's /sys/fs/cgroup/unified line stays in mountinfo, hidden
# beneath it. crib uses the mount seen at the path (issue 38's bug: it took the hidden line and
# failed with "cannot make the cgroup '/sys/fs/cgroup/unified/...'").
if [ "$ROLE" = root ] && [ $unified = no ] && [ -n "$cgmnt" ]; then
	config '{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"}'
	sed -i "s|\"cgroupsPath\":\"[^\"]*\"|\"cgroupsPath\":\"/$name-over\"|" "$B/config.json"
	cat >"$T/over.sh" <<EOF
mount -t cgroup2 none /sys/fs/cgroup || exit 9
"$T/crib-runc" --root "$S" run --bundle "$B" over >"$T/over.out" 2>"$T/over.err" </dev/null
echo "rc=\$?" >>"$T/over.out"
[ -d /sys/fs/cgroup/$name-over ] && echo MADE >>"$T/over.out"
"$T/crib-runc" --root "$S" delete -f over 2>/dev/null
rmdir /sys/fs/cgroup/$name-over 2>/dev/null
true
EOF
	timeout 60 unshare -m sh "$T/over.sh"
	assert_contains "$(cat "$T/over.out")" "rc=0" "cgroup2 over /sys/fs/cgroup: the container runs" || sed 's/^/#   /' "$T/over.err"
	assert_contains "$(cat "$T/over.out")" "/$name-over" "its cgroup is the config's, in the cgroup2 seen at /sys/fs/cgroup"
	assert_eq "$(grep -c "unified/$name-over" "$T/over.err")" 0 "not in the hidden /sys/fs/cgroup/unified"
else
	skip "cgroup2 over /sys/fs/cgroup: a hybrid host and root only (this is $ROLE, cgroup2 at '${cgmnt:-none}')"
fi

# nothing the test made is left in the hierarchy
assert_eq "$([ -e "$parent/$name" ] && echo left || echo gone)" gone "the container's cgroup is gone after delete"

done_testing
