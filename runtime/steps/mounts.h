/* mounts.h - what mounts.c shares with the mount operations in files of their own
 * (cgroupmount.c: the container's cgroup; devnode.c: an OCI config's device nodes). Child only,
 * before pivot_root: every path is resolved from the rootfs bind's descriptor. */
#ifndef CRIB_STEPS_MOUNTS_H
#define CRIB_STEPS_MOUNTS_H

#include <stdbool.h>
#include <stddef.h>

#include "step.h"

/* The tmpfs mounts step_mounts made (/dev, /dev/shm, a spec's tmpfs): each is empty and crib's
 * own when made, and no other process is in this mount namespace yet, so a name made in one
 * needs no lookup: it is made from the mount's descriptor. That saves the openat2(2) of a path
 * that is not there yet, the one of its parent and a close: 3 of the setup's ~150 system calls
 * for each of /dev's 12 names. Where the name is there already (a second mount on it), the
 * path is resolved as any other. A mount on a fresh directory or above it ends its entry: the
 * path no longer leads there. */
#define FRESH_MAX 4
struct fresh {
        const char *path[FRESH_MAX]; /* as the plan has it, e.g. "/dev" */
        int fd[FRESH_MAX];           /* O_PATH, the tmpfs's root; -1: a free entry */
};

/* The entry of `f` for the first `len` bytes of `path`, or -1. */
int fresh_find(const struct fresh *f, const char *path, size_t len);
/* The mount id of what `fd` refers to (/proc/self/fdinfo); -1 if unknown. */
int mount_id(int fd);
/* `rel` (relative to the rootfs) as an O_PATH descriptor, never leaving the rootfs; -1. */
int resolve(int rootfd, const char *rel);
/* `name` made in the directory `pfd` (a directory when `dir`) and opened; -1 on an error; -2
 * when the name is there already (a file; a directory too when `excl`). */
int make_in(struct child *c, int pfd, const char *name, const char *shown, bool dir, bool excl,
            struct error *err);
/* The mountpoint for `path` (absolute, inside the container), made where missing. */
int mountpoint(struct child *c, struct fresh *f, int rootfd, const char *path, bool dir,
               struct error *err);
/* Real root's device node op->dst, bound onto itself so it opens on the nodev /dev. */
int own_node(struct child *c, int rootfd, const struct mount_op *op, struct error *err);

/* cgroupmount.c: MOP_CGROUP */
int cgroup_mount(struct child *c, struct fresh *f, int rootfd, const struct mount_op *op,
                 struct error *err);
/* devnode.c: MOP_DEVICE */
int device_node(struct child *c, struct fresh *f, int rootfd, const struct mount_op *op,
                struct error *err);

#endif
