#!/bin/sh
# Images (issue 17): `crib image import` of a docker-archive, an OCI layout (gzip and zstd
# layers) and a multi-architecture index the test builds itself with tar, gzip, zstd and
# sha256sum (nothing is pulled); whiteouts, opaque directories, links; hostile archives refused
# with nothing written outside the target (a canary directory beside it); the generated spec run
# as is; ownership inside as the image says, through the caller's subordinate ids.
. "$(dirname "$0")/../lib/libtest.sh"

if ! "$CRIB" image platform >/dev/null 2>&1; then
	echo "1..0 # SKIP crib-image is not built (libarchive-dev and libssl-dev missing at make time)"
	exit 0
fi
for tool in tar gzip zstd sha256sum; do
	command -v $tool >/dev/null || {
		echo "1..0 # SKIP $tool is not installed"
		exit 0
	}
done
OUT=$T/out # every import goes below here; hostile ones aim at $CANARY, its sibling
mkdir -p "$OUT"
# files of the caller's subordinate ids are not the caller's to remove: crib image rm does it
# shellcheck disable=SC2154 # d is the trap's loop variable
trap 'for d in "$OUT"/*; do [ -e "$d/crib.ini" ] && "$CRIB" image rm "$d"; done; rm -rf "$T"' EXIT
PLATFORM=$("$CRIB" image platform)
OS=${PLATFORM%%/*}
rest=${PLATFORM#*/}
ARCH=${rest%%/*}
VARIANT=
[ "$rest" != "$ARCH" ] && VARIANT=${rest#*/}

sha() { sha256sum "$1" | cut -d' ' -f1; }
size() { wc -c <"$1" | tr -d ' '; }
# tarit OUT DIR [TAR OPTIONS]: a layer: DIR's content, owned by root unless told
tarit() {
	_o=$1 _d=$2
	shift 2
	tar --numeric-owner --owner=0 --group=0 --sort=name "$@" -cf "$_o" -C "$_d" .
}

# --- the image content: the test's busybox, and what the layers do to it
L1=$T/l1 L2=$T/l2
mkdir -p "$L1" "$L2"
# (as the test user, root's 0700 /root of the test rootfs is not readable: left out)
tar -C "$ROOTFS" --exclude=./root -cf - . | tar -C "$L1" -xf -
mkdir -p "$L1/gone/deep" "$L1/opq/sub" "$L1/data" "$L1/www"
echo "in a deleted dir" >"$L1/gone/deep/file"
echo old >"$L1/opq/old"
echo old >"$L1/opq/sub/older"
echo keep >"$L1/keep"
echo doomed >"$L1/doomed"
echo a >"$L1/data/a"
chmod 0751 "$L1/data"
echo page >"$L1/www/index"
# layer 2: deletes gone/ and doomed, makes opq/ opaque, adds links
mkdir -p "$L2/opq" "$L2/bin2"
: >"$L2/.wh.gone"
: >"$L2/.wh.doomed"
: >"$L2/opq/.wh..wh..opq"
echo new >"$L2/opq/new"
ln -s keep "$L2/link"
ln -s /data/a "$L2/abslink"
echo shared >"$L2/h1"
ln "$L2/h1" "$L2/h2"
printf '#!/bin/sh\necho script\n' >"$L2/bin2/script"
chmod 0755 "$L2/bin2/script"
tarit "$T/l1.tar" "$L1" --exclude=./www
# www/ belongs to uid 33 (www-data on Debian): appended with that owner
tar --numeric-owner --owner=33 --group=33 -rf "$T/l1.tar" -C "$L1" ./www
tarit "$T/l2.tar" "$L2"

# the expected tree, made by hand
EXP=$T/expected
cp -a "$L1" "$EXP"
rm -rf "$EXP/gone" "$EXP/doomed" "$EXP/opq"
cp -a "$L2/." "$EXP/"
rm -f "$EXP/.wh.gone" "$EXP/.wh.doomed" "$EXP/opq/.wh..wh..opq"
mkdir -m 0755 "$EXP/data/work" # the image's WorkingDir, which the import makes

