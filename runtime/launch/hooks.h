/* hooks.h - run one OCI hook with the container's state on its stdin (hooks.c). */
#ifndef CRIB_HOOKS_H
#define CRIB_HOOKS_H

#include "error.h"
#include "oci.h"

/* Run hook `h` (of `kind`, for messages: "createRuntime") with `state` (the OCI state JSON) on
 * its stdin and wait for it, at most its timeout; 0 when it exits 0, else -1 saying why. */
int hook_run(const struct oci_hook *h, const char *kind, const char *state, struct error *err);

#endif
