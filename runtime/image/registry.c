/* registry.c - a registry's HTTP API with libcurl (registry.h).
 *
 * libcurl does the HTTP and the TLS; crib decides everything a registry could turn against
 * the user:
 * - redirects are crib's, not libcurl's (CURLOPT_FOLLOWLOCATION stays off): at most 5, to
 *   https only (http only to a loopback registry the user named with http), and a redirect to
 *   another host or port never carries the Authorization header (blobs are served from S3
 *   and CDNs: their hosts must not see the registry's token or the user's password);
 * - the token is fetched for this repository's pull scope alone, whatever scope the challenge
 *   names, and it must be printable ASCII: it goes into a header line; the realm is https (http
 *   only when the registry itself is plain http on this machine), and --tls-verify=false is for
 *   the registry's own host and port alone: a realm or a redirect elsewhere is verified, since
 *   the realm gets the user's password;
 * - a body goes to a sink, which sees the response's head first and may end the transfer
 *   before any byte (a Content-Length over its limit), and every byte after (a body longer
 *   than it may be); an error body is read up to 8 KiB, for its message;
 * - a connection that opens in 30 s and moves a byte in 30 s, or it ends (no hang).
 */
#define _GNU_SOURCE
#include "registry.h"

#include <curl/curl.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ERRBODY_MAX    8192
#define TOKEN_MAX      16384
#define SYSTEM_CAS_MAX (8 << 20)

struct registry {
        CURL *curl;
        struct registry_opts o;
        char base[600];     /* "https://HOST" */
        char scope[600];    /* the scope the token is for */
        char *authz;        /* "Authorization: ..." or NULL (anonymous) */
        char insecure[700]; /* "https://HOST:PORT" --tls-verify=false is for, or "" */
        CURLcode last;      /* the last transfer's libcurl result */
        char curl_err[CURL_ERROR_SIZE];
};

/* one transfer's state */
struct xfer {
        const struct registry_sink *sink;
        struct registry_head head;
        bool to_sink, failed, enough;
        char body[ERRBODY_MAX + 1]; /* a response that is not for the sink */
        size_t blen;
        char www[2048];
        char location[2048];
        struct error *err;
};

/* "localhost", "[::1]" or a dotted 127.x.y.z, with or without ":PORT": a host name that only
 * starts with "127." (127.0.0.1.example.com) is anyone's */
bool registry_is_loopback(const char *host)
{
        size_t n = strcspn(host, ":");
        if (host[0] == '[')
                return !strncmp(host, "[::1]", 5) && (!host[5] || host[5] == ':');
        if (n == 9 && !strncmp(host, "localhost", 9))
                return true;
        unsigned a, b, c, d;
        int end = -1;
        char ip[16];
        if (n >= sizeof ip || strspn(host, "0123456789.") != n)
                return false;
        memcpy(ip, host, n);
        ip[n] = '\0';
        return sscanf(ip, "%u.%u.%u.%u%n", &a, &b, &c, &d, &end) == 4 && end == (int)n &&
               a == 127 && b < 256 && c < 256 && d < 256;
}

static void head_reset(struct xfer *x)
{
        memset(&x->head, 0, sizeof x->head);
        x->head.length = -1;
        x->head.range_start = -1;
        x->www[0] = x->location[0] = '\0';
}

/* "Name: value\r\n" -> value (trimmed) when the name is `name` */
static bool header_is(const char *line, size_t n, const char *name, char *val, size_t len)
{
        size_t k = strlen(name);
        if (n <= k || strncasecmp(line, name, k) || line[k] != ':')
                return false;
        const char *v = line + k + 1;
        size_t vn = n - k - 1;
        while (vn && (*v == ' ' || *v == '\t'))
                v++, vn--;
        while (vn && (v[vn - 1] == '\r' || v[vn - 1] == '\n' || v[vn - 1] == ' '))
                vn--;
        snprintf(val, len, "%.*s", (int)(vn < len ? vn : len - 1), v);
        return true;
}

