/* join.h - `crib exec`'s joiner enters the namespaces of a container's workload (join.c). */
#ifndef CRIB_JOIN_H
#define CRIB_JOIN_H

#include "base/error.h"
#include "find.h"
#include "plan/plan.h"
#include "base/trace.h"

/* Joiner: every namespace of the workload `w` (found and pinned by find.c) that the plan `p`
 * has: one setns(2) on its pidfd, else one per file of /proc/PID/ns. */
int join_namespaces(const struct plan *p, const struct workload *w, struct trace *t,
                    struct error *err);

#endif
