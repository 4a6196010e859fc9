#!/bin/sh
# 200 containers in a row leave no process, mount or fd behind; the workload gets fds 0-2 only.
. "$(dirname "$0")/../lib/libtest.sh"

spec "$T/t.ini" <<'EOF2'
[process]
args = /bin/true
EOF2
before_mounts=$(host_mounts)
before_fds=$(ls /proc/$$/fd | wc -l)
fails=0
i=0
while [ $i -lt 200 ]; do
	"$CRIB" run "$T/t.ini" </dev/null >/dev/null 2>>"$T/err" || fails=$((fails + 1))
	i=$((i + 1))
done
assert_eq "$fails" 0 "200 containers in a row exit 0"
assert_eq "$(cat "$T/err")" "" "with nothing on stderr"
assert_eq "$(crib_procs)" "" "no process of crib or its containers is left"
assert_eq "$(host_mounts)" "$before_mounts" "no mount is left"
assert_eq "$(ls /proc/$$/fd | wc -l)" "$before_fds" "no fd is left with the caller"

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
