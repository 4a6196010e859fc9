#!/bin/sh
# A workload that keeps CAP_SYS_ADMIN cannot undo its masked and read-only paths (issue 11,
# hole 3): it runs in a user namespace of its own below the container's, where the kernel locks
# the mounts the setup made (runtime/steps/lockmounts.c). 15-escape.t tries the attacks at every
# level; this file checks what the workload keeps (its ids, its hostname, port 80, lo, mounts of
# its own), reads the namespaces from the host, and covers init = no, readonly_rootfs, user = no
# and a profile that refuses the unshare.
. "$(dirname "$0")/../lib/libtest.sh"

P=/usr/local/bin/probe
admin='[security]
capabilities = default +SYS_ADMIN'

# inside: ids, the map of its own namespace (every id as itself), hostname, port 80 on lo, a
# hostname and a mount of its own, and the masks and read-only /proc/sys still there
spec "$T/a.ini" <<EOF2
[container]
hostname = locked
[process]
args = /bin/sh -c 'id -u; cat /proc/self/uid_map /proc/self/gid_map | while read a b c; do [ \$a = \$b ] && echo 1 || echo 0; done | sort -u; hostname; $P bind 80; hostname other && hostname; mount -t tmpfs t /tmp && echo tmpfs; umount /proc/sys 2>/dev/null || echo sys-held; mount -o remount,rw /proc/sys 2>/dev/null || echo ro-held; mount -t proc proc /tmp 2>/dev/null || echo proc-held'
$admin
EOF2
run_crib run "$T/a.ini"
assert_eq "$rc:$(echo $out)" "0:0 1 locked bound other tmpfs sys-held ro-held proc-held" \
	"+SYS_ADMIN: root, its ids mapped to themselves, the hostname, port 80 on lo, a hostname and a tmpfs of its own; /proc/sys stays read-only and mounted, no new /proc"
assert_eq "$err" "" "+SYS_ADMIN: no warning"

# the same as container user 1000 (the capabilities through the ambient set). A user other
# than root keeps only what the spec names (issue 31, hole 6), so NET_BIND_SERVICE is named
# too: `default` alone gives it nothing but SYS_ADMIN
if [ "$ROLE" = root ]; then
	map='[idmap]
uid = 0 1000000 65536
gid = 0 1000000 65536'
else
	map='[idmap]
uid = auto
gid = auto'
fi
if has_subids; then
	spec "$T/u.ini" <<EOF2
[process]
user = 1000:1000
args = /bin/sh -c 'id -u; $P bind 80; umount /proc/sys 2>/dev/null || echo sys-held'
$admin +NET_BIND_SERVICE
$map
EOF2
	run_crib run "$T/u.ini"
	assert_eq "$rc:$(echo $out)" "0:1000 bound sys-held" "+SYS_ADMIN as container user 1000: the same"
else
	skip "$(id -un) has no /etc/subuid range to map uid 1000"
fi

# from the host: the workload's user, mount, network and UTS namespaces are not init's, and
# its ids are the same host ids as init's; without CAP_SYS_ADMIN nothing of that happens
# ns_of SPEC-EXTRA: "user mnt net uts pid ipc" each "same" or "own" (workload against init),
# then "maps-equal" or "maps-differ"
ns_of() {
	spec "$T/n.ini" <<EOF2
[process]
args = /bin/sleep 30
$1
EOF2
	"$CRIB" run "$T/n.ini" </dev/null >/dev/null 2>"$T/n.err" &
	crib=$!
	init= workload=
	for _ in $(seq 50); do
		init=$(children_of $crib)
		[ -n "$init" ] && workload=$(children_of "$init")
		[ -n "$workload" ] && break
		sleep 0.1
	done
	sleep 0.2
	line=
	for ns in user mnt net uts pid ipc; do
		if [ "$(readlink /proc/$init/ns/$ns)" = "$(readlink /proc/$workload/ns/$ns)" ]; then
			line="$line same"
		else
			line="$line own"
		fi
	done
	# the workload's capabilities count in its network namespace: the user namespace that
	# owns it is the workload's (lsns's ONS, the owner's inode)
	if [ "$owned" != net-owned ]; then
		line="$line $owned"
	elif [ "$(lsns -n -t net -p "$workload" -o ONS | tr -d ' ')" = \
		"$(readlink /proc/$workload/ns/user | tr -dc 0-9)" ]; then
		line="$line net-owned"
	else
		line="$line net-not-owned"
	fi
	if [ "$(cat /proc/$init/uid_map)" = "$(cat /proc/$workload/uid_map)" ] &&
		[ "$(cat /proc/$init/gid_map)" = "$(cat /proc/$workload/gid_map)" ]; then
		line="$line maps-equal"
	else
		line="$line maps-differ"
	fi
	kill -TERM $crib
	wait $crib 2>/dev/null
	echo $line
}
# who owns a network namespace: lsns's ONS column (util-linux 2.38; the VM guests' busybox has
# no lsns), else that part is not checked, and said so
owned=net-owned
if ! lsns -n -t net -p $$ -o ONS >/dev/null 2>&1; then
	owned=net-owner-unread
	echo "# no lsns with an ONS column here: who owns the network namespace is not read"
