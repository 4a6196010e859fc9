#!/bin/sh
# crib-runc's hooks that run inside the container (issue 34): createContainer, a host program run
# in the container's namespaces after createRuntime and before pivot_root; startContainer, the
# image's program run in the container after start and before the workload's exec, confined as
# the workload. Read from the host and from inside: the order of all hooks (one file they all
# append to), each hook's mount namespace against the workload's, what each can see (a host
# path, the container's /tmp), its status line (ids, capabilities, no_new_privs, seccomp) against
# the workload's, its open descriptors (the probe's `fds`), the state it read on stdin; then a
# failing hook, one past its timeout, one through /proc, and output that must not reach the
# engine.
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/oci.sh"

O="$T/tmp" # bound at /tmp in the container: where the hooks and the workload write
mkdir -p "$B" "$O"
chmod 1777 "$O"
: >"$O/.marker" # only the container's /tmp has it at /tmp
# json_field FILE KEY: a string or number field of the one-line JSON in FILE
json_field() { sed -n "s/.*\"$2\":\"\{0,1\}\([^\",}]*\).*/\1/p" "$1"; }

# the host's hook (createRuntime, createContainer, poststart): $1 the log directory, $2 its
# name, $3 a host path to look for, $4 the probe (its host path). It records what it read and
# saw, prints to stdout and stderr as createContainer (which must not reach the engine; the
# runtime's hooks' output goes to crib's stderr, as it did), then lists its
# descriptors with the probe (exec'd: the probe's are the hook's, but its own listing one)
cat >"$T/hook-host" <<'EOF'
#!/bin/sh
st=$(cat)
printf '%s\n' "$st" >"$1/$2.state"
readlink /proc/self/ns/mnt >"$1/$2.mnt"
[ -e "$3" ] && echo yes >"$1/$2.host"
pwd -P >"$1/$2.cwd"
echo "$2" >>"$1/order"
if [ "$2" = createContainer ]; then
	echo LOUD
	echo LOUD >&2
fi
case "$2" in
fail) sleep 1007 & printf 'boom\033[31m red\n' >&2; exit 3 ;;
slow) exec sleep 1008 ;;
esac
exec "$4" fds >"$1/$2.fds"
EOF
chmod 755 "$T/hook-host"
# the container's hook (startContainer), run by the rootfs's /bin/sh from /tmp: $1 its name,
# $2 a host path that must not be there
cat >"$O/hook-in" <<'EOF'
st=$(cat)
printf '%s\n' "$st" >"/tmp/$1.state"
readlink /proc/self/ns/mnt >"/tmp/$1.mnt"
grep -E '^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status >"/tmp/$1.status"
[ -e /tmp/.marker ] && [ ! -e "$2" ] && echo inside >"/tmp/$1.root"
echo "$1" >>/tmp/order
if [ "$1" = startContainer ]; then
	echo LOUD
	echo LOUD >&2
fi
case "$1" in
fail) echo "no start" >&2; exit 4 ;;
slow) exec sleep 1009 ;;
esac
exec /usr/local/bin/probe fds >"/tmp/$1.fds"
EOF
# hh NAME [EXTRA]: the host hook's JSON; hi NAME [EXTRA]: the container's
hh() { printf '{"path":"%s","args":["hook-host","%s","%s","%s","%s"],"env":["PATH=/usr/bin:/bin"]%s}' "$T/hook-host" "$O" "$1" "$T/hook-host" "$ROOTFS/usr/local/bin/probe" "${2:-}"; }
hi() { printf '{"path":"/bin/sh","args":["sh","/tmp/hook-in","%s","%s"],"env":["PATH=/bin:/usr/bin"]%s}' "$1" "$T" "${2:-}"; }

