#!/bin/sh
# crib plan SPEC (issue 37): the plan crib run would follow, printed, with nothing made; held
# against what the container then really gets, read from inside (/proc/self/uid_map, the
# Seccomp line, CapEff) and outside (the host's mount table, cgroups, crib's state).
. "$(dirname "$0")/../lib/libtest.sh"

spec "$T/s.ini" <<EOF2
[process]
args = /bin/sh -c "cat /proc/self/uid_map; grep -E '^(Seccomp|CapEff):' /proc/self/status"
[resources]
pids = 64
resources_mode = prefer
EOF2
sub_before=$(cat /etc/subuid /etc/subgid 2>/dev/null | md5sum)
mounts_before=$(host_mounts | wc -l)
state_before=$(find "${XDG_RUNTIME_DIR:-/nonexistent}/crib" /run/crib 2>/dev/null | wc -l)
procs_before=$(crib_procs | wc -l)
run_crib plan "$T/s.ini"
plan=$out
assert_eq "$rc" 0 "crib plan SPEC exits 0" || echo "$err" | sed 's/^/#   /'
assert_contains "$plan" "crib plan $T/s.ini: what crib run would do (nothing was made)" "it says nothing was made"
assert_contains "$plan" "namespaces: new: user mount pid ipc uts net cgroup" "the namespaces, in crib's order"
assert_contains "$plan" " proc     /proc " "every mount: /proc"
assert_contains "$plan" "masked:    /proc/kcore" "the masked paths"
assert_contains "$plan" "  mount              fails with EPERM" "seccomp: mount fails with EPERM (run on the program)"
assert_contains "$plan" "no_new_privs: yes" "no_new_privs"
assert_eq "$(cat /etc/subuid /etc/subgid 2>/dev/null | md5sum)" "$sub_before" "/etc/subuid and /etc/subgid are unchanged"
assert_eq "$(host_mounts | wc -l)" "$mounts_before" "the host's mount table is unchanged"
assert_eq "$(find "${XDG_RUNTIME_DIR:-/nonexistent}/crib" /run/crib 2>/dev/null | wc -l)" "$state_before" "no state was written"
assert_eq "$(crib_procs | wc -l)" "$procs_before" "no crib process is left"

# the plan against the container: the id map, the seccomp mode, the effective set
run_crib run "$T/s.ini"
if [ "$rc" = 0 ]; then
	set -- $(echo "$out" | head -n 1)
	inside=$1 outside=$2 count=$3
	assert_contains "$plan" "  uid: $inside-$((inside + count - 1)) -> host $outside-$((outside + count - 1))" "the plan's uid map is the one the container gets ($inside $outside $count)"
	assert_eq "$(echo "$out" | sed -n 's/^Seccomp:[[:space:]]*//p')" 2 "the container has the filter the plan counts"
	capeff=$(echo "$out" | sed -n 's/^CapEff:[[:space:]]*//p')
	ncaps=$(echo "$plan" | sed -n 's/^  effective  *//p' | wc -w)
	bits=0
	v=$((0x$capeff))
	while [ "$v" -gt 0 ]; do bits=$((bits + (v & 1))); v=$((v >> 1)); done
	assert_eq "$bits" "$ncaps" "the plan's effective set has as many capabilities as CapEff ($capeff)"
else
	skips 3 "the container does not run here: $(echo "$err" | head -n 1)"
fi

# a level without a filter, and the limits
spec "$T/u.ini" <<EOF2
[security]
level = unconfined
[resources]
pids = 64
resources_mode = prefer
EOF2
run_crib plan "$T/u.ini"
assert_contains "$out" "seccomp: no filter" "level = unconfined: no filter, said"

# bad input: 125, the line named
spec "$T/bad.ini" <<EOF2
[security]
levle = strict
EOF2
run_crib plan "$T/bad.ini"
assert_eq "$rc:$(echo "$err" | grep -c "bad.ini:4:")" "125:1" "a typo: 125 with FILE:LINE"
run_crib plan
assert_eq "$rc:$(echo "$err" | grep -c "'crib plan' needs an image or a spec file")" "125:1" "no SPEC: the usage, 125"
run_crib plan --trace "$T/s.ini"
assert_eq "$rc:$(echo "$err" | grep -c "crib plan prints the plan and runs nothing")" "125:1" "crib run's --trace: refused, 125"
run_crib plan "$T/none.ini"
assert_eq "$rc" 125 "a missing spec: 125"

