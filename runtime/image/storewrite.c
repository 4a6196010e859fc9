/* storewrite.c - an image added to the store (storewrite.h, docs/store.md).
 *
 * Kernel features: renameat2(2) with RENAME_NOREPLACE (Linux 3.15; ext4, xfs, btrfs, tmpfs),
 * flock(2), and for a user the user namespace of `crib image import` (import.c).
 *
 * Order: the source is read and every digest checked first (source_resolve), so a bad image
 * changes nothing. Then, under ROOT/store.lock shared, each layer the store lacks is applied
 * alone into tmp/layer-DIFFID/root by layer.c in the store's form (whiteouts as overlayfs reads
 * them), its uncompressed bytes hashed on the way and checked against the diff_id the config
 * gives it, so a layer directory always holds what its name says, whatever image claims it.
 * layer.json is written in tmp/ and the directory renamed into layers/ with RENAME_NOREPLACE.
 * tmp/layer-DIFFID.lock, held exclusive, makes a second writer of the same layer wait and then
 * find it made: the work is done once. The image (config.json, manifest.json, crib.ini,
 * image.json) is made the same way in tmp/image-HEX, then its name written as a file renamed
 * over names/ENC. A killed add leaves only tmp/ entries, whose locks died with it (prune). */
#define _GNU_SOURCE
#include "storewrite.h"

#include <archive.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/sys.h"
#include "import.h"
#include "layerwalk.h"
#include "source.h"

int storewrite_lock(int root, bool exclusive, struct error *err)
{
        int fd = openat(root, "store.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
                return error_set(err, errno, "cannot open the image store's lock");
        while (flock(fd, exclusive ? LOCK_EX : LOCK_SH) < 0)
                if (errno != EINTR) {
                        close(fd);
                        return error_set(err, errno, "cannot lock the image store");
                }
        return fd;
}

/* tmp/NAME.lock, held exclusive: waits for another writer of NAME */
static int tmp_lock(int root, const char *name, struct error *err)
{
        char p[128];
        snprintf(p, sizeof p, "tmp/%s.lock", name);
        int fd = openat(root, p, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
                return error_set(err, errno, "cannot open '%s' in the image store", p);
        while (flock(fd, LOCK_EX) < 0)
                if (errno != EINTR) {
                        close(fd);
                        return error_set(err, errno, "cannot lock '%s'", p);
                }
        return fd;
}

/* `name` in the directory `dirfd`, new */
static int put_file(int dirfd, const char *name, const char *text, size_t len, struct error *err)
{
        _cleanup_close_ int fd =
                openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 || sys_write_all(fd, text, len) < 0 || fsync(fd) < 0)
                return error_set(err, errno, "cannot write '%s'", name);
        return 0;
}

int storewrite_file(int root, const char *dir, const char *name, const char *text, size_t len,
                    struct error *err)
{
        static unsigned n;
        char tmp[64], to[512];
        snprintf(tmp, sizeof tmp, "tmp/file-%d-%u", (int)getpid(), n++);
        snprintf(to, sizeof to, "%s/%s", dir, name);
        unlinkat(root, tmp, 0);
        if (put_file(root, tmp, text, len, err) < 0)
                return -1;
        if (renameat(root, tmp, root, to) < 0) {
                int e = errno;
                unlinkat(root, tmp, 0);
                return error_set(err, e, "cannot write '%s' in the image store", to);
        }
        return 0;
}

static int put_json(int dirfd, const char *name, struct json_object *o, struct error *err)
{
        size_t len;
        const char *s = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN, &len);
        char *t = s ? malloc(len + 2) : NULL;
        if (!t)
                return error_set(err, ENOMEM, "out of memory");
        memcpy(t, s, len);
        t[len++] = '\n';
        int r = put_file(dirfd, name, t, len, err);
        free(t);
        return r;
}