# listing DIR: type, mode, name, link target and content digest of every entry
listing() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | while read -r p; do
		if [ -L "$p" ]; then
			echo "l $p -> $(readlink "$p")"
		elif [ -d "$p" ]; then
			echo "d $(stat -c %a "$p") $p"
		elif [ -f "$p" ]; then
			echo "f $(stat -c %a "$p") $p $(sha256sum <"$p" | cut -c1-16)"
		else
			echo "? $p"
		fi
	done)
}

CONFIG_JSON() { # CONFIG_JSON DIFF1 DIFF2
	cat <<EOF2
{"architecture":"$ARCH","os":"$OS"${VARIANT:+,"variant":"$VARIANT"},"config":{"Env":["PATH=/usr/sbin:/usr/bin:/sbin:/bin","GREETING=hello \"world\" #1"],"Entrypoint":["/bin/sh","-c"],"Cmd":["echo \"\$GREETING\" from \$(pwd) as \$(id -u):\$(id -g)"],"WorkingDir":"/data/work","User":"33:33","ExposedPorts":{"80/tcp":{}}},"rootfs":{"type":"layers","diff_ids":["sha256:$1","sha256:$2"]}}
EOF2
}

# --- a docker-archive (docker save): manifest.json, HEX.json, ID/layer.tar
mk_docker() { # mk_docker OUT.tar L1.tar L2.tar
	_d=$T/docker.$$
	rm -rf "$_d"
	mkdir -p "$_d/one" "$_d/two"
	cp "$2" "$_d/one/layer.tar"
	cp "$3" "$_d/two/layer.tar"
	CONFIG_JSON "$(sha "$2")" "$(sha "$3")" >"$_d/config"
	_c=$(sha "$_d/config")
	mv "$_d/config" "$_d/$_c.json"
	echo "[{\"Config\":\"$_c.json\",\"RepoTags\":[\"test:1\"],\"Layers\":[\"one/layer.tar\",\"two/layer.tar\"]}]" >"$_d/manifest.json"
	tar -cf "$1" -C "$_d" .
	rm -rf "$_d"
}

# --- an OCI layout: layer 1 gzip, layer 2 zstd
blob() { # blob DIR FILE: move FILE into DIR/blobs/sha256, print its descriptor's digest and size
	_h=$(sha "$2")
	_s=$(size "$2")
	mkdir -p "$1/blobs/sha256"
	mv "$2" "$1/blobs/sha256/$_h"
	echo "sha256:$_h $_s"
}
mk_oci() { # mk_oci DIR: the image with one manifest, no platform in the index
	mkdir -p "$1"
	echo '{"imageLayoutVersion":"1.0.0"}' >"$1/oci-layout"
	gzip -n -c "$T/l1.tar" >"$1/l1"
	zstd -q -c "$T/l2.tar" >"$1/l2"
	# shellcheck disable=SC2046 # blob prints two words: the digest and the size
	set -- "$1" $(blob "$1" "$1/l1") $(blob "$1" "$1/l2")
	CONFIG_JSON "$(sha "$T/l1.tar")" "$(sha "$T/l2.tar")" >"$1/cfg"
	# shellcheck disable=SC2046
	set -- "$@" $(blob "$1" "$1/cfg")
	cat >"$1/m" <<EOF2
{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"$6","size":$7},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"$2","size":$3},{"mediaType":"application/vnd.oci.image.layer.v1.tar+zstd","digest":"$4","size":$5}]}
EOF2
	# shellcheck disable=SC2046
	set -- "$1" $(blob "$1" "$1/m")
	echo "{\"schemaVersion\":2,\"manifests\":[{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"$2\",\"size\":$3}]}" >"$1/index.json"
}

mk_docker "$T/docker.tar" "$T/l1.tar" "$T/l2.tar"
mk_oci "$T/oci"

CANARY=$T/canary
mkdir -p "$CANARY"
echo untouched >"$CANARY/secret"
canary_state() { find "$CANARY" -printf '%p %s %T@\n' | sort; }
CANARY0=$(canary_state)

imp() { run_crib image import "$@"; }

