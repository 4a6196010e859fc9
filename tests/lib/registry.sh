# registry.sh - a real OCI registry for the pull tests (sourced after libtest.sh): Debian's
# docker-registry (distribution 2.8) on 127.0.0.1 with TLS from a CA the test makes, in three
# instances sharing one storage directory, and a bearer-token server (token-server.py) for the
# flow Docker Hub uses. Everything lives in the DIR given to registry_start (a test's $T/...),
# runs as the caller (root or the test user), and registry_stop ends it all.
#
#   registry_start DIR   make the CA, the certificates, the htpasswd file and the configs, start
#                        the instances and wait until each answers (at most ~10 s each; a
#                        failure returns 1 with the reason on stderr and stops what started).
#                        Exports:
#     REGISTRY_HOST        127.0.0.1:PORT, htpasswd (basic) auth: REGISTRY_USER, REGISTRY_PASS;
#                          where images are pushed
#     REGISTRY_ANON_HOST   127.0.0.1:PORT, no auth at all (anonymous pulls)
#     REGISTRY_TOKEN_HOST  127.0.0.1:PORT, `auth: token`: a 401 with WWW-Authenticate: Bearer
#                          realm="$REGISTRY_TOKEN_REALM",service="$REGISTRY_SERVICE",scope=...
#     REGISTRY_TOKEN_REALM https://127.0.0.1:PORT/token (token-server.py: REGISTRY_USER's
#                          credentials get every action, none get pull outside private/)
#     REGISTRY_TOKEN_LOG   the token server's log: one JSON line per token request
#     REGISTRY_CA          the CA certificate (PEM) every server's certificate chains to
#     REGISTRY_CERT_DIR    a directory with ca.crt in it (skopeo's --*-cert-dir, and the
#                          layout of /etc/containers/certs.d/HOST/)
#     REGISTRY_DIR         DIR
#   The certificates name 127.0.0.1, localhost and 10.0.2.2 (the host's loopback as QEMU's user
#   network shows it to a VM guest); REGISTRY_REALM_HOST=10.0.2.2 before registry_start makes
#   the token instance's realm name that address, for a guest to reach.
#   hostile_start [http] start tests/lib/hostile-registry.py (its header lists the cases, one
#                        per repository name) with https and the test CA's certificate, basic
#                        credentials REGISTRY_USER:REGISTRY_PASS where a case asks for them, and
#                        stalls of 3600 s (HOSTILE_STALL): HOSTILE_HOST (127.0.0.1:PORT),
#                        HOSTILE_LOG (a JSON line per request); with http, plain http instead,
#                        in HOSTILE_HTTP_HOST and HOSTILE_HTTP_LOG. After registry_start (the
#                        CA and the DIR are its).
#   registry_stop        kill every process registry_start started and wait for them (a test
#                        calls it in its EXIT trap: trap 'registry_stop; rm -rf "$T"' EXIT)
#   registry_pids        those processes' ids
#   registry_push LAYOUT:TAG HOST/REPO:TAG [SKOPEO OPTIONS]
#                        skopeo copy --all of an OCI layout to REGISTRY_HOST (with the creds);
#                        --format v2s2 pushes Docker's media types (a manifest list), as most
#                        of Docker Hub still serves
#   registry_push_image HOST/REPO:TAG LAYOUT[:TAG]   the same, the other way round (TAG: REF's)
#   registry_test_images build and push the images the pull tests share (about 5 s), under
#                        REGISTRY_HOST (so on all three instances):
#     multi:v1             OCI index: linux/amd64, linux/arm64, linux/arm/v7, linux/arm/v6; this
#                          machine's entry runs /bin/sh (busybox), every entry has /arch saying
#                          its platform
#     docker/multi:v1      the same as Docker's manifest list and schema 2 manifests
#     armv7/only:latest    an index with a linux/arm/v7 entry alone (an arm/v6 machine refuses)
#     private/single:latest  one manifest, this machine's platform, busybox: the token server
#                          gives it to REGISTRY_USER alone
#                        and exports REGISTRY_LAYOUT (the OCI layout: tags multi, v7only, single)
#   registry_auth_json FILE [HOST...]  an auth.json (podman's, and docker's config.json format)
#                        with REGISTRY_USER's credentials for each HOST (default: the three)
#   registry_certs_d DIR a certs.d tree (containers-certs.d(5), docker's /etc/docker/certs.d):
#                        DIR/HOST:PORT/ca.crt for each instance and the hostile registry
#   registry_image LAYOUT TAG PLATFORM ROOTFS
#                        add to LAYOUT an image for PLATFORM (os/arch[/variant]) whose one layer
#                        is ROOTFS (a directory; empty: only /arch) plus /arch naming PLATFORM
#   registry_index LAYOUT TAG PLATFORM...
#                        an OCI layout whose TAG is an image index with one image per PLATFORM:
#                        the host's own platform (registry_platform) runs the test rootfs'
#                        busybox, the others hold /arch alone; REGISTRY_RUN_PLATFORM names
#                        another platform to get $ROOTFS (the Pi Zero guest's images, made on
#                        an amd64 host: linux/arm/v6 with the armel rootfs, tests/vm/pizero.sh)
#   registry_platform    this machine's platform, as crib image platform says it (os/arch[/v])
#   registry_curl ARGS   curl with the test CA, quiet, bounded (10 s)
#   REGISTRY_PY          the python3 the fixtures run (Debian's where there is one)
# Needs docker-registry, skopeo (to push), htpasswd (apache2-utils), openssl, curl, python3:
# registry_missing prints the first one missing (a test skips with it).

