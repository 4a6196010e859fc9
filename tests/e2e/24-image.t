#!/bin/sh
# Images (issue 17): `crib image import` of a docker-archive, an OCI layout (gzip and zstd
# layers) and a multi-architecture index the test builds itself with tar, gzip, zstd and
# sha256sum (nothing is pulled); whiteouts, opaque directories, links; hostile archives refused
# with nothing written outside the target (a canary directory beside it); the generated spec run
# as is; ownership inside as the image says, through the caller's subordinate ids.
# Issue 31 (section 9): an image config's strings that would add keys to crib.ini or act on the
# terminal, a user racing root's import for its DIR, an existing DIR others can reach, a
# decompression bomb, FIFOs where the import reads; and (9.7) what its review found still open:
# ACLs, a shared primary group and symbolic links' targets on the way to DIR, directories and
# small files under --max-size, an oversized blob and nested indexes.
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
PUB= # a directory other users can reach, outside $T
# files of the caller's subordinate ids are not the caller's to remove: crib image rm does it
# shellcheck disable=SC2154 # d is the trap's loop variable
trap 'for d in "$OUT"/*; do [ -e "$d/crib.ini" ] && "$CRIB" image rm "$d"; done; umount "$T/small" 2>/dev/null; [ -z "$PUB" ] || rm -rf "$PUB"; rm -rf "$T"' EXIT
. "$(dirname "$0")/../lib/imglayers.sh"

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

# --- 9. issue 31: what an image chooses stays out of crib.ini, out of DIR's reach for other
# users, off the terminal, and within the disk
# mk_image OUT.tar CONFIG LAYER.tar...: a docker-archive of those layers whose config object is
# CONFIG (JSON), for this machine's platform
mk_image() {
	_out=$1 _cfg=$2
	shift 2
	_d=$T/img.$$
	rm -rf "$_d" && mkdir -p "$_d"
	_ids='' _layers='' _i=0
	for _l in "$@"; do
		_i=$((_i + 1))
		mkdir -p "$_d/$_i" && cp "$_l" "$_d/$_i/layer.tar"
		_ids="$_ids${_ids:+,}\"sha256:$(sha "$_l")\""
		_layers="$_layers${_layers:+,}\"$_i/layer.tar\""
	done
	printf '{"architecture":"%s","os":"%s"%s,"config":%s,"rootfs":{"type":"layers","diff_ids":[%s]}}' \
		"$ARCH" "$OS" "${VARIANT:+,\"variant\":\"$VARIANT\"}" "$_cfg" "$_ids" >"$_d/config"
	_c=$(sha "$_d/config")
	mv "$_d/config" "$_d/$_c.json"
	echo "[{\"Config\":\"$_c.json\",\"RepoTags\":[\"t:1\"],\"Layers\":[$_layers]}]" >"$_d/manifest.json"
	tar -cf "$_out" -C "$_d" .
	rm -rf "$_d"
}
# the keys a spec made by the import may hold: the importer's, none the image chose
foreign_keys() { "$INI_DUMP" "$1" | grep -v -E '^(container\.rootfs|process\.(args|env|cwd|user)|namespaces\.net|idmap\.(uid|gid))='; }

# 9.1 (hole 2) newlines in the names of ports and volumes, in the stop signal: each would start
# a line of crib.ini of its own (on e007754 the image chose user = no and bound / at /host)
cfg='{"Cmd":["/bin/sh","-c","if [ -e /host/etc ]; then echo host; else echo no host; fi"],"ExposedPorts":{"80/tcp\n[namespaces]\nuser = no\n[mounts]\nbind = / /host rw\n#":{}},"Volumes":{"/v\r\n[security]\nlevel = unconfined\n#":{}},"StopSignal":"SIGTERM\n[namespaces]\nuser = no\n#"}'
mk_image "$T/inject.tar" "$cfg" "$T/l1.tar"
imp "$T/inject.tar" "$OUT/inject"
assert_eq "$rc" 0 "an image whose port, volume and stop signal names hold newlines imports ($err)"
assert_eq "$(foreign_keys "$OUT/inject/crib.ini")" "" \
	"and its crib.ini holds only the importer's keys: no [namespaces] user, no [mounts] bind, no [security] level"
assert_contains "$(grep '^# the image exposes' "$OUT/inject/crib.ini")" '80/tcp\x0a[namespaces]\x0auser = no' \
	"the port's name is one comment line, its newlines written \\x0a"
