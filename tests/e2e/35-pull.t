#!/bin/sh
# crib pull (issue 35) against the test registry (tests/lib/registry.sh): anonymous, basic
# (credentials files as podman and docker write them) and bearer-token pulls; TLS with the
# registry's own CA and the clear failure without it; the platform's entry of a multi-arch
# index, --platform, and a v7-only image refused on arm/v6 with the reason; and the hostile
# registry: a wrong digest, a manifest of 100 MB, a redirect to another host (which must not
# get the credentials), an endless body, a name with '..', a pull killed with SIGKILL and run
# again. Each pull writes an OCI layout in the store's tmp/ (--layout-only keeps it and prints
# its path; crib-image store-add makes it an image of the store), which `crib image import`
# reads here. As root and as the test user (tests/run-all runs it as both).
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/registry.sh"

if [ ! -x "$(dirname "$CRIB")/crib-pull" ]; then
	echo "1..0 # SKIP crib-pull is not built (libcurl4-openssl-dev: rootfs-tools/install-deps)"
	exit 0
fi
if why=$(registry_missing); then
	echo "1..0 # SKIP $why (rootfs-tools/install-deps check installs it)"
	exit 0
fi
trap 'registry_stop; rm -rf "$T"' EXIT

json() { python3 -c "import json, sys; j = json.load(sys.stdin); print($1)"; }
# layout_platform DIR: os/arch[/variant] of the config of the one manifest DIR's index names
layout_platform() {
	python3 - "$1" <<'PY'
import json, sys
d = sys.argv[1]
blob = lambda dg: json.load(open(d + "/blobs/sha256/" + dg.split(":")[1]))
m = blob(json.load(open(d + "/index.json"))["manifests"][0]["digest"])
c = blob(m["config"]["digest"])
print("/".join(filter(None, (c["os"], c["architecture"], c.get("variant")))))
PY
}
export CRIB_STORE=$T/store HOME=$T/home
unset REGISTRY_AUTH_FILE XDG_RUNTIME_DIR
mkdir -p "$HOME"
# pull ARGS: crib pull --layout-only; its stdout in $T/out, stderr in $T/err, status returned
pull() {
	"$CRIB" pull --layout-only "$@" >"$T/out" 2>"$T/err" </dev/null
}
blobs() { ls "$CRIB_STORE/blobs/sha256" 2>/dev/null | wc -l | tr -d ' '; }

registry_start "$T/reg" 2>"$T/start.err" || {
	echo "1..0 # SKIP the test registry did not start: $(tr '\n' ' ' <"$T/start.err")"
	exit 0
}
HOSTP=$(registry_platform)
L=$T/layout
if ! { registry_index "$L" multi linux/amd64 linux/arm64 linux/arm/v7 linux/arm/v6 &&
	registry_index "$L" v7only linux/arm/v7 &&
	registry_image "$L" single "$HOSTP" "$ROOTFS" &&
	registry_push "$L:multi" "$REGISTRY_HOST/multi:v1" &&
	registry_push "$L:v7only" "$REGISTRY_HOST/armv7/only:latest" &&
	registry_push "$L:single" "$REGISTRY_HOST/private/single:latest"; } 2>"$T/e"; then
	echo "1..0 # SKIP the images could not be pushed: $(tr '\n' ' ' <"$T/e")"
	exit 0
fi
CD="--cert-dir $REGISTRY_CERT_DIR"

# --- anonymous, the index's entry for this machine, imported
pull $CD "$REGISTRY_ANON_HOST/multi:v1"
assert_eq "$?" 0 "anonymous pull of a multi-arch index ($(cat "$T/err"))"
lay=$(cat "$T/out")
assert_eq "$(cat "$T/err")" "" "not on a terminal: nothing on stderr (no progress)"
assert_eq "$(layout_platform "$lay")" "$HOSTP" "it is this machine's entry ($HOSTP)"
assert_eq "$(json 'j["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"]' <"$lay/index.json" 2>&1)" \
	"$REGISTRY_ANON_HOST/multi:v1" "index.json names exactly the manifest, with the full reference"
assert_eq "$(json 'len(j["manifests"])' <"$lay/index.json")" 1 "... and no other"
ok "$([ "$(stat -c %h "$lay/blobs/sha256/$(ls "$lay/blobs/sha256" | head -n 1)")" -ge 2 ] && echo 0 || echo 1)" \
	"the layout's blobs are hard links to the store's ROOT/blobs/sha256/"
