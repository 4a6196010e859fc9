/* manifest.c - image manifests and indexes as a registry serves them (manifest.h).
 *
 * image-spec manifest.md and image-index.md, and Docker's schema 2 (manifest and manifest
 * list), which have the same shape under other media types. Docker's schema 1 (signed JSON
 * with the layers' history inline) is refused: registries have served schema 2 since 2016,
 * and schema 1 names layers without sizes a pull could bound. Every string a descriptor holds
 * is bounded here, so what reaches a path (a digest) or a message (a media type) is known.
 */
#include "manifest.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

static json_object *parse(const char *text, size_t len, struct error *err)
{
        struct json_tokener *tok = json_tokener_new_ex(32);
        if (!tok) {
                error_set(err, 0, "out of memory");
                return NULL;
        }
        json_object *o = json_tokener_parse_ex(tok, text, (int)len);
        bool bad = !o || json_tokener_get_error(tok) != json_tokener_success ||
                   json_tokener_get_parse_end(tok) +
                                   strspn(text + json_tokener_get_parse_end(tok), " \t\r\n") !=
                           len;
        json_tokener_free(tok);
        if (bad || !json_object_is_type(o, json_type_object)) {
                json_object_put(o);
                error_set(err, 0, "the registry's manifest is not a JSON object");
                return NULL;
        }
        return o;
}

static const char *str_of(json_object *o, const char *key)
{
        json_object *v;
        if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
                return NULL;
        return json_object_get_string(v);
}

static const struct {
        const char *media;
        enum manifest_kind kind;
} kinds[] = {
        {"application/vnd.oci.image.manifest.v1+json", MANIFEST_IMAGE},
        {"application/vnd.docker.distribution.manifest.v2+json", MANIFEST_IMAGE},
        {"application/vnd.oci.image.index.v1+json", MANIFEST_INDEX},
        {"application/vnd.docker.distribution.manifest.list.v2+json", MANIFEST_INDEX},
};

int manifest_kind(const char *text, size_t len, const char *content_type, enum manifest_kind *ret,
                  char media[128], struct error *err)
{
        json_object *o = parse(text, len, err), *v;
        if (!o)
                return -1;
        const char *m = str_of(o, "mediaType");
        if (!m || !*m)
                m = content_type;
        snprintf(media, 128, "%s", m ? m : "");
        int64_t schema =
                json_object_object_get_ex(o, "schemaVersion", &v) ? json_object_get_int64(v) : 0;
        bool has_manifests = json_object_object_get_ex(o, "manifests", &v);
        bool has_config = json_object_object_get_ex(o, "config", &v);
        json_object_put(o);
        if (schema == 1 ||
            !strncmp(media, "application/vnd.docker.distribution.manifest.v1+", 48)) {
                error_set(err, 0, "the image is in Docker's schema 1, which crib does not read");
                return error_hint(err, "push it again with a current docker, podman or skopeo: "
                                       "they write schema 2 or OCI");
        }
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
                if (!strcmp(media, kinds[i].media)) {
                        *ret = kinds[i].kind;
                        return 0;
                }
        /* an OCI document may leave its mediaType out; its shape says which it is */
        if (schema == 2 && (!*media || !strcmp(media, "application/json")) &&
            has_manifests != has_config) {
                *ret = has_manifests ? MANIFEST_INDEX : MANIFEST_IMAGE;
                snprintf(media, 128, "%s", kinds[has_manifests ? 2 : 0].media);
                return 0;
        }
        return error_set(err, 0,
                         "the registry's manifest has the media type '%s', which is no "
                         "image crib knows",
                         media);
}

/* one descriptor of `o` (`where` names it), checked */
static int desc_get(json_object *o, const char *where, struct manifest_desc *d, struct error *err)
{
        json_object *v;
        memset(d, 0, sizeof *d);
        if (!json_object_is_type(o, json_type_object))
                return error_set(err, 0, "%s is not an object", where);
        const char *m = str_of(o, "mediaType"), *dg = str_of(o, "digest");
        if (m && strlen(m) >= sizeof d->media)
                return error_set(err, 0, "%s.mediaType is too long", where);
        snprintf(d->media, sizeof d->media, "%s", m ? m : "");
        if (!dg || strncmp(dg, "sha256:", 7) || strlen(dg) != 71 ||
            strspn(dg + 7, "0123456789abcdef") != 64)
                return error_set(err, 0, "%s.digest is not sha256: and 64 lowercase hex digits",
                                 where);
        snprintf(d->digest, sizeof d->digest, "%s", dg);
        if (!json_object_object_get_ex(o, "size", &v) || !json_object_is_type(v, json_type_int) ||
            json_object_get_int64(v) < 0)
                return error_set(err, 0, "%s.size is not a size", where);
        d->size = json_object_get_int64(v);
        return 0;
}