REGISTRY_USER=crib
REGISTRY_PASS=s3cret-pass
REGISTRY_SERVICE=crib-test-registry
REGISTRY_ISSUER=crib-test-issuer
export REGISTRY_USER REGISTRY_PASS REGISTRY_SERVICE REGISTRY_ISSUER
_REG_LIB=${REGISTRY_LIB:-$(cd "$(dirname "$0")/../lib" 2>/dev/null && pwd)}
_reg_pids=
_reg_ports=
# Debian's python3 (a python3 earlier in PATH, such as pyenv's shim, may take half a second to
# start; the fixtures use the standard library alone)
REGISTRY_PY=python3
[ -x /usr/bin/python3 ] && REGISTRY_PY=/usr/bin/python3

registry_missing() {
	for _t in docker-registry skopeo htpasswd openssl curl python3 tar gzip sha256sum; do
		if ! command -v "$_t" >/dev/null 2>&1 && [ ! -x "/usr/bin/$_t" ]; then
			case $_t in
			htpasswd) echo "htpasswd is not installed (apache2-utils)" ;;
			*) echo "$_t is not installed" ;;
			esac
			return 0
		fi
	done
	return 1
}

registry_curl() {
	curl -sS --max-time 10 --cacert "$REGISTRY_CA" "$@"
}

