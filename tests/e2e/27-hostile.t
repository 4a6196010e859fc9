#!/bin/sh
# Hostile images, exec and engines (issue 31): the escape table's second part. An image chooses
# its entrypoint, its working directory and every file of its rootfs; crib run, crib exec and
# podman with crib as its runtime add the descriptors they hold. Here the image points each at
# /proc/self/fd/N, for every descriptor number N a process could have open, and walks from
# there up to the host's root:
#   prog    the entrypoint (or exec'd program) is a symlink /w/N -> /proc/self/fd/N/../../..HOST,
#           where HOST is a static program on the host (the probe, as `walked`: it exits 42);
#   interp  the program is a script /s/N whose '#!' interpreter is that path;
#   cwd     the working directory is /proc/self/fd/N, and the program reads ../../..SECRET,
#           a file on the host.
# execve(2) resolves the program and its interpreter before it closes close-on-exec
# descriptors, and chdir(2) resolves the working directory with them open: any directory of
# the host open then (crib's working directory, the rootfs or the cgroup as the host sees them,
# a descriptor crib inherited: the test gives crib `7</` and `9<DIR`) was a way out. Every cell
# must walk nowhere, in each column: crib run (root's user namespace, `user = no`, `pid = no`,
# or the user's), crib exec into a running container (its own pid namespace and the host's:
# the joiner held the host's /proc), and, where podman is installed, podman run and podman exec
# (`--pid=host`) with crib as the runtime.
#
# Then what a container's processes must never get of the user's terminal: without -t, crib
# exec gives pipes where its own 0, 1, 2 are a terminal (a process left behind in the container
# once read a line typed later at the shell), and a workload that makes its terminal raw and
# never reads cannot stop crib from forwarding SIGTERM and restoring the user's terminal.
. "$(dirname "$0")/../lib/libtest.sh"

# the host's side, where any uid can reach it (root's containers run as subordinate ids): a
# program the walk would run and a file it would read
P=$(mktemp -d /tmp/crib-hostile.XXXXXX)
chmod 755 "$P"
trap 'rm -rf "$T" "$P"' EXIT
cp "$ROOTFS/usr/local/bin/probe" "$P/walker"
chmod 755 "$P/walker"
echo "host-secret-$$" >"$P/secret"
chmod 644 "$P/secret"
UP=../../../../../../../../../../../../../../../..
# the descriptor numbers tried: every one up to 40, more than crib, its setup and podman's
# conmon hold (crib's own are below 20 here), and the two the test gives crib. HOSTILE_FD_MAX
# lowers the bound: the VM guests try 0 to 24 (crib's own and the two given, with room; no
# walk through podman there), as each number is three container starts a column under QEMU's
# emulation (165 s of the armhf guest's 829 at 40)
# (never below 9: the two given are tried always)
fdmax=${HOSTILE_FD_MAX:-40}
[ "$fdmax" -ge 9 ] 2>/dev/null || fdmax=9
FDS=$(seq 0 "$fdmax")

# the image: the test rootfs and the walks, in a directory no other user can reach (as root
# crib refuses a rootfs other users can reach; so, for a writable rootfs, does it as a user)
mkdir -m 700 "$T/r"
cp -a "$ROOTFS" "$T/r/rootfs"
R=$T/r/rootfs
mkdir -p "$R/w" "$R/s"
for n in $FDS; do
	ln -s "/proc/self/fd/$n/$UP$P/walker" "$R/w/$n"
	printf '#!/proc/self/fd/%s/%s%s/walker walked\n' "$n" "$UP" "$P" >"$R/s/$n"
	chmod 755 "$R/s/$n"
done

out=$("$P/walker" walked)
assert_eq "$out:$?" "walked:42" "the host's program says 'walked' and exits 42 (the test can tell)"

# spec FILE [LINES]: the test's rootfs, and more lines ([process] ... )
hspec() {
	_f=$1
	shift
	{
		echo "[container]"
		echo "rootfs = $R"
		echo "[process]"
		echo "terminal = no"
		for _l in "$@"; do echo "$_l"; done
	} >"$_f"
}

# the columns of crib run: the spec's extra lines for each
COLS_RUN="default pid=no"
[ "$ROLE" = root ] && COLS_RUN="default user=no pid=no"
col_lines() {
	case $1 in
	default) ;;
	user=no) printf '[namespaces]\nuser = no\n' ;;
	pid=no) printf '[namespaces]\npid = no\n' ;;
	esac
}