"$CRIB" image import "$lay" "$T/img" >"$T/imp" 2>&1
assert_eq "$?" 0 "crib image import reads the layout ($(tail -n 2 "$T/imp"))"
ok "$([ -x "$T/img/rootfs/bin/busybox" ] && echo 0 || echo 1)" "its rootfs is the test rootfs"
"$CRIB" image rm "$T/img" >/dev/null 2>&1
ls "$CRIB_STORE/tmp" >"$T/tmp.ls"
assert_eq "$(grep -c partial "$T/tmp.ls")" 0 "no partial blob is left in tmp/"

# --- into the store: crib-image store-add makes the layout an image, and the layout goes
CRIB_STORE=$T/store4 "$CRIB" pull $CD "$REGISTRY_ANON_HOST/multi:v1" >"$T/out" 2>"$T/err" </dev/null
assert_eq "$?" 0 "crib pull into the image store ($(cat "$T/err"))"
CRIB_STORE=$T/store4 "$CRIB" images >"$T/images" 2>&1
assert_contains "$(cat "$T/images")" "$REGISTRY_ANON_HOST/multi:v1" "crib images lists it by its full name"
assert_contains "$(cat "$T/images")" "$HOSTP" "... with this machine's platform"
assert_eq "$(ls "$T/store4/tmp" | grep -c '^pull-')" 0 "nothing of the pull is left in tmp/"
CRIB_STORE=$T/store4 "$CRIB" pull --platform linux/arm/v6 $CD "$REGISTRY_ANON_HOST/multi:v1" >"$T/out" 2>"$T/err" </dev/null
assert_eq "$?" 0 "--platform linux/arm/v6 into the store, too ($(cat "$T/err"))"
CRIB_STORE=$T/store4 "$CRIB" images >"$T/images" 2>&1
assert_contains "$(cat "$T/images")" "linux/arm/v6" "... listed as linux/arm/v6"

# on a terminal: a line a layer with its bytes
if command -v script >/dev/null; then
	CRIB_STORE=$T/store-tty script -qec "$CRIB pull --layout-only $CD $REGISTRY_ANON_HOST/multi:v1" /dev/null >"$T/tty" 2>&1 </dev/null
	assert_contains "$(tr '\r' '\n' <"$T/tty")" " MB" "on a terminal: progress, per layer (bytes, total)"
	CRIB_STORE=$T/store-tty script -qec "$CRIB pull --quiet --layout-only $CD $REGISTRY_ANON_HOST/multi:v1" /dev/null >"$T/tty" 2>&1 </dev/null
	assert_not_contains "$(cat "$T/tty")" " MB" "--quiet: none"
else
	skips 2 "script(1) is not installed (bsdutils)"
fi

# --- platforms
pull $CD --platform linux/arm/v6 "$REGISTRY_ANON_HOST/multi:v1"
assert_eq "$?:$(layout_platform "$(cat "$T/out")" 2>/dev/null)" 0:linux/arm/v6 "--platform linux/arm/v6 gets the v6 entry"
pull $CD --platform linux/arm64 "$REGISTRY_ANON_HOST/multi:v1"
assert_eq "$?:$(layout_platform "$(cat "$T/out")" 2>/dev/null)" 0:linux/arm64 "--platform linux/arm64 gets the arm64 entry"
n=$(blobs)
pull $CD --platform linux/arm/v6 "$REGISTRY_ANON_HOST/armv7/only"
assert_eq "$?" 125 "a v7-only image on linux/arm/v6 is refused (status 125)"
assert_contains "$(cat "$T/err")" "this image has linux/arm/v7 only; --platform asked for linux/arm/v6" "... saying why"
assert_eq "$(blobs)" "$n" "... before a blob is fetched"
if [ "$HOSTP" = linux/arm/v6 ]; then
	pull $CD "$REGISTRY_ANON_HOST/armv7/only"
	assert_contains "$? $(cat "$T/err")" "125 crib: pull" "this arm/v6 machine refuses a v7-only image without --platform"
