#!/bin/sh
# crib exec -t opens the container's /dev/ptmx (issue 31's attacker review): a path the
# container controls, resolved by the joiner while it still holds every capability it had on
# the host (with user = no: host root's) and before any of them is dropped. With pid = no the
# container's /proc is the host's, so the workload can point /dev/ptmx at /proc/PID/root/...,
# where PID is any host process: a magic link the workload itself may not follow (it has
# neither the capabilities of that process nor CAP_SYS_PTRACE), but the joiner may. The host
# path is then opened O_RDWR by host root, whatever it is (a FIFO, a device such as
# /dev/watchdog, a file on a FUSE mount), and only afterwards found not to be a pty master.
#
# The truth, read on the host: a FIFO of the host that only root may open, with a reader
# blocked in open(2) until a writer comes. If crib exec -t opened it through the container's
# /dev/ptmx, the reader's open returns and it exits; it must still be waiting.
. "$(dirname "$0")/../lib/libtest.sh"
requires root

S="$T/state"
C() { "$CRIB" --root "$S" "$@"; }
P=$(mktemp -d /tmp/crib-ptmx.XXXXXX)
chmod 700 "$P"
mkfifo -m 600 "$P/fifo"
# a host process whose /proc/PID/root the link goes through: the test's own, host root's
sleep 600 &
HP=$!
# (the reader's cat, blocked in open(2) when all went well, is let go by a writer of ours: a
# FIFO opened for reading and writing does not block; it ends when this test does)
trap 'kill $HP $RP 2>/dev/null; [ -p "$P/fifo" ] && exec 9<>"$P/fifo"; rm -rf "$T" "$P"' EXIT

spec "$T/hp.ini" <<EOF
[process]
terminal = no
args = /bin/sleep 1000
[namespaces]
user = no
pid = no
EOF
if ! C run -d --name ptmx-$$ "$T/hp.ini" >/dev/null 2>"$T/run.err"; then
	skips 3 "crib run -d (user = no, pid = no) failed: $(head -n 1 "$T/run.err")"
	done_testing
	exit
fi

# the reader, blocked in open(2) until a writer opens the FIFO
(cat "$P/fifo" >/dev/null 2>&1; echo opened >"$P/reader") &
RP=$!

run_crib --root "$S" exec ptmx-$$ -- /bin/sh -c \
	"rm -f /dev/ptmx && ln -s /proc/$HP/root$P/fifo /dev/ptmx && exec 3<>/dev/ptmx && echo OPENED"
assert_eq "$out" "" "the workload itself cannot open the host's FIFO through /proc/$HP/root (no CAP_SYS_PTRACE)"

run_crib --root "$S" exec -t ptmx-$$ -- /bin/true
sleep 0.5
assert_eq "$([ -e "$P/reader" ] && echo opened || echo waiting)" waiting \
	"crib exec -t does not open a host path the container's /dev/ptmx leads to through /proc/PID/root"
assert_not_contains "$err" "is not a devpts pty master" \
	"the link is refused before anything is opened, not after"

C rm -f ptmx-$$ >/dev/null 2>&1
done_testing