static void head_line(struct xfer *x, const char *line, size_t n)
{
        char v[2048];
        if (header_is(line, n, "Content-Length", v, sizeof v)) {
                char *end;
                long long l = strtoll(v, &end, 10);
                x->head.length = *end || end == v || l < 0 ? -1 : l;
        } else if (header_is(line, n, "Content-Type", v, sizeof v)) {
                v[strcspn(v, ";")] = '\0';
                snprintf(x->head.content_type, sizeof x->head.content_type, "%.127s", v);
        } else if (header_is(line, n, "Docker-Content-Digest", v, sizeof v)) {
                snprintf(x->head.digest, sizeof x->head.digest, "%.79s", v);
        } else if (header_is(line, n, "Content-Range", v, sizeof v)) {
                long long s;
                if (sscanf(v, "bytes %lld-", &s) == 1 && s >= 0)
                        x->head.range_start = s;
        } else if (header_is(line, n, "Location", v, sizeof v)) {
                snprintf(x->location, sizeof x->location, "%s", v);
        } else if (header_is(line, n, "WWW-Authenticate", v, sizeof v)) {
                /* a Bearer challenge wins over a Basic one */
                if (!x->www[0] || !strncasecmp(v, "Bearer", 6))
                        snprintf(x->www, sizeof x->www, "%s", v);
        }
}

static size_t on_header(char *line, size_t size, size_t nmemb, void *ctx)
{
        struct xfer *x = ctx;
        size_t n = size * nmemb;
        if (n >= 5 && !strncmp(line, "HTTP/", 5)) {
                head_reset(x);
                const char *sp = memchr(line, ' ', n);
                x->head.status = sp ? strtol(sp + 1, NULL, 10) : 0;
                x->to_sink = false;
                return n;
        }
        if (n <= 2 && (line[0] == '\r' || line[0] == '\n')) {
                if (x->head.status >= 100 && x->head.status < 200)
                        return n;
                x->to_sink = x->sink && (x->head.status == 200 || x->head.status == 206);
                if (x->to_sink && x->sink->head &&
                    x->sink->head(x->sink->ctx, &x->head, x->err) < 0) {
                        x->failed = true;
                        return 0;
                }
                return n;
        }
        head_line(x, line, n);
        return n;
}

static size_t on_data(char *buf, size_t size, size_t nmemb, void *ctx)
{
        struct xfer *x = ctx;
        size_t n = size * nmemb;
        if (x->to_sink) {
                if (x->sink->data(x->sink->ctx, buf, n, x->err) < 0) {
                        x->failed = true;
                        return 0;
                }
                return n;
        }
        size_t room = ERRBODY_MAX - x->blen;
        memcpy(x->body + x->blen, buf, n < room ? n : room);
        x->blen += n < room ? n : room;
        x->body[x->blen] = '\0';
        if (n >= room) {
                x->enough = true; /* an endless error body ends here */
                return 0;
        }
        return n;
}

/* The registry's own words from an error body: {"errors":[{"code":..,"message":..}]} */
static void error_words(const char *body, size_t len, char *buf, size_t blen)
{
        buf[0] = '\0';
        json_object *doc = json_tokener_parse(body), *errs, *e, *v;
        (void)len;
        if (doc && json_object_object_get_ex(doc, "errors", &errs) &&
            json_object_is_type(errs, json_type_array) && json_object_array_length(errs) > 0 &&
            (e = json_object_array_get_idx(errs, 0)) && json_object_is_type(e, json_type_object)) {
                const char *code = "", *msg = "";
                if (json_object_object_get_ex(e, "code", &v) &&
                    json_object_is_type(v, json_type_string))
                        code = json_object_get_string(v);
                if (json_object_object_get_ex(e, "message", &v) &&
                    json_object_is_type(v, json_type_string))
                        msg = json_object_get_string(v);
                snprintf(buf, blen, ": %.64s%s%.200s", code, *code && *msg ? ": " : "", msg);
        }
        json_object_put(doc);
}

static int curl_failure(struct registry *r, CURLcode rc, const char *url, struct error *err)
{
        error_set(err, 0, "GET '%s': %s%s%s", url, curl_easy_strerror(rc),
                  r->curl_err[0] ? ": " : "", r->curl_err);
        if (rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE)
                error_hint(err,
                           "crib trusts the system's CAs and the registry's own, in "
                           "/etc/containers/certs.d/%s/*.crt, ~/.config/containers/certs.d/%s/ "
                           "or /etc/docker/certs.d/%s/ (or --cert-dir DIR); --tls-verify=false "
                           "only for a registry you trust on a network you trust",
                           r->o.registry, r->o.registry, r->o.registry);
        if (rc == CURLE_OPERATION_TIMEDOUT)
                error_hint(err, "the registry stopped sending for %ld s", r->o.low_speed_time);
        return -1;
}

