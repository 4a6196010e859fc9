# imglayers.sh - what the image tests (24-image, 35-store, 40-scenarios) make their layers and
# images with: this machine's platform as an image config names it, and a layer from a
# directory. Sourced after libtest.sh ($CRIB).

# PLATFORM: crib image platform's answer (linux/amd64, linux/arm/v6, ...), and its parts
PLATFORM=$("$CRIB" image platform)
OS=${PLATFORM%%/*}
_rest=${PLATFORM#*/}
ARCH=${_rest%%/*}
VARIANT=
[ "$_rest" != "$ARCH" ] && VARIANT=${_rest#*/}

# sha FILE, size FILE: a blob's digest (hex) and size, as a manifest names them
sha() { sha256sum "$1" | cut -d' ' -f1; }
size() { wc -c <"$1" | tr -d ' '; }

# tarit OUT DIR [TAR OPTIONS]: a layer of DIR's content, owned by root unless told
tarit() {
	_o=$1 _d=$2
	shift 2
	tar --numeric-owner --owner=0 --group=0 --sort=name "$@" -cf "$_o" -C "$_d" .
}
