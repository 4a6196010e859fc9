/* storewrite.h - the image store's writers (docs/store.md), crib-image's: an image added from a
 * saved image (crib image import SOURCE, crib pull's layout), each layer unpacked once. */
#ifndef CRIB_STOREWRITE_H
#define CRIB_STOREWRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "imgspec.h"
#include "imgstore.h"
#include "layer.h"
#include "platform.h"

struct storeadd_opts {
        int root;                        /* ROOT (store_open_root) */
        const char *source;              /* an OCI layout or a docker-archive */
        const char *name;                /* the name to give it, or NULL for the source's own */
        const struct platform *platform; /* --platform, or NULL for this machine's */
        uint64_t max_bytes;              /* what the new layers may write, 0: import's default */
        /* now and then, while a layer is unpacked: which (1-based), of how many, bytes so far */
        void (*progress)(void *ctx, size_t layer, size_t nlayers, uint64_t bytes);
        void *ctx;
};

struct storeadd_result {
        char id[STORE_ID_LEN + 1];
        char name[STORE_REF_MAX + 1]; /* "" when the image has none */
        char platform[64];
        size_t nlayers, nnew;     /* its layers, and those unpacked now (the rest were there) */
        bool image_was_there;     /* the image was in the store already */
        bool userns, subids;      /* unpacked in a user namespace, with the user's ranges */
        struct layer_stats stats; /* of the layers unpacked now */
        struct imgspec_result spec;
};

/* Add the image of `o->source` to the store, named (names/ENC moved to it when another image
 * had the name). Not root: the process enters its user namespace for good (import_userns). */
int storeadd_run(const struct storeadd_opts *o, struct storeadd_result *ret, struct error *err);

/* Lock ROOT/store.lock: shared (adding) or exclusive (removing); returns the descriptor */
int storewrite_lock(int root, bool exclusive, struct error *err);

/* Write `text` as ROOT's `dir`/`name` through a file in tmp/ renamed over it */
int storewrite_file(int root, const char *dir, const char *name, const char *text, size_t len,
                    struct error *err);

#endif
