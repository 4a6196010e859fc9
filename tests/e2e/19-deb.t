#!/bin/sh
# The Debian packages (issues 19 and 32): what make deb writes to build/deb (rootfs-tools/mkdeb),
# staged by tests/run-all as DEBS; make check makes the host's, make deb every architecture's.
# Each architecture's crib_VERSION_ARCH.deb: its fields; it recommends what crib runs on the host
# (newuidmap from uidmap, pasta or slirp4netns, nft) and crib-scope, and depends on nothing;
# crib, crib-image (`crib image`, issue 32: it was missing) and the copyright file are in it.
# crib-scope_VERSION_ARCH.deb and crib-pull_VERSION_ARCH.deb: crib-scope, crib-pull, Depends from
# dpkg-shlibdeps. Their programs are the
# architecture's (readelf: machine, float ABI, armel's crib ARMv5TE, crib-scope's dynamic
# linker), crib and crib-image static; with qemu-user, crib and crib-image run on the board's
# CPU (armel: a Pi Zero's ARM1176). The host's: dpkg installs crib into a scratch root (as root,
# and as the user with --force-not-root); the installed crib imports an OCI image the test makes
# from the test rootfs, with the crib-image beside it in /usr/lib/crib, and runs it; crib-scope
# runs on the host's libraries, which meet its Depends; removing crib keeps its conffiles (the
# AppArmor profiles), purging leaves nothing. lintian finds nothing to say of them. Not in the VM
# guests: they have no packages.
. "$(dirname "$0")/../lib/libtest.sh"

if [ -z "${DEBS:-}" ] || ! ls "$DEBS"/crib_*.deb >/dev/null 2>&1; then
	echo "1..0 # SKIP no packages in DEBS (make check makes the host's, make deb all; the VM guests have none)"
	exit 0
fi
for tool in dpkg dpkg-deb readelf tar gzip sha256sum; do
	command -v $tool >/dev/null || {
		echo "1..0 # SKIP $tool is not installed"
		exit 0
	}
done
host=$(dpkg --print-architecture)

# elf FILE: "MACHINE [FLOAT-ABI] LOADER" of a program (LOADER: static, or its dynamic linker)
elf() {
	_m=$(readelf -h "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p')
	_f=$(readelf -h "$1" 2>/dev/null | sed -n 's/^ *Flags:.* \([a-z]*-float\) ABI.*/\1/p')
	_i=$(readelf -l "$1" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
	echo "$_m${_f:+ $_f} ${_i:-static}"
}
# qemu_run ARCH PROGRAM ARGS...: PROGRAM under qemu-user, on the CPU of ARCH's smallest board
qemu_run() {
	case $1 in
	armel) _q="qemu-arm -cpu arm1176" ;;       # Pi Zero, Zero W, 1
	armhf) _q="qemu-arm -cpu cortex-a7" ;;     # Pi 2
	arm64) _q="qemu-aarch64 -cpu cortex-a53" ;; # Pi 3
	esac
	shift
	# shellcheck disable=SC2086 # the command and its -cpu
	timeout 60 $_q "$@"
}

