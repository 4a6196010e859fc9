#!/bin/sh
# The image store (issue 35, docs/store.md): `crib image import SOURCE` without DIR, crib
# images, crib rmi, crib image prune, crib system df, in a store of the test's own
# (CRIB_STORE). Images are built here with tar, gzip, zstd and sha256sum as in 24-image.t:
# one image imported twice under two names keeps each layer once; two images sharing a base
# layer share its directory; whiteouts and opaque directories are stored in overlayfs's form
# and an overlay mount of the layers shows the image's tree; hostile layers write nothing
# outside the store and leave nothing but tmp/; a config that lies about a layer's diff_id is
# refused; an add killed with SIGKILL leaves no half layer or image, and prune empties tmp/;
# two adds of one image at once unpack each layer once; rmi refuses an image a container uses.
. "$(dirname "$0")/../lib/libtest.sh"

if ! "$CRIB" image platform >/dev/null 2>&1; then
	echo "1..0 # SKIP crib-image is not built (libarchive-dev and libssl-dev missing at make time)"
	exit 0
fi
for tool in tar gzip zstd sha256sum getfattr setfattr; do
	command -v $tool >/dev/null || {
		echo "1..0 # SKIP $tool is not installed (rootfs-tools/install-deps)"
		exit 0
	}
done
S=$T/store
export CRIB_STORE="$S"
# the layers hold files of the caller's subordinate ids: prune after rmi removes them
trap '"$CRIB" rmi x >/dev/null 2>&1; for i in $("$CRIB" images --format json 2>/dev/null | tr "," "\n" | sed -n "s/.*\"id\":\"sha256:\([0-9a-f]*\)\".*/\1/p"); do "$CRIB" rmi "$i" >/dev/null 2>&1; done; "$CRIB" image prune >/dev/null 2>&1; rm -rf "$T"' EXIT
. "$(dirname "$0")/../lib/imglayers.sh"
CONFIG_JSON() { # CONFIG_JSON DIFF...: an image config of those layers' diff_ids
	_ids=
	for _x in "$@"; do _ids="$_ids${_ids:+,}\"sha256:$_x\""; done
	echo "{\"architecture\":\"$ARCH\",\"os\":\"$OS\"${VARIANT:+,\"variant\":\"$VARIANT\"},\"created\":\"2024-05-06T07:08:09Z\",\"config\":{\"Cmd\":[\"/bin/sh\"],\"User\":\"33:33\"},\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[$_ids]}}"
}
mk_docker() { # mk_docker OUT.tar TAG LAYER.tar...: a docker-archive (docker save)
	_out=$1 _tag=$2 _d=$T/docker.$$
	shift 2
	rm -rf "$_d" && mkdir -p "$_d"
	_ls='' _ds=''
	for _l in "$@"; do
		_h=$(sha "$_l")
		mkdir -p "$_d/$_h" && cp "$_l" "$_d/$_h/layer.tar"
		_ls="$_ls${_ls:+,}\"$_h/layer.tar\"" _ds="$_ds $_h"
	done
	# shellcheck disable=SC2086 # one diff_id a word
	CONFIG_JSON $_ds >"$_d/config"
	_c=$(sha "$_d/config")
	mv "$_d/config" "$_d/$_c.json"
	echo "[{\"Config\":\"$_c.json\",\"RepoTags\":[${_tag:+\"$_tag\"}],\"Layers\":[$_ls]}]" >"$_d/manifest.json"
	tar -cf "$_out" -C "$_d" .
	rm -rf "$_d"
}
blob() { # blob DIR FILE: move FILE into DIR/blobs/sha256, print its digest and size
	_h=$(sha "$2")
	_s=$(size "$2")
	mkdir -p "$1/blobs/sha256"
	mv "$2" "$1/blobs/sha256/$_h"
	echo "sha256:$_h $_s"
}
mk_oci() { # mk_oci DIR REFNAME L1.tar L2.tar [DIFF2]: an OCI layout, layer 1 gzip, layer 2
	# zstd; DIFF2: the diff_id its config gives layer 2, if not its own
	mkdir -p "$1"
	echo '{"imageLayoutVersion":"1.0.0"}' >"$1/oci-layout"
	gzip -n -c "$3" >"$1/l1"
	zstd -q -c "$4" >"$1/l2"
	_ref=$2
	_cfg=$(CONFIG_JSON "$(sha "$3")" "${5:-$(sha "$4")}")
	# shellcheck disable=SC2046 # blob prints two words: the digest and the size
	set -- "$1" $(blob "$1" "$1/l1") $(blob "$1" "$1/l2")
	echo "$_cfg" >"$1/cfg"
	# shellcheck disable=SC2046
	set -- "$@" $(blob "$1" "$1/cfg")
	cat >"$1/m" <<EOF2
{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"$6","size":$7},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"$2","size":$3},{"mediaType":"application/vnd.oci.image.layer.v1.tar+zstd","digest":"$4","size":$5}]}
EOF2
	# shellcheck disable=SC2046
	set -- "$1" $(blob "$1" "$1/m")
	echo "{\"schemaVersion\":2,\"manifests\":[{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"$2\",\"size\":$3,\"annotations\":{\"org.opencontainers.image.ref.name\":\"$_ref\"}}]}" >"$1/index.json"
}
imp() { run_crib image import "$@"; }
nlayers() { find "$S/layers" -mindepth 1 -maxdepth 1 | wc -l | tr -d ' '; }
nimages() { find "$S/images" -mindepth 1 -maxdepth 1 | wc -l | tr -d ' '; }
# what exists in the store but tmp/ (store.lock aside)
state() { (cd "$S" && find . -path ./tmp -prune -o -print | grep -v '^\./store\.lock$' | LC_ALL=C sort); }

