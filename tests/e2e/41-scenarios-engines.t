#!/bin/sh
# The engine half of issue 32's scenario matrix: what users of podman and containerd do with
# crib as their runtime (crib-runc, a link to crib: crib's `oci` command line), as a sequence,
# each step read from the host (the container's pid, its cgroup files, the mount table, crib's
# state directory) and from inside. Podman as root and rootless, on one image imported from the
# test rootfs; ctr (containerd) as root only (containerd runs rootless only under rootlesskit).
# crib's own command-line scenarios are tests/e2e/40-scenarios.t.
#
#   P1 podman run -d -p with podman's default network -> wget from the host -> exec, crib exec
#      -> --network container:p1 -> stop -> rm -> nothing left; a pod of two (podman pod create)
#   P2 podman run -d --name --network none -> exec, exec -t, exec -i -> logs -> stop -> start
#      -> rm -f -> nothing left; crib ps, crib oci state, crib exec, crib logs on it
#   P3 podman --pid=host --network host -> exec (and crib exec) -> rm -f -> nothing left
#   P4 podman --memory 64m --pids-limit 50 -> exec -> memory.max, pids.max from the host
#   P5 podman --pid=host --memory 64m -> exec -> memory.max from the host
#   P6 podman with a user namespace in config.json: root --uidmap (--read-only), a user
#      --userns=keep-id -> exec (and crib exec) -> uid_map from the host -> rm -f
#   B1 buildah bud --runtime crib-runc, three RUN steps -> podman runs the image
#   C1 ctr run -d -> task exec -> crib ps/state/list/exec on it -> task kill -> task rm, c rm
#      -> nothing left
#   C2 ctr run -d --uidmap, --memory-limit -> task exec -> uid_map, memory.max -> kill, rm
#      (ctr's --uidmap drops --runc-binary: the shim runs "runc" from containerd's PATH, where
#      crib is linked as runc)
#   C3 ctr run -d --net-host -> task exec; ctr --with-ns network: and pid: of another task
#      -> task exec -> it ends, the other runs on
#
# Where the features meet (every pair that can meet through an engine):
#
#   pair                         scenarios
#   exec x own pid namespace     P2 P4 P6 C1 C2
#   exec x host pid namespace    P3 P5
#   exec x resources             P4 P5 C2
#   exec x user namespace        P2, P3 as a user (podman's own), P6, C2
#   exec x OCI                   every one (podman exec, ctr task exec)
#   pid ns x resources           P4 (own) P5 (host)
#   pid ns x user namespace      P3 as a user (host pid, podman's userns), P6 (own), C2 (own)
#   pid ns x OCI                 P2 P3 (podman), C1 (ctr), C3 (another task's, joined)
#   joined namespaces x exec     P1 (podman's network, a pod's), C3 (another task's)
#   resources x user namespace   P4 as a user (podman's userns), C2 (root's --uidmap)
#   resources x OCI              P4 P5 (podman), C2 (ctr)
#   user namespace x OCI         P2-P6 as a user, P6, C2
#
# Limits are read from the host's cgroup files where this host can apply them (cgroup v2 with
# the controller); where it cannot, the engine's run must be refused, saying why, leaving
# nothing behind (on a hybrid host, as root, every resources pair is such a refusal; as a user
# podman drops the limits itself, and P4 and P5 skip saying so). The x86_64 VM guest (cgroup v2
# with every controller) has the host's podman and containerd (tests/vm/run copies them in),
# and applies and reads the limits for real, as root: P4, P5 and C2. Known gaps, checked as they
# are today:
#   - podman's default network, and ctr --with-ns, give config.json a namespace path to join.
#     Rootless podman's default network (slirp4netns) needs /dev/net/tun, which some sandboxes
#     keep from users (tests/run-all then gives this test a 0666 one of its own); where podman
#     fails before crib runs, P1 skips saying so.
#   - root's --uidmap: podman (containers/storage) makes its storage 0711 for the mapped root,
#     so other users can reach a writable rootfs and crib refuses it (plan.c's reach check);
#     --read-only runs. Where AppArmor is on (the x86_64 VM guest), podman runs crib for such a
#     container in a mount namespace without /sys/kernel/security; crib applies podman's
#     profile all the same (it goes through /proc), and P6 reads it from the host.
#   - a cgroup v1 or hybrid host: podman's default pids limit (2048) cannot be applied, so every
#     podman run needs --pids-limit 0 there (the runs below pass it, but for P4); rootless
#     podman ignores --memory and --pids-limit on cgroup v1 itself, and on cgroup v2 without
#     systemd's cgroup manager (the VM guests have no systemd): rootless podman with limits runs
#     on neither, only on a host with a systemd user session on cgroup v2.
#   - the x86_64 VM guest has no CNI plugins (nor iptables), so P1's podman fails before crib
#     runs there (the host runs P1 as root and as a user), and the guest gives
#     its user no /etc/subuid range, so P1-P6 skip as a user there (rootless podman would map
#     the user's own uid alone). The ARM guests have no engines: there this file skips.
. "$(dirname "$0")/../lib/libtest.sh"

