/* json.c - the OCI front end's reading of JSON: each value by its JSON path, checked for its
 * type and range, and the file read whole within its limit; see parse.h.
 *
 * json-c parses; what it returns is the config's, hostile until checked. Every accessor takes
 * the path of the value it reads, so an error names it (".process.user.uid: must be a
 * number"); the path is cut at PATHLEN, as it is for messages only. A file is at most
 * OCI_MAX_CONFIG bytes and one JSON object, with nothing after it.
 */
#define _GNU_SOURCE
#include "parse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "base/words.h"

int oci_bad(struct oci_ctx *c, const char *jpath, const char *fmt, ...)
{
        char text[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(text, sizeof text, fmt, ap);
        va_end(ap);
        if (c->process_file && !strncmp(jpath, ".process", 8))
                jpath = jpath[8] ? jpath + 8 : ".";
        if (c->update && !strncmp(jpath, ".linux.resources", 16))
                jpath = jpath[16] ? jpath + 16 : ".";
        return error_at(c->err, c->s->path, 0, "%s: %s", jpath, text);
}

int oci_nomem(struct oci_ctx *c)
{
        return error_set(c->err, ENOMEM, "cannot allocate");
}

/* The member `key` of `obj`, NULL when absent or null (the spec's "optional"). */
json_object *oci_member(json_object *obj, const char *key)
{
        json_object *v;
        if (!obj || !json_object_object_get_ex(obj, key, &v) ||
            json_object_is_type(v, json_type_null))
                return NULL;
        return v;
}

/* A JSON path one level down (cut at PATHLEN: paths are for messages only) */
void oci_sub(char *buf, const char *parent, const char *key)
{
        if (snprintf(buf, PATHLEN, "%s.%s", parent, key) >= PATHLEN)
                buf[PATHLEN - 1] = '\0';
}

void oci_idx(char *buf, const char *parent, size_t i)
{
        if (snprintf(buf, PATHLEN, "%s[%zu]", parent, i) >= PATHLEN)
                buf[PATHLEN - 1] = '\0';
}

int oci_want(struct oci_ctx *c, json_object *v, const char *jpath, json_type t, const char *what)
{
        if (!json_object_is_type(v, t))
                return oci_bad(c, jpath, "must be %s", what);
        return 0;
}

/* obj.key as a string: 1 with *ret set, 0 when absent, -1 on a wrong type */
int oci_get_str(struct oci_ctx *c, json_object *obj, const char *parent, const char *key,
                const char **ret)
{
        char p[PATHLEN];
        json_object *v = oci_member(obj, key);
        *ret = NULL;
        if (!v)
                return 0;
        oci_sub(p, parent, key);
        if (oci_want(c, v, p, json_type_string, "a string") < 0)
                return -1;
        *ret = json_object_get_string(v);
        if (strlen(*ret) != (size_t)json_object_get_string_len(v))
                return oci_bad(c, p, "must not contain a NUL character");
        return 1;
}

int oci_get_bool(struct oci_ctx *c, json_object *obj, const char *parent, const char *key,
                 bool *ret)
{
        char p[PATHLEN];
        json_object *v = oci_member(obj, key);
        if (!v)
                return 0;
        oci_sub(p, parent, key);
        if (oci_want(c, v, p, json_type_boolean, "true or false") < 0)
                return -1;
        *ret = json_object_get_boolean(v);
        return 1;
}

/* An integer from min to max (JSON numbers without a fraction). */
int oci_as_int(struct oci_ctx *c, json_object *v, const char *jpath, int64_t min, int64_t max,
               int64_t *ret)
{
        if (oci_want(c, v, jpath, json_type_int, "a number") < 0)
                return -1;
        errno = 0;
        int64_t n = json_object_get_int64(v);
        if (errno || n < min || n > max)
                return oci_bad(c, jpath, "must be a number from %lld to %lld", (long long)min,
                               (long long)max);
        *ret = n;
        return 0;
}

int oci_as_u64(struct oci_ctx *c, json_object *v, const char *jpath, uint64_t *ret)
{
        if (oci_want(c, v, jpath, json_type_int, "a number") < 0)
                return -1;
        errno = 0;
        if (json_object_get_int64(v) < 0)
                return oci_bad(c, jpath, "must be a number from 0 up");
        *ret = json_object_get_uint64(v);
        if (errno)
                return oci_bad(c, jpath, "must be a number below 2^64");
        return 0;
}

int oci_get_int(struct oci_ctx *c, json_object *obj, const char *parent, const char *key,
                int64_t min, int64_t max, int64_t *ret)
{
        char p[PATHLEN];
        json_object *v = oci_member(obj, key);
        if (!v)
                return 0;
        oci_sub(p, parent, key);
        return oci_as_int(c, v, p, min, max, ret) < 0 ? -1 : 1;
}

/* obj.key as an array of at most `max` strings: 1 with *ret (borrowed) set, 0 when absent */
int oci_get_strings(struct oci_ctx *c, json_object *obj, const char *parent, const char *key,
                    size_t max, json_object **ret)
{
        char p[PATHLEN], q[PATHLEN];
        json_object *v = oci_member(obj, key);
        *ret = NULL;
        if (!v)
                return 0;
        oci_sub(p, parent, key);
        if (oci_want(c, v, p, json_type_array, "a list of strings") < 0)
                return -1;
        size_t n = json_object_array_length(v);
        if (n > max)
                return oci_bad(c, p, "has %zu entries; crib takes at most %zu", n, max);
        for (size_t i = 0; i < n; i++) {
                json_object *e = json_object_array_get_idx(v, i);
                oci_idx(q, p, i);
                if (oci_want(c, e, q, json_type_string, "a string") < 0)
                        return -1;
                if (strlen(json_object_get_string(e)) != (size_t)json_object_get_string_len(e))
                        return oci_bad(c, q, "must not contain a NUL character");
        }
        *ret = v;
        return 1;
}

char **oci_strv_of(json_object *a)
{
        size_t n = json_object_array_length(a);
        char **v = calloc(n + 1, sizeof *v);
        for (size_t i = 0; v && i < n; i++)
                if (!(v[i] = strdup(json_object_get_string(json_object_array_get_idx(a, i))))) {
                        words_free(v);
                        return NULL;
                }
        return v;
}

void oci_set_from(struct spec *s, enum spec_key k)
{
        s->origins[k] = (struct spec_origin){.kind = SPEC_FROM_FILE};
}

/* The JSON object in `f`, at most OCI_MAX_CONFIG bytes, nothing after it; NULL on error. */
json_object *oci_read_object(struct oci_ctx *c, const char *path, FILE *f)
{
        json_object *obj = NULL;
        _cleanup_free_ char *buf = malloc(OCI_MAX_CONFIG + 1);
        if (!buf) {
                oci_nomem(c);
                return NULL;
        }
        size_t n = fread(buf, 1, OCI_MAX_CONFIG + 1, f);
        if (ferror(f)) {
                error_set(c->err, errno, "cannot read '%s'", path);
                return NULL;
        }
        if (n > OCI_MAX_CONFIG) {
                error_at(c->err, path, 0, "is over %d bytes", OCI_MAX_CONFIG);
                return NULL;
        }
        json_tokener *tok = json_tokener_new();
        if (!tok) {
                oci_nomem(c);
                return NULL;
        }
        obj = json_tokener_parse_ex(tok, buf, (int)n);
        enum json_tokener_error je = json_tokener_get_error(tok);
        size_t at = json_tokener_get_parse_end(tok);
        json_tokener_free(tok);
        if (!obj || je != json_tokener_success || at != n) {
                error_at(c->err, path, 0, "not JSON: %s at byte %zu",
                         obj && je == json_tokener_success ? "text after the object"
                                                           : json_tokener_error_desc(je),
                         at);
                json_object_put(obj);
                return NULL;
        }
        if (!json_object_is_type(obj, json_type_object)) {
                oci_bad(c, ".", "must be an object");
                json_object_put(obj);
                return NULL;
        }
        return obj;
}

/* A file that holds one member of a larger object (process.json is config.json's .process):
 * read, and put under `key` in a new object, so the config's readers take it as they are.
 * The new object (the caller's to put), or NULL with c->err set; *ret_inner is the file's. */
json_object *oci_read_under(struct oci_ctx *c, const char *path, FILE *f, const char *key,
                            json_object **ret_inner)
{
        json_object *inner = oci_read_object(c, path, f);
        if (!inner)
                return NULL;
        json_object *outer = json_object_new_object();
        if (!outer || json_object_object_add(outer, key, inner) < 0) {
                json_object_put(outer);
                json_object_put(inner);
                oci_nomem(c);
                return NULL;
        }
        *ret_inner = inner;
        return outer;
}
