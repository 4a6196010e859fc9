#!/usr/bin/env python3
"""oci-config.py DOCKER_JSON CONFIG - give an OCI config.json (from `crun spec --rootless`) the
workload /bin/true, the namespaces crib's default level uses, and Docker's default seccomp
profile resolved for Docker's default capabilities on this machine, as Docker hands it to the
runtime. For `make bench` only."""
import json
import platform
import sys

GOARCH = {"x86_64": "amd64", "aarch64": "arm64", "armv7l": "arm", "armv6l": "arm"}
ARCHES = {"amd64": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
          "arm64": ["SCMP_ARCH_AARCH64", "SCMP_ARCH_ARM"], "arm": ["SCMP_ARCH_ARM"]}
CAPS = {"CAP_" + c for c in "CHOWN DAC_OVERRIDE FSETID FOWNER MKNOD NET_RAW SETGID SETUID "
        "SETFCAP SETPCAP NET_BIND_SERVICE SYS_CHROOT KILL AUDIT_WRITE".split()}

docker, path = sys.argv[1:3]
arch = GOARCH.get(platform.machine(), platform.machine())
prof = json.load(open(docker))
rules = []
for r in prof["syscalls"]:
    inc, exc = r.get("includes") or {}, r.get("excludes") or {}
    if inc.get("caps") and not all(c in CAPS for c in inc["caps"]):
        continue
    if exc.get("caps") and any(c in CAPS for c in exc["caps"]):
        continue
    if inc.get("arches") and arch not in inc["arches"]:
        continue
    if exc.get("arches") and arch in exc["arches"]:
        continue
    rule = {"names": r["names"], "action": r["action"]}
    for k in ("args", "errnoRet"):
        if r.get(k):
            rule[k] = r[k]
    rules.append(rule)
c = json.load(open(path))
c["process"]["args"] = ["/bin/true"]
c["process"]["terminal"] = False
c["linux"]["namespaces"] = [{"type": t} for t in
                            ("pid", "network", "ipc", "uts", "mount", "cgroup", "user")]
c["linux"]["seccomp"] = {"defaultAction": prof["defaultAction"],
                         "defaultErrnoRet": prof.get("defaultErrnoRet", 1),
                         "architectures": ARCHES.get(arch, []), "syscalls": rules}
json.dump(c, open(path, "w"), indent=1)
