/* idlayers.c - root's container of a store image in a user namespace: the image's layers shown
 * through idmapped mounts, so that overlayfs, mounted in the container's own namespaces
 * (overlay.c), can stack them under the container's writable layer.
 *
 * Kernel features: idmapped mounts (mount_setattr(2) MOUNT_ATTR_IDMAP, Linux 5.12) of a
 * detached copy of each layer's directory (open_tree(2) OPEN_TREE_CLONE), and overlayfs over
 * idmapped layers (Linux 5.19). Root's store keeps the layers with the archive's ids (0:0 and
 * so on), while root's containers map root to a range of subordinate ids (host 196608 and on).
 * Seen plainly, every file of the image would be nobody's inside, and overlayfs, which acts with
 * the credentials of the container's root, could not even look up a 0700 directory; through an
 * idmapped mount with the container's user namespace, host 0 reads as the container's 0. The
 * layers are never written and never chowned: one store serves every container.
 *
 * The kernel's rules, as fs/namespace.c and fs/overlayfs have them and as tried on Linux 6.18:
 * - Only host root makes them: mount_setattr(2) wants CAP_SYS_ADMIN over the user namespace of
 *   the layer's filesystem (the host's), and refuses the initial namespace as the mapping
 *   (EPERM). So the parent makes one a layer, once the child's maps are written, and passes it
 *   over the sync socket (SYNC_LAYER, before SYNC_GO).
 * - overlayfs clones each layer privately (clone_private_mount), which wants CAP_SYS_ADMIN over
 *   the user namespace that owns the layer's mount namespace. A detached tree of host root's
 *   belongs to an anonymous mount namespace of the host's: given as lowerdir=/proc/self/fd/N,
 *   the container's root gets EPERM (and EINVAL before Linux 6.15, which took no detached
 *   mount at all). So the child attaches each tree in its own mount namespace first
 *   (move_mount(2), which its root may do there), at ROOT/containers/ID/m/N, and lowerdir=
 *   names those: "../m/0:../m/1:...", relative to merged/, the working directory, since the
 *   container's root cannot walk root's 0700 store from / (EACCES).
 * - The flags of a tree moved into the container's mount namespace are not locked: its root
 *   may clear MOUNT_ATTR_RDONLY with mount_setattr(2) and write the store's layer as host root
 *   (tried: it can). So the trees are attached read-only, only by crib's setup, only while the
 *   overlay is made, and detached right after it (step_detach_layers): overlayfs keeps its own
 *   private clones, read-only and reachable by no path, and no code of the image ever runs
 *   while a layer is mounted.
 * - The upper layer is not idmapped: upper/ and work/ are the container's root's on disk
 *   (runtime/container/imgrootfs.c), so what the container writes is that id's, never host
 *   root's. The kernel takes an idmapped upper layer too, but then a setuid file the container
 *   made would be host root's on disk.
 * - overlayfs mounted in the container's user namespace reads its whiteouts and opaque
 *   directories from user.overlay.* (userxattr: trusted.* wants the host's CAP_SYS_ADMIN), as a
 *   user's does. With userxattr it follows no redirect and makes no metacopy (renaming a
 *   directory of a lower layer is EXDEV), and an overlay.* attribute the container sets through
 *   the overlay is stored escaped, user.overlay.overlay.*, never read as overlayfs's own.
 *
 * Where it sits: the parent's step after the id maps (launch/container.c); the child takes the
 * trees while it waits for SYNC_GO (userns.c), attaches them once its mounts are private, just
 * before the overlay (step_attach_layers), and detaches them just after (step_detach_layers).
 *
 * What goes wrong: a kernel before 5.19, or a store on a filesystem without idmapped mounts
 * (tmpfs before 6.3, NFS, ...): crib run tries the store's filesystem beforehand
 * (idlayers_probe) and gives such a container a copy of the layers instead, and says so with
 * the cost (runtime/container/imgrootfs.c).
 */
#define _GNU_SOURCE
#include "idlayers.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/procfile.h"
#include "base/sys.h"
#include "host/kernel.h"
#include "mountapi.h"

#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#endif
#ifndef MOUNT_ATTR_NODEV
#define MOUNT_ATTR_NODEV 0x00000004
#endif

