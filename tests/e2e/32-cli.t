#!/bin/sh
# Issue 32, the newcomer's command-line bugs, as a new user meets them:
#   2. `crib pul debian`, `crib start x`: "unknown command" with crib's commands (and the one
#      meant, for a typo), never "'crib X' takes no arguments";
#   3. `crib run DIR` runs the DIR/crib.ini `crib image import` made, for real, or says DIR has
#      none; a missing image name (localhost/pyweb:1) is told how to make a spec from the image,
#      not to write one by that name; a spec that cannot be read says why (its errno);
#   4. every command crib dispatches (the list its unknown-command error prints, made from the
#      dispatch table itself) and every `crib oci` command is in `crib help` and in crib(1)'s
#      SYNOPSIS, and crib(1) does not call a documented command unsupported.
# CRIB_MAN is crib(1) (tests/run-all stages cmd/crib.1); without it (the VM guests) the checks
# against crib(1) skip, saying so: they read a file, not the kernel, and run on the host.
. "$(dirname "$0")/../lib/libtest.sh"

OUT=$T/out # the import (crib image rm removes it: its files may be the user's subordinate ids')
trap '[ -e "$OUT/img/crib.ini" ] && "$CRIB" image rm "$OUT/img"; rm -rf "$T"' EXIT
# names such as localhost/pyweb:1 are looked up from here, where none exists
cd "$T" || exit 1
first() { printf '%s\n' "$err" | head -n 1; }

# --- 2: unknown commands
# (crib pull is a command since issue 35: crib-pull, beside crib where libcurl is)
if [ -x "$(dirname "$CRIB")/crib-pull" ]; then
	run_crib pull 'a/../b'
	assert_eq "$rc:$(first)" "125:crib: image reference 'a/../b': repository has a '..' component" \
		"crib pull is a command: a bad name is refused before any request (125)"
	run_crib pull
	assert_eq "$rc:$(first)" "125:crib: 'crib pull' needs an image reference" "crib pull without a reference says so"
else
	run_crib pull 'a/../b'
	assert_eq "$rc:$(first)" "125:crib: 'crib pull' needs crib-pull, which is not installed beside crib" \
		"crib pull without crib-pull says so (125)"
	assert_contains "$err" "crib image import image.tar DIR" "with what to do without it"
fi
run_crib pul debian
assert_eq "$rc:$(first)" "125:crib: unknown command 'pul'; did you mean 'pull'?" "crib pul: did you mean pull"
assert_contains "$err" "crib: hint: crib's commands: run, ps, exec," "and crib's commands"
# crib image's commands with the wrong count of arguments: not "unknown command"
if "$CRIB" image platform >/dev/null 2>&1; then
	run_crib image rm
	assert_eq "$rc:$(first)" "125:crib: 'crib image rm' takes one argument: the directory an import made" "crib image rm without its argument: says so, not 'unknown command'"
	run_crib image platform x
	assert_eq "$rc:$(first)" "125:crib: 'crib image platform' takes no arguments" "crib image platform x: takes no arguments"
else
	skips 2 "no crib-image beside crib here (make builds it with libarchive, json-c, libcrypto)"
fi
run_crib start x
assert_eq "$rc:$(first)" "125:crib: unknown command 'start'" "crib start x: an unknown command"
assert_contains "$err" "'crib run -d SPEC' starts a container in the background" "start: what crib does instead"
run_crib exce web
assert_eq "$rc:$(first)" "125:crib: unknown command 'exce'; did you mean 'exec'?" \
	"crib exce: the command one typo away"
run_crib frobnicate
assert_eq "$rc:$(first)" "125:crib: unknown command 'frobnicate'" "no guess where none is close"
assert_contains "$err" "crib's commands: " "the list all the same"
run_crib
assert_eq "$rc:$(first)" "125:crib: no command given" "no command: 125"
assert_contains "$err" "crib's commands: " "and the list"
run_crib spec x
assert_eq "$rc:$(first)" "125:crib: 'crib spec' takes no arguments" \
	"a command that takes no arguments still says so"
