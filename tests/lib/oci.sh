# oci.sh - what the tests of crib's runc command line share (sourced after libtest.sh): a
# bundle $B whose rootfs is the test rootfs, crib under runc's name ($T/crib-runc, as podman's
# --runtime and containerd's BinaryName name it), and its state root $S.
#   R ARGS...        crib-runc with the test's state root
#   oci ARGS...      the same, at most 60 s: $rc, $out, $err (stdout is a file: a created or
#                    detached container keeps create's stdout open, which would hold a $(...))
#   status_of ID     the status `state` gives; pid_in_state ID its pid
#   wait_status ID STATUS   at most 5 s; true when it got there
#   oci_ns           a test bundle's namespaces in $ns, its id mappings in $idmaps ("" as root):
#                    as root no user namespace (the engines' default); as a user, one that
#                    maps the caller's own ids
S="$T/state"
B="$T/bundle"
mkdir -p "$B"
ln -s "$ROOTFS" "$B/rootfs"
ln -s "$CRIB" "$T/crib-runc"
R() { "$T/crib-runc" --root "$S" "$@"; }
oci() {
	timeout 60 "$T/crib-runc" --root "$S" "$@" >"$T/.stdout" 2>"$T/.stderr" </dev/null
	rc=$?
	out=$(cat "$T/.stdout")
	err=$(cat "$T/.stderr")
}
status_of() { R state "$1" 2>/dev/null | sed -n 's/^ *"status":"\(.*\)",$/\1/p'; }
pid_in_state() { R state "$1" 2>/dev/null | sed -n 's/^ *"pid":\([0-9]*\),$/\1/p'; }
wait_status() {
	_i=0
	while [ "$(status_of "$1")" != "$2" ] && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ "$(status_of "$1")" = "$2" ]
}

oci_ns() {
	ns='{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"},{"type":"network"}'
	idmaps=''
	if [ "$ROLE" != root ]; then
		ns="$ns,{\"type\":\"user\"}"
		idmaps="\"uidMappings\":[{\"containerID\":0,\"hostID\":$(id -u),\"size\":1}],\"gidMappings\":[{\"containerID\":0,\"hostID\":$(id -g),\"size\":1}]"
	fi
}
