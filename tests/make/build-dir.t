#!/bin/sh
# The build directory make leaves (issue 32, bug 8): its programs are every user's to run, its
# test rootfs its owner's alone. `sudo make check` used to make all of BUILD 0700 (crib refuses a
# writable rootfs other users can reach), and the same user's build/crib then failed with
# "Permission denied"; the rootfs now lives in BUILD/private (the Makefile).
# tests/run-all runs this once, on the checkout's own BUILD (the end-to-end tests run on a
# staged copy in /tmp, which cannot show it): as root it looks through crib-test's eyes
# (setpriv), as a user through its own and at the modes. BUILD is the build directory, ROOTFS its
# test rootfs, CRIB its crib.
. "$(dirname "$0")/../lib/libtest.sh"

: "${BUILD:?set by tests/run-all}"
other=crib-test
# (through env: setpriv's own execve(2) still has root's capabilities, and would pass where the
# user cannot; env's runs as the user alone)
as_other() { setpriv --reuid=$other --regid=$other --init-groups --reset-env env "$@"; }
version=$("$CRIB" version)

assert_eq "$(test -x "$ROOTFS/bin/busybox" && echo yes)" yes "the test rootfs is there ($ROOTFS)"
mode=$(stat -c %a "$BUILD")
assert_eq "$(((0$mode & 05) == 05))" 1 "other users may enter and read BUILD (mode $mode)"
priv=$(dirname "$ROOTFS")
assert_eq "$(stat -c '%a %U' "$priv")" "700 $(id -un)" \
	"the rootfs's directory is its owner's alone ($priv)"

if [ "$ROLE" != root ]; then
	skips 3 "only root can look as another user ($other); this run is as $(id -un)"
elif ! id $other >/dev/null 2>&1; then
	skips 3 "no user $other (tests/run-all creates it)"
elif ! as_other test -x "$(dirname "$BUILD")"; then
	skips 3 "the checkout itself is out of $other's reach ($(dirname "$BUILD"))"
else
	out=$(as_other "$BUILD/crib" version 2>&1)
	assert_eq "$?:$out" "0:$version" "$other runs BUILD/crib, which root's make built"
	if [ -x "$BUILD/crib-image" ]; then
		out=$(as_other "$BUILD/crib" image platform 2>&1)
		assert_eq "$?" 0 "... and crib image, which runs BUILD/crib-image ($out)"
	else
		skip "no BUILD/crib-image (libarchive-dev and libssl-dev missing at make time)"
	fi
	out=$(as_other ls "$ROOTFS" 2>&1)
	assert_eq "$?:$out" "2:ls: cannot access '$ROOTFS': Permission denied" \
		"the test rootfs stays out of $other's reach"
fi

spec "$T/s.ini" <<'EOF'
[process]
args = /bin/sh -c 'echo in-the-build-rootfs'
EOF
run_crib run "$T/s.ini"
assert_eq "$rc:$out:$err" "0:in-the-build-rootfs:" "crib runs a container on BUILD's rootfs (not refused as reachable)"

# a build directory is never a mix of two makes' flags (BUILD/.config): an object made by a
# plain make is made again by a make with DEB=yes or other CFLAGS, and not by the same make
top=$(cd "$(dirname "$0")/../.." && pwd)
if command -v make >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1; then
	mk() { make -s -C "$top" BUILD="$T/b" "$@" "$T/b/runtime/base/words.o" >"$T/make.out" 2>&1; }
	mk
	assert_eq "$?:$(grep -c '^CC=.* DEB= ' "$T/b/.config" 2>/dev/null)" 0:1 "make records its flags in BUILD/.config"
	mk -q
	a=$?
	mk -q DEB=yes
	b=$?
	mk DEB=yes
	mk -q DEB=yes
	c=$?
	mk -q CFLAGS=-O0
	d=$?
	assert_eq "$a $b $c $d" "0 1 0 1" "make -q: the same flags: up to date; DEB=yes after a plain make: to be made again; made so, DEB=yes: up to date; other CFLAGS: made again"
else
	skip "no make and gcc here: the build directory's flags are checked where they are"
fi
done_testing