for deb in "$DEBS"/crib_*.deb; do
	name=$(basename "$deb" .deb)
	a=${name##*_} v=${name#crib_}
	v=${v%_*}
	assert_eq "$(dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ')" \
		"Package: crib Version: $v Architecture: $a " "$a: crib's control fields"
	assert_eq "$(dpkg-deb -f "$deb" Recommends)" "uidmap, passt | slirp4netns, nftables, crib-scope (= $v), crib-pull (= $v)" \
		"$a: crib recommends newuidmap's, the network helpers' and nft's packages, crib-scope and crib-pull"
	assert_eq "$(dpkg-deb -f "$deb" Depends Pre-Depends)" "" "$a: crib depends on nothing (its programs are static)"
	files=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '/$' | sort | tr '\n' ' ')
	for f in ./usr/bin/crib ./usr/lib/crib/crib-image ./usr/share/doc/crib/copyright \
		./usr/share/doc/crib/changelog.Debian.gz ./usr/share/man/man1/crib.1.gz \
		./usr/share/man/man5/crib.ini.5.gz ./etc/apparmor.d/crib ./etc/apparmor.d/crib-default \
		./usr/share/doc/crib/examples/example.ini ./usr/share/crib/rootfs-tools/mkrootfs; do
		assert_contains "$files" "$f " "$a: crib has $f"
	done
	scope=$DEBS/crib-scope_${v}_$a.deb
	fields=$(dpkg-deb -f "$scope" Package Version Architecture 2>&1 | tr '\n' ' ')
	assert_eq "$fields" "Package: crib-scope Version: $v Architecture: $a " "$a: crib-scope's package is there"
	deps=$(dpkg-deb -f "$scope" Depends 2>&1)
	assert_eq "$(echo "$deps" | sed 's/([>=]* [^)]*)/(V)/g')" "libc6 (V), libsystemd0 (V), crib (V)" \
		"$a: crib-scope depends on libc6 and libsystemd0 (the versions dpkg-shlibdeps found) and crib ($deps)"
	assert_contains "$deps" "crib (= $v)" "$a: ... and on this crib"
	assert_contains "$(dpkg-deb -c "$scope" 2>&1 | awk '{print $6}' | tr '\n' ' ')" \
		"./usr/lib/crib/crib-scope " "$a: crib-scope has ./usr/lib/crib/crib-scope"

	pull=$DEBS/crib-pull_${v}_$a.deb
	if [ -e "$pull" ]; then
		deps=$(dpkg-deb -f "$pull" Depends 2>&1)
		assert_eq "$(echo "$deps" | sed 's/([>=]* [^)]*)/(V)/g')" "libc6 (V), libcurl4 (V), libssl3 (V), crib (V)" \
			"$a: crib-pull depends on libc6, libcurl4 and libssl3 (dpkg-shlibdeps's versions) and crib ($deps)"
		assert_contains "$(dpkg-deb -c "$pull" 2>&1 | awk '{print $6}' | tr '\n' ' ')" \
			"./usr/lib/crib/crib-pull " "$a: crib-pull has ./usr/lib/crib/crib-pull"
	else
		skips 2 "$a: no crib-pull package (make deb says why: the $a libcurl was missing)"
	fi

	x=$T/x-$a
	mkdir -p "$x"
	dpkg-deb -x "$deb" "$x" && dpkg-deb -x "$scope" "$x" 2>/dev/null
	case $a in
	amd64) m="Advanced Micro Devices X86-64" ld=/lib64/ld-linux-x86-64.so.2 ;;
	arm64) m=AArch64 ld=/lib/ld-linux-aarch64.so.1 ;;
	armhf) m="ARM hard-float" ld=/lib/ld-linux-armhf.so.3 ;;
	armel) m="ARM soft-float" ld=/lib/ld-linux.so.3 ;;
	*) m="an architecture this test knows" ld= ;;
	esac
	assert_eq "$(elf "$x/usr/bin/crib")" "$m static" "$a: crib is $m, static"
	assert_eq "$(elf "$x/usr/lib/crib/crib-image")" "$m static" "$a: crib-image is $m, static"
	assert_eq "$(elf "$x/usr/lib/crib/crib-scope")" "$m $ld" "$a: crib-scope is $m, linked by $ld"
	case $a in
	armel) assert_eq "$(readelf -A "$x/usr/bin/crib" | sed -n 's/.*Tag_CPU_arch: //p')" v5TE \
		"armel: crib is ARMv5TE code, which every Raspberry Pi runs" ;;
	armhf) assert_eq "$(readelf -A "$x/usr/bin/crib" | sed -n 's/.*Tag_CPU_arch: //p')" v7 "armhf: crib is ARMv7 code" ;;
	esac
	case $a in
	armel | armhf) q=qemu-arm ;;
	arm64) q=qemu-aarch64 ;;
	*) q= ;;
	esac
	if [ -n "$q" ] && command -v $q >/dev/null; then
		want=$(case $a in armel) echo linux/arm/v6 ;; armhf) echo linux/arm/v7 ;; arm64) echo linux/arm64/v8 ;; esac)
		out=$(qemu_run "$a" "$x/usr/bin/crib" version 2>&1)
		assert_eq "$?:$out" "0:crib ${v%-*}" "$a: crib runs on the board's CPU ($q)"
		out=$(qemu_run "$a" "$x/usr/lib/crib/crib-image" platform 2>&1)
		assert_eq "$?:$out" "0:$want" "$a: crib-image runs on the board's CPU and names it"
	elif [ -n "$q" ]; then
		skips 2 "$a: $q is not installed (qemu-user, rootfs-tools/install-deps deb)"
	fi
	grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/$' \
		"$x/usr/share/doc/crib/copyright"
	ok $? "$a: the copyright file is machine-readable (DEP-5)"
	assert_eq "$(grep -c '^Copyright: [0-9-]* the crib developers$\|^Files: \*$\|^License: ' \
		"$x/usr/share/doc/crib/copyright")" 4 "$a: ... with a Files paragraph, a copyright notice and its license"
	cmp -s "$x/usr/share/doc/crib/copyright" "$x/usr/share/doc/crib-scope/copyright"
	ok $? "$a: crib-scope carries the same copyright file"
