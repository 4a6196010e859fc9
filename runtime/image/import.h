/* import.h - `crib image import`: a saved image made into DIR/rootfs and DIR/crib.ini. */
#ifndef CRIB_IMPORT_H
#define CRIB_IMPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "imgspec.h"
#include "layer.h"
#include "platform.h"

/* what all layers together may write (layer.h: data, entries, xattrs), unless --max-size says:
 * more than any image one runs on a Raspberry Pi, and most elsewhere, so it stops a bomb only */
#define IMPORT_DEFAULT_MAX_BYTES (16ULL << 30)
#define IMPORT_MAX_BYTES         (1ULL << 50) /* the most --max-size may give */

enum import_phase { IMPORT_CHECKING, IMPORT_APPLYING };

struct import_opts {
        const char *source, *dir;
        const struct platform *platform; /* --platform, or NULL for this machine's */
        uint64_t max_bytes;              /* --max-size, or 0 for IMPORT_DEFAULT_MAX_BYTES */
        /* now and then: the phase, the layer (1-based), the layer count, bytes so far, total */
        void (*progress)(void *ctx, enum import_phase ph, size_t layer, size_t nlayers,
                         uint64_t bytes, uint64_t total);
        void *ctx;
};

struct import_result {
        char platform[64], machine[64], manifest[80], kind[32];
        size_t nlayers;
        bool userns;           /* extracted in a user namespace (not root) */
        bool subids;           /* with the user's subordinate ranges */
        bool no_helper;        /* the user has ranges, but newuidmap or newgidmap is missing */
        uint64_t nuids, ngids; /* ids mapped in the user namespace (0 and the ranges) */
        struct layer_stats stats;
        struct imgspec_result spec;
        uint64_t total;
};

/* Check the source, then make DIR (it must not exist, or be empty) with rootfs/ and crib.ini.
 * DIR's path must be one no other user can change (no directory on the way theirs, or writable
 * by them without the sticky bit), and an existing DIR must be empty, the caller's, and out of
 * other users' reach. On failure what was made is removed again. Not root: the layers are
 * applied in a user namespace of this process (newuidmap(1) with the user's /etc/subuid
 * ranges, as crib's `uid = auto`; without ranges only the user's own id, and other owners are
 * flattened). */
int image_import(const struct import_opts *o, struct import_result *ret, struct error *err);

/* Remove DIR, an import (it must hold crib.ini and rootfs/): not root, in the same user
 * namespace as the import, so the files of the user's subordinate ids go too. */
int image_remove(const char *dir, struct error *err);

/* Not root: move this process into a new user namespace where it is root over the user's ids
 * (0 the user, 1.. the ranges of /etc/subuid and /etc/subgid, as `uid = auto`), for good; the
 * import's, the store's writers' and removers'. res->userns, subids, nuids, ngids say what. */
int import_userns(struct import_result *res, struct error *err);

/* The image's file `path` below `root` (a rootfs or a layer: symlinks resolved inside it), at
 * most 1 MiB, a regular file, into *ret (free it); NULL when it is not there. */
int import_read_file(int root, const char *path, char **ret, struct error *err);

/* What the layers leave free on `fd`'s filesystem (layer.h's min_free, min_free_inodes) */
void import_reserve(int fd, uint64_t *ret_bytes, uint64_t *ret_inodes);

/* This machine's platform (platform_detect with uname, AT_PLATFORM, /proc/cpuinfo). */
void import_machine(struct platform *ret);

#endif