run_crib run "$OUT/inject/crib.ini"
assert_eq "$rc:$out" "0:no host" "crib run DIR/crib.ini: the host's / is not bound at /host"
# the source's name reaches the spec's first comment line
src="$T/evil
[namespaces]
user = no
.tar"
cp "$T/docker.tar" "$src"
imp "$src" "$OUT/evilname"
assert_eq "$rc:$(foreign_keys "$OUT/evilname/crib.ini")" "0:" "a source name with newlines adds no key to crib.ini"

# 9.1b (issue 36) the image's Healthcheck: carried over into [service] (CMD-SHELL as /bin/sh -c,
# nanoseconds as ms), its words escaped as args are; one crib.ini cannot hold is left out whole
hc='{"Cmd":["/bin/sleep","1000"],"Healthcheck":{"Test":["CMD-SHELL","test -e /bin/sh && echo \"fine $0\""],"Interval":250000000,"Timeout":3000000000,"StartPeriod":1000,"Retries":2}}'
mk_image "$T/hc.tar" "$hc" "$T/l1.tar"
imp "$T/hc.tar" "$OUT/hc"
assert_eq "$rc" 0 "an image with a Healthcheck imports ($err)"
assert_eq "$("$INI_DUMP" "$OUT/hc/crib.ini" | grep '^service\.' | tr '\n' '|')" \
	'service.healthcheck=/bin/sh -c "test -e /bin/sh && echo \"fine $0\""|service.healthcheck_interval=250ms|service.healthcheck_timeout=3000ms|service.healthcheck_start_period=1ms|service.healthcheck_retries=2|' \
	"its crib.ini: healthcheck = /bin/sh -c \"...\", interval 250ms, timeout 3000ms, retries 2"
HS=$T/hcstate
run_crib --root "$HS" run -d --name hc "$OUT/hc/crib.ini"
assert_eq "$rc:$out" "0:hc" "crib run -d of the import ($err)"
_i=0
while [ "$("$CRIB" --root "$HS" ps --format=ini | sed -n 's/^health = //p')" != healthy ] && [ $_i -lt 50 ]; do
	sleep 0.1
	_i=$((_i + 1))
done
assert_eq "$("$CRIB" --root "$HS" ps --format=ini | sed -n 's/^health = //p;s/^health_output = //p' | tr '\n' '|')" 'healthy|fine /bin/sh\n|' "the image's check runs: healthy, its output in crib ps"
"$CRIB" --root "$HS" rm -f hc >/dev/null 2>&1
run_crib run --name hcfg "$OUT/hc/crib.ini"
assert_eq "$rc" 125 "the import's crib.ini run in the foreground: refused (a healthcheck is for -d)"
mk_image "$T/hcnone.tar" '{"Cmd":["/bin/true"],"Healthcheck":{"Test":["NONE"]}}' "$T/l1.tar"
imp "$T/hcnone.tar" "$OUT/hcnone"
assert_eq "$rc:$(grep -c '^\[service\]' "$OUT/hcnone/crib.ini")" "0:0" "Healthcheck NONE: no [service] section"
mk_image "$T/hcevil.tar" '{"Cmd":["/bin/true"],"Healthcheck":{"Test":["CMD","/bin/true\n[namespaces]\nuser = no\n[mounts]\nbind = / /host rw"],"Interval":-5}}' "$T/l1.tar"
imp "$T/hcevil.tar" "$OUT/hcevil"
assert_eq "$rc:$(foreign_keys "$OUT/hcevil/crib.ini")" "0:" "a Healthcheck with newlines in its test: imports, and adds no key of the image's"
assert_contains "$(cat "$OUT/hcevil/crib.ini")" "# not applied: the image's Healthcheck (config.Healthcheck.Test[1] cannot be a crib.ini word)" "a comment says it was left out"

# 9.2 (hole 9e) an image's escape sequences in what crib image prints: a User that is not in the
# image's passwd is named in the error
ESC=$(printf '\033')
BEL=$(printf '\007')
mk_image "$T/esc.tar" '{"User":"nobody\u001b]0;pwned\u0007\u001b[2J\u001b[31m","Cmd":["/bin/true"]}' "$T/l2.tar"
imp "$T/esc.tar" "$OUT/esc"
assert_eq "$rc" 125 "a User that is not in the image's passwd is refused"
assert_eq "$(printf '%s' "$err" | tr -d -c "$ESC$BEL" | wc -c)" 0 "the error holds no ESC or BEL byte of the image's"
assert_contains "$err" "nobody\\x1b]0;pwned\\x07\\x1b[2J" "it shows them escaped, \\x1b"
# an entry name with them, refused
mkdir -p "$T/escl" && echo x >"$T/escl/f"
tar -P --transform "s,^f\$,/\x1b]0;pwned\x07x," -cf "$T/escent.tar" -C "$T/escl" f
imp "$T/escent.tar" "$OUT/escent"
assert_eq "$rc:$(printf '%s' "$err" | tr -d -c "$ESC$BEL" | wc -c)" "125:0" \
	"an absolute entry name with ESC and BEL in it: refused, and the error shows neither"