# a port free now (the kernel's pick; a race with another program is possible but rare, and
# registry_start tries again)
_reg_port() {
	"$REGISTRY_PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# _reg_certs DIR: a CA, the servers' certificate and the token signer's (EC P-256: ES256; an
# RSA key takes most of a second to make)
_reg_certs() {
	_d=$1
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
		-subj "/CN=crib test CA" -addext "basicConstraints=critical,CA:TRUE" \
		-addext "keyUsage=critical,keyCertSign,cRLSign" \
		-keyout "$_d/ca.key" -out "$_d/ca.crt" 2>>"$_d/openssl.log" || return 1
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
		-keyout "$_d/server.key" -out "$_d/server.csr" 2>>"$_d/openssl.log" || return 1
	printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost,IP:10.0.2.2" \
		"basicConstraints=CA:FALSE" "extendedKeyUsage=serverAuth" >"$_d/server.ext"
	openssl x509 -req -in "$_d/server.csr" -CA "$_d/ca.crt" -CAkey "$_d/ca.key" \
		-CAcreateserial -days 2 -extfile "$_d/server.ext" -out "$_d/server.crt" \
		2>>"$_d/openssl.log" || return 1
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=crib test token signer" \
		-keyout "$_d/signer.key" -out "$_d/signer.csr" 2>>"$_d/openssl.log" || return 1
	printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature" >"$_d/signer.ext"
	openssl x509 -req -in "$_d/signer.csr" -CA "$_d/ca.crt" -CAkey "$_d/ca.key" \
		-CAcreateserial -days 2 -extfile "$_d/signer.ext" -out "$_d/signer.crt" \
		2>>"$_d/openssl.log" || return 1
	mkdir -p "$_d/certs.d"
	cp "$_d/ca.crt" "$_d/certs.d/ca.crt"
	chmod 0644 "$_d"/*.crt "$_d/certs.d/ca.crt"
}

# _reg_config NAME PORT AUTH: DIR/NAME.yml, AUTH the lines of its auth: section (or empty)
_reg_config() {
	cat >"$REGISTRY_DIR/$1.yml" <<EOF
version: 0.1
log:
  level: warn
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $REGISTRY_DIR/storage
  delete:
    enabled: true
  maintenance:
    uploadpurging:
      enabled: false
http:
  addr: 127.0.0.1:$2
  secret: crib-test-secret-$1
  tls:
    certificate: $REGISTRY_DIR/server.crt
    key: $REGISTRY_DIR/server.key
  headers:
    X-Content-Type-Options: [nosniff]
EOF
	[ -n "$3" ] && printf 'auth:\n%s\n' "$3" >>"$REGISTRY_DIR/$1.yml"
	:
}

# _reg_wait PID URL: until URL answers (any HTTP status), at most ~10 s, or PID has died
_reg_wait() {
	_i=0
	while [ $_i -lt 200 ]; do
		kill -0 "$1" 2>/dev/null || return 1
		_c=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 --cacert "$REGISTRY_CA" "$2")
		[ "$_c" != 000 ] && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}

# _reg_launch NAME AUTH: start one docker-registry instance on a free port, without waiting;
# its pid and port in DIR/NAME.pid, DIR/NAME.port
_reg_launch() {
	# (not a port picked for another instance that may not be listening yet: its answer would
	# pass for this one's)
	_p=$(_reg_port)
	while case " $_reg_ports " in *" $_p "*) true ;; *) false ;; esac; do
		_p=$(_reg_port)
	done
	_reg_ports="$_reg_ports $_p"
	_reg_config "$1" "$_p" "$2"
	# (a clean environment: docker-registry reads REGISTRY_* variables as its configuration)
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin /usr/bin/docker-registry serve "$REGISTRY_DIR/$1.yml" \
		>"$REGISTRY_DIR/$1.log" 2>&1 </dev/null &
	_reg_pids="$_reg_pids $!"
	echo "$!" >"$REGISTRY_DIR/$1.pid"
	echo "$_p" >"$REGISTRY_DIR/$1.port"
}

# _reg_ready NAME AUTH: wait for the instance _reg_launch started; if it died (its port taken
# meanwhile), start it again, twice at most. Its host in $_reg_host.
_reg_ready() {
	for _try in 1 2 3; do
		_pid=$(cat "$REGISTRY_DIR/$1.pid")
		_p=$(cat "$REGISTRY_DIR/$1.port")
		if _reg_wait "$_pid" "https://127.0.0.1:$_p/v2/"; then
			_reg_host=127.0.0.1:$_p
			return 0
		fi
		kill "$_pid" 2>/dev/null
		wait "$_pid" 2>/dev/null
		[ $_try = 3 ] || _reg_launch "$1" "$2"
	done
	echo "registry.sh: docker-registry ($1) did not start:" >&2
	sed 's/^/  /' "$REGISTRY_DIR/$1.log" >&2
	return 1
}

_reg_token_server() {
	"$REGISTRY_PY" "$_REG_LIB/token-server.py" --cert "$REGISTRY_DIR/server.crt" \
		--key "$REGISTRY_DIR/server.key" --sign-key "$REGISTRY_DIR/signer.key" \
		--sign-cert "$REGISTRY_DIR/signer.crt" --issuer "$REGISTRY_ISSUER" \
		--service "$REGISTRY_SERVICE" --user "$REGISTRY_USER:$REGISTRY_PASS" --anonymous-pull \
		--log "$REGISTRY_DIR/token-server.log" >"$REGISTRY_DIR/token-server.port" 2>"$REGISTRY_DIR/token-server.err" </dev/null &
	_pid=$!
	_reg_pids="$_reg_pids $_pid"
	_i=0
	while [ ! -s "$REGISTRY_DIR/token-server.port" ] && [ $_i -lt 100 ] && kill -0 "$_pid" 2>/dev/null; do
		sleep 0.05
		_i=$((_i + 1))
	done
	if [ ! -s "$REGISTRY_DIR/token-server.port" ]; then
		echo "registry.sh: token-server.py did not start:" >&2
		sed 's/^/  /' "$REGISTRY_DIR/token-server.err" >&2
		return 1
	fi
	REGISTRY_TOKEN_REALM="https://${REGISTRY_REALM_HOST:-127.0.0.1}:$(cat "$REGISTRY_DIR/token-server.port")/token"
}

# hostile_start [http]
hostile_start() {
	_hn=hostile${1:+-$1}
	if [ "${1:-}" = http ]; then
		set --
	else
		set -- --cert "$REGISTRY_DIR/server.crt" --key "$REGISTRY_DIR/server.key"
	fi
	"$REGISTRY_PY" "$_REG_LIB/hostile-registry.py" "$@" --user "$REGISTRY_USER:$REGISTRY_PASS" \
		--stall "${HOSTILE_STALL:-3600}" --log "$REGISTRY_DIR/$_hn.log" \
		>"$REGISTRY_DIR/$_hn.port" 2>"$REGISTRY_DIR/$_hn.err" </dev/null &
	_pid=$!
	_reg_pids="$_reg_pids $_pid"
	_i=0
	while [ ! -s "$REGISTRY_DIR/$_hn.port" ] && [ $_i -lt 200 ] && kill -0 "$_pid" 2>/dev/null; do
		sleep 0.05
		_i=$((_i + 1))
	done
	if [ ! -s "$REGISTRY_DIR/$_hn.port" ]; then
		echo "registry.sh: hostile-registry.py did not start:" >&2
		sed 's/^/  /' "$REGISTRY_DIR/$_hn.err" >&2
		return 1
	fi
	if [ "$_hn" = hostile ]; then
		HOSTILE_HOST=127.0.0.1:$(cat "$REGISTRY_DIR/$_hn.port")
		HOSTILE_LOG=$REGISTRY_DIR/$_hn.log
		export HOSTILE_HOST HOSTILE_LOG
	else
		HOSTILE_HTTP_HOST=127.0.0.1:$(cat "$REGISTRY_DIR/$_hn.port")
		HOSTILE_HTTP_LOG=$REGISTRY_DIR/$_hn.log
		export HOSTILE_HTTP_HOST HOSTILE_HTTP_LOG
	fi
}

registry_start() {
	REGISTRY_DIR=$1
	mkdir -p "$REGISTRY_DIR/storage"
	REGISTRY_CA=$REGISTRY_DIR/ca.crt
	REGISTRY_CERT_DIR=$REGISTRY_DIR/certs.d
	REGISTRY_TOKEN_LOG=$REGISTRY_DIR/token-server.log
	export REGISTRY_DIR REGISTRY_CA REGISTRY_CERT_DIR REGISTRY_TOKEN_LOG
	if ! _reg_certs "$REGISTRY_DIR"; then
		echo "registry.sh: openssl could not make the certificates:" >&2
		sed 's/^/  /' "$REGISTRY_DIR/openssl.log" >&2
		return 1
	fi
	htpasswd -B -b -c "$REGISTRY_DIR/htpasswd" "$REGISTRY_USER" "$REGISTRY_PASS" 2>/dev/null ||
		{ echo "registry.sh: htpasswd failed" >&2 && return 1; }
	_reg_token_server || { registry_stop && return 1; }
	export REGISTRY_TOKEN_REALM
	_basic="  htpasswd:
    realm: crib-test
    path: $REGISTRY_DIR/htpasswd"
	_token="  token:
    realm: $REGISTRY_TOKEN_REALM
    service: $REGISTRY_SERVICE
    issuer: $REGISTRY_ISSUER
    rootcertbundle: $REGISTRY_CA"
	# the three start together (each takes most of a second), then each is waited for
	_reg_launch basic "$_basic"
	_reg_launch anon ""
	_reg_launch token "$_token"
	_reg_ready basic "$_basic" || { registry_stop && return 1; }
	REGISTRY_HOST=$_reg_host
	_reg_ready anon "" || { registry_stop && return 1; }
	REGISTRY_ANON_HOST=$_reg_host
	_reg_ready token "$_token" || { registry_stop && return 1; }
	REGISTRY_TOKEN_HOST=$_reg_host
	export REGISTRY_HOST REGISTRY_ANON_HOST REGISTRY_TOKEN_HOST
}

registry_pids() { # the processes registry_start and hostile_start started, still to stop
	echo $_reg_pids
}

registry_stop() {
	for _pid in $_reg_pids; do
		kill "$_pid" 2>/dev/null
	done
	for _pid in $_reg_pids; do
		_i=0
		while kill -0 "$_pid" 2>/dev/null && [ $_i -lt 50 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
		kill -9 "$_pid" 2>/dev/null
		wait "$_pid" 2>/dev/null
	done
	_reg_pids=
	:
}

# --- images

registry_platform() {
	if [ -n "${CRIB:-}" ] && _p=$("$CRIB" image platform 2>/dev/null); then
		echo "$_p"
		return
	fi
	case $(uname -m) in
	x86_64) echo linux/amd64 ;;
	aarch64) echo linux/arm64 ;;
	armv7l) echo linux/arm/v7 ;;
	armv6l) echo linux/arm/v6 ;;
	*) echo "linux/$(uname -m)" ;;
	esac
}

_reg_sha() { sha256sum "$1" | cut -d' ' -f1; }
_reg_size() { wc -c <"$1" | tr -d ' '; }
# _reg_blob LAYOUT FILE: move FILE into LAYOUT's blobs, print "sha256:HEX SIZE"
_reg_blob() {
	_h=$(_reg_sha "$2")
	_s=$(_reg_size "$2")
	mkdir -p "$1/blobs/sha256"
	mv "$2" "$1/blobs/sha256/$_h"
	echo "sha256:$_h $_s"
}
# _reg_platform_json os/arch[/variant]: the platform object's members
_reg_platform_json() {
	_os=${1%%/*}
	_rest=${1#*/}
	_arch=${_rest%%/*}
	_var=
	[ "$_rest" != "$_arch" ] && _var=${_rest#*/}
	printf '"architecture":"%s","os":"%s"%s' "$_arch" "$_os" "${_var:+,\"variant\":\"$_var\"}"
}

