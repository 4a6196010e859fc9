/* imgstore.c - the image store's reading side (imgstore.h, docs/store.md): where ROOT is, ROOT
 * opened and checked, an image found by name or id, every image listed, its spec opened.
 *
 * ROOT holds the setuid programs of every image in it, so it is checked as `crib image import`
 * checks DIR (destdir.c): every directory on the way to it one that only root and the caller
 * can change, ROOT itself the caller's, not writable by others, and out of other users' reach
 * (its own mode, or a directory above it). Nothing read from the store becomes a path but
 * digests this file checked (64 hex digits) and names checked by store_name_ok(). */
#define _GNU_SOURCE
#include "imgstore.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "host/account.h"
#include "destdir.h"

#define STORE_MAX_JSON (1 << 20) /* bytes of an image.json */

int store_root_path(const struct store_env *env, char *ret, size_t len, struct error *err)
{
        int n;
        if (env->crib_store && *env->crib_store)
                n = snprintf(ret, len, "%s", env->crib_store);
        else if (env->euid == 0)
                n = snprintf(ret, len, "/var/lib/crib");
        else if (env->xdg_data_home && env->xdg_data_home[0] == '/')
                n = snprintf(ret, len, "%s/crib", env->xdg_data_home);
        else if (env->home && env->home[0] == '/')
                n = snprintf(ret, len, "%s/.local/share/crib", env->home);
        else {
                error_set(err, 0,
                          "no place for the image store: neither XDG_DATA_HOME nor HOME "
                          "is an absolute path");
                return error_hint(err, "set CRIB_STORE to a directory of yours");
        }
        if (n < 0 || (size_t)n >= len)
                return error_set(err, ENAMETOOLONG, "the image store's path");
        return 0;
}

/* Make the directories above ROOT that are missing (as mkdir -p would; the walk checks them) */
static void make_parents(const char *root)
{
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s", root);
        for (char *p = path + 1; (p = strchr(p, '/')); p++) {
                *p = '\0';
                mkdir(path, 0755);
                *p = '/';
        }
}

/* ROOT (`fd`, its stat `st`) is the caller's and out of other users' reach */
static int root_check(struct destdir *w, int fd, const struct stat *st, bool shut,
                      struct error *err)
{
        if (st->st_uid != w->uid || (st->st_mode & 022)) {
                error_set(err, 0, "the image store '%s' is not yours alone (owner %u, mode %04o)",
                          w->dir, (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777));
                return error_hint(err, "use a store of your own (CRIB_STORE=DIR); crib makes it "
                                       "0700");
        }
        if (!shut && !reach_shuts_out(fd, st, w->uid, &w->cache)) {
                error_set(err, 0,
                          "other users can reach the image store '%s' (mode %04o%s): the setuid "
                          "programs of its images would run as %s for them",
                          w->dir, (unsigned)(st->st_mode & 07777),
                          reach_has_acl(fd) ? " and an ACL" : "", w->uid ? "you" : "root");
                return error_hint(err, "chmod 700 %s", w->dir);
        }
        return 0;
}

int store_open_root(const char *root, bool create, struct error *err)
{
        struct destdir w = {.dir = root, .uid = geteuid()};
        char base[NAME_MAX + 1];
        bool shut = false;
        if (create)
                make_parents(root);
        _cleanup_close_ int parent = destdir_open_parent(&w, base, err);
        if (parent < 0 || destdir_check_way(&w, parent, &shut, err) < 0)
                return error_wrap(err, "image store");
        bool made = create && mkdirat(parent, base, 0700) == 0;
        if (create && !made && errno != EEXIST)
                return error_set(err, errno, "cannot make the image store '%s'", root);
        _cleanup_close_ int fd =
                openat(parent, base, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) < 0) {
                if (errno == ENOENT && !create) {
                        error_set(err, ENOENT, "no image store at '%s'", root);
                        return error_hint(err, "put an image in it: crib pull REF, or crib image "
                                               "import SOURCE");
                }
                return error_set(err, errno, "cannot open the image store '%s'", root);
        }
        if (made) {
                /* exactly 0700 whatever the umask; O_PATH cannot fchmod */
                _cleanup_close_ int rd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (rd < 0 || fchmod(rd, 0700) < 0 || fstat(fd, &st) < 0)
                        return error_set(err, errno, "cannot chmod the image store '%s'", root);
        }
        if (root_check(&w, fd, &st, shut || made, err) < 0)
                return -1;
        return take_fd(&fd);
}

