/* pull.c - `crib pull`: resolve, fetch, lay out (pull.h).
 *
 * The order: the manifest by tag or digest (a digest the user gave must be its sha256); an
 * index's entry for the platform (manifest.c), fetched by its digest; the config, whose
 * platform must fit too (an image of one platform says it only there); each layer into the
 * store's cache (fetch.c: verified while it streams, resumed after a kill); then the layout
 * tmp/pull-XXXXXX: oci-layout, an index.json naming exactly the chosen manifest with the
 * reference as org.opencontainers.image.ref.name, and blobs/sha256/ as hard links to the
 * cache. Nothing is visible as an image until crib-image store-add has made it one.
 */
#define _GNU_SOURCE
#include "pull.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "manifest.h"

/* The config blob (at most FETCH_DOC_MAX), parsed */
static json_object *read_config(int root, const char *hex, struct error *err)
{
        char path[128];
        snprintf(path, sizeof path, "blobs/sha256/%s", hex);
        _cleanup_close_ int fd = openat(root, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        _cleanup_free_ char *buf = malloc(FETCH_DOC_MAX + 1);
        if (fd < 0 || !buf) {
                error_set(err, errno, "config '%s'", path);
                return NULL;
        }
        size_t len = 0;
        for (ssize_t n; len < FETCH_DOC_MAX; len += (size_t)n)
                if ((n = read(fd, buf + len, FETCH_DOC_MAX - len)) <= 0)
                        break;
        buf[len] = '\0';
        json_object *o = json_tokener_parse(buf);
        if (!o || !json_object_is_type(o, json_type_object)) {
                json_object_put(o);
                error_set(err, 0, "the image's config is not a JSON object");
                return NULL;
        }
        return o;
}

/* The config's platform must fit the machine as an index's entry must */
static int check_config(const struct pull_request *q, int root, const struct manifest_desc *cfg,
                        struct pull_result *ret, struct error *err)
{
        json_object *o = read_config(root, cfg->digest + 7, err);
        if (!o)
                return -1;
        char os[16], arch[16], variant[8], have[1][64];
        platform_of_config(o, os, arch, variant);
        json_object_put(o);
        platform_describe(have[0], sizeof have[0], os, arch, variant);
        if (!ret->platform[0])
                snprintf(ret->platform, sizeof ret->platform, "%s", have[0]);
        if (platform_score(&q->platform, os, arch, variant) == 0)
                return platform_no_match((const char(*)[64])have, 1, &q->platform, q->forced, err);
        return 0;
}

static int write_file(int dir, const char *name, const char *text, struct error *err)
{
        _cleanup_close_ int fd =
                openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        size_t len = strlen(text);
        if (fd < 0 || write(fd, text, len) != (ssize_t)len)
                return error_set(err, errno, "layout: write '%s'", name);
        return 0;
}

static int link_blob(int root, const char *layout, const char *digest, struct error *err)
{
        char src[128], dst[200];
        snprintf(src, sizeof src, "blobs/sha256/%s", digest + 7);
        snprintf(dst, sizeof dst, "%s/blobs/sha256/%s", layout, digest + 7);
        /* a second try: another pull may have renamed the same bytes over `src` meanwhile */
        if (linkat(root, src, root, dst, 0) < 0 && errno != EEXIST &&
            (errno != ENOENT || (linkat(root, src, root, dst, 0) < 0 && errno != EEXIST)))
                return error_set(err, errno, "layout: link '%s'", src);
        return 0;
}

static int write_index(int dir, const struct manifest_desc *m, const char *name, struct error *err)
{
        json_object *idx = json_object_new_object(), *list = json_object_new_array();
        json_object *d = json_object_new_object(), *ann = json_object_new_object();
        json_object_object_add(idx, "schemaVersion", json_object_new_int(2));
        json_object_object_add(idx, "mediaType",
                               json_object_new_string("application/vnd.oci.image.index.v1+json"));
        json_object_object_add(d, "mediaType", json_object_new_string(m->media));
        json_object_object_add(d, "digest", json_object_new_string(m->digest));
        json_object_object_add(d, "size", json_object_new_int64(m->size));
        json_object_object_add(ann, "org.opencontainers.image.ref.name",
                               json_object_new_string(name));
        json_object_object_add(d, "annotations", ann);
        json_object_array_add(list, d);
        json_object_object_add(idx, "manifests", list);
        int rc = write_file(dir, "index.json",
                            json_object_to_json_string_ext(
                                    idx, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
                            err);
        json_object_put(idx);
        return rc;
}

static int make_layout(const struct pull_request *q, const struct manifest_desc *m,
                       const struct manifest_image *img, struct pull_result *ret, struct error *err)
{
        char path[PATH_MAX], lock[96], sub[128];
        if (snprintf(path, sizeof path, "%s/tmp/pull-XXXXXX", q->root_path) >= (int)sizeof path ||
            !mkdtemp(path))
                return error_set(err, errno, "layout in '%s/tmp'", q->root_path);
        snprintf(ret->layout, sizeof ret->layout, "tmp/%s", strrchr(path, '/') + 1);
        snprintf(lock, sizeof lock, "%s.lock", ret->layout);
        ret->layout_lock = openat(q->root, lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (ret->layout_lock < 0 || flock(ret->layout_lock, LOCK_EX) < 0)
                return error_set(err, errno, "layout: lock '%s'", lock);
        _cleanup_close_ int dir = openat(q->root, ret->layout, O_PATH | O_DIRECTORY | O_CLOEXEC);
        snprintf(sub, sizeof sub, "%s/blobs", ret->layout);
        if (dir < 0 || mkdirat(q->root, sub, 0700) < 0 ||
            (snprintf(sub, sizeof sub, "%s/blobs/sha256", ret->layout),
             mkdirat(q->root, sub, 0700)) < 0)
                return error_set(err, errno, "layout '%s'", ret->layout);
        if (write_file(dir, "oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}", err) < 0 ||
            write_index(dir, m, ret->name, err) < 0 ||
            link_blob(q->root, ret->layout, m->digest, err) < 0 ||
            link_blob(q->root, ret->layout, img->config.digest, err) < 0)
                return -1;
        for (size_t i = 0; i < img->nlayers; i++)
                if (link_blob(q->root, ret->layout, img->layers[i].digest, err) < 0)
                        return -1;
        return 0;
}

/* The image manifest: the reference's own, or its index's entry for the platform */
static int resolve(const struct pull_request *q, struct registry *r, struct fetch_doc *doc,
                   struct manifest_desc *m, struct pull_result *ret, struct error *err)
{
        const char *want = q->ref.digest[0] ? q->ref.digest : NULL;
        enum manifest_kind kind;
        if (fetch_manifest(r, want ? want : q->ref.tag, MANIFEST_ACCEPT, want, -1, doc, err) < 0 ||
            manifest_kind(doc->data, doc->len, doc->media, &kind, m->media, err) < 0)
                return -1;
        if (kind == MANIFEST_IMAGE) {
                snprintf(m->digest, sizeof m->digest, "%s", doc->digest);
                m->size = (int64_t)doc->len;
                return 0;
        }
        struct manifest_desc d;
        int rc = manifest_choose(doc->data, doc->len, &q->platform, q->forced, &d, err);
        fetch_doc_free(doc);
        if (rc < 0)
                return -1;
        snprintf(ret->platform, sizeof ret->platform, "%s", d.platform);
        if (fetch_manifest(r, d.digest, MANIFEST_ACCEPT, d.digest, d.size, doc, err) < 0 ||
            manifest_kind(doc->data, doc->len, doc->media, &kind, m->media, err) < 0)
                return -1;
        if (kind != MANIFEST_IMAGE)
                return error_set(err, 0,
                                 "the index's entry for %s is an index itself, which crib "
                                 "does not follow",
                                 d.platform);
        snprintf(m->digest, sizeof m->digest, "%s", d.digest);
        m->size = (int64_t)doc->len;
        return 0;
}

static int fetch_all(const struct pull_request *q, struct registry *r, struct fetch_doc *doc,
                     struct manifest_desc *m, struct manifest_image *img, struct pull_result *ret,
                     struct error *err)
{
        if (resolve(q, r, doc, m, ret, err) < 0 ||
            manifest_parse(doc->data, doc->len, img, err) < 0)
                return -1;
        if (img->config.size > FETCH_DOC_MAX)
                return error_set(err, 0,
                                 "the image's config is %lld bytes, more than the %d crib "
                                 "reads",
                                 (long long)img->config.size, FETCH_DOC_MAX);
        if (fetch_blob(r, q->root, img->config.digest, img->config.size, NULL, NULL, err) < 0 ||
            check_config(q, q->root, &img->config, ret, err) < 0)
                return -1;
        ret->bytes = (uint64_t)img->config.size;
        for (size_t i = 0; i < img->nlayers; i++) {
                if (fetch_blob(r, q->root, img->layers[i].digest, img->layers[i].size, q->progress,
                               q->ctx, err) < 0)
                        return -1;
                ret->bytes += (uint64_t)img->layers[i].size;
        }
        ret->nlayers = img->nlayers;
        snprintf(ret->manifest, sizeof ret->manifest, "%s", m->digest);
        return fetch_store_bytes(q->root, m->digest + 7, doc->data, doc->len, err);
}

int pull_image(const struct pull_request *q, struct pull_result *ret, struct error *err)
{
        memset(ret, 0, sizeof *ret);
        ret->layout_lock = -1;
        if (image_ref_format(&q->ref, ret->name, sizeof ret->name) < 0)
                return error_set(err, 0, "reference too long");
        struct registry_opts o = q->reg;
        o.registry = q->ref.registry;
        o.host = image_ref_host(&q->ref);
        o.repository = q->ref.repository;
        struct registry *r = NULL;
        if (registry_new(&o, &r, err) < 0)
                return -1;
        struct fetch_doc doc = {0};
        struct manifest_desc m = {0};
        struct manifest_image *img = calloc(1, sizeof *img);
        int rc = -1;
        if (!img)
                error_set(err, ENOMEM, "pull");
        else if (fetch_all(q, r, &doc, &m, img, ret, err) == 0 &&
                 make_layout(q, &m, img, ret, err) == 0)
                rc = 0;
        if (rc < 0 && ret->layout[0])
                pull_done(q->root, ret);
        fetch_doc_free(&doc);
        free(img);
        registry_free(r);
        return rc < 0 ? error_wrap(err, "pull '%s'", ret->name) : 0;
}

void pull_done(int root, struct pull_result *r)
{
        char sub[128], lock[96];
        if (r->layout[0]) {
                snprintf(sub, sizeof sub, "%s/blobs/sha256", r->layout);
                int fd = openat(root, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
                DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
                for (struct dirent *e; d && (e = readdir(d));)
                        if (e->d_name[0] != '.')
                                unlinkat(fd, e->d_name, 0);
                if (d)
                        closedir(d);
                else if (fd >= 0)
                        close(fd);
                unlinkat(root, sub, AT_REMOVEDIR);
                snprintf(sub, sizeof sub, "%s/blobs", r->layout);
                unlinkat(root, sub, AT_REMOVEDIR);
                snprintf(sub, sizeof sub, "%s/oci-layout", r->layout);
                unlinkat(root, sub, 0);
                snprintf(sub, sizeof sub, "%s/index.json", r->layout);
                unlinkat(root, sub, 0);
                unlinkat(root, r->layout, AT_REMOVEDIR);
                snprintf(lock, sizeof lock, "%s.lock", r->layout);
                unlinkat(root, lock, 0);
        }
        if (r->layout_lock >= 0)
                close(r->layout_lock);
        r->layout_lock = -1;
        r->layout[0] = '\0';
}