_reg_layout_init() {
	mkdir -p "$1/blobs/sha256"
	[ -e "$1/oci-layout" ] || echo '{"imageLayoutVersion":"1.0.0"}' >"$1/oci-layout"
	[ -e "$1/index.json" ] || echo '{"schemaVersion":2,"manifests":[]}' >"$1/index.json"
}

# _reg_tag LAYOUT TAG MEDIATYPE DIGEST SIZE: index.json's entry for TAG (replacing one)
_reg_tag() {
	"$REGISTRY_PY" - "$@" <<'EOF'
import json, sys
layout, tag, mt, digest, size = sys.argv[1:6]
path = layout + "/index.json"
with open(path) as f:
    idx = json.load(f)
key = "org.opencontainers.image.ref.name"
idx["manifests"] = [m for m in idx["manifests"] if m.get("annotations", {}).get(key) != tag]
idx["manifests"].append({"mediaType": mt, "digest": digest, "size": int(size),
                         "annotations": {key: tag}})
with open(path, "w") as f:
    json.dump(idx, f)
EOF
}

# _reg_entry LAYOUT TAG PLATFORM: "digest size" of PLATFORM's entry in TAG's index (or nothing)
_reg_entry() {
	"$REGISTRY_PY" - "$@" <<'EOF'
import json, sys
layout, tag, want = sys.argv[1:4]
def load(d):
    with open(layout + "/blobs/sha256/" + d.split(":", 1)[1]) as f:
        return json.load(f)
with open(layout + "/index.json") as f:
    top = [m for m in json.load(f)["manifests"]
           if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == tag]
for m in load(top[0]["digest"])["manifests"] if top else []:
    p = m["platform"]
    if "/".join(filter(None, (p["os"], p["architecture"], p.get("variant")))) == want:
        print(m["digest"], m["size"])
        break
EOF
}