# the cgroup2 mount, from mountinfo (the VM guests have no findmnt)
cg2=$(sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup2 .*/\1/p' /proc/self/mountinfo | head -n 1)
ln -s "$CRIB" "$T/crib-runc"
# layer FILE: the test rootfs as an image's one layer, a tar. The VM guests give one made of
# root's files (ROOTFS_TAR): their root's rootfs belongs to root's mapped range, and an image's
# files are root's
layer() {
	if [ -n "${ROOTFS_TAR:-}" ]; then
		cp "$ROOTFS_TAR" "$1"
	else
		tar -C "$ROOTFS" -cf "$1" . 2>/dev/null
	fi
}
# a workload that ends on SIGTERM (pid 1 ignores what it does not handle)
W='echo started; trap "exit 0" TERM; while :; do sleep 0.2; done'

# crib_t ARGS...: run_crib (libtest.sh), bounded: $out, $err, $rc
crib_t() {
	out=$(timeout -k 5 30 "$CRIB" "$@" 2>"$T/.stderr" </dev/null)
	rc=$?
	err=$(strip_aa <"$T/.stderr")
}
# cgroup_of PID: its cgroup v2 path, as the host sees it
cgroup_of() { sed -n 's/^0:://p' "/proc/$1/cgroup" 2>/dev/null; }
# names ID: the pids of the processes whose command line names ID (conmon, crib, the shim), but
# the test's own timeout(1) wrappers (busybox's, in the VM guests, leaves a watchdog process
# behind its command for up to a second, or until its shell reaps the command)
names() {
	ID=$1 awk 'FNR == 1 { ours = $0 ~ /^timeout/ } index($0, ENVIRON["ID"]) && !ours { f = FILENAME; sub("/proc/", "", f); sub("/cmdline", "", f); print f }' \
		/proc/[0-9]*/cmdline 2>/dev/null | sort -u | tr '\n' ' '
}
# procs GLOB: the pids whose command line, its arguments joined by spaces, matches GLOB (read
# from /proc: the VM guests' busybox has no pgrep)
procs() {
	for _c in /proc/[0-9]*/cmdline; do
		# shellcheck disable=SC2254 # (a pattern)
		case "$(tr '\0' ' ' <"$_c" 2>/dev/null)" in $1)
			_c=${_c#/proc/}
			echo "${_c%/cmdline}"
			;;
		esac
	done
}
# alive PID...: those of the pids still there
alive() {
	for _p in "$@"; do [ -d "/proc/$_p" ] && printf '%s ' "$_p"; done
}
# limit_here CONTROLLER: the controller is one crib may use here: in the root cgroup's
# cgroup.controllers (root), or in that of the cgroup above the user's own (a delegated one)
limit_here() {
	[ -n "$cg2" ] || return 1
	if [ "$ROLE" = root ]; then
		_c=$cg2/cgroup.controllers
	else
		_own=$(cgroup_of self)
		_c=$cg2${_own%/*}/cgroup.controllers
	fi
	case " $(cat "$_c" 2>/dev/null) " in *" $1 "*) return 0 ;; esac
	return 1
}
# the mount tables to look in: the host's, and rootless podman's own (set below)
podman_mounts=""
# nothing_left WHAT ID MARK STATE PIDS ROOTFS CGROUP: after the engine removed the container
# ID: none of PIDS (its processes, seen while it ran) is alive, no process's command line has
# MARK (conmon's, the shim's, crib's name the container), no mount (the host's, or rootless
# podman's) is its ROOTFS or has MARK, its own CGROUP is gone (and no cgroup is named after a
# podman ID), and crib's STATE directory has nothing of ID
nothing_left() {
	_what=$1 _id=$2 _mark=$3 _state=$4 _pids=$5 _rootfs=$6 _cg=$7
	# shellcheck disable=SC2086
	set -- /proc/self/mountinfo $podman_mounts
	# (a process may take a moment to be reaped, and containerd's shim to clean up after a
	# task: at most 20 s; 5 s were not enough in the x86_64 VM guest, emulated, beside another)
	_i=0
	# shellcheck disable=SC2086
	while { [ -n "$(alive $_pids)" ] || [ -n "$(names "$_mark")" ]; } && [ $_i -lt 200 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	# shellcheck disable=SC2086
	assert_eq "$(alive $_pids)$(names "$_mark")" "" "$_what: no process of it is left (it had ${_pids:-none})" ||
		for _p in $(alive $_pids) $(names "$_mark"); do
			echo "#   $_p: $(tr '\0' ' ' <"/proc/$_p/cmdline" 2>/dev/null | cut -c1-200)"
		done
	_m=""
	for _mi in "$@"; do
		_m="$_m$(grep -F -e "$_mark" ${_rootfs:+-e "$_rootfs"} "$_mi" 2>/dev/null)"
	done
	assert_eq "$_m" "" "$_what: no mount of it is left (its rootfs: ${_rootfs:-none})"
	_c=""
	[ -n "$cg2" ] && [ ${#_id} -ge 32 ] && _c=$(find "$cg2" -name "*$_id*" 2>/dev/null)
	[ -n "$_cg" ] && [ "$_cg" != / ] && [ -d "$cg2$_cg" ] && _c="$_c $cg2$_cg"
	assert_eq "$_c" "" "$_what: no cgroup of it is left (its own: ${_cg:-none})"
	assert_eq "$([ -e "$_state/$_id" ] && echo left || echo gone)" gone \
		"$_what: crib's state directory has nothing of it ($_state)"
}

# ======================================================================================
# podman, with crib as its runtime
# ======================================================================================
# podman refuses a runroot path over 50 characters: the runroot (and a user's
# XDG_RUNTIME_DIR) in a short directory of /tmp
PR=$(mktemp -d /tmp/crib-pod.XXXXXX)
# podman's storage there too: root's where other users may pass, as under /var/lib (root's
# P6 depends on it), a user's where they may not, as in a home directory of mode 0700
[ "$ROLE" = root ] && chmod 0755 "$PR"
if [ "$ROLE" = user ]; then
	export XDG_RUNTIME_DIR="$PR/xdg"
	mkdir -m 0700 "$XDG_RUNTIME_DIR"
	crib_state="$XDG_RUNTIME_DIR/crib"
else
	crib_state=/run/crib
fi
podman_cleanup() {
	# rootless podman's pause process (it holds the user namespace), started for this test
	_pause=$(cat "$PR/xdg/libpod/tmp/pause.pid" 2>/dev/null)
	[ -n "$_pause" ] && kill "$_pause" 2>/dev/null
	rm -rf "$PR" 2>/dev/null
}
why=""
if ! command -v podman >/dev/null 2>&1; then
	why="podman is not installed here (rootfs-tools/install-deps check installs it)"
elif [ "$ROLE" = user ] && ! grep -qE "^($(id -un)|$(id -u)):" /etc/subuid 2>/dev/null; then
	why="rootless podman needs a range of /etc/subuid for $(id -un) (the VM guests give their user none)"
# (podman wants its runtime even to unshare: crib, where there is no crun or runc)
elif [ "$ROLE" = user ] && ! podman --root "$PR/s" --runroot "$PR/r" --runtime "$T/crib-runc" unshare true 2>/dev/null; then
	why="rootless podman cannot make its user namespace here (newuidmap, /etc/subuid)"
fi
if [ -n "$why" ]; then
	for s in P1 P2 P3 P4 P5 P6 B1; do skip "$s: $why"; done
else
	P="$T/podman"
	mkdir -p "$P"
	# (a pod's infra container takes no --ulimit: the defaults, for it too)
	cat >"$P/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
pids_limit = 0
[engine]
runtime = "crib"
[engine.runtimes]
crib = ["$T/crib-runc"]
EOF
	# podman's cgroupfs parent (each container's cgroupsPath is /libpod_parent/libpod-ID):
	# crib removes the container's cgroup; the engine's parent stays, and goes at the end if
	# this test made it; so does the empty cgroup podman makes to probe cgroup v2 for a limit
	lp_before=$([ -n "$cg2" ] && [ -d "$cg2/libpod_parent" ] && echo kept)
	pp_before=$([ -n "$cg2" ] && [ -d "$cg2/podman_probe" ] && echo kept)
	pod() {
		CONTAINERS_CONF="$P/containers.conf" timeout -k 10 60 podman --root "$PR/s" \
			--runroot "$PR/r" --runtime "$T/crib-runc" --cgroup-manager cgroupfs \
			--events-backend none "$@"
	}
	# pr ARGS...: a podman run -d; $id, $prc, $perr (its stderr)
	pr() {
		id=$(pod run -d --pull never "$@" 2>"$T/p.err")
		prc=$?
		perr=$(grep -v 'is not a shared mount' "$T/p.err")
	}
	# the podman container's facts, while it runs: $pid (host), $cg (its cgroup), $rootfs
	facts() {
		pid=$(pod inspect --format '{{.State.Pid}}' "$1" 2>/dev/null)
		cg=$(cgroup_of "$pid")
		cg=${cg%/container}
		rootfs=$(timeout -k 5 30 "$CRIB" oci state "$id" 2>/dev/null | sed -n 's/^ *"rootfs":"\(.*\)",$/\1/p')
	}
	# status_of NAME: Up, or Exited (N)
	status_of() {
		pod ps -a --format '{{.Names}} {{.Status}}' | awk -v n="$1" '$1 == n {print ($2 == "Up") ? $2 : $2 " " $3}'
	}
	# podman's default rlimits may be above the test's own, and its default pids limit needs
	# the pids controller on cgroup v2 (not on a hybrid host): left out but where a limit is
	# the point
	ul="--ulimit nofile=1024:1024 --ulimit nproc=1024:1024"
	lim="--pids-limit 0 $ul"
	# (as a user, what it cannot read stays out: /root)
	layer "$P/rootfs.tar"
	pod import "$P/rootfs.tar" localhost/crib-test:41 >/dev/null 2>"$T/imp.err" ||
		sed 's/^/#   /' "$T/imp.err"
	# rootless podman keeps its mounts in a mount namespace of its own, its pause process's
	[ "$ROLE" = user ] && podman_mounts="/proc/$(cat "$PR/xdg/libpod/tmp/pause.pid" 2>/dev/null)/mountinfo"

	# --- P1: podman's default network (root: CNI's bridge; a user: slirp4netns), which hands
	# crib a network namespace to join (.linux.namespaces[].path): a port published to the
	# host, exec in the workload's network namespace, another container in it (--network
	# container:), a pod of two, stop, rm, nothing left
	port=$((20000 + $$ % 20000))
	# (pid 1 ignores a signal it does not handle: the shell ends on SIGTERM, and httpd with it)
	H="trap 'exit 0' TERM; /bin/busybox httpd -f -p 80 -h /etc & wait"
	pr --name p1 -p "127.0.0.1:$port:80" $lim localhost/crib-test:41 /bin/sh -c "$H"
	p1why=""
	case "$prc:$perr" in
	0:*) ;;
	*slirp4netns*) p1why="podman's own network helper failed, before crib: $(echo "$perr" | grep -m 1 slirp4netns | cut -c1-160)" ;;
	*"failed to find plugin"*) p1why="podman's network plugins (CNI) are missing here, it failed before crib: $(echo "$perr" | grep -o -m 1 'failed to find plugin [^ ]*' | head -n 1)" ;;
	esac
	if [ -n "$p1why" ]; then
		skips 12 "P1: $p1why"
		pod rm -f p1 >/dev/null 2>&1
	else
		assert_eq "$prc:$(status_of p1)" "0:Up" "P1: podman run -d -p 127.0.0.1:$port:80 with podman's default network: up" ||
			echo "$perr" | sed 's/^/#   /'
		facts p1
		p1net=$(readlink "/proc/$pid/ns/net")
		assert_eq "$([ -n "$p1net" ] && [ "$p1net" != "$(readlink /proc/self/ns/net)" ] && echo other)" other \
			"P1: the workload ($pid) is in a network namespace not the host's ($p1net)"
		out=$(wget -q -T 10 -O- "http://127.0.0.1:$port/hostname" 2>&1)
		assert_eq "$out" "$(echo "$id" | cut -c1-12)" "P1: the published port, from the host: the container's httpd answers"
		out=$(pod exec p1 /bin/readlink /proc/self/ns/net 2>&1)
		assert_eq "$out" "$p1net" "P1: podman exec: in the workload's network namespace (podman's), not the host's"
		crib_t exec "$id" -- /bin/readlink /proc/self/ns/net
		assert_eq "$rc:$out" "0:$p1net" "P1: crib exec ID: the same" || echo "#   $err"
		out=$(pod run --rm $lim --network container:p1 localhost/crib-test:41 /bin/sh -c 'readlink /proc/self/ns/net; wget -q -O- http://127.0.0.1/hostname' 2>"$T/p.err")
		assert_eq "$(echo $out)" "$p1net $(echo "$id" | cut -c1-12)" \
			"P1: podman run --network container:p1: in p1's network namespace, its httpd at 127.0.0.1"
		pids="$pid $(children_of "$pid" | tr '\n' ' ')"
		pod stop -t 5 p1 >/dev/null 2>&1
		assert_eq "$(status_of p1)" "Exited (0)" "P1: podman stop: it ends on SIGTERM"
		pod rm -f p1 >/dev/null 2>&1
		nothing_left P1 "$id" "$id" "$crib_state" "$pids" "$rootfs" "$cg"
		# a pod: its infra container holds the network, uts and ipc namespaces the others join
		if ! [ -x /usr/libexec/podman/catatonit ] && ! command -v catatonit >/dev/null 2>&1; then
			skips 3 "P1: a pod's infra container needs catatonit (Debian package catatonit), not installed here"
		else
			pod pod create --name pp1 -p "127.0.0.1:$((port + 1)):80" >/dev/null 2>"$T/p.err"
			pr --pod pp1 --name pa $lim localhost/crib-test:41 /bin/sh -c "$H"
			assert_eq "$prc:$(status_of pa)" "0:Up" "P1: podman run --pod pp1: a member of a pod is up" ||
				sed 's/^/#   /' "$T/p.err"
			out=$(pod run --rm $lim --pod pp1 localhost/crib-test:41 /bin/sh -c 'hostname; wget -q -O- http://127.0.0.1/hostname' 2>"$T/p.err")
			assert_eq "$(echo $out)" "pp1 pp1" "P1: another member of the pod: the pod's hostname (uts), the first one's httpd at 127.0.0.1 (network)"
			out=$(wget -q -T 10 -O- "http://127.0.0.1:$((port + 1))/hostname" 2>&1)
			assert_eq "$out" pp1 "P1: the pod's published port, from the host"
			pod pod rm -f pp1 >/dev/null 2>&1
		fi
	fi

	# --- P2: the whole life of a service
	pr --name p2 --network none $lim localhost/crib-test:41 /bin/sh -c "$W"
	assert_eq "$prc:$(status_of p2)" "0:Up" "P2: podman run -d --name p2: the container is up" ||
		echo "$perr" | sed 's/^/#   /'
	facts p2
	assert_eq "$(awk '/^NSpid:/{print $NF}' "/proc/$pid/status" 2>/dev/null)" 1 \
		"P2: its process ($pid) is pid 1 of a pid namespace of its own"
	# podman's seccomp profile, compiled into crib at build time (tools/seccomp-json2crib): taken
	# for the container (crib's plan), on its process (read from the host), and on what podman
	# exec and crib exec start in it (kcmp: EPERM without SYS_PTRACE)
	if "$CRIB" seccomp builtin | grep -q '^known podman'; then
		grep -a -q "known profile compiled at build time (/usr/share/containers/seccomp.json" "$crib_state/$id/plan" 2>/dev/null
		assert_eq "$?" 0 "P2: crib's plan: podman's profile, the program compiled at build time"
		assert_eq "$(awk '/^Seccomp:/{print $2}' "/proc/$pid/status" 2>/dev/null)" 2 "P2: its process is under a filter (Seccomp: 2, from the host)"
		assert_eq "$(pod exec p2 probe syscall kcmp 2>&1)" EPERM "P2: podman exec: kcmp fails with EPERM, as podman's profile says"
		crib_t exec "$id" -- probe syscall kcmp
		assert_eq "$rc:$out" "0:EPERM" "P2: crib exec: the same filter" || echo "#   $err"
	else
		echo "# P2: crib carries no program for podman's profile (no /usr/share/containers/seccomp.json at build time)"
	fi
	# crib's own tools on the engine's container
	crib_t ps
	assert_eq "$(echo "$out" | awk -v n="$id" '$1 == n {print $2, $3}')" "running $pid" "P2: crib ps lists it, running, with its pid"
	st=$(timeout -k 5 30 "$CRIB" oci state "$id" 2>&1)
	assert_contains "$st" "\"pid\":$pid," "P2: crib oci state gives its pid"
	assert_contains "$st" '"status":"running"' "P2: and says running"
	crib_t oci list
	assert_eq "$rc:$(echo "$out" | awk -v n="$id" '$1 == n {print $2, $3}')" "0:$pid running" \
		"P2: crib oci list lists it, with its pid, running" || echo "#   $err"
	# podman exec: a program in the container's pid namespace, its output and exit status
	out=$(pod exec p2 /bin/sh -c 'echo $(cat /proc/1/cmdline | tr "\0" " ") in $(hostname); exit 3' 2>&1)
	assert_eq "$?:$out" "3:/bin/sh -c $W in $(echo "$id" | cut -c1-12)" \
		"P2: podman exec: output and exit status, the workload is its pid 1"
	# (the program outlives its output a little: podman may miss output of a terminal
	# program that exits at once)
	out=$(pod exec -t p2 /bin/sh -c 'tty; sleep 0.3' </dev/null 2>&1 | tr -d '\r')
	assert_eq "$(echo "$out" | grep -cE '^/dev/pts/[0-9]+$')" 1 "P2: podman exec -t: a terminal ($out)"
	out=$(printf 'one\ntwo\n' | pod exec -i p2 /bin/sh -c 'wc -l' 2>&1)
	assert_eq "$(echo $out)" 2 "P2: podman exec -i: the program reads podman's stdin"
	out=$(pod exec p2 /bin/cat 2>&1 </dev/null)
	assert_eq "$?:$out" "0:" "P2: podman exec without -i: the program's stdin is empty"
	crib_t exec "$id" -- /bin/sh -c 'cat /proc/1/cmdline | tr "\0" " "'
	assert_eq "$rc:$out" "0:/bin/sh -c $W " "P2: crib exec ID: in the same container" || echo "#   $err"
	assert_eq "$(pod logs p2 2>&1)" started "P2: podman logs: the workload's output"
	crib_t logs "$id"
	assert_contains "$rc:$err" "125:" "P2: crib logs on an engine's container says it has none (the engine has them)"
	assert_contains "$err" "podman logs" "P2: and names the engine's command" || echo "#   $out"
	crib_t wait "$id"
	assert_contains "$rc:$err" "125:crib: container '$id' was made by an engine" \
		"P2: so does crib wait (the exit status is the engine's), at once" || echo "#   $out"
	pids1="$pid $(children_of "$pid" | tr '\n' ' ')"
	pod stop -t 5 p2 >/dev/null 2>&1
	assert_eq "$(status_of p2)" "Exited (0)" "P2: podman stop: SIGTERM through crib kill, the workload exits 0"
	assert_eq "$(ls -A "$crib_state/$id" 2>/dev/null | wc -l)" 0 "P2: podman deleted it from crib's state"
	pod start p2 >/dev/null 2>"$T/p.err"
	assert_eq "$?:$(status_of p2)" "0:Up" "P2: podman start: it is up again" || sed 's/^/#   /' "$T/p.err"
	facts p2
	assert_eq "$(alive $pids1)" "" "P2: with a new process ($pid), none of the first run's left"
	assert_eq "$(pod logs p2 2>&1 | tr '\n' ' ')" "started started " "P2: podman logs: both runs' output"
	assert_eq "$(pod exec p2 /bin/echo again 2>&1)" again "P2: podman exec in the restarted container"
	pids="$pid $(children_of "$pid" | tr '\n' ' ')"
	pod rm -f -t 5 p2 >/dev/null 2>&1
	assert_eq "$(pod ps -a -q | wc -l)" 0 "P2: podman rm -f: podman has no container left"
	nothing_left P2 "$id" "$id" "$crib_state" "$pids" "$rootfs" "$cg"

	# --- P3: the host's pid and network namespaces
	pr --name p3 --pid=host --network host $lim localhost/crib-test:41 /bin/sh -c "$W"
	assert_eq "$prc:$(status_of p3)" "0:Up" "P3: podman run -d --pid=host --network host: up" ||
		echo "$perr" | sed 's/^/#   /'
	facts p3
	assert_eq "$(awk '/^NSpid:/{print NF - 1}' "/proc/$pid/status" 2>/dev/null)" \
		"$(awk '/^NSpid:/{print NF - 1}' /proc/self/status)" "P3: its process ($pid) is in the host's pid namespace"
	out=$(pod exec p3 /bin/sh -c "cat /proc/$pid/cmdline | tr '\\0' ' '; echo; readlink /proc/self/ns/net" 2>&1)
	assert_eq "$out" "/bin/sh -c $W 
$(readlink /proc/self/ns/net)" "P3: podman exec: the workload by its host pid, the host's network namespace"
	crib_t exec "$id" -- /bin/sh -c "cat /proc/$pid/cmdline | tr '\\0' ' '"
	assert_eq "$rc:$out" "0:/bin/sh -c $W " "P3: crib exec ID: the same" || echo "#   $err"
	pids="$pid $(children_of "$pid" | tr '\n' ' ')"
	pod rm -f -t 5 p3 >/dev/null 2>&1
	nothing_left P3 "$id" "$id" "$crib_state" "$pids" "$rootfs" "$cg"

	# --- P4, P5: limits, read from the host's cgroup files, the exec's process in the
	# container's cgroup; where crib cannot apply them, refused, saying why
	# limited NAME WHAT CONTROLLERS RUN-ARGS...: the run, and the checks of what it gave
	limited() {
		_nm=$1 _what=$2 _ctl=$3
		shift 3
		pr --name "$_nm" "$@" localhost/crib-test:41 /bin/sh -c "$W"
		if grep -q "not supported and ignored" "$T/p.err"; then
			skip "$_nm: podman ignores the limits here itself ($(grep 'ignored' "$T/p.err" | head -n 1))"
			pod rm -f -t 5 "$_nm" >/dev/null 2>&1
			return
		fi
		_can=yes
		for _k in $_ctl; do limit_here "$_k" || _can="no: no $_k controller for crib here"; done
		if [ "$_can" != yes ]; then
			assert_eq "$prc" 126 "$_nm: podman run -d $_what, where crib cannot apply it ($_can): refused"
			assert_contains "$perr" "limits cannot be applied" "$_nm: saying why" || echo "#   $perr"
			_cid=$(pod inspect --format '{{.Id}}' "$_nm" 2>/dev/null)
			pod rm -f "$_nm" >/dev/null 2>&1
			[ -n "$_cid" ] && nothing_left "$_nm refused" "$_cid" "$_cid" "$crib_state" "" "" ""
			return
		fi
		assert_eq "$prc:$(status_of "$_nm")" "0:Up" "$_nm: podman run -d $_what: up" ||
			echo "$perr" | sed 's/^/#   /'
		facts "$_nm"
		case " $_ctl " in *" memory "*)
			assert_eq "$(cat "$cg2$cg/memory.max" 2>&1)" 67108864 "$_nm: memory.max of its cgroup ($cg), from the host" ;;
		esac
		case " $_ctl " in *" pids "*)
			assert_eq "$(cat "$cg2$cg/pids.max" 2>&1)" 50 "$_nm: pids.max of its cgroup, from the host" ;;
		esac
		# the exec's process, found from the host by its command line, in the container's cgroup
		pod exec -d "$_nm" /bin/sleep 41.5 >/dev/null 2>&1
		_e=$(procs '/bin/sleep 41.5 ' | head -n 1)
		assert_eq "$(cgroup_of "${_e:-none}")" "$cg/container" "$_nm: podman exec: its process (${_e:-none}) is in the container's cgroup"
		[ -n "$_e" ] && kill "$_e" 2>/dev/null
		pids="$pid $(children_of "$pid" | tr '\n' ' ')"
		pod rm -f -t 5 "$_nm" >/dev/null 2>&1
		nothing_left "$_nm" "$id" "$id" "$crib_state" "$pids" "$rootfs" "$cg"
	}
	limited P4 "--memory 64m --pids-limit 50" "memory pids" --network none --memory 64m --pids-limit 50 $ul
	limited P5 "--pid=host --memory 64m" memory --network none --pid=host --memory 64m $lim

	# --- P6: a user namespace in config.json. Root: --uidmap to a range of its own (with
	# --read-only: podman makes its storage 0711 for the mapped root, and crib refuses a
	# writable rootfs other users can reach); a user: --userns=keep-id, the user's own uid in
	# the container, within podman's user namespace
	if [ "$ROLE" = root ]; then
		pr --name p6w --network none --uidmap 0:300000:65536 --gidmap 0:300000:65536 $lim localhost/crib-test:41 /bin/true
		assert_contains "$prc:$perr" "126:" "P6: root's podman --uidmap with a writable rootfs in podman's storage: refused"
		assert_contains "$perr" "other users can reach rootfs" "P6: saying why" || echo "#   $perr"
		pod rm -f p6w >/dev/null 2>&1
		userns="--read-only --uidmap 0:300000:65536 --gidmap 0:300000:65536"
		want_host="0 300000 65536"
		want_in="0 300000 65536"
		want_id="uid=0(root) gid=0(root)"
	else
		userns="--userns=keep-id"
		# (uid_map's outside ids are the reader's: the host's, or podman's namespace's)
		want_host="$(id -u) $(id -u) 1"
		want_in="$(id -u) 0 1"
		want_id="uid=$(id -u)"
	fi
	pr --name p6 --network none $userns $lim localhost/crib-test:41 /bin/sh -c "$W"
	# root's, where AppArmor is on (the x86_64 VM guest): podman runs crib in a mount namespace
	# of its own without /sys/kernel/security; crib applies podman's profile all the same
	# (host/lsm.c: the switch goes through /proc)
	assert_eq "$prc:$(status_of p6)" "0:Up" "P6: podman run -d $userns: up" ||
		echo "$perr" | sed 's/^/#   /'
	if [ "$prc" = 0 ]; then
		facts p6
		assert_contains "$(cat "/proc/$pid/uid_map" 2>&1 | tr -s ' ' ' ')" " $want_host" \
			"P6: its user namespace, read from the host ($pid's uid_map)"
		if [ "$ROLE" = root ] && [ "$(cat /sys/module/apparmor/parameters/enabled 2>/dev/null)" = Y ]; then
			assert_contains "$(cat "/proc/$pid/attr/current" 2>&1)" "containers-default" \
				"P6: confined by podman's AppArmor profile, with no securityfs in crib's mount namespace"
		else
			skip "P6: AppArmor is off here (the x86_64 VM guest has it on)"
		fi
		out=$(pod exec p6 /bin/sh -c 'id; cat /proc/1/cmdline | tr "\0" " "' 2>&1)
		assert_contains "$out" "$want_id" "P6: podman exec: in the container's user namespace ($want_id)"
		assert_contains "$out" "/bin/sh -c $W" "P6: and its pid namespace"
		crib_t exec "$id" -- /bin/cat /proc/self/uid_map
		assert_eq "$rc" 0 "P6: crib exec ID: exits 0" || echo "#   $err"
		assert_contains " $(echo $out) " " $want_in " "P6: in the same user namespace"
		pids="$pid $(children_of "$pid" | tr '\n' ' ')"
		pod rm -f -t 5 p6 >/dev/null 2>&1
		nothing_left P6 "$id" "$id" "$crib_state" "$pids" "$rootfs" "$cg"
	else
		pod rm -f p6 >/dev/null 2>&1
	fi

	# --- B1: buildah (Debian's) builds an image with crib as its runtime: three RUN steps, in
	# podman's storage, on the imported image; the result run by podman. buildah's RUN names
	# ambient capabilities without an inheritable set: left out, as runc does
	if ! command -v buildah >/dev/null 2>&1; then
		skips 4 "B1: buildah is not installed here (rootfs-tools/install-deps check installs it)"
	else
		mkdir -p "$T/ctx"
		cat >"$T/ctx/Containerfile" <<EOF2
FROM localhost/crib-test:41
RUN echo one > /one && id -u > /uid
RUN grep -E '^Cap(Eff|Bnd)' /proc/self/status > /caps
RUN cat /one /uid > /result && echo three >> /result
EOF2
		before=$(ls "$crib_state" 2>/dev/null | tr '\n' ' ')
		# (rootless buildah 1.28 has only CNI's bridge, which needs root: a user builds
		# without a network; root's RUN steps get buildah's own)
		bnet=
		[ "$ROLE" = user ] && bnet="--network none"
		CONTAINERS_CONF="$P/containers.conf" timeout -k 10 180 buildah --root "$PR/s" --runroot "$PR/r" \
			bud $bnet --runtime "$T/crib-runc" --isolation oci -t localhost/built:41 "$T/ctx" >"$T/b.out" 2>&1
		brc=$?
		assert_eq "$brc:$(grep -c '^STEP [234]/4: RUN' "$T/b.out")" "0:3" "B1: buildah bud --runtime crib-runc: three RUN steps, built" ||
			tail -n 5 "$T/b.out" | sed 's/^/#   /'
		out=$(pod run --rm $lim localhost/built:41 /bin/cat /result 2>"$T/p.err")
		assert_eq "$(echo $out)" "one 0 three" "B1: podman runs the image: each step's file, the first as root (uid 0)"
		out=$(pod run --rm $lim localhost/built:41 /bin/cat /caps 2>"$T/p.err" | tr -s ' \t' ' ')
		assert_eq "$(echo "$out" | grep -c '^CapEff: 0000000000000000$')" 0 "B1: a RUN step had capabilities in effect ($(echo $out))"
		assert_eq "$(ls "$crib_state" 2>/dev/null | tr '\n' ' ')" "$before" "B1: nothing of buildah's containers is left in crib's state ($crib_state)"
		CONTAINERS_CONF="$P/containers.conf" buildah --root "$PR/s" --runroot "$PR/r" rmi -f localhost/built:41 >/dev/null 2>&1
	fi

	pod rm -a -f >/dev/null 2>&1
	pod rmi -a -f >/dev/null 2>&1
	[ -n "$cg2" ] && [ -z "$lp_before" ] && rmdir "$cg2/libpod_parent/conmon" "$cg2/libpod_parent" 2>/dev/null
	[ -n "$cg2" ] && [ -z "$pp_before" ] && rmdir "$cg2/podman_probe" 2>/dev/null
	# a user's storage holds files of the user namespace's ids: removed from inside it
	[ "$ROLE" = user ] && podman --root "$PR/s" --runroot "$PR/r" --runtime "$T/crib-runc" unshare rm -rf "$PR/s" 2>/dev/null
fi
podman_cleanup

# ======================================================================================
# containerd (ctr), with crib as the runc shim's binary: root only
# ======================================================================================
why=""
if [ "$ROLE" != root ]; then
	why="containerd runs rootless only under rootlesskit (tested as root)"
elif ! command -v containerd >/dev/null 2>&1 || ! command -v ctr >/dev/null 2>&1; then
	why="containerd is not installed here (rootfs-tools/install-deps check installs it)"
fi
if [ -n "$why" ]; then
	for s in C1 C2 C3; do skip "$s: $why"; done
	done_testing
	exit
fi
D=$(mktemp -d /tmp/crib-ctd.XXXXXX)
ns="crib-s$$"
cstate="/run/containerd/runc/$ns"
cleanup() {
	# shellcheck disable=SC2154
	if [ "$_failed" != 0 ] && [ -s "$D/containerd.log" ]; then
		echo "# containerd's log (its last 20 lines):"
		tail -n 20 "$D/containerd.log" | sed 's/^/#   /'
	fi
	[ -n "${cpid:-}" ] && kill "$cpid" 2>/dev/null && wait "$cpid" 2>/dev/null
	# a shim whose task was not removed (a failed test) outlives containerd: by its pid
	for _s in $(procs "containerd-shim-runc-v2 -namespace $ns *"); do kill -KILL "$_s" 2>/dev/null; done
	rm -rf "$D" "$cstate" 2>/dev/null
	[ -n "$cg2" ] && rmdir "$cg2/$ns" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
ln -s "$CRIB" "$D/crib-runc"
cat >"$D/config.toml" <<EOF
version = 2
root = "$D/root"
state = "$D/state"
disabled_plugins = ["io.containerd.grpc.v1.cri"]
[grpc]
  address = "$D/c.sock"
[ttrpc]
  address = "$D/t.sock"
[debug]
  address = ""
EOF
# crib as runc in containerd's PATH as well: ctr's --uidmap gives the task runc options of its
# own (the io's owner), without the container's BinaryName, and the shim runs plain "runc" then
mkdir "$D/bin"
ln -s "$CRIB" "$D/bin/runc"
PATH="$D/bin:$PATH" timeout -k 10 300 containerd --config "$D/config.toml" >"$D/containerd.log" 2>&1 &
cpid=$!
C() { timeout -k 5 60 ctr -a "$D/c.sock" -n "$ns" "$@" </dev/null; }
i=0
while [ ! -S "$D/c.sock" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
arch=$(uname -m)
case $arch in x86_64) arch=amd64 ;; aarch64) arch=arm64 ;; armv*) arch=arm ;; esac
mkdir "$D/img"
layer "$D/img/layer.tar"
diff=$(sha256sum "$D/img/layer.tar" | cut -d' ' -f1)
printf '{"architecture":"%s","os":"linux","config":{"Env":["PATH=/bin:/usr/bin:/usr/local/bin"]},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
	"$arch" "$diff" >"$D/img/config.json"
printf '[{"Config":"config.json","RepoTags":["localhost/crib-test:41"],"Layers":["layer.tar"]}]' >"$D/img/manifest.json"
tar -C "$D/img" -cf "$D/image.tar" manifest.json config.json layer.tar
C images import --snapshotter native "$D/image.tar" >/dev/null 2>"$T/imp.err" || sed 's/^/#   /' "$T/imp.err"
R="--snapshotter native --runc-binary $D/crib-runc"
task_status() { C task ls 2>/dev/null | awk -v n="$1" '$1 == n {print $3}'; }
task_pid() { C task ls 2>/dev/null | awk -v n="$1" '$1 == n {print $2}'; }
# wait_stopped NAME: at most 10 s
wait_stopped() {
	_i=0
	while [ "$(task_status "$1")" != STOPPED ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
# ctr_gone NAME PIDS CGROUP: kill, rm, and nothing left
# ctr_gone ID PIDS CGROUP [MARK]: MARK names its processes and mounts (the namespace's name by
# default: nothing else of it runs; "-id ID " while another task runs beside it)
ctr_gone() {
	C task kill "$1" >/dev/null 2>&1
	wait_stopped "$1"
	assert_eq "$(task_status "$1")" STOPPED "$1: ctr task kill (SIGTERM): the task stops"
	C task rm "$1" >/dev/null 2>&1
	C container rm "$1" >/dev/null 2>&1
	assert_eq "$({ C task ls -q; C container ls -q; } 2>/dev/null | grep -x "$1")" "" "$1: ctr task rm, c rm: containerd has nothing of it"
	nothing_left "$1" "$1" "${4:-$ns}" "$cstate" "$2" "$D/state/io.containerd.runtime.v2.task/$ns/$1/rootfs" "$3"
}

# --- C1: run -d, task exec, crib's tools on it, kill, rm
C run -d $R localhost/crib-test:41 c1 /bin/sh -c "$W" >/dev/null 2>"$T/e"
pid=$(task_pid c1)
assert_eq "$(task_status c1)" RUNNING "C1: ctr run -d: the task runs" || sed 's/^/#   /' "$T/e"
assert_eq "$(ls "$cstate/c1/plan" 2>&1)" "$cstate/c1/plan" "C1: crib runs it (crib's plan in the shim's state root, no runc state.json)"
assert_eq "$(awk '/^NSpid:/{print $NF}' "/proc/$pid/status" 2>/dev/null)" 1 "C1: its process ($pid) is pid 1 of its own pid namespace"
crib_t --root "$cstate" ps
assert_eq "$(echo "$out" | awk '$1 == "c1" {print $2, $3}')" "running $pid" "C1: crib --root (the shim's) ps lists it, running, with its pid"
assert_contains "$(timeout -k 5 30 "$CRIB" oci --root "$cstate" state c1 2>&1)" '"status":"running"' "C1: crib oci state says running"
assert_eq "$(timeout -k 5 30 "$CRIB" oci --root "$cstate" list --quiet 2>&1)" c1 "C1: crib oci list --quiet lists it alone"
# (each exec'd program waits 0.5 s after it prints: bookworm's ctr deletes an exec's process
# before its output is copied, containerd pull request 13931; see 26-containerd.t)
out=$(C task exec --exec-id x1 c1 /bin/sh -c 'cat /proc/1/cmdline | tr "\0" " "; sleep 0.5; exit 4' 2>&1)
assert_eq "$?:$out" "4:/bin/sh -c $W " "C1: ctr task exec: output and exit status, the workload its pid 1"
crib_t --root "$cstate" exec c1 -- /bin/sh -c 'cat /proc/1/cmdline | tr "\0" " "'
assert_eq "$rc:$out" "0:/bin/sh -c $W " "C1: crib --root exec c1: the same container" || echo "#   $err"
cg=$(cgroup_of "$pid")
cg=${cg%/container}
ctr_gone c1 "$pid $(children_of "$pid" | tr '\n' ' ')" "$cg"

# --- C2: a user namespace (--uidmap, root's own range) and a memory limit
if limit_here memory; then
	C run -d $R --uidmap 0:300000:65536 --gidmap 0:300000:65536 --memory-limit 67108864 \
		localhost/crib-test:41 c2 /bin/sh -c "$W" >/dev/null 2>"$T/e"
	pid=$(task_pid c2)
	assert_eq "$(task_status c2)" RUNNING "C2: ctr run -d --uidmap --memory-limit: the task runs" || sed 's/^/#   /' "$T/e"
	cg=$(cgroup_of "$pid")
	cg=${cg%/container}
	assert_eq "$(cat "$cg2$cg/memory.max" 2>&1)" 67108864 "C2: memory.max of its cgroup ($cg), from the host"
else
	C run -d $R --uidmap 0:300000:65536 --gidmap 0:300000:65536 --memory-limit 67108864 \
		localhost/crib-test:41 c2m /bin/true >/dev/null 2>"$T/e"
	assert_contains "$(cat "$T/e")" "limits cannot be applied" "C2: ctr run --memory-limit where crib cannot apply it (no memory controller for crib): refused, saying why"
	C task rm -f c2m >/dev/null 2>&1
	C container rm c2m >/dev/null 2>&1
	nothing_left "C2 refused" c2m "$ns" "$cstate" "" "" ""
	C run -d $R --uidmap 0:300000:65536 --gidmap 0:300000:65536 \
		localhost/crib-test:41 c2 /bin/sh -c "$W" >/dev/null 2>"$T/e"
	pid=$(task_pid c2)
	assert_eq "$(task_status c2)" RUNNING "C2: ctr run -d --uidmap: the task runs" || sed 's/^/#   /' "$T/e"
	cg=$(cgroup_of "$pid")
	cg=${cg%/container}
fi
assert_eq "$(ls "$cstate/c2/plan" 2>&1)" "$cstate/c2/plan" "C2: crib runs it, not runc"
assert_eq "$(tr -s ' ' ' ' <"/proc/$pid/uid_map" 2>&1)" " 0 300000 65536" "C2: its user namespace, from the host ($pid's uid_map)"
out=$(C task exec --exec-id x1 c2 /bin/sh -c 'cat /proc/self/uid_map; touch /x && echo wrote; cat /proc/1/cmdline | tr "\0" " "; sleep 0.5' 2>&1)
assert_eq "$(echo $out)" "0 300000 65536 wrote /bin/sh -c $W" "C2: ctr task exec: in its user and pid namespaces, root there"
ctr_gone c2 "$pid $(children_of "$pid" | tr '\n' ' ')" "$cg"

# --- C3: the host's network namespace; a pid namespace to join (issue 34)
C run -d $R --net-host localhost/crib-test:41 c3 /bin/sh -c "$W" >/dev/null 2>"$T/e"
pid=$(task_pid c3)
assert_eq "$(task_status c3)" RUNNING "C3: ctr run -d --net-host: the task runs" || sed 's/^/#   /' "$T/e"
out=$(C task exec --exec-id x1 c3 /bin/sh -c 'readlink /proc/self/ns/net; sleep 0.5' 2>&1)
assert_eq "$out" "$(readlink /proc/self/ns/net)" "C3: ctr task exec: in the host's network namespace"
cg=$(cgroup_of "$pid")
ctr_gone c3 "$pid $(children_of "$pid" | tr '\n' ' ')" "${cg%/container}"
# another task in c3's network namespace (ctr --with-ns network:PATH), then in its pid
# namespace: the path goes to crib in config.json, crib joins it
C run -d $R localhost/crib-test:41 c3 /bin/sh -c "$W" >/dev/null 2>"$T/e"
pid3=$(task_pid c3)
net3=$(readlink "/proc/$pid3/ns/net")
C run -d $R --with-ns "network:/proc/$pid3/ns/net" localhost/crib-test:41 c4 /bin/sh -c "$W" >/dev/null 2>"$T/e"
pid=$(task_pid c4)
assert_eq "$(task_status c4)" RUNNING "C3: ctr run -d --with-ns network:/proc/PID/ns/net: the task runs" || sed 's/^/#   /' "$T/e"
assert_eq "$(readlink "/proc/$pid/ns/net")" "$net3" "C3: its workload is in c3's network namespace ($net3), read from the host"
out=$(C task exec --exec-id x1 c4 /bin/sh -c 'readlink /proc/self/ns/net; sleep 0.5' 2>&1)
assert_eq "$out" "$net3" "C3: ctr task exec: in it too"
cg=$(cgroup_of "$pid")
ctr_gone c4 "$pid $(children_of "$pid" | tr '\n' ' ')" "${cg%/container}" "-id c4 "
assert_eq "$(task_status c3)" RUNNING "C3: c3, whose namespace it joined, still runs"
C run -d $R --with-ns "pid:/proc/$pid3/ns/pid" localhost/crib-test:41 c5 /bin/sh -c "$W" >/dev/null 2>"$T/e"
pid=$(task_pid c5)
assert_eq "$(task_status c5)" RUNNING "C3: ctr run -d --with-ns pid:/proc/PID/ns/pid: the task runs" || sed 's/^/#   /' "$T/e"
assert_eq "$(readlink "/proc/$pid/ns/pid")" "$(readlink "/proc/$pid3/ns/pid")" "C3: in c3's pid namespace, read from the host"
out=$(C task exec --exec-id x1 c3 /bin/sh -c 'for p in /proc/[0-9]*; do tr "\0" " " <$p/cmdline; echo; done; sleep 0.5' 2>&1)
assert_eq "$(echo "$out" | grep -c "^/bin/sh -c $W")" 2 "C3: c3 sees c5's workload beside its own"
cg=$(cgroup_of "$pid")
ctr_gone c5 "$pid $(children_of "$pid" | tr '\n' ' ')" "${cg%/container}" "-id c5 "
assert_eq "$(task_status c3)" RUNNING "C3: c3 still runs: what ended c5 killed nothing of c3's pid namespace"
cg=$(cgroup_of "$pid3")
ctr_gone c3 "$pid3 $(children_of "$pid3" | tr '\n' ' ')" "${cg%/container}"

done_testing
