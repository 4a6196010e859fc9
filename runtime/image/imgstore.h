/* imgstore.h - the image store (docs/store.md): images by name and digest, each layer unpacked
 * once, a directory for each container made from an image. This header is the part crib
 * itself links (reading, and a container's directory); the writers (pull, import, rmi,
 * prune) are crib-image's (storewrite.h). */
#ifndef CRIB_IMGSTORE_H
#define CRIB_IMGSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"

struct json_object;

#define STORE_MAX_LAYERS 128 /* lowerdir= with l/0..l/127 fits in a page */
#define STORE_MAX_NAMES  64  /* names one image may carry */
#define STORE_REF_MAX    255 /* a reference's length, as the distribution spec bounds it */
#define STORE_ID_LEN     71  /* "sha256:" + 64 hex digits */

/* ROOT: `CRIB_STORE`, else /var/lib/crib for root, $XDG_DATA_HOME/crib or
 * $HOME/.local/share/crib; `env` values come from the caller (runtime/host/ reads them). */
struct store_env {
        const char *crib_store, *xdg_data_home, *home;
        uid_t euid;
};
int store_root_path(const struct store_env *env, char *ret, size_t len, struct error *err);

/* Open ROOT (made 0700 when `create` and it is missing), checked to be the caller's and out of
 * other users' reach; returns its descriptor (O_PATH|O_DIRECTORY). (Not store_open: that is
 * runtime/state/store.c's, and both are in libcrib.) */
int store_open_root(const char *root, bool create, struct error *err);

/* The caller's own ROOT, where its environment (runtime/host/account.c) puts it: its path into
 * `path`, then store_open_root() */
int store_open_mine(bool create, char *path, size_t len, struct error *err);

/* An image as image.json describes it */
struct store_image {
        char id[STORE_ID_LEN + 1];       /* "sha256:HEX" of its config */
        char manifest[STORE_ID_LEN + 1]; /* "" when it came without one */
        char platform[64];
        char layers[STORE_MAX_LAYERS][STORE_ID_LEN + 1]; /* diff_ids, lowest first */
        size_t nlayers;
        char names[STORE_MAX_NAMES][STORE_REF_MAX + 1];
        size_t nnames;
        int64_t created;
        uint64_t size; /* bytes of its unpacked layers */
};

/* Find an image by what a user types: a name as `crib images` lists it (a short name is
 * completed as docker.io/library/NAME:latest), an id or a unique prefix of its hex (at least
 * 4 digits). ENOENT when there is none; the error says what to pull. */
int store_find_image(int root, const char *what, struct store_image *ret, struct error *err);
/* The same without its names (nnames is 0): what a container of it needs, its id and layers,
 * without reading every file of names/ */
int store_find_image_bare(int root, const char *what, struct store_image *ret, struct error *err);

/* Every image, in no particular order; `fn` returns <0 when it fails (out of memory), and
 * then the walk fails: a caller never goes on with part of the list. */
int store_each_image(int root, int (*fn)(void *ctx, const struct store_image *img), void *ctx,
                     struct error *err);

/* images/HEX/crib.ini of `img`, opened for reading */
int store_open_spec(int root, const struct store_image *img, struct error *err);

/* Shared by the readers and crib-image's writers: */
/* Whether `name` may be a name in the store: a reference's characters only, no "..", no '/' at
 * either end, no '+', at most STORE_REF_MAX bytes. */
bool store_name_ok(const char *name);
/* names/ENC of `name`: '/' written as '+'; -1 (EINVAL) when !store_name_ok(name) */
int store_name_file(const char *name, char *ret, size_t len, struct error *err);
/* The full name for what a user typed, as docker completes it: busybox ->
 * docker.io/library/busybox:latest, me/app -> docker.io/me/app:latest. Pure. */
int store_name_complete(const char *what, char *ret, size_t len, struct error *err);
/* Whether `id` is "sha256:" and 64 lowercase hex digits */
bool store_id_ok(const char *id);
/* The small file `path` below `root` (at most 1 MiB) as a JSON object; free it */
struct json_object *store_read_json(int root, const char *path, struct error *err);
/* Read images/HEX/image.json of the image id `id`; its names are those of names/ */
int store_read_image(int root, const char *id, struct store_image *ret, struct error *err);

#endif
