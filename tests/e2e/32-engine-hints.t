#!/bin/sh
# Engine mode's errors speak the engine's words (issue 32, bug 5): crib run by podman or
# containerd (here `crib oci create`, as an engine calls it, and podman with crib as its
# runtime) on a config.json it cannot honour on this host names the config.json path of the
# value and, where one obviously sets it, podman's flag; never a crib.ini key or section, which
# the engine's user cannot set. Failures every host has: a writable rootfs other users can reach
# (.root.readonly, --read-only), a uid the user namespace does not map (.linux.uidMappings), as
# a user a config without a user namespace (.linux.namespaces) and a hard nofile limit above
# the user's own (.process.rlimits, --ulimit), as root the warning for CAP_SYS_PTRACE without a
# user namespace; and where this host has them: limits it cannot apply (.linux.resources.*,
# --memory, --pids-limit), an AppArmor profile it cannot apply (.process.apparmorProfile).
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/oci.sh"

# the words of crib.ini(5) an engine's user cannot act on
ini_words() { # ini_words TEXT: those TEXT holds, one line
	for w in resources_mode seccomp_mode apparmor_mode readonly_rootfs "user = no" "pid = no" \
		"[resources]" "[security]" "[namespaces]" "[idmap]" "[limits]" "[mounts]" crib.ini \
		"uid = auto" "gid = auto" "crib run"; do
		case "$1" in *"$w"*) printf '%s; ' "$w" ;; esac
	done
}
no_ini_words() { # no_ini_words TEXT DESCRIPTION
	assert_eq "$(ini_words "$1")" "" "$2"
}

uid=$(id -u)
gid=$(id -g)
if [ "$ROLE" = root ]; then
	read -r host_uid _ <<EOF
$(root_range uid)
EOF
	read -r host_gid _ <<EOF
$(root_range gid)
EOF
	host_uid=${host_uid:-1000000} host_gid=${host_gid:-1000000}
else
	host_uid=$uid host_gid=$gid
fi
# config [LINUX_EXTRA] [PROCESS_EXTRA] [ROOT_EXTRA]: the bundle's config.json. As root no user
# namespace (podman's and containerd's default), as a user one mapping the caller's own ids.
config() {
	if [ "$ROLE" = root ]; then
		ns='{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"}'
	else
		ns='{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"},{"type":"user"}'
		ns="$ns],\"uidMappings\":[{\"containerID\":0,\"hostID\":$uid,\"size\":1}],\"gidMappings\":[{\"containerID\":0,\"hostID\":$gid,\"size\":1}"
	fi
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"${3:-}},
 "process":{"args":["/bin/true"],"cwd":"/","env":["PATH=/bin"],"user":{"uid":0,"gid":0},
   "rlimits":[{"type":"RLIMIT_NOFILE","hard":1024,"soft":1024}],
   "capabilities":{"bounding":["CAP_KILL"],"effective":["CAP_KILL"],"permitted":["CAP_KILL"]},
   "noNewPrivileges":true${2:-}},
 "mounts":[{"destination":"/proc","type":"proc","source":"proc"}],
 "linux":{"namespaces":[$ns]${1:-},"maskedPaths":["/proc/kcore"]}}
EOF
}

# --- a writable rootfs other users can reach: a setuid file the container made there would run
# as its root for them. The remedy: .root.readonly (podman run --read-only), not readonly_rootfs.
# (In a user namespace, root's mapping root's own range; an empty rootfs: refused before use.)
O=$(mktemp -d /tmp/crib-hint.XXXXXX)
chmod 755 "$O"
mkdir -m 755 "$O/rootfs"
umap="\"uidMappings\":[{\"containerID\":0,\"hostID\":$host_uid,\"size\":1}],\"gidMappings\":[{\"containerID\":0,\"hostID\":$host_gid,\"size\":1}]"
cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"$O/rootfs"},
 "process":{"args":["/bin/true"],"cwd":"/","user":{"uid":0,"gid":0},"noNewPrivileges":true},
 "linux":{"namespaces":[{"type":"mount"},{"type":"user"}],$umap}}
EOF
oci create --bundle "$B" h1
assert_contains "$rc:$err" "125:crib: $B/config.json: " "a reachable writable rootfs: 125, naming config.json"
assert_contains "$err" "other users can reach" "saying why"
assert_contains "$err" "or set .root.readonly to true (podman run --read-only)" \
	"the remedy: config.json's .root.readonly, and podman's --read-only"
no_ini_words "$err" "and no crib.ini key (readonly_rootfs)"
oci delete --force h1
rm -r "$O"

# --- a uid the config's user namespace does not map: .linux.uidMappings, not [idmap]
cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":["/bin/true"],"cwd":"/","user":{"uid":1000,"gid":0},"noNewPrivileges":true},
 "linux":{"namespaces":[{"type":"mount"},{"type":"user"}],$umap}}
