/* rlimits.h - parent side of [limits]; see rlimits.c. */
#ifndef CRIB_RLIMITS_H
#define CRIB_RLIMITS_H

#include <sys/types.h>

#include "error.h"
#include "plan.h"
#include "trace.h"

int rlimits_apply(const struct plan *p, pid_t pid, const struct trace *t, struct error *err);

#endif