# --- a store image (crib plan IMAGE, crib plan [FLAGS] IMAGE CMD, a spec with image = REF): the
# image, its layers and the rootfs crib run would make of them (an overlay, or a copy where it
# cannot be one, and why), made nowhere: the store and the state root listed with their mtimes
# and ctimes before and after, to the nanosecond. The store is laid out by hand as docs/store.md
# says (tests/lib/handstore.sh).
HS_SELF="$(dirname "$0")/../lib/handstore.sh"
. "$HS_SELF"
S="$T/state"
STORE="$T/store"
IMG=test.local/img:1
export CRIB_STORE="$STORE"
trap 'hs_cleanup "$S" "$STORE"' EXIT
P() { run_crib --root "$S" plan "$@"; }
listing() { find "$STORE" "$S" -exec stat -c '%n %.9Y %.9Z %i %a %u:%g' {} + 2>/dev/null | sort; }
if ! command -v setfattr >/dev/null 2>&1; then
	skips 25 "no setfattr (package attr) to lay out the image store"
elif ! make_store "$STORE" "$ROOTFS"; then
	skips 25 "cannot lay out an image store here (as a user: unshare --map-auto and /etc/subuid)"
else
	before=$(listing)
	P "$IMG"
	assert_eq "$rc" 0 "crib plan IMAGE exits 0" || echo "$err" | sed 's/^/#   /'
	plan=$out
	assert_contains "$plan" "crib plan $IMG: what crib run would do (nothing was made)" "it names the image and says nothing was made"
	assert_contains "$plan" "image: $IMG, sha256:$HS_ID, in the store $STORE" "the image's name, digest and store"
	assert_eq "$(echo "$plan" | sed -n '/^  2 layers, lowest first:$/,/^  its/p' | grep -c "^    sha256:")" 2 "how many layers, each listed"
	assert_eq "$(echo "$plan" | grep -A2 'layers, lowest first' | tail -n 2 | tr -d ' ' | tr '\n' ' ')" "sha256:$HS_A sha256:$HS_B " "the layers' digests, lowest first"
	assert_contains "$plan" "process: /bin/sh -c echo image-default" "the image's command"
	assert_contains "$plan" "  env FROM_IMAGE=yes" "the image's environment, each variable"
	assert_contains "$plan" "its container's directory: $STORE/containers/<id>" "the container's directory crib run would make"
	# the same command line as crib run's: its flags, and the program after IMAGE
	P -e PLANNED=1 -u 33 -w /tmp --rm "$IMG" ls /etc
	assert_eq "$rc" 0 "crib plan FLAGS IMAGE CMD exits 0" || echo "$err" | sed 's/^/#   /'
	assert_contains "$out" "process: ls /etc" "CMD after IMAGE is the process"
	assert_contains "$out" "  as uid 33 gid 33 " "-u 33: the user"
	assert_contains "$out" ", in /tmp, " "-w /tmp: the working directory"
	assert_contains "$out" "  env PLANNED=1" "-e: the environment, over the image's"
	# a spec naming the image
	cat >"$T/img.ini" <<EOF2
