#!/bin/sh
# [network] (issue 15): mode none|host|slirp4netns|pasta, publish, dns, host_loopback. Bad specs
# are refused with FILE:LINE and 125 before anything starts. With each helper: a busybox httpd
# in a detached container serves a published port to wget on the host; the container reaches a
# server on the host's loopback only when host_loopback = yes; the raw-frame way to the host's
# loopback is closed (and shown open when the spec allows it, so the probe can fail); the
# helper is gone after stop, after SIGKILL of crib, after the workload exits; a taken port and
# a helper that dies are explained. As root (issue 31, 9g) the helper is the container's own root,
# never host root (its /proc/PID/status), a container that sees it (pid = no) cannot read its
# memory, and what it could then no longer do is refused before anything starts. The truth from
# outside: /proc/PID of the helper, the state directory, the rootfs; from inside: the probe.
. "$(dirname "$0")/../lib/libtest.sh"

S="$T/state"
C() { "$CRIB" --root "$S" "$@"; }
cr() { run_crib --root "$S" "$@"; }
PROBE="$ROOTFS/usr/local/bin/probe"
BB="$ROOTFS/bin/busybox"
if command -v wget >/dev/null 2>&1; then WGET=wget; else WGET="$BB wget"; fi
# a port no one uses now, from a range this test owns (its pid spreads concurrent runs)
_port=$((20000 + ($$ % 4000) * 5))
next_port() {
	_port=$((_port + 1))
	while "$PROBE" bind "$_port" 2>/dev/null | grep -qv bound; do _port=$((_port + 1)); done
	echo "$_port"
}
# helper_of PID: the helper program among the children of PID ("" when none)
helper_of() {
	for _c in $(children_of "$1"); do
		case "$(cat "/proc/$_c/comm" 2>/dev/null)" in slirp4netns | pasta* | passt*) echo "$_c" ;; esac
	done
}
# my_helpers: every helper process this test started (a child of a crib run with its state
# root): other helpers of the same user elsewhere on the machine do not count
my_helpers() {
	for _d in /proc/[0-9]*; do
		case "$(cat "$_d/comm" 2>/dev/null)" in
		slirp4netns | pasta* | passt*)
			_pp=$(awk '/^PPid:/{print $2}' "$_d/status" 2>/dev/null)
			tr '\0' ' ' <"/proc/$_pp/cmdline" 2>/dev/null | grep -qF -- "--root $S " && echo "${_d#/proc/}"
			;;
		esac
	done
}
# start_long ERRFILE: crib run long.ini in the background ($crib), until its helper runs
start_long() {
	"$CRIB" --root "$S" run "$T/long.ini" 2>"$1" &
	crib=$!
	i=0
	while [ -z "$(helper_of $crib)" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.3
}
gone() { # gone PID [TENTHS]
	_i=0
	while [ -d "/proc/$1" ] && [ "$(awk '/^State:/{print $2}' "/proc/$1/status" 2>/dev/null)" != Z ] && [ $_i -lt "${2:-30}" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ ! -d "/proc/$1" ] || [ "$(awk '/^State:/{print $2}' "/proc/$1/status" 2>/dev/null)" = Z ]
}

# --- bad specs: FILE:LINE, 125, and nothing made on the host
bad() { # bad "LINES" WANT DESCRIPTION: the spec's [network] (and more) lines; line 6 is the first
	spec "$T/bad.ini" <<EOF2
[process]
args = /bin/true
[network]
$1
EOF2
	cr run "$T/bad.ini"
	assert_eq "$rc:$(echo "$err" | head -n 1 | grep -c "bad.ini:$2")" "125:1" "$3"
}
bad "mode = slirp" "6: unknown network mode 'slirp'" "an unknown mode is refused, naming the known ones"
bad "mode = slirp4netns
publish = 80" "7: publish must be" "publish without a host port is refused"
bad "mode = slirp4netns
publish = 8080:80/sctp" "7: publish: 'sctp' is not a protocol" "an unknown protocol is refused"
bad "mode = slirp4netns
publish = [::1]:8080:80" "7: publish: IPv6" "an IPv6 host address says it is not supported"
bad "mode = slirp4netns
publish = 999.1.1.1:8080:80" "7: publish: '999.1.1.1' is not an IPv4" "a bad host address is refused"
bad "mode = slirp4netns
publish = 8080:80
publish = 127.0.0.1:8080:81" "8: publish: host port 8080/tcp is already published on line 7" "a host port published twice is refused"
bad "mode = slirp4netns
dns = one.one" "7: dns: 'one.one' is not an IPv4" "a bad dns address is refused"
bad "publish = 8080:80" "6: 'publish' needs a network helper" "publish without a helper's mode is refused"
bad "mode = host
host_loopback = yes" "7: 'host_loopback' needs a network helper" "host_loopback with mode = host is refused"
bad "mode = pasta
[namespaces]
net = no" "6: mode = pasta needs a network namespace of its own" "a helper's mode with net = no is refused"
bad "mode = slirp4netns
[security]
capabilities = default +NET_RAW" "8: NET_RAW lets the workload send packets" "NET_RAW with a helper (host_loopback = no) is refused"
bad "mode = pasta
[security]
capabilities = default +NET_ADMIN" "8: NET_ADMIN lets the workload" "NET_ADMIN with a helper (host_loopback = no) is refused"
assert_eq "$(echo "$err" | grep -c 'host_loopback = yes')" 1 "and the error says how to allow it"
assert_eq "$(ls -A "$S" 2>/dev/null)" "" "the refused specs made nothing in the state directory"

# a workload that keeps SYS_ADMIN with a helper: a user namespace of its own below the
# container's locks its mounts (lockmounts.c), but it stays in the helper's network namespace,
# where its tap is (it was refused when it got a network namespace of its own, without one)
if [ -x /usr/bin/slirp4netns ] && { [ "$ROLE" = root ] || { [ -r /dev/net/tun ] && [ -w /dev/net/tun ]; }; }; then
	spec "$T/admin.ini" <<'EOF2'
[process]
args = /bin/sh -c "grep -c tap0: /proc/net/dev; cat /proc/sys/net/ipv4/ip_unprivileged_port_start"
[network]
mode = slirp4netns
[security]
capabilities = default +SYS_ADMIN
EOF2
	cr run "$T/admin.ini"
	assert_eq "$rc:$out" "0:1
0" "SYS_ADMIN with a helper runs, sees the helper's tap0, and may bind ports below 1024"
	[ "$rc" = 0 ] || echo "$err" | sed 's/^/#   /'
else
	skip "no slirp4netns, or /dev/net/tun out of $(id -un)'s reach"
fi

# --- mode = host is [namespaces] net = no; mode = none is a namespace of its own
hostns=$(readlink /proc/self/ns/net)
for m in host none; do
	spec "$T/m.ini" <<EOF2
[process]
args = /bin/readlink /proc/self/ns/net
[network]
mode = $m
EOF2
	cr run "$T/m.ini"
	if [ $m = host ]; then
		assert_eq "$rc:$out" "0:$hostns" "mode = host: the host's network namespace"
	else
		assert_eq "$rc:$([ "$out" != "$hostns" ] && echo private)" "0:private" "mode = none: a namespace of its own"
	fi
done

# --- each helper
mkdir -p "$T/www" && echo "hello from crib's published port" >"$T/www/index.html"
# root's containers read the page as root's subordinate ids
chmod -R a+rX "$T/www"
# a rootfs of the test's own (root's must sit where others cannot reach it), whose
# /etc/resolv.conf is a dangling symlink, as in images made for systemd-resolved
mkdir -m 0700 "$T/own"
# (as the user, the rootfs's /root, root's and 0700, cannot be read and is left out: nothing here
# needs it, and cp's complaint about it is not printed)
cp -a "$ROOTFS" "$T/own/rootfs" 2>"$T/cp.err" || grep -v "/root': Permission denied" "$T/cp.err" >&2
mkdir "$T/own/rootfs/www"
ln -sf ../run/systemd/resolve/stub-resolv.conf "$T/own/rootfs/etc/resolv.conf"

# own_spec FILE: spec, on the test's own rootfs
own_spec() {
	{
		echo "[container]"
		echo "rootfs = $T/own/rootfs"
		cat
	} >"$1"
}
# inner FILE PORT NETWORK-LINES MORE-SECTIONS FIRST-COMMANDS [WGET-OUTPUT]: the inside view:
# FIRST-COMMANDS, resolv.conf, and wget of the gateway's PORT
inner() {
	own_spec "$1" <<EOF2
[process]
args = /bin/sh -c "$5cat /etc/resolv.conf; echo x 2>/dev/null >/etc/resolv.conf && echo writable; timeout 5 wget -q ${6:--O /dev/null} http://\$(ip route | awk '/default/{print \$3}'):$2/ 2>/dev/null; echo wget=\$?"
[network]
mode = $helper
$3
$4
EOF2
}

# a /dev/net/tun closed to the user (0600, as some sandboxes have it): each helper's failure
# says so, with the remedy (pasta words it "tun socket", slirp4netns names the device). As
# root, crib-test runs crib in a mount namespace whose /dev/net/tun is a 0600 node of root's.
tu=$(awk -F: '$1 == "crib-test" {print $3 ":" $4}' /etc/passwd)
if [ "$ROLE" = root ] && [ -n "$tu" ] && command -v unshare >/dev/null 2>&1; then
	# (in /tmp: crib-test cannot reach the test's own directory)
	TD=$(mktemp -d /tmp/crib-tun.XXXXXX)
	cp -a "$ROOTFS" "$TD/rootfs" && mkdir -p "$TD/run" && chown -R "$tu" "$TD"
	for helper in pasta slirp4netns; do
		if ! [ -x "/usr/bin/$helper" ]; then
			skip "$helper is not installed here"
			continue
		fi
		printf '[container]\nrootfs = rootfs\n[process]\nargs = /bin/true\n[network]\nmode = %s\n' "$helper" >"$TD/t.ini"
		chown "$tu" "$TD/t.ini"
		err=$(unshare -m sh -c 'mount -t tmpfs -o mode=0755 none /dev/net && mknod -m 0600 /dev/net/tun c 10 200 &&
			cd "$1" && exec "$2" as "${3%:*}" "${3#*:}" env HOME=/ XDG_RUNTIME_DIR="$1/run" "$4" run t.ini' \
			sh "$TD" "$ROOTFS/usr/local/bin/probe" "$tu" "$CRIB" 2>&1 >/dev/null)
		rc=$?
		assert_eq "$rc:$(echo "$err" | grep -c "hint: the helper needs /dev/net/tun, which Debian makes 0666")" "125:1" \
			"$helper, /dev/net/tun closed to the user: 125, and the hint says why and how to open it" ||
			echo "$err" | sed 's/^/#   /'
	done
	rm -rf "$TD"
else
	skips 2 "only root can close /dev/net/tun to crib-test in a mount namespace of its own"
fi

tun_ok=yes
[ -r /dev/net/tun ] && [ -w /dev/net/tun ] || [ "$ROLE" = root ] || tun_ok=no

for helper in slirp4netns pasta; do
	package=$helper
	[ $helper = pasta ] && package=passt
	N=34
	[ "$ROLE" = root ] && N=$((N + 3))
	if ! [ -x "/usr/bin/$helper" ]; then
		spec "$T/h.ini" <<EOF2
[process]
args = /bin/true
[network]
mode = $helper
EOF2
		cr run "$T/h.ini"
		assert_eq "$rc:$(echo "$err" | grep -c "h.ini:6: mode = $helper needs $helper")" "125:1" "$helper missing: 125 at the mode line"
		assert_contains "$err" "apt install $package" "and the error names the Debian package ($package)"
		skips $((N - 2)) "$helper is not installed here (Debian package $package)"
		continue
	fi
	if [ $tun_ok = no ]; then
		skips $N "/dev/net/tun is $(stat -c %A /dev/net/tun 2>/dev/null || echo missing) here: $(id -un) cannot open it (Debian makes it 0666; tests/run-all gives this test one in a mount namespace of its own when it runs as root)"
		continue
	fi
	port=$(next_port)
	own_spec "$T/web.ini" <<EOF2
[process]
args = /bin/busybox httpd -f -p 80 -h /www
[mounts]
bind = $T/www /www ro
[network]
mode = $helper
publish = 127.0.0.1:$port:80
EOF2
	cr run -d --name "web-$helper" "$T/web.ini"
	assert_eq "$rc" 0 "$helper: a detached httpd with publish = 127.0.0.1:$port:80 starts"
	[ "$rc" = 0 ] || echo "#   $err"
	# (bounded by timeout(1): busybox's wget -T, the VM guests' wget, dies of SIGSEGV). The
	# helper listens on the host's port from the start, and answers a connection before the
	# workload's httpd listens with a reset (seen in a slow guest): tried for at most 10 s
	tries=0
	while :; do
		page=$(timeout 10 $WGET -q -O - "http://127.0.0.1:$port/" 2>&1)
		[ "$page" = "hello from crib's published port" ] || [ $tries -ge 50 ] && break
		sleep 0.2
		tries=$((tries + 1))
	done
	assert_eq "$page" "hello from crib's published port" "$helper: wget on the host gets the page"
	assert_contains "$(C ps)" "127.0.0.1:$port->80/tcp" "$helper: crib ps shows the published port"
	# issue 32: the setup forks nft inside the new pid namespace first, so the workload is not
	# pid 2 there; crib exec finds it by what crib recorded, the README's example works
	C exec "web-$helper" -- /bin/cat /etc/resolv.conf >"$T/resolv" 2>"$T/exec.err" </dev/null
	assert_eq "$?:$(grep -c '^nameserver' "$T/resolv")" "0:1" "$helper: crib exec web -- /bin/cat /etc/resolv.conf (the README's example) works"
	[ -s "$T/exec.err" ] && sed 's/^/#   /' "$T/exec.err"
	wpid=$(sed -n 's/^workload=//p' "$S/web-$helper/pid")
	xnet=$(C exec "web-$helper" -- /bin/readlink /proc/self/ns/net 2>"$T/exec.err" </dev/null)
	assert_eq "$xnet:$(cat "/proc/$wpid/comm" 2>/dev/null)" "$(readlink "/proc/$wpid/ns/net" 2>/dev/null):busybox" "$helper: the exec'd process is in the network namespace of the workload crib recorded (pid $wpid, busybox httpd)"
	mon=$(sed -n 's/^pid=//p' "$S/web-$helper/monitor")
	hp=$(helper_of "$mon")
	assert_eq "$(echo "$hp" | wc -w)" 1 "$helper: the helper is a child of the container's monitor"
	if [ "$ROLE" = root ]; then
		# root's container: its helper runs as the container's root (root's subordinate range
		# start), never as host root; no supplementary group; slirp4netns's real gid differs (so
		# it is not dumpable); and, in sight of the container's processes (pid = no), none of
		# them can read its memory (the peek below)
		cuid=$(root_range uid | cut -d' ' -f1)
		cgid=$(root_range gid | cut -d' ' -f1)
		ids=$(awk '/^Uid:/{u=$2" "$3" "$4" "$5} /^Gid:/{g=$3" "$4" "$5; r=$2} /^Groups:/{$1=""; s=$0} END{print u"|"g"|"(r == 0 ? "real gid 0" : "")"|groups"s}' "/proc/$hp/status" 2>/dev/null)
		own_spec "$T/peek.ini" <<EOF2
[process]
args = /bin/sh /peek.sh
[namespaces]
pid = no
[network]
mode = $helper
EOF2
		cat >"$T/own/rootfs/peek.sh" <<'EOF2'
# pid = no: the host's processes are in sight; the helper is a child of this container's crib,
# the parent of its setup process (crib's init, or this shell's parent)
crib=$(awk '/^PPid:/{print $2}' /proc/$PPID/status)
for d in /proc/[0-9]*; do
	case "$(awk '/^PPid:/{print $2}' $d/status 2>/dev/null)" in "$crib" | "$PPID") ;; *) continue ;; esac
	case "$(cat $d/comm 2>/dev/null)" in pasta* | passt* | slirp4netns) ;; *) continue ;; esac
	if cat $d/environ >/dev/null 2>&1; then echo "read its memory"; else echo denied; fi