else
	pull $CD "$REGISTRY_ANON_HOST/armv7/only"
	assert_contains "$? $(cat "$T/err")" "this machine is $HOSTP" "a v7-only image on $HOSTP is refused with the machine's platform"
fi

# --- TLS: the registry's CA, from --cert-dir or the certs.d layout; without it a clear error
pull "$REGISTRY_ANON_HOST/multi:v1"
assert_eq "$?" 125 "without the registry's CA the pull fails"
assert_contains "$(cat "$T/err")" "certificate" "... naming the certificate"
assert_contains "$(cat "$T/err")" "certs.d/$REGISTRY_ANON_HOST" "... and saying where the CA goes"
mkdir -p "$HOME/.config/containers/certs.d/$REGISTRY_ANON_HOST"
cp "$REGISTRY_CA" "$HOME/.config/containers/certs.d/$REGISTRY_ANON_HOST/ca.crt"
pull "$REGISTRY_ANON_HOST/multi:v1"
assert_eq "$?" 0 "with the CA in ~/.config/containers/certs.d/HOST/ it succeeds ($(cat "$T/err"))"
rm -rf "$HOME/.config/containers/certs.d"
pull --tls-verify=false "$REGISTRY_ANON_HOST/multi:v1"
assert_eq "$?" 0 "--tls-verify=false pulls without the CA"
assert_contains "$(cat "$T/err")" "warning: --tls-verify=false" "... with a warning"

# --- basic auth (htpasswd) from credentials files
pull $CD "$REGISTRY_HOST/private/single"
assert_eq "$?" 125 "the htpasswd registry without credentials: refused"
assert_contains "$(cat "$T/err")" "needs a user name and password" "... saying what it needs"
auth=$(printf '%s:%s' "$REGISTRY_USER" "$REGISTRY_PASS" | base64 -w0)
printf '{"auths":{"%s":{"auth":"%s"}}}\n' "$REGISTRY_HOST" "$auth" >"$T/auth.json"
REGISTRY_AUTH_FILE=$T/auth.json pull $CD "$REGISTRY_HOST/private/single"
assert_eq "$?" 0 "basic auth from \$REGISTRY_AUTH_FILE ($(cat "$T/err"))"
assert_eq "$(layout_platform "$(cat "$T/out")")" "$HOSTP" "... the image"
mkdir -p "$HOME/.docker"
printf '{"auths":{"https://%s":{"auth":"%s"}}}\n' "$REGISTRY_HOST" "$auth" >"$HOME/.docker/config.json"
pull $CD "$REGISTRY_HOST/private/single"
assert_eq "$?" 0 "basic auth from ~/.docker/config.json (an https:// key) ($(cat "$T/err"))"
bad=$(printf '%s:wrong' "$REGISTRY_USER" | base64 -w0)
printf '{"auths":{"%s":{"auth":"%s"}}}\n' "$REGISTRY_HOST" "$bad" >"$T/bad.json"
pull $CD --authfile "$T/bad.json" "$REGISTRY_HOST/private/single"
assert_contains "$?:$(cat "$T/err")" "125:crib: pull '$REGISTRY_HOST/private/single:latest': the registry answered 401" "a wrong password: the registry's 401"
assert_not_contains "$(cat "$T/err")" "wrong" "... and the password is not in the message"
rm -rf "$HOME/.docker"

# --- bearer tokens (the token server), anonymous and with credentials
pull $CD "$REGISTRY_TOKEN_HOST/multi:v1"
assert_eq "$?" 0 "bearer token, anonymous ($(cat "$T/err"))"
assert_contains "$(grep '"path": "/token"' "$REGISTRY_TOKEN_LOG" | tail -n 1)" '"scopes": ["repository:multi:pull"]' "the token was asked for the repository's pull scope"
pull $CD "$REGISTRY_TOKEN_HOST/private/single"
assert_eq "$?" 125 "bearer: a private repository without credentials is refused"
REGISTRY_AUTH_FILE=$T/auth.json pull $CD "$REGISTRY_TOKEN_HOST/private/single"
assert_eq "$?" 125 "(credentials for another registry do not count)"
printf '{"auths":{"%s":{"auth":"%s"}}}\n' "$REGISTRY_TOKEN_HOST" "$auth" >"$T/tauth.json"
# (the token server's lines: the registry instance named "token" logs to the same file)
tokens() { grep -c '"path": "/token"' "$REGISTRY_TOKEN_LOG"; }
t0=$(tokens)
pull $CD --authfile "$T/tauth.json" "$REGISTRY_TOKEN_HOST/private/single"
assert_eq "$?" 0 "bearer token with the user's credentials ($(cat "$T/err"))"
assert_eq "$(($(tokens) - t0))" 1 "one token for the whole pull (cached for its scope)"
assert_contains "$(grep '"path": "/token"' "$REGISTRY_TOKEN_LOG" | tail -n 1)" '"auth": "basic"' "... asked with the user's password"