# --- 1. the docker-archive
imp "$T/docker.tar" "$OUT/docker"
assert_eq "$rc" 0 "docker-archive: imported ($err)"
assert_contains "$out" "imported docker-archive $PLATFORM" "and says which platform"
assert_eq "$(listing "$OUT/docker/rootfs")" "$(listing "$EXP")" \
	"docker-archive: the tree is exactly the expected one (whiteout, opaque dir, links, a file in a deleted dir)"
assert_eq "$(stat -c %i "$OUT/docker/rootfs/h1")" "$(stat -c %i "$OUT/docker/rootfs/h2")" "h1 and h2 are one file (hard link)"
assert_eq "$(stat -c %a "$OUT/docker")" 700 "DIR is 0700 (root's files or your subordinate ids' stay out of others' reach)"

# --- 2. the OCI layout, directory and tarball
imp "$T/oci" "$OUT/oci"
assert_eq "$rc" 0 "OCI layout (gzip and zstd layers): imported ($err)"
assert_eq "$(listing "$OUT/oci/rootfs")" "$(listing "$EXP")" "OCI layout: the tree is exactly the expected one"
tar -cf "$T/oci.tar" -C "$T/oci" .
imp "$T/oci.tar" "$OUT/ocitar"
assert_eq "$rc:$(listing "$OUT/ocitar/rootfs" | sha256sum)" "0:$(listing "$EXP" | sha256sum)" "OCI layout as a tarball: the same tree"

# --- 3. a docker export: one filesystem tarball
tarit "$T/export.tar" "$L1"
imp "$T/export.tar" "$OUT/export"
assert_eq "$rc:$(listing "$OUT/export/rootfs" | sha256sum)" "0:$(listing "$L1" | sha256sum)" "docker export tarball: the same tree as the source"
assert_contains "$(cat "$OUT/export/crib.ini")" "args = /bin/sh" "its spec runs /bin/sh (an export has no config)"

# --- 3b. extended attributes, where the filesystem takes them (user.*: no privilege needed)
mkdir -p "$T/xa" && echo x >"$T/xa/f"
tar --format=pax --pax-option='SCHILY.xattr.user.crib:=hello' -cf "$T/xattr.tar" -C "$T/xa" f
imp "$T/xattr.tar" "$OUT/xattr"
case "$err" in
*"extended attributes were refused"*) skip "this filesystem refuses user.* extended attributes: $err" ;;
*) assert_eq "$rc:$(python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "user.crib").decode())' "$OUT/xattr/rootfs/f" 2>&1)" \
	"0:hello" "an extended attribute of the layer (pax SCHILY.xattr) is kept" ;;
esac

# --- 4. the spec runs the image's command, as the image's user
ini=$OUT/docker/crib.ini
assert_contains "$(cat "$ini")" "# the image exposes 80/tcp" "the exposed port is a comment of the spec"
run_crib run "$ini"
assert_eq "$rc:$out" '0:hello "world" #1 from /data/work as 33:33' "crib run DIR/crib.ini: entrypoint + cmd, env, workdir (made by the import) and user of the image"
if has_subids; then
	run_crib run "$ini" -- /bin/stat -c '%u:%g %n' /www/index /www /keep
	assert_eq "$out" "33:33 /www/index
33:33 /www
0:0 /keep" "ownership inside is the image's (uid 33 stays 33, root stays root)"
	if [ "$ROLE" = user ]; then
		sub=$(awk -F: -v u="$(id -un)" '$1 == u {print $2; exit}' /etc/subuid)
		assert_eq "$(stat -c %u "$OUT/docker/rootfs/www/index")" "$((sub + 33 - 1))" \
			"on disk it is the 33rd id of your /etc/subuid range, as uid = auto maps it"
	else
		assert_eq "$(stat -c %u:%g "$OUT/docker/rootfs/www/index")" 33:33 "as root, on disk the image's own ids"
	fi
else
	skips 2 "this user has no /etc/subuid range"
fi

