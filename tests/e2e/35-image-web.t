#!/bin/sh
# A new user's first service from a registry (issue 35's "done when"): the credentials and the
# registry's CA where podman keeps them (~/.config/containers/auth.json and certs.d), `crib
# pull`, `crib run -d -p PORT:80 --name web IMAGE`, and the page fetched with wget from the
# host. Then the parts meeting it: crib exec in it, crib ps with its port, a second container
# of the image that does not see the first one's writes, stop and rm leaving nothing in the
# store, rmi and prune emptying it. As root and as the test user (tests/run-all runs both; the
# user's network helper gets a /dev/net/tun of its own there).
. "$(dirname "$0")/../lib/libtest.sh"
. "$(dirname "$0")/../lib/registry.sh"

# (beside crib in a build, or in ../lib/crib where the packages put them: 19-deb.t runs this
# test with the installed crib)
helpers=$(dirname "$CRIB")
[ -x "$helpers/crib-pull" ] || helpers=$(dirname "$CRIB")/../lib/crib
if [ ! -x "$helpers/crib-pull" ] || [ ! -x "$helpers/crib-image" ]; then
	echo "1..0 # SKIP crib-pull or crib-image is not built (rootfs-tools/install-deps check)"
	exit 0
fi
if why=$(registry_missing); then
	echo "1..0 # SKIP $why (rootfs-tools/install-deps check installs it)"
	exit 0
fi
PROBE=$ROOTFS/usr/local/bin/probe
if ! command -v wget >/dev/null 2>&1; then
	echo "1..0 # SKIP no wget on the host (rootfs-tools/install-deps check)"
	exit 0
fi
trap '"$CRIB" rm -f web web2 >/dev/null 2>&1; registry_stop; rm -rf "$T"' EXIT

# a fresh user: a home of its own, the store under it (no CRIB_STORE), a runtime directory
export HOME=$T/home XDG_RUNTIME_DIR=$T/run XDG_DATA_HOME=
unset CRIB_STORE REGISTRY_AUTH_FILE XDG_DATA_HOME
mkdir -p "$HOME" && mkdir -m 0700 "$XDG_RUNTIME_DIR"
if [ "$ROLE" = root ]; then
	# root's store is /var/lib/crib: this test keeps its own, as every test does
	export CRIB_STORE=$T/store
	STORE=$CRIB_STORE
else
	STORE=$HOME/.local/share/crib
fi

registry_start "$T/reg" 2>"$T/start.err" || {
	echo "1..0 # SKIP the test registry did not start: $(tr '\n' ' ' <"$T/start.err")"
	exit 0
}
# the image: the test rootfs with a page in /www
# (as the test user, root's 0700 /root of the staged rootfs cannot be read: the image goes
# without it)
mkdir -m 0700 "$T/web"
cp -a "$ROOTFS" "$T/web/rootfs" 2>/dev/null
mkdir -p "$T/web/rootfs/www" && echo "hello from crib's web image" >"$T/web/rootfs/www/index.html"
if ! { registry_image "$T/layout" web "$(registry_platform)" "$T/web/rootfs" &&
	registry_push "$T/layout:web" "$REGISTRY_HOST/apps/web:1"; } 2>"$T/e"; then
	echo "1..0 # SKIP the image could not be pushed: $(tr '\n' ' ' <"$T/e")"
	exit 0
fi
registry_auth_json "$HOME/.config/containers/auth.json" "$REGISTRY_HOST"
registry_certs_d "$HOME/.config/containers/certs.d"
IMG=$REGISTRY_HOST/apps/web:1

# --- pull, with podman's files and nothing else
"$CRIB" pull "$IMG" >"$T/pull.out" 2>"$T/pull.err" </dev/null
assert_eq "$?" 0 "crib pull with ~/.config/containers/auth.json and certs.d ($(cat "$T/pull.err"))"
"$CRIB" images >"$T/images"
assert_contains "$(cat "$T/images")" "$IMG" "crib images lists it by its full name"

# --- a service with a published port
_port=$((30000 + ($$ % 4000) * 5))
while "$PROBE" bind "$_port" 2>/dev/null | grep -qv bound; do _port=$((_port + 1)); done
"$CRIB" run -d -p "127.0.0.1:$_port:80" --name web "$IMG" \
	/bin/busybox httpd -f -p 80 -h /www >"$T/run.out" 2>"$T/run.err" </dev/null
assert_eq "$?" 0 "crib run -d -p $_port:80 --name web IMAGE ($(grep -v 'warning\|hint' "$T/run.err" | tr '\n' ' '))"
page=""
i=0
while [ $i -lt 50 ]; do
	page=$(wget -q -O - "http://127.0.0.1:$_port/" 2>/dev/null) && [ -n "$page" ] && break
	sleep 0.2
	i=$((i + 1))
done
assert_eq "$page" "hello from crib's web image" "wget from the host fetches the page through the published port"
"$CRIB" ps >"$T/ps" 2>&1
assert_contains "$(grep '^web ' "$T/ps")" "$_port" "crib ps shows web running with its port"