# _reg_manifest LAYOUT PLATFORM ROOTFS: build one image's blobs, print its manifest's
# "digest size"
_reg_manifest() {
	_l=$1 _plat=$2 _root=$3
	_w=$(mktemp -d "${TMPDIR:-/tmp}/reg-img.XXXXXX")
	mkdir -p "$_w/tree"
	if [ -n "$_root" ]; then
		# (as the test user, root's 0700 /root of the test rootfs is not readable: left out)
		tar -C "$_root" --exclude=./root -cf - . | tar -C "$_w/tree" -xf - || return 1
	fi
	echo "$_plat" >"$_w/tree/arch"
	tar --numeric-owner --owner=0 --group=0 --sort=name --mtime=@0 -cf "$_w/layer.tar" -C "$_w/tree" .
	_diff=$(_reg_sha "$_w/layer.tar")
	gzip -n -c "$_w/layer.tar" >"$_w/layer.tgz"
	# shellcheck disable=SC2046 # _reg_blob prints two words: the digest and the size
	set -- $(_reg_blob "$_l" "$_w/layer.tgz")
	_ld=$1 _ls=$2
	_cmd='"Cmd":["/bin/sh"]'
	[ -n "$_root" ] || _cmd='"Cmd":["/arch"]'
	printf '{%s,"config":{"Env":["PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],%s},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}\n' \
		"$(_reg_platform_json "$_plat")" "$_cmd" "$_diff" >"$_w/config"
	# shellcheck disable=SC2046
	set -- $(_reg_blob "$_l" "$_w/config")
	printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"%s","size":%s}]}\n' \
		"$1" "$2" "$_ld" "$_ls" >"$_w/manifest"
	_reg_blob "$_l" "$_w/manifest"
	rm -rf "$_w"
}

