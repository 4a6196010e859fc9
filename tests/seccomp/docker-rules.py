#!/usr/bin/env python3
"""docker-rules.py JSON ARCH CAPS KERNEL - Docker's seccomp semantics, written down plainly.

Reads Docker's default profile (moby/profiles seccomp/default.json) and prints, for a container
on native architecture ARCH (a libseccomp name) with bounding set CAPS (comma-separated names)
on kernel KERNEL (X.Y), the rules Docker would install, as lines the checker reads:

    default ERRNO
    name NAME                      every name the profile mentions, under any condition
    rule allow|ERRNO NAME [ARG:OP:VALUE:VALUETWO ...]

Docker's rules (moby profiles/seccomp/seccomp_linux.go): includes.caps all in the bounding
set, excludes.caps none of them; includes.arches / excludes.arches against the native
architecture; includes.minKernel at most the running kernel. This is the reference the test
holds crib's own profile and compiler to; it shares no code with crib.
"""
import json
import sys

GOARCH = {"x86_64": "amd64", "aarch64": "arm64", "arm": "arm", "x86": "386", "x32": "x32",
          "ppc64le": "ppc64le", "s390x": "s390x", "s390": "s390", "riscv64": "riscv64"}


def main():
    path, arch, caps, kernel = sys.argv[1:5]
    prof = json.load(open(path))
    caps = {c if c.startswith("CAP_") else "CAP_" + c for c in caps.split(",") if c}
    kver = tuple(int(x) for x in kernel.split(".")[:2])
    goarch = GOARCH[arch]
    print("default", prof.get("defaultErrnoRet", 1))
    names = set()
    for r in prof["syscalls"]:
        names.update(r["names"])
    for n in sorted(names):
        print("name", n)
    for r in prof["syscalls"]:
        inc = r.get("includes") or {}
        exc = r.get("excludes") or {}
        if inc.get("caps") and not all(c in caps for c in inc["caps"]):
            continue
        if exc.get("caps") and any(c in caps for c in exc["caps"]):
            continue
        if inc.get("arches") and goarch not in inc["arches"]:
            continue
        if exc.get("arches") and goarch in exc["arches"]:
            continue
        if inc.get("minKernel"):
            if tuple(int(x) for x in inc["minKernel"].split(".")[:2]) > kver:
                continue
        if r["action"] == "SCMP_ACT_ALLOW":
            action = "allow"
        elif r["action"] == "SCMP_ACT_ERRNO":
            action = str(r.get("errnoRet", prof.get("defaultErrnoRet", 1)))
        else:
            raise SystemExit("unexpected action " + r["action"])
        args = ["%d:%s:%d:%d" % (a["index"], a["op"].replace("SCMP_CMP_", ""), a["value"],
                                 a.get("valueTwo", 0)) for a in r.get("args") or []]
        for n in r["names"]:
            print("rule", action, n, *args)


main()