static void origin_of(const char *url, char *origin, size_t len);

/* One request, no redirect followed; the head and body in `x` */
static int perform(struct registry *r, const char *url, const char *authz, const char *accept,
                   int64_t from, struct xfer *x, struct error *err)
{
        struct curl_slist *hdrs = NULL;
        char acc[1024], range[64];
        if (accept) {
                snprintf(acc, sizeof acc, "Accept: %s", accept);
                hdrs = curl_slist_append(hdrs, acc);
        }
        if (authz)
                hdrs = curl_slist_append(hdrs, authz);
        snprintf(range, sizeof range, "%lld-", (long long)from);
        /* --tls-verify=false is for the registry the user named, not for a token realm or a
         * redirect's host it names: those hosts' certificates are checked as ever */
        char here[700];
        origin_of(url, here, sizeof here);
        long verify = !r->insecure[0] || strcmp(here, r->insecure);
        curl_easy_setopt(r->curl, CURLOPT_SSL_VERIFYPEER, verify);
        curl_easy_setopt(r->curl, CURLOPT_SSL_VERIFYHOST, verify ? 2L : 0L);
        x->err = err;
        head_reset(x);
        r->curl_err[0] = '\0';
        curl_easy_setopt(r->curl, CURLOPT_URL, url);
        curl_easy_setopt(r->curl, CURLOPT_HTTPHEADER, hdrs);
        curl_easy_setopt(r->curl, CURLOPT_RANGE, from > 0 ? range : NULL);
        curl_easy_setopt(r->curl, CURLOPT_HEADERDATA, x);
        curl_easy_setopt(r->curl, CURLOPT_WRITEDATA, x);
        CURLcode rc = r->last = curl_easy_perform(r->curl);
        curl_easy_setopt(r->curl, CURLOPT_HTTPHEADER, NULL);
        curl_slist_free_all(hdrs);
        if (x->failed)
                return -1;
        if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && x->enough))
                return curl_failure(r, rc, url, err);
        return 0;
}

/* `url`'s scheme, host and port, for a redirect's checks */
static int url_parts(const char *base, const char *rel, char *ret_url, size_t len, char *origin,
                     size_t olen, bool *http, char *host, size_t hlen, struct error *err)
{
        CURLU *u = curl_url();
        char *s = NULL, *h = NULL, *p = NULL, *full = NULL;
        int rc = -1;
        if (!u)
                return error_set(err, ENOMEM, "url");
        if (curl_url_set(u, CURLUPART_URL, base, 0) || curl_url_set(u, CURLUPART_URL, rel, 0) ||
            curl_url_get(u, CURLUPART_SCHEME, &s, 0) || curl_url_get(u, CURLUPART_HOST, &h, 0) ||
            curl_url_get(u, CURLUPART_PORT, &p, CURLU_DEFAULT_PORT) ||
            curl_url_get(u, CURLUPART_URL, &full, 0) || strlen(full) >= len) {
                error_set(err, 0, "it redirects to '%.200s', which is no URL crib follows", rel);
        } else {
                snprintf(ret_url, len, "%s", full);
                snprintf(origin, olen, "%s://%s:%s", s, h, p);
                snprintf(host, hlen, "%s", h);
                *http = !strcmp(s, "http");
                if (strcmp(s, "https") && strcmp(s, "http"))
                        error_set(err, 0, "it redirects to '%.200s', which is not https", rel);
                else
                        rc = 0;
        }
        curl_free(s), curl_free(h), curl_free(p), curl_free(full);
        curl_url_cleanup(u);
        return rc;
}

static void origin_of(const char *url, char *origin, size_t len)
{
        char u[4096], h[512];
        bool http;
        struct error e;
        if (url_parts(url, url, u, sizeof u, origin, len, &http, h, sizeof h, &e) < 0)
                origin[0] = '\0';
}

/* The registry's own CAs, and the system's: libcurl's CA blob replaces its CA file (with
 * OpenSSL), so the system's bundle (libcurl's default, /etc/ssl/certs/ca-certificates.crt on
 * Debian) goes into the blob too, for a redirect to a CDN the system's CAs vouch for */
