#!/usr/bin/env python3
"""hostile-registry.py - a registry (distribution API v2, read side) that lies, for the pull tests.

It serves, by repository name, one image each (any tag, unless the case says otherwise) whose
manifest, config and layer are well-formed except for the one thing the case is about. A pull
of each must fail with a clear error, write nothing outside the store, leave nothing half-made
(and, for the last, refuse before asking):

  good/image        a correct image (one layer holding /arch = "hostile-good"): the baseline
                    that shows the client can pull from this server at all
  bad/digest        the layer's bytes do not match its digest (same size, one byte changed)
  bad/manifest-digest  the manifest fetched by digest (as an index names it) is other bytes
                    than the digest: tag "latest" is an index whose one entry (this machine's
                    platform absent: "os":"linux" with every arch listed) points to it
  bad/big-manifest  a manifest of 100 MB (valid JSON: spaces inside), Content-Length given
  bad/big-manifest-chunked  the same without Content-Length (the body ends when the
                    connection closes)
  bad/huge-size     a layer whose descriptor says 1 PB (the blob itself is small): refuse
                    before downloading
  bad/redirect      asks for basic credentials (--user); its layer blob answers 302 to
                    https://localhost:SIDE/... (another host:port, --redirect-host), a second
                    listener that serves the right bytes and records whether the request came
                    with an Authorization header (GET /_hostile/side on the main port tells:
                    {"requests": N, "authorization": [HEADER VALUES]}). Credentials must not
                    follow a redirect to another host.
  bad/realm-http    every manifest answers 401 with a Bearer challenge whose realm is
                    http://127.0.0.1:REALM/token, a third listener (always plain http) that
                    records the Authorization it gets ("realm-authorization" in GET
                    /_hostile/side) and answers 401: a registry on https must not have the
                    user's password sent over http
  bad/realm-fake-loopback  the same with the realm http://127.0.0.1.crib-test.invalid:REALM/
                    token: a host name that starts like a loopback address is no loopback one
  bad/realm-other-host  the same with the realm https://localhost:SIDE/token (the side
                    listener, another host): with --tls-verify=false for the registry, the
                    realm's certificate is still checked before the password goes there
  bad/endless       the layer's descriptor says 1000 bytes; the server streams forever with no
                    Content-Length
  bad/long-length   the layer's descriptor says 1000 bytes; the response says Content-Length
                    1 TB and streams forever
  bad/paths         layers with hostile entries, by tag:
                      absolute   /crib-hostile-absolute (an absolute path)
                      dotdot     ../../../../crib-hostile-dotdot
                      symlink    escape -> /tmp (or ../../..), then escape/crib-hostile-symlink
                                 written through it
                      hardlink   a hard link to /etc/passwd, then data written to it
                      device     a character device (1,1) /dev-mem and a setuid-root file
                      all (or latest)  every one of them, in one layer
  bad/name          the manifest's annotations name org.opencontainers.image.ref.name
                    "../../../../tmp/crib-hostile-name", and tags/list answers
                    ["../../../x", "ok"]; any request whose path has a ".." segment (or its
                    %2e%2e spelling) is recorded (GET /_hostile/dotdot: {"requests": [PATHS]}):
                    a client must refuse such a name before sending it
  bad/config        the config blob's bytes do not match its digest
  bad/header-digest the right manifest with a Docker-Content-Digest header naming another
                    digest (a client computes the digest itself; nothing stored by the lie)
  bad/many-layers   20000 layers (one small blob, named 20000 times), the manifest under 4 MiB
  bad/nested        an index whose entry is an index, 64 deep (each for --platform's os/arch)
  bad/schema1       Docker's schema 1 manifest (application/vnd.docker.distribution.manifest.
                    v1+prettyjws), which a client of today refuses by its type
  bad/foreign-urls  a non-distributable layer whose descriptor's urls point at the side
                    listener (recorded as for bad/redirect); the registry answers 404 for the
                    blob: a client must not fetch from a descriptor's urls
  bad/slow          the layer sends half its bytes, then stalls (--stall seconds, default 3600:
                    until the client's timeout); a request with Range: bytes=N- is answered 206
                    with the rest, at once (a resumed pull finishes)
  bad/drop          the layer sends half its bytes and closes the connection; Range as above
  bad/poison        bad/drop's layer, its first half other bytes (each ^ 0x5A), then closed:
                    a partial file of wrong bytes left under the right digest
  good/ranged       bad/drop's layer whole and right, a Range request answered 206: a pull
                    after bad/poison's must not fail, nor blame this registry

Every request is appended to --log (one JSON line: method, path, authorization present,
range, status). http by default; https with --cert and --key (the test CA's certificate:
registry.sh). The images' configs name --platform (default: this machine's, as Go names it), so
a client gets as far as the case. It prints its port on stdout when ready, then serves until killed.

usage: hostile-registry.py [--cert CRT --key KEY] [--user USER:PASS] [--log FILE]
                           [--redirect-host HOST] [--stall SECONDS] [--platform OS/ARCH[/V]]
"""
import argparse
import base64
import gzip
import hashlib
import http.server
import io
import json
import platform
import ssl
import sys
import tarfile
import threading
import time
import urllib.parse

