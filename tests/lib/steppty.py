#!/usr/bin/env python3
"""steppty.py CRIB SPEC [QUIT_AT] - run `crib run --step SPEC` on a pseudo-terminal, as a
student would at a terminal: at each pause read what the host shows of the named process
(/proc/PID/status: Uid, CapEff, Seccomp), then press Enter; at the step whose name contains
QUIT_AT answer q instead. Prints one line a pause, "STEP<TAB>PID<TAB>UID<TAB>CAPEFF<TAB>SECCOMP",
then "OUTPUT<TAB>" and the run's last output lines, then "EXIT<TAB>STATUS". Bounded: 60 s in all.
"""
import os
import pty
import re
import select
import sys
import time

crib, spec = sys.argv[1], sys.argv[2]
quit_at = sys.argv[3] if len(sys.argv) > 3 else None
pid, fd = pty.fork()
if pid == 0:
    os.execv(crib, [crib, "run", "--step", spec])
buf = b""
deadline = time.time() + 60
PAUSE = re.compile(rb"crib: step ([^\r\n]*)\r?\ncrib:   in pid (\d+) on the host[^\n]*\n"
                   rb"[^\n]*\n[^\n]*stop the container ")


def more():
    """Read what there is; False at the end of the output or of the time."""
    global buf
    if time.time() > deadline:
        return False
    ready, _, _ = select.select([fd], [], [], 0.5)
    if not ready:
        return True
    try:
        data = os.read(fd, 4096)
    except OSError:
        return False
    buf += data
    return bool(data)


def field(status, name):
    m = re.search(name + r":\s*(\S+)", status)
    return m.group(1) if m else "-"


while True:
    m = PAUSE.search(buf)
    if not m:
        if not more():
            break
        continue
    step, host_pid = m.group(1).decode(), int(m.group(2))
    try:
        with open("/proc/%d/status" % host_pid) as f:
            st = f.read()
    except OSError:
        st = ""
    print("\t".join([step, str(host_pid), field(st, "Uid"), field(st, "CapEff"),
                     field(st, "Seccomp")]))
    buf = buf[m.end():]
    os.write(fd, b"q\n" if quit_at and quit_at in step else b"\n")
while more():
    pass
for line in buf.decode(errors="replace").splitlines()[-6:]:
    print("OUTPUT\t" + line.rstrip("\r"))
if time.time() > deadline:
    os.kill(pid, 9)
_, status = os.waitpid(pid, 0)
print("EXIT\t%d" % os.waitstatus_to_exitcode(status))