/* Move tmp/NAME (the descriptor `tmp`) to DIR/HEX unless it is there; *ret_lost when it was */
static int publish(int root, int tmp, const char *name, const char *dir, const char *hex,
                   bool *ret_lost, struct error *err)
{
        char to[128];
        snprintf(to, sizeof to, "%s/%s", dir, hex);
        *ret_lost = false;
        if (renameat2(tmp, name, root, to, RENAME_NOREPLACE) == 0)
                return 0;
        if (errno != EEXIST && errno != ENOTEMPTY)
                return error_set(err, errno, "cannot move '%s' into the image store's %s/", name,
                                 dir);
        *ret_lost = true;
        return layer_remove(tmp, name, err);
}

/* a work directory tmp/NAME, emptied of what a killed writer left */
static int work_dir(int tmp, const char *name, struct error *err)
{
        if (layer_remove(tmp, name, err) < 0)
                return -1;
        if (mkdirat(tmp, name, 0700) < 0)
                return error_set(err, errno, "cannot make 'tmp/%s' in the image store", name);
        int fd = openat(tmp, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "cannot open 'tmp/%s'", name);
        return fd;
}

struct adding {
        const struct storeadd_opts *o;
        size_t layer; /* being unpacked, 1-based */
        struct source *src;
        struct source_image *img;
        char diff[SOURCE_MAX_LAYERS][STORE_ID_LEN + 1];
        uint64_t sizes[SOURCE_MAX_LAYERS];
        int tmp;
        struct layer_ctx lc;
        struct storeadd_result *res;
};

static void on_progress(void *ctx, uint64_t bytes)
{
        struct adding *ad = ctx;
        if (ad->o->progress)
                ad->o->progress(ad->o->ctx, ad->layer, ad->img->nlayers, bytes);
}

