#!/bin/sh
# An OCI config's .linux.sysctl and .process.oomScoreAdj (issue 34), as podman --sysctl, docker's
# net.* defaults and --oom-score-adj send them: each sysctl set in the container's own namespace
# (read inside from /proc/sys), the host's value the same before and after (read on the host);
# one without the namespace, one in the host's network, IPC or UTS namespace joined by path (and
# the hostname there), a name that would leave /proc/sys, a host-wide sysctl, and a file mounted
# over the sysctl's, each refused (125, its JSON path) with nothing of the host changed. The OOM
# score adjustment read from outside (/proc/PID/oom_score_adj) once created, inside, and in
# crib-runc exec's process.
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/oci.sh"

# config ARGS_JSON SYSCTL_JSON [NAMESPACES_JSON] [PROCESS_JSON,] [MOUNTS_JSON,]: the config.
# As root, no user namespace (podman's default); as a user, one mapping the caller's own ids.
own='{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"}'
config() {
	ns=${3:-$own}
	maps=''
	if [ "$ROLE" = user ]; then
		ns="$ns,{\"type\":\"user\"}"
		maps="\"uidMappings\":[{\"containerID\":0,\"hostID\":$(id -u),\"size\":1}],\"gidMappings\":[{\"containerID\":0,\"hostID\":$(id -g),\"size\":1}],"
	fi
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":$1,"cwd":"/","env":["PATH=/bin:/usr/bin"],"user":{"uid":0,"gid":0},${4:-}
   "capabilities":{"bounding":["CAP_KILL"],"effective":["CAP_KILL"],"permitted":["CAP_KILL"]},
   "noNewPrivileges":true},
 "mounts":[${5:-}{"destination":"/proc","type":"proc","source":"proc"}],
 "linux":{"namespaces":[$ns],$maps"sysctl":{$2},
   "maskedPaths":["/proc/kcore"],"readonlyPaths":["/proc/sys"]}}
EOF
}
# run_ct ID: create (stdout to $T/ID.out), start, wait until it stopped; $rc, $err of create
run_ct() {
	R create --bundle "$B" "$1" >"$T/$1.out" 2>"$T/$1.err" </dev/null
	rc=$?
	err=$(cat "$T/$1.err")
	[ $rc = 0 ] || return 1
	R start "$1" >/dev/null 2>&1
	wait_status "$1" stopped
	R delete -f "$1" >/dev/null 2>&1
	return 0
}
# the host's values of the sysctls the tests touch, to compare before and after
host_sysctls() {
	for k in net/ipv4/ip_forward net/ipv4/ping_group_range kernel/shmmax kernel/shmmni \
		kernel/domainname kernel/core_pattern vm/overcommit_memory net/core/somaxconn; do
		printf '%s=%s;' "$k" "$(tr -s '\t ' '  ' </proc/sys/$k)"
	done
}
before=$(host_sysctls)
fwd=$(cat /proc/sys/net/ipv4/ip_forward)
want_fwd=$((1 - fwd))
# a group range the container's user namespace maps: as a user, only gid 0 is mapped
[ "$ROLE" = root ] && range="0 10" || range="0 0"

# --- net.* in the container's network namespace, kernel.shmmax and shmmni in its IPC
# namespace, kernel.domainname in its UTS namespace: set inside, read inside
config '["/bin/sh","-c","cat /proc/sys/net/ipv4/ip_forward /proc/sys/kernel/shmmax /proc/sys/kernel/shmmni /proc/sys/kernel/domainname; tr -s \"\\t \" \"  \" </proc/sys/net/ipv4/ping_group_range; echo x >/proc/sys/net/ipv4/ip_forward 2>/dev/null && echo writable || echo read-only"]' \
	"\"net.ipv4.ip_forward\":\"$want_fwd\",\"net.ipv4.ping_group_range\":\"$range\",\"kernel.shmmax\":\"123456789\",\"kernel.shmmni\":\"1234\",\"kernel.domainname\":\"crib.example\""
run_ct s1
assert_eq "$rc:$err" "0:" "create with namespaced sysctls exits 0, saying nothing"
assert_eq "$(sed -n 1p "$T/s1.out")" "$want_fwd" "net.ipv4.ip_forward is $want_fwd inside (the host's is $fwd)"
assert_eq "$(sed -n 2p "$T/s1.out")" 123456789 "kernel.shmmax is set in the container's IPC namespace"
assert_eq "$(sed -n 3p "$T/s1.out")" 1234 "kernel.shmmni too"
assert_eq "$(sed -n 4p "$T/s1.out")" crib.example "kernel.domainname in its UTS namespace"
assert_eq "$(sed -n 5p "$T/s1.out")" "$range" "net.ipv4.ping_group_range is really set now ($range)"
assert_eq "$(sed -n 6p "$T/s1.out")" read-only "/proc/sys is read-only to the workload after they are set"
assert_eq "$(host_sysctls)" "$before" "the host's sysctls are as they were"

