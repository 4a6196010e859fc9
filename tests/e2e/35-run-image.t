#!/bin/sh
# crib run IMAGE (issue 35): a container of a store image gets a writable layer of its own, an
# overlay of the image's layers mounted in its own namespaces (runtime/steps/overlay.c; root's
# containers in a user namespace over the layers shown through idmapped mounts,
# runtime/steps/idlayers.c), or a copy of them where overlayfs cannot be used (a kernel before
# 5.19 for root's, a store without idmapped mounts; forced here with the test build's
# CRIB_TEST_IMAGE_COPY). The store is laid out by hand as
# docs/store.md says (tests/lib/handstore.sh): layer A, the test rootfs with /etc/gone and
# /etc/dir/{x,y}; layer B over it, a whiteout of /etc/gone, /etc/dir opaque with only z, and
# /etc/fromb of uid 33. The truth from outside: the store's files (layers/*/root never change,
# containers/ID comes and goes), /proc/self/mountinfo, a published port read with wget; from
# inside: the container's own view.
. "$(dirname "$0")/../lib/libtest.sh"
HS_SELF="$(dirname "$0")/../lib/handstore.sh"
. "$HS_SELF"

S="$T/state"
STORE="$T/store"
export CRIB_STORE="$STORE"
IMG=test.local/img:1
cr() { run_crib --root "$S" "$@"; }
C() { "$CRIB" --root "$S" "$@"; }
ctrs() { ls "$STORE/containers" 2>/dev/null | wc -l; }
# strip the warning root's copies give (said once a run, with its cost), checked on its own
nocopy() { echo "$1" | grep -v "gets a copy of the image's layers"; }

# at the end: every container gone, then the store (handstore.sh)
trap 'hs_cleanup "$S" "$STORE"' EXIT

if ! command -v setfattr >/dev/null 2>&1; then
	echo "1..0 # SKIP no setfattr (package attr) to lay out an opaque directory"
	exit 0
fi
if ! make_store "$STORE" "$ROOTFS"; then
	echo "1..0 # SKIP cannot lay out a store here (as a user: unshare --map-auto and /etc/subuid)"
	exit 0
fi
layers_before=$(cd "$STORE/layers" && find . | sort | md5sum)

# --- what the image is, seen from inside: the whiteout and the opaque directory applied
cr run --rm "$IMG" sh -c 'ls /etc/dir; cat /etc/gone 2>&1; cat /etc/fromb; echo $FROM_IMAGE'
assert_eq "$rc" 0 "crib run IMAGE runs the given program"
assert_eq "$out" "z
cat: can't open '/etc/gone': No such file or directory
fromb
yes" "a whiteout hides the lower layer's file, an opaque directory its entries; the image's env is set"
cr run --rm "$IMG"
assert_eq "$rc:$out" "0:image-default" "without a program, the image's own runs"

# --- two containers of one image: writes are each one's own, the layers never change
cr run --name one "$IMG" sh -c 'echo written-by-one > /etc/mine; echo written-by-one > /etc/dir/z; rm /etc/fromb; cat /etc/mine'
assert_eq "$rc:$out" "0:written-by-one" "a container writes, overwrites and deletes in its rootfs"
cr run --name two "$IMG" sh -c 'cat /etc/mine 2>&1; cat /etc/dir/z; cat /etc/fromb'
assert_eq "$out" "cat: can't open '/etc/mine': No such file or directory
z
fromb" "a second container of the image sees none of the first one's writes"
assert_eq "$(cd "$STORE/layers" && find . | sort | md5sum)" "$layers_before" "the image's layers have the same files as before"
assert_eq "$(grep -rl written-by-one "$STORE"/layers 2>/dev/null | wc -l)" 0 "no layer holds what the containers wrote"
assert_eq "$(cat "$STORE/layers/$HS_B/root/etc/fromb")" fromb "the file a container deleted is still in its layer"
assert_eq "$(ctrs)" 2 "each stopped container keeps its directory in the store (containers/ID)"
C ps -a >"$T/ps" 2>&1
assert_eq "$(grep -c '^one \|^two ' "$T/ps")" 2 "crib ps -a lists both"
cr rm one
assert_eq "$rc:$(ctrs)" "0:1" "crib rm removes the container's directory"
cr rm two
assert_eq "$rc:$(ctrs)" "0:0" "and the second's"
assert_eq "$(ls "$S" 2>/dev/null | grep -vc '^_')" 0 "and their records"
# the attacker's review: a container that nests its directories deeper than the remover's limit
# (256) kept its directory in the store after crib rm (ELOOP, "nested too deep"), its record
# gone, and crib rmi refused the image for it ever after: now removed however deep
cr run --name deep "$IMG" sh -c 'i=0; while [ $i -lt 700 ]; do mkdir d && cd d || exit 1; i=$((i+1)); done; echo deep > f'
cr rm deep
assert_eq "$rc:$(ctrs)" "0:0" "crib rm removes a container's directory nested 700 deep" || echo "$err" | sed 's/^/#   /'
# a directory crib rm cannot remove (here: a mount on it, root's case) keeps the container's
# record, so that ps -a shows it and a second crib rm removes both; the record went first before,
# and the directory pinned its image with no name left to remove it by
if [ "$ROLE" = root ]; then
	cr run --name stuck "$IMG" true
	d=$(ls "$STORE/containers" | head -n 1)
	mkdir -p "$T/empty" && mount --bind "$T/empty" "$STORE/containers/$d/work" 2>/dev/null ||
		mount --bind "$T/empty" "$STORE/containers/$d/rootfs"
	cr rm stuck
	assert_eq "$rc:$(C ps -a 2>&1 | grep -c '^stuck ')" "125:1" "crib rm that cannot remove the directory fails and keeps the record" || echo "$err" | sed 's/^/#   /'
	umount "$STORE/containers/$d/work" 2>/dev/null || umount "$STORE/containers/$d/rootfs"
	cr rm stuck
	assert_eq "$rc:$(ctrs):$(C ps -a 2>&1 | grep -c '^stuck ')" "0:0:0" "a second crib rm removes the directory and the record" || echo "$err" | sed 's/^/#   /'
