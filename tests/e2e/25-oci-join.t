#!/bin/sh
# Namespaces joined by path (issue 34): an OCI config's .linux.namespaces[].path, as podman's
# default network, its pods, --network container:X and ctr run --with-ns send them. A holder
# process owns the namespaces (as root: network, uts and ipc of its own; as a user: a user
# namespace of the user's own with them, which the container joins too). Read from inside and
# from outside: the workload's /proc/PID/ns/* are the holder's, crib exec's too, the holder
# outlives the container, and a file of the wrong kind is refused at its JSON path, 125.
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/oci.sh"

ns_of() { readlink "/proc/$1/ns/$2" 2>/dev/null; }

# the holder: its namespaces are the ones joined (as a user, in a user namespace of its own)
if [ "$ROLE" = root ]; then
	unshare -n -u -i sh -c "hostname holder; echo > $T/ready; exec sleep 1000" &
else
	unshare -r -n -u -i sh -c "hostname holder; echo > $T/ready; exec sleep 1000" &
fi
holder=$!
trap 'kill $holder 2>/dev/null; rm -rf "$T"' EXIT
wait_for "$T/ready" 50
sleep 0.1

# config ARGS_JSON NAMESPACES_JSON [LINUX_JSON,]: the bundle's config.json
config() {
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":$1,"cwd":"/","env":["PATH=/bin:/usr/bin"],"user":{"uid":0,"gid":0},
   "capabilities":{"bounding":["CAP_KILL"],"effective":["CAP_KILL"],"permitted":["CAP_KILL"]},
   "noNewPrivileges":true},
 "mounts":[{"destination":"/proc","type":"proc","source":"proc"}],
 "linux":{${3:-}"namespaces":[$2]}}
EOF
}
joined="{\"type\":\"pid\"},{\"type\":\"mount\"},{\"type\":\"network\",\"path\":\"/proc/$holder/ns/net\"},{\"type\":\"uts\",\"path\":\"/proc/$holder/ns/uts\"},{\"type\":\"ipc\",\"path\":\"/proc/$holder/ns/ipc\"}"
[ "$ROLE" = user ] && joined="$joined,{\"type\":\"user\",\"path\":\"/proc/$holder/ns/user\"}"

# --- the workload in the holder's namespaces, and a pid namespace of its own
config '["/bin/sh","-c","for n in net uts ipc user; do readlink /proc/self/ns/$n; done; hostname; cat /proc/self/uid_map; exec sleep 100"]' "$joined"
oci create --bundle "$B" j1
assert_eq "$rc:$err" "0:" "create with namespaces joined by path exits 0, saying nothing"
pid=$(R state j1 2>/dev/null | sed -n 's/^ *"pid":\([0-9]*\),$/\1/p')
R start j1 >/dev/null 2>&1
sleep 0.3
# (read once it runs: until its exec, the setup process in a joined user namespace is not
# dumpable, and its /proc/PID/ns is root's alone)
for n in net uts ipc; do
	assert_eq "$(ns_of "$pid" $n)" "$(ns_of $holder $n)" "the workload's $n namespace is the holder's, read from outside ($(ns_of $holder $n))"
done
assert_eq "$([ "$(ns_of "$pid" net)" != "$(ns_of $$ net)" ] && echo other)" other "and not the host's network namespace"
assert_eq "$([ "$(ns_of "$pid" pid)" != "$(ns_of $$ pid)" ] && [ "$(ns_of "$pid" pid)" != "$(ns_of $holder pid)" ] && echo own)" own \
	"its pid namespace is a new one, not joined"
if [ "$ROLE" = user ]; then
	assert_eq "$(ns_of "$pid" user)" "$(ns_of $holder user)" "as a user: the user namespace is the holder's too"
fi
# crib exec joins the joined namespaces too (without it, it ran in the host's network)
exec_ns=$(R exec j1 /bin/sh -c 'readlink /proc/self/ns/net; readlink /proc/self/ns/uts; hostname' 2>&1)
assert_eq "$(echo $exec_ns)" "$(ns_of $holder net) $(ns_of $holder uts) holder" \
	"crib exec: in the holder's network and uts namespaces, with its hostname"
R kill j1 KILL >/dev/null 2>&1
sleep 0.3
R delete -f j1 >/dev/null 2>&1
assert_eq "$(kill -0 $holder 2>/dev/null && echo alive)" alive "the holder outlives the container (it is not the container's to end)"

# --- the whole run as the workload saw it
config '["/bin/sh","-c","readlink /proc/self/ns/net; hostname; ip link 2>/dev/null | grep -c \"^[0-9]\""]' "$joined"
oci create --bundle "$B" j2
R start j2 >/dev/null 2>&1
sleep 0.5
R delete -f j2 >/dev/null 2>&1
inside=$(cat "$T/.stdout")
assert_contains "$inside" "$(ns_of $holder net)" "inside: /proc/self/ns/net is the holder's"
assert_contains "$inside" "holder" "inside: the holder's hostname (its uts namespace), not the config's"

# as a user, the holder's user namespace: one it may create the others in
own=
[ "$ROLE" = user ] && own="{\"type\":\"user\",\"path\":\"/proc/$holder/ns/user\"},"

