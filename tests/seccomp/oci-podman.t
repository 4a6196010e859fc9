#!/bin/sh
# podman's seccomp profile, as podman writes it into a container's config.json, made into
# crib's profile by the OCI front end (runtime/oci/) and compiled by crib, answers every
# system call as the config's own rules say (docker-rules.py reads the OCI form too: it is
# Docker's without includes and excludes, which podman has resolved): what crun, which hands
# the same rules to libseccomp, would load. The config comes from `podman init` with crib as the
# runtime, on an image of the test rootfs. A profile with one rule taken out must differ, so the
# check can fail. And the program crib compiled at build time for podman's profile: taken for
# podman's config, right by the same rules, and not taken when the rules differ. As root
# (podman's own storage in a scratch directory).
: "${EQUIV:?set by tests/run-all}" "${CRIB:?}" "${ROOTFS:?}" "${OCI_PROFILE:?}"
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP as root only (podman's root mode, its storage in a scratch directory)"
	exit 0
fi
if ! command -v podman >/dev/null 2>&1; then
	echo "1..0 # SKIP podman is not installed (rootfs-tools/install-deps check installs it)"
	exit 0
fi
P=$(mktemp -d /tmp/crib-oci-seccomp.XXXXXX)
trap 'pod rm -a -f >/dev/null 2>&1; pod rmi -a -f >/dev/null 2>&1; rm -rf "$P"' EXIT
ln -s "$CRIB" "$P/crib-runc"
pod() {
	timeout -k 10 60 podman --root "$P/s" --runroot "$P/r" --runtime "$P/crib-runc" \
		--cgroup-manager cgroupfs --events-backend none "$@"
}
tar -C "$ROOTFS" -cf "$P/rootfs.tar" . 2>/dev/null
pod import "$P/rootfs.tar" localhost/crib-seccomp:1 >/dev/null 2>&1
id=$(pod create --network none --pids-limit 0 --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
	localhost/crib-seccomp:1 /bin/true 2>"$P/err")
pod init "$id" >/dev/null 2>>"$P/err"
cfg="$P/s/overlay-containers/$id/userdata/config.json"
n=0
if [ ! -s "$cfg" ]; then
	echo "not ok 1 - podman init with crib as the runtime wrote a config.json"
	sed 's/^/#   /' "$P/err"
	echo "1..1"
	exit 1
fi
echo "ok 1 - podman init with crib as the runtime wrote a config.json"
"$OCI_PROFILE" "$cfg" >"$P/crib.profile"
rc=$?
[ $rc = 0 ] && echo "ok 2 - crib's OCI front end made a profile of its linux.seccomp" ||
	echo "not ok 2 - crib's OCI front end made a profile of its linux.seccomp (exit $rc)"
python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))["linux"]["seccomp"], open(sys.argv[2], "w"))' \
	"$cfg" "$P/podman-seccomp.json"
arch=$(uname -m)
case "$arch" in arm*) arch=arm ;; esac
n=2
failed=0
# every architecture the config lists, on this machine's kernel version
kv=$(uname -r | cut -d- -f1)
out=$(python3 "$(dirname "$0")/docker-rules.py" "$P/podman-seccomp.json" "$arch" "" "$kv" |
	"$EQUIV" "$P/crib.profile" "$arch" 0 "${kv%%.*}" "$(echo "$kv" | cut -d. -f2)")
[ $? = 0 ] || failed=1
while IFS= read -r l; do
	case "$l" in
	ok*|"not ok"*) n=$((n + 1)); echo "$l" | sed "s/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 $n - podman's profile under crib: /" ;;
	"1.."*) ;;
	*) echo "$l" ;;
	esac
done <<EOT
$out
EOT
# the control: one errno rule's first name taken out of crib's side must show
first=$(awk '/^\[errno/ {getline; print; exit}' "$P/crib.profile")
grep -vx "$first" "$P/crib.profile" >"$P/broken.profile"
python3 "$(dirname "$0")/docker-rules.py" "$P/podman-seccomp.json" "$arch" "" "$kv" |
	"$EQUIV" "$P/broken.profile" "$arch" 0 "${kv%%.*}" "$(echo "$kv" | cut -d. -f2)" >"$P/broken.out"
n=$((n + 1))
if grep -q '^not ok' "$P/broken.out"; then
	echo "ok $n - the same profile without '$first' differs (the check can fail)"
else
	echo "not ok $n - the same profile without '$first' differs (the check can fail)"
	failed=1
fi

# podman's profile as this machine's podman has it (containers-common's seccomp.json) is compiled
# into crib when the build host has the file (tools/seccomp-json2crib, the Makefile): the config
# podman wrote gets that program, found by its canonical form, and it answers as podman's rules
# say. A container with one capability added (the profile's rules then differ) is compiled.
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then printf "ok %s - %s\n" $n "$2"; else printf "not ok %s - %s\n" $n "$2"; failed=1; fi; return "$1"; }
plan_of() { cat "/run/crib/$1/plan" "$P/r/"*"/$1/plan" 2>/dev/null; }
if ! "$CRIB" seccomp builtin | grep -q '^known podman'; then
	if [ -f /usr/share/containers/seccomp.json ]; then
		ok 1 "crib carries podman's profile compiled at build time, as this machine has /usr/share/containers/seccomp.json" # (1: fails)
	else
		echo "# this podman has no /usr/share/containers/seccomp.json, so crib carries no program for its profile"
	fi
else
	out=$(python3 "$(dirname "$0")/docker-rules.py" "$P/podman-seccomp.json" "$arch" "" "$kv" |
		"$EQUIV" "$P/crib.profile" "$arch" 0 "${kv%%.*}" "$(echo "$kv" | cut -d. -f2)" known)
	ok $? "the program crib compiled at build time for podman's profile answers as the config's rules"
	echo "$out" | grep '^not ok\|^#' | sed 's/^/#   /'
	plan_of "$id" | grep -a -q "known profile compiled at build time (/usr/share/containers/seccomp.json"
	ok $? "the container podman created got that program (crib's plan: 'known profile compiled at build time')" ||
		plan_of "$id" | grep -a -o 'seccomp[^;]*;' | head -3 | sed 's/^/#   /'
	out=$(pod run --rm --network none --pids-limit 0 --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
		localhost/crib-seccomp:1 sh -c 'grep "^Seccomp:" /proc/self/status; probe syscall kcmp' 2>&1)
	case "$out" in *"Seccomp:"*2*EPERM*) r=0 ;; *) r=1 ;; esac
	ok $r "podman run with crib: the workload is under a filter, and kcmp fails with EPERM (no SYS_PTRACE)" ||
		echo "$out" | sed 's/^/#   /'
	id2=$(pod create --cap-add SYS_PTRACE --network none --pids-limit 0 --ulimit nofile=1024:1024 \
		--ulimit nproc=1024:1024 localhost/crib-seccomp:1 sh -c 'probe syscall kcmp' 2>>"$P/err")
	pod init "$id2" >/dev/null 2>>"$P/err"
	plan_of "$id2" | grep -a -q "compiled at run time"
	ok $? "with --cap-add SYS_PTRACE the rules differ: compiled at create, not matched" ||
		plan_of "$id2" | grep -a -o 'seccomp[^;]*;' | head -3 | sed 's/^/#   /'
	out=$(pod start -a "$id2" 2>&1)
	case "$out" in ESRCH | ok) r=0 ;; *) r=1 ;; esac
	ok $r "and that container's kcmp is let through (answer: $(echo "$out" | tr '\n' ' '))"
fi
echo "1..$n"
[ $failed = 0 ]