static int with_system_cas(struct registry *r, const char *pem, size_t len, struct error *err)
{
        char *sys = NULL, *all = NULL;
        size_t slen = 0;
        curl_easy_getinfo(r->curl, CURLINFO_CAINFO, &sys);
        FILE *f = sys ? fopen(sys, "re") : NULL;
        if (f) {
                all = malloc(len + SYSTEM_CAS_MAX + 2);
                if (all)
                        slen = fread(all, 1, SYSTEM_CAS_MAX, f);
                fclose(f);
        } else {
                all = malloc(len + 2);
        }
        if (!all)
                return error_set(err, ENOMEM, "CAs");
        all[slen++] = '\n';
        memcpy(all + slen, pem, len);
        struct curl_blob b = {all, slen + len, CURL_BLOB_COPY};
        CURLcode rc = curl_easy_setopt(r->curl, CURLOPT_CAINFO_BLOB, &b);
        free(all);
        if (rc != CURLE_OK)
                return error_set(err, 0, "the registry's CAs: %s", curl_easy_strerror(rc));
        return 0;
}

int registry_new(const struct registry_opts *o, struct registry **ret, struct error *err)
{
        if (o->plain_http && !registry_is_loopback(o->host))
                return error_set(err, 0, "http:// is for a registry on this machine only, not '%s'",
                                 o->host);
        struct registry *r = calloc(1, sizeof *r);
        if (!r || !(r->curl = curl_easy_init())) {
                free(r);
                return error_set(err, ENOMEM, "libcurl");
        }
        r->o = *o;
        snprintf(r->base, sizeof r->base, "%s://%s", o->plain_http ? "http" : "https", o->host);
        CURL *c = r->curl;
        curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
        curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https,http");
        curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, o->connect_timeout);
        curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, o->low_speed_time);
        curl_easy_setopt(c, CURLOPT_USERAGENT, "crib/" CRIB_VERSION);
        curl_easy_setopt(c, CURLOPT_ERRORBUFFER, r->curl_err);
        curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
        if (!o->tls_verify) {
                char h[620];
                snprintf(h, sizeof h, "https://%s", o->host);
                origin_of(h, r->insecure, sizeof r->insecure);
        }
        if (o->ca_pem && with_system_cas(r, o->ca_pem, o->ca_len, err) < 0) {
                registry_free(r);
                return -1;
        }
        *ret = r;
        return 0;
}

void registry_free(struct registry *r)
{
        if (!r)
                return;
        curl_easy_cleanup(r->curl);
        if (r->authz)
                explicit_bzero(r->authz, strlen(r->authz));
        free(r->authz);
        free(r);
}

/* A redirect's target, checked: a URL, https (http only to a loopback host of a registry the
 * user named with http), nothing odd in it */
static int redirect(struct registry *r, const char *cur, const char *location, char *ret,
                    size_t len, struct error *err)
{
        char next[4096], origin[700], host[512];
        bool http;
        if (!location[0])
                return error_set(err, 0, "the registry redirects without a Location");
        for (const char *c = location; *c; c++)
                if ((unsigned char)*c <= ' ' || (unsigned char)*c >= 0x7f)
                        return error_set(err, 0,
                                         "the registry redirects to a URL with a blank "
                                         "or a control character");
        if (url_parts(cur, location, next, sizeof next, origin, sizeof origin, &http, host,
                      sizeof host, err) < 0)
                return -1;
        if (http && !(r->o.plain_http && registry_is_loopback(host)))
                return error_set(err, 0, "the registry redirects to '%.200s', which is not https",
                                 next);
        snprintf(ret, len, "%s", next);
        return 0;
}

static int set_authz(struct registry *r, const char *scheme, const char *value, struct error *err)
{
        char *a = NULL;
        if (asprintf(&a, "Authorization: %s %s", scheme, value) < 0)
                return error_set(err, ENOMEM, "token");
        if (r->authz)
                explicit_bzero(r->authz, strlen(r->authz));
        free(r->authz);
        r->authz = a;
        return 0;
}

static int basic_value(const struct auth_cred *c, char *buf, size_t len)
{
        char raw[1300];
        int n = snprintf(raw, sizeof raw, "%s:%s", c->user, c->pass);
        int rc = n < 0 || (size_t)n >= sizeof raw ? -1 : auth_base64(raw, (size_t)n, buf, len);
        explicit_bzero(raw, sizeof raw);
        return rc;
}

struct membuf {
        char buf[65536 + 1];
        size_t len;
};

