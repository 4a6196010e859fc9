/* digest.c - digests and descriptors (digest.h).
 *
 * sha256 is OpenSSL's libcrypto, JSON is json-c's. A descriptor's digest must be sha256 and 64
 * lowercase hex digits, and the blob it names must have exactly its bytes and its size before
 * its JSON is parsed.
 */
#define _GNU_SOURCE
#include "digest.h"

#include <errno.h>
#include <inttypes.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "source.h"

void digest_sha256_hex(const void *data, size_t len, char hex[65])
{
        unsigned char md[EVP_MAX_MD_SIZE];
        unsigned n = 0;
        EVP_Digest(data, len, md, &n, EVP_sha256(), NULL);
        for (unsigned i = 0; i < n && i < 32; i++)
                snprintf(hex + 2 * i, 3, "%02x", md[i]);
        hex[64] = '\0';
}

int digest_json_parse(const char *text, size_t len, const char *what, struct json_object **ret,
                      struct error *err)
{
        struct json_tokener *tok = json_tokener_new_ex(64);
        if (!tok)
                return error_set(err, ENOMEM, "out of memory");
        *ret = json_tokener_parse_ex(tok, text, (int)len);
        enum json_tokener_error je = json_tokener_get_error(tok);
        size_t end = json_tokener_get_parse_end(tok);
        json_tokener_free(tok);
        if (!*ret || je != json_tokener_success)
                return error_set(err, 0, "%s is not JSON: %s", what,
                                 json_tokener_error_desc(je != json_tokener_success
                                                                 ? je
                                                                 : json_tokener_error_parse_eof));
        for (; end < len; end++)
                if (!strchr(" \t\r\n", text[end])) {
                        json_object_put(*ret);
                        *ret = NULL;
                        return error_set(err, 0, "%s has more after its JSON value", what);
                }
        return 0;
}

int digest_hex(const char *digest, const char *where, const char **ret, struct error *err)
{
        if (!digest || strncmp(digest, "sha256:", 7)) {
                error_set(err, 0, "%s: digest '%s' is not sha256:HEX", where,
                          digest ? digest : "(none)");
                return error_hint(err, "crib checks sha256 digests, which every OCI and Docker "
                                       "image uses; another algorithm is not supported");
        }
        const char *h = digest + 7;
        if (strlen(h) != 64 || strspn(h, "0123456789abcdef") != 64)
                return error_set(err, 0, "%s: digest '%s' is not sha256 and 64 hex digits", where,
                                 digest);
        *ret = h;
        return 0;
}

int digest_json_string(struct json_object *o, const char *key, bool required, const char *where,
                       const char **ret, struct error *err)
{
        struct json_object *v;
        *ret = NULL;
        if (!o || !json_object_object_get_ex(o, key, &v) ||
            json_object_is_type(v, json_type_null)) {
                if (required)
                        return error_set(err, 0, "%s.%s is missing", where, key);
                return 0;
        }
        if (!json_object_is_type(v, json_type_string))
                return error_set(err, 0, "%s.%s is not a string", where, key);
        *ret = json_object_get_string(v);
        return 0;
}

int digest_desc_get(struct json_object *o, const char *where, struct digest_desc *d,
                    struct error *err)
{
        memset(d, 0, sizeof *d);
        struct json_object *v;
        if (!o || !json_object_is_type(o, json_type_object))
                return error_set(err, 0, "%s is not an object", where);
        const char *media, *digest, *hex;
        if (digest_json_string(o, "mediaType", false, where, &media, err) < 0 ||
            digest_json_string(o, "digest", true, where, &digest, err) < 0)
                return -1;
        char w[300];
        snprintf(w, sizeof w, "%s.digest", where);
        if (digest_hex(digest, w, &hex, err) < 0)
                return -1;
        if (media && strlen(media) >= sizeof d->media)
                return error_set(err, 0, "%s.mediaType is too long", where);
        d->has_media = media != NULL;
        snprintf(d->media, sizeof d->media, "%s", media ? media : "");
        snprintf(d->digest, sizeof d->digest, "sha256:%s", hex);
        snprintf(d->hex, sizeof d->hex, "%s", hex);
        if (!json_object_object_get_ex(o, "size", &v) || !json_object_is_type(v, json_type_int) ||
            json_object_get_int64(v) < 0)
                return error_set(err, 0, "%s.size is missing or not a size", where);
        d->size = json_object_get_int64(v);
        snprintf(d->path, sizeof d->path, "blobs/sha256/%s", d->hex);
        return 0;
}

int digest_desc_json(struct source *s, const struct digest_desc *d, const char *where,
                     struct json_object **ret, struct error *err)
{
        _cleanup_free_ char *text = NULL;
        size_t len;
        if (d->size > SOURCE_MAX_JSON)
                return error_set(err, EFBIG, "%s: %" PRId64 " bytes is too large for JSON", where,
                                 d->size);
        if (source_read_small(s, d->path, &text, &len, err) < 0)
                return error_wrap(err, "%s", where);
        char hex[65];
        digest_sha256_hex(text, len, hex);
        if (strcmp(hex, d->hex) || (int64_t)len != d->size)
                return error_set(err, 0,
                                 "%s: blob '%s' has sha256:%s and %zu bytes; the descriptor "
                                 "says %s and %" PRId64,
                                 where, d->path, hex, len, d->digest, d->size);
        return digest_json_parse(text, len, d->path, ret, err);
}
