/* pathset.h - a set of strings with open addressing: the paths one layer made, so its whiteouts
 * hide only what the lower layers put there (layer.c). */
#ifndef CRIB_PATHSET_H
#define CRIB_PATHSET_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

struct pathset {
        char **slot;
        size_t cap, n, bytes;
};

#define PATHSET_MAX_BYTES (256u << 20) /* names one layer may make, all together */

bool pathset_has(const struct pathset *s, const char *p);
/* Add a copy of `p`; -1 with errno (ENOMEM, or E2BIG past PATHSET_MAX_BYTES) */
int pathset_add(struct pathset *s, const char *p);
void pathset_free(struct pathset *s);
/* why pathset_add failed */
int pathset_error(struct error *err);

#endif
