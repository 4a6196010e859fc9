/* pivot.c - make the rootfs the container's / and let go of the host's.
 *
 * Kernel feature: pivot_root(2), then a lazy unmount (umount2(MNT_DETACH)) of the old root, so
 * no path inside leads back to the host's filesystem. The "pivot_root(".", ".")" form stacks
 * the old root on the new one and needs no directory for it.
 *
 * Where it sits: after every mount under the rootfs is in place, before anything that uses
 * container paths. pivot_root fails with EINVAL when the current root is the initramfs (rootfs
 * cannot be unmounted): netbooted and some embedded systems. Then crib moves the rootfs over /
 * and chroots, as initramfs's switch_root does, and warns: a process with CAP_SYS_CHROOT can
 * escape a chroot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mount.h>
#include <unistd.h>

#include "child.h"
#include "sys.h"

/* Child: all mounts are in place under the rootfs. */
int step_pivot_root(struct child *c, struct error *err)
{
        const char *rootfs = c->plan->rootfs;
        /* the root mount step_bind_rootfs made, by descriptor: no name to swap */
        int r = fchdir(c->root);
        trace_line(&c->trace, "  fchdir(rootfs mount) = %d", r);
        if (r < 0)
                return error_set(err, errno, "cannot enter the rootfs '%s'", rootfs);
        if (sys_pivot_root(&c->trace, ".", ".", err) == 0) {
                if (sys_umount2(&c->trace, ".", MNT_DETACH, err) < 0)
                        return error_wrap(err, "cannot detach the host's root");
                return sys_chdir(&c->trace, "/", err);
        }
        if (err->errnum != EINVAL)
                return -1;
        child_warn(c, "pivot_root is not possible here (the host's / is probably an initramfs); "
                      "using MS_MOVE and chroot instead, which a process with CAP_SYS_CHROOT "
                      "can escape");
        if (sys_mount(&c->trace, rootfs, "/", NULL, NULL, MS_MOVE, NULL, err) < 0 ||
            sys_chroot(&c->trace, ".", err) < 0)
                return error_wrap(err, "pivot_root fallback");
        return sys_chdir(&c->trace, "/", err);
}

/* Child: after pivot_root, so the remount hits the container's /. */
int step_readonly_root(struct child *c, struct error *err)
{
        if (!c->plan->readonly_rootfs)
                return 0;
        return mounts_restrict(c, -1, "/", MS_RDONLY, false, err);
}