# config HOOKS_JSON [ARGS_JSON]: the bundle's config.json with these .hooks. As root no user
# namespace (the engines' default); as a user, one mapping the caller's own ids.
config() {
	oci_ns
	maps=${idmaps:+,$idmaps}
	args=${2:-'["/bin/sh","-c","grep -E \"^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):\" /proc/self/status >/tmp/wl.status; readlink /proc/self/ns/mnt >/tmp/wl.mnt; echo process >>/tmp/order"]'}
	cat >"$B/config.json" <<EOF
{"ociVersion":"1.0.2","root":{"path":"rootfs"},
 "process":{"args":$args,"cwd":"/","env":["PATH=/bin:/usr/bin"],"user":{"uid":0,"gid":0},
   "capabilities":{"bounding":["CAP_KILL"],"effective":["CAP_KILL"],"permitted":["CAP_KILL"]},
   "noNewPrivileges":true},
 "hostname":"hookbox",
 "mounts":[{"destination":"/proc","type":"proc","source":"proc"},
   {"destination":"/dev","type":"tmpfs","source":"tmpfs","options":["nosuid","mode=755"]},
   {"destination":"/tmp","type":"bind","source":"$O","options":["rbind","nosuid","nodev"]}],
 "hooks":$1,
 "linux":{"namespaces":[$ns]$maps}}
EOF
}
clean() { rm -f "$O"/order "$O"/*.state "$O"/*.mnt "$O"/*.host "$O"/*.cwd "$O"/*.fds "$O"/*.status "$O"/*.root; }

# --- each hook once, in the lifecycle's order, each where the runtime spec runs it
clean
config "{\"createRuntime\":[$(hh createRuntime)],\"createContainer\":[$(hh createContainer)],\"startContainer\":[$(hi startContainer)],\"poststart\":[$(hh poststart)]}"
oci create --bundle "$B" --pid-file "$T/pid" h1
pid=$(cat "$T/pid" 2>/dev/null)
assert_eq "$rc:$(tr '\n' ' ' <"$O/order" 2>/dev/null)" "0:createRuntime createContainer " \
	"create runs createRuntime, then createContainer" || echo "$err" | sed 's/^/#   /'
assert_not_contains "$out$err" LOUD "what createContainer prints does not reach the engine (create's stdout and stderr)"
host_mnt=$(readlink /proc/self/ns/mnt)
assert_eq "$(cat "$O/createRuntime.mnt" 2>/dev/null)" "$host_mnt" "createRuntime runs in the runtime's mount namespace"
cc_mnt=$(cat "$O/createContainer.mnt" 2>/dev/null)
assert_eq "$([ -n "$cc_mnt" ] && [ "$cc_mnt" != "$host_mnt" ] && echo other)" other \
	"createContainer runs in another mount namespace ($cc_mnt)"
assert_eq "$(cat "$O/createContainer.host" 2>/dev/null)" yes "where a host path is there (before pivot_root)"
assert_eq "$(cat "$O/createContainer.cwd" 2>/dev/null)" "$(cd "$ROOTFS" && pwd -P)" "its working directory is the rootfs"
assert_eq "$(cat "$O/createContainer.fds" 2>/dev/null)" "0 1 2" "it holds no descriptor but 0, 1 and 2"
assert_eq "$(json_field "$O/createContainer.state" status):$(json_field "$O/createContainer.state" pid):$(json_field "$O/createContainer.state" id)" \
	"creating:$pid:h1" "its stdin: the state, status creating, the container's pid as the host sees it"
assert_eq "$(json_field "$O/createContainer.state" rootfs)" "$(R state h1 | sed -n 's/^ *"rootfs":"\(.*\)",$/\1/p')" \
	"and the rootfs state shows"
assert_eq "$(status_of h1)" created "the container is created"

oci start h1
assert_eq "$rc" 0 "start exits 0" || echo "$err" | sed 's/^/#   /'
wait_status h1 stopped
got=$(tr '\n' ' ' <"$O/order" | sed 's/process poststart/poststart process/')
assert_eq "$got" "createRuntime createContainer startContainer poststart process " \
	"start runs startContainer before the program, each hook once"
assert_not_contains "$out$err" LOUD "and what startContainer prints does not reach the engine"
assert_eq "$(cat "$O/startContainer.mnt" 2>/dev/null)" "$(cat "$O/wl.mnt" 2>/dev/null)" \
	"startContainer runs in the workload's mount namespace"
assert_eq "$(cat "$O/startContainer.mnt" 2>/dev/null)" "$cc_mnt" "which createContainer ran in"
assert_eq "$(cat "$O/startContainer.root" 2>/dev/null)" inside "after pivot_root: it sees the container's /tmp, not the host's '$T'"
assert_eq "$(cat "$O/startContainer.fds" 2>/dev/null)" "0 1 2" "it holds no descriptor but 0, 1 and 2"
assert_eq "$(cat "$O/startContainer.status" 2>/dev/null | tr '\t\n' '  ')" "$(cat "$O/wl.status" 2>/dev/null | tr '\t\n' '  ')" \
	"with the workload's ids, capabilities, no_new_privs and seccomp"
assert_contains "$(cat "$O/startContainer.status" 2>/dev/null | tr '\t\n' '  ')" "CapEff: 0000000000000020" \
	"CAP_KILL alone, not the setup's capabilities"
assert_eq "$(json_field "$O/startContainer.state" status):$(json_field "$O/startContainer.state" pid):$(json_field "$O/startContainer.state" id)" \
	"created:$pid:h1" "its stdin: the state, status created, the container's pid"
R delete h1

# --- a createContainer hook that fails: create exits 125, says which, how and its stderr's
# first line (escaped), and leaves nothing: no state, no process (it left one behind)
clean
config "{\"createContainer\":[$(hh fail)]}"
oci create --bundle "$B" h2
assert_eq "$rc" 125 "a createContainer hook that fails: create exits 125"
assert_contains "$err" "the createContainer hook '$T/hook-host' failed with exit status 3: boom\\x1b[31m red" \
	"saying which, how, and its stderr's first line, escaped"
assert_eq "$(printf '%s' "$err" | tr -d '\033' | wc -c)" "$(printf '%s' "$err" | wc -c)" "no escape character reaches the engine"
assert_contains "$err" ".hooks.createContainer[0]" "naming it as config.json does"
sleep 0.3
assert_eq "$([ -e "$S/h2" ] && echo left || echo gone):$(R list --quiet 2>/dev/null)" "gone:" "nothing of the container is left"
assert_eq "$(pgrep -f '^sleep 1007$')" "" "not even what the hook left running"

# --- a startContainer hook that fails: start exits 125, the program never runs
clean
config "{\"startContainer\":[$(hi fail)]}" '["/bin/sh","-c","echo ran >/tmp/ran"]'
rm -f "$O/ran"
oci create --bundle "$B" h3
oci start h3
assert_eq "$rc" 125 "a startContainer hook that fails: start exits 125"
assert_contains "$err" "the startContainer hook '/bin/sh' failed with exit status 4: no start" "saying which, how, and its stderr"
assert_eq "$(cat "$O/order" 2>/dev/null)" fail "it ran once"
wait_status h3 stopped
assert_eq "$(status_of h3):$([ -e "$O/ran" ] && echo ran || echo "not run")" "stopped:not run" "the program never ran; the container is stopped"
oci delete h3
assert_eq "$rc:$([ -e "$S/h3" ] && echo left || echo gone)" "0:gone" "and delete removes it"

# --- timeouts: past it the hook is killed, and create or start fails
clean
config "{\"createContainer\":[$(hh slow ',"timeout":1')]}"
t0=$(date +%s)
oci create --bundle "$B" h4
assert_eq "$rc" 125 "a createContainer hook past its timeout: create exits 125"
assert_contains "$err" "the createContainer hook '$T/hook-host' did not finish within 1 s" "saying so"
assert_eq "$([ $(($(date +%s) - t0)) -lt 10 ] && echo soon)" soon "within seconds"
sleep 0.3
assert_eq "$(pgrep -f '^sleep 1008$'):$([ -e "$S/h4" ] && echo left || echo gone)" ":gone" "the hook is killed, nothing is left"
clean
config "{\"startContainer\":[$(hi slow ',"timeout":1')]}"
oci create --bundle "$B" h5
oci start h5
assert_eq "$rc" 125 "a startContainer hook past its timeout: start exits 125"
assert_contains "$err" "the startContainer hook '/bin/sh' did not finish within 1 s" "saying so"
sleep 0.3
assert_eq "$(pgrep -f '^sleep 1009$')" "" "and it is killed"
R delete --force h5 >/dev/null 2>&1

# --- a startContainer hook's path that leads through /proc (/proc/self/exe would be crib's own
# host binary) is refused, and so is one that is not in the container (the host's hook)
clean
config "{\"startContainer\":[{\"path\":\"/proc/self/exe\",\"args\":[\"x\",\"--version\"]}]}"
oci create --bundle "$B" h6
oci start h6
assert_eq "$rc" 125 "a startContainer hook at /proc/self/exe: start exits 125"
assert_contains "$err" "its path leads through a link of /proc" "saying why"
R delete --force h6 >/dev/null 2>&1
config "{\"startContainer\":[$(hh host)]}"
oci create --bundle "$B" h7
oci start h7
assert_contains "$rc:$err" "125:crib: the startContainer hook '$T/hook-host' failed with exit status 127: cannot execute it" \
	"a startContainer hook's path is the container's: a host path is not found there"
R delete --force h7 >/dev/null 2>&1

done_testing