done
EOF2
		cr run "$T/peek.ini"
		assert_eq "$ids|$out" "$cuid $cuid $cuid $cuid|$cgid $cgid $cgid||groups|denied" "$helper: as root, it runs as the container's root ($cuid:$cgid, read from /proc/$hp/status), not as host root; a container that sees it (pid = no) cannot read its memory"
		[ "$rc" = 0 ] || echo "$err" | sed 's/^/#   /'
	else
		assert_eq "$(awk '/^Uid:/{print $2}' "/proc/$hp/status" 2>/dev/null)" "$(id -u)" "$helper: it runs as the user who ran crib"
	fi
	assert_eq "$(cut -d' ' -f6 "/proc/$hp/stat" 2>/dev/null)" "$hp" "$helper: it leads a session of its own (no terminal)"
	if fd0=$(readlink "/proc/$hp/fd/0" 2>/dev/null); then
		assert_eq "$fd0" /dev/null "$helper: its stdin is /dev/null (no terminal)"
	else
		skip "$helper made itself not dumpable: $(id -un) cannot read its descriptors"
	fi
	assert_eq "$(ls -A "$S" | grep -c '^\.net-')" 0 "$helper: no API socket or directory is left in the state root"
	pid=$(C ps | awk -v n="web-$helper" '$1 == n {print $3}')
	capeff=$(awk '/^CapEff:/{print $2}' "/proc/$pid/status" 2>/dev/null)
	assert_eq "$(((0x${capeff:-2000} >> 13) & 1))" 0 "$helper: the container has no NET_RAW (CapEff $capeff, read from /proc/$pid)"
	C stop "web-$helper" >/dev/null
	assert_eq "$(gone "$hp" && echo gone)" gone "$helper: the helper is gone after crib stop"
	C rm "web-$helper" >/dev/null

	# from inside: the raw-frame way to the host's loopback is closed; ICMP echo sockets work;
	# the generated resolv.conf is read-only, even over a dangling symlink
	lport=$(next_port)
	"$PROBE" listen-once "$lport" "$T/listen" &
	wait_for "$T/listen" 20
	inner "$T/in.ini" "$lport" "dns = 192.0.2.53" "" "/usr/local/bin/probe raw-loopback $lport; /usr/local/bin/probe syscall socket 2 2 1; /usr/local/bin/probe dev-loopback $lport; "
	cr run "$T/in.ini"
	wait
	assert_eq "$rc" 0 "$helper: a container with host_loopback = no runs"
	[ "$rc" = 0 ] || echo "$err" | sed 's/^/#   /'

	assert_contains "$out" "socket EPERM" "$helper: a raw frame for 127.0.0.1 cannot even be made (no NET_RAW)"
	assert_contains "$out" "udp4=EPERM" "$helper: a datagram for 127.0.0.1 from a socket bound to the tap (SO_BINDTODEVICE, no capability) is dropped"
	assert_contains "$out" "pktinfo=EPERM" "$helper: so is one sent with IP_PKTINFO naming the tap"
	assert_eq "$(tail -n 1 "$T/listen")" nothing "$helper: the host's loopback servers (127.0.0.1 and ::1, TCP and UDP) saw nothing"
	assert_eq "$(echo "$out" | sed -n 2p)" ok "$helper: ICMP echo sockets work without NET_RAW (ping_group_range)"
	assert_contains "$out" "nameserver 192.0.2.53" "$helper: resolv.conf is crib's, with the spec's dns, over a dangling symlink"
	assert_not_contains "$out" writable "$helper: and read-only"
	assert_eq "$(readlink "$T/own/rootfs/etc/resolv.conf")" ../run/systemd/resolve/stub-resolv.conf "$helper: the rootfs's symlink is unchanged"
	assert_contains "$out" "wget=1" "$helper: the gateway does not lead to the host's loopback"

	# the same attack from a workload that keeps SYS_ADMIN (level = unconfined): it stays in
	# the helper's network namespace, but its capabilities count only in a user namespace of its
	# own below the container's (lockmounts.c), so it cannot reroute (nor change the nft rule)
	lport=$(next_port)
	"$PROBE" listen-once "$lport" "$T/listen4" &
	wait_for "$T/listen4" 20
	inner "$T/in4.ini" "$lport" "" "[security]
