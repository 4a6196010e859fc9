/* layer.h - apply one image layer (a tar stream, read through libarchive) to a root directory,
 * with the OCI whiteouts, refusing every entry that would reach outside it. */
#ifndef CRIB_LAYER_H
#define CRIB_LAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

struct archive;

#define LAYER_MAX_ENTRIES 4000000 /* entries of one layer */

struct layer_stats {
        uint64_t entries, bytes;
        uint64_t devices; /* device nodes and sockets skipped */
        char device_example[128];
        uint64_t xattrs; /* extended attributes the filesystem refused */
        char xattr_example[160];
        uint64_t unowned;     /* files whose owner could not be kept (flattened) */
        uint32_t unowned_uid; /* one such owner, and where */
        char unowned_example[128];
};

struct layer_dirtime; /* a directory's mtime, set when every layer is applied */

/* What each entry costs against max_bytes beyond its data: a directory entry and an inode, at
 * least, on any filesystem. What it made is then charged its blocks on disk beyond that (an
 * empty directory is 4 KiB on ext4), and so is every directory made on the way to an entry. */
#define LAYER_ENTRY_COST 512

struct layer_ctx {
        int root;           /* the root directory, O_DIRECTORY */
        uint64_t max_bytes; /* all layers together may write no more (data, entries, xattrs) */
        /* keep at least this much free on root's filesystem, for users (statvfs f_bavail,
         * f_favail); 0: no check */
        uint64_t min_free, min_free_inodes;
        const char *dir; /* where root is, for those messages */
        bool as_root;    /* this process's ids are 0: what it makes is root's already */
        /* the store's form (docs/store.md): the layer is applied alone into an empty root and
         * its whiteouts recorded as overlayfs reads them (a character device 0:0 at NAME; the
         * xattr user.overlay.opaque=y on an opaque directory), not applied; the image's own
         * overlay xattrs are dropped (counted as refused) */
        bool overlay;
        uint64_t used; /* charged against max_bytes so far */
        struct layer_stats stats;
        /* called now and then with the bytes written so far (all layers); may be NULL */
        void (*progress)(void *ctx, uint64_t bytes);
        void *progress_ctx;
        /* private: the directories' times, kept for layer_finish */
        struct layer_dirtime *dirs;
        size_t ndirs, capdirs, dirbytes;
};

/* Apply the layer `a` reads (an opened archive) in ctx->root. `what` names the layer in
 * errors. Entries are refused, and the import stops, when their name or link target is
 * absolute or has a ".." component, when they reach through a symbolic link, or when a link
 * target is not inside the root. Device nodes are never made (counted in stats). It stops too
 * when the layers together pass max_bytes (EFBIG), or the filesystem's free space or inodes
 * fall below min_free or min_free_inodes (ENOSPC): checked before each layer, every MiB written
 * and every 256 entries. */
int layer_apply(struct layer_ctx *ctx, struct archive *a, const char *what, struct error *err);

/* After the last layer: give the directories the times their entries say (adding their
 * content changed them); frees what the context holds. Best effort: never fails. */
void layer_finish(struct layer_ctx *ctx);

#include "layerwalk.h"

#endif