[container]
image = $IMG
[process]
args = /bin/echo from-spec
EOF2
	P "$T/img.ini"
	assert_eq "$rc:$(echo "$out" | grep -c "^image: $IMG, sha256:$HS_ID")" "0:1" "a spec with image = REF: planned, the image named" || echo "$err" | sed 's/^/#   /'
	assert_contains "$out" "process: /bin/echo from-spec" "and the spec's own process"
	# not in the store: an error naming crib pull
	P test.local/absent:1
	assert_eq "$rc:$(echo "$err" | grep -c 'crib pull test.local/absent:1')" "125:1" "an image not in the store: 125, and crib pull named"
	P -e X=1 "$T/s.ini"
	assert_eq "$rc:$(echo "$err" | grep -c "'-e' is for 'crib plan IMAGE'")" "125:1" "an image's flag with a spec: 125"
	after=$(listing)
	assert_eq "$after" "$before" "nothing in the store or the state root was made or changed (mtimes and ctimes)" ||
		diff "$(printf '%s\n' "$before" >"$T/b"; echo "$T/b")" "$(printf '%s\n' "$after" >"$T/a"; echo "$T/a")" | sed 's/^/#   /'
	assert_eq "$(ls -d "$STORE/containers" "$STORE/tmp" "$STORE/store.lock" "$S" 2>/dev/null | wc -l)" 0 "no containers/, tmp/, store.lock or state root"

	# the plan against crib run's container: an overlay where the plan says so (the root's
	# filesystem type, from inside), else the copy it said, and the id map it said
	mode=$(echo "$plan" | sed -n 's/^  rootfs: an overlay.*/overlay/p; s/^  rootfs: a copy of the layers.*/copy/p')
	run_crib --root "$S" run --rm "$IMG" sh -c 'head -n 1 /proc/self/uid_map; cat /proc/self/mountinfo'
	if [ "$rc" = 0 ]; then
		fstype=$(echo "$out" | sed 1d | awk '$5 == "/" {for (i = 7; i <= NF; i++) if ($i == "-") t = $(i + 1)} END {print t}')
		copied=$(echo "$err" | grep -c "gets a copy of the image's layers")
		case "$mode:$fstype:$copied" in
		overlay:overlay:0 | copy:*:1) ok 0 "the plan's rootfs ($mode) is the one crib run makes (/ is $fstype)" ;;
		*) ok 1 "the plan's rootfs ($mode) is the one crib run makes (/ is $fstype, copy said $copied)" ;;
		esac
		set -- $(echo "$out" | head -n 1)
		assert_contains "$plan" "  uid: $1-$(($1 + $3 - 1)) -> host $2-$(($2 + $3 - 1))" "the plan's uid map is the one the image's container gets ($1 $2 $3)"
	else
		skips 2 "a container of the image does not run here: $(echo "$err" | head -n 1)"
	fi
	assert_eq "$(ls "$STORE/containers" 2>/dev/null | wc -l)" 0 "crib run --rm removed its directory"

	# a 0700 store in a directory other users reach, as root's /var/lib/crib in /var/lib (0755)
	# and a user's ~/.local/share/crib are: crib run runs the image, so crib plan plans it (the
	# attacker's review: the plan walked up from the store's parent, passing over the store's own
	# 0700, and refused the image as a rootfs other users can reach)
	# (moved for it to a directory of /tmp, 0755: the test's own are in run-all's 0700 one)
	open=$(mktemp -d /tmp/crib-open.XXXXXX)
	chmod 755 "$open"
	if mv "$STORE" "$open/store"; then
		CRIB_STORE="$open/store" P "$IMG"
		prc=$rc perr=$(echo "$err" | head -n 1)
		CRIB_STORE="$open/store" run_crib --root "$S" run --rm "$IMG" true
		mv "$open/store" "$STORE"
		assert_eq "$prc|$rc" "0|0" "a 0700 store in a directory others reach ($open, 0755): crib plan plans the image crib run runs ($perr $(echo "$err" | head -n 1))"
	else
		skip "cannot move the store to $open"
	fi
	rmdir "$open"

	# a copy where overlayfs cannot be used (forced: the test build's CRIB_TEST_IMAGE_COPY): said,
	# with the reason the run path gives
	if has_hooks; then
		before=$(listing)
		out=$(CRIB_TEST_IMAGE_COPY=1 "$CRIB_HOOKS" --root "$S" plan "$IMG" 2>"$T/h.err")
		assert_contains "$out" "  rootfs: a copy of the layers, 4.0 MB written, because CRIB_TEST_IMAGE_COPY is set" "a copy: said, with why" || sed 's/^/#   /' "$T/h.err"
		assert_contains "$out" "rootfs: $STORE/containers/<id>/rootfs" "the copy's rootfs"
		assert_eq "$(listing)" "$before" "and nothing made for it"
	else
		skips 3 "$HOOKS_SKIP"
	fi
fi

done_testing
