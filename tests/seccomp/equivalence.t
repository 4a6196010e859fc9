#!/bin/sh
# crib's default seccomp profile, compiled by crib, answers every system call of every
# architecture as Docker's default profile does (../shared/reference), for the capability sets
# that switch rules and two kernel versions. crib's one intended difference (ENOSYS above the
# highest named number) is part of the expectation. TAP: one line per (arch, caps, kernel, sub-arch).
# On the build's own architecture the programs checked are the ones compiled into crib at build
# time (and must be there) for every key crib embeds; the other keys and arches are compiled.
# And the known engine profile's program (the profile as Docker resolves it for its default
# capabilities, which an OCI config carrying it gets) answers as Docker's rules do.
: "${EQUIV:?set by tests/run-all}" "${DOCKER_JSON:?}" "${PROFILES:?}"
n=0
failed=0
if [ ! -r "$DOCKER_JSON" ]; then
	echo "1..0 # SKIP Docker's profile is not at $DOCKER_JSON (../shared/reference)"
	exit 0
fi
native=$(uname -m)
case "$native" in arm*) native=arm ;; esac
DOCKER="CHOWN,DAC_OVERRIDE,FSETID,FOWNER,MKNOD,NET_RAW,SETGID,SETUID,SETFCAP,SETPCAP,NET_BIND_SERVICE,SYS_CHROOT,KILL,AUDIT_WRITE"
mask() {
	python3 -c 'import sys
bits={"CHOWN":0,"DAC_OVERRIDE":1,"DAC_READ_SEARCH":2,"FOWNER":3,"FSETID":4,"KILL":5,"SETGID":6,"SETUID":7,"SETPCAP":8,"NET_BIND_SERVICE":10,"NET_RAW":13,"SYS_MODULE":16,"SYS_RAWIO":17,"SYS_CHROOT":18,"SYS_PTRACE":19,"SYS_PACCT":20,"SYS_ADMIN":21,"SYS_BOOT":22,"SYS_NICE":23,"SYS_TIME":25,"SYS_TTY_CONFIG":26,"MKNOD":27,"AUDIT_WRITE":29,"SETFCAP":31,"SYSLOG":34,"PERFMON":38,"BPF":39}
print("%x" % sum(1 << bits[c] for c in sys.argv[1].split(",") if c))' "$1"
}
for arch in x86_64 aarch64 arm; do
	for caps in "$DOCKER" "$DOCKER,SYS_ADMIN" "$DOCKER,SYS_PTRACE" \
		"$DOCKER,SYS_ADMIN,SYS_PTRACE,SYS_BOOT,SYS_MODULE,SYS_PACCT,SYS_RAWIO,SYS_TIME,SYS_TTY_CONFIG,SYS_NICE,SYSLOG,BPF,PERFMON,DAC_READ_SEARCH" ""; do
		for kernel in 6.1 4.4; do
			label="caps=$(echo "${caps:-none}" | sed "s/$DOCKER/docker/") kernel=$kernel"
			# embedded: the level's set, none, and one added capability
			builtin=
			case "$arch:$caps" in
			"$native:$DOCKER" | "$native:" | "$native:$DOCKER,SYS_ADMIN" | "$native:$DOCKER,SYS_PTRACE") builtin=default ;;
			esac
			out=$(python3 "$(dirname "$0")/docker-rules.py" "$DOCKER_JSON" $arch "$caps" $kernel |
				"$EQUIV" "$PROFILES/default" $arch "$(mask "$caps")" ${kernel%.*} ${kernel#*.} $builtin)
			rc=$?
			echo "$out" | grep -v '^1\.\.' | while IFS= read -r l; do
				case "$l" in
				ok*|"not ok"*) echo "$l" | sed "s/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 N - $label: /" ;;
				*) echo "$l" ;;
				esac
			done
			n=$((n + $(echo "$out" | grep -c '^\(not \)\{0,1\}ok')))
			[ $rc = 0 ] || failed=1
			# the known engine profile's program (what an OCI config carrying Docker's default
			# as Docker resolves it gets): the default level's set, on the build's arch
			if [ "$arch:$caps:$kernel" = "$native:$DOCKER:6.1" ]; then
				python3 "$(dirname "$0")/docker-rules.py" "$DOCKER_JSON" $arch "$caps" $kernel |
					"$EQUIV" "$PROFILES/default" $arch "$(mask "$caps")" 6 1 known | grep -v '^1\.\.' |
					sed "s/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 N - known engine profile, $label: /"
			fi
		done
	done
done | awk '/^(not )?ok N/ {c++; sub(/ N /, " " c " ")} {print} END {print "1.." c}'