level = unconfined" "/usr/local/bin/probe dev-loopback $lport; ip route add 127.0.0.0/8 dev \$(ip route | awk '/default/{print \$5}') 2>/dev/null && echo routed; "
	cr run "$T/in4.ini"
	wait
	assert_eq "$rc:$(echo "$out" | grep -c routed)" "0:0" "$helper, SYS_ADMIN: runs, and cannot route 127.0.0.0/8 out of the tap (no NET_ADMIN in the helper's namespace)" ||
		echo "$err$out" | sed 's/^/#   /'
	assert_contains "$out" "udp4=EPERM" "$helper, SYS_ADMIN: a datagram for 127.0.0.1 bound to the tap is dropped"
	assert_eq "$(tail -n 1 "$T/listen4")" nothing "$helper, SYS_ADMIN: the host's loopback servers saw nothing"

	# host_loopback = yes: the container reaches a server on the host's 127.0.0.1; with NET_RAW
	# allowed there the raw frame gets through too, which shows the probe above can fail
	lport=$(next_port)
	"$PROBE" listen-once "$lport" "$T/listen2" &
	wait_for "$T/listen2" 20
	inner "$T/in2.ini" "$lport" "host_loopback = yes" "[security]
capabilities = default +NET_RAW" "/usr/local/bin/probe raw-loopback $lport; /usr/local/bin/probe dev-loopback $lport; "
	cr run "$T/in2.ini"
	wait
	assert_contains "$out" "sent" "$helper: host_loopback = yes with NET_RAW: the raw frame is sent"
	assert_contains "$(tail -n 1 "$T/listen2")" "accepted" "$helper: and the host's loopback server is reached (the hole the default closes)"
	echo "#   reached with host_loopback = yes: $(tail -n 1 "$T/listen2")"
	hport=$(next_port)
	(cd "$T/www" && exec "$BB" httpd -f -p "127.0.0.1:$hport" -h "$T/www") &
	httpd=$!
	sleep 0.2
	inner "$T/in3.ini" "$hport" "host_loopback = yes" "" "" "-O -"
	cr run "$T/in3.ini"
	kill "$httpd" 2>/dev/null
	wait "$httpd" 2>/dev/null
	assert_contains "$out" "hello from crib's published port" "$helper: host_loopback = yes: the container reaches the host's 127.0.0.1 through the gateway"

	# the helper never outlives its container: the workload exits; crib is SIGKILLed
	before=$(my_helpers)
	spec "$T/quick.ini" <<EOF2
