/* userns.h - the user namespace: write the child's id maps, explain failures. */
#ifndef CRIB_USERNS_H
#define CRIB_USERNS_H

#include <sys/types.h>

#include "error.h"
#include "plan.h"
#include "trace.h"

/* Parent: write /proc/PID/{setgroups,gid_map,uid_map}, or run newgidmap/newuidmap.
 * Child, with pid 0 (only when plan->self_maps): write its own /proc/self/... */
int userns_write_maps(const struct plan *p, pid_t pid, const struct trace *t, struct error *err);

/* Parent: clone(2) of `flags` failed with errno `e`: say why, and how to fix it. */
int userns_clone_error(int flags, int e, struct error *err);

#endif