fi
if [ "$ROLE" = root ]; then
	assert_eq "$(ns_of "$admin")" "own own same own same same $owned maps-equal" \
		"read from the host, +SYS_ADMIN: user, mount and uts namespaces of its own; the container's only network namespace, owned by the workload's user namespace (nestns.c); the pid and ipc namespaces and the host ids of the container"
	assert_eq "$(ns_of '')" "same same same same same same $owned maps-equal" \
		"read from the host, default capabilities: the container's namespaces, no other"

else
	skip "only root may read /proc/PID/ns of crib's init, which is not dumpable"
fi

# the late way (steps/lockmounts.c alone: an engine's config with hooks, which may look at the
# setup's namespaces before GO): the workload's process makes its user namespace and a network
# namespace of its own below the container's, after every mount; the same locks and powers
ln -s "$CRIB" "$T/crib-runc"
mkdir -p "$T/bundle"
ln -s "$ROOTFS" "$T/bundle/rootfs"
if [ "$ROLE" = root ]; then
	maps='"uidMappings":[{"containerID":0,"hostID":1000000,"size":65536}],"gidMappings":[{"containerID":0,"hostID":1000000,"size":65536}]'
else
	maps="\"uidMappings\":[{\"containerID\":0,\"hostID\":$(id -u),\"size\":1}],\"gidMappings\":[{\"containerID\":0,\"hostID\":$(id -g),\"size\":1}]"
fi
caps='"CAP_SYS_ADMIN","CAP_NET_BIND_SERVICE","CAP_SETUID","CAP_SETGID","CAP_SETPCAP"'
late_config() { # late_config SHELL-COMMAND
	cat >"$T/bundle/config.json" <<EOF2
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":["/bin/sh","-c","$1"],"cwd":"/","env":["PATH=/bin:/usr/bin"],
   "user":{"uid":0,"gid":0},
   "capabilities":{"bounding":[$caps],"effective":[$caps],"permitted":[$caps]}},
 "mounts":[{"destination":"/proc","type":"proc","source":"proc"},
   {"destination":"/dev","type":"tmpfs","source":"tmpfs","options":["nosuid","mode=755"]}],
 "hooks":{"createRuntime":[{"path":"$T/hook"}]},
 "linux":{"namespaces":[{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"},{"type":"user"}],$maps,
   "readonlyPaths":["/proc/sys"]}}
EOF2
}
R() { "$T/crib-runc" --root "$T/oci-state" "$@" >"$T/.stdout" 2>"$T/.stderr" </dev/null; }
# the hook writes down the setup process's network namespace, as the engine's hooks see it
cat >"$T/hook" <<EOF2
#!/bin/sh
pid=\$(sed -n 's/.*"pid": *\([0-9][0-9]*\).*/\1/p')
readlink /proc/\$pid/ns/net >"$T/hook.net" 2>/dev/null || echo unreadable >"$T/hook.net"
EOF2
chmod 755 "$T/hook"
late_config "$P bind 80; hostname other && hostname; umount /proc/sys 2>/dev/null || echo sys-held; mount -o remount,rw /proc/sys 2>/dev/null || echo ro-held"
R run --bundle "$T/bundle" late
rc=$?
assert_eq "$rc:$(echo $(cat "$T/.stdout"))" "0:bound other sys-held ro-held" \
	"an engine's config with a hook, +SYS_ADMIN in a user namespace (the late way): port 80, a hostname of its own, /proc/sys held" ||
	sed 's/^/#   /' "$T/.stderr"