# --- the hostile registry
if ! HOSTILE_STALL=3600 hostile_start 2>"$T/e"; then
	skips 64 "hostile-registry.py did not start: $(cat "$T/e")"
	done_testing
	exit
fi
H=$HOSTILE_HOST
pull $CD "$H/good/image"
assert_eq "$?" 0 "hostile registry: the good image pulls ($(cat "$T/err"))"

# two pulls of one image at once, into a fresh store: each blob is fetched once
g0=$(grep -c '"/v2/good/image/blobs/' "$HOSTILE_LOG")
CRIB_STORE=$T/store3 "$CRIB" pull --layout-only $CD "$H/good/image" >/dev/null 2>"$T/err1" &
p1=$!
CRIB_STORE=$T/store3 "$CRIB" pull --layout-only $CD "$H/good/image" >/dev/null 2>"$T/err2"
r2=$?
wait $p1
assert_eq "$?:$r2" 0:0 "two pulls of one image at once both succeed ($(cat "$T/err1" "$T/err2"))"
assert_eq "$(($(grep -c '"/v2/good/image/blobs/' "$HOSTILE_LOG") - g0))" 2 "... and its config and layer were fetched once each"

n=$(blobs)
pull $CD "$H/bad/digest"
assert_contains "$?:$(cat "$T/err")" "125:crib: pull '$H/bad/digest:latest': blob sha256:" "a layer with the wrong bytes: refused"
assert_contains "$(cat "$T/err")" "nothing of it was kept" "... saying so"
assert_eq "$(blobs)" "$((n + 1))" "... only its config (verified) is in blobs/"
assert_eq "$(ls "$CRIB_STORE/tmp" | grep -c '\.partial$')" 0 "... and no partial file is left"

pull $CD "$H/bad/manifest-digest"
assert_contains "$?:$(cat "$T/err")" "125:" "a manifest whose bytes are not its digest: refused"
assert_contains "$(cat "$T/err")" "has the digest" "... saying so"

for c in big-manifest big-manifest-chunked; do
	s=$(date +%s)
	pull $CD "$H/bad/$c"
	r=$?
	e=$(($(date +%s) - s))
	assert_contains "$r:$(cat "$T/err")" "125:" "bad/$c (100 MB): refused"
	ok "$([ $e -le 5 ] && echo 0 || echo 1)" "... in $e s (at most 5: crib stops reading at 4 MiB)"
done

pull $CD "$H/bad/huge-size"
assert_contains "$?:$(cat "$T/err")" "125:" "a layer of 1 PB: refused"
assert_contains "$(cat "$T/err")" "out of range" "... before a byte of it"

for c in endless long-length; do
	pull $CD "$H/bad/$c"
	assert_contains "$?:$(cat "$T/err")" "125:" "bad/$c: an endless body ends in an error"
	assert_contains "$(cat "$T/err")" "more than the 1000" "... at its descriptor's size"
	assert_eq "$(ls "$CRIB_STORE/tmp" | grep -c '\.partial$')" 0 "... and its partial file is gone"
done

printf '{"auths":{"%s":{"auth":"%s"}}}\n' "$H" "$auth" >"$T/hauth.json"
pull $CD --authfile "$T/hauth.json" "$H/bad/redirect"
assert_eq "$?" 0 "a layer redirected to another host pulls ($(cat "$T/err"))"
assert_eq "$(registry_curl "https://$H/_hostile/side" | json '(j["requests"] > 0, len(j["authorization"]))')" "(True, 0)" \
	"the other host got the request without the Authorization header"