fi

# --- --rm, in the foreground and detached
cr run --rm "$IMG" sh -c 'echo x > /x'
assert_eq "$rc:$(ctrs)" "0:0" "--rm removes the directory when the container ends"
name=$(C run -d --rm "$IMG" sleep 1 2>/dev/null)
assert_eq "$(ctrs)" 1 "-d --rm: the directory is there while it runs"
i=0
while [ "$(ctrs)" != 0 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
assert_eq "$(ctrs):$(C ps -a 2>/dev/null | grep -c "^$name ")" "0:0" "-d --rm: directory and record gone when it ends"

# --- root's overlay, as an attacker in the container meets it. Root's containers stack the
# store's layers, host root's files, through idmapped mounts (runtime/steps/idlayers.c): what
# the container's root does to the image's files changes nothing of the layers on disk (names,
# owners, modes, sizes, times, contents, extended attributes), a second container sees none of
# it, and what it writes is its root's on disk (the first id of root's range), never host root's
if [ "$ROLE" = root ]; then
	fp() { # every fact of the layers on disk
		(cd "$STORE/layers" && find . -printf '%p %u:%g %m %s %T@ %y\n' | sort &&
			find . -type f -exec md5sum {} + | sort &&
			getfattr -R -d -m - --absolute-names . 2>/dev/null | sort) | md5sum
	}
	view() { # what a fresh container sees of the files the attacker touches
		cr run --rm "$IMG" sh -c 'cat /etc/fromb /etc/passwd; ls / /etc; ls -ln /etc/dir; stat -c "%u:%g %a %s %Y %n" /etc/group /etc/passwd /etc/dir /bin/busybox'
		echo "$rc"
	}
	fp_before=$(fp)
	view_before=$(view)
	cr run --name atk "$IMG" sh -c '
		chmod 4777 /etc/group; chown 5:5 /etc/group; touch -d "2001-01-01 00:00" /etc/passwd
		echo pwned > /etc/dir/z; echo pwned >> /etc/passwd; echo pwned > /etc/fromb
		chmod 4755 /bin/busybox; mv /etc/fromb /etc/moved; ln /etc/group /etc/group.link
		rm -r /etc/dir; mknod /etc/wh c 0 0 2>/dev/null
		cp /bin/busybox /suid && chmod 4755 /suid; mkdir /newdir && echo new > /newdir/f
		stat -c "%u:%g %a %n" /etc/group /suid /bin/busybox; ls /etc/dir 2>&1; echo done'
	assert_eq "$rc:$out" "0:5:5 777 /etc/group
0:0 4755 /suid
0:0 4755 /bin/busybox
ls: /etc/dir: No such file or directory
done" "a container's root writes, chmods, chowns, renames, links and deletes the image's files" || echo "$err" | sed 's/^/#   /'
	assert_eq "$(fp)" "$fp_before" "the layers on disk are as they were: names, owners, modes, sizes, times, contents, xattrs"
	assert_eq "$(view)" "$view_before" "a second container sees none of it"
	first=$(awk -F: '$1 == "root" {print $2; exit}' /etc/subuid)
	up=$(ls -d "$STORE"/containers/*/upper)
	assert_eq "$(stat -c %u:%g "$up"):$(stat -c '%u:%g %a' "$up/suid"):$(stat -c %u:%g "$up/etc/group")" \
		"$first:$first:$first:$first 4755:$((first + 5)):$((first + 5))" \
		"upper/ and what the container wrote are its root's on disk (root's range from $first), its setuid file not host root's"
	assert_eq "$(stat -c %a:%u "$STORE")" "700:0" "the store is root's 0700: no other user reaches a layer's setuid file, or the container's"
	if id crib-test >/dev/null 2>&1; then
		got=$(setpriv --reuid=crib-test --regid=crib-test --clear-groups sh -c "
			ls '$STORE/layers' >/dev/null 2>&1 && echo layers; cat '$up/suid' >/dev/null 2>&1 && echo upper
			ls '$up/../m' >/dev/null 2>&1 && echo m" 2>&1)
		assert_eq "$got" "" "another user can reach neither a layer nor the container's directory"
	fi
	cr rm atk
	assert_eq "$rc:$(ctrs)" "0:0" "crib rm removes the container's directory, its root's files too"
	# the setup attaches the layers' idmapped mounts only while it makes the overlay: its root
	# could clear their read-only flag (the kernel locks no flag of a tree moved into its mount
	# namespace) and write the store as host root. Stopped before the step after the detach, the
	# setup process has none left; stopped before the detach, it has both (the check can fail)
	if has_hooks; then
		at_step() { # at_step STEP: the idmapped mounts of the setup process, stopped before STEP
			: >"$T/stop.err"
			CRIB_TEST_STOP_AT="$1" "$CRIB_HOOKS" --root "$S" run --rm --trace "$IMG" true </dev/null >/dev/null 2>"$T/stop.err" &
			_crib=$!
			wait_stopped "$T/stop.err"
			_pid=$(grep -o '/proc/[0-9]*/uid_map' "$T/stop.err" | head -n 1 | cut -d/ -f3)
			_n=$(grep -c idmapped "/proc/$_pid/mountinfo" 2>/dev/null)
			echo "${_n:-none}"
			kill -KILL $_crib
			wait $_crib 2>/dev/null
			_i=0
			while [ -e "/proc/$_pid" ] && [ $_i -lt 50 ]; do
				sleep 0.1
				_i=$((_i + 1))
			done
			rm -rf "$STORE"/containers/*
		}
		assert_eq "$(at_step "detach the image's idmapped layers")" 2 "before the detach: the setup has the two layers' idmapped mounts"
		assert_eq "$(at_step "bind the rootfs onto itself")" 0 "after it: none, before any code of the image exists"
	else
		skip "the layers' mounts during the setup: $HOOKS_SKIP"
	fi
fi

# --- the overlay: in the container's mount namespace only, and traced. Root's containers are
# in a user namespace of root's range: their overlay stacks the layers shown through idmapped
# mounts, attached at m/N only while it is made (runtime/steps/idlayers.c); root's with
# user = no stacks them as they are
ov() { cr run "$@" "$IMG" sh -c 'grep -c " / / .* - overlay " /proc/self/mountinfo'; }
long() { C run -d "$IMG" sleep 30 2>/dev/null; }
ov --rm --trace
assert_eq "$rc:$out" "0:1" "the container's / is an overlay"
assert_eq "$(echo "$err" | grep -c "mount the image's layers as an overlay")" 1 "--trace shows the overlay step"
if [ "$ROLE" = root ]; then
	assert_eq "$(echo "$err" | grep -c "gets a copy")" 0 "root's container in a user namespace gets no copy"
	assert_eq "$(echo "$err" | grep -Ec 'fsopen\("overlay"\)|fsconfig\(overlay, FSCONFIG_SET_STRING, "lowerdir", "\.\./m/0:\.\./m/1"\)|"upperdir", "\.\./upper"\) = 0|fsconfig\(overlay, FSCONFIG_SET_FLAG, "userxattr"\)|fsmount\(overlay')" 5 \
		"and its fsopen, fsconfig (lowerdir ../m/0:../m/1, upperdir ../upper: never through root's 0700 store from /, userxattr) and fsmount" || echo "$err" | sed 's/^/#   /'
	assert_eq "$(echo "$err" | grep -Ec 'open_tree\(".*/containers/[0-9a-f]{32}/l/[01]", OPEN_TREE_CLONE\) = [0-9]|mount_setattr\(tree, MOUNT_ATTR_IDMAP\|RDONLY\|NODEV\) = 0')" 4 \
		"crib makes each layer a detached, read-only mount idmapped with the container's user namespace" || echo "$err" | sed 's/^/#   /'
	assert_eq "$(echo "$err" | grep -Ec 'move_mount\(layer [01], "\.\./m/[01]"\) = 0|umount2\("\.\./m/[01]", MNT_DETACH\) = 0')" 4 \
		"the setup attaches them at m/0 and m/1 for the overlay, and detaches them right after it" || echo "$err" | sed 's/^/#   /'
	# user = no: no user namespace, the layers as they are, by their absolute paths
	printf '[container]\nimage = %s\n[namespaces]\nuser = no\n[process]\nargs = %s\n' "$IMG" \
		"sh -c 'grep -c \" / / .* - overlay \" /proc/self/mountinfo'" >"$T/ov.ini"
	cr run --rm --trace "$T/ov.ini"
	assert_eq "$rc:$out:$(echo "$err" | grep -Ec 'fsconfig\(overlay, FSCONFIG_SET_STRING, "lowerdir", "/.*/l/0:/.*/l/1"\) = 0|skipped: no layers of an image to idmap')" "0:1:2" \
		"root's user = no: an overlay of the layers by their paths, nothing idmapped" || echo "$err" | sed 's/^/#   /'
else
	assert_eq "$(echo "$err" | grep -Ec 'fsopen\("overlay"\)|fsconfig\(overlay, FSCONFIG_SET_STRING, "lowerdir", ".*/l/0:.*/l/1"\)|fsconfig\(overlay, FSCONFIG_SET_FLAG, "userxattr"\)|fsmount\(overlay')" 4 \
		"and its fsopen, fsconfig (lowerdir l/0:l/1, userxattr) and fsmount" || echo "$err" | sed 's/^/#   /'
fi
# --rm: the directory goes with the container, so overlayfs need not sync upper/ at its end
assert_eq "$(echo "$err" | grep -c 'fsconfig(overlay, FSCONFIG_SET_FLAG, "volatile") = 0'):$(ctrs)" "1:0" \
	"with --rm the overlay is volatile, and its directory (work/incompat/volatile too) is gone"
ov --name kept --trace
assert_eq "$rc:$out:$(echo "$err" | grep -c '"volatile"')" "0:1:0" \
	"a container that stays is not volatile: what it wrote is synced as any file"
C rm kept >/dev/null 2>&1
assert_eq "$(ctrs)" 0 "and crib rm removes it"
idmapped_before=$(grep -c idmapped /proc/self/mountinfo)
name=$(long)
assert_eq "$(ctrs):$(grep -c "$STORE" /proc/self/mountinfo):$(grep -c idmapped /proc/self/mountinfo)" "1:0:$idmapped_before" \
	"while it runs, the host's mount table has no overlay of the store, and no idmapped mount more"
C exec "$name" cat /proc/self/mountinfo >"$T/mi" 2>&1
assert_eq "$(grep -c ' - overlay ' "$T/mi"):$(grep -c idmapped "$T/mi")" "1:0" \
	"inside: the overlay alone, no layer's mount left" || sed 's/^/#   /' "$T/mi"
# (a user's overlay names its own store by its paths, where they fit)
[ "$ROLE" = root ] && assert_eq "$(grep -c "$STORE" "$T/mi")" 0 "root's: its options name no host path of the store"
C rm -f "$name" >/dev/null 2>&1
assert_eq "$(ctrs)" 0 "crib rm -f of a running container removes its directory"

# an image of 40 layers: more than one fsconfig(2) value (255 bytes) holds even as
# "../l/0:../l/1:...": each layer is given as "lowerdir+" (Linux 6.8), or a copy is made
if make_many "$STORE" 40; then
	cr run --rm --trace test.local/many:1 cat /etc/gone
	L=l
	[ "$ROLE" = root ] && L=m # root's: idmapped, at m/N
	kernel=$(uname -r)
	case "$kernel" in
	[0-5].* | 6.[0-7].* | 6.[0-7]) assert_eq "$rc:$out:$(echo "$err" | grep -c 'gets a copy')" "0:gone:1" "40 layers on Linux $kernel: a copy, said" ;;
	*) assert_eq "$rc:$out:$(echo "$err" | grep -c "FSCONFIG_SET_STRING, \"lowerdir+\", \"../$L/39\") = 0")" "0:gone:1" "40 layers: each one as lowerdir+ (../$L/N), and the container sees them" ;;
	esac
	layers_before=$(cd "$STORE/layers" && find . | sort | md5sum)
