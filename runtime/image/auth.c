/* auth.c - registry challenges and credentials files (auth.h). A challenge comes from the
 * registry, so from anyone on the way to it: every value is bounded and may hold no control
 * character (it goes into a URL and, for the token, into a request's header). A credentials
 * file is the user's; its passwords never reach an error message. */
#include "auth.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int auth_base64(const void *in, size_t n, char *out, size_t len)
{
        const unsigned char *p = in;
        size_t o = 0;
        if ((n + 2) / 3 * 4 + 1 > len)
                return -1;
        for (size_t i = 0; i < n; i += 3) {
                unsigned v = (unsigned)p[i] << 16;
                if (i + 1 < n)
                        v |= (unsigned)p[i + 1] << 8;
                if (i + 2 < n)
                        v |= p[i + 2];
                out[o++] = b64[(v >> 18) & 63];
                out[o++] = b64[(v >> 12) & 63];
                out[o++] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
                out[o++] = i + 2 < n ? b64[v & 63] : '=';
        }
        out[o] = '\0';
        return 0;
}

int auth_unbase64(const char *in, char *out, size_t len, size_t *ret_len)
{
        unsigned v = 0;
        size_t o = 0, bits = 0, i = 0;
        for (; in[i] && in[i] != '='; i++) {
                const char *c = strchr(b64, in[i]);
                if (!c || !*c)
                        return -1;
                v = (v << 6) | (unsigned)(c - b64);
                bits += 6;
                if (bits >= 8) {
                        bits -= 8;
                        if (o + 1 >= len)
                                return -1;
                        out[o++] = (char)((v >> bits) & 0xff);
                }
        }
        for (; in[i] == '='; i++)
                ;
        if (in[i])
                return -1;
        out[o] = '\0';
        *ret_len = o;
        return 0;
}

/* one parameter's value, quoted (with \-escapes) or a token, into `buf`; returns its end */
static const char *param_value(const char *p, char *buf, size_t len, bool *ok)
{
        size_t o = 0;
        *ok = true;
        if (*p == '"') {
                for (p++; *p && *p != '"'; p++) {
                        if (*p == '\\' && p[1])
                                p++;
                        if (o + 1 >= len)
                                *ok = false;
                        else
                                buf[o++] = *p;
                }
                if (*p != '"')
                        *ok = false;
                else
                        p++;
        } else {
                for (; *p && *p != ',' && *p != ' ' && *p != '\t'; p++)
                        if (o + 1 >= len)
                                *ok = false;
                        else
                                buf[o++] = *p;
        }
        buf[o] = '\0';
        return p;
}

int auth_parse_challenge(const char *value, struct auth_challenge *ret, struct error *err)
{
        memset(ret, 0, sizeof *ret);
        for (const char *c = value; *c; c++)
                if ((unsigned char)*c < 0x20 && *c != '\t')
                        return error_set(err, 0, "its WWW-Authenticate holds a control character");
        const char *p = value + strspn(value, " \t");
        size_t n = strcspn(p, " \t");
        if (n == 6 && !strncasecmp(p, "Bearer", 6))
                strcpy(ret->scheme, "Bearer");
        else if (n == 5 && !strncasecmp(p, "Basic", 5))
                strcpy(ret->scheme, "Basic");
        else
                return error_set(err, 0, "it asks for authentication crib does not know: '%.*s'",
                                 (int)(n > 32 ? 32 : n), p);
        for (p += n; *p;) {
                p += strspn(p, " \t,");
                size_t k = strcspn(p, "= \t,");
                if (!k || p[k] != '=') {
                        p += k;
                        continue;
                }
                char name[32] = "", junk[1024];
                snprintf(name, sizeof name, "%.*s", (int)(k < 31 ? k : 31), p);
                char *dst = junk;
                size_t len = sizeof junk;
                if (!strcasecmp(name, "realm"))
                        dst = ret->realm, len = sizeof ret->realm;
                else if (!strcasecmp(name, "service"))
                        dst = ret->service, len = sizeof ret->service;
                else if (!strcasecmp(name, "scope"))
                        dst = ret->scope, len = sizeof ret->scope;
                bool ok;
                p = param_value(p + k + 1, dst, len, &ok);
                if (!ok)
                        return error_set(err, 0, "its WWW-Authenticate's %s is too long or unended",
                                         name);
        }
        if (!strcmp(ret->scheme, "Bearer") && !ret->realm[0])
                return error_set(err, 0, "its WWW-Authenticate names no realm to get a token from");
        return 0;
}

/* Whether an auths key names `registry`: "HOST", "https://HOST", "HOST/...", or for docker.io
 * docker's own keys */
static bool key_names(const char *key, const char *registry)
{
        if (!strncmp(key, "https://", 8))
                key += 8;
        else if (!strncmp(key, "http://", 7))
                key += 7;
        size_t n = strcspn(key, "/");
        if (strlen(registry) == n && !strncmp(key, registry, n))
                return true;
        if (strcmp(registry, "docker.io"))
                return false;
        return (n == 15 && !strncmp(key, "index.docker.io", 15)) ||
               (n == 20 && !strncmp(key, "registry-1.docker.io", 20));
}

