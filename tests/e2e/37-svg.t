#!/bin/sh
# crib run --trace=svg FILE (issue 37): the container's start as a picture. The file holds a box
# a step (as many as --trace numbers), each lane's process, the namespaces the clone made and
# unshare's time for comparison; it is well-formed XML whatever a trace line quotes; and a real
# browser (Debian's headless Chromium) reads it without an error and draws it.
. "$(dirname "$0")/../lib/libtest.sh"

# a spec path with XML's special characters, which a trace line quotes
mkdir -p "$T/a&b<c>"
spec "$T/a&b<c>/s.ini" <<EOF2
[process]
args = /bin/echo drawn
EOF2
run_crib run --trace=svg "$T/t.svg" "$T/a&b<c>/s.ini"
assert_eq "$rc:$out" "0:drawn" "crib run --trace=svg runs the container" || echo "$err" | sed 's/^/#   /'
assert_eq "$(echo "$err" | grep -c 'crib: trace:')" 0 "and prints no trace: it goes to the picture"
run_crib run --trace "$T/a&b<c>/s.ini"
nsteps=$(echo "$err" | grep -c -e '^crib: trace: parent: step ' -e '^crib: trace: step ')
svg=$(cat "$T/t.svg" 2>/dev/null)
assert_eq "$(echo "$svg" | grep -c '<g class="step">')" "$nsteps" "a box a step, as --trace numbers them ($nsteps)"
assert_contains "$svg" "cloned with CLONE_NEWUSER|CLONE_NEWNS|CLONE_NEWPID" "the namespaces the clone made"
assert_contains "$svg" '<text class="lane" x="10" y="142">setup, then crib' "the setup's lane"
if command -v unshare >/dev/null 2>&1 && unshare -Urmpf --mount-proc true 2>/dev/null; then
	assert_contains "$svg" "unshare -Urmpf --mount-proc true</text>" "and unshare's time beside crib's"
else
	skip "unshare -Urmpf does not work here: no comparison drawn"
fi
assert_not_contains "$svg" "a&b<c>" "the spec's path is escaped in the picture"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$T/t.svg" 2>"$T/xmlerr"
	assert_eq "$?" 0 "xmllint: well-formed XML" || sed 's/^/#   /' "$T/xmlerr"
else
	skip "no xmllint (libxml2-utils) to check the XML"
fi

# FILE is a symbolic link another user planted where the caller writes its picture (a /tmp of
# fs.protected_symlinks = 0): refused before the container runs, the file it names stays as it
# was (root's crib truncated and wrote root's file through it before the fix); a hard link to
# the caller's file there (fs.protected_hardlinks = 0) loses its name to the picture, the file
# stays as it was
mkdir -p "$T/pub" && chmod 1777 "$T/pub"
printf 'secret\n' >"$T/victim"
ln -s "$T/victim" "$T/pub/t.svg"
[ "$(id -u)" = 0 ] && id crib-test >/dev/null 2>&1 && chown -h crib-test "$T/pub/t.svg"
run_crib run --trace=svg "$T/pub/t.svg" "$T/a&b<c>/s.ini"
assert_eq "$rc:$(cat "$T/victim"):$out" "125:secret:" "--trace=svg FILE refuses a symbolic link at FILE, before the container runs" || echo "$err" | sed 's/^/#   /'
assert_contains "$err" "is not a regular file" "and says why"
rm -f "$T/pub/t.svg"
ln "$T/victim" "$T/pub/t.svg"
run_crib run --trace=svg "$T/pub/t.svg" "$T/a&b<c>/s.ini"
assert_eq "$rc:$(cat "$T/victim")" "0:secret" "--trace=svg FILE writes nothing into the file a hard link at FILE names"
assert_eq "$([ -f "$T/pub/t.svg" ] && grep -c '<svg ' "$T/pub/t.svg")" 1 "the picture is a file of its own at FILE"
assert_eq "$(ls "$T/pub" | grep -c crib)" 0 "and no temporary file is left beside it"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	skips 3 "no Chromium here (rootfs-tools/install-deps check installs Debian's chromium)"
	done_testing
	exit
fi
# a browser of our own: its profile in $T, no sandbox as root (Chromium refuses it there)
chrome() {
	HOME=$T timeout 90 "$browser" --headless --disable-gpu --no-sandbox --no-first-run \
		--user-data-dir="$T/chrome" "$@" 2>>"$T/chrome.err"
}
chrome --dump-dom "file://$T/t.svg" >"$T/dom"
dom=$(cat "$T/dom")
assert_contains "$dom" "pivot_root into the rootfs" "Chromium reads the SVG: the steps' names are in its DOM" || tail -n 5 "$T/chrome.err" | sed 's/^/#   /'
assert_not_contains "$dom" "This page contains the following errors" "with no XML error"
printf '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="420"><rect width="1000" height="420" fill="#fff"/></svg>\n' >"$T/blank.svg"
chrome --screenshot="$T/blank.png" --window-size=1000,420 "file://$T/blank.svg" >/dev/null
chrome --screenshot="$T/t.png" --window-size=1000,420 "file://$T/t.svg" >/dev/null
b=$(wc -c <"$T/blank.png" 2>/dev/null || echo 0)
p=$(wc -c <"$T/t.png" 2>/dev/null || echo 0)
assert_eq "$([ "$b" -gt 0 ] && [ "$p" -gt $((b * 4)) ] && echo drawn)" drawn "and draws it: its screenshot holds far more than a blank page's ($p bytes against $b)"

done_testing