done

# --- the host's package, installed into a scratch root: dpkg's own database there, maintainer
# scripts run outside it (as the user too: --force-not-root; dpkg wants ldconfig on its PATH)
deb=
for f in "$DEBS"/crib_*_"$host".deb; do
	[ -e "$f" ] && deb=$f
done
if [ -z "$deb" ]; then
	skip "no package for this machine ($host) in DEBS"
	done_testing
	exit
fi
v=$(dpkg-deb -f "$deb" Version)
R=$T/root
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"
: >"$R/var/lib/dpkg/status"
asuser=
[ "$ROLE" = user ] && asuser=--force-not-root
pkg() { PATH=$PATH:/usr/sbin:/sbin dpkg $asuser --root="$R" --force-script-chrootless --log=/dev/null "$@"; }
pkg -i "$deb" >"$T/dpkg.out" 2>&1
assert_eq "$?" 0 "dpkg installs $host's crib into a scratch root ($(tail -n 1 "$T/dpkg.out"))"
assert_eq "$(pkg -s crib 2>/dev/null | sed -n 's/^Status: //p')" "install ok installed" "dpkg says it is installed"
crib=$R/usr/bin/crib
assert_eq "$("$crib" version)" "crib ${v%-*}" "the installed crib runs"
assert_contains "$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./etc/apparmor.d/crib)" \
	"@{crib}=/usr/bin/crib" "the crib profile names the installed path"

run_installed() { # run_installed ARGS...: the installed crib, as run_crib
	out=$("$crib" "$@" 2>"$T/.stderr" </dev/null)
	rc=$?
	err=$(strip_aa <"$T/.stderr")
}
# an OCI layout: the test rootfs as one gzip layer, a config that runs a shell line
PLATFORM=$("$crib" image platform 2>&1)
assert_eq "$?" 0 "crib image runs the packaged crib-image, from /usr/lib/crib ($PLATFORM)"
OS=${PLATFORM%%/*} rest=${PLATFORM#*/}
ARCH=${rest%%/*} VARIANT=
[ "$rest" != "$ARCH" ] && VARIANT=${rest#*/}
O=$T/oci
mkdir -p "$O/blobs/sha256"
echo '{"imageLayoutVersion":"1.0.0"}' >"$O/oci-layout"
# (as the test user, root's 0700 /root of the test rootfs is not readable: left out)
tar -C "$ROOTFS" --exclude=./root --numeric-owner --owner=0 --group=0 -cf "$T/layer.tar" .
gzip -n -c "$T/layer.tar" >"$T/layer.gz"
blob() { # blob FILE: FILE into the layout's blobs, its digest and size printed
	_h=$(sha256sum "$1" | cut -d' ' -f1)
	mv "$1" "$O/blobs/sha256/$_h"
	echo "sha256:$_h $(wc -c <"$O/blobs/sha256/$_h" | tr -d ' ')"
}
diff=$(sha256sum "$T/layer.tar" | cut -d' ' -f1)
# shellcheck disable=SC2046 # blob prints two words, the digest and the size
set -- $(blob "$T/layer.gz")
printf '{"architecture":"%s","os":"%s"%s,"config":{"Cmd":["/bin/sh","-c","echo from-the-image; id -u"]},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}\n' \
	"$ARCH" "$OS" "${VARIANT:+,\"variant\":\"$VARIANT\"}" "$diff" >"$T/config"
# shellcheck disable=SC2046
set -- "$@" $(blob "$T/config")
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"%s","size":%s}]}\n' \
	"$3" "$4" "$1" "$2" >"$T/manifest"
# shellcheck disable=SC2046
set -- $(blob "$T/manifest")
printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"%s","size":%s}]}\n' \
	"$1" "$2" >"$O/index.json"

