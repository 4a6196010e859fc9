#!/bin/sh
# The test registry of the pull tests (tests/lib/registry.sh, issue 35) tested on its own, with
# curl and skopeo, so a failing pull test can be told from a broken fixture: docker-registry
# with TLS from the test's CA and htpasswd auth, an anonymous instance, the bearer-token flow
# as Docker Hub does it (token-server.py), a multi-arch index (amd64, arm64, arm/v7, arm/v6)
# and a v7-only one pushed with skopeo, the hostile registry's cases, and nothing left running.
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/registry.sh"

if why=$(registry_missing); then
	echo "1..0 # SKIP $why (rootfs-tools/install-deps check installs it)"
	exit 0
fi
trap 'registry_stop; rm -rf "$T"' EXIT

# json EXPR: python3 evaluates EXPR with j = the JSON on stdin
json() { "$REGISTRY_PY" -c "import json, sys; j = json.load(sys.stdin); print($1)"; }
# status URL [CURL ARGS]: the HTTP status; the headers in $T/h, the body in $T/b
status() {
	_u=$1
	shift
	registry_curl -o "$T/b" -D "$T/h" -w '%{http_code}' "$@" "$_u" 2>"$T/curl.err"
}
header() { sed -n "s/^$1: *//Ip" "$T/h" | tr -d '\r'; }
OCI_INDEX=application/vnd.oci.image.index.v1+json
OCI_MANIFEST=application/vnd.oci.image.manifest.v1+json
ACCEPT="Accept: $OCI_INDEX, $OCI_MANIFEST"

# --- 1. start, in seconds
t0=$(date +%s)
registry_start "$T/reg" 2>"$T/start.err"
assert_eq "$?" 0 "registry_start: the CA, the certificates, three docker-registry instances and the token server ($(cat "$T/start.err"))" || {
	done_testing
	exit
}
t1=$(date +%s)
ok "$([ $((t1 - t0)) -le 15 ] && echo 0 || echo 1)" "... in $((t1 - t0)) s (the fixture must stay cheap)"

# --- 2. basic auth, TLS with the test CA
B=https://$REGISTRY_HOST
assert_eq "$(status "$B/v2/"):$(header www-authenticate)" '401:Basic realm="crib-test"' "htpasswd instance: /v2/ without credentials is 401 with a Basic challenge"
assert_eq "$(status "$B/v2/" -u "$REGISTRY_USER:wrong")" 401 "a wrong password is 401"
assert_eq "$(status "$B/v2/" -u "$REGISTRY_USER:$REGISTRY_PASS")" 200 "the right one is 200"
curl -sS --max-time 10 "$B/v2/" >/dev/null 2>"$T/e"
assert_contains "$(cat "$T/e")" "certificate" "without the test CA, TLS fails (the CA is the test's own)"
for name in localhost 10.0.2.2; do
	openssl x509 -in "$REGISTRY_DIR/server.crt" -noout -ext subjectAltName >"$T/san" 2>&1
	assert_contains "$(cat "$T/san")" "$name" "the certificate names $name"
done
assert_eq "$(status "https://$REGISTRY_ANON_HOST/v2/")" 200 "the anonymous instance answers without credentials"

# --- 3. images: a multi-arch index (OCI and Docker's), a v7-only index, a private single image,
# pushed by skopeo
HOSTP=$(registry_platform)
registry_test_images 2>"$T/e"
assert_eq "$?" 0 "registry_test_images: OCI layouts built and pushed by skopeo ($(cat "$T/e"))"
status "$B/v2/_catalog" -u "$REGISTRY_USER:$REGISTRY_PASS" >/dev/null
assert_eq "$(json '" ".join(j["repositories"])' <"$T/b")" "armv7/only docker/multi multi private/single" "the catalog lists them"
registry_auth_json "$T/auth.json" "$REGISTRY_HOST"
registry_certs_d "$T/certs.d"
HOME=$REGISTRY_DIR timeout 60 skopeo --insecure-policy inspect --raw --authfile "$T/auth.json" \
	--cert-dir "$T/certs.d/$REGISTRY_HOST" "docker://$REGISTRY_HOST/private/single:latest" >"$T/raw" 2>"$T/e"
assert_eq "$?:$(json 'j["mediaType"]' <"$T/raw" 2>&1)" "0:$OCI_MANIFEST" "registry_auth_json and registry_certs_d: skopeo reads them ($(cat "$T/e"))"

