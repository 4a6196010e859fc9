# lib.sh - what every conformance case sources: TAP, a bundle on a busybox rootfs, the runtime's
# command line, and the truth read from inside (files the workload writes into the result
# directory, bind-mounted at /r) and outside (/proc, cgroup files). Set by tests/conformance/run:
#   RUNTIME   the runtime (runc's command line: runc, crun, crib-runc)
#   RT_ROOT   the runtime's --root for this run (its state directory, apart from the host's)
#   ROOTFS    the busybox rootfs every bundle copies
#   W         this case's scratch directory (removed by run afterwards)
#   IDP       this case's container id prefix (unique per run, runtime and case)
# A case builds its config with cfg after setting the C_* variables below, runs it with ct_run
# (or the lifecycle verbs with rt), and checks with check/check_contains/ok. A check the host
# cannot make is a skip with the reason. The runner reads: any 'not ok' is a fail; otherwise any
# 'ok' not skipped is a pass; otherwise the case is skipped.
set -u
: "${RUNTIME:?set by tests/conformance/run}" "${RT_ROOT:?}" "${ROOTFS:?}" "${W:?}" "${IDP:?}"

B="$W/bundle"     # the bundle
R="$W/r"          # the result directory, /r inside
mkdir -p "$B" "$R"
chmod 0777 "$R"
: >"$R/.marker"   # how a hook tells the result directory from a path of the same name
cp -a "$ROOTFS" "$B/rootfs"

_n=0
_fail=0
_ids=""
trap '_cleanup' EXIT
_atexit=""
at_exit() { _atexit="$*; $_atexit"; } # at_exit COMMAND: run at the end, after the containers
_cleanup() {
	for _p in ${_targets:-}; do
		kill -9 "$_p" 2>/dev/null
	done
	eval "$_atexit"
	for _i in $_ids; do
		"$RUNTIME" --root "$RT_ROOT" delete --force "$_i" >/dev/null 2>&1
	done
	echo "1..$_n"
}