fi

# --- the flags: each one's effect, from inside
mkdir -p "$T/vol"
echo volfile >"$T/vol/f"
chmod -R a+rX "$T/vol"
printf 'A=1\n# a comment\nB=two words\n' >"$T/envf"
cr run --rm -e X=1 -e FROM_IMAGE=no --env-file "$T/envf" -v "$T/vol:/mnt:ro" -w /etc -u 33:33 --read-only "$IMG" \
	sh -c 'echo "$X $FROM_IMAGE $A $B"; pwd; id -u; id -g; cat /mnt/f; touch /x 2>&1; touch /mnt/y 2>&1'
assert_eq "$out" "1 no 1 two words
/etc
33
33
volfile
touch: /x: Read-only file system
touch: /mnt/y: Read-only file system" "-e, --env-file, -v :ro, -w, -u and --read-only take effect"
cr run --rm -v "$T/vol:/mnt" "$IMG" sh -c 'cat /mnt/f'
assert_eq "$rc:$out" "0:volfile" "-v without :ro binds the host's directory"

# --memory and --pids-limit: the container's cgroup, read from outside; where the controllers
# are not cgroup v2's here, the error names the flag
cr run -d --memory 64M --pids-limit 50 "$IMG" sleep 30
if [ "$rc" = 0 ]; then
	name=$out
	pid=$(C ps 2>/dev/null | awk -v n="$name" '$1 == n {print $3}')
	cg=$(awk -F: '$1 == "0" {print $3}' "/proc/$pid/cgroup" 2>/dev/null)
	assert_eq "$(cat "/sys/fs/cgroup$cg/memory.max" 2>/dev/null):$(cat "/sys/fs/cgroup$cg/pids.max" 2>/dev/null)" \
		"67108864:50" "--memory and --pids-limit are the container's cgroup's memory.max and pids.max"
	C rm -f "$name" >/dev/null 2>&1
