/* userns.h - the user namespace: write the child's id maps, explain failures. */
#ifndef CRIB_USERNS_H
#define CRIB_USERNS_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/error.h"
#include "plan/plan.h"
#include "base/trace.h"

/* Parent: a joined user namespace (plan.join_flags) has the maps planning read from it, as
 * /proc/PID/uid_map and gid_map of the setup process `pid` show them; else its path was made to
 * name another namespace since, and the container does not start. */
int userns_check_joined_maps(const struct plan *p, pid_t pid, const struct trace *t,
                             struct error *err);

/* Parent: write /proc/PID/{setgroups,gid_map,uid_map}, or run newgidmap/newuidmap.
 * Child, with pid 0 (only when plan->self_maps): write its own /proc/self/... */
int userns_write_maps(const struct plan *p, pid_t pid, const struct trace *t, struct error *err);

/* A process of the container's user namespace, for `pid`, which has just made a user
 * namespace of its own below it: map every id of the container's namespace to itself there
 * (lockmounts.c). Needs CAP_SETUID, CAP_SETGID and CAP_SETFCAP in the container's namespace. */
int userns_write_nested_maps(const struct plan *p, pid_t pid, const struct trace *t,
                             struct error *err);

/* Parent: a copy of the rootfs's mount tree that shows the files through the user namespace
 * of `pid` (an idmapped mount, MOUNT_ATTR_IDMAP, Linux 5.12): what host root owns, the
 * container's root owns. The detached tree's fd goes to the child, which mounts it. */
int userns_idmapped_rootfs(const struct plan *p, pid_t pid, const struct trace *t,
                           struct error *err);

/* Parent: clone(2) of `flags` failed with errno `e`: say why, and how to fix it, in the words of
 * the spec's front end (phrase.h). */
int userns_clone_error(int flags, int e, enum spec_front front, struct error *err);

#endif
