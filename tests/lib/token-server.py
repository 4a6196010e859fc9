#!/usr/bin/env python3
"""token-server.py - the bearer-token half of the test registry (tests/lib/registry.sh).

A registry started with `auth: token` answers an unauthenticated request with
    401  WWW-Authenticate: Bearer realm="https://127.0.0.1:PORT/token",
         service="crib-test-registry",scope="repository:NAME:pull"
as Docker Hub and ghcr.io do; the client then GETs the realm with ?service=...&scope=...
(scope may repeat; &account=USER is allowed), with HTTP basic credentials or none, and retries
with `Authorization: Bearer TOKEN`. This server is that realm:
  - credentials given and right (--user USER:PASS): the token grants every action asked for;
  - credentials given and wrong: 401, no token (Docker Hub says "incorrect username or password");
  - no credentials: with --anonymous-pull, a token granting `pull` on repositories outside
    `private/` (and nothing else: the registry then answers 401 insufficient_scope); without it,
    401.
The token is a JWT (ES256) the registry (distribution 2.8) checks: header {"typ":"JWT",
"alg":"ES256","x5c":[the signing certificate, base64 DER]}, the certificate signed by the CA
named in the registry's `rootcertbundle`; claims iss (--issuer), aud (the service), sub, exp,
nbf, iat, jti and access [{"type","name","actions"}]. Python's standard library cannot sign:
`openssl dgst -sha256 -sign KEY` does (an EC P-256 key: ES256; an RSA key takes most of a second
to make), and its DER signature becomes JWS's r || s here.

A POST of OAuth2's form (grant_type=password, username, password, service, scope), which
containerd and buildkit try first, is answered the same way (its log line's auth: post-basic or
post-none).

Every request is appended to --log as one JSON line {"path", "auth" (basic|none|other),
"account", "scopes", "granted", "status"}, so a test can see what its client asked for and with
what credentials. Over https (--cert, --key: the test CA's server certificate). It prints its
port on stdout, then serves until killed.

usage: token-server.py --cert CRT --key KEY --sign-key KEY --sign-cert CRT --issuer ISS
                       --service SVC [--user USER:PASS] [--anonymous-pull] [--log FILE]
                       [--port N] [--expires SECONDS]
"""
import argparse
import base64
import datetime
import http.server
import json
import os
import ssl
import subprocess
import sys
import threading
import time
import urllib.parse

OPTS = None
LOCK = threading.Lock()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def der_int(data, at):
    """one DER INTEGER at data[at]: (value, next offset)"""
    if data[at] != 0x02:
        raise ValueError("not a DER integer")
    n = data[at + 1]
    return int.from_bytes(data[at + 2:at + 2 + n], "big"), at + 2 + n


def sign(payload):
    """ES256: ECDSA P-256 over SHA-256 by openssl (python's standard library has no public-key
    signing), its DER SEQUENCE {r, s} turned into JWS's 64 bytes r || s."""
    der = subprocess.run(
        ["openssl", "dgst", "-sha256", "-sign", OPTS.sign_key],
        input=payload,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        check=True,
    ).stdout
    at = 2 if der[1] < 0x80 else 2 + (der[1] & 0x7F)  # past the SEQUENCE's tag and length
    r, at = der_int(der, at)
    s, _ = der_int(der, at)
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def make_token(subject, access):
    with open(OPTS.sign_cert) as f:
        der = ssl.PEM_cert_to_DER_cert(f.read())
    header = {"typ": "JWT", "alg": "ES256", "x5c": [base64.b64encode(der).decode()]}
    now = int(time.time())
    claims = {
        "iss": OPTS.issuer,
        "sub": subject,
        "aud": OPTS.service,
        "exp": now + OPTS.expires,
        "nbf": now - 1,
        "iat": now,
        "jti": b64url(os.urandom(12)),
        "access": access,
    }
    raw = (
        b64url(json.dumps(header, separators=(",", ":")).encode())
        + "."
        + b64url(json.dumps(claims, separators=(",", ":")).encode())
    )
    return raw + "." + b64url(sign(raw.encode()))


