# pizero.sh - sourced by tests/vm/run: the Pi Zero guest armel:pull (a boot of its own) pulls from the test
# registry (tests/lib/registry.sh) on the host, over QEMU's user network, and the guest's
# tests/vm/pull-tests.sh checks that it gets the arm/v6 entry of a multi-arch index and that a
# v7-only image is refused with the reason.
#
# - At preparation (pizero_prepare): crib-pull, a dynamic program (libcurl is a shared library
#   only), and crib-image (static, as a Debian package's), cross-built for armel with DEB=yes
#   (the Makefile takes the target's libcurl and libssl from rootfs-tools/cross-sysroot
#   --helpers); the shared libraries crib-pull loads, found by their DT_NEEDED names in the
#   cross compiler's libc and in libcurl4:armel and its dependencies (`apt-get download`, once,
#   unpacked with dpkg-deb into BUILD/vm-cache/libcurl-armel-KEY, KEY from their versions); the
#   rpi kernel's mii, usbnet and cdc_ether modules (the guest's network: QEMU's usb-net on the
#   BCM2835's dwc2 USB controller, which the kernel has built in). All in an archive of their
#   own, BUILD/vm-cache/pizero.cpio.gz, which the kernel unpacks over the armel initramfs for
#   this guest alone: the apparmor0 guest boots as before. And the images, an OCI layout
#   (pizero_images). Where one of these cannot be made, BUILD/vm-cache/pizero.skip says why,
#   and the guest's test skips with it.
# - At boot (pizero_up, pizero_down): the registry on the host's 127.0.0.1, which QEMU's user
#   network shows the guest as 10.0.2.2, and the images pushed to it (pizero/multi:v1,
#   pizero/v7only:latest); the CA, an auth.json and the guest's test (tests/vm/pull-tests.sh)
#   in one more small archive; on the guest's command line crib.net=usb0 (the guest's init
#   gives it 10.0.2.15/24), crib.registry=10.0.2.2:PORT (the htpasswd instance),
#   crib.token=10.0.2.2:PORT (the bearer-token instance, whose realm, token-server.py, is at
#   10.0.2.2 too: REGISTRY_REALM_HOST) and crib.now=SECONDS (the board has no clock: the
#   certificates must be valid in the guest).
#   The registry is stopped when QEMU has exited, or when the guest's boot is killed (a trap);
#   when it cannot start (docker-registry or skopeo missing) the guest's test skips with the
#   reason.

# pizero_prepare B CROSS: B the armel build directory, CROSS its compiler prefix
pizero_prepare() {
	pz=$cache/pizero
	rm -rf "$pz" "$cache/pizero.cpio.gz" "$cache/pizero.skip" "$cache/pizero-layout"
	if ! pizero_files "$@"; then
		echo "$pz_why" >"$cache/pizero.skip"
		rm -rf "$pz"
		return 0
	fi
	# the kernel unpacks this archive over the initramfs: its directories take these modes
	find "$pz" -type d -exec chmod 755 {} +
	(cd "$pz" && find . | cpio -o -H newc -R 0:0 2>/dev/null | gzip -1) >"$cache/pizero.cpio.gz"
}

