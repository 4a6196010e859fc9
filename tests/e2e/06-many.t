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

# crib's own fds (the sync socket, the signalfd) do not reach the workload
# (closing the caller's extra fds is the hardening issue's; here: crib adds none of its own)
exec 7>"$T/extra"
run_crib run "$T/t.ini" -- /usr/local/bin/probe fds
inherited=$("$ROOTFS/usr/local/bin/probe" fds </dev/null 2>/dev/null)
exec 7>&-
assert_eq "$out" "$inherited" "the workload gets the caller's fds and none of crib's"
assert_contains " $out " " 7 " "(the fd the test opened is among them)"
done_testing
