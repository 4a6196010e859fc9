/* imgcopy.h - a store image's layers copied into one directory, whiteouts applied, where
 * overlayfs cannot be used (imgrootfs.c). */
#ifndef CRIB_IMGCOPY_H
#define CRIB_IMGCOPY_H

#include "base/error.h"

/* Apply the layer tree `src` (overlayfs's form: whiteouts, opaque directories) over the
 * directory `dst`; both opened O_RDONLY|O_DIRECTORY */
int imgcopy_layer(int src, int dst, struct error *err);

/* Remove `name` in `dir`, a directory with everything under it, however deep (a directory
 * nested deeper than imgcopy.c's limit is moved up into `name` rather than held open); ENOENT
 * is success. `depth` is unused (kept for the callers). */
int imgcopy_remove(int dir, const char *name, int depth, struct error *err);

#endif
