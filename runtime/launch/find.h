/* find.h - `crib exec`'s lookup of a running container's workload: its process, pinned by
 * pidfd and /proc directory, and its cgroup (find.c). */
#ifndef CRIB_FIND_H
#define CRIB_FIND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "plan/execplan.h"
#include "plan/plan.h"
#include "base/trace.h"

/* The workload's process, pinned: what the joiner joins and takes its root from. */
struct workload {
        pid_t pid;      /* as the host sees it */
        uint64_t start; /* its start time */
        int pidfd;      /* its pidfd, or -1 (before Linux 5.3) */
        int procdir;    /* its /proc/PID, checked to be it */
        int cgroupfd;   /* its cgroup, when it has one; else -1 */
};

/* Parent: the workload's process of the container `rq` names, in *w: its pid and start time,
 * its pidfd and /proc directory, each checked to be that very process (the caller closes
 * them). */
int find_workload(const struct plan *p, const struct enter_request *rq, struct trace *t,
                  struct workload *w, struct error *err);
/* Parent: the workload's cgroup, when the container has one, open in w->cgroupfd; checked to be
 * the container's own. */
int find_cgroup(const struct plan *p, struct workload *w, struct trace *t, struct error *err);
/* The error for a container whose process `pid` is gone; returns -1. */
int container_gone(pid_t pid, struct error *err);

/* leaf is the container's own cgroup, NAME (its workload runs in NAME/container), as crib
 * makes it for the plan `p`: under the plan's base, or in systemd's scope for it (a user whose
 * cgroup is not delegated), whose name carries the pid of the crib that asked for it. */
bool container_leaf_valid(const struct plan *p, const char *leaf);

#endif