# --- the layers: a base, an upper one with whiteouts and an opaque directory, another upper
L1=$T/l1 L2=$T/l2 L3=$T/l3
mkdir -p "$L1/etc" "$L1/gone/deep" "$L1/opq/sub" "$L1/www" "$L2/opq" "$L3/extra"
printf 'root:x:0:0:root:/root:/bin/sh\nwww-data:x:33:33::/var/www:/bin/sh\n' >"$L1/etc/passwd"
printf 'root:x:0:\nwww-data:x:33:\n' >"$L1/etc/group"
echo deep >"$L1/gone/deep/file"
echo old >"$L1/opq/old"
echo older >"$L1/opq/sub/older"
echo doomed >"$L1/doomed"
echo keep >"$L1/keep"
head -c 200000 /dev/urandom >"$L1/big"
echo page >"$L1/www/index"
: >"$L2/.wh.gone"
: >"$L2/.wh.doomed"
: >"$L2/opq/.wh..wh..opq"
echo new >"$L2/opq/new"
echo three >"$L3/extra/three"
tarit "$T/l1.tar" "$L1" --exclude=./www
tar --numeric-owner --owner=33 --group=33 -rf "$T/l1.tar" -C "$L1" ./www
tarit "$T/l2.tar" "$L2"
tarit "$T/l3.tar" "$L3"
D1=$(sha "$T/l1.tar") D2=$(sha "$T/l2.tar") D3=$(sha "$T/l3.tar")
mk_oci "$T/oci" "example.com/test/app:1" "$T/l1.tar" "$T/l2.tar"
mk_docker "$T/other.tar" "other:2" "$T/l1.tar" "$T/l3.tar"

# --- 1. one image twice, under two names: each layer once
imp "$T/oci"
assert_eq "$rc" 0 "an OCI layout imported into the store ($err)"
assert_contains "$out" "as 'example.com/test/app:1'" "named by its org.opencontainers.image.ref.name"
assert_eq "$(stat -c %a "$S")" 700 "the store is made 0700"
assert_eq "$(nlayers):$(nimages)" "2:1" "two layers, one image"
du1=$(du -s "$S/layers" | cut -f1)
imp --name mine "$T/oci"
assert_eq "$rc" 0 "the same image again under another name ($err)"
assert_contains "$out" "2 layers, 0 new" "and no layer is unpacked again"
assert_eq "$(nlayers):$(nimages)" "2:1" "still two layers and one image"
assert_eq "$(du -s "$S/layers" | cut -f1)" "$du1" "the layers take the same room (du)"
assert_eq "$(cat "$S/names/docker.io+library+mine:latest")" "$(cat "$S/names/example.com+test+app:1")" \
	"both names name the one image"
