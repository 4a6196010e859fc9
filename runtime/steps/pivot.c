/* pivot.c - make the rootfs the container's / and let go of the host's.
 *
 * Kernel feature: pivot_root(2), then a lazy unmount (umount2(MNT_DETACH)) of the old root, so
 * no path inside leads back to the host's filesystem. The "pivot_root(".", ".")" form stacks
 * the old root on the new one and needs no directory for it. The new root is the rootfs bind's
 * descriptor (fchdir), never the rootfs's name, which another process may have renamed.
 *
 * Where it sits: after every mount under the rootfs is in place, before anything that uses
 * container paths. pivot_root fails with EINVAL when the current root is the initramfs (rootfs
 * cannot be unmounted): netbooted and some embedded systems. Only there (statfs(2) says / is a
 * ramfs or tmpfs) crib moves the rootfs over / and chroots, as initramfs's switch_root does,
 * and warns: a process with CAP_SYS_CHROOT can escape a chroot. Any other failure is an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "step.h"
#include "base/sys.h"

#define RAMFS_MAGIC_ 0x858458f6 /* <linux/magic.h> */
#define TMPFS_MAGIC_ 0x01021994

/* Is the current root the initramfs, which pivot_root cannot move away from? */
static bool root_is_initramfs(struct child *c)
{
        struct statfs sf;
        bool ram = statfs("/", &sf) == 0 && ((unsigned long)sf.f_type == RAMFS_MAGIC_ ||
                                             (unsigned long)sf.f_type == TMPFS_MAGIC_);
        trace_line(&c->trace, "  statfs(\"/\") = %s",
                   ram ? "ramfs/tmpfs (initramfs)" : "not ramfs");
        return ram;
}

/* Child: all mounts are in place under the rootfs. */
int step_pivot_root(struct child *c, struct error *err)
{
        int r = fchdir(c->rootfd);
        trace_line(&c->trace, "  fchdir(rootfs bind) = %d", r);
        if (r < 0)
                return error_set(err, errno, "cannot enter the rootfs '%s'", c->plan->rootfs);
        close(c->rootfd);
        c->rootfd = -1;
        if (sys_pivot_root(&c->trace, ".", ".", err) == 0) {
                if (sys_umount2(&c->trace, ".", MNT_DETACH, err) < 0)
                        return error_wrap(err, "cannot detach the host's root");
                return sys_chdir(&c->trace, "/", err);
        }
        if (err->errnum != EINVAL || !root_is_initramfs(c))
                return -1;
        child_warn(c, "pivot_root is not possible here (the host's / is an initramfs); "
                      "using MS_MOVE and chroot instead, which a process with CAP_SYS_CHROOT "
                      "can escape");
        /* "." is the bind's root: moved over /, then made the root */
        if (sys_mount(&c->trace, ".", "/", NULL, NULL, MS_MOVE, NULL, err) < 0 ||
            sys_chroot(&c->trace, ".", err) < 0)
                return error_wrap(err, "pivot_root fallback");
        return sys_chdir(&c->trace, "/", err);
}

/* Child: after pivot_root, so the remount hits the container's /. */
int step_readonly_root(struct child *c, struct error *err)
{
        if (!c->plan->readonly_rootfs)
                return step_skip(c, "readonly_rootfs = no: the rootfs stays writable");
        return mounts_restrict(c, -1, "/", MS_RDONLY, false, err);
}
