/* layerwalk.h - walking and removing inside an image's root, never through a symbolic link. */
#ifndef CRIB_LAYERWALK_H
#define CRIB_LAYERWALK_H

#include <stdbool.h>

#include "base/error.h"

struct layer_ctx;

/* Remove `name` in `dirfd`, a directory with all it holds, never following a symlink. */
int layer_remove(int dirfd, const char *name, struct error *err);

/* Open the directory `path` (cleaned, relative; "" is the root) below root one component at a
 * time, never through a symbolic link; make missing ones (0755) when `create`. */
int layer_walk(int root, const char *path, bool create, int *ret_fd, struct error *err);
/* The same, a directory made on the way charged to `c` (when not NULL), as an entry. */
int layer_walk_charged(int root, const char *path, bool create, struct layer_ctx *c, int *ret_fd,
                       struct error *err);

#endif