# --- 4. the index as a puller sees it (anonymous instance: the same storage)
A=https://$REGISTRY_ANON_HOST
assert_eq "$(status "$A/v2/multi/manifests/v1" -H "$ACCEPT"):$(header content-type)" "200:$OCI_INDEX" "the multi-arch tag is an OCI index"
assert_eq "$(json '" ".join("/".join(filter(None, (m["platform"]["os"], m["platform"]["architecture"], m["platform"].get("variant")))) for m in j["manifests"])' <"$T/b")" \
	"linux/amd64 linux/arm64 linux/arm/v7 linux/arm/v6" "with the four platforms"
assert_eq "$(header docker-content-digest)" "sha256:$(sha256sum <"$T/b" | cut -d' ' -f1)" "its Docker-Content-Digest is the digest of its bytes"
cp "$T/b" "$T/index"
for p in linux/amd64 linux/arm64 linux/arm/v7 linux/arm/v6; do
	d=$(json "[m['digest'] for m in j['manifests'] if '/'.join(filter(None, (m['platform']['os'], m['platform']['architecture'], m['platform'].get('variant')))) == '$p'][0]" <"$T/index")
	status "$A/v2/multi/manifests/$d" -H "$ACCEPT" >/dev/null
	got=sha256:$(sha256sum <"$T/b" | cut -d' ' -f1)
	layer=$(json 'j["layers"][0]["digest"]' <"$T/b")
	cfg=$(json 'j["config"]["digest"]' <"$T/b")
	status "$A/v2/multi/blobs/$cfg" >/dev/null
	cplat=$(json '"/".join(filter(None, (j["os"], j["architecture"], j.get("variant"))))' <"$T/b")
	status "$A/v2/multi/blobs/$layer" >/dev/null
	mkdir -p "$T/x/$p"
	tar -xzf "$T/b" -C "$T/x/$p" 2>"$T/e"
	assert_eq "$got $cplat $(cat "$T/x/$p/arch" 2>&1)" "$d $p $p" "$p: its manifest by digest, its config's platform and its /arch"
done
if [ -d "$T/x/$HOSTP" ]; then
	assert_eq "$("$T/x/$HOSTP/bin/busybox" echo runs 2>&1)" runs "this machine's entry ($HOSTP) holds the test rootfs' busybox, which runs"
else
	skip "this machine ($HOSTP) is none of the index's four platforms"
fi
DLIST=application/vnd.docker.distribution.manifest.list.v2+json
DV2=application/vnd.docker.distribution.manifest.v2+json
assert_eq "$(status "$A/v2/docker/multi/manifests/v1" -H "Accept: $DLIST, $DV2"):$(header content-type)" "200:$DLIST" "docker/multi: a Docker manifest list"
assert_eq "$(json '" ".join(m["mediaType"] + " " + m["platform"]["architecture"] for m in j["manifests"])' <"$T/b")" \
	"$DV2 amd64 $DV2 arm64 $DV2 arm $DV2 arm" "of four Docker schema 2 manifests"
status "$A/v2/armv7/only/manifests/latest" -H "$ACCEPT" >/dev/null
assert_eq "$(json '" ".join(m["platform"]["architecture"] + "/" + m["platform"].get("variant", "") for m in j["manifests"])' <"$T/b")" "arm/v7" "the v7-only index has one entry, arm/v7"

# --- 5. the bearer-token flow, as Docker Hub does it
K=https://$REGISTRY_TOKEN_HOST
assert_eq "$(status "$K/v2/"):$(header www-authenticate)" "401:Bearer realm=\"$REGISTRY_TOKEN_REALM\",service=\"$REGISTRY_SERVICE\"" "token instance: /v2/ is 401 with a Bearer challenge naming the realm and the service"
assert_eq "$(status "$K/v2/multi/manifests/v1" -H "$ACCEPT"):$(header www-authenticate)" \
	"401:Bearer realm=\"$REGISTRY_TOKEN_REALM\",service=\"$REGISTRY_SERVICE\",scope=\"repository:multi:pull\"" "a manifest: the challenge names the scope"
token() { # token SCOPE [CURL ARGS]
	_s=$1
	shift
	registry_curl "$@" "$REGISTRY_TOKEN_REALM?service=$REGISTRY_SERVICE&scope=$_s" | json 'j["token"]' 2>/dev/null
}
tok=$(token repository:multi:pull)
assert_eq "$(status "$K/v2/multi/manifests/v1" -H "$ACCEPT" -H "Authorization: Bearer $tok")" 200 "an anonymous pull token gets the index"
tok=$(token repository:private/single:pull)
assert_eq "$(status "$K/v2/private/single/manifests/latest" -H "$ACCEPT" -H "Authorization: Bearer $tok"):$(header www-authenticate | grep -c insufficient_scope)" \
	"401:1" "an anonymous token for private/ grants nothing: 401 insufficient_scope"
