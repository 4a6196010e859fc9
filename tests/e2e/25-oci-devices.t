#!/bin/sh
# An OCI config's devices (issue 34): .linux.resources.devices, runc's rules, applied by the
# device program (a cgroup v2 BPF program, which holds on a hybrid host too) and refused, 125,
# where crib cannot apply them and a device they deny would open; .linux.devices, nodes made
# with their type, numbers, mode and owner as root, the host's bound in a user namespace, and
# refused at their JSON path where they would land anywhere but the container's own /dev. Read
# from inside (stat, opens) and from outside (nothing left on the host).
. "$(dirname "$0")/../lib/libtest.sh"

S="$T/state"
B="$T/bundle"
mkdir -p "$B" "$T/hostdir"
ln -s "$ROOTFS" "$B/rootfs"
ln -s "$CRIB" "$T/crib-runc"
# oci ARGS...: crib-runc with the test's state root; $out, $err, $rc
oci() {
	"$T/crib-runc" --root "$S" "$@" >"$T/.stdout" 2>"$T/.stderr" </dev/null
	rc=$?
	out=$(cat "$T/.stdout")
	err=$(cat "$T/.stderr")
}

# config SCRIPT [LINUX_JSON,] [MOUNTS_JSON,] [CAPS]: the bundle's config.json. As root, no user
# namespace (podman's and containerd's default); as a user, one mapping the caller's own ids.
config() {
	caps=${4:-'"CAP_KILL"'}
	if [ "$ROLE" = root ]; then
		ns='{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"}'
		maps=''
	else
		ns='{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"},{"type":"user"}'
		maps=",\"uidMappings\":[{\"containerID\":0,\"hostID\":$(id -u),\"size\":1}],\"gidMappings\":[{\"containerID\":0,\"hostID\":$(id -g),\"size\":1}]"
	fi
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":["/bin/sh","-c","$1"],"cwd":"/","env":["PATH=/bin:/usr/bin"],
   "user":{"uid":0,"gid":0},
   "capabilities":{"bounding":[$caps],"effective":[$caps],"permitted":[$caps]}},
 "mounts":[${3:-}{"destination":"/proc","type":"proc","source":"proc"},
   {"destination":"/dev","type":"tmpfs","source":"tmpfs","options":["nosuid","mode=755"]}],
 "linux":{${2:-}"namespaces":[$ns]$maps}}
EOF
}
# opens PATH: "yes", or why not (the shell's message, whose end is the errno's text)
OPENS='if (: <$0) 2>/tmp/e; then echo yes; else sed \"s/.*: //\" /tmp/e; fi'
opens() { echo "$OPENS" | sed "s|\$0|$1|"; }

deny_all='"resources":{"devices":[{"allow":false,"access":"rwm"}]},'
kmsg_bind='{"destination":"/dev/kmsg","type":"bind","source":"/dev/kmsg","options":["bind"]},'
kmsg=no
[ -c /dev/kmsg ] && [ -r /dev/kmsg ] && kmsg=yes
loopctl=no
[ -c /dev/loop-control ] && grep -q '^237 loop-control' /proc/misc && loopctl=yes
# as root: a host device none of crib's own, which opens without a capability (/dev/kmsg needs
# CAP_SYSLOG where dmesg_restrict is set: its EPERM would prove nothing)
fuse=no
[ -c /dev/fuse ] && [ "$(stat -c %t:%T /dev/fuse)" = a:e5 ] && fuse=yes
fuse_bind='{"destination":"/dev/fuse","type":"bind","source":"/dev/fuse","options":["bind"]},'

