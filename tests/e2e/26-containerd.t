#!/bin/sh
# containerd with crib as its runtime (issue 16): a containerd of the test's own (its config,
# root, state and sockets in a scratch directory), driven with ctr through the runc shim
# (io.containerd.runc.v2) with crib as its binary, as k3s's BinaryName makes it: an image
# imported from the test rootfs, `ctr run --rm` and its exit status, `run -d` + `task exec`
# (with and without a terminal) + `task ps` + `task kill` + `task rm`, a missing program, and
# containerd's default seccomp profile loaded by crib. As root only: containerd runs rootless
# only under rootlesskit, which the engine's own user namespace would need.
. "$(dirname "$0")/../lib/libtest.sh"
requires root

N=17
if ! command -v containerd >/dev/null 2>&1 || ! command -v ctr >/dev/null 2>&1; then
	skips $N "containerd is not installed (rootfs-tools/install-deps check installs it)"
	done_testing
	exit
fi
D=$(mktemp -d /tmp/crib-ctd.XXXXXX)
ns="crib-t$$"
cleanup() {
	# a failure: what containerd and its shims said, for the reason
	if [ "$_failed" != 0 ] && [ -s "$D/containerd.log" ]; then
		echo "# containerd's log (its last 30 lines):"
		tail -n 30 "$D/containerd.log" | sed 's/^/#   /'
	fi
	[ -n "${cpid:-}" ] && kill "$cpid" 2>/dev/null && wait "$cpid" 2>/dev/null
	# a shim whose task was not removed (a failed test) outlives containerd
	pkill -KILL -f "containerd-shim-runc-v2 -namespace $ns " 2>/dev/null
	# the shims' state and the containers' snapshots, and containerd's cgroup for the
	# namespace (cgroupsPath /NAMESPACE/ID: crib removes each container's, not the namespace's)
	rm -rf "$D" "/run/containerd/runc/$ns" 2>/dev/null
	[ -n "${cg2:-}" ] && rmdir "$cg2/$ns" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
ln -s "$CRIB" "$D/crib-runc"
cat >"$D/config.toml" <<EOF
version = 2
root = "$D/root"
state = "$D/state"
# the CRI plugin wants CNI and a kubelet; ctr needs neither
disabled_plugins = ["io.containerd.grpc.v1.cri"]
[grpc]
  address = "$D/c.sock"
[ttrpc]
  address = "$D/t.sock"
[debug]
  address = ""
EOF
# bounded: a containerd left behind by a killed test dies on its own
timeout -k 10 600 containerd --config "$D/config.toml" >"$D/containerd.log" 2>&1 &
cpid=$!
C() { timeout -k 5 60 ctr -a "$D/c.sock" -n "$ns" "$@" </dev/null; }
i=0
while [ ! -S "$D/c.sock" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
C version >/dev/null 2>&1
ok $? "containerd of the test's own answers on its socket"

# the image: a docker-archive of the test rootfs, one uncompressed layer
arch=$(uname -m)
case $arch in x86_64) arch=amd64 ;; aarch64) arch=arm64 ;; armv*) arch=arm ;; esac
mkdir "$D/img"
tar -C "$ROOTFS" -cf "$D/img/layer.tar" .
diff=$(sha256sum "$D/img/layer.tar" | cut -d' ' -f1)
printf '{"architecture":"%s","os":"linux","config":{"Env":["PATH=/bin:/usr/bin:/usr/local/bin"]},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
	"$arch" "$diff" >"$D/img/config.json"
printf '[{"Config":"config.json","RepoTags":["localhost/crib-test:26"],"Layers":["layer.tar"]}]' >"$D/img/manifest.json"
tar -C "$D/img" -cf "$D/image.tar" manifest.json config.json layer.tar
# the native snapshotter: overlayfs may not stack on the scratch directory's filesystem
C images import --snapshotter native "$D/image.tar" >/dev/null 2>"$T/imp.err"
assert_eq "$(C images ls -q 2>/dev/null)" localhost/crib-test:26 "the image is imported" ||
	sed 's/^/#   /' "$T/imp.err"

R="--snapshotter native --runc-binary $D/crib-runc"
out=$(C run --rm $R localhost/crib-test:26 r1 /bin/sh -c 'echo hello from ctr; exit 6' 2>"$T/e")
rc=$?
assert_eq "$out:$rc" "hello from ctr:6" "ctr run --rm: the program's output and exit status" ||
	sed 's/^/#   /' "$T/e"

# a detached one, exec'd into
C run -d $R localhost/crib-test:26 d1 /bin/sleep 1000 >/dev/null 2>"$T/e"
pid=$(C task ls 2>/dev/null | awk '$1 == "d1" && $3 == "RUNNING" {print $2}')
state_pid=$("$CRIB" oci --root "/run/containerd/runc/$ns" state d1 2>/dev/null | sed -n 's/^ *"pid":\([0-9]*\),$/\1/p')
assert_eq "$state_pid" "${pid:-none}" "ctr run -d: the task runs, with the pid crib's state gives" ||
	sed 's/^/#   /' "$T/e"