run_installed image import "$O" "$T/img"
assert_eq "$rc:$err" "0:" "the installed crib imports an OCI image"
assert_contains "$out" "imported OCI layout $PLATFORM" "... and says what it imported"
run_installed run "$T/img/crib.ini"
assert_eq "$rc:$(echo "$out" | tr '\n' ' '):$err" "0:from-the-image 0 :" "the installed crib runs the imported image's command"
run_installed image rm "$T/img"
assert_eq "$rc:$err:$(test -e "$T/img" && echo left)" "0::" "... and removes the import"

# crib-scope: the host's libraries meet its Depends, and its dynamic linker finds them
scope=$DEBS/crib-scope_${v}_$host.deb
unmet=
for d in $(dpkg-deb -f "$scope" Depends | tr -d ' ' | tr ',' ' '); do
	p=${d%%(*}
	[ "$p" = crib ] && continue
	min=${d#*(>=}
	min=${min%)}
	have=$(dpkg-query -W -f='${Version}' "$p:$host" 2>/dev/null)
	dpkg --compare-versions "${have:-0}" ge "$min" || unmet="$unmet $p (has '$have', needs $min)"
done
assert_eq "$unmet" "" "this machine meets crib-scope's Depends ($(dpkg-deb -f "$scope" Depends))"
mkdir -p "$T/scope"
dpkg-deb -x "$scope" "$T/scope"
out=$("$T/scope/usr/lib/crib/crib-scope" 2>&1)
assert_eq "$?:$out" "125:usage: crib-scope UNIT PID DESCRIPTION" "crib-scope runs with this machine's libraries"

# issue 35's "done when" with the packages: crib and crib-pull installed, a new user's first
# service from the test registry (tests/e2e/35-image-web.t, run with the installed crib, which
# finds crib-pull and crib-image in /usr/lib/crib); crib-pull's libraries are the host's
# (--force-depends: this scratch root's database has none of them)
pull=$DEBS/crib-pull_${v}_$host.deb
if [ ! -f "$(dirname "$0")/35-image-web.t" ]; then
	skip "35-image-web.t is not beside this test (a run of some tests only)"
elif [ -e "$pull" ] && pkg --force-depends -i "$pull" >"$T/dpkg-pull.out" 2>&1; then
	CRIB=$crib sh "$(dirname "$0")/35-image-web.t" >"$T/web.tap" 2>&1
	web_rc=$?
	nok=$(grep -c '^ok ' "$T/web.tap")
	if grep -q '^1\.\.0 # SKIP' "$T/web.tap"; then
		skip "the packages' first service: $(sed -n 's/^1\.\.0 # SKIP //p' "$T/web.tap")"
	else
		assert_eq "$web_rc:$(grep -c '^not ok' "$T/web.tap"):$([ "$nok" -ge 15 ] && echo many)" "0:0:many" \
			"the installed crib and crib-pull pull, run -d -p --name web IMAGE and serve the page ($nok checks of 35-image-web.t)" ||
			{ grep -A3 "^not ok" "$T/web.tap"; tail -n 5 "$T/web.tap"; } | sed "s/^/#   /"
	fi
	pkg -r crib-pull >/dev/null 2>&1
else
	skip "no crib-pull package to install ($(tail -n 1 "$T/dpkg-pull.out" 2>/dev/null))"
fi

pkg -r crib >/dev/null 2>&1
assert_eq "$?:$(ls "$R/usr/bin" "$R/usr/lib/crib" 2>/dev/null)" "0:" "removing it takes the programs away"
assert_eq "$(ls "$R/etc/apparmor.d" 2>/dev/null | tr '\n' ' ')" "crib crib-default " \
	"... and keeps the conffiles (the AppArmor profiles)"
pkg -P crib >/dev/null 2>&1
assert_eq "$?:$(find "$R" -path "$R/var" -prune -o -type f -print | wc -l)" "0:0" \
	"purging leaves no file outside dpkg's database"

# lintian (which warns root off, on stderr: left out)
if command -v lintian >/dev/null; then
	out=$(timeout 300 lintian --fail-on error,warning "$DEBS"/*.deb 2>&1 | grep -v '^running with root privileges is not recommended!$')
	assert_eq "$out" "" "lintian finds no error and no warning in the packages"
else
	skip "lintian is not installed (rootfs-tools/install-deps check)"
fi
done_testing
