/* pull.h - `crib pull`: an image from a registry into an OCI image layout in the store's
 * tmp/, whose blobs are the store's verified cache (docs/store.md); crib-image store-add then
 * makes it an image of the store. crib-pull only (it links libcurl). */
#ifndef CRIB_PULL_H
#define CRIB_PULL_H

#include <stdbool.h>

#include "base/error.h"
#include "fetch.h"
#include "platform.h"
#include "ref.h"
#include "registry.h"

struct pull_request {
        struct image_ref ref;
        struct platform platform; /* this machine's, or --platform's */
        bool forced;              /* --platform said it */
        struct registry_opts reg; /* registry, host and repository: pull_image fills them */
        const char *root_path;    /* the store's ROOT */
        int root;                 /* ROOT, opened */
        fetch_progress_fn progress;
        void *ctx;
};

struct pull_result {
        char layout[64];   /* "tmp/pull-XXXXXX", under ROOT */
        int layout_lock;   /* flock held on tmp/pull-XXXXXX.lock until pull_done */
        char manifest[72]; /* the manifest's digest */
        char platform[64]; /* the platform it is for */
        char name[300];    /* the full reference */
        size_t nlayers;
        uint64_t bytes; /* its blobs' size */
};

/* The manifest (the platform's entry of an index), its config and layers, each checked, into
 * ROOT/blobs/sha256/, and the layout ROOT/tmp/pull-XXXXXX of hard links to them */
int pull_image(const struct pull_request *q, struct pull_result *ret, struct error *err);

/* Remove the layout and its lock (the blobs stay in the cache) */
void pull_done(int root, struct pull_result *r);

#endif