# verdict CELL FILE: FILE holds "N rc output" lines; an escape is rc 42 or the host's secret
# read; the cell's line in the table, one TAP test each
TABLE=""
verdict() {
	_esc=$(awk -v s="host-secret-$$" '$2 == 42 || index($0, s) {printf "%s ", $1}' "$2")
	_tried=$(wc -l <"$2")
	if [ -z "$_esc" ]; then
		ok 0 "$1: $_tried descriptor numbers, none walks out"
		TABLE="$TABLE
$1 held"
	else
		ok 1 "$1: $_tried descriptor numbers, none walks out"
		echo "#   escaped through fd: $_esc"
		grep -E "^($(echo $_esc | tr ' ' '|')) " "$2" | sed 's/^/#   /' | head -5
		TABLE="$TABLE
$1 ESCAPED:fd=$(echo $_esc | tr ' ' ',')"
	fi
}

# --- crib run
for col in $COLS_RUN; do
	base="$T/run-$col.ini"
	hspec "$base" "args = /bin/true"
	col_lines "$col" >>"$base"
	: >"$T/prog" && : >"$T/interp" && : >"$T/cwd"
	for n in $FDS; do
		out=$("$CRIB" run "$base" -- "/w/$n" walked 2>/dev/null 7</ 9<"$P" </dev/null)
		echo "$n $? $out" >>"$T/prog"
		out=$("$CRIB" run "$base" -- "/s/$n" 2>/dev/null 7</ 9<"$P" </dev/null)
		echo "$n $? $out" >>"$T/interp"
		hspec "$T/cwd.ini" "args = /bin/cat $UP$P/secret" "cwd = /proc/self/fd/$n"
		col_lines "$col" >>"$T/cwd.ini"
		out=$("$CRIB" run "$T/cwd.ini" 2>/dev/null 7</ 9<"$P" </dev/null)
		echo "$n $? $out" >>"$T/cwd"
	done
	verdict "run:$col:prog" "$T/prog"
	verdict "run:$col:interp" "$T/interp"
	verdict "run:$col:cwd" "$T/cwd"
done
# what the refusals say (the second layer, where a walk would reach something)
hspec "$T/pass.ini" "args = /bin/true" "pass_fds = 9"
run_crib run "$T/pass.ini" -- /w/9 walked 9<"$P"
assert_eq "$rc" 126 "a program reached only through a link of /proc (here pass_fds' 9): refused, 126"
assert_contains "$err" "leads through a link of /proc" "saying why"
hspec "$T/pass.ini" "args = /bin/true" "pass_fds = 9" "cwd = /proc/self/fd/9"
run_crib run "$T/pass.ini" 9<"$P"
assert_eq "$rc" 125 "a working directory outside the container's root (pass_fds' 9): refused, 125"
assert_contains "$err" "is outside the container's root" "saying why"
# a directory as stdin is a host directory open in the container: refused before it starts
hspec "$T/dir.ini" "args = /bin/true"
"$CRIB" run "$T/dir.ini" <"$P" >/dev/null 2>"$T/dir.err"
assert_eq "$?:$(strip_aa <"$T/dir.err" | head -n 1)" "125:crib: crib's fd 0 is a directory" "crib run with a directory as stdin: refused, 125"

