# handstore.sh - an image store laid out by hand, as docs/store.md says (sourced by the tests of
# crib run IMAGE until crib-image writes the store): two layers over the test rootfs.
#   make_store ROOT ROOTFS   ROOT/layers/{A,B}/root, images/ID, names/test.local+img:1
# Layer A is ROOTFS with /etc/gone and /etc/dir/{x,y}; layer B deletes /etc/gone (a whiteout:
# a character device 0:0), makes /etc/dir opaque with only /etc/dir/z (user.overlay.opaque=y)
# and adds /etc/fromb. As a user, in a user namespace mapped with the user's subordinate ids
# (unshare --map-auto --map-root-user: 0 is the user, 1.. the subordinate ids, as uid = auto
# maps a container), so the files have the image's owners.
HS_A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
HS_B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
HS_ID=cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc
_hs_layers() { # _hs_layers ROOT (as the layers' root)
	mkdir -p "$1/layers/$HS_B/root/etc/dir" &&
		echo gone >"$1/layers/$HS_A/root/etc/gone" &&
		mkdir -p "$1/layers/$HS_A/root/etc/dir" &&
		echo x >"$1/layers/$HS_A/root/etc/dir/x" &&
		echo y >"$1/layers/$HS_A/root/etc/dir/y" &&
		mknod "$1/layers/$HS_B/root/etc/gone" c 0 0 &&
		setfattr -n user.overlay.opaque -v y "$1/layers/$HS_B/root/etc/dir" &&
		echo z >"$1/layers/$HS_B/root/etc/dir/z" &&
		echo fromb >"$1/layers/$HS_B/root/etc/fromb" &&
		chmod 755 "$1/layers/$HS_B/root" "$1/layers/$HS_B/root/etc" &&
		chown 33:33 "$1/layers/$HS_B/root/etc/fromb"
}
make_store() {
	_r=$1
	mkdir -p "$_r" && chmod 700 "$_r" || return 1
	mkdir -p "$_r/images/$HS_ID" "$_r/names" "$_r/layers"
	# the rootfs's files become the layer's root's: the user's, container root under uid = auto
	# (what the user may not read, root's /root, stays out)
	mkdir -p "$_r/layers/$HS_A" && cp -R "$2" "$_r/layers/$HS_A/root" 2>/dev/null
	[ -x "$_r/layers/$HS_A/root/usr/local/bin/probe" ] || return 1
	if [ "$(id -u)" = 0 ]; then
		_hs_layers "$_r" || return 1
	else
		unshare --map-auto --map-root-user sh "${HS_SELF:?the path of handstore.sh}" --layers "$_r" || return 1
	fi
	for _l in $HS_A $HS_B; do
		echo "{\"diff_id\":\"sha256:$_l\",\"size\":1,\"entries\":1}" >"$_r/layers/$_l/layer.json"
	done
	echo "{\"id\":\"sha256:$HS_ID\",\"manifest\":\"\",\"platform\":\"linux/amd64\",\"layers\":[\"sha256:$HS_A\",\"sha256:$HS_B\"],\"names\":[\"test.local/img:1\"],\"created\":1,\"size\":4000000}" >"$_r/images/$HS_ID/image.json"
	printf '{}\n' >"$_r/images/$HS_ID/config.json"
	printf '[process]\nargs = /bin/sh -c "echo image-default"\nenv = FROM_IMAGE=yes\ncwd = /\n' >"$_r/images/$HS_ID/crib.ini"
	# as crib image import writes it for a user: the image's ids are the subordinate ones
	[ "$(id -u)" = 0 ] || printf '[idmap]\nuid = auto\ngid = auto\n' >>"$_r/images/$HS_ID/crib.ini"
	echo "sha256:$HS_ID" >"$_r/names/test.local+img:1"
}
# sh handstore.sh --layers ROOT: the layers' special files, in the user namespace above
if [ "${1:-}" = --layers ]; then
	_hs_layers "$2"
	exit
fi
# make_many ROOT N: image test.local/many:1 of layer A and N-1 empty layers over it (more than
# one fsconfig(2) value holds as lowerdir=: the overlay takes them one by one, lowerdir+)
make_many() {
	_ids="\"sha256:$HS_A\""
	_i=1
	while [ "$_i" -lt "$2" ]; do
		_h=$(printf '%064x' "$_i")
		mkdir -p "$1/layers/$_h/root" && chmod 755 "$1/layers/$_h/root" || return 1
		echo "{\"diff_id\":\"sha256:$_h\",\"size\":0,\"entries\":0}" >"$1/layers/$_h/layer.json"
		_ids="$_ids,\"sha256:$_h\""
		_i=$((_i + 1))
	done
	_m=dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd
	mkdir -p "$1/images/$_m"
	echo "{\"id\":\"sha256:$_m\",\"manifest\":\"\",\"platform\":\"linux/amd64\",\"layers\":[$_ids],\"names\":[\"test.local/many:1\"],\"created\":1,\"size\":4000000}" >"$1/images/$_m/image.json"
	printf '{}\n' >"$1/images/$_m/config.json"
	cp "$1/images/$HS_ID/crib.ini" "$1/images/$_m/crib.ini"
	echo "sha256:$_m" >"$1/names/test.local+many:1"
}

# hs_cleanup STATE STORE: at a test's end, every container of the state root STATE gone (crib rm
# -f, with its directory in the store), then the store, whose layers hold files of a user's
# subordinate ids, removed in a user namespace that maps them, then $T
hs_cleanup() {
	for _n in $("$CRIB" --root "$1" ps -a 2>/dev/null | awk 'NR > 1 && !/^#/ {print $1}'); do
		"$CRIB" --root "$1" rm -f "$_n" >/dev/null 2>&1
	done
	[ "$ROLE" = root ] || unshare --map-auto --map-root-user rm -rf "$2" 2>/dev/null
	rm -rf "$T"
}
