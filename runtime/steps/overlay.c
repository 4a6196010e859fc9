/* overlay.c - a container of a store image: its rootfs is an overlay of the image's layers
 * under a writable layer of its own (docs/store.md, "A container's rootfs").
 *
 * Kernel features: overlayfs (Documentation/filesystems/overlayfs.rst) in a user namespace
 * (Linux 5.11), with `userxattr`: its whiteouts and opaque directories are read from
 * user.overlay.* attributes, which a user may set, so the store's layers read the same for
 * root and for a user; the new mount API, fsopen(2), fsconfig(2) and fsmount(2) (Linux 5.2),
 * which build the mount detached, so it is attached nowhere but on the rootfs's mountpoint, in
 * the container's own mount namespace: the host never sees it.
 *
 * Where it sits: after the id maps are written (an overlay in a user namespace is mounted by
 * that namespace's root, whose ids must mean something) and the mounts made private, before
 * the rootfs bind (mounts.c), which attaches this tree on the mountpoint the parent opened and
 * entered, as it attaches an idmapped one; then the setup goes on as for any rootfs.
 *
 * A container that goes with its directory (--rm) gets `volatile` (Linux 5.10), as podman's
 * --rm containers do: overlayfs otherwise syncs the whole filesystem of upper/ when it is
 * unmounted, as the container ends, which on a busy disk waits on everyone else's writes; a
 * volatile upper/ is never mounted again (overlayfs refuses it), and --rm removes it anyway.
 *
 * fsconfig(2) takes a value of 255 bytes at most: lowerdir= is the absolute paths of the
 * layers where they fit, else paths relative to the working directory (plan/fs.c), else each
 * layer on its own as "lowerdir+" (Linux 6.8).
 *
 * Root's containers in a user namespace (root mapped to its range of subordinate ids) get the
 * same overlay over the layers shown through idmapped mounts, attached at m/N by the row
 * before (idlayers.c: Linux 5.19, and why upper/ is the container's root's, not idmapped);
 * their paths are always the relative ones, and the row after detaches the layers' mounts.
 *
 * What goes wrong: a kernel before 5.11 refuses an overlay in a user namespace (EPERM), and
 * one before 5.11 knows no `userxattr` (EINVAL); a filesystem without user extended
 * attributes (tmpfs before 6.6) cannot hold the upper layer. crib run chooses a copy of the
 * layers beforehand where it knows this (runtime/container/imgrootfs.c); the kernel's own
 * reason, which fsconfig(2) leaves on the context, is added to the error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<linux/mount.h>)
#include <linux/mount.h>
#endif

#include "step.h"
#include "mountapi.h"
#include "base/cleanup.h"

/* The kernel's message on the context `fs`, after a failed fsconfig(2): "e overlayfs: ..." */
static void kernel_reason(int fs, struct error *err)
{
        char msg[256];
        ssize_t n = read(fs, msg, sizeof msg - 1);
        if (n <= 2)
                return;
        msg[n] = '\0';
        msg[strcspn(msg, "\n")] = '\0';
        error_hint(err, "the kernel says: %s", msg + 2);
}

static int set_string(struct child *c, int fs, const char *key, const char *value,
                      struct error *err)
{
        long r = syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, key, value, 0);
        int e = errno;
        trace_line(&c->trace, "  fsconfig(overlay, FSCONFIG_SET_STRING, \"%s\", \"%s\") = %ld", key,
                   value, r);
        if (r == 0)
                return 0;
        error_set(err, e, "cannot give overlayfs its %s '%s'", key, value);
        kernel_reason(fs, err);
        return -1;
}

/* The flag `key` (userxattr: Linux 5.11; volatile: 5.10) */
static int set_flag(struct child *c, int fs, const char *key, struct error *err)
{
        long r = syscall(SYS_fsconfig, fs, FSCONFIG_SET_FLAG, key, NULL, 0);
        int e = errno;
        trace_line(&c->trace, "  fsconfig(overlay, FSCONFIG_SET_FLAG, \"%s\") = %ld", key, r);
        if (r == 0)
                return 0;
        error_set(err, e, "overlayfs refuses option '%s' (Linux 5.11)", key);
        kernel_reason(fs, err);
        return -1;
}

/* More layers than one fsconfig(2) value holds: each one appended, topmost first (overlayfs's
 * "lowerdir+", Linux 6.8), relative to the working directory, the rootfs's mountpoint */
static int add_layers(struct child *c, int fs, struct error *err)
{
        for (unsigned i = 0; i < c->plan->overlay_layers; i++) {
                char layer[32];
                snprintf(layer, sizeof layer, "../%s/%u", c->plan->overlay_idmapped ? "m" : "l", i);
                if (set_string(c, fs, "lowerdir+", layer, err) < 0)
                        return error_hint(err, "an image of more than 36 layers needs Linux 6.8");
        }
        return 0;
}

/* Child: in the container's user and mount namespaces, as their root, with the mounts
 * private; the working directory is the rootfs's mountpoint (merged/). The overlay's detached
 * tree becomes c->rootfs_tree, which step_bind_rootfs attaches there. */
int step_overlay(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        if (!p->overlay_upper)
                return step_skip(c, "the rootfs is a directory, not an image's layers");
        _cleanup_close_ int fs = (int)syscall(SYS_fsopen, "overlay", FSOPEN_CLOEXEC);
        int e = errno;
        trace_line(&c->trace, "  fsopen(\"overlay\") = %d", fs);
        if (fs < 0) {
                error_set(err, e, "cannot make the overlay of the image's layers (fsopen(2))");
                return error_hint(err, "overlayfs is module overlay (CONFIG_OVERLAY_FS)");
        }
        if (p->overlay_lower ? set_string(c, fs, "lowerdir", p->overlay_lower, err) < 0
                             : add_layers(c, fs, err) < 0)
                return -1;
        if (set_string(c, fs, "upperdir", p->overlay_upper, err) < 0 ||
            set_string(c, fs, "workdir", p->overlay_work, err) < 0)
                return -1;
        if (set_flag(c, fs, "userxattr", err) < 0 ||
            (p->overlay_volatile && set_flag(c, fs, "volatile", err) < 0))
                return -1;
        long r = syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0);
        e = errno;
        trace_line(&c->trace, "  fsconfig(overlay, FSCONFIG_CMD_CREATE) = %ld", r);
        if (r < 0) {
                error_set(err, e, "cannot make the overlay of the image's layers");
                kernel_reason(fs, err);
                return error_hint(err, "a user namespace may mount overlayfs since Linux 5.11");
        }
        /* nodev as every rootfs (mounts.c); setuid programs of the image work as they would on
         * a directory */
        int mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NODEV);
        e = errno;
        trace_line(&c->trace, "  fsmount(overlay, FSMOUNT_CLOEXEC, MOUNT_ATTR_NODEV) = %d", mnt);
        if (mnt < 0)
                return error_set(err, e, "cannot mount the overlay of the image's layers");
        c->rootfs_tree = mnt;
        return 0;
}