/* an index entry's "platform", described; false when it has none */
static bool entry_platform(json_object *e, char *os, char *arch, char *variant, char *desc,
                           size_t dlen)
{
        json_object *p;
        if (!json_object_object_get_ex(e, "platform", &p) ||
            !json_object_is_type(p, json_type_object))
                return false;
        const char *o = str_of(p, "os"), *a = str_of(p, "architecture"), *v = str_of(p, "variant");
        snprintf(os, 16, "%s", o ? o : "");
        snprintf(arch, 16, "%s", a ? a : "");
        snprintf(variant, 8, "%s", v ? v : "");
        platform_describe(desc, dlen, os, arch, variant);
        return *os && *arch;
}

int manifest_choose(const char *text, size_t len, const struct platform *machine, bool forced,
                    struct manifest_desc *ret, struct error *err)
{
        json_object *o = parse(text, len, err), *list;
        if (!o)
                return -1;
        char have[64][64];
        size_t nhave = 0, n = 0;
        int best = 0, rc = -1;
        if (!json_object_object_get_ex(o, "manifests", &list) ||
            !json_object_is_type(list, json_type_array) ||
            (n = json_object_array_length(list)) > MANIFEST_MAX_ENTRIES) {
                error_set(err, 0, "the registry's index has no list of manifests, or more than %d",
                          MANIFEST_MAX_ENTRIES);
                goto out;
        }
        for (size_t i = 0; i < n; i++) {
                json_object *e = json_object_array_get_idx(list, i);
                char os[16], arch[16], variant[8], desc[64], where[48];
                struct manifest_desc d;
                snprintf(where, sizeof where, "the index's manifests[%zu]", i);
                if (desc_get(e, where, &d, err) < 0)
                        goto out;
                if (!entry_platform(e, os, arch, variant, desc, sizeof desc))
                        continue; /* an attestation, a signature: no platform of its own */
                if (!strcmp(os, "unknown"))
                        continue;
                if (nhave < 64)
                        snprintf(have[nhave++], 64, "%s", desc);
                int s = platform_score(machine, os, arch, variant);
                if (s > best) {
                        best = s;
                        *ret = d;
                        snprintf(ret->platform, sizeof ret->platform, "%s", desc);
                }
        }
        if (best > 0)
                rc = 0;
        else
                platform_no_match((const char(*)[64])have, nhave, machine, forced, err);
out:
        json_object_put(o);
        return rc;
}

int manifest_parse(const char *text, size_t len, struct manifest_image *ret, struct error *err)
{
        json_object *o = parse(text, len, err), *cfg, *layers;
        if (!o)
                return -1;
        int rc = -1;
        memset(ret, 0, sizeof *ret);
        if (!json_object_object_get_ex(o, "config", &cfg)) {
                error_set(err, 0, "the registry's manifest names no config");
                goto out;
        }
        if (desc_get(cfg, "the manifest's config", &ret->config, err) < 0)
                goto out;
        if (!json_object_object_get_ex(o, "layers", &layers) ||
            !json_object_is_type(layers, json_type_array)) {
                error_set(err, 0, "the registry's manifest has no list of layers");
                goto out;
        }
        size_t n = json_object_array_length(layers);
        if (n > MANIFEST_MAX_LAYERS) {
                error_set(err, 0, "the image has %zu layers, more than the %d crib stores", n,
                          MANIFEST_MAX_LAYERS);
                goto out;
        }
        for (size_t i = 0; i < n; i++) {
                char where[48];
                snprintf(where, sizeof where, "the manifest's layers[%zu]", i);
                if (desc_get(json_object_array_get_idx(layers, i), where, &ret->layers[i], err) < 0)
                        goto out;
        }
        ret->nlayers = n;
        rc = 0;
out:
        json_object_put(o);
        return rc;
}