# --- TAP
ok() { # ok STATUS DESCRIPTION
	_n=$((_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_n - $2"
	else
		echo "not ok $_n - $2"
		_fail=$((_fail + 1))
	fi
	[ "$1" = 0 ]
}
check() { # check GOT WANT DESCRIPTION
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2"
		return 1
	fi
}
check_contains() { # check_contains HAYSTACK NEEDLE DESCRIPTION
	case "$1" in
	*"$2"*) ok 0 "$3" ;;
	*)
		ok 1 "$3"
		printf '#   got:  %s\n#   want it to contain: %s\n' "$1" "$2"
		return 1
		;;
	esac
}
check_ne() { # check_ne GOT UNWANTED DESCRIPTION
	if [ "$1" != "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '#   got:  %s (it must differ)\n' "$1"
		return 1
	fi
}
skip() { # skip REASON
	_n=$((_n + 1))
	echo "ok $_n # SKIP $1"
}
# skip_case REASON: the whole case cannot run here
skip_case() {
	skip "$1"
	exit 0
}
# diag FILE: a file's lines as TAP comments (the runtime's stderr after a failure)
diag() { [ -s "$1" ] && sed 's/^/#   /' "$1"; return 0; }

# --- the runtime
# rt ARGS...: the runtime with this run's --root; stdout in $W/out, stderr in $W/err, status in
# $rc, stdout also in $out. Its stdin is /dev/null, its stdout a file (create's stdout is the
# container's, which a $(...) would wait for).
rt() {
	"$RUNTIME" --root "$RT_ROOT" "$@" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	out=$(cat "$W/out")
	return $rc
}
# rt_ok DESCRIPTION ARGS...: rt, as a check that it exits 0 (its stderr shown when not)
rt_ok() {
	_d=$1
	shift
	if rt "$@"; then
		ok 0 "$_d"
	else
		ok 1 "$_d"
		echo "#   $(basename "$RUNTIME") $* exited $rc, saying:"
		diag "$W/err"
		return 1
	fi
}
# rt_fails DESCRIPTION ARGS...: rt, as a check that it exits non-zero
rt_fails() {
	_d=$1
	shift
	if rt "$@"; then
		ok 1 "$_d"
		echo "#   $(basename "$RUNTIME") $* exited 0"
		return 1
	fi
	ok 0 "$_d"
}
id_of() { echo "$IDP-$1"; } # id_of NAME: the container id of this case's container NAME
# state_of ID FIELD: a field of the runtime's state (empty when state fails)
state_of() {
	"$RUNTIME" --root "$RT_ROOT" state "$1" 2>/dev/null </dev/null | jq -r ".$2 // empty" 2>/dev/null
}
# wait_status ID STATUS [TENTHS]: until state says STATUS (5 s by default)
wait_status() {
	_t=0
	while [ "$(state_of "$1" status)" != "$2" ]; do
		[ $_t -ge "${3:-50}" ] && return 1
		sleep 0.1
		_t=$((_t + 1))
	done
}
# ct_create NAME: create the bundle's container, as a check; its stdout/stderr in $W/NAME.out,err
ct_create() {
	_id=$(id_of "$1")
	_ids="$_ids $_id"
	"$RUNTIME" --root "$RT_ROOT" create --bundle "$B" --pid-file "$W/$1.pid" "$_id" \
		</dev/null >"$W/$1.out" 2>"$W/$1.err"
	rc=$?
	if [ $rc = 0 ]; then
		ok 0 "create $1"
	else
		ok 1 "create $1"
		echo "#   $(basename "$RUNTIME") create exited $rc, saying:"
		diag "$W/$1.err"
		return 1
	fi
}
# ct_run NAME: create, start, wait for the workload to end (10 s), delete; one check that all
# of it worked. Whatever the workload wrote is in $R.
ct_run() {
	ct_create "$1" || return 1
	_id=$(id_of "$1")
	rt start "$_id" || {
		check "start exited $rc" "start exited 0" "start $1"
		diag "$W/err"
		return 1
	}
	if ! wait_status "$_id" stopped 100; then
		check "$(state_of "$_id" status)" stopped "$1 ran to its end"
		return 1
	fi
	rt delete "$_id" || {
		check "delete exited $rc" "delete exited 0" "delete $1"
		diag "$W/err"
		return 1
	}
	ok 0 "$1 ran (create, start, stopped, delete)"
}
# ct_pid NAME: the container's pid, from its pid file
ct_pid() { cat "$W/$1.pid" 2>/dev/null; }

# workload SCRIPT: the container's program (/bin/sh /r/w.sh); what it prints to stdout lands in
# the container's create stdout ($W/NAME.out)
workload() { printf '%s\n' "$1" >"$R/w.sh"; }
# res FILE: what the workload wrote into /r/FILE (a missing file reads as <missing>)
res() {
	if [ -e "$R/$1" ]; then cat "$R/$1"; else echo "<missing $1>"; fi
}

# --- the config. Each C_* is JSON; the *_EXTRA ones are appended after a comma (or empty).
C_ARGS='["/bin/sh","/r/w.sh"]'
C_ENV='["PATH=/bin:/sbin:/usr/bin","TERM=xterm"]'
C_CWD=/
C_USER='{"uid":0,"gid":0}'
# runc spec's default capability sets
C_CAPLIST='"CAP_AUDIT_WRITE","CAP_KILL","CAP_NET_BIND_SERVICE"'
C_CAPS=""
C_PROCESS_EXTRA=""
C_NNP=true
C_HOSTNAME=conformance
C_ROOT_RO=false
# proc, /dev and /dev/pts and /dev/shm as runc spec makes them, the result directory at /r
C_MOUNTS_BASE='{"destination":"/proc","type":"proc","source":"proc"},
 {"destination":"/dev","type":"tmpfs","source":"tmpfs","options":["nosuid","strictatime","mode=755","size=65536k"]},
 {"destination":"/dev/pts","type":"devpts","source":"devpts","options":["nosuid","noexec","newinstance","ptmxmode=0666","mode=0620"]},
 {"destination":"/dev/shm","type":"tmpfs","source":"shm","options":["nosuid","noexec","nodev","mode=1777","size=65536k"]}'
C_MOUNTS_EXTRA=""
C_RMOUNT=yes # no: no result directory at /r (the program's stdout is $W/NAME.out)
C_NS='[{"type":"pid"},{"type":"network"},{"type":"ipc"},{"type":"uts"},{"type":"mount"}]'
C_LINUX_EXTRA=""
C_TOP_EXTRA=""
cfg() {
	_rmount=",{\"destination\":\"/r\",\"type\":\"bind\",\"source\":\"$R\",\"options\":[\"rbind\",\"rw\"]}"
	[ "$C_RMOUNT" = yes ] || _rmount=""
	_caps=${C_CAPS:-"{\"bounding\":[$C_CAPLIST],\"effective\":[$C_CAPLIST],\"permitted\":[$C_CAPLIST]}"}
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2",
 "process":{"terminal":false,"user":$C_USER,"args":$C_ARGS,"env":$C_ENV,"cwd":"$C_CWD",
   "capabilities":$_caps,"noNewPrivileges":$C_NNP${C_PROCESS_EXTRA:+,$C_PROCESS_EXTRA}},
 "root":{"path":"rootfs","readonly":$C_ROOT_RO},
 "hostname":"$C_HOSTNAME",
 "mounts":[$C_MOUNTS_BASE$_rmount${C_MOUNTS_EXTRA:+,$C_MOUNTS_EXTRA}],
 "annotations":{"org.crib.conformance":"$IDP"},
 "linux":{"namespaces":$C_NS${C_LINUX_EXTRA:+,$C_LINUX_EXTRA}}${C_TOP_EXTRA:+,$C_TOP_EXTRA}}
EOF
	jq -e . "$B/config.json" >/dev/null || {
		echo "# the case made a config.json that is not JSON" >&2
		exit 1
	}
}