bool store_id_ok(const char *id)
{
        if (strncmp(id, "sha256:", 7) || strlen(id) != STORE_ID_LEN)
                return false;
        for (const char *p = id + 7; *p; p++)
                if (!isdigit((unsigned char)*p) && !(*p >= 'a' && *p <= 'f'))
                        return false;
        return true;
}

bool store_name_ok(const char *name)
{
        size_t n = strlen(name);
        if (!n || n > STORE_REF_MAX || name[0] == '/' || name[n - 1] == '/' || name[0] == '.' ||
            strstr(name, "..") || strstr(name, "//") || strstr(name, "/."))
                return false;
        for (const char *p = name; *p; p++)
                if (!isalnum((unsigned char)*p) && !strchr("._-:/@", *p))
                        return false;
        return true;
}

int store_name_file(const char *name, char *ret, size_t len, struct error *err)
{
        if (!store_name_ok(name) || strlen(name) >= len)
                return error_set(err, EINVAL, "'%s' is not an image name crib stores", name);
        for (size_t i = 0; (ret[i] = name[i] == '/' ? '+' : name[i]); i++)
                ;
        return 0;
}

int store_name_complete(const char *what, char *ret, size_t len, struct error *err)
{
        const char *slash = strchr(what, '/');
        size_t dlen = slash ? (size_t)(slash - what) : 0;
        bool domain = slash && (memchr(what, '.', dlen) || memchr(what, ':', dlen) ||
                                (dlen == 9 && !strncmp(what, "localhost", 9)));
        const char *last = strrchr(what, '/');
        last = last ? last + 1 : what;
        bool tagged = strchr(last, ':') || strchr(what, '@');
        int n = snprintf(ret, len, "%s%s%s%s", domain ? "" : "docker.io/",
                         !domain && !slash ? "library/" : "", what, tagged ? "" : ":latest");
        if (n < 0 || (size_t)n >= len)
                return error_set(err, ENAMETOOLONG, "the image name '%s'", what);
        if (!store_name_ok(ret))
                return error_set(err, EINVAL, "'%s' is not an image name", what);
        return 0;
}

struct json_object *store_read_json(int root, const char *path, struct error *err)
{
        _cleanup_close_ int fd = openat(root, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) < 0)
                return error_set(err, errno, "cannot open '%s' in the image store", path), NULL;
        /* a buffer of the file's size (a page for an image.json), not of the limit: every page
         * crib touches costs a fault, on the way to each container's start */
        size_t cap = st.st_size > 0 && st.st_size < STORE_MAX_JSON ? (size_t)st.st_size + 1
                                                                   : STORE_MAX_JSON;
        _cleanup_free_ char *buf = malloc(cap + 1);
        size_t n = 0;
        ssize_t r;
        if (!buf)
                return error_set(err, ENOMEM, "out of memory"), NULL;
        while (n < cap && (r = read(fd, buf + n, cap - n)) != 0) {
                if (r < 0)
                        return error_set(err, errno, "cannot read '%s'", path), NULL;
                n += (size_t)r;
        }
        if (n == cap && cap < STORE_MAX_JSON) /* more than fstat(2) said: it is being changed */
                return error_set(err, 0, "'%s' in the image store grew while read", path), NULL;
        buf[n] = '\0';
        struct json_object *o = json_tokener_parse(buf);
        if (!o || !json_object_is_type(o, json_type_object)) {
                json_object_put(o);
                return error_set(err, 0, "'%s' in the image store is not a JSON object", path),
                       NULL;
        }
        return o;
}

static int copy_string(struct json_object *o, const char *key, char *ret, size_t len)
{
        struct json_object *v;
        ret[0] = '\0';
        if (!json_object_object_get_ex(o, key, &v))
                return 0;
        if (!json_object_is_type(v, json_type_string) ||
            (size_t)json_object_get_string_len(v) >= len)
                return -1;
        snprintf(ret, len, "%s", json_object_get_string(v));
        return 0;
}

/* The string array `key` of `o` into `ret`, each checked by `ok` */
static int copy_array(struct json_object *o, const char *key, char *ret, size_t each, size_t max,
                      size_t *ret_n, bool (*ok)(const char *))
{
        struct json_object *a;
        *ret_n = 0;
        if (!json_object_object_get_ex(o, key, &a))
                return 0;
        if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) > max)
                return -1;
        for (size_t i = 0; i < json_object_array_length(a); i++) {
                struct json_object *v = json_object_array_get_idx(a, i);
                const char *s = json_object_get_string(v);
                if (!json_object_is_type(v, json_type_string) || strlen(s) >= each || !ok(s))
                        return -1;
                snprintf(ret + i * each, each, "%s", s);
        }
        *ret_n = json_object_array_length(a);
        return 0;
}