if [ "$ROLE" = root ]; then
	# from the host: that way the workload's network namespace is made after the hooks, its own
	late_config "exec sleep 30"
	R create --bundle "$T/bundle" late2
	R start late2
	# the state's pid is the workload's (as runc's: the OCI front end has no init)
	workload=$("$T/crib-runc" --root "$T/oci-state" state late2 | sed -n 's/.*"pid": *\([0-9][0-9]*\).*/\1/p')
	owner=$([ -n "$workload" ] && [ "$owned" = net-owned ] && lsns -n -t net -p "$workload" -o ONS | tr -d ' ')
	wl_net=$(readlink "/proc/$workload/ns/net") hook_net=$(cat "$T/hook.net" 2>/dev/null)
	assert_eq "$(case "$hook_net" in net:*) [ "$hook_net" != "$wl_net" ] && [ "$hook_net" != "$(readlink /proc/$$/ns/net)" ] && echo own ;; esac):$({ [ "$owned" != net-owned ] && echo "$owned"; } || { [ -n "$owner" ] && [ "$owner" = "$(readlink /proc/$workload/ns/user | tr -dc 0-9)" ] && echo net-owned; })" \
		"own:$owned" "read from the host, the late way: the hook saw the setup in a network namespace of the container's ($hook_net), not the host's, and not the workload's ($wl_net), which its own user namespace owns"
	R delete --force late2
else
	skip "only root may read /proc/PID/ns of crib's init, which is not dumpable"
fi

# init = no: the workload is pid 1 and the same holds
spec "$T/i.ini" <<EOF2
[process]
init = no
args = /bin/sh -c 'echo \$\$; umount /proc/sys 2>/dev/null || echo sys-held; mount -o remount,rw /proc/sys 2>/dev/null || echo ro-held; mount -t tmpfs t /tmp && echo tmpfs'
$admin
EOF2
run_crib run "$T/i.ini"
assert_eq "$rc:$(echo $out)" "0:1 sys-held ro-held tmpfs" "+SYS_ADMIN with init = no: the same locks"

# pid = no: the workload sees the host's processes. The parent's helper and the process it made
# in the workload's user namespace (launch/nestns.c: dumpable, the host's / as its root) are
# gone before GO; none of crib's processes lets the workload into its root
spec "$T/p.ini" <<EOF2
[namespaces]
pid = no
[process]
args = /bin/sh -c 'n=0; for d in /proc/[0-9]*; do [ "\$(cat \$d/comm 2>/dev/null)" = crib ] && ls \$d/root/ >/dev/null 2>&1 && n=\$((n + 1)); done; echo reachable=\$n; $P bind 80'
[security]
level = unconfined
EOF2
run_crib run "$T/p.ini"
assert_eq "$rc:$(echo $out)" "0:reachable=0 bound" "pid = no, level = unconfined: no process of crib's is reachable through /proc/PID/root, and port 80 binds"

# readonly_rootfs: a remount of / read-write is refused, and / stays read-only
spec "$T/r.ini" <<EOF2
[container]
readonly_rootfs = yes
[process]
args = /bin/sh -c 'mount -o remount,rw / 2>/dev/null || echo rw-held; touch /crib-x 2>/dev/null || echo write-held'
$admin
EOF2
run_crib run "$T/r.ini"
assert_eq "$rc:$(echo $out)" "0:rw-held write-held" "+SYS_ADMIN with readonly_rootfs: / stays read-only"

# the trace names the step and its calls
run_crib run --trace "$T/a.ini" -- /bin/true
trace=$(cat "$T/.stderr")
assert_eq "$rc" 0 "--trace: the container runs"
assert_contains "$trace" "lock the mounts in a user namespace of the workload's own" "--trace names the step"
assert_contains "$trace" "clone(CLONE_NEWUSER|CLONE_NEWNET) =" \
	"--trace shows the parent making the workload's user namespace with its network namespace"
assert_not_contains "$(echo "$trace" | grep 'parent:.*\|  clone(CLONE_NEWUSER|CLONE_NEWNS')" "CLONE_NEWNET" \
	"... and the setup's clone makes no network namespace of its own"
assert_contains "$trace" "setns(fd " "--trace shows the setup joining that network namespace"
assert_contains "$trace" "the user namespace crib made, CLONE_NEWUSER) = 0" "--trace shows the setns(2) into the new user namespace"
assert_contains "$trace" "unshare(CLONE_NEWNS|CLONE_NEWUTS|CLONE_NEWCGROUP) = 0" \
	"--trace shows the unshare(2) of the others"

# with nothing masked or read-only, the mounts crib makes are locked all the same: a read-only
# bind stays read-only, and the rootfs stays nodev (a device node shipped in it stays shut:
# as root the rootfs is host root's, seen as the container root's through an idmapped mount)
mkdir "$T/data" "$T/rootfs"
echo data >"$T/data/f"
chmod 0666 "$T/data/f"
for dir in bin sbin usr etc dev proc sys tmp; do cp -a "$ROOTFS/$dir" "$T/rootfs/"; done
mkdir -p "$T/rootfs/data"
node=
if [ "$ROLE" = root ]; then
	mknod -m 600 "$T/rootfs/crib-null" c 1 3
	node="; (echo x >/crib-null) 2>/dev/null && echo node-opened || echo node-held"