# --- 4b. what podman itself saves (as root only: rootless podman needs a session of its own)
if [ "$ROLE" = root ] && command -v podman >/dev/null 2>&1; then
	# podman takes a run root of at most 50 characters
	pmrun=$(mktemp -d /tmp/crib-pm.XXXXXX)
	PM="podman --root $T/podman/root --runroot $pmrun --storage-driver vfs"
	if $PM import --change 'CMD ["/bin/sh","-c","echo saved by podman; id -u"]' --change 'USER 33' \
		--change 'WORKDIR /srv' "$T/export.tar" localhost/crib-test:1 >/dev/null 2>"$T/podman.err" &&
		$PM save -q -o "$T/podman-docker.tar" localhost/crib-test:1 >/dev/null 2>&1 &&
		$PM save -q --format oci-archive -o "$T/podman-oci.tar" localhost/crib-test:1 >/dev/null 2>&1; then
		for f in podman-docker podman-oci; do
			imp "$T/$f.tar" "$OUT/$f"
			run_crib run "$OUT/$f/crib.ini"
			assert_eq "$rc:$out" "0:saved by podman
33" "podman save ($f): imported and its command runs as its user"
		done
	else
		skips 2 "podman cannot import and save here: $(tail -n 1 "$T/podman.err")"
	fi
	$PM rmi -a -f >/dev/null 2>&1
	rm -rf "$T/podman" "$pmrun"
else
	skips 2 "podman save is tried as root, with podman installed"
fi

# --- 5. multi-architecture: the index picks this machine's manifest, or --platform's
mk_multi() { # mk_multi DIR PLATFORM... : the OCI image under an index of one manifest each
	_d=$1
	shift
	rm -rf "$_d"
	mk_oci "$_d"
	_m=$(sed 's/.*"digest":"sha256:\([0-9a-f]*\)".*/\1/' "$_d/index.json")
	_list=
	for _p in "$@"; do
		_os=${_p%%/*} _r=${_p#*/}
		_a=${_r%%/*} _v=
		[ "$_r" != "$_a" ] && _v=${_r#*/}
		# a manifest of its own per platform (an annotation tells them apart)
		sed "s|^{|{\"annotations\":{\"for\":\"$_p\"},|" "$_d/blobs/sha256/$_m" >"$_d/mm"
		# shellcheck disable=SC2046
		set -- $(blob "$_d" "$_d/mm")
		echo "$_p $1" >>"$_d/which"
		_list="$_list${_list:+,}{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"$1\",\"size\":$2,\"platform\":{\"os\":\"$_os\",\"architecture\":\"$_a\"${_v:+,\"variant\":\"$_v\"}}}"
	done
	echo "{\"schemaVersion\":2,\"manifests\":[$_list]}" >"$_d/index.json"
}
mk_multi "$T/multi" linux/arm/v7 "$PLATFORM" linux/arm/v6 linux/arm64/v8
imp "$T/multi" "$OUT/multi"
want=$(awk -v p="$PLATFORM" '$1 == p {print $2}' "$T/multi/which")
assert_eq "$rc" 0 "multi-arch index: imported"
assert_contains "$out" "$PLATFORM (manifest $want)" "it picks this machine's manifest ($PLATFORM) and says which"
imp --platform linux/arm/v6 "$T/multi" "$OUT/multi6"
want=$(awk '$1 == "linux/arm/v6" {print $2}' "$T/multi/which")
assert_contains "$out" "linux/arm/v6 (manifest $want)" "--platform linux/arm/v6 picks arm/v6, not arm/v7 (a Raspberry Pi Zero)"
# the same index one level down, as docker buildx and skopeo --all write it: index.json names
# an image index blob, which names the manifests
cp -a "$T/multi" "$T/nested"
sed 's/^{/{"mediaType":"application\/vnd.oci.image.index.v1+json",/' "$T/nested/index.json" >"$T/nested/ix"
# shellcheck disable=SC2046
set -- $(blob "$T/nested" "$T/nested/ix")
echo "{\"schemaVersion\":2,\"manifests\":[{\"mediaType\":\"application/vnd.oci.image.index.v1+json\",\"digest\":\"$1\",\"size\":$2}]}" >"$T/nested/index.json"
imp --platform linux/arm/v6 "$T/nested" "$OUT/nested"
assert_contains "$rc:$out" "0:imported OCI layout linux/arm/v6 (manifest $want)" "a nested index: the same choice, through the inner index"
mk_multi "$T/multi7" linux/arm/v7
imp --platform linux/arm/v6 "$T/multi7" "$OUT/multi7"
assert_eq "$rc:$err" "125:crib: image '$T/multi7': this image has linux/arm/v7 only; --platform asked for linux/arm/v6" \
	"an arm/v7-only image is refused for arm/v6"