static int membuf_data(void *ctx, const void *p, size_t n, struct error *err)
{
        struct membuf *m = ctx;
        if (n > sizeof m->buf - 1 - m->len)
                return error_set(err, 0, "the token server's answer is longer than 64 KiB");
        memcpy(m->buf + m->len, p, n);
        m->len += n;
        m->buf[m->len] = '\0';
        return 0;
}

/* The token from the realm's answer: {"token": ..} or {"access_token": ..}, printable */
static int token_of(struct registry *r, const struct membuf *m, struct error *err)
{
        json_object *doc = json_tokener_parse(m->buf), *t = NULL;
        const char *tok = NULL;
        if (doc && ((json_object_object_get_ex(doc, "token", &t) &&
                     json_object_is_type(t, json_type_string)) ||
                    (json_object_object_get_ex(doc, "access_token", &t) &&
                     json_object_is_type(t, json_type_string))))
                tok = json_object_get_string(t);
        int rc = -1;
        if (!tok || !*tok)
                error_set(err, 0, "the token server's answer holds no token");
        else if (strlen(tok) > TOKEN_MAX)
                error_set(err, 0, "the token server's token is longer than %d bytes", TOKEN_MAX);
        else if (strspn(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                             "-._~+/=") != strlen(tok))
                error_set(err, 0, "the token server's token holds characters a token may not");
        else
                rc = set_authz(r, "Bearer", tok, err);
        json_object_put(doc);
        return rc;
}

/* A bearer token for this repository's pull scope from the challenge's realm, with the user's
 * password when there is one; cached (r->scope) for the run */
static int get_token(struct registry *r, const struct auth_challenge *ch, struct error *err)
{
        char scope[600], url[4096], tmp[4096], origin[700], host[512], basic[1800], hdr[1900];
        bool http;
        snprintf(scope, sizeof scope, "repository:%s:pull", r->o.repository);
        if (url_parts(ch->realm, ch->realm, tmp, sizeof tmp, origin, sizeof origin, &http, host,
                      sizeof host, err) < 0)
                return error_wrap(err, "token realm");
        /* http only as the registry itself speaks it: on this machine, named so by the user */
        if (http && !(r->o.plain_http && registry_is_loopback(host)))
                return error_set(err, 0, "the registry's token realm '%.200s' is not https",
                                 ch->realm);
        char *esc_service = curl_easy_escape(r->curl, ch->service, 0);
        char *esc_scope = curl_easy_escape(r->curl, scope, 0);
        int n = snprintf(url, sizeof url, "%s%sscope=%s%s%s", tmp, strchr(tmp, '?') ? "&" : "?",
                         esc_scope ? esc_scope : "", ch->service[0] ? "&service=" : "",
                         ch->service[0] && esc_service ? esc_service : "");
        curl_free(esc_service), curl_free(esc_scope);
        if (n < 0 || (size_t)n >= sizeof url)
                return error_set(err, 0, "the registry's token realm is too long");
        const char *authz = NULL;
        if (r->o.cred) {
                if (basic_value(r->o.cred, basic, sizeof basic) < 0)
                        return error_set(err, 0, "credentials too long");
                snprintf(hdr, sizeof hdr, "Authorization: Basic %s", basic);
                authz = hdr;
        }
        struct membuf *m = calloc(1, sizeof *m);
        struct xfer *x = calloc(1, sizeof *x);
        struct registry_sink sink = {NULL, membuf_data, m};
        int rc = -1;
        if (!m || !x)
                error_set(err, ENOMEM, "token");
        else if ((x->sink = &sink, perform(r, url, authz, "application/json", 0, x, err)) < 0)
                error_wrap(err, "token");
        else if (x->head.status != 200) {
                char words[300];
                error_words(x->body, x->blen, words, sizeof words);
                error_set(err, 0, "the token server answered %ld%s", x->head.status, words);
                if (x->head.status == 401 || x->head.status == 403)
                        error_hint(err, "%s",
                                   r->o.cred ? "it refused the user name and password "
                                               "crib found for the registry"
                                             : "the registry needs a user name and "
                                               "password: podman login REGISTRY");
        } else if (token_of(r, m, err) == 0) {
                snprintf(r->scope, sizeof r->scope, "%s", scope);
                rc = 0;
        }
        explicit_bzero(basic, sizeof basic), explicit_bzero(hdr, sizeof hdr);
        free(m), free(x);
        return rc;
}

