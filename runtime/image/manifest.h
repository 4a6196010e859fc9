/* manifest.h - the documents a registry serves for an image, read as untrusted JSON: which
 * kind a document is (an image manifest, or an index / manifest list of them), the entry of
 * an index that fits a platform, and a manifest's config and layers. Pure: the text comes in,
 * descriptors come out (checked: sha256 digests, sizes in range, bounded media types). */
#ifndef CRIB_MANIFEST_H
#define CRIB_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "platform.h"

#define MANIFEST_MAX_LAYERS  128  /* the store's STORE_MAX_LAYERS */
#define MANIFEST_MAX_ENTRIES 1024 /* an index's manifests */

/* What crib asks a registry for: OCI's and Docker's schema 2, images and indexes */
#define MANIFEST_ACCEPT                                                                            \
        "application/vnd.oci.image.index.v1+json, "                                                \
        "application/vnd.oci.image.manifest.v1+json, "                                             \
        "application/vnd.docker.distribution.manifest.list.v2+json, "                              \
        "application/vnd.docker.distribution.manifest.v2+json"

enum manifest_kind {
        MANIFEST_IMAGE,
        MANIFEST_INDEX,
};

struct manifest_desc {
        char media[128];
        char digest[72]; /* "sha256:HEX" */
        int64_t size;
        char platform[64]; /* "linux/arm/v6" for an index's entry, else "" */
};

/* The kind of `text`, from its mediaType (or `content_type` when it has none); the media type
 * in `media`. Refuses Docker's schema 1 and anything else, saying which. */
int manifest_kind(const char *text, size_t len, const char *content_type, enum manifest_kind *ret,
                  char media[128], struct error *err);

/* The entry of the index `text` that fits `machine` best (platform_score); when none does,
 * the error lists the platforms it has (platform_no_match; `forced`: --platform said it). */
int manifest_choose(const char *text, size_t len, const struct platform *machine, bool forced,
                    struct manifest_desc *ret, struct error *err);

struct manifest_image {
        struct manifest_desc config;
        struct manifest_desc layers[MANIFEST_MAX_LAYERS];
        size_t nlayers;
};

/* The config and layers of the image manifest `text` */
int manifest_parse(const char *text, size_t len, struct manifest_image *ret, struct error *err);

#endif