mk_multi "$T/s390" linux/s390x linux/riscv64
imp "$T/s390" "$OUT/s390"
assert_eq "$rc" 125 "no manifest for this machine: exit 125"
assert_contains "$err" "this image has linux/s390x, linux/riscv64; this machine is $PLATFORM" "and the message says what the image has and what this machine is"
assert_eq "$(find "$OUT" -maxdepth 1 -name 'multi7' -o -maxdepth 1 -name 's390' | wc -l)" 0 "and nothing is made"

# --- 6. hostile archives: refused, nothing written outside the target, the target removed
hostile() { # hostile NAME TAR DESCRIPTION: a filesystem tarball that must be refused
	imp "$2" "$OUT/$1"
	assert_eq "$rc" 125 "hostile: $3: refused with 125"
	echo "#   $err" | head -n 2
	assert_eq "$(canary_state)" "$CANARY0" "hostile: $3: nothing changed outside the target"
	assert_eq "$([ -e "$OUT/$1" ] && echo left)" "" "hostile: $3: the half-made target is removed"
}
H=$T/h
mkdir -p "$H/d"
echo evil >"$H/d/evil"
tar -P --transform "s,^evil,../../canary/evil," -cf "$T/dotdot.tar" -C "$H/d" evil
hostile dotdot "$T/dotdot.tar" "'../' entry"
tar -P --transform "s,^evil,$CANARY/evil," -cf "$T/abs.tar" -C "$H/d" evil
hostile abs "$T/abs.tar" "absolute entry name"
# a symlink to the canary, then a file through it (one layer)
mkdir -p "$H/s1" "$H/s2/link"
ln -s "$CANARY" "$H/s1/link"
echo pwned >"$H/s2/link/pwned"
tar -cf "$T/symw.tar" -C "$H/s1" link
tar -rf "$T/symw.tar" -C "$H/s2" link/pwned
hostile symw "$T/symw.tar" "symlink to outside, then a write through it"
# the same with a relative symlink that stays inside the target
mkdir -p "$H/s3" && ln -s etc "$H/s3/link"
tar -cf "$T/symin.tar" -C "$H/s3" link
tar -rf "$T/symin.tar" -C "$H/s2" link/pwned
hostile symin "$T/symin.tar" "symlink inside the target, then a write through it"
# a symlink replaced by a file: the file is written, not the link's target
mkdir -p "$H/s4"
echo fine >"$H/s4/secret"
ln -s "$CANARY/secret" "$H/s1/secret"
tar -cf "$T/symrep.tar" -C "$H/s1" secret
tar -rf "$T/symrep.tar" -C "$H/s4" secret
imp "$T/symrep.tar" "$OUT/symrep"
assert_eq "$rc:$(cat "$OUT/symrep/rootfs/secret"):$(cat "$CANARY/secret")" "0:fine:untouched" \
	"a file over an earlier symlink replaces the link, and the link's target is untouched"