else
	assert_eq "$rc:$(echo "$err" | grep -c "^crib: --memory '64M': ")" "125:1" "--memory where the controller is not cgroup v2's: 125, naming the flag"
	cr run --rm --pids-limit 50 "$IMG" true
	case "$rc" in
	0) ok 0 "--pids-limit runs" ;;
	*) assert_eq "$rc:$(echo "$err" | grep -c "^crib: --pids-limit '50': ")" "125:1" "--pids-limit refused the same way" ;;
	esac
	echo "# skip: the limits' effect: no cgroup v2 memory controller here ($(echo "$err" | head -n 1))"
fi

# -p: a published port, read with wget from the host
if { [ -x /usr/bin/pasta ] || [ -x /usr/bin/slirp4netns ]; } && { [ "$ROLE" = root ] || { [ -r /dev/net/tun ] && [ -w /dev/net/tun ]; }; } && command -v wget >/dev/null; then
	port=$((30000 + ($$ % 3000) * 3))
	cr run -d -p "127.0.0.1:$port:8080" "$IMG" sh -c 'mkdir /www; echo page-of-image > /www/index.html; exec httpd -f -p 8080 -h /www'
	name=$out
	got=
	i=0
	while [ -z "$got" ] && [ $i -lt 30 ]; do
		got=$(wget -qO- "http://127.0.0.1:$port/" 2>/dev/null)
		[ -n "$got" ] || sleep 0.2
		i=$((i + 1))
	done
	assert_eq "$rc:$got" "0:page-of-image" "-p publishes the container's port on the host"
	C rm -f "$name" >/dev/null 2>&1
