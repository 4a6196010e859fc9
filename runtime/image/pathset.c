/* pathset.c - a set of strings with open addressing (pathset.h): FNV-1a hashes, linear probing,
 * the table doubled at half full. What it holds is bounded (PATHSET_MAX_BYTES), as every size
 * a layer controls.
 */
#include "pathset.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s)
{
        uint64_t h = 1469598103934665603ULL; /* FNV-1a */
        for (; *s; s++)
                h = (h ^ (unsigned char)*s) * 1099511628211ULL;
        return h;
}

bool pathset_has(const struct pathset *s, const char *p)
{
        if (!s->cap)
                return false;
        for (size_t i = hash(p) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
                if (!s->slot[i])
                        return false;
                if (!strcmp(s->slot[i], p))
                        return true;
        }
}

int pathset_add(struct pathset *s, const char *p)
{
        if (pathset_has(s, p))
                return 0;
        if (s->bytes + strlen(p) + 1 > PATHSET_MAX_BYTES) {
                errno = E2BIG;
                return -1;
        }
        if ((s->n + 1) * 2 > s->cap) {
                size_t cap = s->cap ? s->cap * 2 : 1024;
                char **slot = calloc(cap, sizeof *slot);
                if (!slot)
                        return -1;
                for (size_t i = 0; i < s->cap; i++) {
                        if (!s->slot[i])
                                continue;
                        size_t j = hash(s->slot[i]) & (cap - 1);
                        while (slot[j])
                                j = (j + 1) & (cap - 1);
                        slot[j] = s->slot[i];
                }
                free(s->slot);
                s->slot = slot;
                s->cap = cap;
        }
        size_t i = hash(p) & (s->cap - 1);
        while (s->slot[i])
                i = (i + 1) & (s->cap - 1);
        if (!(s->slot[i] = strdup(p)))
                return -1;
        s->n++;
        s->bytes += strlen(p) + 1;
        return 0;
}

void pathset_free(struct pathset *s)
{
        for (size_t i = 0; i < s->cap; i++)
                free(s->slot[i]);
        free(s->slot);
}

int pathset_error(struct error *err)
{
        if (errno == E2BIG)
                return error_set(err, 0, "the layer names more than %u MiB of paths",
                                 PATHSET_MAX_BYTES >> 20);
        return error_set(err, ENOMEM, "out of memory");
}
