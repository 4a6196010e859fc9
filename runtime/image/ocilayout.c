/* ocilayout.c - the OCI image layout (ocilayout.h).
 *
 * image-spec layout.md: oci-layout, index.json, blobs/ALG/HEX; index.md, manifest.md,
 * config.md. index.json lists manifests, or indexes of them (a multi-architecture image); a
 * manifest without a platform in its index gets its config's. index.json and the indexes it
 * names list at most 1024 descriptors in all, and a nested index is read once however often it
 * is named. The layers' media types must be tar, uncompressed, gzip or zstd.
 */
#define _GNU_SOURCE
#include "ocilayout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "digest.h"

static bool is_index(const char *media)
{
        return media &&
               (!strcmp(media, "application/vnd.oci.image.index.v1+json") ||
                !strcmp(media, "application/vnd.docker.distribution.manifest.list.v2+json"));
}

struct candidate {
        struct digest_desc d;
        char where[128];
        char os[16], arch[16], variant[8];
        bool has_platform;
        char ref[256]; /* the name index.json's annotations give it, "" when none */
};

#define MAX_CANDIDATES 64
/* descriptors of index.json and the indexes it names, all together: an index of N entries
 * naming one nested index of M entries was N x M of them, the nested one read, hashed and
 * parsed N times */
#define MAX_DESCRIPTORS 1024

/* what the walk through the indexes has met */
struct index_walk {
        size_t seen;                    /* descriptors */
        size_t nread;                   /* nested indexes read, once each */
        char read[MAX_DESCRIPTORS][65]; /* their digests */
};

/* The image's name in a descriptor's annotations: containerd's full name, else the OCI one
 * when it is more than a tag (skopeo writes "latest"); the store checks it. */
static void ref_of(struct json_object *desc, char *ret, size_t len)
{
        static const char *const keys[] = {"io.containerd.image.name",
                                           "org.opencontainers.image.ref.name"};
        struct json_object *an, *v;
        ret[0] = '\0';
        if (!json_object_object_get_ex(desc, "annotations", &an) ||
            !json_object_is_type(an, json_type_object))
                return;
        for (size_t i = 0; i < 2 && !ret[0]; i++)
                if (json_object_object_get_ex(an, keys[i], &v) &&
                    json_object_is_type(v, json_type_string) &&
                    (size_t)json_object_get_string_len(v) < len &&
                    strpbrk(json_object_get_string(v), "/:"))
                        snprintf(ret, len, "%s", json_object_get_string(v));
}

/* The manifests `index` lists, and those of the indexes it names (two levels at most, each
 * read once), into c[*n]. */
static int add_candidates(struct source *s, struct json_object *index, const char *where, int depth,
                          struct candidate *c, size_t *n, struct index_walk *iw, struct error *err)
{
        struct json_object *ms;
        if (!json_object_is_type(index, json_type_object) ||
            !json_object_object_get_ex(index, "manifests", &ms) ||
            !json_object_is_type(ms, json_type_array))
                return error_set(err, 0, "%s.manifests is missing or not an array", where);
        for (size_t i = 0; i < json_object_array_length(ms); i++) {
                char w[128];
                snprintf(w, sizeof w, "%s.manifests[%zu]", where, i);
                if (++iw->seen > MAX_DESCRIPTORS) {
                        error_set(err, 0,
                                  "%s: index.json and the indexes it names list more than %d "
                                  "descriptors in all; crib reads at most %d",
                                  w, MAX_DESCRIPTORS, MAX_DESCRIPTORS);
                        return error_hint(err, "save the image for fewer platforms (skopeo copy "
                                               "without --all saves this machine's)");
                }
                struct digest_desc d;
                if (digest_desc_get(json_object_array_get_idx(ms, i), w, &d, err) < 0)
                        return -1;
                if (is_index(d.has_media ? d.media : NULL)) {
                        if (depth >= 2)
                                return error_set(err, 0, "%s: an index nested too deeply", w);
                        bool again = false;
                        for (size_t k = 0; k < iw->nread && !again; k++)
                                again = !strcmp(iw->read[k], d.hex);
                        if (again)
                                continue; /* its manifests are candidates already */
                        snprintf(iw->read[iw->nread++], sizeof iw->read[0], "%s", d.hex);
                        struct json_object *sub;
                        if (digest_desc_json(s, &d, w, &sub, err) < 0)
                                return -1;
                        char sw[128];
                        snprintf(sw, sizeof sw, "%.100s", d.path);
                        int r = add_candidates(s, sub, sw, depth + 1, c, n, iw, err);
                        json_object_put(sub);
                        if (r < 0)
                                return -1;
                        continue;
                }
                if (*n >= MAX_CANDIDATES)
                        return error_set(err, 0, "%s: more than %d manifests", where,
                                         MAX_CANDIDATES);
                struct candidate *k = &c[(*n)++];
                memset(k, 0, sizeof *k);
                k->d = d;
                /* the strings point into `index`, which lives as long as the candidates */
                snprintf(k->where, sizeof k->where, "%s", w);
                if (depth == 0)
                        ref_of(json_object_array_get_idx(ms, i), k->ref, sizeof k->ref);
                struct json_object *p;
                if (json_object_object_get_ex(json_object_array_get_idx(ms, i), "platform", &p) &&
                    json_object_is_type(p, json_type_object)) {
                        const char *os, *arch, *var;
                        if (digest_json_string(p, "os", true, w, &os, err) < 0 ||
                            digest_json_string(p, "architecture", true, w, &arch, err) < 0 ||
                            digest_json_string(p, "variant", false, w, &var, err) < 0)
                                return -1;
                        snprintf(k->os, sizeof k->os, "%s", os);
                        snprintf(k->arch, sizeof k->arch, "%s", arch);
                        snprintf(k->variant, sizeof k->variant, "%s", var ? var : "");
                        k->has_platform = true;
                }
        }
        return 0;
}