# --- crib exec, into a running container (its own pid namespace, and the host's)
S="$T/state"
for col in pid=yes pid=no; do
	hspec "$T/exec-$col.ini" "args = /bin/sleep 1000"
	[ $col = pid=no ] && printf '[namespaces]\npid = no\n' >>"$T/exec-$col.ini"
	name=hostile-$$-${col#pid=}
	if ! "$CRIB" --root "$S" run -d --name "$name" "$T/exec-$col.ini" >/dev/null 2>"$T/.err"; then
		skips 3 "exec:$col: crib run -d failed: $(head -n 1 "$T/.err")"
		continue
	fi
	: >"$T/prog" && : >"$T/interp" && : >"$T/cwd"
	for n in $FDS; do
		out=$("$CRIB" --root "$S" exec "$name" -- "/w/$n" walked 2>/dev/null 7</ 9<"$P" </dev/null)
		echo "$n $? $out" >>"$T/prog"
		out=$("$CRIB" --root "$S" exec "$name" -- "/s/$n" 2>/dev/null 7</ 9<"$P" </dev/null)
		echo "$n $? $out" >>"$T/interp"
		out=$("$CRIB" --root "$S" exec -w "/proc/self/fd/$n" "$name" -- /bin/cat "$UP$P/secret" 2>/dev/null 7</ 9<"$P" </dev/null)
		echo "$n $? $out" >>"$T/cwd"
	done
	if [ $col = pid=yes ]; then
		"$CRIB" --root "$S" exec "$name" -- /bin/true <"$P" >/dev/null 2>"$T/dir.err"
		assert_eq "$?:$(strip_aa <"$T/dir.err" | head -n 1)" "125:crib: crib's fd 0 is a directory" "crib exec with a directory as stdin: refused, 125"
	fi
	verdict "exec:$col:prog" "$T/prog"
	verdict "exec:$col:interp" "$T/interp"
	verdict "exec:$col:cwd" "$T/cwd"
	"$CRIB" --root "$S" rm -f "$name" >/dev/null 2>&1
done

# --- [service] healthcheck (issue 36): the check is the walk. crib's monitor runs it through
# crib exec's path from its checker, which holds the state directory, the run's pidfd, the log
# and the check's pipe while the check enters, and crib run -d was given `7</` and `9<DIR`: the
# health record's last_exit and output are the cell (one container a number, its first check)
for kind in prog interp; do
	: >"$T/$kind"
	ran=0 notrun=
	for n in $FDS; do
		case $kind in prog) hc="/w/$n walked" ;; *) hc="/s/$n" ;; esac
		hspec "$T/hc.ini" "args = /bin/sleep 1000" "[service]" "healthcheck = $hc" "healthcheck_interval = 100ms"
		name=hc-$$-$kind-$n
		"$CRIB" --root "$S" run -d --name "$name" "$T/hc.ini" >/dev/null 2>&1 7</ 9<"$P" </dev/null
		# its first check, 100 ms after it runs (the record is read once a round: it is written
		# "starting" before); one slower than 5 s is said (with what the checker and its
		# children are doing then), one not done in 30 s fails
		i=0
		while ! [ "$(sed -n 's/^checks=//p' "$S/$name/health" 2>/dev/null)" -ge 1 ] 2>/dev/null; do
			[ $i -lt 300 ] || break
			if [ $i = 50 ]; then
				mon=$(sed -n 's/^pid=//p' "$S/$name/monitor" 2>/dev/null)
				echo "#   $name: no check after 5 s; the monitor's processes (pid, state, wchan, syscall, command):"
				for p in $(descendants_of "$mon"); do
					echo "#     $p $(awk '{print $3}' "/proc/$p/stat" 2>/dev/null) $(cat "/proc/$p/wchan" 2>/dev/null) $(cut -d' ' -f1 "/proc/$p/syscall" 2>/dev/null) $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-60)"
				done
			fi
			sleep 0.1
			i=$((i + 1))
		done
		[ $i -gt 50 ] && echo "#   $name: its first check after $((i / 10)) s"
		h=$S/$name/health
		if [ "$(sed -n 's/^checks=//p' "$h" 2>/dev/null)" -ge 1 ] 2>/dev/null; then
			ran=$((ran + 1))
		else
			notrun="$notrun $n($("$CRIB" --root "$S" ps -a --format=ini 2>&1 | awk -v c="[container $name]" '$0 == c {f = 1} f && /^state = / {print $3; exit}'))"
		fi
		echo "$n $(sed -n 's/^last_exit=//p' "$h" 2>/dev/null) $(sed -n 's/^output=//p' "$h" 2>/dev/null)" >>"$T/$kind"
		"$CRIB" --root "$S" rm -f "$name" >/dev/null 2>&1
	done
	assert_eq "$ran" "$(echo $FDS | wc -w)" "health:$kind: every check ran ($ran), its exit status and output recorded${notrun:+ (not:$notrun)}"
	verdict "health:$kind" "$T/$kind"
done

# --- podman with crib as its runtime: the same image, run and exec'd (as 25-oci.t drives it)
PR=$(mktemp -d /tmp/crib-pod.XXXXXX)
if [ "$ROLE" = user ]; then
	export XDG_RUNTIME_DIR="$PR/xdg"
	mkdir -m 0700 "$XDG_RUNTIME_DIR"