[process]
args = /bin/true
[network]
mode = $helper
EOF2
	cr run "$T/quick.ini"
	assert_eq "$rc:$(my_helpers)" "0:$before" "$helper: the workload exited: no helper is left"
	[ "$rc" = 0 ] || echo "$err" | sed 's/^/#   /'

	spec "$T/long.ini" <<EOF2
[process]
args = /bin/sleep 100
[network]
mode = $helper
EOF2
	start_long /dev/null
	hp=$(helper_of $crib)
	kill -9 $crib
	wait $crib 2>/dev/null
	assert_eq "$([ -n "$hp" ] && gone "$hp" && echo gone)" gone "$helper: crib SIGKILLed: its helper is gone too (parent-death signal)"

	# a helper that dies while the container runs is reported
	start_long "$T/died.err"
	kill -9 "$(helper_of $crib)" 2>/dev/null
	sleep 0.5
	kill -TERM $crib
	wait $crib 2>/dev/null
	cat "$T/died.err" | sed 's/^/#   /'
	assert_contains "$(cat "$T/died.err")" "the network helper exited (signal 9) while the container runs" "$helper: a helper that dies is reported"

	# a published port that is taken: 125 at the publish line, before anything runs (first,
	# the helpers killed above are reaped: a SIGKILLed process takes a moment to go)
	i=0
	while [ -n "$(my_helpers)" ] && [ $i -lt 30 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	for _h in $(my_helpers); do echo "#   still there: $_h $(tr '\0' ' ' <"/proc/$_h/cmdline" 2>/dev/null)"; done
	before=$(my_helpers)
	tport=$(next_port)
	"$PROBE" listen-once "$tport" "$T/listen3" &
	wait_for "$T/listen3" 20
	sed "s/127.0.0.1:$port:80/127.0.0.1:$tport:80/" "$T/web.ini" >"$T/taken.ini"
	cr run -d --name taken "$T/taken.ini"
	assert_eq "$rc:$(echo "$err" | head -n 1 | grep -c "taken.ini:9: cannot publish host port 127.0.0.1:$tport/tcp")" "125:1" "$helper: a taken host port: 125 at the publish line"
	assert_contains "$err" "another program (or container) uses it" "$helper: and says what to do"
	echo "$err" | sed 's/^/#   /'

	assert_eq "$(my_helpers)" "$before" "$helper: and no helper was started"
	for _h in $(my_helpers); do echo "#   left: $_h $(tr '\0' ' ' <"/proc/$_h/cmdline") parent $(awk '/^PPid:/{print $2}' "/proc/$_h/status")"; done

	# root: what the helper, no longer host root, cannot do is refused before anything starts
	if [ "$ROLE" = root ]; then
		low=$(($(cat /proc/sys/net/ipv4/ip_unprivileged_port_start) - 1))
		if [ "$low" -ge 1 ]; then
			own_spec "$T/low.ini" <<EOF2
[process]
args = /bin/true
[network]
mode = $helper
publish = 127.0.0.1:$low:80
EOF2
			cr run "$T/low.ini"
			assert_eq "$rc:$(echo "$err" | head -n 1 | grep -c "low.ini:7: cannot publish host port 127.0.0.1:$low/tcp: the network helper runs as the container's root")" "125:1" "$helper: as root, a host port below net.ipv4.ip_unprivileged_port_start ($low) is refused at the publish line"
		else
			skip "net.ipv4.ip_unprivileged_port_start is $((low + 1)) here: every port is unprivileged"
		fi
		own_spec "$T/r0.ini" <<EOF2
[process]
args = /bin/true
[network]
mode = $helper
[idmap]
uid = 0 0 1
gid = 0 0 1
EOF2
		cr run "$T/r0.ini"
		assert_eq "$rc:$(echo "$err" | grep -c "r0.ini:6: the network helper runs as the container's root, and \[idmap\] maps container root to host root")" "125:1" "$helper: as root, a spec that maps container root to host root gets no helper (it would be host root)"
		own_spec "$T/pt.ini" <<EOF2
[process]
args = /bin/true
[network]
mode = $helper
[namespaces]
pid = no
[security]
capabilities = default +SYS_PTRACE
EOF2
		cr run "$T/pt.ini"
		assert_eq "$rc:$(echo "$err" | head -n 1 | grep -c "pt.ini:6: with pid = no and SYS_PTRACE the workload could trace the network helper")" "125:1" "$helper: as root, pid = no with SYS_PTRACE is refused (the helper is in the container's user namespace)"
	fi
	wait
done
C rm -f taken >/dev/null 2>&1
done_testing