else
	echo "# skip: -p: no network helper, /dev/net/tun or wget here"
fi

# the attacker's review: a file or directory named as the image in the working directory won over
# the store ("a file of that name wins"), so root's `crib run test.local/img:1` in a directory
# another user may write (/tmp, a shared one) ran that user's spec, `user = no` and a bind of
# /root, as host root. A name that reads as an image is a spec only where it is the caller's
# own (./NAME or a path says so whoever owns it)
if [ "$ROLE" = root ] && id crib-test >/dev/null 2>&1; then
	mkdir "$T/shared" && chmod 1777 "$T/shared"
	printf '[container]\nrootfs = %s\nreadonly_rootfs = yes\n[namespaces]\nuser = no\n[process]\nargs = /bin/sh -c "echo planted-spec-ran-as-$(id -u)"\n' "$ROOTFS" >"$T/planted.ini"
	chmod 644 "$T/planted.ini"
	# as crib-test would make them (who may not reach $T here): theirs
	mkdir "$T/shared/test.local" && cp "$T/planted.ini" "$T/shared/$IMG" && chown -R crib-test: "$T/shared/test.local"
	cd "$T/shared"
	cr run --rm "$IMG"
	assert_eq "$rc:$out" "0:image-default" "another user's file named as the image in the working directory is not run as a spec" || echo "$err" | sed 's/^/#   /'
	cp "$T/planted.ini" "$T/shared/mine:1"
	cr run --rm mine:1
	assert_eq "$rc:$out" "0:planted-spec-ran-as-0" "the caller's own file of that name is still a spec"
	cr run --rm "./$IMG"
	assert_eq "$rc:$out" "0:planted-spec-ran-as-0" "and ./NAME says a file, whoever's it is"
	cd "$OLDPWD"