static int decode_auth(const char *b, const char *what, struct auth_cred *ret, struct error *err)
{
        char raw[1400];
        size_t n;
        if (auth_unbase64(b, raw, sizeof raw, &n) < 0)
                return error_set(err, 0, "'%s': an \"auth\" is not base64 or is too long", what);
        char *colon = memchr(raw, ':', n);
        if (!colon || strlen(raw) != n)
                return error_set(err, 0, "'%s': an \"auth\" is not base64 of USER:PASSWORD", what);
        *colon = '\0';
        if (strlen(raw) >= sizeof ret->user || strlen(colon + 1) >= sizeof ret->pass)
                return error_set(err, 0, "'%s': a user name or password is too long", what);
        strcpy(ret->user, raw);
        strcpy(ret->pass, colon + 1);
        explicit_bzero(raw, sizeof raw);
        return 0;
}

int auth_json_lookup(const char *text, size_t len, const char *what, const char *registry,
                     struct auth_cred *ret, bool *found, struct error *err)
{
        *found = false;
        memset(ret, 0, sizeof *ret);
        struct json_tokener *tok = json_tokener_new();
        if (!tok)
                return error_set(err, ENOMEM, "'%s'", what);
        json_object *doc = json_tokener_parse_ex(tok, text, (int)len);
        bool bad = !doc || json_tokener_get_error(tok) != json_tokener_success;
        json_tokener_free(tok);
        if (bad) {
                json_object_put(doc);
                return error_set(err, 0, "'%s' is not JSON", what);
        }
        json_object *auths = NULL;
        int rc = 0;
        if (json_object_is_type(doc, json_type_object) &&
            json_object_object_get_ex(doc, "auths", &auths) &&
            json_object_is_type(auths, json_type_object)) {
                json_object_object_foreach(auths, key, val)
                {
                        json_object *a;
                        if (!key_names(key, registry) ||
                            !json_object_is_type(val, json_type_object) ||
                            !json_object_object_get_ex(val, "auth", &a) ||
                            !json_object_is_type(a, json_type_string) ||
                            !json_object_get_string_len(a))
                                continue;
                        rc = decode_auth(json_object_get_string(a), what, ret, err);
                        *found = rc == 0;
                        break;
                }
        }
        json_object_put(doc);
        return rc;
}

int auth_file_lookup(const char *path, const char *registry, struct auth_cred *ret, bool *found,
                     struct error *err)
{
        *found = false;
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return errno == ENOENT || errno == ENOTDIR ? 0
                                                           : error_set(err, errno, "'%s'", path);
        struct stat st;
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > AUTH_FILE_MAX)
                return error_set(err, 0, "'%s' is not a file of at most 1 MiB", path);
        _cleanup_free_ char *buf = malloc((size_t)st.st_size + 1);
        if (!buf)
                return error_set(err, ENOMEM, "'%s'", path);
        size_t got = 0;
        while (got < (size_t)st.st_size) {
                ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r <= 0)
                        return error_set(err, r < 0 ? errno : 0, "read '%s'", path);
                got += (size_t)r;
        }
        buf[got] = '\0';
        int rc = auth_json_lookup(buf, got, path, registry, ret, found, err);
        explicit_bzero(buf, got);
        return rc;
}

/* Append the file `name` of `dir` to the buffer */
static int append_file(int dir, const char *name, const char *where, char **buf, size_t *len,
                       struct error *err)
{
        _cleanup_close_ int fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) < 0)
                return error_set(err, errno, "'%s/%s'", where, name);
        if (!S_ISREG(st.st_mode) || st.st_size > AUTH_CA_MAX - (off_t)*len)
                return error_set(err, 0, "'%s/%s' is not a file, or the CAs are over 4 MiB", where,
                                 name);
        char *b = realloc(*buf, *len + (size_t)st.st_size + 2);
        if (!b)
                return error_set(err, ENOMEM, "CAs");
        *buf = b;
        ssize_t n = read(fd, b + *len, (size_t)st.st_size);
        if (n < 0)
                return error_set(err, errno, "read '%s/%s'", where, name);
        *len += (size_t)n;
        b[(*len)++] = '\n';
        b[*len] = '\0';
        return 0;
}

int auth_read_cas(const char *const *dirs, size_t n, const char *registry, char **ret,
                  size_t *ret_len, char *ret_dir, size_t dir_len, struct error *err)
{
        *ret = NULL;
        *ret_len = 0;
        if (strchr(registry, '/') || !strcmp(registry, "..") || !strcmp(registry, "."))
                return error_set(err, 0, "registry '%s' is no directory name", registry);
        for (size_t i = 0; i < n; i++) {
                char where[4096];
                if (!dirs[i] ||
                    snprintf(where, sizeof where, "%s/%s", dirs[i], registry) >= (int)sizeof where)
                        continue;
                int fd = open(where, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (fd < 0)
                        continue;
                DIR *d = fdopendir(fd);
                if (!d) {
                        close(fd);
                        return error_set(err, errno, "'%s'", where);
                }
                int rc = 0;
                for (struct dirent *e; rc == 0 && (e = readdir(d));) {
                        size_t k = strlen(e->d_name);
                        if (k > 4 && !strcmp(e->d_name + k - 4, ".crt"))
                                rc = append_file(dirfd(d), e->d_name, where, ret, ret_len, err);
                }
                closedir(d);
                if (rc < 0) {
                        free(*ret);
                        *ret = NULL;
                        return -1;
                }
                snprintf(ret_dir, dir_len, "%s", where);
                return 0;
        }
        return 0;
}