# 9.3 (hole 5) an existing DIR other users can reach: the image's setuid-root program would be
# theirs to run (on e007754 another user ran it: ruid 1001, euid 0)
mkdir -p "$T/suidl" && cp "$ROOTFS/usr/local/bin/probe" "$T/suidl/suid" && chmod 4755 "$T/suidl/suid"
tarit "$T/suid.tar" "$T/suidl"
mk_image "$T/suid-img.tar" '{"Cmd":["/suid","ids"]}' "$T/suid.tar"
# (in /tmp, which every user can reach: the test's $T may be below a directory shut to others)
PUB=$(mktemp -d /tmp/crib-pub.XXXXXX)
chmod 755 "$PUB"
SHARED=$PUB/shared
mkdir -m 0755 "$SHARED"
imp "$T/suid-img.tar" "$SHARED"
assert_eq "$rc" 125 "an existing empty 0755 DIR other users can reach is refused"
assert_contains "$err" "exists and other users can reach it (mode 0755" "saying why"
assert_contains "$err" "hint: chmod 700 $SHARED, or import into a new directory" "and what to do"
assert_eq "$(ls -A "$SHARED")" "" "and DIR is left as it was, empty"
if [ "$ROLE" = root ]; then
	r=$(setpriv --reuid=crib-test --regid=crib-test --init-groups sh -c "'$SHARED/rootfs/suid' ids" 2>&1)
	assert_eq "$(echo "$r" | grep -c '^[0-9]* 0$')" 0 "another user does not run the image's setuid program as root ($r)"
else
	skip "running a setuid file as another user needs root"
fi
mkdir -m 0700 "$OUT/priv" && mkdir -m 0755 "$OUT/priv/img"
imp "$T/suid-img.tar" "$OUT/priv/img"
assert_eq "$rc" 0 "an existing 0755 DIR below a 0700 directory is taken ($err)"
"$CRIB" image rm "$OUT/priv/img" 2>/dev/null
rmdir "$OUT/priv/img" 2>/dev/null

# 9.4 (hole 4) another user swaps DIR for a directory of theirs between root's mkdir and the
# next step (on e007754 the image went into theirs: 5 of 5 wins in the issue, 8 of 8 here; 2
# of 5 through 1500 "./" with a fuzzer on the other core). The parent is world-writable, not
# sticky; a long path of "./" widens the window the way a slow disk would
if [ "$ROLE" = root ] && id crib-test >/dev/null 2>&1 && [ -x /usr/bin/python3 ]; then
	RACE=$PUB/race
	mkdir -m 0777 "$RACE"
	dots=$(printf './%.0s' $(seq 2000)) # (4000 bytes of PATH_MAX's 4096)
	# the attacker: a directory of its own, exchanged (renameat2 RENAME_EXCHANGE) with DIR the
	# moment DIR exists; it then leaves it there
	attack='
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
os.chdir(sys.argv[1])
name = sys.argv[2].encode()
os.mkdir(name + b".mine", 0o777)
os.chmod(name + b".mine", 0o777)
open(name + b".ready", "w").write("ready")
while libc.renameat2(-100, name, -100, name + b".mine", 2) != 0:
    pass