static bool layer_media_ok(const char *m)
{
        static const char *const ok[] = {
                "application/vnd.oci.image.layer.v1.tar",
                "application/vnd.oci.image.layer.v1.tar+gzip",
                "application/vnd.oci.image.layer.v1.tar+zstd",
                "application/vnd.oci.image.layer.nondistributable.v1.tar",
                "application/vnd.oci.image.layer.nondistributable.v1.tar+gzip",
                "application/vnd.oci.image.layer.nondistributable.v1.tar+zstd",
                "application/vnd.docker.image.rootfs.diff.tar",
                "application/vnd.docker.image.rootfs.diff.tar.gzip",
                "application/vnd.docker.image.rootfs.foreign.diff.tar.gzip",
        };
        if (!m)
                return true; /* Docker's schema 2 always says; an OCI layout may not */
        for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
                if (!strcmp(m, ok[i]))
                        return true;
        return false;
}

/* A candidate without a platform in its index: its manifest's config says. */
static int config_platform(struct source *s, struct candidate *k, struct error *err)
{
        struct json_object *m, *cfg;
        struct digest_desc cd;
        struct json_object *cdo;
        if (digest_desc_json(s, &k->d, k->where, &m, err) < 0)
                return -1;
        int r = -1;
        if (json_object_object_get_ex(m, "config", &cdo) &&
            digest_desc_get(cdo, "manifest.config", &cd, err) == 0 &&
            digest_desc_json(s, &cd, "manifest.config", &cfg, err) == 0) {
                platform_of_config(cfg, k->os, k->arch, k->variant);
                json_object_put(cfg);
                r = 0;
        } else if (!err->msg[0]) {
                error_set(err, 0, "%s: the manifest has no config", k->where);
        }
        json_object_put(m);
        return r;
}

/* The candidate that fits `machine` best, into *ret_pick; img->platform and img->manifest say
 * which. None fits: the error lists what the image has. */
static int pick_manifest(struct source *s, struct candidate *c, size_t n,
                         const struct platform *machine, bool forced, struct source_image *img,
                         size_t *ret_pick, struct error *err)
{
        int best = 0;
        size_t pick = 0;
        char(*have)[64] = calloc(n, sizeof *have);
        if (!have)
                return error_set(err, ENOMEM, "out of memory");
        for (size_t i = 0; i < n; i++) {
                /* a manifest without a platform in the index: its config says */
                if (!c[i].has_platform && config_platform(s, &c[i], err) < 0) {
                        free(have);
                        return -1;
                }
                platform_describe(have[i], sizeof have[i], c[i].os, c[i].arch, c[i].variant);
                int sc = platform_score(machine, c[i].os, c[i].arch, c[i].variant);
                if (sc > best) {
                        best = sc;
                        pick = i;
                }
        }
        if (!best) {
                platform_no_match((const char(*)[64])have, n, machine, forced, err);
                free(have);
                return -1;
        }
        snprintf(img->platform, sizeof img->platform, "%s", have[pick]);
        free(have);
        snprintf(img->manifest, sizeof img->manifest, "%s", c[pick].d.digest);
        *ret_pick = pick;
        return 0;
}