assert_eq "$(awk '/^NSpid:/{print $NF}' "/proc/$pid/status" 2>/dev/null)" 1 "the container's pid 1, in a pid namespace of its own"
# its cgroup: where containerd asks (cgroupsPath /NAMESPACE/ID, as under k3s the pod's), read
# from the host
cg2=$(sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup2 .*/\1/p' /proc/self/mountinfo | head -n 1)
if [ -n "$cg2" ] && [ -w "$cg2" ]; then
	assert_eq "$(sed -n 's/^0:://p' "/proc/$pid/cgroup" 2>/dev/null)" "/$ns/d1/container" \
		"ctr run -d: the task's cgroup is containerd's /$ns/d1 (its cgroupsPath), read from the host"
else
	skip "no cgroup v2 hierarchy crib may write here: containerd's cgroupsPath is not honoured (the VM guests test it)"
fi
# (the program waits a moment after it prints: bookworm's ctr deletes an exec's process before
# its output is copied, and a program that exits at once can lose it under load; containerd
# fixed ctr later, "ctr: drain exec output before cleanup", containerd pull request 13931)
out=$(C task exec --exec-id x1 d1 /bin/sh -c 'echo in $(readlink /proc/self/ns/mnt); sleep 0.5; exit 3' 2>"$T/e")
rc=$?
assert_eq "$out:$rc" "in $(readlink "/proc/$pid/ns/mnt"):3" "ctr task exec: the output and exit status of a program in the container's mount namespace" ||
	sed 's/^/#   /' "$T/e"
# ctr wants a terminal of its own for -t: script(1) gives it one, and ctr must be in its
# foreground process group, or its tcsetattr(3) stops it with SIGTTOU. So timeout(1), which
# puts its command in a process group of its own, runs outside script, and script's shell
# execs ctr (SHELL=/bin/sh: dash forks for `-c CMD` where bash execs; CI's runner sets no SHELL,
# and every try there stopped). The program outlives its output by a moment: ctr 1.6 closes
# its end of the output fifo as soon as it has the exit status, and may drop output it has not
# read yet. A ctr that has not ended after 15 s is looked at before it is killed.
if ! command -v script >/dev/null 2>&1; then
	skip "ctr task exec -t: script(1), which gives ctr a terminal, is not installed (util-linux)"
else
	SHELL=/bin/sh timeout -k 5 20 script -qec "exec ctr -a $D/c.sock -n $ns task exec -t --exec-id x2 d1 /bin/sh -c 'tty; sleep 0.3'" /dev/null </dev/null >"$T/tty" 2>&1 &
	_sp=$!
	_end=$(($(date +%s) + 15))
	while kill -0 $_sp 2>/dev/null && [ "$(date +%s)" -lt $_end ]; do
		sleep 0.1
	done
	if kill -0 $_sp 2>/dev/null; then
		echo "# ctr task exec -t has not ended after 15 s:" >&2
		ps -eo pid,ppid,stat,wchan:24,args --forest | grep -F -e "$D" -e "$ns" -e 'sleep 0.3' |
			grep -v grep | sed 's/^/#   /' >&2
		echo "#   crib's pid file: $(cat "$D/state/io.containerd.runtime.v2.task/$ns/d1/x2.pid" 2>/dev/null || echo none)" >&2
		# the shim's goroutines, into containerd's log (SIGUSR1)
		pkill -USR1 -f "containerd-shim-runc-v2 -namespace $ns " 2>/dev/null
		sleep 1
		grep -oE 'goroutine [0-9]+ \[[^]]*\]|[a-zA-Z/_.]*(exec|console|runc|service|reaper)[a-z_]*\.go:[0-9]+' "$D/containerd.log" |
			tail -n 60 | sed 's/^/#   shim: /' >&2
	fi
	wait $_sp
	out=$(tr -d '\r' <"$T/tty")
	assert_eq "$(echo "$out" | grep -cE '/dev/pts/[0-9]+$')" 1 "ctr task exec -t: a terminal of the container's devpts ($out)"
fi
out=$(C task exec --exec-id x3 d1 /bin/no-such-program 2>&1)
assert_contains "$out" "'/bin/no-such-program' does not exist in the container" "ctr task exec of a missing program says what is missing"
assert_contains "$(C task ps d1 2>/dev/null)" "$pid" "ctr task ps lists the container's process"
C task pause d1 >/dev/null 2>"$T/e"
assert_eq "$(C task ls 2>/dev/null | awk '$1 == "d1" {print $3}')" PAUSED "ctr task pause: the task is paused (the cgroup v2 freezer)" ||
	sed 's/^/#   /' "$T/e"
C task resume d1 >/dev/null 2>"$T/e"
assert_eq "$(C task ls 2>/dev/null | awk '$1 == "d1" {print $3}')" RUNNING "ctr task resume: it runs again" ||
	sed 's/^/#   /' "$T/e"
C task kill -s KILL d1 >/dev/null 2>&1
end=$(($(date +%s) + 10))
while [ "$(C task ls 2>/dev/null | awk '$1 == "d1" {print $3}')" != STOPPED ] && [ "$(date +%s)" -lt $end ]; do
	sleep 0.1
done
assert_eq "$(C task ls 2>/dev/null | awk '$1 == "d1" {print $3}')" STOPPED "ctr task kill: the task stops"
C task rm d1 >/dev/null 2>&1
C container rm d1 >/dev/null 2>&1
assert_eq "$(C task ls -q 2>/dev/null; C container ls -q 2>/dev/null)" "" "ctr task rm, container rm: nothing is left in containerd"
assert_eq "$(ls "/run/containerd/runc/$ns" 2>/dev/null | grep -v '^_')" "" "nor in crib's state directory"

out=$(C run --rm $R localhost/crib-test:26 r2 /bin/no-such-program 2>&1)
assert_contains "$out" "'/bin/no-such-program' does not exist in the container" "ctr run of a missing program fails, saying what is missing"
# ctr's --seccomp: containerd's default profile, in config.json, compiled by crib
out=$(C run --rm --seccomp $R localhost/crib-test:26 r3 /bin/grep Seccomp: /proc/self/status 2>&1)
assert_eq "$(echo $out)" "Seccomp: 2" "ctr run --seccomp: containerd's default profile is loaded (a filter)"

done_testing