# --- refused: a file of another kind, no namespace at all, the mount namespace, before
# anything exists (125, the JSON path)
config '["/bin/true"]' "$own{\"type\":\"mount\"},{\"type\":\"network\",\"path\":\"/proc/$holder/ns/ipc\"}"
oci create --bundle "$B" bad1
assert_eq "$rc" 125 "an ipc namespace given as the network's: 125"
assert_contains "$err" ".linux.namespaces: '/proc/$holder/ns/ipc' is not a network namespace" "saying which, at its JSON path"
config '["/bin/true"]' "$own{\"type\":\"mount\"},{\"type\":\"uts\",\"path\":\"/dev/null\"}"
oci create --bundle "$B" bad2
assert_eq "$rc" 125 "/dev/null as a uts namespace: 125"
assert_contains "$err" "'/dev/null' is not a namespace file" "saying so"
mkfifo "$T/fifo"
config '["/bin/true"]' "$own{\"type\":\"mount\"},{\"type\":\"uts\",\"path\":\"$T/fifo\"}"
oci create --bundle "$B" bad3
assert_eq "$rc" 125 "a FIFO as a namespace: 125, without hanging on its open"
config '["/bin/true"]' "$own{\"type\":\"mount\",\"path\":\"/proc/$holder/ns/mnt\"}"
oci create --bundle "$B" bad4
assert_eq "$rc" 125 "a mount namespace by path: 125"
assert_contains "$err" "].path: crib does not join a mount namespace" "saying why"
if [ "$ROLE" = user ]; then
	# a namespace the user has no power in: the host's own
	maps="\"uidMappings\":[{\"containerID\":0,\"hostID\":$(id -u),\"size\":1}],\"gidMappings\":[{\"containerID\":0,\"hostID\":$(id -g),\"size\":1}],"
	config '["/bin/true"]' '{"type":"pid"},{"type":"mount"},{"type":"user"},{"type":"network","path":"/proc/1/ns/net"}' "$maps"
	oci create --bundle "$B" bad5
	assert_eq "$rc" 125 "as a user, the host's network namespace: 125"
	assert_contains "$err" "cannot" "saying it cannot open or join it ($(echo "$err" | head -n 1))"
	# a config whose map is not the joined user namespace's
	config '["/bin/true"]' "$joined" "$(echo "$maps" | sed 's/"size":1}],"gid/"size":2}],"gid/')"
	oci create --bundle "$B" bad6
	assert_eq "$rc" 125 "a uid map that is not the joined user namespace's: 125"
	assert_contains "$err" ".linux.uidMappings: does not match the maps of the joined user namespace" "at its JSON path"
fi

# --- the child crib forks to read a joined user namespace's maps (runtime/host/nsfiles.c) is
# in that namespace as host root (as root) until its maps are read: a process of the namespace
# that sees it (a container with the host's pid namespace, podman --pid=host --userns=auto,
# then another container run with --userns=container:it) opened its /proc/PID/root, the host's
# /, and ptraced it, before it was made not dumpable (the attacker's review). The test build
# holds the child there 2 s (CRIB_TEST_STOP_AT); a process of that namespace looks at it
if has_hooks; then
	unshare -U -r sh -c "echo > $T/uready; exec sleep 100" &
	uholder=$!
	wait_for "$T/uready" 50
	mkdir "$T/hk"
	ln -s "$CRIB_HOOKS" "$T/hk/crib-runc"
	config '["/bin/true"]' "{\"type\":\"pid\"},{\"type\":\"mount\"},{\"type\":\"user\",\"path\":\"/proc/$uholder/ns/user\"}"
	CRIB_TEST_STOP_AT="read the joined user namespace's maps" "$T/hk/crib-runc" --root "$S" \
		create --bundle "$B" m1 >/dev/null 2>&1 </dev/null &
	crib=$!
	child=
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		# (its children from /proc: busybox's pgrep, the VM guests', has no -P)
		child=$(awk '{ print $1 }' "/proc/$crib/task/$crib/children" 2>/dev/null)
		[ -n "$child" ] && break
		sleep 0.1
	done
	# (uid_map, readable by anyone, shows the maps of the reader's view of its user namespace)
	assert_eq "$(cat /proc/"${child:-0}"/uid_map 2>&1)" "$(cat /proc/$uholder/uid_map)" \
		"crib's child that reads the maps is in the joined user namespace (pid ${child:-none})"
	looked=$(nsenter -t $uholder -U --preserve-credentials ls /proc/"${child:-0}"/root/ 2>&1)
	assert_contains "$looked" "Permission denied" \
		"from that namespace, its /proc/PID/root (the host's /) is shut: it is not dumpable"
	assert_contains "$(nsenter -t $uholder -U --preserve-credentials ls /proc/$uholder/root/ 2>&1)" "bin" \
		"while the holder's own, as dumpable, lists from there"
	wait $crib
	kill $uholder 2>/dev/null
	R delete -f m1 >/dev/null 2>&1
else
	skips 3 "$HOOKS_SKIP"
fi
assert_eq "$(ls "$S" 2>/dev/null | grep -v '^_' | tr '\n' ' ')" "" "nothing is left in the state directory"

done_testing
