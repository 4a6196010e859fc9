/* dockersave.c - Docker's `docker save` archive (dockersave.h).
 *
 * manifest.json lists the images of the archive, each a config and layer tars; the config's
 * rootfs.diff_ids gives each layer's sha256 (the digest of the uncompressed tar), and the
 * config's own name is its digest. crib imports an archive of one image. Names in manifests
 * are cleaned like layer entries (imgpath.c).
 */
#define _GNU_SOURCE
#include "dockersave.h"

#include <stdio.h>
#include <string.h>

#include "base/cleanup.h"
#include "digest.h"
#include "imgpath.h"

/* the cleaned form of a name from a manifest, or an error naming where it came from */
static int clean_name(const char *name, const char *where, char *buf, struct error *err)
{
        const char *why = imgpath_clean(name, buf, IMGPATH_MAX);
        if (why || !buf[0])
                return error_set(err, 0, "%s: '%s' %s", where, name, why ? why : "names nothing");
        return 0;
}

/* manifest.json into *ret (free it, even on failure): an array of one image. */
static int read_manifest(struct source *s, struct json_object **ret, struct error *err)
{
        _cleanup_free_ char *text = NULL;
        size_t len;
        if (source_read_small(s, "manifest.json", &text, &len, err) < 0 ||
            digest_json_parse(text, len, "manifest.json", ret, err) < 0)
                return -1;
        struct json_object *m = *ret;
        if (!json_object_is_type(m, json_type_array) || json_object_array_length(m) == 0) {
                error_set(err, 0, "manifest.json is not an array of images (docker save's)");
                if (json_object_is_type(m, json_type_object))
                        error_hint(err, "a single image manifest is a 'dir:' copy (skopeo copy, "
                                        "podman save --format docker-dir), which crib does not "
                                        "read: use docker save, podman save, or --format "
                                        "oci-dir");
                return -1;
        }
        if (json_object_array_length(m) > 1) {
                error_set(err, 0, "'%s' holds %zu images; crib imports an archive of one",
                          source_path(s), json_object_array_length(m));
                return error_hint(err, "save one image at a time: docker save IMAGE > FILE");
        }
        return 0;
}

/* The config the image `im` names into img->config, its cleaned name into `cpath`; a name that
 * is a digest must be the config's. */
static int read_config(struct source *s, struct json_object *im, struct source_image *img,
                       char cpath[IMGPATH_MAX], struct error *err)
{
        _cleanup_free_ char *ctext = NULL;
        size_t clen;
        const char *cfgname;
        if (digest_json_string(im, "Config", true, "manifest.json[0]", &cfgname, err) < 0 ||
            clean_name(cfgname, "manifest.json[0].Config", cpath, err) < 0 ||
            source_read_small(s, cpath, &ctext, &clen, err) < 0 ||
            digest_json_parse(ctext, clen, cpath, &img->config, err) < 0)
                return -1;
        /* the config's name is its digest: "HEX.json" or "blobs/sha256/HEX" */
        char hex[65];
        digest_sha256_hex(ctext, clen, hex);
        size_t dl;
        const char *base = imgpath_base(cpath, &dl);
        if (strlen(base) >= 64 && strspn(base, "0123456789abcdef") == 64 && strncmp(base, hex, 64))
                return error_set(err, 0, "config '%s' has sha256:%s, not the digest its name says",
                                 cpath, hex);
        snprintf(img->config_digest, sizeof img->config_digest, "sha256:%s", hex);
        img->config_len = clen;
        img->config_text = steal_ptr(&ctext);
        /* its name, for the store (which checks it): the first of RepoTags */
        struct json_object *tags, *t;
        if (json_object_object_get_ex(im, "RepoTags", &tags) &&
            json_object_is_type(tags, json_type_array) && json_object_array_length(tags) &&
            json_object_is_type((t = json_object_array_get_idx(tags, 0)), json_type_string) &&
            (size_t)json_object_get_string_len(t) < sizeof img->ref_name)
                snprintf(img->ref_name, sizeof img->ref_name, "%s", json_object_get_string(t));
        return 0;
}

/* The layers `im` lists into img->layers, each with the digest the config (`cpath`) gives it
 * in rootfs.diff_ids. */
static int add_layers(struct source *s, struct json_object *im, const char *cpath,
                      struct source_image *img, struct error *err)
{
        struct json_object *layers, *rootfs, *diffs;
        if (!json_object_object_get_ex(im, "Layers", &layers) ||
            !json_object_is_type(layers, json_type_array))
                return error_set(err, 0, "manifest.json[0].Layers is missing or not an array");
        if (!json_object_object_get_ex(img->config, "rootfs", &rootfs) ||
            !json_object_object_get_ex(rootfs, "diff_ids", &diffs) ||
            !json_object_is_type(diffs, json_type_array))
                return error_set(err, 0, "%s: rootfs.diff_ids is missing or not an array", cpath);
        size_t nl = json_object_array_length(layers);
        if (nl != json_object_array_length(diffs))
                return error_set(err, 0,
                                 "manifest.json[0].Layers lists %zu layers, and %s's "
                                 "rootfs.diff_ids %zu",
                                 nl, cpath, json_object_array_length(diffs));
        if (nl > SOURCE_MAX_LAYERS)
                return error_set(err, 0, "the image has %zu layers; crib takes %d", nl,
                                 SOURCE_MAX_LAYERS);
        for (size_t i = 0; i < nl; i++) {
                char w[64], p[IMGPATH_MAX];
                const char *h;
                snprintf(w, sizeof w, "manifest.json[0].Layers[%zu]", i);
                struct json_object *lo = json_object_array_get_idx(layers, i);
                if (!json_object_is_type(lo, json_type_string))
                        return error_set(err, 0, "%s is not a string", w);
                if (clean_name(json_object_get_string(lo), w, p, err) < 0)
                        return -1;
                struct json_object *dio = json_object_array_get_idx(diffs, i);
                snprintf(w, sizeof w, "%s: rootfs.diff_ids[%zu]", "config", i);
                if (digest_hex(json_object_get_string(dio), w, &h, err) < 0)
                        return -1;
                struct source_layer *l = &img->layers[img->nlayers++];
                snprintf(l->name, sizeof l->name, "%s", p);
                snprintf(l->digest, sizeof l->digest, "sha256:%s", h);
                l->size = source_listed_size(s, p);
                img->total += l->size;
        }
        return 0;
}

/* The config's platform must fit `machine` (or be the one --platform forced). */
static int check_platform(const struct platform *machine, bool forced, struct source_image *img,
                          struct error *err)
{
        char os[16], arch[16], variant[8];
        platform_of_config(img->config, os, arch, variant);
        char have[1][64];
        platform_describe(have[0], sizeof have[0], os, arch, variant);
        if (!platform_score(machine, os, arch, variant))
                return platform_no_match((const char(*)[64])have, 1, machine, forced, err);
        snprintf(img->platform, sizeof img->platform, "%s", have[0]);
        return 0;
}

int dockersave_resolve(struct source *s, const struct platform *machine, bool forced,
                       struct source_image *img, struct error *err)
{
        struct json_object *m = NULL;
        char cpath[IMGPATH_MAX];
        int ret = -1;
        if (read_manifest(s, &m, err) == 0) {
                struct json_object *im = json_object_array_get_idx(m, 0);
                if (read_config(s, im, img, cpath, err) == 0 &&
                    add_layers(s, im, cpath, img, err) == 0 &&
                    check_platform(machine, forced, img, err) == 0)
                        ret = 0;
        }
        json_object_put(m);
        return ret;
}
