/* storecmd.h - crib-image's commands over the image store (docs/store.md): import into it,
 * store-add (for crib pull), images, rmi, prune, system df. argv: the arguments after the
 * command's word. */
#ifndef CRIB_STORECMD_H
#define CRIB_STORECMD_H

#include <stdint.h>

#include "image/platform.h"

int storecmd_import(const char *source, const char *name, const struct platform *platform,
                    uint64_t max_bytes);
int storecmd_add(int argc, char **argv);
int storecmd_images(int argc, char **argv);
int storecmd_rmi(int argc, char **argv);
int storecmd_prune(int argc, char **argv);
int storecmd_df(int argc, char **argv);

#endif
