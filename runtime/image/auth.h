/* auth.h - what a registry asks of its clients, and what the user gave to answer it: the
 * `WWW-Authenticate` challenge of a 401 (RFC 7235; the distribution spec's token flow), and
 * credentials in the files podman and docker keep them in ({"auths":{"HOST":{"auth":
 * "base64(user:pass)"}}}). Pure but for auth_file_lookup, which reads one file. */
#ifndef CRIB_AUTH_H
#define CRIB_AUTH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

#define AUTH_FILE_MAX (1 << 20) /* a credentials file's size */

/* A challenge: its scheme ("Bearer" or "Basic") and the Bearer parameters */
struct auth_challenge {
        char scheme[16];
        char realm[1024];
        char service[256];
        char scope[512];
};

/* Parse one WWW-Authenticate value. Refuses, saying why: an unknown scheme, a Bearer without
 * a realm, a parameter too long, a control character. */
int auth_parse_challenge(const char *value, struct auth_challenge *ret, struct error *err);

struct auth_cred {
        char user[256];
        char pass[1024];
};

/* The credentials for `registry` ("ghcr.io", "127.0.0.1:5000"; docker.io is also found under
 * docker's "https://index.docker.io/v1/") in the auth.json text `text`; `*found` false when it
 * names none. `what` names the file in errors. */
int auth_json_lookup(const char *text, size_t len, const char *what, const char *registry,
                     struct auth_cred *ret, bool *found, struct error *err);

/* The same, read from the file `path` (at most AUTH_FILE_MAX bytes); a file that is not there
 * is no error (`*found` false). */
int auth_file_lookup(const char *path, const char *registry, struct auth_cred *ret, bool *found,
                     struct error *err);

#define AUTH_CA_MAX (4 << 20) /* the CAs of one registry, all files together */

/* The registry's own CAs: every DIR/REGISTRY/\*.crt of the first of `dirs` that has a
 * directory for `registry` (podman's certs.d layout), concatenated into `*ret` (malloc'd, NULL
 * when there is none). A file that is not a regular file, or too much, is an error. */
int auth_read_cas(const char *const *dirs, size_t n, const char *registry, char **ret,
                  size_t *ret_len, char *ret_dir, size_t dir_len, struct error *err);

/* RFC 4648 base64 of `n` bytes of `in` into `out` (NUL-terminated); -1 when it does not fit */
int auth_base64(const void *in, size_t n, char *out, size_t len);
/* The decoding, NUL-terminated; -1 when `in` is not base64 or does not fit */
int auth_unbase64(const char *in, char *out, size_t len, size_t *ret_len);

#endif