OPTS = None
LOCK = threading.Lock()
SIDE = {"port": 0, "requests": 0, "authorization": [], "realm-port": 0, "realm-authorization": []}
DOTDOT = []
BLOBS = {}  # digest -> bytes, every blob of every case (the side listener serves them too)
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_INDEX = "application/vnd.oci.image.index.v1+json"
OCI_CONFIG = "application/vnd.oci.image.config.v1+json"
OCI_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip"


def host_platform():
    m = platform.machine()
    return {"x86_64": "linux/amd64", "aarch64": "linux/arm64", "armv7l": "linux/arm/v7",
            "armv6l": "linux/arm/v6", "i686": "linux/386"}.get(m, "linux/" + m)


def sha(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def blob(data):
    d = sha(data)
    BLOBS[d] = data
    return d


def tar_layer(entries):
    """entries: (TarInfo, data or None); a gzip layer (bytes) and its diff_id"""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as t:
        for info, data in entries:
            info.mtime = 0
            info.uid = info.gid = 0
            if data is not None:
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
            else:
                t.addfile(info)
    tarbytes = raw.getvalue()
    return gzip.compress(tarbytes, mtime=0), sha(tarbytes)


def entry(name, kind=tarfile.REGTYPE, data=None, link="", mode=0o644):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = link
    info.mode = mode
    if kind == tarfile.CHRTYPE:
        info.devmajor, info.devminor = 1, 1
    return info, data


def image(entries, layer_size=None, layer_digest=None, annotations=None):
    """an image with one layer: (manifest bytes, layer digest); the layer's descriptor may lie
    about its size or digest"""
    layer, diff = tar_layer(entries)
    ld = blob(layer)
    os_, _, rest = OPTS.platform.partition("/")
    arch, _, variant = rest.partition("/")
    config = json.dumps({"architecture": arch, "os": os_, **({"variant": variant} if variant else {}),
                         "config": {"Cmd": ["/bin/sh"]},
                         "rootfs": {"type": "layers", "diff_ids": [diff]}}).encode()
    cd = blob(config)
    m = {"schemaVersion": 2, "mediaType": OCI_MANIFEST,
         "config": {"mediaType": OCI_CONFIG, "digest": cd, "size": len(config)},
         "layers": [{"mediaType": OCI_LAYER, "digest": layer_digest or ld,
                     "size": layer.__len__() if layer_size is None else layer_size}]}
    if annotations:
        m["annotations"] = annotations
    return json.dumps(m).encode(), ld


ARCH = [entry("arch", data=b"hostile-good\n")]
FAKE_DIGEST = "sha256:" + hashlib.sha256(b"not these bytes").hexdigest()
CASES = {}  # repository -> {"manifests": {tag: (mediatype, bytes)}, ...}


def build_cases():
    m, _ = image(ARCH)
    CASES["good/image"] = {"manifest": m}

    # bad/digest: the layer's bytes changed after its digest was taken
    m, ld = image([entry("arch", data=b"bad-digest\n")])
    good = BLOBS[ld]
    CASES["bad/digest"] = {"manifest": m, "blobs": {ld: good[:-1] + bytes([good[-1] ^ 0xFF])}}

    # bad/manifest-digest: an index names a manifest by a digest its bytes do not have
    m, _ = image([entry("arch", data=b"bad-manifest-digest\n")])
    real = sha(m)
    fake = FAKE_DIGEST
    plats = [{"architecture": a, "os": "linux"} for a in ("amd64", "arm64", "386", "riscv64",
                                                          "ppc64le", "s390x")]
    plats += [{"architecture": "arm", "os": "linux", "variant": v} for v in ("v5", "v6", "v7")]
    idx = {"schemaVersion": 2, "mediaType": OCI_INDEX,
           "manifests": [dict(mediaType=OCI_MANIFEST, digest=fake, size=len(m), platform=p)
                         for p in plats]}
    CASES["bad/manifest-digest"] = {"manifest": json.dumps(idx).encode(), "mediatype": OCI_INDEX,
                                    "by-digest": {fake: m, real: m}}

    CASES["bad/big-manifest"] = {"big": True, "length": True}
    CASES["bad/big-manifest-chunked"] = {"big": True, "length": False}

    m, _ = image([entry("arch", data=b"huge-size\n")], layer_size=10**15)
    CASES["bad/huge-size"] = {"manifest": m}

    m, ld = image([entry("arch", data=b"redirected\n")])
    CASES["bad/redirect"] = {"manifest": m, "auth": True, "redirect": ld}

    # a Bearer challenge whose realm the registry names: over http to this machine while the
    # registry speaks https, over http to a name that only starts like a loopback address, and
    # over https on another host (verified even with --tls-verify=false for the registry)
    for name, realm in (("bad/realm-http", "http://127.0.0.1:REALM/token"),
                        ("bad/realm-fake-loopback", "http://127.0.0.1.crib-test.invalid:REALM/token"),
                        ("bad/realm-other-host", "SIDE/token")):
        CASES[name] = {"manifest": m, "realm": realm}

    for name, length in (("bad/endless", None), ("bad/long-length", 10**12)):
        m, ld = image([entry("arch", data=name.encode())], layer_size=1000)
        CASES[name] = {"manifest": m, "endless": ld, "endless-length": length}

    hostile = {
        "absolute": [entry("/crib-hostile-absolute", data=b"absolute\n")],
        "dotdot": [entry("../../../../crib-hostile-dotdot", data=b"dotdot\n")],
        "symlink": [entry("escape", tarfile.SYMTYPE, link="/tmp"),
                    entry("escape/crib-hostile-symlink", data=b"through a symlink\n"),
                    entry("up", tarfile.SYMTYPE, link="../../../../../../tmp"),
                    entry("up/crib-hostile-symlink-up", data=b"through a symlink\n")],
        "hardlink": [entry("passwd", tarfile.LNKTYPE, link="/etc/passwd"),
                     entry("passwd", data=b"root::0:0::/:/bin/sh\n")],
        "device": [entry("dev-mem", tarfile.CHRTYPE, mode=0o666),
                   entry("suid", data=b"#!/bin/sh\nid\n", mode=0o4755)],
    }
    tags = {}
    for tag, entries in hostile.items():
        tags[tag], _ = image(ARCH + entries)
    tags["all"], _ = image(ARCH + [e for v in hostile.values() for e in v])
    tags["latest"] = tags["all"]
    CASES["bad/paths"] = {"tags": tags}

    m, _ = image(ARCH, annotations={
        "org.opencontainers.image.ref.name": "../../../../tmp/crib-hostile-name"})
    CASES["bad/name"] = {"manifest": m, "tags-list": ["../../../x", "ok"]}

    for name in ("bad/slow", "bad/drop"):
        # 512 KiB that gzip cannot shrink, so the half is well past any buffer
        data = b"".join(hashlib.sha256(b"%d" % i).digest() for i in range(16384))
        m, ld = image(ARCH + [entry("payload", data=data)])
        CASES[name] = {"manifest": m, "half": ld, "stall": name == "bad/slow"}
    # bad/poison: the same layer, its first half other bytes, then the connection closes (a
    # partial file of wrong bytes under the right digest); good/ranged: the same layer right,
    # a Range answered 206
    CASES["bad/poison"] = {"manifest": m, "half": ld, "stall": False,
                           "blobs": {ld: bytes(b ^ 0x5A for b in BLOBS[ld])}}
    CASES["good/ranged"] = {"manifest": m, "ranged": ld}

    # bad/config: the config blob's bytes are not its digest
    m, _ = image([entry("arch", data=b"bad-config\n")])
    cd = json.loads(m)["config"]["digest"]
    CASES["bad/config"] = {"manifest": m, "blobs": {cd: BLOBS[cd].replace(b"/bin/sh", b"/bin/xx")}}

    # bad/header-digest: the right manifest, a Docker-Content-Digest header that lies
    m, _ = image([entry("arch", data=b"header-digest\n")])
    CASES["bad/header-digest"] = {"manifest": m, "header-digest": FAKE_DIGEST}

    # bad/many-layers: 20000 layers (all one small blob), a manifest under 4 MiB
    m, ld = image(ARCH)
    j = json.loads(m)
    j["layers"] = j["layers"] * 20000
    j["config"]["digest"] = blob(json.dumps({
        "architecture": json.loads(BLOBS[j["config"]["digest"]])["architecture"], "os": "linux",
        "rootfs": {"type": "layers", "diff_ids": [json.loads(BLOBS[j["config"]["digest"]])[
            "rootfs"]["diff_ids"][0]] * 20000}}).encode())
    j["config"]["size"] = len(BLOBS[j["config"]["digest"]])
    CASES["bad/many-layers"] = {"manifest": json.dumps(j).encode()}

    # bad/nested: an index whose entry is an index, 64 deep
    m, _ = image(ARCH)
    inner, mt = m, OCI_MANIFEST
    by_digest = {sha(m): m}
    for _ in range(64):
        inner = json.dumps({"schemaVersion": 2, "mediaType": OCI_INDEX, "manifests": [
            {"mediaType": mt, "digest": sha(inner), "size": len(inner),
             "platform": dict(zip(("os", "architecture"), OPTS.platform.split("/")[:2]))}]}).encode()
        by_digest[sha(inner)] = inner
        mt = OCI_INDEX
    CASES["bad/nested"] = {"manifest": inner, "mediatype": OCI_INDEX, "by-digest": by_digest}

    # bad/schema1: Docker's schema 1 (signed), which a client of today refuses by its type
    CASES["bad/schema1"] = {"manifest": json.dumps({
        "schemaVersion": 1, "name": "bad/schema1", "tag": "latest", "architecture": "amd64",
        "fsLayers": [{"blobSum": sha(b"")}], "history": [{"v1Compatibility": "{}"}]}).encode(),
        "mediatype": "application/vnd.docker.distribution.manifest.v1+prettyjws"}

    # bad/foreign-urls: a non-distributable layer whose descriptor sends the client elsewhere
    # (urls: the side listener, which records being asked); the registry has no such blob
    m, ld = image(ARCH)
    j = json.loads(m)
    j["layers"][0]["mediaType"] = "application/vnd.oci.image.layer.nondistributable.v1.tar+gzip"
    j["layers"][0]["urls"] = ["SIDE/blobs/" + ld]
    CASES["bad/foreign-urls"] = {"manifest": json.dumps(j).encode(), "missing": ld,
                                 "side-urls": True}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    side = False
    realm = False

    def log_message(self, fmt, *args):
        pass

    def setup(self):
        # TLS: the handshake here, in this connection's thread, bounded (the listener does not
        # do it on accept: one stalled client would hold every other)
        if isinstance(self.request, ssl.SSLSocket):
            self.request.settimeout(30)
            self.request.do_handshake()
            self.request.settimeout(None)
        super().setup()

    def record(self, status):
        if not OPTS.log:
            return
        line = {"listener": "side" if self.side else "main", "method": self.command,
                "path": self.path, "authorization": self.headers.get("Authorization") is not None,
                "range": self.headers.get("Range"), "status": status}
        with LOCK, open(OPTS.log, "a") as f:
            f.write(json.dumps(line) + "\n")

    def send(self, status, body=b"", ctype="application/json", headers=None):
        self.record(status)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Docker-Distribution-API-Version", "registry/2.0")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def error(self, status, code):
        self.send(status, json.dumps({"errors": [{"code": code, "message": code}]}).encode())

    def stream_forever(self, status, headers):
        self.record(status)
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        if self.command == "HEAD":
            return
        chunk = b"\0" * 65536
        try:
            while True:
                self.wfile.write(chunk)
        except OSError:  # the client gave up: what it should do
            pass

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        try:
            self.route()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def authorized(self):
        h = self.headers.get("Authorization", "")
        kind, _, value = h.partition(" ")
        if kind.lower() != "basic" or OPTS.user is None:
            return False
        try:
            return base64.b64decode(value.strip()).decode() == OPTS.user
        except (ValueError, UnicodeDecodeError):
            return False

    def route(self):
        path = urllib.parse.urlsplit(self.path).path
        if self.realm:
            a = self.headers.get("Authorization")
            if a is not None:
                SIDE["realm-authorization"].append(a)
            return self.error(401, "UNAUTHORIZED")
        if self.side:
            SIDE["requests"] += 1
            a = self.headers.get("Authorization")
            if a is not None:
                SIDE["authorization"].append(a)
            d = path.rpartition("/")[2]
            if d in BLOBS:
                return self.send(200, BLOBS[d], "application/octet-stream")
            return self.error(404, "BLOB_UNKNOWN")
        if path == "/_hostile/side":
            return self.send(200, json.dumps({k: SIDE[k] for k in ("requests", "authorization",
                                                                  "realm-authorization")}).encode())
        if path == "/_hostile/dotdot":
            return self.send(200, json.dumps({"requests": DOTDOT}).encode())
        segs = urllib.parse.unquote(path).split("/")
        if ".." in segs or any(s.startswith("..") and len(set(s)) == 1 for s in segs):
            DOTDOT.append(self.path)
        if path in ("/v2", "/v2/"):
            return self.send(200, b"{}")
        if not path.startswith("/v2/"):
            return self.error(404, "NOT_FOUND")
        rest = path[4:]
        for kind in ("/manifests/", "/blobs/", "/tags/list"):
            name, sep, ref = rest.rpartition(kind)
            if sep:
                break
        else:
            return self.error(404, "NOT_FOUND")
        name = urllib.parse.unquote(name)
        case = CASES.get(name)
        if case is None:
            # a name with "..": the baseline image, so a client that does not refuse goes on
            if ".." in name:
                case = CASES["good/image"]
            else:
                return self.error(404, "NAME_UNKNOWN")
        if case.get("realm"):
            side = "%s://%s:%d" % ("https" if OPTS.cert else "http", OPTS.redirect_host, SIDE["port"])
            realm = case["realm"].replace("SIDE", side).replace("REALM", str(SIDE["realm-port"]))
            return self.send(401, b'{"errors":[{"code":"UNAUTHORIZED"}]}',
                             headers={"WWW-Authenticate": 'Bearer realm="%s",service="crib-hostile"' % realm})
        if case.get("auth") and not self.authorized():
            return self.send(401, b'{"errors":[{"code":"UNAUTHORIZED"}]}',
                             headers={"WWW-Authenticate": 'Basic realm="crib-hostile"'})
        if kind == "/tags/list":
            tags = case.get("tags-list") or sorted(case.get("tags", {"latest": 0}))
            return self.send(200, json.dumps({"name": name, "tags": tags}).encode())
        if kind == "/manifests/":
            return self.manifest(case, ref)
        return self.blob(case, ref)

    def manifest(self, case, ref):
        if case.get("big"):
            return self.big_manifest(case["length"])
        mt = case.get("mediatype", OCI_MANIFEST)
        if ref.startswith("sha256:"):
            body = case.get("by-digest", {}).get(ref)
            if body is None:
                body = case.get("manifest")
                if "tags" in case:
                    body = next((m for m in case["tags"].values() if sha(m) == ref), None)
                if body is None or sha(body) != ref:
                    return self.error(404, "MANIFEST_UNKNOWN")
            mt = json.loads(body).get("mediaType", OCI_MANIFEST)
        elif "tags" in case:
            body = case["tags"].get(ref)
            if body is None:
                return self.error(404, "MANIFEST_UNKNOWN")
        else:
            body = case["manifest"]
        if case.get("side-urls"):
            side = "%s://%s:%d" % ("https" if OPTS.cert else "http", OPTS.redirect_host, SIDE["port"])
            body = body.replace(b"SIDE/", side.encode() + b"/")
        return self.send(200, body, mt, {"Docker-Content-Digest": case.get("header-digest", sha(body))})

    def big_manifest(self, with_length):
        head = ('{"schemaVersion":2,"mediaType":"%s","config":{"mediaType":"%s","digest":"%s",'
                '"size":2},"layers":[' % (OCI_MANIFEST, OCI_CONFIG, sha(b"{}"))).encode()
        tail = b"]}"
        total = 100 * 1024 * 1024
        self.record(200)
        self.send_response(200)
        self.send_header("Content-Type", OCI_MANIFEST)
        if with_length:
            self.send_header("Content-Length", str(total))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command == "HEAD":
            return
        pad = total - len(head) - len(tail)
        self.wfile.write(head)
        chunk = b" " * 65536
        while pad > 0:
            n = min(pad, len(chunk))
            self.wfile.write(chunk[:n])
            pad -= n
        self.wfile.write(tail)

    def blob(self, case, digest):
        if case.get("redirect") == digest:
            loc = "https" if OPTS.cert else "http"
            loc += "://%s:%d/blobs/%s" % (OPTS.redirect_host, SIDE["port"], digest)
            return self.send(302, b"", headers={"Location": loc})
        if case.get("endless") == digest:
            h = {"Content-Type": "application/octet-stream"}
            if case["endless-length"]:
                h["Content-Length"] = str(case["endless-length"])
            return self.stream_forever(200, h)
        data = case.get("blobs", {}).get(digest, BLOBS.get(digest))
        if data is None or case.get("missing") == digest:
            return self.error(404, "BLOB_UNKNOWN")
        if case.get("half") == digest:
            return self.half(case, data)
        if case.get("ranged") == digest:
            return self.half(case, data, whole=True)
        return self.send(200, data, "application/octet-stream", {"Docker-Content-Digest": digest})

    def half(self, case, data, whole=False):
        rng = self.headers.get("Range", "")
        if rng.startswith("bytes=") and rng[6:].endswith("-") and rng[6:-1].isdigit():
            start = int(rng[6:-1])
            if start >= len(data):
                return self.send(416, b"", headers={"Content-Range": "bytes */%d" % len(data)})
            return self.send(206, data[start:], "application/octet-stream",
                             {"Content-Range": "bytes %d-%d/%d" % (start, len(data) - 1, len(data))})
        if whole:
            return self.send(200, data, "application/octet-stream", {"Accept-Ranges": "bytes"})
        self.record(200)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        self.close_connection = True
        if self.command == "HEAD":
            return
        self.wfile.write(data[:len(data) // 2])
        self.wfile.flush()
        if case["stall"]:
            time.sleep(OPTS.stall)


class SideHandler(Handler):
    side = True


class RealmHandler(Handler):
    realm = True


def listen(handler, plain=False):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    if OPTS.cert and not plain:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(OPTS.cert, OPTS.key)
        server.socket = ctx.wrap_socket(server.socket, server_side=True,
                                        do_handshake_on_connect=False)
    return server


def main():
    global OPTS
    p = argparse.ArgumentParser()
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--user")
    p.add_argument("--log")
    p.add_argument("--redirect-host", default="localhost")
    p.add_argument("--stall", type=float, default=3600)
    p.add_argument("--platform", default=host_platform())
    OPTS = p.parse_args()
    build_cases()
    side = listen(SideHandler)
    SIDE["port"] = side.server_address[1]
    threading.Thread(target=side.serve_forever, daemon=True).start()
    realm = listen(RealmHandler, plain=True)
    SIDE["realm-port"] = realm.server_address[1]
    threading.Thread(target=realm.serve_forever, daemon=True).start()
    main_server = listen(Handler)
    print(main_server.server_address[1], flush=True)
    main_server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
