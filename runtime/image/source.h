/* source.h - an image as saved: a `docker save` / `podman save` tarball (docker-archive), an
 * OCI image layout (directory or tarball), or a `docker export` filesystem tarball. Opened,
 * its manifest for this machine chosen, every blob's digest checked, then its layers read in
 * order. */
#ifndef CRIB_SOURCE_H
#define CRIB_SOURCE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "platform.h"

struct archive;
struct source;

#define SOURCE_MAX_LAYERS 256
#define SOURCE_MAX_JSON   (4 << 20) /* bytes of a manifest, index or config */

enum source_kind { SOURCE_DOCKER_ARCHIVE, SOURCE_OCI, SOURCE_ROOTFS_TAR };

struct source_layer {
        char name[4096]; /* its file in the source */
        char digest[80]; /* "sha256:HEX" its bytes must have */
        uint64_t size;   /* bytes, 0 when the manifest gives none (docker-archive) */
};

struct source_image {
        enum source_kind kind;
        char platform[64];          /* what it was chosen for ("linux/amd64"), "" when unknown */
        char manifest[80];          /* the manifest's digest (OCI), "" otherwise */
        struct json_object *config; /* the image config, NULL for a filesystem tarball */
        /* for the store (docs/store.md): the config and manifest as read (their digests
         * checked), the config's digest, and the name the source gives the image ("" when
         * none: an OCI index's io.containerd.image.name or org.opencontainers.image.ref.name
         * annotation, docker save's RepoTags[0]), unchecked: the store checks it */
        char *config_text, *manifest_text;
        size_t config_len, manifest_len;
        char config_digest[80];
        char ref_name[256];
        struct source_layer layers[SOURCE_MAX_LAYERS];
        size_t nlayers;
        uint64_t total; /* bytes of all layers */
};

/* Open `path` and find what it is. */
int source_open(const char *path, struct source **ret, struct error *err);
void source_close(struct source *s);

/* Choose the manifest for `machine` (or exactly `forced`, when not NULL), read its config, and
 * check the digest of every blob it names. Progress: `progress(ctx, bytes)` while hashing. */
int source_resolve(struct source *s, const struct platform *machine, bool forced,
                   struct source_image *ret, void (*progress)(void *, uint64_t), void *ctx,
                   struct error *err);
void source_image_free(struct source_image *img);

/* An archive reader for layer `i` (tar, gzip or zstd), hashing what it reads; after its end,
 * source_layer_done() checks the digest again (the file may have changed since). */
int source_layer_open(struct source *s, const struct source_image *img, size_t i,
                      struct archive **ret, struct error *err);
int source_layer_done(struct source *s, const struct source_image *img, size_t i, struct archive *a,
                      struct error *err);
/* The same for the store: the reader is of the uncompressed tar, whose sha256 (the layer's
 * diff_id) source_layer_diff_done() checks against `diff_id` ("sha256:HEX") after the digest of
 * the layer's bytes. */
int source_layer_open_diff(struct source *s, const struct source_image *img, size_t i,
                           struct archive **ret, struct error *err);
int source_layer_diff_done(struct source *s, const struct source_image *img, size_t i,
                           struct archive *a, const char *diff_id, struct error *err);

/* For the resolvers of each format (ocilayout.c, dockersave.c): */
/* the source's path as given, for messages */
const char *source_path(const struct source *s);
/* the small file `name` (a JSON document), at most SOURCE_MAX_JSON bytes, NUL-terminated; free
 * it */
int source_read_small(struct source *s, const char *name, char **ret, size_t *ret_len,
                      struct error *err);
/* the size a tarball source's listing gives `name`; 0 for a directory source or no such entry */
uint64_t source_listed_size(struct source *s, const char *name);

#endif
