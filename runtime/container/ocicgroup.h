/* ocicgroup.h - crib's OCI runtime on a container's own cgroup (ocicgroup.c): its processes
 * (`ps`, `kill --all`, `delete`), the freezer (`pause`, `resume`) and new limits (`update`). */
#ifndef CRIB_OCICGROUP_H
#define CRIB_OCICGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/error.h"
#include "ocistate.h"
#include "state/store.h"

#define OCICGROUP_MAX_PIDS 4096

/* The processes of the container's own cgroup and of those below it, at most
 * OCICGROUP_MAX_PIDS; the cgroup's path into `leaf` ("" when it has none). The workload cannot
 * leave it: NAME is not its to write, and moving a process needs write access to the common
 * ancestor (cgroup.h). */
size_t ocicgroup_pids(const struct stored *o, const char *id, pid_t *pids, char *leaf, size_t len);
/* `sig` to every process of the container's own cgroup, when it has one (kill --all, delete). */
void ocicgroup_signal(const struct stored *o, const char *id, int sig);

/* ps ID: the container's processes as pids on the host, at most `max`: its cgroup's, when it
 * has one of its own, else its process and those below it. */
int ocicgroup_ps(const struct oci_runtime *rt, const char *id, pid_t *pids, size_t max,
                 size_t *ret_n, struct error *err);
/* pause ID (freeze) / resume ID: the cgroup v2 freezer on the container's own cgroup. */
int ocicgroup_freeze(const struct oci_runtime *rt, const char *id, bool freeze, struct error *err);
/* update ID: the OCI resources JSON read from `f` (named `name` in messages) as its new limits;
 * only what it names changes, -1 lifts a limit. */
int ocicgroup_update(const struct oci_runtime *rt, const char *id, const char *name, FILE *f,
                     struct error *err);

#endif