if [ "$ROLE" = root ]; then
	# --- the conformance case: deny all, and a host device bound in
	if [ $loopctl = yes ]; then
		config "$(opens /dev/loop-control)" "$deny_all" \
			'{"destination":"/dev/loop-control","type":"bind","source":"/dev/loop-control","options":["bind"]},'
		oci run --bundle "$B" d1
		assert_eq "$rc:$out" "0:Operation not permitted" \
			"deny all: the host's /dev/loop-control, bound in, does not open (EPERM, as under runc)"
		config "$(opens /dev/loop-control)" '"resources":{"devices":[{"allow":false,"access":"rwm"},{"allow":true,"type":"c","major":10,"minor":237,"access":"rw"}]},' \
			'{"destination":"/dev/loop-control","type":"bind","source":"/dev/loop-control","options":["bind"]},'
		oci run --bundle "$B" d2
		assert_eq "$rc:$out" "0:yes" "allowed by a rule (c 10:237 rw): it opens"
	else
		skips 2 "no /dev/loop-control (10:237) on this host"
	fi
	if [ $fuse = yes ]; then
		config "$(opens /dev/fuse)" '' "$fuse_bind"
		oci run --bundle "$B" d3
		assert_eq "$rc:$out" "0:Operation not permitted" \
			"no rules at all: runc's default, a bound host device (/dev/fuse) does not open either"
		config "$(opens /dev/fuse)" '"resources":{"devices":[{"allow":true,"access":"rwm"}]},' "$fuse_bind"
		oci run --bundle "$B" d4
		assert_eq "$rc:$out" "0:yes" "allow all (a privileged container's a *:* rwm): it opens"
	else
		skips 2 "no /dev/fuse (10:229) on this host"
	fi

	# --- linux.devices: made with type, numbers, mode and owner; each allowed, deny all or not
	config 'for d in /dev/conf-null /dev/conf/sub-null /dev/conf-zero /dev/fifo; do stat -c \"%n %F %t:%T %a %u:%g\" $d; done; echo x >/dev/conf-null && echo written; dd if=/dev/conf-zero bs=3 count=1 2>/dev/null | wc -c' \
		"$deny_all\"devices\":[{\"path\":\"/dev/conf-null\",\"type\":\"c\",\"major\":1,\"minor\":3,\"fileMode\":438,\"uid\":0,\"gid\":0},
  {\"path\":\"/dev/conf/sub-null\",\"type\":\"c\",\"major\":1,\"minor\":3,\"fileMode\":416,\"uid\":1000,\"gid\":2000},
  {\"path\":\"/dev/conf-zero\",\"type\":\"u\",\"major\":1,\"minor\":5,\"fileMode\":384},
  {\"path\":\"/dev/fifo\",\"type\":\"p\",\"fileMode\":384,\"uid\":7,\"gid\":8}],"
	oci run --bundle "$B" n1
	assert_eq "$rc" 0 "create+start with four device nodes exits 0 ($err)"
	assert_eq "$(echo "$out" | sed -n 1p)" "/dev/conf-null character special file 1:3 666 0:0" "/dev/conf-null: char 1:3, 0666, 0:0"
	assert_eq "$(echo "$out" | sed -n 2p)" "/dev/conf/sub-null character special file 1:3 640 1000:2000" "/dev/conf/sub-null: its directory made, char 1:3, 0640, 1000:2000"
	assert_eq "$(echo "$out" | sed -n 3p)" "/dev/conf-zero character special file 1:5 600 0:0" "/dev/conf-zero: type u is a char device, 0600"
	assert_eq "$(echo "$out" | sed -n 4p)" "/dev/fifo fifo 0:0 600 7:8" "/dev/fifo: a FIFO, 0600, 7:8"
	assert_eq "$(echo "$out" | sed -n 5,6p | tr -d ' ' | tr '\n' ' ')" 'written 3 ' \
		"deny all: the nodes the config made open all the same (runc adds them to the rules)"

	# a node the rules deny, beside one they allow: the device program, not /dev's nodev, says no
	if [ $fuse = yes ]; then
		config "$(opens /dev/fuse); $(opens /dev/made-tun)" "$deny_all\"devices\":[{\"path\":\"/dev/made-tun\",\"type\":\"c\",\"major\":10,\"minor\":200,\"fileMode\":384}]," "$fuse_bind"
		oci run --bundle "$B" n2
		assert_eq "$(echo "$out" | tr '\n' ' ')" "Operation not permitted yes " \
			"deny all: the bound host /dev/fuse EPERM; a device made by the config (/dev/made-tun, c 10:200, none of crib's own) opens"
	else
		skip "no /dev/fuse (10:229) on this host"
	fi
else
	# --- a user: no device program (it needs host root); refused where a denied device opens
	config "$(opens /dev/null)" "$deny_all"
	oci run --bundle "$B" u1
	assert_eq "$rc:$out" "0:yes" "a user, deny all, no host device bound: runs (none could open), crib's own nodes open"
	if [ $kmsg = yes ]; then
		config "$(opens /dev/kmsg)" "$deny_all" "$kmsg_bind"
		oci run --bundle "$B" u2
		assert_eq "$rc" 125 "a user, deny all, the host's /dev/kmsg bound (which the user can read): refused, 125"
		assert_contains "$err" ".linux.resources.devices: cannot be applied: crib is not root here" "naming .linux.resources.devices and why"
		config "$(opens /dev/kmsg)" '"resources":{"devices":[{"allow":false,"access":"rwm"},{"allow":true,"type":"c","major":1,"minor":11,"access":"r"}]},' "$kmsg_bind"
		oci run --bundle "$B" u3
		# (the kernel's own check on /dev/kmsg, dmesg_restrict, holds inside as outside)
		host=$(if (: </dev/kmsg) 2>"$T/e"; then echo yes; else sed 's/.*: //' "$T/e"; fi)
		assert_eq "$rc:$out" "0:$host" "allowed by a rule (c 1:11 r; the user cannot write it anyway): runs, and it opens as on the host ($host)"
	else
		skips 3 "no /dev/kmsg to read here"
	fi
	# CAP_SYS_ADMIN in a user namespace: no mknod, and a node found under a lifted nodev opens
	# only with the user's own permissions (runtime/plan/devices.c)
	config "$(opens /dev/null)" "$deny_all" "" '"CAP_KILL","CAP_SYS_ADMIN"'
	oci run --bundle "$B" u4
	assert_eq "$rc:$out" "0:yes" "a user, deny all, CAP_SYS_ADMIN, nothing bound: runs"

	# --- linux.devices in a user namespace: the host's node of the same path, bound
	config 'stat -c \"%n %F %t:%T\" /dev/null /dev/fifo; echo x >/dev/null && echo written' \
		'"devices":[{"path":"/dev/null","type":"c","major":1,"minor":3,"fileMode":438},{"path":"/dev/fifo","type":"p","fileMode":384}],'
	oci run --bundle "$B" u5
	assert_eq "$(echo "$out" | tr '\n' ' ')" "/dev/null character special file 1:3 /dev/fifo fifo 0:0 written " \
		"/dev/null c 1:3: the host's bound; a FIFO made ($err)"
	config true '"devices":[{"path":"/dev/conf-null","type":"c","major":1,"minor":3}],'
	oci run --bundle "$B" u6
	assert_eq "$rc" 125 "a node the host has not at that path: refused, 125 (mknod needs host root)"
	assert_contains "$err" ".linux.devices[0]: a container with a user namespace cannot make a device node" "at its JSON path"
fi

# --- refused, both: paths that lead anywhere but the container's own /dev
bad() { # bad DEVICES_JSON WANT DESCRIPTION
	config true "\"devices\":[$1],"
	oci create --bundle "$B" bad
	assert_eq "$rc" 125 "$3: refused, 125"
	assert_contains "$err" "$2" "at its JSON path ($2)"
	# (a create the code before took would leave a container waiting for start)
	"$T/crib-runc" --root "$S" delete --force bad >/dev/null 2>&1
}
bad '{"path":"/dev/../etc/x","type":"c","major":1,"minor":3}' ".linux.devices[0].path: '/dev/../etc/x' is not a path under /dev" "a path with '..'"
bad '{"path":"/etc/passwd","type":"c","major":1,"minor":3}' ".linux.devices[0].path" "a path outside /dev (an existing file of the image)"
bad '{"path":"/dev/x","type":"s","major":1,"minor":3}' ".linux.devices[0].type: 's' is not 'c', 'b', 'u' or 'p'" "a type other than c, b, u, p"
bad '{"path":"/dev/pts/x","type":"c","major":1,"minor":3}' ".linux.devices[0].path: '/dev/pts/x' lies under '/dev/pts'" "a node on devpts"
config true '"devices":[{"path":"/dev/hostdir/x","type":"c","major":1,"minor":3}],' \
	"{\"destination\":\"/dev/hostdir\",\"type\":\"bind\",\"source\":\"$T/hostdir\",\"options\":[\"bind\"]},"
oci create --bundle "$B" bad
assert_eq "$rc" 125 "a node under a bind of a host directory: refused, 125"
assert_contains "$err" "'/dev/hostdir/x' lies under '/dev/hostdir' (a mount)" "saying where it would land"
assert_eq "$(ls -A "$T/hostdir")" "" "and nothing was made in the host's directory"
"$T/crib-runc" --root "$S" delete --force bad >/dev/null 2>&1
config true '"resources":{"devices":[{"allow":true,"type":"c","access":"rwx"}]},'
oci create --bundle "$B" bad
assert_eq "$rc" 125 "a rule with access x: refused, 125"
assert_contains "$err" ".linux.resources.devices[0].access" "at its JSON path"
"$T/crib-runc" --root "$S" delete --force bad >/dev/null 2>&1

# --- nothing left: no container, no mount of the test's
oci list -q
assert_eq "$out" "" "no container left in the state root"
assert_eq "$(grep -c "$T" /proc/self/mountinfo)" 0 "no mount of the test's left on the host"

done_testing
