/* digest.h - sha256 digests, the OCI descriptors that carry them ({mediaType, digest, size}),
 * and the JSON documents they name. */
#ifndef CRIB_DIGEST_H
#define CRIB_DIGEST_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "imgpath.h"

struct source;

/* a descriptor, copied out of its JSON document (which may be freed before it is used: the
 * candidates of a nested index outlive the index) */
struct digest_desc {
        char media[128], digest[80], hex[65];
        bool has_media;
        int64_t size;
        char path[IMGPATH_MAX]; /* blobs/sha256/HEX */
};

/* sha256 of `data` in lowercase hex */
void digest_sha256_hex(const void *data, size_t len, char hex[65]);
/* "sha256:HEX" -> HEX (lowercase, 64 digits), or an error naming `where` */
int digest_hex(const char *digest, const char *where, const char **ret, struct error *err);

/* `text` as one JSON value (`what` names it in errors), nothing but blanks after it */
int digest_json_parse(const char *text, size_t len, const char *what, struct json_object **ret,
                      struct error *err);
/* o[key] as a string (NULL when absent or null and not `required`); `where` names o */
int digest_json_string(struct json_object *o, const char *key, bool required, const char *where,
                       const char **ret, struct error *err);

/* the descriptor `o` (`where` names it), checked and copied */
int digest_desc_get(struct json_object *o, const char *where, struct digest_desc *d,
                    struct error *err);
/* a blob named by a descriptor, read and checked: its JSON */
int digest_desc_json(struct source *s, const struct digest_desc *d, const char *where,
                     struct json_object **ret, struct error *err);

#endif