# the token realm is the registry's to name: the user's password never goes there over http
# (unless the registry itself is plain http on this machine), nor to a name that only looks
# like 127.x, nor to another host whose certificate --tls-verify=false did not vouch for
realm_auth() { registry_curl "https://$H/_hostile/side" | json 'len(j["realm-authorization"]) + len(j["authorization"])'; }
ra0=$(realm_auth)
pull $CD --authfile "$T/hauth.json" "$H/bad/realm-http"
assert_contains "$?:$(cat "$T/err")" "125:" "a token realm over http for a registry on https: refused"
assert_contains "$(cat "$T/err")" "is not https" "... saying so"
assert_eq "$(realm_auth)" "$ra0" "... and the realm got no credentials"
pull $CD --authfile "$T/hauth.json" "$H/bad/realm-fake-loopback"
assert_contains "$?:$(cat "$T/err")" "125:" "a token realm over http on 127.0.0.1.crib-test.invalid: refused"
assert_contains "$(cat "$T/err")" "is not https" "... as not https (no loopback address)"
pull --tls-verify=false --authfile "$T/hauth.json" "$H/bad/realm-other-host"
assert_contains "$?:$(cat "$T/err")" "125:" "--tls-verify=false: a token realm on another host with an unknown certificate: refused"
assert_eq "$(realm_auth)" "$ra0" "... and it got no credentials"

pull $CD "$H/bad/../../x"
assert_contains "$?:$(cat "$T/err")" "125:" "a name with '..': refused"
assert_contains "$(cat "$T/err")" "'..'" "... saying why"
assert_eq "$(registry_curl "https://$H/_hostile/dotdot" | json 'j["requests"]')" "[]" "... before any request"

pull $CD "$H/bad/config"
assert_contains "$?:$(cat "$T/err")" "125:" "a config whose bytes are not its digest: refused"
assert_contains "$(cat "$T/err")" "nothing of it was kept" "... and not kept"
pull $CD "$H/bad/header-digest"
assert_contains "$?:$(cat "$T/err")" "125:" "a Docker-Content-Digest that is not the manifest's: refused"
assert_contains "$(cat "$T/err")" "(Docker-Content-Digest)" "... naming the header"
pull $CD "$H/bad/many-layers"
assert_contains "$?:$(cat "$T/err")" "125:" "20000 layers: refused"
assert_contains "$(cat "$T/err")" "more than the 128 crib stores" "... saying the limit"
pull $CD --platform "$HOSTP" "$H/bad/nested"
assert_contains "$?:$(cat "$T/err")" "125:" "an index of indexes 64 deep: refused"
assert_contains "$(cat "$T/err")" "is an index itself" "... at the first nested one"
pull $CD "$H/bad/schema1"
assert_contains "$?:$(cat "$T/err")" "125:" "Docker's schema 1: refused"
assert_contains "$(cat "$T/err")" "schema 1, which crib does not read" "... saying so"
side0=$(registry_curl "https://$H/_hostile/side" | json 'j["requests"]')
# (a store of its own: its layer's bytes are another case's, which the store has)
CRIB_STORE=$T/store5 pull $CD "$H/bad/foreign-urls"
assert_contains "$?:$(cat "$T/err")" "125:crib: pull '$H/bad/foreign-urls:latest': the registry answered 404" "a layer only at its descriptor's urls: the registry's 404"
assert_eq "$(registry_curl "https://$H/_hostile/side" | json 'j["requests"]')" "$side0" "... and the urls were not fetched"