static int read_name(int root, const char *name, char id[STORE_ID_LEN + 1], struct error *err);

/* The names of `img`: the files of names/ that name it (image.json's are those it had when it
 * was written; a name moves to another image by names/ alone) */
static int names_of(int root, struct store_image *img, struct error *err)
{
        img->nnames = 0;
        int fd = openat(root, "names", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return errno == ENOENT ? 0 : error_set(err, errno, "cannot read the names");
        _cleanup_closedir_ DIR *d = fdopendir(fd);
        if (!d) {
                close(fd);
                return error_set(err, errno, "cannot read the names");
        }
        for (struct dirent *de; (de = readdir(d)) && img->nnames < STORE_MAX_NAMES;) {
                char name[STORE_REF_MAX + 1], id[STORE_ID_LEN + 1];
                struct error e;
                if (de->d_name[0] == '.' || strlen(de->d_name) > STORE_REF_MAX)
                        continue;
                for (size_t i = 0; (name[i] = de->d_name[i] == '+' ? '/' : de->d_name[i]); i++)
                        ;
                if (read_name(root, name, id, &e) == 0 && !strcmp(id, img->id))
                        snprintf(img->names[img->nnames++], sizeof img->names[0], "%s", name);
        }
        return 0;
}

/* images/HEX/image.json into `ret`, and its names from names/ when `names` (else none). Each
 * field is set, none cleared beyond what it holds: a struct store_image is 26 kB, and a page
 * crib touches costs a fault on the way to each container's start. */
static int read_image(int root, const char *id, bool names, struct store_image *ret,
                      struct error *err)
{
        char path[128];
        if (!store_id_ok(id))
                return error_set(err, EINVAL, "'%s' is not an image id", id);
        snprintf(path, sizeof path, "images/%s/image.json", id + 7);
        struct json_object *o = store_read_json(root, path, err);
        if (!o)
                return -1;
        ret->created = 0;
        ret->size = 0;
        struct json_object *v;
        int bad = copy_string(o, "id", ret->id, sizeof ret->id) < 0 || strcmp(ret->id, id) ||
                  copy_string(o, "manifest", ret->manifest, sizeof ret->manifest) < 0 ||
                  (ret->manifest[0] && !store_id_ok(ret->manifest)) ||
                  copy_string(o, "platform", ret->platform, sizeof ret->platform) < 0 ||
                  copy_array(o, "layers", ret->layers[0], sizeof ret->layers[0], STORE_MAX_LAYERS,
                             &ret->nlayers, store_id_ok) < 0 ||
                  copy_array(o, "names", ret->names[0], sizeof ret->names[0], STORE_MAX_NAMES,
                             &ret->nnames, store_name_ok) < 0;
        if (json_object_object_get_ex(o, "created", &v))
                ret->created = json_object_get_int64(v);
        if (json_object_object_get_ex(o, "size", &v))
                ret->size = (uint64_t)json_object_get_int64(v);
        json_object_put(o);
        if (bad)
                return error_set(err, 0, "'%s' in the image store is not what crib writes", path);
        ret->nnames = 0;
        return names ? names_of(root, ret, err) : 0;
}

int store_read_image(int root, const char *id, struct store_image *ret, struct error *err)
{
        return read_image(root, id, true, ret, err);
}

/* The image id a name file names, or ENOENT */
static int read_name(int root, const char *name, char id[STORE_ID_LEN + 1], struct error *err)
{
        char enc[STORE_REF_MAX + 1], path[STORE_REF_MAX + 8], buf[STORE_ID_LEN + 2];
        if (store_name_file(name, enc, sizeof enc, err) < 0)
                return -1;
        snprintf(path, sizeof path, "names/%s", enc);
        _cleanup_close_ int fd = openat(root, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "no image named '%s'", name);
        ssize_t n = read(fd, buf, sizeof buf);
        if (n != STORE_ID_LEN + 1 || buf[STORE_ID_LEN] != '\n')
                return error_set(err, 0, "'%s' in the image store is not an image id", path);
        buf[STORE_ID_LEN] = '\0';
        if (!store_id_ok(buf))
                return error_set(err, 0, "'%s' in the image store is not an image id", path);
        memcpy(id, buf, STORE_ID_LEN + 1);
        return 0;
}

/* The one image whose id's hex starts with `prefix` (4 to 64 hex digits) */
static int find_prefix(int root, const char *prefix, char id[STORE_ID_LEN + 1], struct error *err)
{
        size_t n = strlen(prefix), found = 0;
        if (n < 4 || n > 64 || strspn(prefix, "0123456789abcdef") != n)
                return error_set(err, ENOENT, "no image '%s'", prefix);
        int fd = openat(root, "images", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        _cleanup_closedir_ DIR *d = fd < 0 ? NULL : fdopendir(fd);
        if (!d) {
                if (fd >= 0)
                        close(fd);
                return error_set(err, ENOENT, "no image '%s'", prefix);
        }
        for (struct dirent *de; (de = readdir(d));)
                if (strlen(de->d_name) == 64 && !strncmp(de->d_name, prefix, n) && found++ == 0)
                        snprintf(id, STORE_ID_LEN + 1, "sha256:%s", de->d_name);
        if (found > 1) {
                error_set(err, 0, "%zu images have ids starting with '%s'", found, prefix);
                return error_hint(err, "give more digits of the id (crib images lists them)");
        }
        if (!found)
                return error_set(err, ENOENT, "no image '%s'", prefix);
        return 0;
}

/* The id of the image `what` names (store_find_image's order) */
static int find_id(int root, const char *what, char id[STORE_ID_LEN + 1], struct error *err)
{
        char full[STORE_REF_MAX + 1];
        const char *hex = !strncmp(what, "sha256:", 7) ? what + 7 : what;
        /* a name's file that is there but wrong is that error, not "no such image" */
        if (store_name_ok(what)) {
                if (read_name(root, what, id, err) == 0)
                        return 0;
                if (err->errnum != ENOENT)
                        return -1;
        }
        if (store_name_complete(what, full, sizeof full, err) == 0) {
                if (read_name(root, full, id, err) == 0)
                        return 0;
                if (err->errnum != ENOENT)
                        return -1;
        }
        if (find_prefix(root, hex, id, err) == 0)
                return 0;
        if (err->errnum != ENOENT)
                return -1;
        error_set(err, ENOENT, "no image '%s' in the store", what);
        return error_hint(err,
                          "crib pull %s, or crib image import --name %s SOURCE; crib images "
                          "lists what is there",
                          what, what);
}

int store_find_image(int root, const char *what, struct store_image *ret, struct error *err)
{
        char id[STORE_ID_LEN + 1];
        return find_id(root, what, id, err) < 0 ? -1 : read_image(root, id, true, ret, err);
}

int store_find_image_bare(int root, const char *what, struct store_image *ret, struct error *err)
{
        char id[STORE_ID_LEN + 1];
        return find_id(root, what, id, err) < 0 ? -1 : read_image(root, id, false, ret, err);
}

int store_each_image(int root, int (*fn)(void *ctx, const struct store_image *img), void *ctx,
                     struct error *err)
{
        int fd = openat(root, "images", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return errno == ENOENT ? 0 : error_set(err, errno, "cannot read the images");
        _cleanup_closedir_ DIR *d = fdopendir(fd);
        if (!d) {
                close(fd);
                return error_set(err, errno, "cannot read the images");
        }
        _cleanup_free_ struct store_image *img = malloc(sizeof *img);
        if (!img)
                return error_set(err, ENOMEM, "out of memory");
        for (struct dirent *de; (de = readdir(d));) {
                char id[STORE_ID_LEN + 1];
                snprintf(id, sizeof id, "sha256:%.64s", de->d_name);
                if (strlen(de->d_name) != 64 || !store_id_ok(id))
                        continue;
                if (store_read_image(root, id, img, err) < 0)
                        return -1;
                /* a callback that fails (out of memory) fails the walk: a short list would
                 * let prune take the layers of an image it never saw */
                if (fn(ctx, img) < 0)
                        return error_set(err, ENOMEM, "cannot list the images");
        }
        return 0;
}

int store_open_spec(int root, const struct store_image *img, struct error *err)
{
        char path[128];
        if (!store_id_ok(img->id))
                return error_set(err, EINVAL, "'%s' is not an image id", img->id);
        snprintf(path, sizeof path, "images/%s/crib.ini", img->id + 7);
        int fd = openat(root, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "cannot open the spec of image '%.19s'", img->id);
        return fd;
}

int store_open_mine(bool create, char *path, size_t len, struct error *err)
{
        struct data_dirs dd;
        account_data_dirs(&dd);
        struct store_env env = {.crib_store = dd.crib_store,
                                .xdg_data_home = dd.xdg_data_home,
                                .home = dd.home,
                                .euid = geteuid()};
        if (store_root_path(&env, path, len, err) < 0)
                return -1;
        return store_open_root(path, create, err);
}