run_crib images
ID=$(sed -n 's/^example.com\/test\/app:1 *\([0-9a-f]\{12\}\) .*/\1/p' <<EOF
$out
EOF
)
assert_eq "$(echo "$out" | grep -c " $ID ")" 2 "crib images lists the image under both names"
assert_contains "$out" "docker.io/library/mine:latest" "the short name completed as docker does"
assert_contains "$(echo "$out" | head -n 1)" "NAME" "a header"
assert_contains "$out" "$PLATFORM" "and the platform"
assert_contains "$out" "2024-05-06 07:08" "and the config's created date"
run_crib images --format json
assert_contains "$out" "\"names\":[" "crib images --format json"
assert_contains "$out" "\"layers\":2" "with the layer count"
ini=$(cat "$S"/images/*/crib.ini)
assert_not_contains "$ini" "rootfs" "the image's crib.ini has no rootfs line"
assert_contains "$ini" "args = \"/bin/sh\"" "and the config's program"
assert_contains "$ini" "user = 33:33" "its user resolved with the layers' /etc/passwd"
assert_eq "$(grep -c "\"diff_id\":\"sha256:$D1\"" "$S/layers/$D1/layer.json")" 1 \
	"layer.json names the layer's diff_id"
assert_eq "$(stat -c %u "$S/layers/$D1/root/www/index")" \
	"$(if [ "$(id -u)" = 0 ]; then echo 33; elif has_subids; then awk -F: -v u="$(id -un)" '$1 == u {print $2 + 32; exit}' /etc/subuid; else id -u; fi)" \
	"an owner of the image is kept (a user's: through the subordinate ids)"

# --- 2. an image sharing the base layer
imp "$T/other.tar"
assert_eq "$rc" 0 "a docker-archive sharing the base layer ($err)"
assert_contains "$out" "as 'docker.io/library/other:2'" "named by its RepoTags"
assert_contains "$out" "2 layers, 1 new" "only its own layer is unpacked"
assert_eq "$(nlayers):$(nimages)" "3:2" "three layers for two images"
run_crib system df
assert_eq "$rc" 0 "crib system df ($err)"
assert_contains "$out" "images            2" "df: two images"
assert_contains "$out" "layers            3" "df: three layers"
l1=$(grep -o '"size":[0-9]*' "$S/layers/$D1/layer.json" | cut -d: -f2)
l2=$(grep -o '"size":[0-9]*' "$S/layers/$D2/layer.json" | cut -d: -f2)
l3=$(grep -o '"size":[0-9]*' "$S/layers/$D3/layer.json" | cut -d: -f2)
assert_eq "$((l1 > 200000))" 1 "the base layer's size is its bytes ($l1)"
want=$(awk -v n=$((l1 + l2 + l3)) 'BEGIN { u = "B"; split("kB MB GB", us, " "); i = 0; while (n >= 1000 && i < 3) { n /= 1000; i++; u = us[i] } if (u == "B") printf "%d B", n; else printf "%.1f %s", n, u }')
assert_contains "$out" "images            2  $want" "df counts the shared layer once ($want)"

# --- 3. overlayfs's form: whiteouts and the opaque directory
w=$S/layers/$D2/root
assert_eq "$(stat -c '%F %t:%T' "$w/gone"):$(stat -c '%F %t:%T' "$w/doomed")" \
	"character special file 0:0:character special file 0:0" "whiteouts are character devices 0:0"
assert_eq "$(getfattr --only-values -n user.overlay.opaque "$w/opq" 2>/dev/null)" "y" \
	"the opaque directory has user.overlay.opaque=y"
assert_eq "$([ -e "$w/opq/.wh..wh..opq" ] || [ -e "$w/.wh.gone" ] && echo left)" "" \
	"no .wh. file is left in the layer"
mnt=$T/mnt
mkdir -p "$mnt/m" "$mnt/u" "$mnt/w"
lower="$S/layers/$D2/root:$S/layers/$D1/root"
opts="lowerdir=$lower,upperdir=$mnt/u,workdir=$mnt/w,userxattr"
if [ "$(id -u)" = 0 ]; then
	seen=$(unshare -m sh -c "mount -t overlay overlay -o $opts $mnt/m && ls -A $mnt/m && echo -- && ls -A $mnt/m/opq" 2>&1)
else
	seen=$(unshare -Urm sh -c "mount -t overlay overlay -o $opts $mnt/m && ls -A $mnt/m && echo -- && ls -A $mnt/m/opq" 2>&1)
fi
if echo "$seen" | grep -q -- '--'; then
	assert_eq "$(echo "$seen" | tr '\n' ' ')" "big etc keep opq www -- new " \
		"an overlay of the layers: whited-out files gone, the opaque directory shows the upper's alone"
else
	skip "overlayfs cannot be mounted here ($seen)"
fi

# --- 4. hostile layers: nothing outside the store, nothing but tmp/ in it
CANARY=$T/canary
mkdir -p "$CANARY"
echo untouched >"$CANARY/secret"
canary_state() { find "$CANARY" -printf '%p %s %T@\n' | sort; }
CANARY0=$(canary_state)
BEFORE=$(state)
hostile() { # hostile NAME TAR DESCRIPTION
	imp "$2"
	assert_eq "$rc" 125 "hostile: $3: refused with 125"
	echo "#   $err" | head -n 2
	assert_eq "$(canary_state)" "$CANARY0" "hostile: $3: nothing changed outside the store"
	assert_eq "$(state)" "$BEFORE" "hostile: $3: nothing but tmp/ changed in the store"
}
H=$T/h
mkdir -p "$H/d" "$H/s1" "$H/s2/link"
echo evil >"$H/d/evil"
# the paths climb from the layer's directory in the store: ROOT/tmp/layer-X/root
tar -P --transform "s,^evil,../../../../canary/evil," -cf "$T/dotdot.tar" -C "$H/d" evil
mk_docker "$T/h1.tar" "" "$T/l1.tar" "$T/dotdot.tar"
hostile dotdot "$T/h1.tar" "'../' entry"
tar -P --transform "s,^evil,$CANARY/evil," -cf "$T/abs.tar" -C "$H/d" evil
mk_docker "$T/h2.tar" "" "$T/abs.tar"
hostile abs "$T/h2.tar" "absolute entry name"
ln -s "$CANARY" "$H/s1/link"
echo pwned >"$H/s2/link/pwned"
tar -cf "$T/symw.tar" -C "$H/s1" link
tar -rf "$T/symw.tar" -C "$H/s2" link/pwned
mk_docker "$T/h3.tar" "" "$T/symw.tar"
hostile symw "$T/h3.tar" "symlink to outside, then a write through it"
echo x >"$H/d/x" && ln "$H/d/x" "$H/d/h"
tar -P --transform "s,^x\$,../../../../canary/secret,RSh" -cf "$T/hlout.tar" -C "$H/d" x h
mk_docker "$T/h4.tar" "" "$T/hlout.tar"
hostile hlout "$T/h4.tar" "hard link to '../../../../canary/secret'"
# an image's own overlay xattrs would redirect overlayfs to other layers' files: dropped
mkdir -p "$H/x/dir"
if setfattr -n user.overlay.redirect -v /etc "$H/x/dir" 2>/dev/null; then
	tar --xattrs --xattrs-include='user.*' -cf "$T/xattr.tar" -C "$H/x" dir
	mk_docker "$T/h5.tar" "xattr:1" "$T/xattr.tar"
	imp "$T/h5.tar"
	x=$(sha "$T/xattr.tar")
	assert_eq "$rc:$(getfattr -n user.overlay.redirect "$S/layers/$x/root/dir" 2>/dev/null)" "0:" \
		"an image's user.overlay.redirect is not stored"
	run_crib rmi xattr:1
else
	skip "this filesystem takes no user xattrs"
fi
# the attacker's review of issue 35: an image's own whiteout (a character device 0:0 entry in the
# tar) is no whiteout of crib's: not stored, and a hard link to it refused; a path below a
# whiteout of the same layer: refused
python3 - "$T/cdev.tar" "$T/below.tar" "$T/whlink.tar" <<'PY'
import io, sys, tarfile
def add(t, name, kind=tarfile.REGTYPE, data=b"", link=""):
    i = tarfile.TarInfo(name); i.type = kind; i.size = len(data); i.linkname = link; i.mode = 0o644
    t.addfile(i, io.BytesIO(data) if data else None)
with tarfile.open(sys.argv[1], "w", format=tarfile.GNU_FORMAT) as t:
    add(t, "keep", data=b"kept\n")
    add(t, "wh", tarfile.CHRTYPE)
with tarfile.open(sys.argv[3], "w", format=tarfile.GNU_FORMAT) as t:
    add(t, "wh", tarfile.CHRTYPE)
    add(t, "whlink", tarfile.LNKTYPE, link="wh")
with tarfile.open(sys.argv[2], "w", format=tarfile.GNU_FORMAT) as t:
    add(t, ".wh.d")
    add(t, "d/f", data=b"below\n")
PY
mk_docker "$T/h6.tar" "cdev:1" "$T/cdev.tar"
imp "$T/h6.tar"
x=$(sha "$T/cdev.tar")
assert_eq "$rc:$(find "$S/layers/$x/root" -type c | wc -l):$(cat "$S/layers/$x/root/keep" 2>/dev/null)" "0:0:kept" \
	"a character device 0:0 in an image's tar is not stored (no whiteout of the image's own)"
run_crib rmi cdev:1
mk_docker "$T/h8.tar" "" "$T/whlink.tar"
hostile whlink "$T/h8.tar" "a hard link to the image's own character device 0:0"
mk_docker "$T/h7.tar" "" "$T/below.tar"
hostile below "$T/h7.tar" "a path below a whiteout of the same layer"
# a config that lies about a layer's diff_id: its blob is the manifest's, its tar is not the
# config's (a store keyed by diff_id would keep the lie for every image that names that id)
mk_oci "$T/liar" "" "$T/l1.tar" "$T/l3.tar" "$(echo lie | sha256sum | cut -d' ' -f1)"
BEFORE=$(state)
imp --name liar "$T/liar"
assert_eq "$rc" 125 "a layer whose bytes are not the config's diff_id: refused"
assert_contains "$err" "not the diff_id" "and the message says so"
assert_eq "$(state)" "$BEFORE" "and the store is as it was"

# --- 5. bad input
imp --name '../evil' "$T/oci"
assert_eq "$rc" 125 "a --name that is no reference: 125"
assert_eq "$(state)" "$BEFORE" "and nothing changed"
echo 'not a tar' >"$T/junk"
imp "$T/junk"
assert_eq "$rc" 125 "a source that is no image: 125"
mkdir -p "$T/rootfs-only" && echo hi >"$T/rootfs-only/f"
tar -cf "$T/fs.tar" -C "$T/rootfs-only" .
imp "$T/fs.tar"
assert_contains "$rc:$err" "125:crib: '$T/fs.tar' is a filesystem tarball" "a filesystem tarball has no place in the store"
mkdir -p "$T/pub" && chmod 0777 "$T/pub"
CRIB_STORE=$T/pub/store run_crib image import "$T/oci"
assert_contains "$rc:$err" "125:crib: image store: other users may write" "a store below a directory others may write is refused"

# --- 6. SIGKILL during an add: no half layer or image; prune empties tmp/
BIG=$T/bigl
mkdir -p "$BIG"
i=0
while [ $i -lt 40 ]; do head -c 4000000 /dev/zero >"$BIG/f$i"; i=$((i + 1)); done
tarit "$T/big.tar" "$BIG"
mk_docker "$T/bigimg.tar" "big:1" "$T/l1.tar" "$T/big.tar"
rm -rf "$BIG"
BEFORE=$(state)
"$CRIB" image import "$T/bigimg.tar" >/dev/null 2>&1 &
pid=$!
n=0
while [ $n -lt 400 ] && ! ls "$S"/tmp/layer-*/root/f1 >/dev/null 2>&1; do sleep 0.02; n=$((n + 1)); done
# crib execs crib-image: $pid is it
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
assert_eq "$(find "$S/tmp" -maxdepth 1 -name 'layer-*' ! -name '*.lock' | wc -l | tr -d ' ')" 1 "killed during a layer: its work is in tmp/"
assert_eq "$(state)" "$BEFORE" "and nothing of it is in layers/, images/ or names/"
run_crib image prune
assert_eq "$rc" 0 "crib image prune ($err)"
assert_contains "$out" "1 unfinished entry" "prune removes the killed add's work"
assert_eq "$(ls -A "$S/tmp")" "" "and tmp/ is empty"
assert_eq "$(state)" "$BEFORE" "and the images are as they were"

# --- 7. two adds of one image at once: each layer unpacked once
"$CRIB" image import --name big:a "$T/bigimg.tar" >"$T/a.out" 2>&1 &
p1=$!
"$CRIB" image import --name big:b "$T/bigimg.tar" >"$T/b.out" 2>&1 &
p2=$!
wait $p1
r1=$?
wait $p2
r2=$?
assert_eq "$r1:$r2" "0:0" "two adds of one image at once both succeed"
assert_eq "$(cat "$T/a.out" "$T/b.out" | grep -o '[0-9] new' | sort | tr '\n' ' ')" "0 new 1 new " \
	"the new layer is unpacked by one of them alone"
assert_eq "$(nlayers):$(nimages)" "4:3" "one more layer, one more image"

# --- 8. rmi and prune
run_crib rmi big:a
assert_eq "$rc:$out" "0:removed the name 'big:a'; image $(cut -c1-19 "$S/names/docker.io+library+big:b") keeps its other names" \
	"rmi of one of two names removes the name alone"
CID=0123456789abcdef0123456789abcdef
mkdir -p "$S/containers/$CID"
echo "{\"id\":\"$CID\",\"image\":\"$(cat "$S/names/docker.io+library+big:b")\",\"name\":\"web\",\"created\":1,\"rootfs\":\"overlay\"}" >"$S/containers/$CID/container.json"
run_crib rmi big:b
assert_eq "$rc" 125 "rmi of an image a container uses: refused"
assert_contains "$err" "the container 'web' uses the image" "and the message names the container"
assert_eq "$(nimages)" 3 "and nothing is removed"
rm -rf "${S:?}/containers/$CID"
run_crib rmi big:b
assert_contains "$rc:$out" "0:removed image sha256:" "rmi of its last name removes the image"
assert_contains "$out" "1 layer" "and the layer no other image lists"
assert_eq "$(nlayers):$(nimages)" "3:2" "the base layer stays: other images list it"
run_crib rmi "$ID"
assert_contains "$rc:$out" "0:removed image sha256:$ID (2 names, 1 layer" "rmi by id removes the image with both names"
assert_eq "$(nlayers):$(nimages)" "2:1" "its own layer goes, the shared one stays"
run_crib rmi nosuch
assert_contains "$rc:$err" "125:crib: no image 'nosuch' in the store" "rmi of an image that is not there"
run_crib rmi other:2
assert_eq "$rc:$(nlayers):$(nimages)" "0:0:0" "the last image's rmi empties layers/ and images/"
run_crib images
assert_eq "$(echo "$out" | wc -l | tr -d ' ')" 1 "crib images: the header alone"
# an image with no name (a source without one) is listed by id, and pruned
mk_docker "$T/anon.tar" "" "$T/l3.tar"
imp "$T/anon.tar"
assert_eq "$rc" 0 "an image without a name ($err)"
run_crib images
assert_contains "$out" "<none>" "is listed as <none>"
run_crib image prune
assert_contains "$rc:$out" "0:removed 1 image, 1 layer" "prune removes an image with no name and no container"
run_crib system df
assert_contains "$out" "total                0 B" "df: an empty store"

done_testing