EOF
oci create --bundle "$B" h2
assert_eq "$(echo "$err" | head -n 1)" "crib: $B/config.json: .process.user: uid 1000 is not mapped into the container" \
	"an unmapped uid: the JSON path of the user"
assert_contains "$err" "map it in .linux.uidMappings (rootless podman maps your /etc/subuid range)" "the remedy: .linux.uidMappings"
no_ini_words "$err" "and no crib.ini key ([idmap], uid = auto)"
oci delete --force h2

if [ "$ROLE" = user ]; then
	# --- no user namespace: only root may do without
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":["/bin/true"],"cwd":"/","user":{"uid":0,"gid":0},"noNewPrivileges":true},
 "linux":{"namespaces":[{"type":"mount"},{"type":"pid"}]}}
EOF
	oci create --bundle "$B" h3
	assert_eq "$rc:$(echo "$err" | head -n 1)" "125:crib: $B/config.json: .linux.namespaces: no user namespace needs root: only root may create namespaces outside a user namespace" \
		"as a user, a config without a user namespace: 125, .linux.namespaces"
	assert_contains "$err" "hint: add a user namespace to .linux.namespaces, with .linux.uidMappings and .linux.gidMappings" \
		"the remedy: add one to .linux.namespaces"
	no_ini_words "$err" "and no crib.ini key (user = no)"
	oci delete --force h3
else
	# --- CAP_SYS_PTRACE without a user namespace: the warning names no crib.ini key
	config "" ""
	sed 's/"CAP_KILL"/"CAP_KILL","CAP_SYS_PTRACE"/g' "$B/config.json" >"$T/c.json" && mv "$T/c.json" "$B/config.json"
	# (an engine reads create's warnings in its --log)
	oci --log "$T/log" create --bundle "$B" h3
	assert_eq "$rc" 0 "root, CAP_SYS_PTRACE without a user namespace: create runs"
	assert_contains "$(cat "$T/log" 2>/dev/null)" "level=warning msg=\"crib: no user namespace with SYS_PTRACE: the container is host root with ptrace(2)" \
		"and warns in its log, in the config's words"
	no_ini_words "$(cat "$T/log" 2>/dev/null)" "and no crib.ini key (user = no)"
	oci delete --force h3
fi

# --- a hard nofile limit above the caller's own, which only CAP_SYS_RESOURCE may raise:
# .process.rlimits, podman's --ulimit (podman's default, 1048576, where root lacks it)
# shellcheck disable=SC3045 # dash's and busybox's ulimit take -H
hard=$(ulimit -Hn)
capeff=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
if [ "$hard" = unlimited ]; then
	skips 3 "the caller's hard nofile limit is unlimited: nothing is above it"
elif [ $(((0x$capeff >> 24) & 1)) = 1 ]; then
	skips 3 "the caller has CAP_SYS_RESOURCE: it may raise its hard limit"
else
	config "" ""
	sed "s/\"hard\":1024,\"soft\":1024/\"hard\":$((hard + 1)),\"soft\":1024/" "$B/config.json" >"$T/c.json" &&
		mv "$T/c.json" "$B/config.json"
	oci create --bundle "$B" h4
	assert_contains "$rc:$err" "125:crib: $B/config.json: .process.rlimits: limit 'nofile' asks for a hard limit above your own ($hard)" \
		"nofile above the caller's own hard limit: 125, .process.rlimits"
	assert_contains "$err" "ask for at most $hard in .process.rlimits (podman run --ulimit nofile=$hard:$hard)" \
		"the remedy: podman's --ulimit"
	no_ini_words "$err" "and no crib.ini key ([limits])"
	oci delete --force h4
fi

# --- limits this host cannot apply (a hybrid cgroup host: the controllers on cgroup v1; a user
# without a delegated cgroup; memory off at boot): .linux.resources.*, podman's flags. Where it
# can apply them (the VM guests), the limits are read from the host's cgroup instead.
config ',"resources":{"memory":{"limit":67108864},"pids":{"limit":50}}' "" ',"readonly":true'
oci create --bundle "$B" h5
if [ "$rc" = 0 ]; then
	pid=$("$T/crib-runc" --root "$S" state h5 2>/dev/null | sed -n 's/^ *"pid":\([0-9]*\),$/\1/p')
	cg2=$(sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup2 .*/\1/p' /proc/self/mountinfo | head -n 1)
	inner=$cg2$(sed -n 's/^0:://p' "/proc/$pid/cgroup")
	assert_eq "$(cat "$inner/../memory.max" "$inner/../pids.max" 2>&1 | tr '\n' ' ')" "67108864 50 " \
		"limits this host can apply: memory.max and pids.max of the container's cgroup"
	skips 3 "this host applies the limits (the words are checked where it cannot: a hybrid host, the VM's cgroupv1 guest)"
else
	assert_contains "$rc:$err" "125:crib: $B/config.json: .linux.resources." \
		"limits this host cannot apply: 125, naming the limit's JSON path ($(echo "$err" | head -n 1 | sed 's/.*cannot be applied: //'))"
	assert_contains "$err" "limits cannot be applied" "saying so"
	case "$err" in
	*"the pids limits"*) want=".linux.resources.pids.limit (set by podman run --pids-limit)" ;;
	*"the memory and pids limits"*) want=".linux.resources.memory.limit and .linux.resources.pids.limit (set by podman run --memory, --pids-limit)" ;;
	*) want=".linux.resources.memory.limit (set by podman run --memory)" ;;
	esac
	assert_contains "$err" "or run without the" "the remedy without them: $want"
	assert_contains "$err" "$want" "in config.json's and podman's words"
	no_ini_words "$err" "and no crib.ini key (resources_mode = prefer)"
