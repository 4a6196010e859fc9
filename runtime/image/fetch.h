/* fetch.h - what a pull fetches, checked as it streams: a manifest or index into memory (at
 * most 4 MiB), a blob into the store's cache, ROOT/blobs/sha256/HEX (docs/store.md), only
 * once its sha256 matched, resumed where a killed pull stopped. crib-pull only. */
#ifndef CRIB_FETCH_H
#define CRIB_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "registry.h"

#define FETCH_DOC_MAX  (4 << 20)           /* a manifest, an index, a config */
#define FETCH_BLOB_MAX ((int64_t)64 << 30) /* a layer */

struct fetch_doc {
        char *data; /* NUL-terminated */
        size_t len;
        char media[128]; /* the response's Content-Type */
        char digest[72]; /* "sha256:HEX" of the bytes, computed */
};

/* GET manifests/`ref` (a tag or "sha256:HEX"); with `want` (a digest, or NULL) the bytes must
 * hash to it and be at most `want_size` long (-1: no descriptor). */
int fetch_manifest(struct registry *r, const char *ref, const char *accept, const char *want,
                   int64_t want_size, struct fetch_doc *ret, struct error *err);
void fetch_doc_free(struct fetch_doc *d);

/* Progress of a blob: `done` of `total` bytes; `cached` when the store had it */
typedef void (*fetch_progress_fn)(void *ctx, const char *hex, uint64_t done, uint64_t total,
                                  bool cached);

/* The blob `digest` ("sha256:HEX") of `size` bytes into ROOT/blobs/sha256/HEX, unless it is
 * there. ROOT/tmp/pull-HEX.partial holds what came so far (a later pull resumes it with a
 * Range request), locked by ROOT/tmp/pull-HEX.partial.lock (flock), so that two pulls of one
 * layer fetch it once. A body longer than `size` ends the transfer; a wrong digest removes the
 * partial file. */
int fetch_blob(struct registry *r, int root, const char *digest, int64_t size, fetch_progress_fn fn,
               void *ctx, struct error *err);

/* Bytes already checked (a manifest: its digest is the sha256 fetch_manifest computed) into
 * ROOT/blobs/sha256/HEX */
int fetch_store_bytes(int root, const char *hex, const void *data, size_t len, struct error *err);

#endif
