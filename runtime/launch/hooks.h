/* hooks.h - run one hook with the container's state on its stdin (hooks.c). */
#ifndef CRIB_HOOKS_H
#define CRIB_HOOKS_H

#include "base/error.h"

/* A hook to run: a program an engine's config names (the OCI front end reads them:
 * oci_hooks_of), borrowed by hook_run for the call. */
struct hook {
        const char *path;
        char *const *args; /* NULL-terminated, at least the path */
        char *const *env;  /* NULL-terminated, maybe empty */
        int timeout;       /* seconds, 0: none */
};

/* Run hook `h` (of `kind`, for messages: "createRuntime") with `state` (the OCI state JSON) on
 * its stdin and wait for it, at most its timeout; 0 when it exits 0, else -1 saying why. */
int hook_run(const struct hook *h, const char *kind, const char *state, struct error *err);

#endif