fi
# PODMAN_FDS: the descriptor numbers tried (0 to 24; the x86_64 VM guest gives none: a podman
# run takes seconds under its emulation, 100 of them minutes, and these walks are the host's)
PFDS=${PODMAN_FDS-$(seq 0 24)}
if ! command -v podman >/dev/null 2>&1; then
	skips 4 "podman is not installed"
elif [ -z "$PFDS" ]; then
	skips 4 "PODMAN_FDS is empty: no descriptor walk through podman here (the host has them)"
elif [ "$ROLE" = user ] && ! podman --root "$PR/s" --runroot "$PR/r" unshare true 2>/dev/null; then
	skips 4 "rootless podman cannot make its user namespace here (newuidmap, /etc/subuid)"
else
	ln -s "$CRIB" "$T/crib-runc"
	printf '[engine]\nruntime = "crib"\n[engine.runtimes]\ncrib = ["%s"]\n' "$T/crib-runc" >"$T/containers.conf"
	pod() {
		CONTAINERS_CONF="$T/containers.conf" timeout -k 10 60 podman --root "$PR/s" \
			--runroot "$PR/r" --runtime "$T/crib-runc" --cgroup-manager cgroupfs \
			--events-backend none "$@"
	}
	lim="--network none --pids-limit 0 --ulimit nofile=1024:1024 --ulimit nproc=1024:1024"
	# podman's cgroupfs parent, where cgroup v2 is: removed at the end if this test made it
	cg2=$(sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup2 .*/\1/p' /proc/self/mountinfo | head -n 1)
	lp_before=$([ -n "$cg2" ] && [ -d "$cg2/libpod_parent" ] && echo kept)
	tar -C "$R" -cf "$T/image.tar" . 2>/dev/null
	pod import "$T/image.tar" localhost/crib-hostile:27 >/dev/null 2>&1
	: >"$T/prog" && : >"$T/cwd"
	for n in $PFDS; do
		# shellcheck disable=SC2086
		out=$(pod run --rm $lim localhost/crib-hostile:27 "/w/$n" walked 2>/dev/null </dev/null)
		echo "$n $? $out" >>"$T/prog"
		# shellcheck disable=SC2086
		out=$(pod run --rm $lim -w "/proc/self/fd/$n" localhost/crib-hostile:27 /bin/cat "$UP$P/secret" 2>/dev/null </dev/null)
		echo "$n $? $out" >>"$T/cwd"
	done
	verdict "podman-run:prog" "$T/prog"
	verdict "podman-run:cwd" "$T/cwd"
	# shellcheck disable=SC2086
	id=$(pod run -d $lim --pid=host localhost/crib-hostile:27 /bin/sleep 1000 2>"$T/p.err")
	if [ -z "$id" ]; then
		skips 2 "podman run -d --pid=host failed: $(head -n 1 "$T/p.err")"
	else
		: >"$T/prog" && : >"$T/cwd"
		for n in $PFDS; do
			out=$(pod exec "$id" "/w/$n" walked 2>/dev/null </dev/null)
			echo "$n $? $out" >>"$T/prog"
			out=$(pod exec -w "/proc/self/fd/$n" "$id" /bin/cat "$UP$P/secret" 2>/dev/null </dev/null)
			echo "$n $? $out" >>"$T/cwd"
		done
		verdict "podman-exec:pid=host:prog" "$T/prog"
		verdict "podman-exec:pid=host:cwd" "$T/cwd"
		pod rm -f "$id" >/dev/null 2>&1
	fi
	pod rmi -a -f >/dev/null 2>&1
	[ -n "$cg2" ] && [ -z "$lp_before" ] && rmdir "$cg2/libpod_parent/conmon" "$cg2/libpod_parent" 2>/dev/null
	[ "$ROLE" = user ] && podman --root "$PR/s" --runroot "$PR/r" unshare rm -rf "$PR/s" 2>/dev/null
fi
pause=$(cat "$PR/xdg/libpod/tmp/pause.pid" 2>/dev/null)
[ -n "$pause" ] && kill "$pause" 2>/dev/null
rm -rf "$PR" 2>/dev/null

echo "# descriptor walks (issue 31, hole 1 and 3; issue 36's health checks), crib as $ROLE: prog, interp and cwd per column"
echo "$TABLE" | awk 'NF {printf "#   %-28s %s\n", $1, $2}'

# --- the user's terminal (hole 7): crib exec without -t, from a terminal (script(1) gives it
# one), gives the process pipes; a process it leaves behind cannot read what is typed next
if ! command -v script >/dev/null 2>&1; then
	skips 3 "script(1) is not installed (util-linux)"
else
	hspec "$T/tty.ini" "args = /bin/sleep 1000"
	name=hostile-tty-$$
	"$CRIB" --root "$S" run -d --name "$name" "$T/tty.ini" >/dev/null 2>&1
	out=$(script -qec "'$CRIB' --root '$S' exec $name -- /bin/sh -c 'for f in 0 1 2; do readlink /proc/self/fd/\$f; done'" /dev/null </dev/null | tr -d '\r')
	assert_eq "$(echo "$out" | grep -c '^pipe:')" 3 "crib exec without -t, from a terminal: fds 0, 1 and 2 are pipes ($(echo $out))"
	# the program leaves a reader behind and exits; a line is typed a second later (fd 3: a
	# background job of sh reads /dev/null as its stdin, unless told another descriptor)
	(sleep 1.5; echo typed-later-$$) | script -qec "'$CRIB' --root '$S' exec $name -- /bin/sh -c 'exec 3<&0; (sleep 0.5; read l <&3; echo \"got:\$l\" >/tmp/left) & exit 0'; sleep 3" /dev/null >/dev/null 2>&1
	sleep 0.5
	left=$("$CRIB" --root "$S" exec "$name" -- /bin/cat /tmp/left 2>/dev/null </dev/null)
	assert_not_contains "$left" "typed-later-$$" "a process the exec left running never reads what is typed at the terminal afterwards ($left)"
	out=$(script -qec "'$CRIB' --root '$S' exec $name -- /bin/sh -c 'echo out; echo err >&2; exit 3'; echo rc=\$?" /dev/null </dev/null | tr -d '\r' | strip_aa | tr '\n' ' ')
	assert_eq "$out" "out err rc=3 " "through the pipes: its output, its errors and its exit status"
	"$CRIB" --root "$S" rm -f "$name" >/dev/null 2>&1

	# --- a workload that makes its terminal raw and never reads, with 200 kB typed at it: crib
	# keeps forwarding (SIGTERM ends it) and gives the user's terminal back as it was
	hspec "$T/raw.ini" "args = /bin/sh -c 'stty raw -echo; exec sleep 1000'"
	sed -i 's/^terminal = no$/terminal = yes/' "$T/raw.ini"
	cat >"$T/raw.sh" <<EOF2
stty -g >"$T/tty.before"
exec 3<&0
'$CRIB' run '$T/raw.ini' <&3 &
echo \$! >"$T/crib.pid"
wait \$!
echo "rc=\$?" >"$T/crib.rc"
stty -g >"$T/tty.after.tmp" && mv "$T/tty.after.tmp" "$T/tty.after"
EOF2
	# (the writer's pid, to end it with the session: a shell's wait for the session waits for
	# the whole pipeline, its 20 s sleep too)
	sh -c 'echo $$ >"$1"; sleep 1; head -c 200000 /dev/zero | tr "\0" x; exec sleep 20' writer "$T/writer.pid" |
		timeout -k 5 30 script -qec "sh '$T/raw.sh'" /dev/null >/dev/null 2>&1 &
	sess=$!
	sleep 3
	cpid=$(cat "$T/crib.pid" 2>/dev/null)
	[ -n "$cpid" ] && kill -TERM "$cpid" 2>/dev/null
	i=0
	while [ ! -e "$T/tty.after" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	assert_eq "$(cat "$T/crib.rc" 2>/dev/null)" "rc=143" "a workload that never reads its raw terminal: SIGTERM to crib still ends it (143)"
	assert_eq "$(cat "$T/tty.after" 2>/dev/null)" "$(cat "$T/tty.before" 2>/dev/null)" "and the user's terminal is as it was before"
	# (a crib that hangs is stopped here, and its container with it: the death signal)
	[ -n "$cpid" ] && kill -KILL "$cpid" 2>/dev/null
	kill "$sess" 2>/dev/null
	writer=$(cat "$T/writer.pid" 2>/dev/null)
	[ -n "$writer" ] && kill "$writer" 2>/dev/null
	wait "$sess" 2>/dev/null
fi

done_testing