'
	wins=0 refused=0
	for round in 1 2 3 4 5 6 7 8; do # (not i: wait_for counts in it)
		setpriv --reuid=crib-test --regid=crib-test --init-groups /usr/bin/python3 -c "$attack" "$RACE" "d$round" &
		apid=$!
		wait_for "$RACE/d$round.ready" 50 || true
		imp "$T/suid-img.tar" "$RACE/${dots}d$round"
		case "$err" in *"other users may write '$RACE' (mode 0777), a directory on the way to"*) refused=$((refused + 1)) ;; esac
		kill "$apid" 2>/dev/null
		wait "$apid" 2>/dev/null
		# can the attacker reach a setuid-root file of the image, and run it?
		found=$(setpriv --reuid=crib-test --regid=crib-test --init-groups \
			find "$RACE" -name suid -perm -4000 -user 0 2>/dev/null | head -n 1)
		if [ -n "$found" ]; then
			wins=$((wins + 1))
			echo "#   round $round: the attacker reached $found: $(setpriv --reuid=crib-test --regid=crib-test --init-groups "$found" ids 2>&1) (uid euid)"
		fi
		rm -rf "${RACE:?}"/*
	done
	assert_eq "$wins" 0 "root's import in a world-writable parent: the attacker never gets the image's setuid-root program (8 rounds)"
	assert_eq "$refused" 8 "the import refuses a DIR whose parent other users may write, saying so"
	assert_contains "$err" "hint: import below directories only you and root can change" "with the remedy"
	rm -rf "$RACE"
else
	skips 3 "another user racing root's import needs root, the user crib-test and python3"
fi

# the path as typed is what `crib run DIR/crib.ini` looks up again: a symlink to a safe place
# that sits in a directory others may write could be pointed elsewhere afterwards
mkdir -m 0777 "$T/w" && chmod 0777 "$T/w"
ln -s "$OUT" "$T/w/link"
imp "$T/suid-img.tar" "$T/w/link/viaw"
assert_eq "$rc:$([ -e "$OUT/viaw" ] && echo made)" "125:" \
	"a DIR reached through a symlink in a world-writable directory is refused, nothing made"
assert_contains "$err" "other users may write '$T/w' (mode 0777), a directory on the way to" "saying which directory"

# 9.5 (hole 9a) a decompression bomb: 200 MiB of zeros in a 200 KB gzip'd tarball
python3 -c '
import sys, tarfile
class Zeros:
    def __init__(self, n): self.n = n
    def read(self, k=-1):
        k = self.n if k < 0 else min(k, self.n)
        self.n -= k
        return bytes(k)
t = tarfile.open(sys.argv[1], "w:gz")
i = tarfile.TarInfo("zeros")
i.size = 200 << 20
t.addfile(i, Zeros(i.size))
t.close()' "$T/bomb.tar.gz"
imp --max-size 10M "$T/bomb.tar.gz" "$OUT/bomb"
assert_eq "$rc" 125 "--max-size 10M: a bomb of $(size "$T/bomb.tar.gz") bytes is stopped"
assert_contains "$err" "the image writes more than 10.0 MiB, the limit of an import" "saying what the limit is"
assert_contains "$err" "hint: if you trust the image and have the room, give it a higher limit: crib image import --max-size 20M" "and how to raise it"
assert_eq "$([ -e "$OUT/bomb" ] && echo left)" "" "and DIR is removed"
imp --max-size 10X "$T/bomb.tar.gz" "$OUT/bomb"
assert_contains "$rc:$err" "125:crib: --max-size '10X' is not a size" "a --max-size that is not a size"
if [ "$ROLE" = root ]; then
	mkdir -p "$T/small"
	if mount -t tmpfs -o size=64m,mode=0755 crib-test-small "$T/small"; then
		out=$(timeout 120 "$CRIB" image import "$T/bomb.tar.gz" "$T/small/bomb" 2>&1)
		rc=$?
		assert_eq "$rc" 125 "into a 64 MiB tmpfs: the bomb is stopped"
		assert_contains "$out" "the filesystem of '$T/small/bomb' has" "before the filesystem is full"
		assert_contains "$out" "left, and crib keeps 16.0 MiB of it free for the rest of the system" "saying why"
		assert_contains "$out" "hint: free space there (df -h shows what is left), or import into a directory on a larger filesystem" "and what to do"
		assert_eq "$([ -e "$T/small/bomb" ] && echo left):$(df -k --output=used "$T/small" | tail -n 1 | tr -d ' ')" ":0" \
			"DIR is removed, the tmpfs is empty again"
		umount "$T/small"
	else
		skips 5 "cannot mount a tmpfs here"
	fi
else
	skips 5 "a small tmpfs of its own is mounted as root (as a user: --max-size, above)"
fi

# 9.6 (hole 9b) FIFOs where the import reads: the image's /etc/passwd and /etc/group for its
# User, a blob of an OCI layout (on e007754 the import hung for ever, DIR half made)
mkdir -p "$T/fifol/etc"
mkfifo "$T/fifol/etc/passwd" "$T/fifol/etc/group"
tarit "$T/fifo.tar" "$T/fifol"
mk_image "$T/fifo-img.tar" '{"User":"web","Cmd":["/bin/true"]}' "$T/l2.tar" "$T/fifo.tar"
out=$(timeout 60 "$CRIB" image import "$T/fifo-img.tar" "$OUT/fifo" 2>&1 </dev/null)
assert_eq "$?" 125 "a FIFO at the image's /etc/passwd: the import ends (125, not a hang)"
assert_contains "$out" "config.User 'web': the image's '/etc/passwd' is not a regular file (a FIFO)" "saying so"
assert_eq "$([ -e "$OUT/fifo" ] && echo left)" "" "and nothing is left of DIR"
cp -a "$T/oci" "$T/ocififo"
f=$(find "$T/ocififo/blobs/sha256" -type f -size +1k | head -n 1)
rm -f "$f" && mkfifo "$f"
out=$(timeout 60 "$CRIB" image import "$T/ocififo" "$OUT/ocififo" 2>&1 </dev/null)
assert_eq "$?:$([ -e "$OUT/ocififo" ] && echo made)" "125:" "a FIFO among an OCI layout's blobs: refused at once, nothing made"
assert_contains "$out" "in '$T/ocififo' is not a regular file" "saying so"

# --- 9.7 issue 31, the review of the fixes: what DIR's checks did not see, and what --max-size
# and the index walk did not count
# nobody FILE: user 65534 runs the setuid copy of the probe FILE: "RUID EUID", or "none"
nobody() { [ -e "$1" ] && setpriv --reuid=65534 --regid=65534 --clear-groups "$1" ids 2>&1 || echo none; }
# (a) an access ACL: its named users and groups get up to the group bits, which then show the
# mask; a directory of root's group (or the caller's private one) looked private though
# u:nobody:r-x let nobody in (on 9741d08 nobody ran the image's setuid program: "65534 0", euid
# root), or writable by root alone though u:nobody:rwx let nobody swap DIR
if ! command -v setfacl >/dev/null; then
	skips 8 "setfacl is not installed (package acl)"
elif ! { mkdir -m 0700 "$PUB/acl" && setfacl -m u:65534:rx "$PUB/acl" 2>/dev/null; }; then
	skips 8 "the filesystem of $PUB takes no ACL"
else
	imp "$T/suid-img.tar" "$PUB/acl"
	r=none
	[ "$ROLE" = root ] && [ "$rc" = 0 ] && r=$(nobody "$PUB/acl/rootfs/suid")
	assert_eq "$rc:$r" "125:none" "an existing DIR 0700 with an ACL u:nobody:r-x (it reads $(stat -c '%a %U:%G' "$PUB/acl")): refused (nobody ran the image's setuid program: '$r')"
	assert_contains "$err" "exists and other users can reach it (mode 0750 and an ACL, whose entries get up to the group bits" "saying the ACL lets them in"
	"$CRIB" image rm "$PUB/acl" >/dev/null 2>&1 && mkdir -m 0700 "$PUB/acl"
	setfacl -m u:65534:rx "$PUB/acl" && chmod 0700 "$PUB/acl"
	imp "$T/suid-img.tar" "$PUB/acl"
	assert_eq "$rc" 0 "and the remedy the hint gives works: after chmod 700 the ACL's mask gives nobody anything ($err)"
	"$CRIB" image rm "$PUB/acl" >/dev/null 2>&1
	# a directory above DIR with that ACL does not shut others out either
	mkdir -m 0700 "$PUB/aclup" && setfacl -m u:65534:rx "$PUB/aclup" && mkdir -m 0755 "$PUB/aclup/img"
	imp "$T/suid-img.tar" "$PUB/aclup/img"
	r=none
	[ "$ROLE" = root ] && [ "$rc" = 0 ] && r=$(nobody "$PUB/aclup/img/rootfs/suid")
	assert_eq "$rc:$r" "125:none" "an existing 0755 DIR below a 0700 directory with an ACL u:nobody:r-x: refused (nobody ran the setuid program: '$r')"
	"$CRIB" image rm "$PUB/aclup/img" >/dev/null 2>&1
	# a parent with u:nobody:rwx reads 0775, of root's group or the caller's own
	mkdir -m 0755 "$PUB/aclw" && setfacl -m u:65534:rwx "$PUB/aclw"
	imp "$T/suid-img.tar" "$PUB/aclw/img"
	assert_eq "$rc:$(ls -A "$PUB/aclw")" "125:" "DIR's parent with an ACL u:nobody:rwx (it reads $(stat -c '%a %U:%G' "$PUB/aclw")): refused, nothing made"
	assert_contains "$err" "other users may write '$PUB/aclw' (mode 0775 and an ACL, whose entries get up to the group bits), a directory on the way to '$PUB/aclw/img'" "saying the ACL lets them write it"
	if [ "$ROLE" = root ]; then
		swapped=no
		if [ "$rc" = 0 ] && setpriv --reuid=65534 --regid=65534 --clear-groups sh -c \
			"mv '$PUB/aclw/img' '$PUB/aclw/old' && mkdir '$PUB/aclw/img' && echo '# theirs' >'$PUB/aclw/img/crib.ini'" 2>/dev/null; then
			swapped=yes
		fi
		assert_eq "$swapped" no "nobody cannot put their own DIR/crib.ini where root's crib run would read it"
	else
		skip "swapping DIR as another user needs root"
	fi
	# a sticky parent keeps them to their own entries, ACL or not
	mkdir -m 1777 "$PUB/aclt" && chmod 1777 "$PUB/aclt" && setfacl -m u:65534:rwx "$PUB/aclt"
	imp "$T/suid-img.tar" "$PUB/aclt/img"
	assert_eq "$rc" 0 "a sticky parent with an ACL u:nobody:rwx is fine, as /tmp is ($err)"
	"$CRIB" image rm "$PUB/aclt/img" >/dev/null 2>&1
fi

# (b) a group is the caller's alone only when it is their private group: on a distribution where
# everyone's primary group is `users`, a parent of group users, 0775, is everyone's to change
# (on 9741d08 crib trusted getegid() and took it)
grp=$(awk -F: '$1 == "users" {print $3}' /etc/group)
if [ "$ROLE" = root ] && id crib-test >/dev/null 2>&1 && [ -n "$grp" ]; then
	mkdir -m 0775 "$PUB/grp" && chmod 0775 "$PUB/grp" && chown "crib-test:$grp" "$PUB/grp"
	cp "$T/suid-img.tar" "$PUB/img.tar" && chmod 644 "$PUB/img.tar"
	out=$(cd / && setpriv --reuid=crib-test --regid="$grp" --clear-groups "$CRIB" image import "$PUB/img.tar" "$PUB/grp/img" 2>&1 </dev/null)
	rc=$?
	assert_eq "$rc:$(ls -A "$PUB/grp")" "125:" "crib-test importing with group users ($grp) as its own: a parent of group users, 0775, is refused, nothing made"
	assert_contains "$out" "other users may write '$PUB/grp' (mode 0775, group $grp, not yours alone)" "saying whose group it is"
	[ "$rc" = 0 ] && setpriv --reuid=crib-test --regid="$grp" --clear-groups "$CRIB" image rm "$PUB/grp/img" >/dev/null 2>&1
else
	skips 2 "running crib with another primary group needs root, the user crib-test and a group users"
fi

# (c) the targets of symbolic links: every directory and link on the way crib run resolves again
# (on 9741d08 only the path as typed was checked, prefix by prefix)
if [ "$ROLE" = root ]; then
	mkdir -m 0755 "$PUB/real" "$PUB/theirs"
	chown 65534:65534 "$PUB/theirs"
	ln -s "$PUB/real" "$PUB/theirs/x" && chown -h 65534:65534 "$PUB/theirs/x"
	ln -s "$PUB/theirs/x" "$PUB/link"
	imp "$T/suid-img.tar" "$PUB/link/img"
	assert_eq "$rc:$(ls -A "$PUB/real")" "125:" "DIR through a root-owned link whose target passes nobody's directory and link: refused, nothing made"
	assert_contains "$err" "user 65534 owns '$PUB/theirs', a directory on the way (through the symbolic link '$PUB/link') to '$PUB/link/img'" "saying whose directory, and which link leads there"
	mkdir -m 1777 "$PUB/sticky" && chmod 1777 "$PUB/sticky" && mkdir -m 0755 "$PUB/real2"
	ln -s "$PUB/real2" "$PUB/sticky/x" && chown -h 65534:65534 "$PUB/sticky/x"
	ln -s "$PUB/sticky/x" "$PUB/link2"
	imp "$T/suid-img.tar" "$PUB/link2/img"
	assert_eq "$rc:$(ls -A "$PUB/real2")" "125:" "DIR through a root-owned link to nobody's link in a sticky directory (theirs to replace): refused"
	assert_contains "$err" "user 65534 owns the symbolic link '$PUB/sticky/x' on the way to '$PUB/link2/img'" "saying whose link"
else
	skips 4 "another user's link or directory needs root to make"
fi
# the caller's own link, whose target passes a directory every user may write
mkdir -m 0777 "$T/w2" && chmod 0777 "$T/w2"
ln -s "$OUT" "$T/w2/link"
ln -s "$T/w2/link" "$T/via"
imp "$T/suid-img.tar" "$T/via/img"
assert_eq "$rc:$([ -e "$OUT/img" ] && echo made)" "125:" "DIR through my link to a link in a 0777 directory: refused, nothing made"
assert_contains "$err" "other users may write '$T/w2' (mode 0777), a directory on the way (through the symbolic link '$T/via') to '$T/via/img'" "saying which directory and which link"
# relative links resolve from the directory they sit in, as the kernel's do
mkdir "$T/d1" && ln -s ../out "$T/d1/o" && ln -s d1/o "$T/rel"
imp "$T/suid-img.tar" "$T/rel/relimg"
assert_eq "$rc:$([ -e "$OUT/relimg/crib.ini" ] && echo made)" "0:made" "DIR through two relative links of mine: imported where they lead ($err)"
ln -s loop "$T/loop"
imp "$T/suid-img.tar" "$T/loop/img"
assert_contains "$rc:$err" "125:crib: '$T/loop' on the way to '$T/loop/img': more than 40 symbolic links" "a link to itself: refused after 40 links"
# a link of /proc names another directory in every process: crib run's is not crib import's
out=$(cd "$OUT" && "$CRIB" image import "$T/suid-img.tar" /proc/self/cwd/procimg 2>&1 </dev/null)
rc=$?
assert_eq "$rc:$([ -e "$OUT/procimg" ] && echo made)" "125:" "DIR through /proc/self/cwd: refused, nothing made"
assert_contains "$out" "'/proc/self' on the way to '/proc/self/cwd/procimg' is a link of /proc" "saying why"

# (d) --max-size counts what the import takes on disk: an empty directory or a file of one byte
# is a block (4 KiB on ext4), not the 512 bytes an entry was charged (on 9741d08 16000 empty
# directories of a 75 KB image passed --max-size 8M and took 64 MiB)
# many FILE KIND COUNT: a gzip'd tar of COUNT directories, one-byte files, files five
# directories deep (those directories made on the way), or sparse files of 1000 one-byte
# pieces 8 KiB apart (each piece a block)
many() {
	python3 -c '
import io, sys, tarfile
t = tarfile.open(sys.argv[1], "w:gz", format=tarfile.PAX_FORMAT)
for i in range(int(sys.argv[3])):
    if sys.argv[2] == "dirs":
        e = tarfile.TarInfo("d%d" % i); e.type = tarfile.DIRTYPE; e.mode = 0o755; t.addfile(e)
    elif sys.argv[2] == "sparse":
        e = tarfile.TarInfo("s%d" % i); e.size = 1000
        e.pax_headers = {"GNU.sparse.major": "0", "GNU.sparse.minor": "1", "GNU.sparse.name": e.name,
                         "GNU.sparse.size": str(1000 * 8192), "GNU.sparse.numblocks": "1000",
                         "GNU.sparse.map": ",".join("%d,1" % (k * 8192) for k in range(1000))}
        t.addfile(e, io.BytesIO(b"x" * 1000))
    else:
        e = tarfile.TarInfo(("f%d" % i) if sys.argv[2] == "files" else ("n%d/a/b/c/d/f" % i))
        e.size = 1; t.addfile(e, io.BytesIO(b"x"))
t.close()' "$@"
}
many "$T/dirs.tgz" dirs 16000
many "$T/files.tgz" files 14000
many "$T/deep.tgz" deep 3000
many "$T/sparse.tgz" sparse 50
for kind in dirs files deep sparse; do
	imp --max-size 8M "$T/$kind.tgz" "$OUT/many-$kind"
	kb=$(du -sk "$OUT/many-$kind" 2>/dev/null | cut -f1)
	{ [ "$rc" = 0 ] && [ "${kb:-0}" -le 16384 ]; } || { [ "$rc" = 125 ] && case "$err" in *"the image writes more than 8.0 MiB, the limit of an import"*) true ;; *) false ;; esac; }
	ok $? "--max-size 8M, $kind ($(size "$T/$kind.tgz") bytes): stopped at the limit, or at most twice it on disk (rc $rc, ${kb:-0} KiB)"
	[ "$rc" = 0 ] && "$CRIB" image rm "$OUT/many-$kind"
done

# (e) an OCI blob far larger than its descriptor says is refused before it is read (on 9741d08 all
# of it was hashed first), and nested indexes are bounded in all, each read once (on 9741d08
# index.json's N entries naming one index of M entries were N x M blob reads)
cp -a "$T/oci" "$T/ocibig"
f=$T/ocibig/blobs/sha256/$(gzip -n -c "$T/l1.tar" | sha256sum | cut -d' ' -f1)
want=$(size "$f")
truncate -s 64G "$f"
t0=$(date +%s)
out=$(timeout 120 "$CRIB" image import "$T/ocibig" "$OUT/ocibig" 2>&1 </dev/null)
rc=$?
secs=$(($(date +%s) - t0))
assert_eq "$rc:$([ -e "$OUT/ocibig" ] && echo made)" "125:" "a layer blob of 64 GiB (sparse) whose descriptor says $want bytes: refused, nothing made"
assert_contains "$out" "has 68719476736 bytes; its descriptor says $want" "saying both sizes"
[ "$secs" -le 5 ]
ok $? "at once, before reading it (${secs}s)"
rm -rf "$T/ocibig"
mkdir -p "$T/ocix"
cp -a "$T/oci/." "$T/ocix/"
echo '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[]}' >"$T/ocix/empty"
# shellcheck disable=SC2046
set -- $(blob "$T/ocix" "$T/ocix/empty")
python3 -c '
import sys
print("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.index.v1+json\",\"manifests\":[" + ",".join(["{\"mediaType\":\"application/vnd.oci.image.index.v1+json\",\"digest\":\"%s\",\"size\":%s}" % (sys.argv[1], sys.argv[2])] * 1500) + "]}")' "$1" "$2" >"$T/ocix/mid"
# shellcheck disable=SC2046
set -- $(blob "$T/ocix" "$T/ocix/mid")
python3 -c '
import sys
print("{\"schemaVersion\":2,\"manifests\":[" + ",".join(["{\"mediaType\":\"application/vnd.oci.image.index.v1+json\",\"digest\":\"%s\",\"size\":%s}" % (sys.argv[1], sys.argv[2])] * 1500) + "]}")' "$1" "$2" >"$T/ocix/index.json"
t0=$(date +%s)
out=$(timeout 60 "$CRIB" image import "$T/ocix" "$OUT/ocix" 2>&1 </dev/null)
rc=$?
secs=$(($(date +%s) - t0))
assert_eq "$rc:$([ -e "$OUT/ocix" ] && echo made)" "125:" "index.json of 1500 entries naming one index of 1500 entries: refused, nothing made (${secs}s)"
assert_contains "$out" "list more than 1024 descriptors in all; crib reads at most 1024" "saying the bound"
[ "$secs" -le 5 ]
ok $? "at once (${secs}s)"

# --- 9. the id-map helper's error reaches the user as crib's one message, with its words (only
# cmd/ prints: on 75d1d8a the helper child printed its own line, and the import's error said
# only that the ids could not be mapped). crib-test's /etc/subuid and /etc/subgid range is made
# its own id, in a mount namespace of the test's own (the host's files stay as they are):
# newuidmap then writes a map whose outside ids overlap, which the kernel refuses.
if [ "$ROLE" = root ] && id crib-test >/dev/null 2>&1 && command -v newuidmap >/dev/null &&
	command -v newgidmap >/dev/null && command -v setpriv >/dev/null; then
	echo "crib-test:$(id -u crib-test):1" >"$PUB/subuid"
	echo "crib-test:$(id -g crib-test):1" >"$PUB/subgid"
	mkdir -p "$T/idl" && echo x >"$T/idl/f" && tarit "$PUB/idmap.tar" "$T/idl"
	chmod 644 "$PUB/subuid" "$PUB/subgid" "$PUB/idmap.tar"
	mkdir -m 0755 "$PUB/idmap" && chown crib-test "$PUB/idmap"
	out=$(unshare -m --propagation private sh -c "mount --bind '$PUB/subuid' /etc/subuid &&
		mount --bind '$PUB/subgid' /etc/subgid && cd / &&
		exec setpriv --reuid=crib-test --regid=crib-test --init-groups \
			'$CRIB' image import '$PUB/idmap.tar' '$PUB/idmap/img'" 2>&1 </dev/null)
	rc=$?
	assert_eq "$rc:$(ls -A "$PUB/idmap")" "125:" "newuidmap refusing crib-test's ranges: the import fails, nothing made ($out)"
	assert_contains "$out" "crib: cannot map your subordinate ids with newuidmap and newgidmap: newuidmap refused the ranges of /etc/subuid" \
		"the id-map helper's error is the one message crib prints, with the helper's words"
	assert_contains "$out" "crib: hint: check your ranges in /etc/subuid and /etc/subgid" "and the remedy"
else
	skips 3 "the id-map helper's error needs root, the user crib-test, newuidmap and setpriv"
fi

# --- 8. crib image rm: the import goes, files of subordinate ids too
run_crib image rm "$OUT/docker"
assert_eq "$rc:$err:$([ -e "$OUT/docker" ] && echo left)" "0::" "crib image rm DIR removes an import"
run_crib image rm "$CANARY"
assert_eq "$rc:$(canary_state)" "125:$CANARY0" "and refuses a directory that is not one"

done_testing