fi

# --- --print-spec: the INI crib run uses, which runs as a spec
cr run --print-spec -e P=printed -e 'Q=a"b\c#d;e' -w /etc "$IMG" sh -c 'echo $P; pwd'
assert_eq "$rc:$(echo "$out" | grep -c "^image = \"$IMG\"")" "0:1" "--print-spec writes a spec naming the image"
printf "%s\n" "$out" >"$T/printed.ini"
assert_eq "$(ctrs)" 0 "--print-spec makes no container"
cr run --rm "$T/printed.ini" -- sh -c 'echo $P; pwd; echo "$Q"'
assert_eq "$rc:$out" '0:printed
/etc
a"b\c#d;e' "and that spec runs, with the flags' keys (a value's quote, backslash, # and ; kept)" || echo "$err" | sed 's/^/#   /'

# --- bad flags: 125, the flag named, nothing made
bad() { # bad WANT DESCRIPTION ARGS...
	_want=$1 _what=$2
	shift 2
	cr run "$@"
	assert_eq "$rc:$(nocopy "$err" | head -n 1 | grep -cF -- "$_want")" "125:1" "$_what" || echo "$err" | sed 's/^/#   /'
}
bad "-u 'bob'" "-u with a name is refused, naming the flag" -u bob "$IMG" true
bad "-v '/x'" "-v without a destination is refused" -v /x "$IMG" true
# the attacker's review: podman reads -v NAME:DST as a named volume; crib took NAME in the working
# directory, so root's `crib run -v data:/mnt` in /tmp bound what another user put there (a
# symlink to /root was followed): a bare name is refused, ./NAME is the working directory's
bad "-v 'data:/mnt': 'data' is no path" "-v with a bare name (podman's named volume) is refused" -v data:/mnt "$IMG" true
bad "--memory 'lots'" "--memory with a bad size is refused" --memory lots "$IMG" true
bad "-w 'rel'" "-w with a relative directory is refused" -w rel "$IMG" true
bad "-p '99999:80'" "-p with a bad port is refused" -p 99999:80 "$IMG" true
bad "--network 'bogus'" "--network with an unknown mode is refused" --network bogus "$IMG" true
bad "-e: its value has a control character" "-e with a newline cannot add a line to the spec" -e "$(printf 'A=1\n[security]')" "$IMG" true
bad "-e is not UTF-8" "-e with a value that is not UTF-8 is refused (a spec holds UTF-8)" -e "$(printf 'A=\377')" "$IMG" true
bad "unknown option '--bogus'" "an unknown flag is refused" --bogus "$IMG" true
# the attacker's review: --env-file read a line 4095 bytes at a time, and cut it at a '\r' or a
# NUL byte: a value with either, then padding to 4095 bytes, left its tail to be read as a variable of its own
# (a value an attacker chose set another, such as LD_PRELOAD); refused now, naming the line
pad=$(head -c 4087 /dev/zero | tr '\0' x)
printf 'A=ok\rpad%sINJECTED=cr\n' "$pad" >"$T/envcr"
{ printf 'A=ok'; head -c 1 /dev/zero; printf 'pad%sINJECTED=nul\n' "$pad"; } >"$T/envnul"
for _f in envcr envnul; do
	cr run --rm --env-file "$T/$_f" "$IMG" sh -c 'echo "${INJECTED:-none}"'
	assert_eq "$rc:$(echo "$out" | grep -c '^cr$\|^nul$'):$(echo "$err" | grep -cF "'$T/$_f' line 1")" "125:0:1" \
		"--env-file: a line cut at a $_f and padded sets no variable of its tail; refused, naming the line" || echo "$err" | sed 's/^/#   /'
done
bad "'-e' is for 'crib run IMAGE'" "an image's flag with a spec is refused" -e A=1 "$T/printed.ini"
bad "no image 'nosuch.local/x:1'" "an image the store has not is refused" nosuch.local/x:1 true
printf '[container]\nimage = %s\nrootfs = %s\n[process]\nargs = true\n' "$IMG" "$ROOTFS" >"$T/both.ini"
bad "both 'rootfs' and 'image'" "a spec with both rootfs and image is refused" "$T/both.ini"
assert_eq "$(ctrs):$(ls "$STORE/tmp" 2>/dev/null | wc -l)" "0:0" "the refused runs left nothing in the store"

