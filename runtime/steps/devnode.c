/* devnode.c - an OCI config's device nodes (.linux.devices, MOP_DEVICE), on crib's own /dev.
 *
 * Kernel features: mknod(2) with the node's mode and numbers, fchownat(2), a bind of a node onto
 * itself (the /dev tmpfs is nodev); in a user namespace, where mknod(2) of a device is refused,
 * a bind of the host's node; mount ids (/proc/self/fdinfo) to keep every step on /dev's tmpfs.
 * And real root's copies of the host's nodes crib's /dev has (own_node).
 */
#define _GNU_SOURCE
#include "mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/sys.h"

/* Real root's device nodes are its own copies, made in the nodev /dev: each opens through a
 * bind of itself without nodev, and a chmod inside changes the copy, never the host's node. */
int own_node(struct child *c, int rootfd, const struct mount_op *op, struct error *err)
{
        char self[64];
        _cleanup_close_ int node = resolve(rootfd, op->dst + 1);
        if (node < 0)
                return error_set(err, errno, "cannot open '%s' in the rootfs", op->dst);
        snprintf(self, sizeof self, "/proc/self/fd/%d", node);
        if (sys_mount(&c->trace, self, self, op->dst, NULL, MS_BIND, NULL, err) < 0)
                return -1;
        /* found again by name, which now leads onto the bind (our own /dev: nobody else's) */
        _cleanup_close_ int top = resolve(rootfd, op->dst + 1);
        if (top < 0)
                return error_set(err, errno, "cannot open '%s' in the rootfs", op->dst);
        snprintf(self, sizeof self, "/proc/self/fd/%d", top);
        return sys_mount(&c->trace, NULL, self, op->dst, NULL,
                         MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NOEXEC, NULL, err);
}

/* An OCI config's device node (MOP_DEVICE), made on crib's own /dev tmpfs and nowhere else:
 * found from that tmpfs's root (its fresh entry, which a mount on /dev or above would have
 * ended), each directory on the way made (0755) or opened without following a symlink, and
 * refused unless it is on that same mount (a mount below /dev, a bind of a host directory,
 * would put the node on the host). Real root makes the node with its mode and owner, and binds
 * it onto itself (/dev is nodev); in a user namespace, where mknod(2) of a device is refused,
 * the host's node of the same path is bound on an empty file, once checked to be the type and
 * numbers planned. A FIFO is made in either, and needs no bind. Child: before pivot_root. */
int device_node(struct child *c, struct fresh *f, int rootfd, const struct mount_op *op,
                struct error *err)
{
        if (strncmp(op->dst, "/dev/", 5)) /* the parser's check, again ('..': the mount below) */
                return error_set(err, EINVAL, "'%s' is not a name under /dev", op->dst);
        int i = fresh_find(f, "/dev", 4), dm = i >= 0 ? mount_id(f->fd[i]) : -1;
        if (dm < 0)
                return error_set(err, EXDEV,
                                 "cannot make '%s': /dev is not the container's own tmpfs here",
                                 op->dst);
        _cleanup_close_ int dir = fcntl(f->fd[i], F_DUPFD_CLOEXEC, 3);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s", op->dst + 5); /* below "/dev/" */
        char *name = path, *slash;
        while (dir >= 0 && (slash = strchr(name, '/'))) {
                *slash = '\0';
                if (sys_mkdirat(&c->trace, dir, name, op->dst, 0755, err) < 0)
                        return -1;
                int next = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                close(dir);
                dir = next;
                if (dir >= 0 && mount_id(dir) != dm)
                        return error_set(err, EXDEV, "cannot make '%s': '%s' is another mount",
                                         op->dst, name);
                name = slash + 1;
        }
        if (dir < 0)
                return error_set(err, errno, "cannot make the directories of '%s'", op->dst);
        if ((c->plan->userns || !c->plan->privileged) && !S_ISFIFO(op->mode)) {
                struct stat st;
                _cleanup_close_ int src = open(op->src, O_PATH | O_CLOEXEC);
                if (src < 0 || fstat(src, &st) < 0)
                        return error_set(err, errno, "cannot open the host's '%s'", op->src);
                if ((st.st_mode & S_IFMT) != (op->mode & S_IFMT) || st.st_rdev != op->dev)
                        return error_set(err, ESTALE,
                                         "the host's '%s' is no longer the node planned", op->src);
                _cleanup_close_ int file = openat(
                        dir, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
                if (file < 0)
                        return error_set(err, errno, "cannot make '%s'", op->dst);
                char from[64], to[64];
                snprintf(from, sizeof from, "/proc/self/fd/%d", src);
                snprintf(to, sizeof to, "/proc/self/fd/%d", file);
                return sys_mount(&c->trace, from, to, op->dst, NULL, MS_BIND, NULL, err);
        }
        if (sys_mknodat(&c->trace, dir, name, op->dst, op->mode, op->dev, err) < 0)
                return -1;
        if (fchownat(dir, name, op->uid, op->gid, AT_SYMLINK_NOFOLLOW) < 0)
                return error_set(err, errno, "cannot chown '%s' to %u:%u", op->dst,
                                 (unsigned)op->uid, (unsigned)op->gid);
        if (fchmodat(dir, name, op->mode & 07777, 0) < 0)
                return error_set(err, errno, "cannot chmod '%s'", op->dst);
        return S_ISFIFO(op->mode) ? 0 : own_node(c, rootfd, op, err);
}
