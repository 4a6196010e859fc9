# pull-tests.sh - sourced by tests/vm/guest-tests.sh in the Pi Zero guest armel:pull, which
# tests/vm/pizero.sh gives it: crib pull as user 1000, with an auth.json and a certs.d as podman
# keeps them, from the test registry on the host (tests/lib/registry.sh: TLS from the test's
# CA, htpasswd; and its bearer-token instance), reached at 10.0.2.2 over QEMU's user network.
# The multi-arch index gives the Pi Zero its linux/arm/v6 entry, which the store records and crib
# runs; an image of linux/arm/v7 alone is refused with the reason, before a blob is fetched. How
# long the pull took is said in a comment line.
reg=$(sed -n 's/.*crib\.registry=\([^ ]*\).*/\1/p' /proc/cmdline)
treg=$(sed -n 's/.*crib\.token=\([^ ]*\).*/\1/p' /proc/cmdline)
if [ -s /vm/registry/skip ]; then
	ok 0 "crib pull from the test registry on the host # SKIP $(cat /vm/registry/skip)"
elif [ -s /vm/registry/fail ] || [ -z "$reg" ]; then
	ok 1 "crib pull from the test registry on the host: the host could not set it up"
	sed 's/^/VMTEST #   /' /vm/registry/fail 2>/dev/null
else
	has "$(ip -4 addr show usb0 2>&1)" "inet 10.0.2.15/24" \
		"the Pi Zero's network: usb0 (QEMU's usb-net on the dwc2 USB controller), 10.0.2.15/24"
	# the user's home, as podman leaves it after `podman login` and a CA put in certs.d, and the
	# runtime directory a login session has (crib keeps its containers' state there)
	ph=/tmp/pull-home
	mkdir -m 0700 /tmp/pull-run
	chown 1000:1000 /tmp/pull-run
	for h in "$reg" "$treg"; do
		mkdir -p "$ph/.config/containers/certs.d/$h"
		cp /vm/registry/ca.crt "$ph/.config/containers/certs.d/$h/ca.crt"
	done
	cp /vm/registry/auth.json "$ph/.config/containers/auth.json"
	chmod 0600 "$ph/.config/containers/auth.json"
	chown -R 1000:1000 "$ph"
	chmod 0700 "$ph"
	store=$ph/.local/share/crib
	# crib with crib-pull and crib-image beside it, as in a build directory (tests/vm/pizero.sh
	# keeps them out of /bin, where the e2e suite would find them)
	ln /bin/crib /vm/pull/crib 2>/dev/null || cp -p /bin/crib /vm/pull/crib
	user_crib() { as_user env HOME=$ph XDG_RUNTIME_DIR=/tmp/pull-run /vm/pull/crib "$@" </dev/null; }
	blobs() { ls "$store/blobs/sha256" 2>/dev/null | wc -l; }
	img=$reg/pizero/multi:v1

	# (the guest's clock, which -icount shift=auto keeps near the host's on average)
	since() { awk -v t0="$1" '{ printf "%.1f", $1 - t0 }' /proc/uptime; }
	t0=$(cut -d' ' -f1 /proc/uptime)
	user_crib pull --help >/dev/null 2>&1
	started=$(since "$t0")
	t0=$(cut -d' ' -f1 /proc/uptime)
	user_crib pull "$img" >/tmp/pull.out 2>/tmp/pull.err
	rc=$?
	took=$(since "$t0")
	sed 's/^/VMTEST #   /' /tmp/pull.err
	is "$rc" 0 "user 1000: crib pull $img (credentials from ~/.config/containers/auth.json, the CA from its certs.d)"
	# the same image from the registry's bearer-token instance (as Docker Hub's): a token from
	# its realm, token-server.py, at 10.0.2.2 too; its blobs are in the store's cache already
	nblobs=$(blobs)
	t0=$(cut -d' ' -f1 /proc/uptime)
	user_crib pull "$treg/pizero/multi:v1" >/dev/null 2>/tmp/pull.err
	rc=$?
	again=$(since "$t0")
	sed 's/^/VMTEST #   /' /tmp/pull.err
	is "$rc:$(blobs)" "0:$nblobs" "the same image from the bearer-token instance ($treg, a token from its realm): 0, no blob fetched again"
	echo "VMTEST # crib pull took $took s in the guest ($(blobs) blobs, $(du -sk "$store/blobs" 2>/dev/null | cut -f1) KiB fetched, the layer unpacked into the store); crib-pull's start alone (crib pull --help: loading libcurl and its $(ls /lib/arm-linux-gnueabi | wc -l) libraries) $started s; the same image again, by a token (its blobs cached, the image stored) $again s"
	user_crib images >/tmp/images 2>&1
	sed 's/^/VMTEST #   /' /tmp/images
	has "$(grep -F "$reg/pizero/multi" /tmp/images)" "linux/arm/v6" "crib images: the image, linux/arm/v6"
	has "$(sed 's|\\/|/|g' "$store"/images/*/image.json 2>&1)" '"platform":"linux/arm/v6"' \
		"the store recorded the arm/v6 entry of the index (image.json)"
	t0=$(cut -d' ' -f1 /proc/uptime)
	out=$(user_crib run --rm "$img" /bin/cat /arch 2>/tmp/run.err)
	rc=$?
	took=$(since "$t0")
	sed 's/^/VMTEST #   /' /tmp/run.err
	is "$rc:$out" "0:linux/arm/v6" "crib run --rm IMAGE /bin/cat /arch: the v6 entry's armel busybox runs and says linux/arm/v6 (the other entries hold /arch alone)"
	echo "VMTEST # crib run --rm of the image took $took s"
	is "$(ls "$store/containers" 2>/dev/null | wc -l)" 0 "--rm removed the container's directory"

	nblobs=$(blobs)
	user_crib pull "$reg/pizero/v7only:latest" >/tmp/pull.out 2>/tmp/pull.err
	rc=$?
	sed 's/^/VMTEST #   /' /tmp/pull.err
	is "$rc" 125 "crib pull of an image with linux/arm/v7 only: 125"
	has "$(cat /tmp/pull.err)" "this image has linux/arm/v7 only; this machine is linux/arm/v6" "the reason: the image's platform and this machine's"
	is "$(blobs)" "$nblobs" "no blob of it was fetched"

	user_crib rmi "$img" >/dev/null 2>/tmp/rmi.err && user_crib rmi "$treg/pizero/multi:v1" >/dev/null 2>>/tmp/rmi.err
	is "$?:$(ls "$store/images" | wc -l)" 0:0 "crib rmi of its two names removes it"
	sed 's/^/VMTEST #   /' /tmp/rmi.err
	rm -rf "$ph" /tmp/pull-run /vm/pull/crib
fi