static bool present(int root, const char *dir, const char *hex, const char *file)
{
        char p[160];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s/%s", dir, hex, file);
        return fstatat(root, p, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* the size layers/HEX/layer.json gives */
static uint64_t layer_size(int root, const char *hex)
{
        char p[128];
        struct error e;
        snprintf(p, sizeof p, "layers/%s/layer.json", hex);
        struct json_object *o = store_read_json(root, p, &e), *v;
        uint64_t n = 0;
        if (o && json_object_object_get_ex(o, "size", &v))
                n = (uint64_t)json_object_get_int64(v);
        json_object_put(o);
        return n;
}

/* Layer `i` applied into tmp/layer-HEX/root and checked, then moved to layers/HEX */
static int unpack(struct adding *ad, size_t i, int wd, const char *name, struct error *err)
{
        struct archive *a;
        char what[128];
        const char *hex = ad->diff[i] + 7;
        uint64_t bytes = ad->lc.stats.bytes, entries = ad->lc.stats.entries;
        snprintf(what, sizeof what, "layer %zu (%.19s)", i + 1, ad->diff[i]);
        ad->layer = i + 1;
        on_progress(ad, ad->lc.stats.bytes);
        if (mkdirat(wd, "root", 0755) < 0)
                return error_set(err, errno, "cannot make 'tmp/%s/root'", name);
        _cleanup_close_ int rfd =
                openat(wd, "root", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        /* 0755 whatever the umask: the topmost layer's root is the container's / */
        if (rfd < 0 || fchmod(rfd, 0755) < 0)
                return error_set(err, errno, "cannot open 'tmp/%s/root'", name);
        ad->lc.root = rfd;
        if (source_layer_open_diff(ad->src, ad->img, i, &a, err) < 0)
                return -1;
        if (layer_apply(&ad->lc, a, what, err) < 0) {
                archive_read_free(a);
                layer_finish(&ad->lc);
                return -1;
        }
        layer_finish(&ad->lc);
        if (source_layer_diff_done(ad->src, ad->img, i, a, ad->diff[i], err) < 0)
                return -1;
        ad->sizes[i] = ad->lc.stats.bytes - bytes;
        struct json_object *o = json_object_new_object();
        json_object_object_add(o, "diff_id", json_object_new_string(ad->diff[i]));
        json_object_object_add(o, "size", json_object_new_int64((int64_t)ad->sizes[i]));
        json_object_object_add(o, "entries",
                               json_object_new_int64((int64_t)(ad->lc.stats.entries - entries)));
        int r = put_json(wd, "layer.json", o, err);
        json_object_put(o);
        bool lost;
        if (r < 0 || publish(ad->o->root, ad->tmp, name, "layers", hex, &lost, err) < 0)
                return -1;
        if (!lost)
                ad->res->nnew++;
        return 0;
}

/* Layer `i` made in tmp/ under its lock, unless another writer made it while this one waited */
static int make_layer(struct adding *ad, size_t i, const char *name, struct error *err)
{
        _cleanup_close_ int lock = tmp_lock(ad->o->root, name, err);
        if (lock < 0)
                return -1;
        if (present(ad->o->root, "layers", ad->diff[i] + 7, "layer.json"))
                return 1;
        int wd = work_dir(ad->tmp, name, err);
        if (wd < 0)
                return -1;
        int r = unpack(ad, i, wd, name, err);
        close(wd);
        if (r < 0) {
                struct error e;
                layer_remove(ad->tmp, name, &e);
                return -1;
        }
        return 0;
}

/* Layer `i` in the store: made now, unless it is there */
static int add_layer(struct adding *ad, size_t i, struct error *err)
{
        const char *hex = ad->diff[i] + 7;
        char name[80];
        snprintf(name, sizeof name, "layer-%s", hex);
        int r = 1;
        if (!present(ad->o->root, "layers", hex, "layer.json") &&
            (r = make_layer(ad, i, name, err)) < 0)
                return -1;
        if (r > 0)
                ad->sizes[i] = layer_size(ad->o->root, hex);
        return 0;
}

/* The image's /etc/passwd or /etc/group: the topmost layer's that has it (or a whiteout) */
static int layers_file(struct adding *ad, const char *path, char **ret, struct error *err)
{
        *ret = NULL;
        for (size_t i = ad->img->nlayers; i-- > 0;) {
                char p[128];
                struct stat st;
                snprintf(p, sizeof p, "layers/%s/root", ad->diff[i] + 7);
                _cleanup_close_ int fd =
                        openat(ad->o->root, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0)
                        return error_set(err, errno, "cannot open '%s' in the image store", p);
                if (fstatat(fd, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        continue;
                if (S_ISCHR(st.st_mode) && st.st_rdev == 0)
                        return 0; /* whited out */
                return import_read_file(fd, path, ret, err);
        }
        return 0;
}

/* crib.ini of the image, without a rootfs line */
static int write_spec(struct adding *ad, int wd, struct error *err)
{
        _cleanup_free_ char *passwd = NULL, *group = NULL, *text = NULL;
        size_t len = 0;
        if (layers_file(ad, "etc/passwd", &passwd, err) < 0 ||
            layers_file(ad, "etc/group", &group, err) < 0)
                return -1;
        char source[4200];
        snprintf(source, sizeof source, "'%s'", ad->o->source);
        struct storeadd_result *res = ad->res;
        struct imgspec_opts so = {.source = source,
                                  .platform = ad->img->platform[0] ? ad->img->platform : NULL,
                                  .passwd = passwd,
                                  .group = group,
                                  .root = !res->userns,
                                  .subids = res->subids,
                                  .no_rootfs = true};
        FILE *f = open_memstream(&text, &len);
        if (!f)
                return error_set(err, ENOMEM, "out of memory");
        int r = imgspec_write(ad->img->config, &so, f, &res->spec, err);
        if (fclose(f) != 0 && r == 0)
                r = error_set(err, ENOMEM, "out of memory");
        return r < 0 ? -1 : put_file(wd, "crib.ini", text, len, err);
}

/* config.created (RFC 3339, UTC) in seconds; 0 when it has none */
static int64_t created_of(struct json_object *config)
{
        struct json_object *v;
        struct tm tm = {0};
        if (!json_object_object_get_ex(config, "created", &v) ||
            !json_object_is_type(v, json_type_string) ||
            !strptime(json_object_get_string(v), "%Y-%m-%dT%H:%M:%S", &tm))
                return 0;
        return (int64_t)timegm(&tm);
}

static int write_image_json(struct adding *ad, int wd, struct error *err)
{
        struct source_image *img = ad->img;
        struct json_object *o = json_object_new_object(), *ls = json_object_new_array(),
                           *ns = json_object_new_array();
        uint64_t size = 0;
        for (size_t i = 0; i < img->nlayers; i++) {
                json_object_array_add(ls, json_object_new_string(ad->diff[i]));
                size += ad->sizes[i];
        }
        if (ad->res->name[0])
                json_object_array_add(ns, json_object_new_string(ad->res->name));
        json_object_object_add(o, "id", json_object_new_string(ad->res->id));
        json_object_object_add(
                o, "manifest",
                json_object_new_string(store_id_ok(img->manifest) ? img->manifest : ""));
        json_object_object_add(o, "platform", json_object_new_string(img->platform));
        json_object_object_add(o, "layers", ls);
        json_object_object_add(o, "names", ns);
        json_object_object_add(o, "created", json_object_new_int64(created_of(img->config)));
        json_object_object_add(o, "size", json_object_new_int64((int64_t)size));
        int r = put_json(wd, "image.json", o, err);
        json_object_put(o);
        return r;
}

/* images/HEX: made now unless it is there */
static int add_image(struct adding *ad, struct error *err)
{
        const char *hex = ad->res->id + 7;
        int root = ad->o->root;
        char name[80];
        snprintf(name, sizeof name, "image-%s", hex);
        _cleanup_close_ int lock = tmp_lock(root, name, err);
        if (lock < 0)
                return -1;
        if (present(root, "images", hex, "image.json")) {
                ad->res->image_was_there = true;
                return 0;
        }
        _cleanup_close_ int wd = work_dir(ad->tmp, name, err);
        bool lost;
        struct source_image *img = ad->img;
        if (wd < 0 || put_file(wd, "config.json", img->config_text, img->config_len, err) < 0 ||
            (img->manifest_text &&
             put_file(wd, "manifest.json", img->manifest_text, img->manifest_len, err) < 0) ||
            write_spec(ad, wd, err) < 0 || write_image_json(ad, wd, err) < 0 ||
            publish(root, ad->tmp, name, "images", hex, &lost, err) < 0) {
                struct error e;
                layer_remove(ad->tmp, name, &e);
                return -1;
        }
        ad->res->image_was_there = lost;
        return 0;
}

/* The image's id, name and diff_ids, checked, before anything is written */
static int plan_add(struct adding *ad, struct error *err)
{
        struct source_image *img = ad->img;
        struct storeadd_result *res = ad->res;
        if (img->kind == SOURCE_ROOTFS_TAR || !img->config || !img->config_text) {
                error_set(err, 0, "'%s' is a filesystem tarball: it has no image config to store",
                          ad->o->source);
                return error_hint(err, "import it into a directory: crib image import SOURCE DIR");
        }
        if (!store_id_ok(img->config_digest))
                return error_set(err, 0, "the image's config has no sha256 digest");
        snprintf(res->id, sizeof res->id, "%.71s", img->config_digest);
        const char *name = ad->o->name ? ad->o->name : img->ref_name[0] ? img->ref_name : NULL;
        if (name && store_name_complete(name, res->name, sizeof res->name, err) < 0) {
                if (ad->o->name)
                        return error_wrap(err, "--name");
                res->name[0] = '\0'; /* the source's own name is only a hint */
        }
        struct json_object *rootfs, *diffs;
        if (!json_object_object_get_ex(img->config, "rootfs", &rootfs) ||
            !json_object_object_get_ex(rootfs, "diff_ids", &diffs) ||
            !json_object_is_type(diffs, json_type_array) ||
            json_object_array_length(diffs) != img->nlayers)
                return error_set(err, 0,
                                 "the image's config.rootfs.diff_ids does not list its "
                                 "%zu layers",
                                 img->nlayers);
        if (img->nlayers > STORE_MAX_LAYERS)
                return error_set(err, 0, "the image has %zu layers; the store takes %d",
                                 img->nlayers, STORE_MAX_LAYERS);
        for (size_t i = 0; i < img->nlayers; i++) {
                const char *d = json_object_get_string(json_object_array_get_idx(diffs, i));
                if (!d || !store_id_ok(d))
                        return error_set(err, 0,
                                         "config.rootfs.diff_ids[%zu] is not a sha256 "
                                         "digest",
                                         i);
                snprintf(ad->diff[i], sizeof ad->diff[i], "%s", d);
        }
        res->nlayers = img->nlayers;
        snprintf(res->platform, sizeof res->platform, "%s", img->platform);
        return 0;
}

/* Under the lock: the layers, the image, its name */
static int add_locked(struct adding *ad, struct error *err)
{
        int root = ad->o->root;
        static const char *const dirs[] = {"tmp", "layers", "images", "names"};
        for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
                if (mkdirat(root, dirs[i], 0700) < 0 && errno != EEXIST)
                        return error_set(err, errno, "cannot make '%s' in the image store",
                                         dirs[i]);
        if ((ad->tmp = openat(root, "tmp", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
                return error_set(err, errno, "cannot open the image store's tmp/");
        ad->lc = (struct layer_ctx){.max_bytes = ad->o->max_bytes ? ad->o->max_bytes
                                                                  : IMPORT_DEFAULT_MAX_BYTES,
                                    .dir = "the image store",
                                    .as_root = geteuid() == 0 && getegid() == 0,
                                    .overlay = true,
                                    .progress = on_progress,
                                    .progress_ctx = ad};
        import_reserve(ad->tmp, &ad->lc.min_free, &ad->lc.min_free_inodes);
        for (size_t i = 0; i < ad->img->nlayers; i++)
                if (add_layer(ad, i, err) < 0)
                        return -1;
        ad->res->stats = ad->lc.stats;
        if (add_image(ad, err) < 0)
                return -1;
        if (!ad->res->name[0])
                return 0;
        char enc[STORE_REF_MAX + 1], line[STORE_ID_LEN + 2];
        snprintf(line, sizeof line, "%s\n", ad->res->id);
        if (store_name_file(ad->res->name, enc, sizeof enc, err) < 0)
                return -1;
        return storewrite_file(root, "names", enc, line, strlen(line), err);
}

int storeadd_run(const struct storeadd_opts *o, struct storeadd_result *ret, struct error *err)
{
        memset(ret, 0, sizeof *ret);
        struct platform machine;
        import_machine(&machine);
        _cleanup_free_ struct adding *ad = calloc(1, sizeof *ad);
        _cleanup_free_ struct source_image *img = calloc(1, sizeof *img);
        if (!ad || !img)
                return error_set(err, ENOMEM, "out of memory");
        *ad = (struct adding){.o = o, .img = img, .res = ret, .tmp = -1};
        int r = -1, lock = -1;
        struct import_result ir;
        memset(&ir, 0, sizeof ir);
        if (source_open(o->source, &ad->src, err) < 0)
                return -1;
        if (source_resolve(ad->src, o->platform ? o->platform : &machine, o->platform != NULL, img,
                           NULL, NULL, err) < 0 ||
            plan_add(ad, err) < 0 || (lock = storewrite_lock(o->root, false, err)) < 0)
                goto out;
        if (geteuid() != 0 && import_userns(&ir, err) < 0)
                goto out;
        ret->userns = ir.userns;
        ret->subids = ir.subids;
        r = add_locked(ad, err);
out:
        if (ad->tmp >= 0)
                close(ad->tmp);
        if (lock >= 0)
                close(lock);
        source_image_free(img);
        source_close(ad->src);
        return r;
}
