/* imgrootfs.h - the directory of a container made from a store image (docs/store.md, "A
 * container's rootfs"): ROOT/containers/ID with an overlay's directories, or a copy of the
 * layers where overlayfs cannot be used; made before planning, removed with the container. */
#ifndef CRIB_IMGROOTFS_H
#define CRIB_IMGROOTFS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "image/imgstore.h"
#include "plan/plan.h"

struct imgrootfs_opts {
        const char *name; /* the container's (state/), for container.json */
        bool userns;      /* the spec's [namespaces] user */
};

struct imgrootfs {
        char dir[PATH_MAX]; /* ROOT/containers/ID */
        char rootfs[PATH_MAX +
                    16];  /* DIR/merged (the overlay's mountpoint) or DIR/rootfs (a copy) */
        unsigned nlayers; /* of the overlay; 0 for a copy */
        unsigned links;   /* l/0..l/links-1, the layers: the overlay's, or what a copy copies */
        bool idmapped;    /* root's overlay in a user namespace: its layers idmapped, at m/N */
        char why[160];    /* why a copy, "" for an overlay */
        uint64_t size;    /* the image's bytes: what a copy costs */
        bool unsure;      /* imgrootfs_predict: the store's filesystem did not say whether it
                           * takes user extended attributes without a write (which crib run
                           * makes, and may then find a copy is needed) */
};

/* Make ROOT/containers/ID for the image `img` of the store `root` (its path `root_path`):
 * an overlay's directories (for root's container in a user namespace also m/N, where its setup
 * attaches the layers as idmapped mounts), or an empty rootfs/ for a copy (imgrootfs_fill)
 * where overlayfs cannot be used: a kernel before 5.11 (5.19 for root's container in a user
 * namespace), a store whose filesystem refuses user extended attributes (or, for root's
 * container in a user namespace, idmapped mounts), or, in a test build, CRIB_TEST_IMAGE_COPY. */
int imgrootfs_make(int root, const char *root_path, const struct store_image *img,
                   const struct imgrootfs_opts *o, struct imgrootfs *ret, struct error *err);

/* What imgrootfs_make would make, made nowhere (crib plan): an overlay or a copy and why, by
 * the same tests asked of the store itself (its root for upper/'s filesystem, the topmost
 * layer's tree for an idmapped mount, tried detached and never attached), each layer checked
 * to be there; no lock taken, nothing written. `dir` is ROOT/containers/IMGROOTFS_UNMADE_ID. */
#define IMGROOTFS_UNMADE_ID "<id>"
int imgrootfs_predict(int root, const char *root_path, const struct store_image *img,
                      const struct imgrootfs_opts *o, struct imgrootfs *ret, struct error *err);

/* A copy: the layers into rootfs/ (imgcopy.c), with the owners they have: as root on the host
 * for root, else as root of a user namespace mapped as `p` maps the container's. Root's overlay
 * with idmapped layers: upper/ and work/ given to the container's root, as `p` maps it. Nothing
 * to do for another overlay. */
int imgrootfs_fill(const struct imgrootfs *r, const struct plan *p, struct error *err);

/* Remove the container's directory `p->image_dir`, in a user namespace mapped as `p` maps the
 * container's when not root (its files are the container's ids'); nothing without one */
int imgrootfs_remove(const struct plan *p, struct error *err);

#endif
