#!/bin/sh
# 200 containers in a row leave no process, mount or fd behind; the workload gets fds 0-2 only.
. "$(dirname "$0")/../lib/libtest.sh"

# MANY_RUNS: the containers in a row, 200 unless set (the VM guests run 50: a start takes a
# quarter of a second under QEMU's emulation, and growth in crib itself is 14-load's to find)
N=${MANY_RUNS:-200}

spec "$T/t.ini" <<'EOF2'
[process]
args = /bin/true
EOF2
before_mounts=$(host_mounts)
fails=0
i=0
while [ $i -lt "$N" ]; do
	"$CRIB" run "$T/t.ini" </dev/null >/dev/null 2>>"$T/err" || fails=$((fails + 1))
	i=$((i + 1))
done
assert_eq "$fails" 0 "$N containers in a row exit 0"
assert_eq "$(strip_aa <"$T/err")" "" "with nothing on stderr (but the AppArmor warning where AppArmor is absent)"
assert_eq "$(crib_procs)" "" "no process of crib or its containers is left"
assert_eq "$(host_mounts)" "$before_mounts" "no mount is left"

# while a container runs, crib holds its stdio, the sync socket and the signalfd, nothing more
spec "$T/w.ini" <<EOF2
[process]
args = /usr/local/bin/probe wait-signal /tmp/ready
[mounts]
bind = $T /tmp
EOF2
"$CRIB" run "$T/w.ini" </dev/null >/dev/null 2>&1 &
crib=$!
sleep 60 </dev/null >/dev/null 2>&1 &
sibling=$!
wait_for "$T/ready"
fdlist() { for f in /proc/$1/fd/*; do echo "${f##*/} $(readlink "$f" | sed 's/:\[[0-9]*\]//')"; done | sort; }
fdlist $sibling >"$T/inherited"
fds=$(fdlist $crib | grep -vxF -f "$T/inherited" | cut -d' ' -f2- | tr '\n' ' ')
kill $sibling
kill -TERM $crib
wait $crib
assert_eq "$fds" "anon_inode:[signalfd] " "beyond what it inherited, a running crib holds only its signalfd (the sync socket closed at exec)"

# only 0, 1, 2 reach the workload: none of crib's (the sync socket, the signalfd), none of the
# caller's others unless pass_fds names them
exec 7>"$T/extra"
run_crib run "$T/t.ini" -- /usr/local/bin/probe fds
assert_eq "$out" "0 1 2" "the workload has fds 0, 1 and 2 only"
spec "$T/pass.ini" <<'EOF2'
[process]
args = /usr/local/bin/probe fds
pass_fds = 7
EOF2
run_crib run "$T/pass.ini"
assert_eq "$out" "0 1 2 7" "and the ones pass_fds names"
exec 7>&-
run_crib run "$T/pass.ini"
assert_eq "$rc:$err" "125:crib: $T/pass.ini:5: pass_fds: fd 7 is not open" "pass_fds of a closed fd: 125"
done_testing