run_crib oci frobnicate
assert_eq "$rc:$(first)" "125:crib: unknown command 'frobnicate'" "crib oci: an unknown command"
assert_contains "$err" "crib: hint: crib oci's commands: create, start," "with its commands"

# --- 3: the spec's argument
mkdir "$T/empty"
run_crib run "$T/empty"
assert_eq "$rc:$(first)" "125:crib: '$T/empty' is a directory with no crib.ini in it" \
	"crib run DIR without DIR/crib.ini: says so (125)"
assert_contains "$err" "as 'crib image import SOURCE DIR' makes" "with what DIR could be"
assert_contains "$err" "crib: hint: 'crib spec > $T/empty/crib.ini' writes an example" "and how to write one"
run_crib check --spec "$T/empty"
assert_eq "$rc:$(first)" "125:crib: '$T/empty' is a directory with no crib.ini in it" \
	"crib check --spec DIR: the same"
run_crib bench --own "$T/empty"
assert_eq "$rc:$(first)" "125:crib: '$T/empty' is a directory with no crib.ini in it" \
	"crib bench --own DIR: the same"
mkdir -p "$T/odd/crib.ini"
run_crib run "$T/odd"
assert_eq "$rc:$err" "125:crib: cannot read '$T/odd/crib.ini': Is a directory" \
	"a spec that cannot be read: the errno's text (EISDIR)"
# the kernel refuses to read address 0 of a process's memory: a read error of its own (EIO)
run_crib run /proc/self/mem
assert_eq "$rc:$err" "125:crib: cannot read '/proc/self/mem': Input/output error" \
	"a read error: the errno's text (EIO)"

# a name that is no file and reads as an image is one of the image store's (crib run IMAGE):
# none there, the error says what to pull
for ref in localhost/pyweb:1 debian:12 docker.io/library/debian "debian@sha256:0123abcd"; do
	CRIB_STORE="$T/nostore" run_crib run "$ref"
	assert_eq "$rc:$(first)" "125:crib: no image store at '$T/nostore': No such file or directory" \
		"crib run $ref: an image, and there is no store (125)"
	assert_contains "$err" "crib pull REF" "crib run $ref: how to get an image"
	assert_not_contains "$err" "crib spec >" "crib run $ref: not told to write a spec by that name"
done
run_crib check --spec localhost/pyweb:1
assert_contains "$err" "crib: hint: 'localhost/pyweb:1' looks like an image" "crib check --spec: the same hint"
run_crib run box/my.ini
assert_eq "$rc:$err" "125:crib: cannot open spec 'box/my.ini': No such file or directory
crib: hint: 'crib spec > box/my.ini' writes an example to start from" \
	"a missing spec file: how to write one, as before"

# crib run DIR, for real: an image (a docker export of the test rootfs and a file of its own)
# imported, run by its directory; the file is read inside the container
if ! "$CRIB" image platform >/dev/null 2>&1; then
	skips 7 "crib-image is not built (libarchive-dev and libssl-dev missing at make time)"
elif ! command -v tar >/dev/null; then
	skips 7 "no tar here"
