#!/usr/bin/env python3
"""seccomp-oci.py PROFILE ARCH CAPS [DROP...] - crib's seccomp profile (profiles/seccomp/ format)
resolved for bounding set CAPS (comma-separated names without CAP_) on native architecture ARCH
(a libseccomp name) and a kernel that reaches every threshold, written as the .linux.seccomp
object of an OCI config.json: what an engine (Docker, podman) hands a runtime for a profile with
includes and excludes. DROP: system call names left out of every rule. For the e2e tests."""
import errno
import json
import sys

OPS = {"==": "SCMP_CMP_EQ", "!=": "SCMP_CMP_NE", "<": "SCMP_CMP_LT", "<=": "SCMP_CMP_LE",
       ">": "SCMP_CMP_GT", ">=": "SCMP_CMP_GE"}
ACTS = {"allow": "SCMP_ACT_ALLOW", "kill": "SCMP_ACT_KILL_PROCESS",
        "kill-thread": "SCMP_ACT_KILL_THREAD", "trap": "SCMP_ACT_TRAP", "log": "SCMP_ACT_LOG"}

path, arch, caps = sys.argv[1], sys.argv[2], set(c for c in sys.argv[3].split(",") if c)
drop = set(sys.argv[4:])


def action(w):
    """the action at the start of w: (OCI action, errno or None, words taken)"""
    if w[0] == "errno":
        return "SCMP_ACT_ERRNO", getattr(errno, w[1]), 2
    return ACTS[w[0]], None, 1


out = {"syscalls": []}
rule = None
for line in open(path):
    line = line.split("#")[0].strip()
    if not line:
        continue
    if line.startswith("default "):
        act, e, _ = action(line.split()[1:])
        out["defaultAction"] = act
        if e is not None:
            out["defaultErrnoRet"] = e
        continue
    if not line.startswith("["):
        if rule is not None:
            rule["names"] += [n for n in line.split() if n not in drop]
        continue
    w = line[1:-1].split()
    act, e, i = action(w)
    rule, applies = {"names": [], "action": act}, True
    if e is not None:
        rule["errnoRet"] = e
    while i < len(w):
        if w[i] == "if":
            arg = int(w[i + 1][3:])
            if w[i + 2] == "&":
                rule.setdefault("args", []).append({"index": arg, "value": int(w[i + 3], 0),
                                                    "valueTwo": int(w[i + 5], 0),
                                                    "op": "SCMP_CMP_MASKED_EQ"})
                i += 6
            else:
                rule.setdefault("args", []).append({"index": arg, "value": int(w[i + 3], 0),
                                                    "op": OPS[w[i + 2]]})
                i += 4
            continue
        neg = w[i + 1] == "not"
        what = w[i + 1 + neg]
        j = i + 2 + neg
        vals = []
        while j < len(w) and w[j] not in ("if", "when"):
            vals.append(w[j])
            j += 1
        if what == "cap":
            applies &= (not any(v in caps for v in vals)) if neg else all(v in caps for v in vals)
        elif what == "arch":
            applies &= (arch not in vals) if neg else (arch in vals)
        i = j  # "when kernel >= X.Y": reached
    if applies:
        out["syscalls"].append(rule)
out["syscalls"] = [r for r in out["syscalls"] if r["names"]]
json.dump(out, sys.stdout)
