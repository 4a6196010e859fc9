/* ocispec.h - the config.json `crib oci spec` writes (ocispec.c), as runc's `spec` does: a
 * shell on a terminal in BUNDLE/rootfs, with the usual mounts and namespaces, that crib runs
 * as it is. */
#ifndef CRIB_OCISPEC_H
#define CRIB_OCISPEC_H

#include <stdbool.h>

/* The default config.json, as JSON text to free (NULL when out of memory). With `rootless`,
 * for a user: a user namespace mapping `uid` and `gid` (the caller's) to 0, and no network
 * namespace or cgroup resources. */
char *oci_spec_default(bool rootless, unsigned uid, unsigned gid);

#endif
