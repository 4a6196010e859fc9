#!/bin/sh
# tests/vm/matrix, the kernel matrix (issue 39), on reports made here (no guest boots): the
# table, the first ok, the JSON, the evidence; README's check fails on a changed cell, with the
# diff and the fix, and passes on a run of other guests (their columns keep README's cells);
# make kernel-matrix-readme's rewrite keeps what it did not see; a garbled README is refused.
# TOP is the checkout; CRIB a crib whose crib check --report --format=json gives the reports.
. "$(dirname "$0")/../lib/libtest.sh"

: "${TOP:?set by tests/run-all}"
if ! command -v jq >/dev/null 2>&1; then
	echo "1..0 # SKIP jq is not installed (as root, rootfs-tools/install-deps check installs it)"
	exit 0
fi
m=$TOP/tests/vm/matrix
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/b/vm-cache"
"$CRIB" check --report --format=json >"$d/r.json" 2>/dev/null
assert_eq "$(jq -r .report "$d/r.json")" "crib check" "crib check --report --format=json gives a report"
# two kernels of x86_64's stock boots: 5.10 without Landlock, 6.1 with it
jq '.features |= map(.status = (if .id == "landlock" then "ok" else .status end))
	| .machine.release = "6.1.0-99-amd64"' "$d/r.json" >"$d/b/vm-cache/report-x86_64-default.json"
jq '.features |= map(if .id == "landlock" then .status = "missing" | .tried = "landlock_create_ruleset(VERSION): ENOSYS" else . end)
	| .machine.release = "5.10.0-99-amd64"' "$d/r.json" >"$d/b/vm-cache/report-x86_64-k510.json"
# a report left from another run, of a guest not named: not in the table
cp "$d/b/vm-cache/report-x86_64-default.json" "$d/b/vm-cache/report-arm64-default.json"
"$m" write "$d/b" x86_64:default x86_64:k510 x86_64:k612
ok $? "write: exit 0"
md=$d/b/kernel-matrix.md
row=$(grep '^| Landlock |' "$md")
assert_eq "$row" "| Landlock | missing | ok | - | - | - | - | - | - | - | - | - | - | - | x86_64 6.1 |" \
	"Landlock: missing on 5.10, ok on 6.1, first ok x86_64 6.1, the guests without a report '-'"
assert_contains "$(grep '^| feature |' "$md")" "| x86_64 5.10 | x86_64 6.1 | x86_64 6.1 apparmor=0 |" \
	"the columns are named by architecture, major.minor and boot variant"
assert_not_contains "$(grep '^| feature |' "$md")" "-99-" "no Debian ABI number in a column's name"
assert_contains "$(cat "$md")" "- x86_64 5.10: missing: landlock_create_ruleset(VERSION): ENOSYS" "the evidence line below the table"
assert_contains "$(cat "$md")" "5.10.0-99-amd64" "the full release in the notes"
assert_contains "$(grep '^| network namespace |' "$md")" "| ok | ok | - |" "and a row per feature"
assert_eq "$(jq -r '.features[] | select(.id == "landlock") | .first_ok' "$d/b/kernel-matrix.json")" "x86_64 6.1" \
	"kernel-matrix.json: the first ok"
assert_eq "$(jq -r '.features[] | select(.id == "landlock") | .cells["x86_64 5.10"].status' "$d/b/kernel-matrix.json")" missing \
	"kernel-matrix.json: a cell's status"
assert_eq "$(jq -r '.columns[] | select(.name == "arm64 6.1") | .release' "$d/b/kernel-matrix.json")" null \
	"a report of a guest this run did not boot is not read"

# README: empty markers, then rewritten, then checked
begin='<!-- kernel-matrix begin: generated from build/kernel-matrix.md by make kernel-matrix-readme -->'
printf '# crib\n\n%s\n<!-- kernel-matrix end -->\n\nthe rest\n' "$begin" >"$d/README.md"
out=$("$m" check "$d/b" "$d/README.md" 2>&1)
is_rc=$?
assert_eq "$is_rc" 1 "check: an empty README table differs: exit 1"
assert_contains "$out" "make kernel-matrix-readme" "and names the fix"
"$m" readme "$d/b" "$d/README.md" >/dev/null
ok $? "readme: rewrites README's table"
"$m" check "$d/b" "$d/README.md" >/dev/null 2>&1
ok $? "check: README agrees after the rewrite"
assert_contains "$(cat "$d/README.md")" "the rest" "the rest of README is kept"
assert_eq "$(grep -c '^| Landlock |' "$d/README.md")" 1 "one table"

# a run of 6.1 alone where Landlock went missing: the check fails with the cell
jq '.features |= map(if .id == "landlock" then .status = "missing" else . end)' \
	"$d/b/vm-cache/report-x86_64-default.json" >"$d/x" && mv "$d/x" "$d/b/vm-cache/report-x86_64-default.json"
"$m" write "$d/b" x86_64:default
out=$("$m" check "$d/b" "$d/README.md" 2>&1)
assert_eq "$?" 1 "check: a changed cell fails"
assert_contains "$out" "+| Landlock | missing | missing |" "the diff shows the row as this run has it (5.10's cell kept from README)"
assert_contains "$out" "-| Landlock | missing | ok |" "and as README had it"
# a run of 5.10 alone, unchanged: 6.1's column keeps README's cells, the check passes
"$m" write "$d/b" x86_64:k510
"$m" check "$d/b" "$d/README.md" >/dev/null 2>&1
ok $? "check: a run of other guests passes (the columns it did not boot keep README's cells)"
"$m" readme "$d/b" "$d/README.md" >/dev/null
assert_eq "$(grep '^| Landlock |' "$d/README.md")" "| Landlock | missing | ok | - | - | - | - | - | - | - | - | - | - | - | x86_64 6.1 |" \
	"readme after a run of 5.10 alone keeps 6.1's cells"

printf '# crib without markers\n' >"$d/R2.md"
"$m" readme "$d/b" "$d/R2.md" >/dev/null 2>&1
assert_eq "$?" 3 "readme: a README without the markers is refused (exit 3)"
assert_eq "$(cat "$d/R2.md")" "# crib without markers" "and left as it was"
done_testing