# --- the workload's own /proc/sys, with the sysctls set, read from outside while it runs
config '["/bin/sleep","100"]' "\"net.ipv4.ip_forward\":\"$want_fwd\""
oci create --bundle "$B" s2
pid=$(pid_in_state s2)
R start s2 >/dev/null 2>&1
sleep 0.2
if [ "$ROLE" = root ]; then
	assert_eq "$(nsenter -t "$pid" -n cat /proc/sys/net/ipv4/ip_forward 2>&1)" "$want_fwd" \
		"from outside, in the workload's network namespace (nsenter -n): $want_fwd"
else
	skip "a user cannot enter the container's network namespace from outside (its user namespace owns it)"
fi
R kill s2 KILL >/dev/null 2>&1
wait_status s2 stopped
R delete -f s2 >/dev/null 2>&1

# --- refused: a sysctl of a namespace the container does not have of its own
for case in "net.ipv4.ip_forward|network|{\"type\":\"pid\"},{\"type\":\"mount\"},{\"type\":\"ipc\"},{\"type\":\"uts\"}" \
	"kernel.shmmax|IPC|{\"type\":\"pid\"},{\"type\":\"mount\"},{\"type\":\"uts\"},{\"type\":\"network\"}" \
	"kernel.domainname|UTS|{\"type\":\"pid\"},{\"type\":\"mount\"},{\"type\":\"ipc\"},{\"type\":\"network\"}"; do
	key=${case%%|*}
	rest=${case#*|}
	kind=${rest%%|*}
	nss=${rest#*|}
	config '["/bin/true"]' "\"$key\":\"1\"" "$nss"
	oci create --bundle "$B" bad
	assert_eq "$rc" 125 "$key without a $kind namespace of the container's own: refused, 125"
	assert_contains "$err" ".linux.sysctl[\"$key\"]: needs a" "at its JSON path, saying it needs the namespace"
	assert_eq "$([ -e "$S/bad" ] && echo left || echo none)" none "no container is left"
done

# --- refused: net.* in the host's network namespace, joined by path
config '["/bin/true"]' '"net.ipv4.ip_forward":"1"' "{\"type\":\"pid\"},{\"type\":\"mount\"},{\"type\":\"network\",\"path\":\"/proc/$$/ns/net\"}"
oci create --bundle "$B" hostnet
assert_eq "$rc" 125 "net.* in the host's network namespace joined by path: refused, 125"
assert_contains "$err" ".linux.sysctl[\"net.ipv4.ip_forward\"]: the network namespace the container joins ('/proc/$$/ns/net') is the host's" \
	"at its JSON path, saying the namespace is the host's"

# --- refused: the IPC or UTS namespace's sysctls, and the hostname, in the host's IPC or UTS
# namespace joined by path (podman --ipc=container:X, --uts=container:X where X runs in the
# host's): runc sets them there, and so did crib, changing the host's kernel.shmmax, domainname
# and hostname (the attacker's review)
hostname_before=$(hostname)
for case in "kernel.shmmax|ipc|IPC" "fs.mqueue.msg_max|ipc|IPC" "kernel.domainname|uts|UTS"; do
	key=${case%%|*}
	rest=${case#*|}
	f=${rest%%|*}
	kind=${rest#*|}
	config '["/bin/true"]' "\"$key\":\"42\"" "{\"type\":\"pid\"},{\"type\":\"mount\"},{\"type\":\"network\"},{\"type\":\"$f\",\"path\":\"/proc/$$/ns/$f\"}"
	oci create --bundle "$B" host$f
	R delete -f host$f >/dev/null 2>&1
	assert_eq "$rc" 125 "$key in the host's $kind namespace joined by path: refused, 125"
	assert_contains "$err" ".linux.sysctl[\"$key\"]: the $kind namespace the container joins ('/proc/$$/ns/$f') is the host's" \
		"at its JSON path, saying the namespace is the host's"
done
config '["/bin/true"]' '' "{\"type\":\"pid\"},{\"type\":\"mount\"},{\"type\":\"uts\",\"path\":\"/proc/$$/ns/uts\"}"
sed -i 's/^{"ociVersion":"1.0.2",/{"ociVersion":"1.0.2","hostname":"crib-sysctl-test",/' "$B/config.json"
oci create --bundle "$B" hostuts
R delete -f hostuts >/dev/null 2>&1
assert_eq "$rc" 125 "the hostname in the host's UTS namespace joined by path: refused, 125"
assert_contains "$err" ".hostname: the UTS namespace the container joins ('/proc/$$/ns/uts') is the host's" \
	"at its JSON path, saying the namespace is the host's"
assert_eq "$(hostname)" "$hostname_before" "the host's hostname is as it was"

# --- refused: names that would leave /proc/sys, and host-wide sysctls
for key in 'net/../../../etc/crib-sysctl-test' 'net.ipv4..' 'net...ipv4.ip_forward' '.net.ipv4.ip_forward' \
	'net.ipv4.ip_forward.' 'net.ipv4.conf.all.Forwarding' 'net.ipv4.ip_forward/..'; do
	config '["/bin/true"]' "\"$key\":\"1\""
	oci create --bundle "$B" bad
	assert_eq "$rc" 125 "'$key': refused, 125"
	assert_contains "$err" ".linux.sysctl[\"$key\"]: is not a sysctl name crib takes" "at its JSON path"
done
assert_eq "$([ -e /etc/crib-sysctl-test ] && echo made || echo none)" none "nothing was made outside /proc/sys"
for key in kernel.core_pattern vm.overcommit_memory kernel.hostname kernel.shm_next_id; do
	config '["/bin/true"]' "\"$key\":\"1\""
	oci create --bundle "$B" bad
	assert_eq "$rc" 125 "$key (not the container's own namespace's): refused, 125"
	assert_contains "$err" ".linux.sysctl[\"$key\"]: is " "at its JSON path"
done
config '["/bin/true"]' '"net.ipv4.ip_forward":"1\n0"'
oci create --bundle "$B" bad
assert_contains "$rc:$err" "125:" "a value of two lines: refused, 125"
assert_contains "$err" ".linux.sysctl[\"net.ipv4.ip_forward\"]: its value is more than one line" "at its JSON path"

# --- refused: a file of the host bound over the sysctl's (a config's mount): crib writes only
# to the kernel's file on its own proc mount, and the host file keeps its content
echo host-file >"$T/fake"
[ "$ROLE" = root ] || chmod 666 "$T/fake"
config '["/bin/true"]' '"net.ipv4.ip_forward":"1"' "" "" \
	"{\"destination\":\"/proc/sys/net/ipv4/ip_forward\",\"type\":\"bind\",\"source\":\"$T/fake\",\"options\":[\"bind\"]},"
# (crib mounts its /proc before the config's mounts: the bind lands on the proc file)
sed -i 's|"mounts":\[\(.*\),{"destination":"/proc","type":"proc","source":"proc"}\]|"mounts":[{"destination":"/proc","type":"proc","source":"proc"},\1]|' "$B/config.json"
oci create --bundle "$B" over
assert_eq "$rc" 125 "a host file bound over /proc/sys/net/ipv4/ip_forward: refused, 125"
assert_contains "$err" "cannot set sysctl 'net.ipv4.ip_forward'" "saying the sysctl could not be set ($(echo "$err" | head -n1))"
assert_eq "$(cat "$T/fake")" host-file "the host file is unchanged"
R delete -f over >/dev/null 2>&1
assert_eq "$(host_sysctls)" "$before" "after every refusal, the host's sysctls are as they were"

# --- oomScoreAdj: from outside once created, inside, and in crib-runc exec's process
adj=432
[ "$(cat /proc/self/oom_score_adj)" -gt $adj ] && adj=$(cat /proc/self/oom_score_adj)
config '["/bin/sh","-c","cat /proc/self/oom_score_adj; exec sleep 100"]' '' "" "\"oomScoreAdj\":$adj,"
oci create --bundle "$B" o1
assert_eq "$rc:$err" "0:" "create with oomScoreAdj $adj exits 0"
pid=$(pid_in_state o1)
assert_eq "$(cat "/proc/$pid/oom_score_adj" 2>/dev/null)" $adj "the created container's process has $adj (/proc/$pid/oom_score_adj)"
R start o1 >"$T/o1.out" 2>&1
sleep 0.3
assert_eq "$(cat "$T/.stdout")" $adj "its program reads $adj inside"
assert_eq "$(R exec o1 /bin/cat /proc/self/oom_score_adj 2>&1)" $adj "crib-runc exec's process has the container's $adj too"
R kill o1 KILL >/dev/null 2>&1
wait_status o1 stopped
R delete -f o1 >/dev/null 2>&1

config '["/bin/cat","/proc/self/oom_score_adj"]' '' "" '"oomScoreAdj":-500,'
oci create --bundle "$B" o2
# CAP_SYS_RESOURCE (bit 24) in this shell's effective set: some sandboxes deny it even to root
eff=$(awk '/^CapEff:/{print $2}' /proc/self/status)
if [ "$ROLE" = root ] && [ $(((0x$eff >> 24) & 1)) = 1 ]; then
	assert_eq "$rc:$err" "0:" "as root with CAP_SYS_RESOURCE, a value below the current one (-500): created"
	R start o2 >/dev/null 2>&1
	wait_status o2 stopped
	assert_eq "$(cat "$T/.stdout")" -500 "and its program has -500"
else
	assert_eq "$rc" 125 "as $ROLE without CAP_SYS_RESOURCE (CapEff $eff), a value below the current one (-500): refused, 125 (as runc)"
	assert_contains "$err" "CAP_SYS_RESOURCE" "saying it needs CAP_SYS_RESOURCE ($(echo "$err" | head -n1))"
fi
R delete -f o2 >/dev/null 2>&1

done_testing