# the attacker's review: crib run took no lock on the store, so a remover at the same time (crib
# image prune, which removes tmp/ entries no process holds, images no container uses and the
# layers no image lists; crib rmi) removed its tmp/ctr-ID while it was made, or the image's
# layers between the lookup and containers/ID: it holds store.lock shared while it makes them
if command -v flock >/dev/null 2>&1; then
	flock -x "$STORE/store.lock" sh -c 'sleep 2; ls "$1/containers" "$1/tmp" 2>/dev/null | grep -c "^[0-9a-f]\{32\}$\|^ctr-" >"$2"' sh "$STORE" "$T/held" &
	fpid=$!
	sleep 0.5
	cr run --rm "$IMG" true
	wait $fpid
	assert_eq "$rc:$(cat "$T/held")" "0:0" "crib run makes no container directory while a remover holds store.lock"
	assert_eq "$(ctrs)" 0 "and runs once it is free (--rm removed it)"
fi

# --- the copy, where root's container cannot have its overlay: a kernel before 5.19 (setarch's
# --uname-2.6 makes crib read 2.6), and a store whose filesystem takes no idmapped mounts
# (overlayfs: EINVAL, tried with a user namespace made for the question)
if [ "$ROLE" = root ]; then
	if command -v setarch >/dev/null 2>&1; then
		CRIB_STORE=$STORE setarch "$(uname -m)" --uname-2.6 "$CRIB" --root "$S" run --rm "$IMG" cat /etc/fromb >"$T/old.out" 2>"$T/old.err"
		assert_eq "$?:$(cat "$T/old.out"):$(grep -c "gets a copy of the image's layers, 4.0 MB written (an overlay writes none): this kernel (2.6) mounts no overlayfs over idmapped layers, which root's containers in a user namespace need (Linux 5.19)" "$T/old.err")" \
			"0:fromb:1" "Linux before 5.19: root's container gets a copy, said once with its cost and why" || sed 's/^/#   /' "$T/old.err"
	else
		skip "a kernel before 5.19: no setarch here"
	fi
	mkdir -p "$T/ovfs/l" "$T/ovfs/u" "$T/ovfs/w" "$T/ovfs/m"
	unshare -m --propagation private sh -c '
		mount -t overlay none -o "lowerdir=$1/l,upperdir=$1/u,workdir=$1/w" "$1/m" || exit 9
		# (overlayfs makes no 0:0 device, a whiteout of its own: the copy goes without
		# /etc/gone, which is not looked at)
		cp -a "$2/." "$1/m/store" 2>/dev/null
		chmod 700 "$1/m/store" && [ -f "$1/m/store/names/test.local+img:1" ] || exit 9
		CRIB_STORE=$1/m/store "$3" --root "$4" run --rm "$5" sh -c "cat /etc/fromb; ls /etc/dir"' \
		sh "$T/ovfs" "$STORE" "$CRIB" "$S" "$IMG" >"$T/ovfs.out" 2>"$T/ovfs.err"
	case $? in
	9) skip "a store on overlayfs: cannot mount one here ($(head -n 1 "$T/ovfs.err"))" ;;
	*) assert_eq "$(cat "$T/ovfs.out"):$(grep -c "gets a copy of the image's layers.*: the image store's filesystem takes no idmapped mounts (Invalid argument)" "$T/ovfs.err")" \
		"fromb
z:1" "a store on a filesystem without idmapped mounts (overlayfs): a copy, said why, and the image as it is" || sed 's/^/#   /' "$T/ovfs.err" ;;
	esac
	assert_eq "$(grep -c "$T/ovfs" /proc/self/mountinfo)" 0 "and nothing of it mounted on the host"
fi
if has_hooks; then
	H() { CRIB_TEST_IMAGE_COPY=1 "$CRIB_HOOKS" --root "$S" "$@"; }
	H run --name c1 "$IMG" sh -c 'echo c1 > /etc/mine; ls /etc/dir; cat /etc/gone' >"$T/c1" 2>"$T/c1.err"
	assert_eq "$(cat "$T/c1")" "z" "a copy: the whiteout and the opaque directory applied"
	assert_eq "$(grep -c "CRIB_TEST_IMAGE_COPY is set" "$T/c1.err")" 1 "a copy says why"
	assert_eq "$(ls "$STORE"/containers/*/ | grep -c rootfs)" 1 "a copy is containers/ID/rootfs"
	H run --name c2 "$IMG" sh -c 'cat /etc/mine 2>&1; stat -c %u:%g /etc/fromb' >"$T/c2" 2>/dev/null
	assert_eq "$(cat "$T/c2")" "cat: can't open '/etc/mine': No such file or directory
