/* registry.h - one repository of an OCI registry over HTTPS (the distribution spec's API v2)
 * with libcurl: a GET by path, authenticated as the registry asks (anonymous, a bearer token
 * for the repository's pull scope, basic), with crib's own redirects, TLS with the system's
 * CAs and the registry's own, and the body handed to a sink as it streams. crib-pull only
 * (it links libcurl). */
#ifndef CRIB_REGISTRY_H
#define CRIB_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "auth.h"
#include "base/error.h"

#define REGISTRY_MAX_REDIRECTS 5

struct registry_opts {
        const char *registry;         /* as the reference names it: "127.0.0.1:5000", "docker.io" */
        const char *host;             /* where it is served: image_ref_host() */
        const char *repository;       /* "library/busybox" */
        bool tls_verify;              /* false only when the user said --tls-verify=false */
        bool plain_http;              /* http://, only to a loopback registry (checked) */
        bool http_fallback;           /* http:// when a loopback registry does not speak TLS */
        const struct auth_cred *cred; /* NULL: anonymous */
        const char *ca_pem;           /* the registry's own CAs (PEM), or NULL */
        size_t ca_len;
        long connect_timeout; /* seconds */
        long low_speed_time;  /* seconds under 1 byte/s before giving up */
};

/* What the final response said, before its body: a sink may refuse it (a length over its
 * limit) and so end the transfer before a byte of the body is read. */
struct registry_head {
        long status;
        int64_t length;      /* Content-Length, -1 when absent */
        int64_t range_start; /* a 206's Content-Range start, -1 otherwise */
        char content_type[128];
        char digest[80]; /* Docker-Content-Digest, "" when absent */
};

struct registry_sink {
        int (*head)(void *ctx, const struct registry_head *h, struct error *err);
        int (*data)(void *ctx, const void *buf, size_t n, struct error *err);
        void *ctx;
};

struct registry;

int registry_new(const struct registry_opts *o, struct registry **ret, struct error *err);
void registry_free(struct registry *r);

/* GET /v2/REPOSITORY/`path` ("manifests/latest", "blobs/sha256:HEX"), `accept` as the Accept
 * header (or NULL), from byte `from` (a Range request when > 0). The body of a 200 or 206 goes
 * to `sink`; any other status is an error naming it, with the registry's own message. */
int registry_get(struct registry *r, const char *path, const char *accept, int64_t from,
                 const struct registry_sink *sink, struct registry_head *ret, struct error *err);

/* Whether `host` (with or without ":PORT") is this machine's loopback: "localhost", "[::1]" or a
 * dotted 127.x.y.z (not a name that starts with "127.") */
bool registry_is_loopback(const char *host);

#endif