# --- root's container, in a user namespace of root's range, gets an overlay too: the pulled
# layers, host root's files, shown through idmapped mounts (runtime/steps/idlayers.c), no copy
assert_eq "$(grep -c "gets a copy" "$T/run.err")" 0 "crib run IMAGE makes no copy of the image ($ROLE)"
"$CRIB" exec web /bin/sh -c 'grep -c " / / .* - overlay " /proc/self/mountinfo; stat -c %u:%g /www/index.html' >"$T/ov.out" 2>&1
assert_eq "$(cat "$T/ov.out")" "1
0:0" "web's / is an overlay, the image's files its root's ($ROLE)"

# --- crib exec meets it: a write in the container's own layer
"$CRIB" exec web /bin/sh -c 'echo mine > /www/extra.html && cat /www/index.html' >"$T/exec.out" 2>&1
assert_eq "$(cat "$T/exec.out")" "hello from crib's web image" "crib exec runs in the container"
page2=$(wget -q -O - "http://127.0.0.1:$_port/extra.html" 2>/dev/null)
assert_eq "$page2" "mine" "the service serves what exec wrote"
if [ "$ROLE" = root ]; then
	first=$(awk -F: '$1 == "root" {print $2; exit}' /etc/subuid)
	assert_eq "$(stat -c %u:%g "$STORE"/containers/*/upper/www/extra.html 2>&1)" "$first:$first" \
		"what exec wrote as the container's root is the first id of root's range on disk, not host root's"
	assert_eq "$(grep -c "$STORE" /proc/self/mountinfo)" 0 "while web runs, nothing of the store is mounted on the host"
fi

# --- a second container of the image sees none of it, and the image's layers are unchanged
"$CRIB" run --rm --network none "$IMG" /bin/sh -c 'cat /www/extra.html 2>&1; ls /www' >"$T/second" 2>/dev/null </dev/null
assert_contains "$(cat "$T/second")" "No such file" "a second container does not see the first one's write"
assert_eq "$(find "$STORE/layers" -name extra.html 2>/dev/null | wc -l | tr -d ' ')" 0 \
	"the write is in no layer of the image"
ncont=$(ls "$STORE/containers" 2>/dev/null | wc -l | tr -d ' ')
assert_eq "$ncont" 1 "--rm removed the second container's directory; web's is there"

# --- --print-spec writes the program after IMAGE too, and the spec runs it; as root, a spec of
# the image with user = no (no user namespace) runs it too, and gets a layer of its own
"$CRIB" run --print-spec --network none "$IMG" /bin/sh -c 'echo "from the spec: $0"; echo x >/www/spec-write' >"$T/p.ini" 2>"$T/p.err"
assert_contains "$(grep '^args' "$T/p.ini")" 'echo \"from the spec: $0\"' "--print-spec writes CMD ARGS as the spec's args"
if [ "$ROLE" = root ]; then
	sed -i 's/^\[namespaces\]$/[namespaces]\nuser = no/' "$T/p.ini"
	grep -q '^\[namespaces\]' "$T/p.ini" || printf '[namespaces]\nuser = no\n' >>"$T/p.ini"
fi
"$CRIB" run "$T/p.ini" >"$T/p.out" 2>"$T/p.err2" </dev/null
assert_eq "$(cat "$T/p.out")" "from the spec: /bin/sh" \
	"the printed spec runs that program ($ROLE$([ "$ROLE" = root ] && echo ', user = no'); $(grep -v warning "$T/p.err2" | head -n 2 | tr '\n' ' '))"
assert_eq "$(find "$STORE/layers" -name spec-write 2>/dev/null | wc -l | tr -d ' ')" 0 \
	"its write is in no layer of the image"
"$CRIB" run --count 2 "$T/p.ini" >/dev/null 2>"$T/count.err" </dev/null
assert_eq "$?:$(grep -c "'--count' is for a spec with a rootfs" "$T/count.err")" "125:1" \
	"--count with a spec of an image is refused (one directory a container)"
for c in $("$CRIB" ps -a 2>/dev/null | awk 'NR > 1 && $1 != "web" {print $1}'); do
	"$CRIB" rm "$c" >/dev/null 2>&1
done

# --- stop and rm leave nothing; rmi then prune empty the store
"$CRIB" stop web >/dev/null 2>&1
"$CRIB" rm web >/dev/null 2>&1
assert_eq "$?" 0 "stop and rm web"
assert_eq "$(ls "$STORE/containers" 2>/dev/null | wc -l | tr -d ' ')" 0 "rm removed the container's directory"
ok "$(wget -q -T 2 -O - "http://127.0.0.1:$_port/" >/dev/null 2>&1 && echo 1 || echo 0)" \
	"the port is closed after stop"
"$CRIB" rmi "$IMG" >/dev/null 2>&1
assert_eq "$?" 0 "crib rmi"
"$CRIB" image prune >/dev/null 2>&1
assert_eq "$(ls "$STORE/layers" "$STORE/images" "$STORE/blobs/sha256" 2>/dev/null | grep -vc ':$\|^$')" 0 \
	"after rmi and prune no layer, image or blob is left"
assert_eq "$(grep -c "$STORE" /proc/self/mountinfo)" 0 "nothing of the store is mounted on the host"

done_testing