# --- the truth from outside
# cg_file PID V1CONTROLLER V1FILE V2FILE: the path of a cgroup file of PID's cgroup (cgroup v1
# where the controller is mounted at /sys/fs/cgroup/CONTROLLER, else v2); empty if none
# (the filesystem type from /proc/mounts, the last mount at the path: busybox's stat -f has no
# name for cgroup2)
fstype_at() { awk -v m="$1" '$2 == m { t = $3 } END { print t }' /proc/mounts; }
cg_file() {
	if [ -d "/sys/fs/cgroup/$2" ] && [ "$(fstype_at "/sys/fs/cgroup/$2")" = cgroup ]; then
		_p=$(awk -F: -v c="$2" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3 }' "/proc/$1/cgroup")
		[ -n "$_p" ] && echo "/sys/fs/cgroup/$2$_p/$3"
	elif [ "$(fstype_at /sys/fs/cgroup)" = cgroup2 ]; then
		_p=$(awk -F: '$1 == "0" { print $3 }' "/proc/$1/cgroup")
		[ -n "$_p" ] && echo "/sys/fs/cgroup$_p/$4"
	fi
}
# ns_of PID TYPE: the namespace of PID, as /proc/PID/ns/TYPE names it (type:[inode])
ns_of() { readlink "/proc/$1/ns/$2"; }

# --- namespaces to join
# ns_target TYPE: a process in a new namespace of TYPE (made with unshare(1)), killed at the end;
# its pid in $tpid. The pid namespace's is unshare's child (unshare --fork), the first process in
# it; the user namespace's maps root to root.
_targets=""
ns_target() {
	# busybox's unshare (the VM guests') makes no cgroup namespace
	if [ "$1" = cgroup ] && ! unshare --help 2>&1 | grep -q -- --cgroup; then
		skip_case "this unshare(1) cannot make a cgroup namespace (busybox's)"
	fi
	case "$1" in
	net) unshare --net sleep 60 & ;;
	ipc) unshare --ipc sleep 60 & ;;
	uts) unshare --uts sleep 60 & ;;
	cgroup) unshare --cgroup sleep 60 & ;;
	user) unshare --user --map-root-user sleep 60 & ;;
	pid) unshare --pid --fork sleep 60 & ;;
	mnt) unshare --mount sleep 60 & ;;
	esac
	tpid=$!
	_targets="$_targets $tpid"
	_t=0
	if [ "$1" = pid ]; then
		# the namespace's first process: unshare's child
		while [ $_t -lt 50 ]; do
			_c=$(cat "/proc/$tpid/task/$tpid/children" 2>/dev/null | awk '{ print $1 }')
			[ -n "$_c" ] && [ "$(ns_of "$_c" pid)" != "$(ns_of $$ pid)" ] && break
			sleep 0.1
			_t=$((_t + 1))
		done
		tpid=$_c
		_targets="$_targets $tpid"
	else
		while [ "$(ns_of "$tpid" "$1")" = "$(ns_of $$ "$1")" ] && [ $_t -lt 50 ]; do
			sleep 0.1
			_t=$((_t + 1))
		done
	fi
	[ -n "$tpid" ] && [ "$(ns_of "$tpid" "$1")" != "$(ns_of $$ "$1")" ]
}
# ns_json TYPE: the config's name of a namespace type (net is network, mnt is mount)
ns_json() {
	case "$1" in net) echo network ;; mnt) echo mount ;; *) echo "$1" ;; esac
}