struct idmap_attr { /* struct mount_attr, for C libraries without it */
        uint64_t attr_set, attr_clr, propagation, userns_fd;
};

/* A detached copy of the mount of `path` (relative to `dirfd`; the layer alone, none of the
 * mounts below it), idmapped with the user namespace `ns`, read-only and without devices:
 * its fd, or -1 with errno */
static int idmapped_tree(int dirfd, const char *path, int ns, const struct trace *t)
{
#if defined(SYS_open_tree) && defined(SYS_mount_setattr)
        int tree = (int)syscall(SYS_open_tree, dirfd, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
        int e = errno;
        if (t)
                trace_line(t, "  open_tree(\"%s\", OPEN_TREE_CLONE) = %d", path, tree);
        if (tree < 0)
                return errno = e, -1;
        struct idmap_attr attr = {.attr_set =
                                          MOUNT_ATTR_IDMAP | MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODEV,
                                  .userns_fd = (uint64_t)ns};
        long r = syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr, sizeof attr);
        e = errno;
        if (t)
                trace_line(t, "  mount_setattr(tree, MOUNT_ATTR_IDMAP|RDONLY|NODEV) = %ld", r);
        if (r == 0)
                return tree;
        close(tree);
        return errno = e, -1;
#else
        (void)dirfd, (void)path, (void)ns, (void)t;
        return errno = ENOSYS, -1;
#endif
}

/* Whether `dirfd`'s filesystem is one whose type has taken idmapped mounts since before Linux
 * 5.19 (ext4, xfs, btrfs; tmpfs since 6.3), as host root in the host's user namespace sees it:
 * no need to try. The try costs 1.5 to 2.5 ms (a user namespace made, mapped and reaped, a
 * detached mount freed after an RCU grace period) of a start of 25 ms. */
static bool known_to_take(int dirfd)
{
        struct statfs fs;
        unsigned major = 0, minor = 0;
        if (fstatfs(dirfd, &fs) < 0 || !userns_is_initial())
                return false;
        seccomp_kernel_version(&major, &minor);
        switch ((unsigned long)fs.f_type) {
        case EXT4_SUPER_MAGIC:
        case XFS_SUPER_MAGIC:
        case BTRFS_SUPER_MAGIC:
                return true;
        case TMPFS_MAGIC:
                return major > 6 || (major == 6 && minor >= 3);
        default:
                return false;
        }
}

int idlayers_probe(int dirfd, const char *path, struct error *err)
{
        if (known_to_take(dirfd))
                return 0;
        int hold[2];
        if (pipe2(hold, O_CLOEXEC) < 0)
                return error_set(err, errno, "cannot make a pipe");
        /* a process in a user namespace of its own, for its namespace; it waits for EOF, then
         * goes. The kernel takes no idmapping from a namespace without both maps (EINVAL): one
         * id each, nobody's, since the tree is only asked about */
        pid_t pid = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, NULL, NULL, NULL, NULL);
        if (pid == 0) {
                char b;
                close(hold[1]);
                (void)!read(hold[0], &b, 1);
                _exit(0);
        }
        int e = errno, r = -1;
        close(hold[0]);
        if (pid < 0) {
                error_set(err, e, "cannot make a user namespace to try idmapped mounts");
        } else {
                char uid_map[64], gid_map[64], ns_path[64];
                snprintf(uid_map, sizeof uid_map, "/proc/%d/uid_map", (int)pid);
                snprintf(gid_map, sizeof gid_map, "/proc/%d/gid_map", (int)pid);
                snprintf(ns_path, sizeof ns_path, "/proc/%d/ns/user", (int)pid);
                _cleanup_close_ int ns = open(ns_path, O_RDONLY | O_CLOEXEC);
                int tree = -1;
                if (ns < 0 || (e = procfile_write(uid_map, "0 65534 1\n")) != 0 ||
                    (e = procfile_write(gid_map, "0 65534 1\n")) != 0)
                        error_set(err, ns < 0 ? errno : e,
                                  "cannot map a user namespace to try "
                                  "idmapped mounts");
                else if ((tree = idmapped_tree(dirfd, path, ns, NULL)) >= 0)
                        r = 0, close(tree);
                else
                        error_set(err, errno, "cannot make an idmapped mount of '%s'", path);
        }
        close(hold[1]);
        while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
        return r;
}