/* The manifest's layers, `where` naming it in errors, into img->layers. */
static int add_layers(struct json_object *manifest, const char *where, struct source_image *img,
                      struct error *err)
{
        struct json_object *layers;
        if (!json_object_object_get_ex(manifest, "layers", &layers) ||
            !json_object_is_type(layers, json_type_array))
                return error_set(err, 0, "manifest %s: layers is missing or not an array", where);
        if (json_object_array_length(layers) > SOURCE_MAX_LAYERS)
                return error_set(err, 0, "manifest %s has %zu layers; crib takes %d", where,
                                 json_object_array_length(layers), SOURCE_MAX_LAYERS);
        for (size_t i = 0; i < json_object_array_length(layers); i++) {
                char w[128];
                struct digest_desc d;
                snprintf(w, sizeof w, "manifest.layers[%zu]", i);
                if (digest_desc_get(json_object_array_get_idx(layers, i), w, &d, err) < 0)
                        return -1;
                if (!layer_media_ok(d.has_media ? d.media : NULL)) {
                        error_set(err, 0, "%s.mediaType '%s' is not a tar layer crib knows", w,
                                  d.media);
                        return error_hint(err, "crib applies tar layers, uncompressed or with "
                                               "gzip or zstd");
                }
                struct source_layer *l = &img->layers[img->nlayers++];
                snprintf(l->name, sizeof l->name, "%s", d.path);
                snprintf(l->digest, sizeof l->digest, "%s", d.digest);
                l->size = (uint64_t)d.size;
                img->total += l->size;
        }
        return 0;
}

/* The blob `d` names, as read (for the store), its digest checked again */
static int keep_text(struct source *s, const struct digest_desc *d, char **ret, size_t *ret_len,
                     struct error *err)
{
        char hex[65];
        if (source_read_small(s, d->path, ret, ret_len, err) < 0)
                return -1;
        digest_sha256_hex(*ret, *ret_len, hex);
        if (strcmp(hex, d->hex))
                return error_set(err, 0, "blob '%s' changed while crib read it", d->path);
        return 0;
}

/* The chosen manifest: its config into img->config, its layers into img->layers. */
static int read_manifest(struct source *s, const struct candidate *k, struct source_image *img,
                         struct error *err)
{
        struct json_object *manifest = NULL, *cfgo;
        struct digest_desc cd;
        int ret = -1;
        if (digest_desc_json(s, &k->d, k->where, &manifest, err) < 0)
                return -1;
        if (!json_object_object_get_ex(manifest, "config", &cfgo))
                error_set(err, 0, "manifest %s has no config", k->d.path);
        else if (digest_desc_get(cfgo, "manifest.config", &cd, err) == 0 &&
                 digest_desc_json(s, &cd, "manifest.config", &img->config, err) == 0 &&
                 keep_text(s, &cd, &img->config_text, &img->config_len, err) == 0 &&
                 keep_text(s, &k->d, &img->manifest_text, &img->manifest_len, err) == 0) {
                snprintf(img->config_digest, sizeof img->config_digest, "sha256:%s", cd.hex);
                snprintf(img->ref_name, sizeof img->ref_name, "%s", k->ref);
                ret = add_layers(manifest, k->d.path, img, err);
        }
        json_object_put(manifest);
        return ret;
}

int ocilayout_resolve(struct source *s, const struct platform *machine, bool forced,
                      struct source_image *img, struct error *err)
{
        _cleanup_free_ char *text = NULL;
        size_t len;
        struct json_object *index = NULL;
        struct candidate *c = calloc(MAX_CANDIDATES, sizeof *c);
        struct index_walk *iw = calloc(1, sizeof *iw);
        size_t n = 0, pick = 0;
        int ret = -1;
        if (!c || !iw) {
                free(c);
                free(iw);
                return error_set(err, ENOMEM, "out of memory");
        }
        if (source_read_small(s, "index.json", &text, &len, err) < 0 ||
            digest_json_parse(text, len, "index.json", &index, err) < 0 ||
            add_candidates(s, index, "index.json", 0, c, &n, iw, err) < 0)
                goto out;
        if (!n) {
                error_set(err, 0, "index.json lists no manifest");
                goto out;
        }
        if (pick_manifest(s, c, n, machine, forced, img, &pick, err) < 0 ||
            read_manifest(s, &c[pick], img, err) < 0)
                goto out;
        ret = 0;
out:
        free(c);
        free(iw);
        json_object_put(index);
        return ret;
}