# expect_refused NAME: the config is an error: create, or else start, fails, and the workload
# (which writes /r/ran) never runs
expect_refused() {
	_id=$(id_of "$1")
	_ids="$_ids $_id"
	if rt create --bundle "$B" "$_id"; then
		rt start "$_id"
		_what="start"
	else
		_what="create"
	fi
	if [ "$rc" != 0 ]; then
		ok 0 "$_what refuses it"
		echo "#   $_what exited $rc: $(head -n1 "$W/err")"
	else
		ok 1 "create or start refuses it"
		echo "#   both exited 0"
	fi
	sleep 0.3
	check "$(res ran)" "<missing ran>" "the program did not run"
}

# ns_path_case TYPE: the case of joining an existing namespace of TYPE by path: the container's
# namespace of that type (inside, /proc/self/ns/TYPE) is the target's (outside), the others
# are new. The target is made with unshare(1).
ns_path_case() {
	ns_target "$1" || {
		ok 1 "unshare made a $1 namespace to join"
		return 1
	}
	_path="/proc/$tpid/ns/$1"
	_ns=""
	for _t in pid net ipc uts mnt; do
		[ "$_t" = "$1" ] && continue
		_ns="$_ns{\"type\":\"$(ns_json $_t)\"},"
	done
	C_NS="[$_ns{\"type\":\"$(ns_json "$1")\",\"path\":\"$_path\"}]"
	# a container in no new UTS namespace has no hostname of its own
	[ "$1" = uts ] && C_HOSTNAME=""
	# a user namespace's mappings, as the config states them, are the target's own (unshare
	# --map-root-user: 0 to 0, one id)
	[ "$1" = user ] && C_LINUX_EXTRA='"uidMappings":[{"containerID":0,"hostID":0,"size":1}],"gidMappings":[{"containerID":0,"hostID":0,"size":1}]'
	# and its root is host root: a read-only rootfs, as in linux_uid_gid_mappings (crib refuses
	# a writable one other users can reach, where container root could leave a setuid file)
	[ "$1" = user ] && C_ROOT_RO=true
	cfg
	workload "readlink /proc/self/ns/$1 >/r/ns; readlink /proc/self/ns/mnt >/r/mnt"
	ct_run c || return 1
	check "$(res ns)" "$(ns_of "$tpid" "$1")" "the container's $1 namespace is the one at $_path"
	[ "$1" = mnt ] || check_ne "$(res mnt)" "$(ns_of $$ mnt)" "and its mount namespace is new"
}

# hook NAME [EXIT]: a hook's JSON: /bin/sh (the host's for the runtime's hooks, the rootfs's
# busybox for createContainer and startContainer) writing its state (stdin) to hook-NAME.json
# and NAME to the file 'order' in the result directory, by its host path or by /r, whichever
# is there; then exiting EXIT (0)
hook() {
	printf '{"path":"/bin/sh","args":["sh","-c","for d in %s /r; do [ -f $d/.marker ] && break; done; cat >$d/hook-$0.json; echo $0 >>$d/order; exit %s","%s"],"env":["PATH=/bin:/usr/bin:/sbin:/usr/sbin"]}' \
		"$R" "${2:-0}" "$1"
}