# hard links out
echo x >"$H/d/x" && ln "$H/d/x" "$H/d/h"
tar -P --transform "s,^x\$,../../canary/secret,RSh" -cf "$T/hlout.tar" -C "$H/d" x h
hostile hlout "$T/hlout.tar" "hard link to '../../canary/secret'"
tar -P --transform "s,^x\$,$CANARY/secret,RSh" -cf "$T/hlabs.tar" -C "$H/d" x h
hostile hlabs "$T/hlabs.tar" "hard link to an absolute path"
mkdir -p "$H/hs"
echo y >"$H/hs/y" && ln "$H/hs/y" "$H/hs/h"
tar -cf "$T/hlsym.tar" -C "$H/s1" link
tar -P --transform "s,^y\$,link/secret,RSh" -rf "$T/hlsym.tar" -C "$H/hs" y h
hostile hlsym "$T/hlsym.tar" "hard link through a symlink to outside"
# across layers: layer 1 plants the symlink, layer 2 writes through it
tar -cf "$T/hl1.tar" -C "$H/s1" link
tar -cf "$T/hl2.tar" -C "$H/s2" link/pwned
mk_docker "$T/xlayer.tar" "$T/hl1.tar" "$T/hl2.tar"
hostile xlayer "$T/xlayer.tar" "layer 1's symlink, layer 2's write through it"
# a bad digest: the second layer is not the one the config names
cp "$T/l2.tar" "$T/l2bad.tar" && printf 'x' >>"$T/l2bad.tar"
mk_docker "$T/bad.tar" "$T/l1.tar" "$T/l2.tar"
mkdir -p "$T/badd" && tar -xf "$T/bad.tar" -C "$T/badd" && cp "$T/l2bad.tar" "$T/badd/two/layer.tar"
tar -cf "$T/bad.tar" -C "$T/badd" .
imp "$T/bad.tar" "$OUT/bad"
assert_eq "$rc" 125 "hostile: a layer that is not its digest: refused with 125"
assert_contains "$err" "layer 2: 'two/layer.tar' has sha256:$(sha "$T/l2bad.tar")" "and the message names the layer and its digest"
assert_eq "$([ -e "$OUT/bad" ] && echo made)" "" "and nothing is made: digests are checked before anything"
cp -a "$T/oci" "$T/ocibad"
f=$(find "$T/ocibad/blobs/sha256" -type f -name '[0-9a-f]*' | head -n 1)
f=${f##*/}
chmod u+w "$T/ocibad/blobs/sha256/$f" && printf 'x' >>"$T/ocibad/blobs/sha256/$f"
imp "$T/ocibad" "$OUT/ocibad"
assert_eq "$rc:$([ -e "$OUT/ocibad" ] && echo made)" "125:" "an OCI blob changed: refused, nothing made"

# --- 7. invalid input: a clear error, 125
imp "$T/nonexistent" "$OUT/x"
assert_eq "$rc:$err" "125:crib: cannot open image '$T/nonexistent': No such file or directory" "a missing source"
imp "$T/docker.tar" "$OUT/docker"
assert_eq "$rc:$err" "125:crib: '$OUT/docker' exists and is not empty
crib: hint: import into a new directory; crib does not overwrite one" "a target that is not empty"
mkdir "$OUT/open" && chmod 0777 "$OUT/open"
imp "$T/docker.tar" "$OUT/open"
assert_contains "$rc:$err" "125:crib: '$OUT/open' exists and is not yours alone (owner $(id -u), mode 0777)" \
	"an empty target others may write to"
rmdir "$OUT/open"
echo 'not a tar' >"$T/junk"
imp "$T/junk" "$OUT/junk"
assert_contains "$rc:$err" "125:crib: '$T/junk' is not a tar archive" "a file that is no archive"
mkdir -p "$T/badjson" && echo '{"manifests": [' >"$T/badjson/index.json"
imp "$T/badjson" "$OUT/badjson"
assert_contains "$rc:$err" "125:crib: image '$T/badjson': index.json is not JSON" "an index.json that is not JSON"
imp --platform arm "$T/oci" "$OUT/x"
assert_contains "$rc:$err" "125:crib: 'arm' is not a platform" "a --platform that is not one"

# --- 8. crib image rm: the import goes, files of subordinate ids too
run_crib image rm "$OUT/docker"
assert_eq "$rc:$err:$([ -e "$OUT/docker" ] && echo left)" "0::" "crib image rm DIR removes an import"
run_crib image rm "$CANARY"
assert_eq "$rc:$(canary_state)" "125:$CANARY0" "and refuses a directory that is not one"

done_testing
