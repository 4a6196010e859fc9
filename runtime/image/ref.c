/* ref.c - image references (ref.h): the distribution spec's grammar, checked one part at a
 * time so that each refusal says which part and why, and docker's normalisation of short
 * names. What this accepts becomes a file name in the store (names/, '/' written as '+') and a
 * path in registry URLs, so it admits only the characters the grammar allows: no "..", no
 * empty component, no '/' at either end, nothing a URL or a path would read otherwise. */
#include "ref.h"

#include <stdio.h>
#include <string.h>

#define REF_MAX       255 /* the whole reference, and its name, as the spec bounds them */
#define REF_TAG_MAX   128
#define REF_HOST_MAX  253
#define DOCKER_HUB    "docker.io"
#define DOCKER_HUB_IO "registry-1.docker.io"

static bool is_lower_alnum(char c)
{
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool is_alnum(char c)
{
        return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

/* A registry: host[:port], the host's labels letters, digits and '-', or "[IPv6]" */
static int check_registry(const char *s, size_t n, struct error *err)
{
        const char *colon = memchr(s, ':', n);
        size_t hn = n;
        if (n && s[0] == '[') {
                const char *close = memchr(s, ']', n);
                if (!close)
                        return error_set(err, 0, "registry '%.*s' has no closing ']'", (int)n, s);
                for (const char *p = s + 1; p < close; p++)
                        if (!(is_alnum(*p) || *p == ':' || *p == '.'))
                                return error_set(err, 0, "registry '%.*s' is no IPv6 address",
                                                 (int)n, s);
                hn = (size_t)(close - s) + 1;
                colon = hn < n && s[hn] == ':' ? s + hn : NULL;
                if (hn < n && !colon)
                        return error_set(err, 0, "registry '%.*s' has text after ']'", (int)n, s);
        } else {
                if (colon)
                        hn = (size_t)(colon - s);
                if (hn == 0 || hn > REF_HOST_MAX)
                        return error_set(err, 0, "registry '%.*s' has no host name", (int)n, s);
                for (size_t i = 0; i < hn; i++) {
                        char c = s[i];
                        bool edge = i == 0 || i + 1 == hn || s[i - 1] == '.' || s[i + 1] == '.';
                        if (is_alnum(c) || (c == '-' && !edge) || (c == '.' && !edge))
                                continue;
                        return error_set(err, 0, "registry '%.*s' is not a host name", (int)n, s);
                }
        }
        if (!colon)
                return 0;
        size_t pn = n - (size_t)(colon + 1 - s);
        if (pn == 0 || pn > 5)
                return error_set(err, 0, "registry '%.*s' has no port number", (int)n, s);
        unsigned port = 0;
        for (size_t i = 0; i < pn; i++) {
                if (colon[1 + i] < '0' || colon[1 + i] > '9')
                        return error_set(err, 0, "registry '%.*s' has no port number", (int)n, s);
                port = port * 10 + (unsigned)(colon[1 + i] - '0');
        }
        if (port == 0 || port > 65535)
                return error_set(err, 0, "registry '%.*s': port %u is out of range", (int)n, s,
                                 port);
        return 0;
}

/* One path component: lowercase letters and digits, separated by '.', one or two '_', or any
 * number of '-' */
static int check_component(const char *s, size_t n, struct error *err)
{
        if (n == 0)
                return error_set(err, 0, "repository has an empty component");
        if (n == 2 && s[0] == '.' && s[1] == '.')
                return error_set(err, 0, "repository has a '..' component");
        for (size_t i = 0; i < n; i++)
                if (s[i] >= 'A' && s[i] <= 'Z')
                        return error_set(err, 0, "repository '%.*s' must be lowercase", (int)n, s);
        if (!is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
                return error_set(err, 0,
                                 "repository component '%.*s' must begin and end with a letter or "
                                 "digit",
                                 (int)n, s);
        for (size_t i = 0; i < n;) {
                if (is_lower_alnum(s[i])) {
                        i++;
                        continue;
                }
                size_t j = i;
                while (j < n && !is_lower_alnum(s[j]))
                        j++;
                size_t k = j - i;
                bool dashes = strspn(s + i, "-") >= k;
                bool sep = (k == 1 && (s[i] == '.' || s[i] == '_')) ||
                           (k == 2 && s[i] == '_' && s[i + 1] == '_') || dashes;
                if (!sep)
                        return error_set(err, 0,
                                         "repository component '%.*s' holds '%.*s', which a "
                                         "reference may not",
                                         (int)n, s, (int)k, s + i);
                i = j;
        }
        return 0;
}

static int check_tag(const char *s, struct error *err)
{
        size_t n = strlen(s);
        if (n == 0 || n > REF_TAG_MAX)
                return error_set(err, 0, "tag '%s' must be 1 to %d characters", s, REF_TAG_MAX);
        for (size_t i = 0; i < n; i++) {
                char c = s[i];
                if (is_alnum(c) || c == '_' || (i > 0 && (c == '.' || c == '-')))
                        continue;
                return error_set(err, 0, "tag '%s' holds a character a tag may not", s);
        }
        return 0;
}

static int check_digest(const char *s, struct error *err)
{
        if (strncmp(s, "sha256:", 7) != 0)
                return error_set(err, 0, "digest '%s' is not sha256:HEX", s);
        if (strlen(s + 7) != 64 || strspn(s + 7, "0123456789abcdef") != 64)
                return error_set(err, 0, "digest '%s' is not 64 lowercase hex digits", s);
        return 0;
}

/* The first component names a registry when it has '.' or ':' or is "localhost" */
static bool names_registry(const char *s, size_t n)
{
        return memchr(s, '.', n) || memchr(s, ':', n) || (n == 9 && !memcmp(s, "localhost", 9)) ||
               (n && s[0] == '[');
}

/* Split "name[:tag][@digest]" (in `buf`, changed) into its parts */
static int split(char *buf, char **ret_name, char **ret_tag, char **ret_digest, struct error *err)
{
        char *at = strchr(buf, '@');
        *ret_digest = NULL;
        if (at) {
                *at = '\0';
                *ret_digest = at + 1;
                if (check_digest(*ret_digest, err) < 0)
                        return -1;
        }
        char *slash = strrchr(buf, '/');
        char *colon = strrchr(slash ? slash : buf, ':');
        /* a colon before the last '/' is a registry's port, not a tag */
        *ret_tag = NULL;
        if (colon) {
                *colon = '\0';
                *ret_tag = colon + 1;
                if (check_tag(*ret_tag, err) < 0)
                        return -1;
        }
        *ret_name = buf;
        return 0;
}

static int fill_name(const char *name, struct image_ref *r, struct error *err)
{
        const char *slash = strchr(name, '/');
        const char *repo = name;
        if (slash && names_registry(name, (size_t)(slash - name))) {
                size_t n = (size_t)(slash - name);
                if (check_registry(name, n, err) < 0)
                        return -1;
                if (n >= sizeof r->registry)
                        return error_set(err, 0, "registry is too long");
                memcpy(r->registry, name, n);
                r->registry[n] = '\0';
                if (!strcmp(r->registry, "index.docker.io") || !strcmp(r->registry, DOCKER_HUB_IO))
                        strcpy(r->registry, DOCKER_HUB);
                repo = slash + 1;
        } else {
                strcpy(r->registry, DOCKER_HUB);
        }
        if (!*repo)
                return error_set(err, 0, "reference names no repository");
        for (const char *p = repo;;) {
                const char *end = strchr(p, '/');
                size_t n = end ? (size_t)(end - p) : strlen(p);
                if (check_component(p, n, err) < 0)
                        return -1;
                if (!end)
                        break;
                p = end + 1;
        }
        bool library = !strcmp(r->registry, DOCKER_HUB) && !strchr(repo, '/');
        int w = snprintf(r->repository, sizeof r->repository, "%s%s", library ? "library/" : "",
                         repo);
        if (w < 0 || (size_t)w >= sizeof r->repository ||
            strlen(r->registry) + 1 + (size_t)w > REF_MAX)
                return error_set(err, 0, "name is longer than %d bytes", REF_MAX);
        return 0;
}

int image_ref_parse(const char *s, struct image_ref *ret, struct error *err)
{
        char buf[REF_MAX + 1];
        memset(ret, 0, sizeof *ret);
        size_t n = strnlen(s, REF_MAX + 1);
        if (n == 0)
                return error_set(err, 0, "image reference is empty");
        if (n > REF_MAX)
                return error_set(err, 0, "image reference is longer than %d bytes", REF_MAX);
        for (size_t i = 0; i < n; i++)
                if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 0x7f)
                        return error_set(err, 0,
                                         "image reference holds a blank, a control "
                                         "character or a byte that is not ASCII");
        memcpy(buf, s, n + 1);
        char *name, *tag, *digest;
        if (split(buf, &name, &tag, &digest, err) < 0 || fill_name(name, ret, err) < 0)
                return error_wrap(err, "image reference '%s'", s);
        if (tag)
                strcpy(ret->tag, tag);
        else if (!digest)
                strcpy(ret->tag, "latest");
        if (digest)
                strcpy(ret->digest, digest);
        return 0;
}

int image_ref_format(const struct image_ref *r, char *ret, size_t len)
{
        int w = snprintf(ret, len, "%s/%s%s%s%s%s", r->registry, r->repository,
                         r->tag[0] ? ":" : "", r->tag, r->digest[0] ? "@" : "", r->digest);
        return w < 0 || (size_t)w >= len ? -1 : 0;
}

const char *image_ref_host(const struct image_ref *r)
{
        return strcmp(r->registry, DOCKER_HUB) ? r->registry : DOCKER_HUB_IO;
}