else
	mkdir "$T/src" "$OUT"
	# (as the test user, root's 0700 /root of the test rootfs is not readable: left out; and
	# any tar: the VM guests' shell runs busybox's, which has no --exclude nor --owner, and
	# keeps the files' owners, which there are container root's)
	for e in "$ROOTFS"/*; do [ "${e##*/}" = root ] || cp -a "$e" "$T/src/"; done
	marker="imported by 32-cli.t, pid $$"
	echo "$marker" >"$T/src/marker"
	tar --numeric-owner --owner=0 --group=0 -cf "$T/export.tar" -C "$T/src" . 2>/dev/null ||
		tar -cf "$T/export.tar" -C "$T/src" .
	run_crib image import "$T/export.tar" "$OUT/img"
	assert_eq "$rc" 0 "crib image import of a docker export: 0 ($err)"
	run_crib run "$OUT/img" -- /bin/cat /marker
	assert_eq "$rc:$out" "0:$marker" "crib run DIR runs DIR/crib.ini: the image's file, read inside"
	run_crib run "$OUT/img/" -- /bin/cat /marker
	assert_eq "$rc:$out" "0:$marker" "crib run DIR/: the same"
	run_crib run "$OUT/img"
	assert_eq "$rc" 0 "its own command (/bin/sh, with no input) too"
	run_crib run --trace "$OUT/img" -- /bin/true
	assert_contains "$err" "crib: trace: parent: read spec '$OUT/img/crib.ini'" "--trace names the spec read: DIR/crib.ini"
	run_crib check --spec "$OUT/img"
	ok "$([ "$rc" = 0 ] || [ "$rc" = 1 ]; echo $?)" "crib check --spec DIR: checks (0 or 1, not 125: $rc)"
	assert_not_contains "$out" "no rootfs given" "with the rootfs of DIR/crib.ini"
fi

# --- 4: crib help and crib(1) against what crib dispatches
cmds=$("$CRIB" frobnicate 2>&1 | sed -n "s/^crib: hint: crib's commands: //p" | tr -d ,)
ocmds=$("$CRIB" oci frobnicate 2>&1 | sed -n "s/^crib: hint: crib oci's commands: //p" | tr -d ,)
assert_contains " $cmds " " run " "crib's commands, from its dispatch table: $cmds"
assert_contains " $ocmds " " create " "crib oci's commands, from its dispatch table: $ocmds"
help=$("$CRIB" help)
missing=
for c in $cmds; do
	printf '%s\n' "$help" | grep -Eq "^(usage:)? +crib $c( |\$)" || missing="$missing $c"
done
assert_eq "$missing" "" "every command crib dispatches has its line in crib help"
extra=
for c in $(printf '%s\n' "$help" | sed -n 's/^\(usage:\)\{0,1\} *crib \([a-z][a-z]*\).*/\2/p' | sort -u); do
	case " $cmds " in *" $c "*) ;; *) extra="$extra $c" ;; esac
done
assert_eq "$extra" "" "and crib help names no command crib does not dispatch"
# the words after "COMMAND:" in crib oci's lines of crib help
ohelp=$(printf '%s\n' "$help" | sed -n '/^ *crib oci /,/^ *crib [^o]/{/^ *crib [^o]/!p;}' | tr '\n' ' ' |
	sed -n 's/.*COMMAND: *//p' | tr -d ,)
missing=
for c in $ocmds; do
	case " $ohelp " in *" $c "*) ;; *) missing="$missing $c" ;; esac
done
assert_eq "$missing" "" "every crib oci command is in crib help"

if [ -r "${CRIB_MAN:-}" ]; then
	syn=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$CRIB_MAN")
	missing=
	for c in $cmds; do
		printf '%s\n' "$syn" | grep -Eq "^\.B crib $c( |\$)" || missing="$missing $c"
	done
	assert_eq "$missing" "" "every command crib dispatches has its line in crib(1)'s SYNOPSIS"
	# crib oci's line: its commands between | (font escapes dropped)
	osyn=$(printf '%s\n' "$syn" | sed -n '/^\.B crib oci/,/^\.br/p' | sed 's/\\f[BRIP]//g; s/\\%//g' | tr '|\n' '  ')
	missing=
	for c in $ocmds; do
		case " $osyn " in *" $c "*) ;; *) missing="$missing $c" ;; esac
	done
	assert_eq "$missing" "" "every crib oci command is in crib(1)'s SYNOPSIS"
	assert_eq "$(grep -n 'not supported yet' "$CRIB_MAN")" "" "crib(1) calls no documented command unsupported"
else
	skips 3 "no crib(1) here (CRIB_MAN: tests/run-all stages cmd/crib.1; the VM guests have none)"
fi

done_testing
