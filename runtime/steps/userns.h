/* userns.h - the user namespace: write the child's id maps, explain failures. */
#ifndef CRIB_USERNS_H
#define CRIB_USERNS_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "plan.h"
#include "trace.h"

/* Parent: write /proc/PID/{setgroups,gid_map,uid_map}, or run newgidmap/newuidmap.
 * Child, with pid 0 (only when plan->self_maps): write its own /proc/self/... */
int userns_write_maps(const struct plan *p, pid_t pid, const struct trace *t, struct error *err);

/* A process of the container's user namespace, for `pid`, which has just made a user
 * namespace of its own below it: map every id of the container's namespace to itself there
 * (lockmounts.c). Needs CAP_SETUID, CAP_SETGID and CAP_SETFCAP in the container's namespace. */
int userns_write_nested_maps(const struct plan *p, pid_t pid, const struct trace *t,
                             struct error *err);

/* The path of the setuid helper `name` (newuidmap, newgidmap) in `buf`, from the directories
 * where a distribution installs it, or NULL when none has it: `crib run` runs this one and
 * `crib check` looks at this one. */
const char *userns_find_helper(const char *name, char *buf, size_t len);

/* Whether this kernel has idmapped mounts (mount_setattr(2), Linux 5.12). */
bool userns_idmap_supported(void);

/* Whether we run in the host's user namespace (uid_map is the whole identity map). */
bool userns_is_initial(void);

/* Root, before planning: make sure root has a range of subordinate ids in /etc/subuid and
 * /etc/subgid for its containers (container root is then not host root). When it has none,
 * crib takes 65536 ids above every range there and records them in both files, as
 * `usermod --add-subuids` would; *ret_note then says which. */
int userns_root_range(char *ret_note, size_t len, struct error *err);

/* Parent: a copy of the rootfs's mount tree that shows the files through the user namespace
 * of `pid` (an idmapped mount, MOUNT_ATTR_IDMAP, Linux 5.12): what host root owns, the
 * container's root owns. The detached tree's fd goes to the child, which mounts it. */
int userns_idmapped_rootfs(const struct plan *p, pid_t pid, const struct trace *t,
                           struct error *err);

/* Parent: clone(2) of `flags` failed with errno `e`: say why, and how to fix it, in the words of
 * the spec's front end (phrase.h). */
int userns_clone_error(int flags, int e, enum spec_front front, struct error *err);

#endif