/* Answer a 401's challenge: a token (Bearer) or the user's password (Basic) */
static int authenticate(struct registry *r, const char *www, struct error *err)
{
        struct auth_challenge ch;
        if (auth_parse_challenge(www, &ch, err) < 0)
                return error_wrap(err, "the registry '%s'", r->o.registry);
        if (!strcmp(ch.scheme, "Bearer"))
                return get_token(r, &ch, err);
        if (!r->o.cred)
                if (!r->o.cred) {
                        error_set(err, 0,
                                  "the registry '%s' needs a user name and password, and crib "
                                  "found none for it",
                                  r->o.registry);
                        return error_hint(err,
                                          "podman login %s (or docker login) writes them where "
                                          "crib reads them; or --authfile FILE",
                                          r->o.registry);
                }
        char basic[1800];
        if (basic_value(r->o.cred, basic, sizeof basic) < 0)
                return error_set(err, 0, "credentials too long");
        int rc = set_authz(r, "Basic", basic, err);
        explicit_bzero(basic, sizeof basic);
        return rc;
}

static int status_error(struct registry *r, const char *path, const struct xfer *x,
                        struct error *err)
{
        char words[300];
        error_words(x->body, x->blen, words, sizeof words);
        error_set(err, 0, "the registry answered %ld to GET /v2/%s/%s%s", x->head.status,
                  r->o.repository, path, words);
        if (x->head.status == 401 || x->head.status == 403)
                error_hint(err, "crib reads credentials from $REGISTRY_AUTH_FILE, "
                                "$XDG_RUNTIME_DIR/containers/auth.json, "
                                "~/.config/containers/auth.json or ~/.docker/config.json "
                                "(podman login and docker login write them), or --authfile FILE");
        if (x->head.status == 404)
                error_hint(err, "is '%s' spelled as the registry has it?", r->o.repository);
        return -1;
}

/* --tls-verify=false to a loopback registry that does not speak TLS: plain http, as podman
 * does, said once by the caller's warning about --tls-verify=false */
static bool fall_back(struct registry *r, int hops, const char *path, char *url, size_t len)
{
        if (!r->o.http_fallback || hops || r->o.plain_http || r->last != CURLE_SSL_CONNECT_ERROR ||
            !registry_is_loopback(r->o.host))
                return false;
        r->o.plain_http = true;
        snprintf(r->base, sizeof r->base, "http://%s", r->o.host);
        snprintf(url, len, "%s/v2/%s/%s", r->base, r->o.repository, path);
        return true;
}

int registry_get(struct registry *r, const char *path, const char *accept, int64_t from,
                 const struct registry_sink *sink, struct registry_head *ret, struct error *err)
{
        char url[4096], origin[700], here[700];
        snprintf(url, sizeof url, "%s/v2/%s/%s", r->base, r->o.repository, path);
        origin_of(url, origin, sizeof origin);
        bool authed = false;
        struct xfer *x = calloc(1, sizeof *x);
        if (!x)
                return error_set(err, ENOMEM, "GET");
        x->sink = sink;
        int rc = -1;
        for (int hops = 0;;) {
                origin_of(url, here, sizeof here);
                bool same = !strcmp(here, origin);
                x->blen = 0;
                x->enough = false;
                if (perform(r, url, same ? r->authz : NULL, accept, from, x, err) < 0) {
                        if (!fall_back(r, hops, path, url, sizeof url))
                                break;
                        origin_of(url, origin, sizeof origin);
                        continue;
                }
                long st = x->head.status;
                if (st == 200 || st == 206) {
                        *ret = x->head;
                        rc = 0;
                        break;
                }
                if (st == 301 || st == 302 || st == 303 || st == 307 || st == 308) {
                        if (++hops > REGISTRY_MAX_REDIRECTS) {
                                error_set(err, 0, "GET /v2/%s/%s: more than %d redirects",
                                          r->o.repository, path, REGISTRY_MAX_REDIRECTS);
                                break;
                        }
                        if (redirect(r, url, x->location, url, sizeof url, err) < 0)
                                break;
                        continue;
                }
                if (st == 401 && same && !authed && x->www[0]) {
                        authed = true;
                        if (authenticate(r, x->www, err) < 0)
                                break;
                        continue;
                }
                status_error(r, path, x, err);
                break;
        }
        free(x);
        return rc;
}