tok=$(token repository:private/single:pull -u "$REGISTRY_USER:$REGISTRY_PASS")
assert_eq "$(status "$K/v2/private/single/manifests/latest" -H "$ACCEPT" -H "Authorization: Bearer $tok")" 200 "with the credentials, the token gets private/"
assert_eq "$(registry_curl -o /dev/null -w '%{http_code}' -u "$REGISTRY_USER:wrong" "$REGISTRY_TOKEN_REALM?service=$REGISTRY_SERVICE&scope=repository:multi:pull")" 401 "the token server refuses a wrong password"
assert_eq "$(tail -n 1 "$REGISTRY_TOKEN_LOG" | json 'j["auth"] + " " + str(j["status"])')" "basic 401" "its log says how each token was asked for"
tok=$(registry_curl -d grant_type=password -d "username=$REGISTRY_USER" -d "password=$REGISTRY_PASS" \
	-d "service=$REGISTRY_SERVICE" -d scope=repository:private/single:pull "$REGISTRY_TOKEN_REALM" | json 'j["access_token"]')
assert_eq "$(status "$K/v2/private/single/manifests/latest" -H "$ACCEPT" -H "Authorization: Bearer $tok"):$(tail -n 1 "$REGISTRY_TOKEN_LOG" | json 'j["auth"]')" \
	200:post-basic "OAuth2's POST form (grant_type=password) gets a token too"
HOME=$REGISTRY_DIR timeout 60 skopeo --insecure-policy inspect --raw --cert-dir "$REGISTRY_CERT_DIR" \
	--creds "$REGISTRY_USER:$REGISTRY_PASS" "docker://$REGISTRY_TOKEN_HOST/private/single:latest" >"$T/raw" 2>"$T/e"
assert_eq "$?:$(json 'j["mediaType"]' <"$T/raw" 2>&1)" "0:$OCI_MANIFEST" "skopeo itself goes through the token flow ($(cat "$T/e"))"