fi
oci delete --force h5

# --- an AppArmor profile by name: applied, or an error naming .process.apparmorProfile
config "" ',"apparmorProfile":"crib-default"' ',"readonly":true'
oci create --bundle "$B" h6
if [ -d /sys/kernel/security/apparmor ]; then
	skip "AppArmor is on here: the profile applies, or fails as it is loaded or not (11-apparmor.t, the VM guests)"
	no_ini_words "$err" "and whatever create said names no crib.ini key"
else
	assert_contains "$rc:$err" "125:crib: $B/config.json: .process.apparmorProfile: AppArmor profile 'crib-default' was asked for" \
		"AppArmor off here, a profile by name: 125, .process.apparmorProfile"
	assert_contains "$err" "or run without it: leave out .process.apparmorProfile (podman run --security-opt apparmor=unconfined)" \
		"the remedy: podman's --security-opt apparmor=unconfined"
	no_ini_words "$err" "and no crib.ini key (apparmor = unconfined in [security])"
fi
oci delete --force h6

# --- podman with crib as its runtime, as root (rootless podman ignores limits on a cgroup v1
# host, and runs crib as root of its own user namespace): --memory where crib cannot apply it
if [ "$ROLE" != root ]; then
	skips 4 "podman's own limits are root's case here (rootless podman on cgroup v1 ignores them)"
elif ! command -v podman >/dev/null 2>&1; then
	skips 4 "podman is not installed"
else
	PR=$(mktemp -d /tmp/crib-pod.XXXXXX)
	printf '[engine]\nruntime = "crib"\n[engine.runtimes]\ncrib = ["%s"]\n' "$T/crib-runc" >"$T/containers.conf"
	# podman's cgroupfs parent and the empty cgroup it makes to probe cgroup v2 for --memory,
	# where cgroup v2 is: removed at the end if this test made them
	pcg2=$(sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup2 .*/\1/p' /proc/self/mountinfo | head -n 1)
	lp_before=$([ -n "$pcg2" ] && [ -d "$pcg2/libpod_parent" ] && echo kept)
	pp_before=$([ -n "$pcg2" ] && [ -d "$pcg2/podman_probe" ] && echo kept)
	pod() {
		CONTAINERS_CONF="$T/containers.conf" timeout -k 10 60 podman --root "$PR/storage" \
			--runroot "$PR/r" --runtime "$T/crib-runc" --cgroup-manager cgroupfs \
			--events-backend none "$@"
	}
	tar -C "$ROOTFS" -cf "$PR/rootfs.tar" . 2>/dev/null
	pod import "$PR/rootfs.tar" localhost/crib-test:32 >/dev/null 2>&1
	lim="--network none --pids-limit 0 --ulimit nofile=1024:1024 --ulimit nproc=1024:1024"
	pout=$(pod run --rm $lim --memory 64m localhost/crib-test:32 /bin/echo ran 2>"$T/p.err")
	if [ "$pout" = ran ]; then
		skips 4 "podman run --memory 64m runs here (crib applies the limit: 25-oci.t reads it)"
	else
		assert_contains "$(cat "$T/p.err")" "the memory limits cannot be applied" \
			"podman run --memory 64m where crib cannot apply it: podman shows crib's reason"
		assert_contains "$(cat "$T/p.err")" "leave out .linux.resources.memory.limit" \
			"and the remedy in config.json's words"
		assert_contains "$(cat "$T/p.err")" "(set by podman run --memory" "with podman's --memory"
		no_ini_words "$(cat "$T/p.err")" "and no crib.ini key (resources_mode = prefer)"
	fi
	pod rm -af >/dev/null 2>&1
	pod rmi -af >/dev/null 2>&1
	rm -rf "$PR" 2>/dev/null
	[ -n "$pcg2" ] && [ -z "$lp_before" ] && rmdir "$pcg2/libpod_parent/conmon" "$pcg2/libpod_parent" 2>/dev/null
	[ -n "$pcg2" ] && [ -z "$pp_before" ] && rmdir "$pcg2/podman_probe" 2>/dev/null
fi

left=""
for d in "$S"/*; do
	case ${d##*/} in _* | "*") ;; *) left="$left ${d##*/}" ;; esac
done
assert_eq "$left" "" "no container is left in the state directory"
done_testing