def parse_scope(scope):
    """repository:NAME:ACTIONS (NAME may hold ':' only in theory; ACTIONS after the last)."""
    kind, _, rest = scope.partition(":")
    name, _, actions = rest.rpartition(":")
    if not kind or not name:
        return None
    return {"type": kind, "name": name, "actions": [a for a in actions.split(",") if a]}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet: the JSON log says what a test needs
        pass

    def setup(self):
        # TLS: the handshake here, in this connection's thread, bounded (not on accept, where
        # one stalled client would hold every other)
        self.request.settimeout(30)
        self.request.do_handshake()
        self.request.settimeout(None)
        super().setup()

    def reply(self, status, body, record):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if status == 401:
            self.send_header("WWW-Authenticate", 'Basic realm="crib-test-token"')
        self.end_headers()
        self.wfile.write(data)
        record["status"] = status
        if OPTS.log:
            with LOCK, open(OPTS.log, "a") as f:
                f.write(json.dumps(record) + "\n")

    def credentials(self):
        """(kind, user, password): kind basic|none|other"""
        h = self.headers.get("Authorization")
        if not h:
            return "none", None, None
        kind, _, value = h.partition(" ")
        if kind.lower() != "basic":
            return "other", None, None
        try:
            user, _, password = base64.b64decode(value.strip()).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            return "other", None, None
        return "basic", user, password

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        self.grant(url.path, urllib.parse.parse_qs(url.query), self.credentials())

    def do_POST(self):
        """OAuth2's form (containerd and buildkit try it first): grant_type=password with
        username and password, or none of them for an anonymous token"""
        url = urllib.parse.urlsplit(self.path)
        n = int(self.headers.get("Content-Length") or 0)
        if n > 65536:
            self.close_connection = True
            return self.reply(413, {"details": "form too large"}, {"path": url.path, "auth": "post"})
        form = urllib.parse.parse_qs(self.rfile.read(n).decode("utf-8", "replace"))
        creds = ("none", None, None)
        if form.get("grant_type", [""])[0] == "password":
            creds = ("basic", form.get("username", [""])[0], form.get("password", [""])[0])
        elif form.get("grant_type", [""])[0] not in ("", "client_credentials"):
            creds = ("other", None, None)
        if "account" not in form and "username" in form:
            form["account"] = form["username"]
        self.grant(url.path, form, creds, "post-")

    def grant(self, path, query, creds, how=""):
        scopes = query.get("scope", [])
        kind, user, password = creds
        record = {"path": path, "auth": how + kind, "account": query.get("account", [None])[0],
                  "service": query.get("service", [None])[0], "scopes": scopes, "granted": []}
        if path != "/token":
            return self.reply(404, {"errors": [{"code": "NOT_FOUND"}]}, record)
        if record["service"] != OPTS.service:
            return self.reply(400, {"details": "unknown service"}, record)
        if kind == "other":
            return self.reply(401, {"details": "unsupported authorization"}, record)
        good = kind == "basic" and OPTS.user is not None and f"{user}:{password}" == OPTS.user
        if kind == "basic" and not good:
            return self.reply(401, {"details": "incorrect username or password"}, record)
        if kind == "none" and not OPTS.anonymous_pull:
            return self.reply(401, {"details": "authentication required"}, record)
        access = []
        for s in scopes:
            for one in s.split(" "):  # some clients join scopes with spaces
                r = parse_scope(one)
                if r is None:
                    continue
                if not good:  # anonymous: pull only, and not in private/
                    if r["type"] != "repository" or r["name"].startswith("private/"):
                        continue
                    r["actions"] = [a for a in r["actions"] if a == "pull"]
                access.append(r)
        record["granted"] = access
        token = make_token(user if good else "", access)
        issued = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        return self.reply(200, {"token": token, "access_token": token,
                                "expires_in": OPTS.expires, "issued_at": issued}, record)


def main():
    global OPTS
    p = argparse.ArgumentParser()
    p.add_argument("--cert", required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--sign-key", required=True)
    p.add_argument("--sign-cert", required=True)
    p.add_argument("--issuer", required=True)
    p.add_argument("--service", required=True)
    p.add_argument("--user")
    p.add_argument("--anonymous-pull", action="store_true")
    p.add_argument("--log")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--expires", type=int, default=300)
    OPTS = p.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", OPTS.port), Handler)
    server.daemon_threads = True
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(OPTS.cert, OPTS.key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