# --- 6. the hostile registry
if HOSTILE_STALL=3 hostile_start 2>"$T/e"; then
	H=https://$HOSTILE_HOST
	status "$H/v2/good/image/manifests/latest" >/dev/null
	ld=$(json 'j["layers"][0]["digest"]' <"$T/b")
	status "$H/v2/good/image/blobs/$ld" >/dev/null
	assert_eq "sha256:$(sha256sum <"$T/b" | cut -d' ' -f1) $(tar -xzOf "$T/b" arch)" "$ld hostile-good" "hostile registry: the baseline image is right"
	status "$H/v2/bad/digest/manifests/latest" >/dev/null
	ld=$(json 'j["layers"][0]["digest"]' <"$T/b")
	status "$H/v2/bad/digest/blobs/$ld" >/dev/null
	ok "$([ "sha256:$(sha256sum <"$T/b" | cut -d' ' -f1)" != "$ld" ] && echo 0 || echo 1)" "bad/digest: the blob's bytes are not its digest"
	assert_eq "$(status "$H/v2/bad/big-manifest/manifests/latest" -I):$(header content-length)" 200:104857600 "bad/big-manifest: 100 MB, says its Content-Length"
	n=$(registry_curl -D "$T/h" -o /dev/null -w '%{size_download}' "$H/v2/bad/big-manifest-chunked/manifests/latest")
	assert_eq "$n:$(header content-length)" 104857600: "bad/big-manifest-chunked: 100 MB with no Content-Length"
	status "$H/v2/bad/redirect/manifests/latest" -u "$REGISTRY_USER:$REGISTRY_PASS" >/dev/null
	ld=$(json 'j["layers"][0]["digest"]' <"$T/b")
	assert_eq "$(status "$H/v2/bad/redirect/blobs/$ld" -u "$REGISTRY_USER:$REGISTRY_PASS"):$(header location | sed 's/:[0-9][0-9]*\//:PORT\//')" \
		"302:https://localhost:PORT/blobs/$ld" "bad/redirect: 302 to another host:port"
	registry_curl -L -u "$REGISTRY_USER:$REGISTRY_PASS" -o /dev/null "$H/v2/bad/redirect/blobs/$ld"
	assert_eq "$(registry_curl "$H/_hostile/side" | json '(j["requests"], len(j["authorization"]))')" "(1, 0)" "curl -L: the other host got the request, without the credentials"
	registry_curl -L --location-trusted -u "$REGISTRY_USER:$REGISTRY_PASS" -o /dev/null "$H/v2/bad/redirect/blobs/$ld"
	assert_eq "$(registry_curl "$H/_hostile/side" | json '(j["requests"], len(j["authorization"]))')" "(2, 1)" "curl --location-trusted: it sees the leak (the test can tell)"
	status "$H/v2/bad/endless/manifests/latest" >/dev/null
	ld=$(json 'j["layers"][0]["digest"]' <"$T/b")
	n=$(registry_curl --max-time 1 -o /dev/null -w '%{size_download}' "$H/v2/bad/endless/blobs/$ld" 2>/dev/null)
	ok "$([ "${n:-0}" -gt 1000 ] && echo 0 || echo 1)" "bad/endless: more than the 1000 bytes its descriptor says ($n in 1 s)"
	status "$H/v2/bad/slow/manifests/latest" >/dev/null
	ld=$(json 'j["layers"][0]["digest"]' <"$T/b")
	registry_curl --max-time 1 -o "$T/slow" "$H/v2/bad/slow/blobs/$ld" 2>/dev/null
	n1=$(wc -c <"$T/slow")
	registry_curl -C - -o "$T/slow" "$H/v2/bad/slow/blobs/$ld"
	assert_eq "$n1 sha256:$(sha256sum <"$T/slow" | cut -d' ' -f1)" "$(($(wc -c <"$T/slow") / 2)) $ld" "bad/slow: stalls at the half, a Range request gets the rest"
	status "$H/v2/bad/paths/manifests/all" >/dev/null
	ld=$(json 'j["layers"][0]["digest"]' <"$T/b")
	status "$H/v2/bad/paths/blobs/$ld" >/dev/null
	assert_eq "$("$REGISTRY_PY" -c 'import sys, tarfile; print(" ".join(m.name for m in tarfile.open(sys.argv[1])))' "$T/b")" \
		"arch /crib-hostile-absolute ../../../../crib-hostile-dotdot escape escape/crib-hostile-symlink up up/crib-hostile-symlink-up passwd passwd dev-mem suid" \
		"bad/paths: absolute, .., symlink then through it, hard link out, device and setuid entries"
	status "$H/v2/bad/config/manifests/latest" >/dev/null
	cd=$(json 'j["config"]["digest"]' <"$T/b")
	status "$H/v2/bad/config/blobs/$cd" >/dev/null
	ok "$([ "sha256:$(sha256sum <"$T/b" | cut -d' ' -f1)" != "$cd" ] && echo 0 || echo 1)" "bad/config: the config's bytes are not its digest"
	status "$H/v2/bad/header-digest/manifests/latest" >/dev/null
	ok "$([ "sha256:$(sha256sum <"$T/b" | cut -d' ' -f1)" != "$(header docker-content-digest)" ] && echo 0 || echo 1)" "bad/header-digest: Docker-Content-Digest lies"
	status "$H/v2/bad/many-layers/manifests/latest" >/dev/null
	assert_eq "$(json 'len(j["layers"])' <"$T/b")" 20000 "bad/many-layers: 20000 layers"
	status "$H/v2/bad/nested/manifests/latest" >/dev/null
	assert_eq "$(json 'j["manifests"][0]["mediaType"]' <"$T/b")" "$OCI_INDEX" "bad/nested: an index in an index"
	assert_eq "$(status "$H/v2/bad/schema1/manifests/latest"):$(header content-type)" 200:application/vnd.docker.distribution.manifest.v1+prettyjws "bad/schema1: Docker's schema 1"
	status "$H/v2/bad/foreign-urls/manifests/latest" >/dev/null
	assert_contains "$(json 'j["layers"][0]["urls"][0]' <"$T/b")" "https://localhost:" "bad/foreign-urls: the layer's urls name the other listener"
	registry_curl --path-as-is -o /dev/null "$H/v2/bad/../../x/manifests/latest"
	assert_eq "$(registry_curl "$H/_hostile/dotdot" | json 'j["requests"]')" "['/v2/bad/../../x/manifests/latest']" "a request with .. is recorded"
else
	skips 16 "hostile-registry.py did not start: $(cat "$T/e")"
fi

# --- 7. nothing left
PIDS=$(registry_pids)
registry_stop
left=
for p in $PIDS; do
	kill -0 "$p" 2>/dev/null && left="$left $p"
done
assert_eq "$left" "" "registry_stop: no process left"
done_testing
