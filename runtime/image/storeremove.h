/* storeremove.h - what leaves the image store (docs/store.md): crib rmi, crib image prune, and
 * what crib system df counts. crib-image's: a user's layers hold files of their subordinate
 * ids, removed (and read) in the import's user namespace. */
#ifndef CRIB_STOREREMOVE_H
#define CRIB_STOREREMOVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "imgstore.h"

struct storermi_result {
        char id[STORE_ID_LEN + 1];
        size_t nnames;      /* names removed */
        bool image_removed; /* the image went too: it had no name left */
        size_t layers;      /* layers removed with it: no other image lists them */
        uint64_t bytes;     /* theirs */
};

/* Remove NAME (the name alone, and the image when it was its last) or the image ID (with every
 * name): refused when a container of ROOT/containers/ uses the image. The layers no other
 * image lists go with it. Takes store.lock exclusive; not root, enters the user namespace. */
int storermi_run(int root, const char *what, struct storermi_result *ret, struct error *err);

struct storeprune_result {
        size_t images, layers, blobs, tmp; /* removed */
        uint64_t bytes;                    /* of the layers and blobs removed */
};

/* Remove images with no name and no container, layers no image lists, the pull's blobs, and
 * tmp/ entries no live process holds (tmp/NAME.lock not locked). */
int storeprune_run(int root, struct storeprune_result *ret, struct error *err);

struct storedf_result {
        size_t images, layers, containers, blobs;
        uint64_t images_bytes;     /* the layers images use, each once */
        uint64_t layers_bytes;     /* every layer's */
        uint64_t containers_bytes; /* what containers wrote (upper/, or rootfs/ copies) */
        uint64_t blobs_bytes;
};

/* What the store holds; not root, in the user namespace (a layer's directories may be closed to
 * the user outside it). */
int storedf_run(int root, struct storedf_result *ret, struct error *err);

#endif
