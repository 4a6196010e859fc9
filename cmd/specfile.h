/* specfile.h - the SPEC argument of crib run, crib check --spec and crib bench --own (specfile.c).
 */
#ifndef CRIB_SPECFILE_H
#define CRIB_SPECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/error.h"

/* Open the spec `arg` names: a crib.ini(5) file, or a directory holding one as crib.ini (what
 * `crib image import SOURCE DIR` makes), whose path goes to `ret_path` (else `arg`, as given),
 * for the spec's FILE:LINE errors and its relative paths. NULL on failure, with the hint a
 * newcomer needs: how to write a spec, or how to make one from an image. */
/* Whether crib run's `arg` names an image rather than a spec: no file or directory has that
 * name, it is not written as a path (starting with '/', '.' or '~', or ending in .ini), and it
 * holds only the characters a reference may. */
bool specfile_is_image(const char *arg);

FILE *specfile_open(const char *arg, char *ret_path, size_t len, struct error *err);

#endif
