/* specfile.h - the SPEC argument of crib run, crib check --spec and crib bench --own (specfile.c).
 */
#ifndef CRIB_SPECFILE_H
#define CRIB_SPECFILE_H

#include <stddef.h>
#include <stdio.h>

#include "base/error.h"

/* Open the spec `arg` names: a crib.ini(5) file, or a directory holding one as crib.ini (what
 * `crib image import SOURCE DIR` makes), whose path goes to `ret_path` (else `arg`, as given),
 * for the spec's FILE:LINE errors and its relative paths. NULL on failure, with the hint a
 * newcomer needs: how to write a spec, or how to make one from an image. */
FILE *specfile_open(const char *arg, char *ret_path, size_t len, struct error *err);

#endif
