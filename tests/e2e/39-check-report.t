#!/bin/sh
# crib check --report (Markdown and JSON) and --compare (issue 39): the machine, each feature
# with what was tried, what it means and the fix, the same rows and exit status as crib check;
# nothing of who ran it (the user's name and home, any /home/NAME); --compare of two reports
# names what changed and exits 1, 0 when nothing did, 125 naming the JSON path of a bad file.
. "$(dirname "$0")/../lib/libtest.sh"

me=$(id -un)
# a rootfs path that names its user, as a real one under /home would: the report must not
"$CRIB" check --rootfs "/home/$me/pi-rootfs" --format=ini >"$T/check.ini" 2>/dev/null
rc_plain=$?
run_crib check --report --rootfs "/home/$me/pi-rootfs"
md=$out
assert_eq "$rc" "$rc_plain" "--report exits as crib check does ($rc_plain)"
for h in "# crib check report" "## The machine" "## Verdict" "## Features" "## What crib will and will not do on this kernel"; do
	assert_contains "$md" "$h" "the report has '$h'"
done
assert_eq "$(echo "$md" | grep '^| kernel | ')" "| kernel | $(uname -s) $(uname -r) $(uname -v | sed 's/[*|`]/\\&/g') $(uname -m) |" "it names the kernel, uname -srvm: not the host's name"
assert_contains "$md" "| distribution | " "and the distribution"
if [ -r /proc/config.gz ] || [ -r "/boot/config-$(uname -r)" ]; then
	assert_contains "$md" "CONFIG_USER_NS=" "and the config options crib's features depend on"
else
	assert_contains "$md" "| kernel config | none here" "and that there is no kernel config here"
fi
sections=$(grep -c '^\[' "$T/check.ini")
assert_eq "$(echo "$md" | grep -c '^### ')" "$sections" "one section a feature, as crib check has rows ($sections)"
assert_eq "$(echo "$md" | grep -c '^- what it means: ')" "$sections" "each says what it means"
assert_contains "$md" "### pivot_root into the rootfs: " "the rootfs's row is there"
assert_not_contains "$md" "/home/$me" "no /home/NAME of the user in it"
[ "$me" != root ] && assert_not_contains "$md" "$me" "nor the user's name ($me)"
# (as the user whose home that is, ~/pi-rootfs)
# (a home of /home, as the VM guests' test user has, makes it ~/USER/pi-rootfs)
assert_eq "$(echo "$md" | grep -c "'/home/USER/pi-rootfs'\|'~/pi-rootfs'\|'~/USER/pi-rootfs'")" 1 "the path is kept, its user replaced" || echo "$md" | grep pi-rootfs | sed 's/^/#   /'

if [ "$ROLE" = user ] && [ -n "${HOME:-}" ] && [ "$HOME" != / ]; then
	run_crib check --report --rootfs "$HOME/rootfs-under-home"
	assert_not_contains "$out" "$HOME" "a path under the caller's home is shown without it"
	assert_contains "$out" "~/rootfs-under-home" "as ~/..."
fi

# the machine's own name and numbers: a host name in a path crib names and on the kernel command
# line (systemd.hostname=), a Raspberry Pi firmware's board serial and MAC address there. As
# root, in a UTS and mount namespace of its own with a command line of the test's
if [ "$ROLE" = root ] && command -v unshare >/dev/null 2>&1 && unshare -mu true 2>/dev/null; then
	printf 'console=ttyS0 systemd.hostname=secret-host-q bcm2708.serial=0x9a8b7c6d smsc95xx.macaddr=B8:27:EB:12:34:56 quiet\n' >"$T/cmdline"
	out=$(unshare -mu sh -c 'hostname secret-host-q && mount --bind "$1" /proc/cmdline && "$2" check --report --rootfs /srv/secret-host-q/rootfs' sh "$T/cmdline" "$CRIB" 2>/dev/null)
	assert_contains "$out" "console=ttyS0" "--report with a command line of the test's: it is shown"
	assert_not_contains "$out" "secret-host-q" "without the host's name, in a path or on the command line"
	assert_not_contains "$out" "9a8b7c6d" "without the board's serial number"
	assert_not_contains "$out" "12:34:56" "without its MAC address"
else
	skips 4 "the host's name and numbers: as root, with unshare -mu"
fi

run_crib check --report --format=json --rootfs "/home/$me/pi-rootfs"
echo "$out" >"$T/a.json"
assert_eq "$rc" "$rc_plain" "--report --format=json exits as crib check does"
assert_contains "$out" '"report":"crib check"' "JSON: a crib check report"
assert_eq "$(grep -c '"meaning":' "$T/a.json")" "$sections" "JSON: every feature, with its meaning"
assert_not_contains "$out" "/home/$me" "JSON: no /home/NAME of the user either"

run_crib check --compare "$T/a.json" "$T/a.json"
assert_eq "$rc:$(echo "$out" | grep -c '^0 features changed')" "0:1" "--compare of a report with itself: nothing changed, exit 0"
# B: a kernel where the seccomp filters are missing and the time namespace is gone
sed -e '/"id":"seccomp_filter"/,/"status"/s/"status":"[a-z ]*"/"status":"missing"/' \
	-e 's/"id":"time_namespace"/"id":"time_namespace_gone"/' "$T/a.json" >"$T/b.json"
run_crib check --compare "$T/a.json" "$T/b.json"
assert_eq "$rc" 1 "--compare: a status changed, exit 1" || echo "$err" | sed 's/^/#   /'
assert_contains "$out" "| seccomp filters | ok | missing |" "it names the feature, before and after"
assert_contains "$out" "| not in this report |" "and a feature one report lacks"

# a hostile report: a feature named with a backslash before a '|' (which, unescaped, ends the
# table's cell early: a column forged), a terminal escape, HTML and a Markdown link
printf '{"report": "crib check", "machine": {}, "features": [{"id": "h", "feature": "a\\\\| b \\u001b]0;x\\u0007 <script> [l](http://e)", "status": "ok", "tried": ""}]}\n' >"$T/hostile.json"
run_crib check --compare "$T/a.json" "$T/hostile.json"
row=$(printf '%s\n' "$out" | grep -F '| a\')
assert_eq "$(printf '%s' "$row" | sed -e 's/\\\\//g' -e 's/\\|//g' | tr -cd '|' | wc -c)" 4 "--compare of a hostile report: a feature's name stays in its cell ($row)"
assert_eq "$(printf '%s' "$out" | tr -d '\n' | grep -c "$(printf '\033')")" 0 "no terminal escape reaches the output"
assert_not_contains "$out" "<script" "no HTML"
assert_not_contains "$out" "[l](" "no Markdown link"

printf '{"report": "crib check", "machine": {}, "features": [{"id": "x", "feature": "x", "status": 3}]}\n' >"$T/bad.json"
run_crib check --compare "$T/a.json" "$T/bad.json"
assert_eq "$rc:$(echo "$err" | grep -c 'bad.json: .features\[0\].status: not a string')" "125:1" "a bad report: 125, naming its JSON path"
echo 'not json' >"$T/notjson"
run_crib check --compare "$T/notjson" "$T/a.json"
assert_eq "$rc:$(echo "$err" | grep -c 'notjson: not a JSON document')" "125:1" "a file that is no JSON: 125, said"
run_crib check --report --format=ini
assert_eq "$rc:$(echo "$err" | grep -c "'--format=ini' is not one")" "125:1" "--report --format=ini is refused"

done_testing