fi
for level in "masked_paths = none
readonly_paths = none" "level = unconfined"; do
	cat >"$T/b.ini" <<EOF2
[container]
rootfs = $T/rootfs
[mounts]
bind = $T/data /data ro
[process]
args = /bin/sh -c 'mount -o remount,bind,rw /data 2>/dev/null && echo remounted; (echo w >>/data/f) 2>/dev/null && echo wrote || echo write-held; mount -o remount,bind,dev / 2>/dev/null && echo dev-remounted$node; true'
[security]
$level
capabilities = default +SYS_ADMIN
EOF2
	run_crib run "$T/b.ini"
	want="0:write-held"
	[ "$ROLE" = root ] && want="0:write-held node-held"
	assert_eq "$rc:$(echo $out)" "$want" \
		"+SYS_ADMIN, $(echo "$level" | head -n 1): a read-only bind and the rootfs's nodev cannot be undone"
	[ "$rc" = 0 ] || echo "$err" | sed 's/^/#   /'
	assert_eq "$(cat "$T/data/f")" data "... and the host's file is unchanged"
done

# a profile that refuses the unshare: crib stops (fail closed) and says why
cat >"$T/nounshare.profile" <<'EOF2'
base default
drop unshare
EOF2
spec "$T/f.ini" <<EOF2
[process]
args = /bin/true
[security]
capabilities = default +SYS_ADMIN
seccomp = $T/nounshare.profile
EOF2
run_crib run "$T/f.ini"
assert_eq "$rc" 125 "a profile that refuses unshare(2) with +SYS_ADMIN: exit 125"
assert_contains "$err" "cannot give the workload, which keeps CAP_SYS_ADMIN, a user namespace of its own to lock its mounts: unshare(CLONE_NEWNS|CLONE_NEWUTS|CLONE_NEWCGROUP): Operation not permitted" \
	"... and the error says what could not be done"
assert_contains "$err" "leave SYS_ADMIN out of capabilities" "... and what to do"

# user = no: real root's masks cannot be locked; crib says so
if [ "$ROLE" = root ]; then
	spec "$T/n.ini" <<EOF2
[process]
args = /bin/true
[namespaces]
user = no
$admin
EOF2
	run_crib run "$T/n.ini"
	assert_contains "$rc:$err" "0:crib: warning: user = no with SYS_ADMIN: the container is host root and can undo its masked and read-only paths" \
		"user = no with +SYS_ADMIN: a warning that nothing locks its masks"
else
	skip "user = no needs root"
fi

# The workload's own user namespace starts with a full bounding set, so its table drops the rest
# again, under the container's filter. A profile that answers PR_CAPBSET_READ (23) with EINVAL,
# what the kernel says past its last capability, must not end those drops early (an escape to
# every capability of the namespace, DAC_OVERRIDE and SETUID included, before the fix); one that
# refuses PR_CAPBSET_DROP (24) must stop the container, not leave the set full.
prctl_einval() { # prctl_einval OPTION: the default profile, but prctl(OPTION, ...) fails EINVAL
	printf 'base default\ndrop prctl\n[errno EINVAL if arg0 == %s]\nprctl\n[allow if arg0 != %s]\nprctl\n' "$1" "$1"
}
prctl_einval 23 >"$T/read-einval.profile"
prctl_einval 24 >"$T/drop-einval.profile"
bnd='args = /bin/sh -c "grep ^CapBnd: /proc/self/status | cut -f2"'
printf '[process]\n%s\n%s\n' "$bnd" "$admin" | spec "$T/bnd.ini"
run_crib run "$T/bnd.ini"
want=$out
assert_eq "$rc:$([ -n "$want" ] && [ "$want" != 000001ffffffffff ] && echo limited)" "0:limited" \
	"+SYS_ADMIN: the workload's bounding set is the container's ($want)"
printf '[process]\n%s\n%s\nseccomp = ./read-einval.profile\n' "$bnd" "$admin" | spec "$T/read-einval.ini"
run_crib run "$T/read-einval.ini"
assert_eq "$rc:$out" "0:$want" "a profile answering PR_CAPBSET_READ with EINVAL: the same bounding set"
printf '[process]\n%s\n%s\nseccomp = ./drop-einval.profile\n' "$bnd" "$admin" | spec "$T/drop-einval.ini"
run_crib run "$T/drop-einval.ini"
assert_eq "$rc:$out" "125:" "a profile refusing PR_CAPBSET_DROP: no workload runs"
assert_contains "$err" "cannot drop capability" "and crib says why"
done_testing
