/* rlimits.h - [limits]; see rlimits.c. */
#ifndef CRIB_RLIMITS_H
#define CRIB_RLIMITS_H

#include <sys/types.h>

#include "base/error.h"
#include "plan/plan.h"
#include "base/trace.h"

/* Set the planned limits of process `pid` (0: the caller itself, the child with self_maps). */
int rlimits_apply(const struct plan *p, pid_t pid, const struct trace *t, struct error *err);

#endif
