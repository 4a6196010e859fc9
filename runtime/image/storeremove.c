/* storeremove.c - crib rmi, crib image prune and crib system df over the store (storeremove.h,
 * docs/store.md).
 *
 * Under ROOT/store.lock held exclusive, so no add runs meanwhile (an add holds it shared). What
 * goes is first renamed into tmp/ (one rename: it is gone from layers/ or images/ at once),
 * then removed there, without following a symbolic link (layerwalk.c); a removal killed
 * half-way leaves only tmp/, which prune empties. Not root, all of it runs in the import's
 * user namespace (import.c), where the files of the user's subordinate ids are theirs. */
#define _GNU_SOURCE
#include "storeremove.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "import.h"
#include "layerwalk.h"
#include "storewrite.h"

/* every image of the store, and the images containers use */
struct inventory {
        struct store_image *img;
        size_t n, cap;
        char (*used)[STORE_ID_LEN + 1]; /* containers/ID's images */
        char (*user)[80];               /* and the containers' names */
        size_t nused;
};

static void inventory_free(struct inventory *v)
{
        free(v->img);
        free(v->used);
        free(v->user);
        memset(v, 0, sizeof *v);
}

static int collect(void *ctx, const struct store_image *img)
{
        struct inventory *v = ctx;
        if (v->n == v->cap) {
                size_t cap = v->cap ? v->cap * 2 : 16;
                struct store_image *m = realloc(v->img, cap * sizeof *m);
                if (!m)
                        return -1;
                v->img = m;
                v->cap = cap;
        }
        v->img[v->n++] = *img;
        return 0;
}

