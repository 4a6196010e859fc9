/* joinns.h - the container's setup process, cloned in the namespaces its plan joins by path. */
#ifndef CRIB_JOINNS_H
#define CRIB_JOINNS_H

#include "base/error.h"
#include "base/trace.h"
#include "plan/plan.h"

#include <sys/types.h>

/* Parent: the setup process, as our child, cloned with plan->clone_flags (into `cgroup` when
 * it is a descriptor, else where we are) by a process that first joined the namespaces of
 * plan->join_path; it runs child(ctx) and never returns. Its pid, or -1 with err set (nothing
 * of the container exists then). */
pid_t joinns_clone(const struct plan *p, int cgroup, void (*child)(void *ctx), void *ctx,
                   struct trace *t, struct error *err);

#endif
