/* health.h - [service] healthcheck: the checks crib's monitor runs in a detached container
 * (health.c). */
#ifndef CRIB_HEALTH_H
#define CRIB_HEALTH_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/error.h"
#include "plan/plan.h"

struct health_opts {
        const char *root; /* the state root's path */
        uid_t uid;        /* who owns it */
        const char *name; /* the container's */
};

/* Monitor: fork the checker for the run whose first process is `pid` (p->health.argv set):
 * its pid, or -1. It runs the checks until health_stop kills it. */
pid_t health_start(const struct plan *p, const struct health_opts *o, pid_t pid, struct error *err);
/* What the checker did to a run: nothing, or on_unhealthy's kill or restart */
enum health_end { HEALTH_END_NONE, HEALTH_END_KILLED, HEALTH_END_RESTART };
/* Monitor: the run whose first process was `pid` has ended: kill and reap its checker (when
 * > 0); whether the checker ended that run, and how. */
enum health_end health_stop(pid_t checker, const struct health_opts *o, pid_t pid);

#endif