33:33" "a second copy sees none of the first one's writes, and the layers' owners"
	assert_eq "$(cd "$STORE/layers" && find . | sort | md5sum)" "$layers_before" "the layers are as they were"
	H rm c1 c2
	assert_eq "$?:$(ctrs)" "0:0" "crib rm removes the copies (the files of the container's ids too)"
else
	echo "# skip: the copy: $HOOKS_SKIP"
fi

# --- an image crib image import put in the store (crib-image's writer): the same overlay
if "$CRIB" image platform >/dev/null 2>&1; then
	PLATFORM=$("$CRIB" image platform)
	OS=${PLATFORM%%/*} rest=${PLATFORM#*/}
	ARCH=${rest%%/*} VARIANT=
	[ "$rest" != "$ARCH" ] && VARIANT=${rest#*/}
	mkdir -p "$T/real/l2/etc" "$T/real/img"
	echo real >"$T/real/l2/etc/real"
	: >"$T/real/l2/.wh.gone"
	echo gone >"$T/real/gone"
	tar --numeric-owner --owner=0 --group=0 -cf "$T/real/l1.tar" -C "$ROOTFS" --exclude ./root . 2>/dev/null
	(cd "$T/real/l2" && tar --numeric-owner --owner=0 --group=0 -cf "$T/real/l2.tar" .)
	tar --numeric-owner --owner=0 --group=0 -rf "$T/real/l1.tar" -C "$T/real" ./gone
	ids= ls=
	for l in l1 l2; do
		h=$(sha256sum "$T/real/$l.tar" | cut -d' ' -f1)
		mkdir -p "$T/real/img/$h" && cp "$T/real/$l.tar" "$T/real/img/$h/layer.tar"
		ids="$ids${ids:+,}\"sha256:$h\"" ls="$ls${ls:+,}\"$h/layer.tar\""
	done
	echo "{\"architecture\":\"$ARCH\",\"os\":\"$OS\"${VARIANT:+,\"variant\":\"$VARIANT\"},\"config\":{\"Cmd\":[\"/bin/sh\"]},\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[$ids]}}" >"$T/real/img/config"
	c=$(sha256sum "$T/real/img/config" | cut -d' ' -f1)
	mv "$T/real/img/config" "$T/real/img/$c.json"
	echo "[{\"Config\":\"$c.json\",\"RepoTags\":[],\"Layers\":[$ls]}]" >"$T/real/img/manifest.json"
	tar -cf "$T/real/image.tar" -C "$T/real/img" .
	run_crib image import --name test.local/real:1 "$T/real/image.tar"
	if [ "$rc" = 0 ]; then
		cr run --name r1 test.local/real:1 sh -c 'cat /etc/real; cat /gone 2>&1; echo r1 > /etc/real; cat /etc/real'
		assert_eq "$rc:$out" "0:real
cat: can't open '/gone': No such file or directory
r1" "an imported image runs, its whiteout applied, and its container writes"
		cr run --rm test.local/real:1 cat /etc/real
		assert_eq "$rc:$out" "0:real" "a second container of the imported image sees the image's file"
		run_crib rmi test.local/real:1
		assert_eq "$rc:$(ls "$STORE/images" | wc -l)" "125:3" "crib rmi refuses an image a container (containers/ID/container.json) uses"
		cr rm r1
		assert_eq "$rc:$(ctrs)" "0:0" "crib rm removes the imported image's container"
		run_crib rmi test.local/real:1
		assert_eq "$rc" 0 "crib rmi then removes the image"
		run_crib image prune
	else
		echo "# skip: crib image import into the store failed: $(echo "$err" | head -n 1)"
	fi
else
	echo "# skip: an imported image: crib-image is not built"
fi

# --- a store whose path overlayfs's options cannot hold: refused with the way out, nothing made
if [ "$ROLE" != root ] && make_store "$T/st,ore" "$ROOTFS"; then
	CRIB_STORE="$T/st,ore" run_crib --root "$S" run --rm "$IMG" true
	assert_eq "$rc:$(echo "$err" | grep -c "has a ',', ':' or '.'"):$(echo "$err" | grep -c 'hint: .*CRIB_STORE=DIR')" "125:1:1" \
		"a store path with ',' is refused, with a hint to another store" || echo "$err" | sed 's/^/#   /'
	assert_eq "$(ls "$T/st,ore/containers" 2>/dev/null | wc -l)" 0 "and no container directory is left"
	unshare --map-auto --map-root-user rm -rf "$T/st,ore" 2>/dev/null
fi

done_testing