int idlayers_send(const struct plan *p, pid_t pid, struct sync_chan *chan, const struct trace *t,
                  struct error *err)
{
        char ns_path[64];
        snprintf(ns_path, sizeof ns_path, "/proc/%d/ns/user", (int)pid);
        _cleanup_close_ int ns = open(ns_path, O_RDONLY | O_CLOEXEC);
        if (ns < 0)
                return error_set(err, errno, "cannot open '%s'", ns_path);
        for (unsigned i = 0; i < p->overlay_layers; i++) {
                char layer[PATH_MAX + 32];
                snprintf(layer, sizeof layer, "%s/l/%u", p->image_dir, i);
                _cleanup_close_ int tree = idmapped_tree(AT_FDCWD, layer, ns, t);
                if (tree < 0) {
                        error_set(err, errno,
                                  "cannot show the image's layer '%s' to the container "
                                  "as its root's (idmapped mount)",
                                  layer);
                        return error_hint(err, "overlayfs over idmapped layers needs Linux 5.19 "
                                               "and a filesystem with idmapped mounts (ext4, "
                                               "btrfs, xfs; tmpfs from 6.3)");
                }
                struct sync_msg m = {.type = SYNC_LAYER, .u.layer = i};
                if (sync_send(chan, &m, tree, err) < 0)
                        return -1;
        }
        trace_line(t, "  sendmsg(sync, LAYER 0..%u) = 0", p->overlay_layers - 1);
        return 0;
}

int idlayers_take(struct child *c, uint32_t layer, int fd, struct error *err)
{
        if (fd < 0 || layer != c->nlayer_trees || layer >= c->plan->overlay_layers ||
            layer >= PLAN_MAX_LAYERS) {
                if (fd >= 0)
                        close(fd);
                return error_set(err, EPROTO, "layer %u of the image out of place", layer);
        }
        c->layer_trees[c->nlayer_trees++] = fd;
        trace_line(&c->trace, "  read(sync) = LAYER %u (an idmapped layer, fd %d)", layer, fd);
        return 0;
}

/* Child: in the container's user and mount namespaces, as their root, with the mounts private;
 * the working directory is the rootfs's mountpoint, merged/. Each tree the parent sent goes onto
 * m/N, read-only, for the overlay's lowerdir= to name; the descriptors go. */
int step_attach_layers(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        if (!p->overlay_idmapped)
                return step_skip(c, "%s",
                                 p->overlay_upper ? "the layers are the container's as "
                                                    "they are: no idmapped mounts"
                                                  : "the rootfs is a directory");
        if (c->nlayer_trees != p->overlay_layers)
                return error_set(err, EPROTO, "crib sent %u of the image's %u layers",
                                 c->nlayer_trees, p->overlay_layers);
        for (unsigned i = 0; i < c->nlayer_trees; i++) {
                char at[32];
                snprintf(at, sizeof at, "../m/%u", i);
                long r = syscall(SYS_move_mount, c->layer_trees[i], "", AT_FDCWD, at,
                                 MOVE_MOUNT_F_EMPTY_PATH);
                int e = errno;
                trace_line(&c->trace, "  move_mount(layer %u, \"%s\") = %ld", i, at, r);
                if (r < 0)
                        return error_set(err, e, "cannot attach the image's layer %u at '%s'", i,
                                         at);
                close(c->layer_trees[i]);
                c->layer_trees[i] = -1;
        }
        c->nlayer_trees = 0;
        return 0;
}

/* Child: right after the overlay is made, which holds private clones of its layers: the
 * mounts on m/N go, so that nothing the container's root could make writable again stays
 * (the overlay's own clones are read-only and no path reaches them) */
int step_detach_layers(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        if (!p->overlay_idmapped)
                return step_skip(c, "no idmapped layers");
        for (unsigned i = p->overlay_layers; i-- > 0;) {
                char at[32];
                snprintf(at, sizeof at, "../m/%u", i);
                if (sys_umount2(&c->trace, at, MNT_DETACH, err) < 0)
                        return error_wrap(err, "cannot detach the image's layer %u", i);
        }
        return 0;
}