registry_image() { # registry_image LAYOUT TAG PLATFORM ROOTFS
	_reg_layout_init "$1"
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(_reg_manifest "$1" "$3" "$4")
	[ -n "${4:-}" ] || return 1
	_reg_tag "$1" "$2" application/vnd.oci.image.manifest.v1+json "$3" "$4"
}

registry_index() { # registry_index LAYOUT TAG PLATFORM...
	_il=$1 _it=$2
	shift 2
	_reg_layout_init "$_il"
	_host=${REGISTRY_RUN_PLATFORM:-$(registry_platform)}
	_entries=
	for _ip in "$@"; do
		_iroot=
		[ "$_ip" = "$_host" ] && _iroot=$ROOTFS
		_m=$(_reg_manifest "$_il" "$_ip" "$_iroot") || return 1
		_entries="$_entries${_entries:+,}{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"${_m% *}\",\"size\":${_m#* },\"platform\":{$(_reg_platform_json "$_ip")}}"
	done
	_iw=$(mktemp "${TMPDIR:-/tmp}/reg-idx.XXXXXX")
	printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[%s]}\n' "$_entries" >"$_iw"
	# shellcheck disable=SC2046
	set -- $(_reg_blob "$_il" "$_iw")
	_reg_tag "$_il" "$_it" application/vnd.oci.image.index.v1+json "$1" "$2"
}