pizero_files() {
	pb=$1 pcross=$2
	mkdir -p "$pz/vm/pull" "$pz/lib/arm-linux-gnueabi"
	out=$(make -s -j2 -C "$top" CROSS="$pcross" DEB=yes BUILD="$pb" "$pb/crib-pull" "$pb/crib-image" 2>&1)
	if [ ! -x "$pb/crib-pull" ] || [ ! -x "$pb/crib-image" ]; then
		pz_why="cannot cross-build crib-pull and crib-image for armel (DEB=yes: libcurl, libssl from rootfs-tools/cross-sysroot --helpers): $(echo "$out" | tail -n 1)"
		return 1
	fi
	# stripped: the guest copies its initramfs into a tmpfs at every boot. In /vm/pull/, where
	# the guest's test puts a link to crib beside them: the e2e suite's crib, /bin/crib, has
	# neither, and its image tests skip as they did (this guest lacks the tools they need)
	if ! "${pcross}strip" -o "$pz/vm/pull/crib-pull" "$pb/crib-pull" ||
		! "${pcross}strip" -o "$pz/vm/pull/crib-image" "$pb/crib-image"; then
		pz_why="${pcross}strip failed"
		return 1
	fi
	if ! pizero_libcurl armel; then
		pz_why="cannot fetch libcurl4:armel and its dependencies with apt-get download"
		return 1
	fi
	libc=$(dirname "$("${pcross}gcc" -print-file-name=libc.so.6)")
	interp=$("${pcross}readelf" -l "$pb/crib-pull" | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
	if [ -z "$interp" ] || ! cp -L "$libc/$(basename "$interp")" "$pz$interp"; then
		pz_why="no program interpreter for crib-pull ($interp) in $libc"
		return 1
	fi
	# crib-pull's libraries and theirs, by DT_NEEDED name, where the guest's loader looks for them
	todo=$pz/vm/pull/crib-pull
	seen=" $(basename "$interp") "
	while [ -n "$todo" ]; do
		files=$todo
		todo=""
		for f in $files; do
			pizero_needed "$f" || return 1
		done
	done
	# the network: QEMU's usb-net, a CDC Ethernet device on the dwc2 USB controller; the
	# guest's init loads these in their order (tests/vm/init)
	mods=$(ls -d "$cache/kernel-armel"/lib/modules/* | head -n 1)
	mkdir -p "$pz/vm/modules/${mods##*/}"
	i=0
	for m in drivers/net/mii drivers/net/usb/usbnet drivers/net/usb/cdc_ether; do
		i=$((i + 1))
		cp "$mods/kernel/$m.ko" "$pz/vm/modules/${mods##*/}/$(printf %02d $i)-${m##*/}.ko" || {
			pz_why="the rpi kernel package has no $m.ko"
			return 1
		}
	done
	if ! pizero_images 2>"$cache/pizero-layout.err"; then
		pz_why="cannot make the test images: $(tr '\n' ' ' <"$cache/pizero-layout.err")"
		return 1
	fi
}

# pizero_images: the OCI layout pizero_up pushes, $cache/pizero-layout (made here, off the guests'
# time): multi, an index of linux/amd64, linux/arm64, linux/arm/v7 and linux/arm/v6, whose v6
# entry is Debian's armel busybox and the directories an image has, as small as Docker Hub's
# busybox (QEMU's dwc2 and usb-net move about 80 KB/s: a second for each 80 KB), the others
# /arch alone; v7only, an index of linux/arm/v7 alone. (A subshell: registry.sh's variables
# stay out of this script's.)
pizero_images() (
	# shellcheck disable=SC2034 # (registry.sh's)
	REGISTRY_LIB=$top/tests/lib
	# shellcheck source=tests/lib/registry.sh
	. "$top/tests/lib/registry.sh"
	L=$cache/pizero-layout
	v6=$cache/pizero-v6
	rm -rf "$L" "$v6"
	mkdir -p "$v6/bin" "$v6/dev" "$v6/etc" "$v6/proc" "$v6/sys" "$v6/tmp"
	chmod 1777 "$v6/tmp"
	cp "$cache/busybox-armel/bin/busybox" "$v6/bin/" &&
		ln -s busybox "$v6/bin/sh" && ln -s busybox "$v6/bin/cat" &&
		REGISTRY_RUN_PLATFORM=linux/arm/v6 ROOTFS=$v6 registry_index "$L" multi \
			linux/amd64 linux/arm64 linux/arm/v7 linux/arm/v6 &&
		registry_index "$L" v7only linux/arm/v7
)

# pizero_needed FILE: the libraries FILE needs that are not in $seen yet, copied from the cross
# compiler's libc or libcurl4's packages; each added to $todo, whose own are looked at next
pizero_needed() {
	for so in $("${pcross}readelf" -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		case $seen in *" $so "*) continue ;; esac
		seen="$seen$so "
		found=""
		for d in "$libc" "$pzlibs/lib/arm-linux-gnueabi" "$pzlibs/usr/lib/arm-linux-gnueabi"; do
			[ -e "$d/$so" ] && found=$d/$so && break
		done
		if [ -z "$found" ]; then
			pz_why="crib-pull's library $so is in neither the cross compiler's libc nor libcurl4:armel's dependencies"
			return 1
		fi
		cp -L "$found" "$pz/lib/arm-linux-gnueabi/$so"
		todo="$todo $pz/lib/arm-linux-gnueabi/$so"
	done
}

# pizero_libcurl DEBARCH: libcurl4:DEBARCH and what it depends on, unpacked into
# $cache/libcurl-DEBARCH-KEY (once for a set of versions); pzlibs names it
pizero_libcurl() {
	# shellcheck disable=SC2046 # (one name a line)
	pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances "libcurl4:$1" 2>/dev/null | grep "^[a-z0-9].*:$1\$" | sort -u)
	[ -n "$pkgs" ] || return 1
	# shellcheck disable=SC2086
	key=$(apt-cache show --no-all-versions $pkgs 2>/dev/null | grep -E '^(Package|Version):' | cksum | cut -d' ' -f1)
	pzlibs=$cache/libcurl-$1-$key
	[ -d "$pzlibs" ] && return 0
	rm -rf "$pzlibs.tmp"
	mkdir -p "$pzlibs.tmp/debs"
	# shellcheck disable=SC2086
	(cd "$pzlibs.tmp/debs" && apt-get download -q $pkgs >/dev/null 2>&1) || return 1
	for deb in "$pzlibs.tmp"/debs/*.deb; do
		dpkg-deb -x "$deb" "$pzlibs.tmp" || return 1
	done
	rm -rf "$pzlibs.tmp/debs"
	mv "$pzlibs.tmp" "$pzlibs"
}

# pizero_up: before the armel pull guest boots: the registry, its images, the guest's
# archive. Sets initrd (the initramfs with the two archives over it), pz_append (command line
# words) and pz_qemu (QEMU's network). The registry's times go to $cache/pizero.note.
pizero_up() {
	pz_append="" pz_qemu=""
	reg=$cache/pizero-reg
	rm -rf "$reg" "$reg.files" "$cache/pizero.note"
	mkdir -p "$reg.files/vm/registry"
	# the guest's test, which says why it skips when the rest is missing
	cp "$top/tests/vm/pull-tests.sh" "$reg.files/vm/"
	if [ -s "$cache/pizero.skip" ] || [ ! -s "$cache/pizero.cpio.gz" ]; then
		cat "$cache/pizero.skip" 2>/dev/null >"$reg.files/vm/registry/skip" ||
			echo "the guest's pull files were not prepared" >"$reg.files/vm/registry/skip"
		pizero_archive
		return 0
	fi
	pz_qemu="-netdev user,id=n0 -device usb-net,netdev=n0"
	pz_append="crib.net=usb0"
	# shellcheck disable=SC2034 # (registry.sh's)
	REGISTRY_LIB=$top/tests/lib
	# shellcheck source=tests/lib/registry.sh
	. "$top/tests/lib/registry.sh"
	if why=$(registry_missing); then
		echo "$why (rootfs-tools/install-deps check installs it)" >"$reg.files/vm/registry/skip"
		pizero_archive
		return 0
	fi
	trap 'pizero_down' EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	t0=$(date +%s)
	REGISTRY_REALM_HOST=10.0.2.2
	if ! registry_start "$reg" 2>"$reg.err"; then
		echo "the test registry did not start: $(tr '\n' ' ' <"$reg.err")" >"$reg.files/vm/registry/skip"
		pizero_archive
		return 0
	fi
	t1=$(date +%s)
	L=$cache/pizero-layout
	if ! { registry_push "$L:multi" "$REGISTRY_HOST/pizero/multi:v1" &&
		registry_push "$L:v7only" "$REGISTRY_HOST/pizero/v7only:latest"; } 2>"$reg.err"; then
		echo "the images could not be pushed: $(tr '\n' ' ' <"$reg.err")" >"$reg.files/vm/registry/fail"
		pizero_archive
		return 0
	fi
	port=${REGISTRY_HOST##*:}
	tport=${REGISTRY_TOKEN_HOST##*:}
	cp "$REGISTRY_CA" "$reg.files/vm/registry/ca.crt"
	registry_auth_json "$reg.files/vm/registry/auth.json" "10.0.2.2:$port" "10.0.2.2:$tport"
	chmod 0644 "$reg.files/vm/registry/auth.json"
	echo "the Pi Zero's test registry: started in $((t1 - t0)) s, its images pushed in $(($(date +%s) - t1)) s" >"$cache/pizero.note"
	pizero_archive
	# the time last: the certificates were made before it (their notBefore), so the guest's
	# clock, set to it, is past that
	pz_append="$pz_append crib.registry=10.0.2.2:$port crib.token=10.0.2.2:$tport crib.now=$(date +%s)"
}

pizero_archive() {
	find "$reg.files" -type d -exec chmod 755 {} +
	(cd "$reg.files" && find . | cpio -o -H newc -R 0:0 2>/dev/null | gzip -1) >"$reg.cpio.gz"
	if [ -s "$cache/pizero.cpio.gz" ]; then
		cat "$cache/initrd-armel.gz" "$cache/pizero.cpio.gz" "$reg.cpio.gz"
	else
		cat "$cache/initrd-armel.gz" "$reg.cpio.gz"
	fi >"$cache/initrd-armel-pizero.gz"
	initrd=$cache/initrd-armel-pizero.gz
}

# pizero_down: after the guest (or when its boot is killed): the registry stopped, every process
# of it waited for
pizero_down() {
	trap - EXIT HUP INT TERM
	command -v registry_stop >/dev/null 2>&1 || return 0
	left=$(registry_pids)
	registry_stop
	[ -z "$left" ] || echo "the test registry stopped after the guest (pids $left); its token server gave $(grep -c '"status": 200' "$REGISTRY_TOKEN_LOG" 2>/dev/null) tokens" >>"$cache/pizero.note"
}