# a pull killed with SIGKILL halfway through a layer, then another: it resumes
"$CRIB" pull --layout-only $CD "$H/bad/slow" >"$T/out" 2>"$T/err" </dev/null &
pid=$!
i=0
while [ $i -lt 100 ] && ! ls "$CRIB_STORE"/tmp/*.partial 2>/dev/null | grep -q .; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
kill -9 $pid
wait $pid 2>/dev/null
part=$(ls "$CRIB_STORE"/tmp/*.partial 2>/dev/null | head -n 1)
ok "$([ -s "$part" ] && echo 0 || echo 1)" "the killed pull left its partial layer in tmp/ ($(stat -c %s "$part" 2>/dev/null) bytes)"
n=$(blobs)
s=$(date +%s)
pull $CD "$H/bad/slow"
assert_eq "$?" 0 "a second pull completes ($(cat "$T/err"))"
ok "$([ $(($(date +%s) - s)) -le 10 ] && echo 0 || echo 1)" "... at once: it resumed"
assert_contains "$(grep bad/slow/blobs "$HOSTILE_LOG" | tail -n 1)" '"range": "bytes=' "... with a Range request"
"$CRIB" image import "$(cat "$T/out")" "$T/slow" >"$T/imp" 2>&1
assert_eq "$?" 0 "the resumed image imports (its digests hold)"
assert_eq "$(ls "$CRIB_STORE/tmp" | grep -c '\.partial$')" 0 "no partial file is left"

# a partial file the server will not resume (it ignores Range: a 200 with all of it): started over
ld=$(registry_curl -H "Accept: application/vnd.oci.image.manifest.v1+json" "https://$H/v2/good/image/manifests/latest" | json 'j["layers"][0]["digest"][7:]')
mkdir -p "$T/store6/tmp" && chmod 700 "$T/store6" && printf 'not the layer' >"$T/store6/tmp/pull-$ld.partial"
CRIB_STORE=$T/store6 pull $CD "$H/good/image"
assert_eq "$?" 0 "a partial file and a server that ignores Range: the pull starts over ($(cat "$T/err"))"
assert_contains "$(grep "good/image/blobs/sha256:$ld" "$HOSTILE_LOG" | tail -n 1)" '"range": "bytes=13-", "status": 200' "... (it asked from byte 13, got all of it)"

# a registry that stops sending: the pull ends (30 s without a byte), it does not hang
s=$(date +%s)
CRIB_STORE=$T/store7 pull $CD "$H/bad/slow"
r=$?
e=$(($(date +%s) - s))
assert_contains "$r:$(cat "$T/err")" "125:" "a registry that stalls halfway through a layer: an error"
ok "$([ $e -ge 25 ] && [ $e -le 50 ] && echo 0 || echo 1)" "... after ~30 s without a byte ($e s)"
assert_contains "$(cat "$T/err")" "stopped sending for 30 s" "... saying so"

# (bad/drop's layer is bad/slow's: a store of its own, so that it is fetched again)
export CRIB_STORE=$T/store2
pull $CD "$H/bad/drop"
assert_contains "$?:$(cat "$T/err")" "125:" "a layer cut off halfway: an error"
pull $CD "$H/bad/drop"
assert_eq "$?" 0 "the next pull resumes it ($(cat "$T/err"))"

# a partial file another registry left with wrong bytes under the right digest: the next
# pull, from an honest registry that resumes it, starts over once rather than fail
CRIB_STORE=$T/store8 pull $CD "$H/bad/poison"
assert_contains "$?:$(cat "$T/err")" "125:" "a layer cut off halfway with wrong bytes: an error"
CRIB_STORE=$T/store8 pull $CD "$H/good/ranged"
assert_eq "$?" 0 "the next pull of the same layer from an honest registry succeeds ($(cat "$T/err"))"
assert_eq "$(ls "$T/store8/tmp" | grep -c "\.partial$")" 0 "... and no partial file is left"

# a registry on this machine without TLS: only with --tls-verify=false, then over http
if hostile_start http 2>"$T/e"; then
	pull "$HOSTILE_HTTP_HOST/good/image"
	assert_contains "$?:$(cat "$T/err")" "125:crib: pull '$HOSTILE_HTTP_HOST/good/image:latest': GET 'https://" "a registry without TLS: refused"
	pull --tls-verify=false "$HOSTILE_HTTP_HOST/good/image"
	assert_eq "$?" 0 "with --tls-verify=false, a loopback registry is pulled over http ($(cat "$T/err"))"
	printf '{"auths":{"%s":{"auth":"%s"}}}\n' "$HOSTILE_HTTP_HOST" "$auth" >"$T/hhauth.json"
	pull --tls-verify=false --authfile "$T/hhauth.json" "$HOSTILE_HTTP_HOST/bad/realm-fake-loopback"
	assert_contains "$?:$(cat "$T/err")" "125:" "a plain http registry: a realm on 127.0.0.1.crib-test.invalid over http: refused"
	assert_contains "$(cat "$T/err")" "is not https" "... as not https (no loopback address)"
else
	skips 4 "hostile-registry.py (http) did not start: $(cat "$T/e")"
fi

done_testing