registry_push_image() { # registry_push_image HOST/REPO:TAG LAYOUT[:TAG]
	case $2 in
	*:*) registry_push "$2" "$1" ;;
	*) registry_push "$2:${1##*:}" "$1" ;;
	esac
}

registry_test_images() {
	REGISTRY_LAYOUT=$REGISTRY_DIR/layout
	export REGISTRY_LAYOUT
	_hp=$(registry_platform)
	registry_index "$REGISTRY_LAYOUT" multi linux/amd64 linux/arm64 linux/arm/v7 linux/arm/v6 &&
		registry_index "$REGISTRY_LAYOUT" v7only linux/arm/v7 || return 1
	# single: the index's entry for this machine, where it has one (its busybox layer is made
	# once), else an image of its own
	_sd=$(_reg_entry "$REGISTRY_LAYOUT" multi "$_hp")
	if [ -n "$_sd" ]; then
		# shellcheck disable=SC2086 # two words: the digest and the size
		_reg_tag "$REGISTRY_LAYOUT" single application/vnd.oci.image.manifest.v1+json $_sd
	else
		registry_image "$REGISTRY_LAYOUT" single "$_hp" "$ROOTFS"
	fi || return 1
	registry_push "$REGISTRY_LAYOUT:multi" "$REGISTRY_HOST/multi:v1" &&
		registry_push "$REGISTRY_LAYOUT:multi" "$REGISTRY_HOST/docker/multi:v1" --format v2s2 &&
		registry_push "$REGISTRY_LAYOUT:v7only" "$REGISTRY_HOST/armv7/only:latest" &&
		registry_push "$REGISTRY_LAYOUT:single" "$REGISTRY_HOST/private/single:latest"
}

registry_auth_json() { # registry_auth_json FILE [HOST...]
	_f=$1
	shift
	[ $# -gt 0 ] || set -- "$REGISTRY_HOST" "$REGISTRY_ANON_HOST" "$REGISTRY_TOKEN_HOST"
	_a=$(printf '%s' "$REGISTRY_USER:$REGISTRY_PASS" | base64 | tr -d '\n')
	_e=
	for _h in "$@"; do
		_e="$_e${_e:+,}\"$_h\":{\"auth\":\"$_a\"}"
	done
	mkdir -p "$(dirname "$_f")"
	printf '{"auths":{%s}}\n' "$_e" >"$_f"
	chmod 0600 "$_f"
}

registry_certs_d() { # registry_certs_d DIR
	for _h in "$REGISTRY_HOST" "$REGISTRY_ANON_HOST" "$REGISTRY_TOKEN_HOST" ${HOSTILE_HOST:-}; do
		mkdir -p "$1/$_h"
		cp "$REGISTRY_CA" "$1/$_h/ca.crt"
	done
}

registry_push() { # registry_push LAYOUT:TAG HOST/REPO:TAG [SKOPEO OPTIONS]
	_src=$1 _dst=$2
	shift 2
	HOME=$REGISTRY_DIR TMPDIR=$REGISTRY_DIR timeout 120 skopeo --insecure-policy copy --quiet --all \
		--dest-cert-dir "$REGISTRY_CERT_DIR" --dest-creds "$REGISTRY_USER:$REGISTRY_PASS" \
		"$@" "oci:$_src" "docker://$_dst"
}