/* The images the containers of ROOT/containers/ use (container.json's "image") */
static int containers_of(int root, struct inventory *v, struct error *err)
{
        int fd = openat(root, "containers", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return errno == ENOENT ? 0 : error_set(err, errno, "cannot read containers/");
        _cleanup_closedir_ DIR *d = fdopendir(fd);
        if (!d) {
                close(fd);
                return error_set(err, errno, "cannot read containers/");
        }
        for (struct dirent *de; (de = readdir(d));) {
                char p[NAME_MAX + 32];
                struct error e;
                struct json_object *o, *im, *nm;
                if (de->d_name[0] == '.')
                        continue;
                snprintf(p, sizeof p, "containers/%s/container.json", de->d_name);
                if (!(o = store_read_json(root, p, &e)))
                        continue; /* one being made or removed */
                void *a = realloc(v->used, (v->nused + 1) * sizeof *v->used);
                void *b = a ? realloc(v->user, (v->nused + 1) * sizeof *v->user) : NULL;
                if (a)
                        v->used = a;
                if (b)
                        v->user = b;
                if (!a || !b) {
                        json_object_put(o);
                        return error_set(err, ENOMEM, "out of memory");
                }
                snprintf(v->used[v->nused], sizeof v->used[0], "%s",
                         json_object_object_get_ex(o, "image", &im) ? json_object_get_string(im)
                                                                    : "");
                snprintf(v->user[v->nused], sizeof v->user[0], "%.79s",
                         json_object_object_get_ex(o, "name", &nm) ? json_object_get_string(nm)
                                                                   : de->d_name);
                v->nused++;
                json_object_put(o);
        }
        return 0;
}

static int inventory(int root, struct inventory *v, struct error *err)
{
        memset(v, 0, sizeof *v);
        if (store_each_image(root, collect, v, err) < 0 || containers_of(root, v, err) < 0) {
                inventory_free(v);
                return -1;
        }
        return 0;
}

/* the container that uses image `id`, or NULL */
static const char *used_by(const struct inventory *v, const char *id)
{
        for (size_t i = 0; i < v->nused; i++)
                if (!strcmp(v->used[i], id))
                        return v->user[i];
        return NULL;
}

/* whether an image of `v` but `skip` lists the layer `diff` */
static bool listed(const struct inventory *v, const char *diff, const char *skip)
{
        for (size_t i = 0; i < v->n; i++)
                if ((!skip || strcmp(v->img[i].id, skip)))
                        for (size_t k = 0; k < v->img[i].nlayers; k++)
                                if (!strcmp(v->img[i].layers[k], diff))
                                        return true;
        return false;
}

/* DIR/NAME moved to tmp/ and removed there */
static int drop(int root, const char *dir, const char *name, struct error *err)
{
        char from[NAME_MAX + 16], to[NAME_MAX + 32];
        snprintf(from, sizeof from, "%s/%s", dir, name);
        snprintf(to, sizeof to, "tmp/rm-%.200s-%d", name, (int)getpid());
        if (renameat(root, from, root, to) < 0)
                return errno == ENOENT ? 0 : error_set(err, errno, "cannot remove '%s'", from);
        _cleanup_close_ int tmp = openat(root, "tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (tmp < 0)
                return error_set(err, errno, "cannot open tmp/");
        return layer_remove(tmp, to + 4, err) < 0 ? error_wrap(err, "cannot remove '%s'", from) : 0;
}

static uint64_t layer_bytes(int root, const char *hex)
{
        char p[128];
        struct error e;
        struct json_object *o, *v;
        uint64_t n = 0;
        snprintf(p, sizeof p, "layers/%s/layer.json", hex);
        if ((o = store_read_json(root, p, &e)) && json_object_object_get_ex(o, "size", &v))
                n = (uint64_t)json_object_get_int64(v);
        json_object_put(o);
        return n;
}

/* The store locked exclusive and, not root, this process in the user namespace */
static int enter(int root, struct error *err)
{
        if (mkdirat(root, "tmp", 0700) < 0 && errno != EEXIST)
                return error_set(err, errno, "cannot make the image store's tmp/");
        int lock = storewrite_lock(root, true, err);
        struct import_result ir;
        memset(&ir, 0, sizeof ir);
        if (lock >= 0 && geteuid() != 0 && import_userns(&ir, err) < 0) {
                close(lock);
                return -1;
        }
        return lock;
}

/* images/HEX and the layers no image of `v` but it lists */
static int drop_image(int root, const struct inventory *v, const struct store_image *img,
                      size_t *ret_layers, uint64_t *ret_bytes, struct error *err)
{
        if (drop(root, "images", img->id + 7, err) < 0)
                return -1;
        for (size_t k = 0; k < img->nlayers; k++) {
                if (listed(v, img->layers[k], img->id))
                        continue;
                uint64_t b = layer_bytes(root, img->layers[k] + 7);
                if (drop(root, "layers", img->layers[k] + 7, err) < 0)
                        return -1;
                ++*ret_layers;
                *ret_bytes += b;
        }
        return 0;
}

/* Whether `what` named the image `img` by one of its names; that name into `ret` */
static bool by_name(const char *what, const struct store_image *img, char *ret, size_t len)
{
        char full[STORE_REF_MAX + 1];
        struct error e;
        for (size_t i = 0; i < img->nnames; i++)
                if (!strcmp(img->names[i], what) ||
                    (store_name_complete(what, full, sizeof full, &e) == 0 &&
                     !strcmp(img->names[i], full))) {
                        snprintf(ret, len, "%s", img->names[i]);
                        return true;
                }
        return false;
}

static int unname(int root, const char *name, struct error *err)
{
        char enc[STORE_REF_MAX + 1], p[STORE_REF_MAX + 8];
        if (store_name_file(name, enc, sizeof enc, err) < 0)
                return -1;
        snprintf(p, sizeof p, "names/%s", enc);
        if (unlinkat(root, p, 0) < 0 && errno != ENOENT)
                return error_set(err, errno, "cannot remove the name '%s'", name);
        return 0;
}

static int rmi_locked(int root, const char *what, struct store_image *img,
                      struct storermi_result *ret, struct error *err)
{
        struct inventory v;
        char name[STORE_REF_MAX + 1];
        if (store_find_image(root, what, img, err) < 0 || inventory(root, &v, err) < 0)
                return -1;
        snprintf(ret->id, sizeof ret->id, "%s", img->id);
        bool named = by_name(what, img, name, sizeof name);
        const char *user = used_by(&v, img->id);
        int r = -1;
        if (named && img->nnames > 1) {
                if (unname(root, name, err) == 0)
                        ret->nnames = 1, r = 0;
        } else if (user) {
                error_set(err, EBUSY, "the container '%s' uses the image %.19s ('%s')", user,
                          img->id, what);
                error_hint(err, "remove the container first: crib rm %s", user);
        } else {
                r = 0;
                for (size_t i = 0; i < img->nnames && r == 0; i++)
                        if ((r = unname(root, img->names[i], err)) == 0)
                                ret->nnames++;
                if (r == 0)
                        r = drop_image(root, &v, img, &ret->layers, &ret->bytes, err);
                ret->image_removed = r == 0;
        }
        inventory_free(&v);
        return r;
}

int storermi_run(int root, const char *what, struct storermi_result *ret, struct error *err)
{
        memset(ret, 0, sizeof *ret);
        _cleanup_free_ struct store_image *img = malloc(sizeof *img);
        if (!img)
                return error_set(err, ENOMEM, "out of memory");
        int lock = enter(root, err);
        if (lock < 0)
                return -1;
        int r = rmi_locked(root, what, img, ret, err);
        close(lock);
        return r;
}

/* The apparent bytes of the regular files below `name` in `dirfd`, never following a link */
static uint64_t du(int at, const char *name, int depth)
{
        struct stat st;
        if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return 0;
        if (!S_ISDIR(st.st_mode))
                return S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
        int fd = depth > 512 ? -1
                             : openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        _cleanup_closedir_ DIR *d = fd < 0 ? NULL : fdopendir(fd);
        uint64_t n = 0;
        if (!d) {
                if (fd >= 0)
                        close(fd);
                return 0;
        }
        for (struct dirent *de; (de = readdir(d));)
                if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                        n += du(dirfd(d), de->d_name, depth + 1);
        return n;
}

/* Each entry of ROOT's `dir` (skipping dot files): `fn` */
static int each_entry(int root, const char *dir, int (*fn)(void *ctx, int dfd, const char *name),
                      void *ctx, struct error *err)
{
        int fd = openat(root, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return errno == ENOENT ? 0 : error_set(err, errno, "cannot read '%s'", dir);
        _cleanup_closedir_ DIR *d = fdopendir(fd);
        if (!d) {
                close(fd);
                return error_set(err, errno, "cannot read '%s'", dir);
        }
        for (struct dirent *de; (de = readdir(d));)
                if (de->d_name[0] != '.' && fn(ctx, dirfd(d), de->d_name) < 0)
                        return -1;
        return 0;
}

struct pruning {
        int root;
        struct inventory *v;
        struct storeprune_result *res;
        struct error *err;
        bool locks; /* the tmp/ pass over *.lock files */
};

static int prune_layer(void *ctx, int dfd, const char *name)
{
        struct pruning *p = ctx;
        char diff[STORE_ID_LEN + 8];
        (void)dfd;
        snprintf(diff, sizeof diff, "sha256:%.64s", name);
        if (store_id_ok(diff) && strlen(name) == 64 && listed(p->v, diff, NULL))
                return 0;
        p->res->bytes += layer_bytes(p->root, name);
        p->res->layers++;
        return drop(p->root, "layers", name, p->err);
}

static int prune_blob(void *ctx, int dfd, const char *name)
{
        struct pruning *p = ctx;
        p->res->bytes += du(dfd, name, 0);
        p->res->blobs++;
        return layer_remove(dfd, name, p->err);
}

/* tmp/NAME: removed unless a live process holds tmp/NAME.lock (or NAME is that lock) */
static int prune_tmp(void *ctx, int dfd, const char *name)
{
        struct pruning *p = ctx;
        size_t n = strlen(name);
        bool is_lock = n > 5 && !strcmp(name + n - 5, ".lock");
        if (is_lock != p->locks)
                return 0;
        char lock[NAME_MAX + 8];
        snprintf(lock, sizeof lock, "%s%s", name, is_lock ? "" : ".lock");
        _cleanup_close_ int fd = openat(dfd, lock, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0)
                return 0; /* its writer lives */
        if (!is_lock)
                p->res->tmp++;
        return layer_remove(dfd, name, p->err);
}

static int prune_locked(int root, struct storeprune_result *ret, struct error *err)
{
        struct inventory v;
        if (inventory(root, &v, err) < 0)
                return -1;
        int r = 0;
        for (size_t i = 0; i < v.n && r == 0; i++) {
                if (v.img[i].nnames || used_by(&v, v.img[i].id))
                        continue;
                r = drop(root, "images", v.img[i].id + 7, err);
                v.img[i].nlayers = 0; /* its layers are no longer listed */
                ret->images++;
        }
        struct pruning p = {.root = root, .v = &v, .res = ret, .err = err};
        if (r == 0)
                r = each_entry(root, "layers", prune_layer, &p, err);
        if (r == 0)
                r = each_entry(root, "blobs/sha256", prune_blob, &p, err);
        if (r == 0)
                r = each_entry(root, "tmp", prune_tmp, &p, err);
        p.locks = true;
        if (r == 0)
                r = each_entry(root, "tmp", prune_tmp, &p, err);
        inventory_free(&v);
        return r;
}

int storeprune_run(int root, struct storeprune_result *ret, struct error *err)
{
        memset(ret, 0, sizeof *ret);
        int lock = enter(root, err);
        if (lock < 0)
                return -1;
        int r = prune_locked(root, ret, err);
        close(lock);
        return r;
}

struct counting {
        int root;
        struct inventory *v;
        struct storedf_result *res;
};

static int count_layer(void *ctx, int dfd, const char *name)
{
        struct counting *c = ctx;
        char diff[STORE_ID_LEN + 8];
        (void)dfd;
        uint64_t b = layer_bytes(c->root, name);
        snprintf(diff, sizeof diff, "sha256:%.64s", name);
        c->res->layers++;
        c->res->layers_bytes += b;
        if (listed(c->v, diff, NULL))
                c->res->images_bytes += b;
        return 0;
}

static int count_container(void *ctx, int dfd, const char *name)
{
        struct counting *c = ctx;
        _cleanup_close_ int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        c->res->containers++;
        if (fd >= 0)
                c->res->containers_bytes += du(fd, "upper", 0) + du(fd, "rootfs", 0);
        return 0;
}

static int count_blob(void *ctx, int dfd, const char *name)
{
        struct counting *c = ctx;
        c->res->blobs++;
        c->res->blobs_bytes += du(dfd, name, 0);
        return 0;
}

int storedf_run(int root, struct storedf_result *ret, struct error *err)
{
        memset(ret, 0, sizeof *ret);
        struct inventory v;
        struct import_result ir;
        memset(&ir, 0, sizeof ir);
        int lock = storewrite_lock(root, false, err);
        if (lock < 0)
                return -1;
        if ((geteuid() != 0 && import_userns(&ir, err) < 0) || inventory(root, &v, err) < 0) {
                close(lock);
                return -1;
        }
        struct counting c = {.root = root, .v = &v, .res = ret};
        ret->images = v.n;
        int r = each_entry(root, "layers", count_layer, &c, err);
        if (r == 0)
                r = each_entry(root, "containers", count_container, &c, err);
        if (r == 0)
                r = each_entry(root, "blobs/sha256", count_blob, &c, err);
        inventory_free(&v);
        close(lock);
        return r;
}
