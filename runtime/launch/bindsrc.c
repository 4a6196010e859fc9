/* bindsrc.c - root's detached copies of the bind sources, opened once by the parent.
 *
 * Kernel feature: open_tree(2) with OPEN_TREE_CLONE (Linux 5.2): a detached copy of a mount
 * tree, which the setup process attaches in the container's mount namespace with move_mount(2)
 * (steps/mounts.c). Opened by the parent before the clone, while every source is reachable as
 * root; before Linux 5.2 the child binds each source by its name.
 */
#define _GNU_SOURCE
#include "bindsrc.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "steps/mountapi.h"

/* Root: open a detached copy of every bind source's mount tree, once, here. */
int launch_open(const struct plan *p, struct launch_fds *fds, struct error *err)
{
        if (!p->privileged)
                return 0;
        for (size_t i = 0; i < p->nmounts; i++) {
                const struct mount_op *op = &p->mounts[i];
                if (op->kind != MOP_BIND && (op->kind != MOP_DEV_NODE || !p->userns))
                        continue;
                unsigned flags = OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC;
                if (op->flags & MS_REC)
                        flags |= AT_RECURSIVE;
                fds->src[i] = (int)syscall(SYS_open_tree, AT_FDCWD, op->src, flags);
                if (fds->src[i] < 0 && errno == ENOSYS)
                        return 0; /* before Linux 5.2: the child binds by name */
                if (fds->src[i] < 0 && errno == ENOENT && op->kind == MOP_DEV_NODE)
                        continue; /* none on this host: the child finds none either (mounts.c) */
                if (fds->src[i] < 0)
                        return error_set(err, errno, "cannot open bind source '%s'", op->src);
        }
        return 0;
}

void launch_close(const struct plan *p, struct launch_fds *fds)
{
        for (size_t i = 0; i < p->nmounts; i++)
                if (fds->src[i] >= 0) {
                        close(fds->src[i]);
                        fds->src[i] = -1;
                }
}
