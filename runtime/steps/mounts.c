/* mounts.c - the container's mount table: propagation, the rootfs bind, and the mount
 * operations of the plan (proc, dev, sys and the spec's [mounts]; the container's cgroup is
 * cgroupmount.c's, an OCI config's device nodes devnode.c's, behind mounts.h).
 *
 * Kernel features: mount namespaces (mount_namespaces(7)), mount(2), shared subtrees
 * (MS_PRIVATE), bind mounts, tmpfs, proc, sysfs, devpts, mqueue, cgroup2 in a cgroup namespace
 * (cgroup_namespaces(7)); open_tree(2) and
 * move_mount(2) (Linux 5.2) to bind the rootfs and keep a descriptor of the bind; fsopen(2) and
 * fsmount(2) (Linux 5.2) for the files crib writes (resolv.conf, hosts) on a tmpfs that is
 * never attached anywhere but on the file it replaces; openat2(2)
 * RESOLVE_IN_ROOT (Linux 5.6) to find mountpoints inside the rootfs without following its
 * symlinks out of it; mount_setattr(2) (Linux 5.12) for flags on a whole tree.
 *
 * Where it sits: first in the new mount namespace, before pivot_root. Everything is mounted
 * under the rootfs while the host's paths (bind sources, /dev/null) are still reachable. The
 * rootfs is looked up by name once (step_bind_rootfs); from then on every path is resolved
 * from the bind's descriptor, so renaming the rootfs meanwhile cannot split the setup between
 * two directories. The rootfs, /dev, every tmpfs and every directory bind are nodev: a
 * container with CAP_MKNOD (real root, user = no) can make device nodes, and they must not
 * open; only the standard nodes, devpts and device files the spec binds one by one do.
 *
 * What goes wrong: in a user namespace the kernel refuses a new proc or sysfs mount when the
 * host's one has parts hidden by other mounts (as inside another container), and mqueue without
 * an ipc namespace of our own; remounting a bind read-only must keep the flags the kernel
 * locked (nosuid, nodev, noexec, atime), or it fails with EPERM; the kernel refuses a new
 * cgroup2 on the root of the host's own (EBUSY), which a bind of the host's /sys brings. A
 * mountpoint whose path passes through a link of /proc (a magic link, which could lead
 * anywhere) fails with ELOOP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif
#if __has_include(<linux/mount.h>)
#include <linux/mount.h>
#endif

#include "step.h"
#include "mountapi.h"
#include "mounts.h"
#include "base/cleanup.h"
#include "cgroup/cgroup.h"
#include "spec/phrase.h"
#include "base/sys.h"

/* Child: in the new mount namespace. */
int step_mounts_private(struct child *c, struct error *err)
{
        if (sys_mount(&c->trace, NULL, "/", NULL, NULL, MS_REC | MS_PRIVATE, NULL, err) < 0)
                return error_hint(err, "crib needs a private copy of the mount table so that "
                                       "nothing it mounts reaches the host");
        return 0;
}

/* The mount id of what `fd` refers to, from /proc/self/fdinfo (Linux 3.15); -1 if unknown. */
int mount_id(int fd)
{
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
        _cleanup_close_ int info = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n = info >= 0 ? read(info, buf, sizeof buf - 1) : -1;
        if (n <= 0)
                return -1;
        buf[n] = '\0';
        const char *m = strstr(buf, "mnt_id:");
        return m ? atoi(m + 7) : -1;
}

int mounts_rootfs_replaced(const char *rootfs, struct error *err)
{
        error_set(err, 0, "the rootfs '%s' was replaced while crib started", rootfs);
        return error_hint(err, "another process renamed it or a directory above it; only you "
                               "should be able to write the directories above a rootfs");
}

/* Bind the directory `fd` (opened in this mount namespace) onto itself, recursively, and
 * return a descriptor of the new mount's root. */
static int bind_onto_itself(struct child *c, int fd, struct error *err)
{
#if defined(SYS_open_tree) && defined(SYS_move_mount) && defined(OPEN_TREE_CLONE)
        /* a detached copy of the tree, attached over the directory itself: the descriptor
         * stays on the new mount, and no name is looked up */
        _cleanup_close_ int tree =
                (int)syscall(SYS_open_tree, fd, "",
                             OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH);
        trace_line(&c->trace, "  open_tree(rootfs, OPEN_TREE_CLONE|AT_RECURSIVE) = %d", tree);
        if (tree >= 0) {
                long r = syscall(SYS_move_mount, tree, "", fd, "",
                                 MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
                trace_line(&c->trace, "  move_mount(tree, rootfs) = %s", r == 0 ? "0" : "-1");
                if (r < 0)
                        return error_set(err, errno, "cannot bind the rootfs '%s' onto itself",
                                         c->plan->rootfs);
                return take_fd(&tree);
        }
        if (errno != ENOSYS)
                return error_set(err, errno, "cannot bind the rootfs '%s' onto itself",
                                 c->plan->rootfs);
#endif
        /* before Linux 5.2: mount(2) from the descriptor; a descriptor, or a path through
         * /proc/self/fd, stays on the mount below, so the new one is found by name again and
         * checked: the same directory, on another mount */
        char self[64];
        struct stat want, got;
        snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
        if (sys_mount(&c->trace, self, self, c->plan->rootfs, NULL, MS_BIND | MS_REC, NULL, err) <
            0)
                return -1;
        _cleanup_close_ int top = open(c->plan->rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (top < 0)
                return error_set(err, errno, "cannot open the rootfs '%s'", c->plan->rootfs);
        if (fstat(fd, &want) < 0 || fstat(top, &got) < 0 || want.st_dev != got.st_dev ||
            want.st_ino != got.st_ino || mount_id(top) == mount_id(fd)) {
                return mounts_rootfs_replaced(c->plan->rootfs, err);
        }
        return take_fd(&top);
}

/* Child: pivot_root needs the new root to be a mount point; a bind of the rootfs onto itself
 * makes it one. The rootfs is the working directory: the parent opened it once, checked it and
 * entered it (step.h), and the clone's new mount namespace carried it over to its own copy of
 * the mount, so no name is looked up here at all. Every later step works from c->rootfd, the
 * bind's root. Root's containers whose rootfs host root owns get the parent's idmapped copy of
 * the tree (userns.c) instead of a plain one. */
int step_bind_rootfs(struct child *c, struct error *err)
{
        int tree = c->rootfs_tree;
        c->rootfs_tree = -1;
        if (tree >= 0) {
                long m = syscall(SYS_move_mount, tree, "", AT_FDCWD, ".", MOVE_MOUNT_F_EMPTY_PATH);
                int e = errno;
                trace_line(&c->trace, "  move_mount(%s tree, \".\") = %ld",
                           c->plan->overlay_upper ? "overlay" : "idmapped", m);
                if (m < 0) {
                        close(tree);
                        return error_set(err, e, "cannot mount the rootfs '%s'", c->plan->rootfs);
                }
                c->rootfd = tree;
        } else {
                _cleanup_close_ int fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (fd < 0)
                        return error_set(err, errno, "cannot open the rootfs '%s'",
                                         c->plan->rootfs);
                c->rootfd = bind_onto_itself(c, fd, err);
                if (c->rootfd < 0)
                        return -1;
        }
        /* no device node in the rootfs opens: only /dev's binds, made below, do */
        return mounts_restrict(c, c->rootfd, "/", MS_NODEV, true, err);
}

/* Open `rel` (relative to the rootfs) as an O_PATH fd, never leaving the rootfs. ELOOP means
 * a magic link or too many symlinks with openat2(2); a symlink at all without it, and then
 * *ret_walked is set. */
static int resolve_how(int rootfd, const char *rel, bool *ret_walked)
{
#if defined(SYS_openat2) && defined(RESOLVE_IN_ROOT)
        struct open_how how = {
                .flags = O_PATH | O_CLOEXEC,
                .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
        };
        int fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof how);
        if (fd >= 0 || errno != ENOSYS)
                return fd;
#endif
        /* Before Linux 5.6: walk the path and refuse symlinks, which could lead out. */
        char buf[PATH_MAX];
        if (ret_walked)
                *ret_walked = true;
        snprintf(buf, sizeof buf, "%s", rel);
        int cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
        for (char *save, *comp = strtok_r(buf, "/", &save); comp && cur >= 0;
             comp = strtok_r(NULL, "/", &save)) {
                if (!strcmp(comp, "."))
                        continue;
                int next = openat(cur, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
                struct stat st;
                int e = errno;
                close(cur);
                if (next >= 0 && fstat(next, &st) == 0 && S_ISLNK(st.st_mode)) {
                        close(next);
                        next = -1;
                        e = ELOOP;
                }
                cur = next;
                errno = e;
        }
        return cur;
}

int resolve(int rootfd, const char *rel)
{
        return resolve_how(rootfd, rel, NULL);
}

/* The entry for the first `len` bytes of `path`, or -1. */
int fresh_find(const struct fresh *f, const char *path, size_t len)
{
        for (int i = 0; f && i < FRESH_MAX; i++)
                if (f->fd[i] >= 0 && strlen(f->path[i]) == len && !memcmp(f->path[i], path, len))
                        return i;
        return -1;
}

/* A mount on `dst` is about to be made: forget the fresh directories it covers. */
static void fresh_forget(struct fresh *f, const char *dst)
{
        size_t n = strlen(dst);
        for (int i = 0; i < FRESH_MAX; i++) {
                const char *fp = f->path[i];
                if (f->fd[i] >= 0 &&
                    (n == 1 || (!strncmp(fp, dst, n) && (fp[n] == '\0' || fp[n] == '/')))) {
                        close(f->fd[i]);
                        f->fd[i] = -1;
                }
        }
}

/* A tmpfs was just mounted on `dst`: remember its root, if there is a free entry. */
static void fresh_add(struct fresh *f, int rootfd, const char *dst)
{
        for (int i = 0; i < FRESH_MAX; i++)
                if (f->fd[i] < 0) {
                        f->fd[i] = resolve(rootfd, dst + 1);
                        f->path[i] = dst;
                        return;
                }
}

/* Make `name` in the directory `pfd`, a directory when `dir`, and open it. Opened from its
 * parent, which was resolved safely: a name swapped for a symlink in between fails (O_NOFOLLOW,
 * O_DIRECTORY). Returns the descriptor; -1 with `err` set; or -2 when the name is there
 * already (a file; a directory too when `excl`), for the caller to resolve as any path. */
int make_in(struct child *c, int pfd, const char *name, const char *shown, bool dir, bool excl,
            struct error *err)
{
        int fd;
        if (dir) {
                int r = sys_mkdirat(&c->trace, pfd, name, shown, 0755, err);
                if (r < 0)
                        return -1;
                if (r == 1 && excl)
                        return -2;
                fd = openat(pfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        } else {
                fd = openat(pfd, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
                trace_line(&c->trace, "  create(\"%s\") = %s", shown, fd >= 0 ? "0" : "-1");
                if (fd < 0 && errno == EEXIST)
                        return -2;
                if (fd < 0)
                        return error_set(err, errno, "cannot create mountpoint '%s'", shown);
        }
        if (fd < 0)
                return error_set(err, errno, "cannot open '%s' in the rootfs", shown);
        return fd;
}

/* Open the mountpoint for `path` (absolute, inside the container), creating the missing
 * directories, and a file as the last component when `dir` is false. */
int mountpoint(struct child *c, struct fresh *f, int rootfd, const char *path, bool dir,
               struct error *err)
{
        const char *rel = path[1] ? path + 1 : ".";
        const char *slash = strrchr(path, '/');
        int i = fresh_find(f, path, strlen(path));
        if (i >= 0) {
                int fd = fcntl(f->fd[i], F_DUPFD_CLOEXEC, 3);
                if (fd < 0)
                        return error_set(err, errno, "cannot open '%s' in the rootfs", path);
                return fd;
        }
        if (slash != path && (i = fresh_find(f, path, (size_t)(slash - path))) >= 0) {
                int fd = make_in(c, f->fd[i], slash + 1, path, dir, true, err);
                if (fd != -2)
                        return fd;
                /* there already: found as any path, below */
        }
        bool walked = false;
        int fd = resolve_how(rootfd, rel, &walked);
        if (fd >= 0)
                return fd;
        if (errno != ENOENT) {
                error_set(err, errno, "cannot open '%s' in the rootfs", path);
                if (errno == ELOOP && walked)
                        error_hint(err,
                                   "'%s' passes through a symlink; this kernel has no "
                                   "openat2(2) (Linux 5.6) to follow it safely inside the "
                                   "rootfs: use the path the symlink points to",
                                   path);
                else if (errno == ELOOP)
                        error_hint(err,
                                   "'%s' passes through a link of /proc (such as "
                                   "/proc/self/fd/N or /proc/self/root), which could lead out "
                                   "of the rootfs, or through a loop of symlinks; use a path "
                                   "that stays inside the rootfs",
                                   path);
                return -1;
        }
        char parent[PATH_MAX];
        snprintf(parent, sizeof parent, "%s", path);
        const char *name = slash + 1;
        parent[slash == path ? 1 : slash - path] = '\0';
        _cleanup_close_ int pfd = mountpoint(c, f, rootfd, parent, true, err);
        if (pfd < 0)
                return -1;
        fd = make_in(c, pfd, name, path, dir, false, err);
        if (fd == -2) { /* made by someone else meanwhile: resolve it as any path */
                fd = resolve(rootfd, rel);
                if (fd < 0)
                        return error_set(err, errno, "cannot open '%s' in the rootfs", path);
        }
        return fd;
}

/* Flags the kernel locks on a mount seen from a user namespace: a remount must repeat them. */
static unsigned long locked_flags(const char *target)
{
        static const struct {
                unsigned long st, ms;
        } map[] = {
                {ST_RDONLY, MS_RDONLY},     {ST_NOSUID, MS_NOSUID},
                {ST_NODEV, MS_NODEV},       {ST_NOEXEC, MS_NOEXEC},
                {ST_NOATIME, MS_NOATIME},   {ST_NODIRATIME, MS_NODIRATIME},
                {ST_RELATIME, MS_RELATIME},
        };
        struct statvfs sv;
        unsigned long flags = 0;
        if (statvfs(target, &sv) < 0)
                return 0;
        for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
                if (sv.f_flag & map[i].st)
                        flags |= map[i].ms;
        return flags;
}

#define ATTR_FLAGS (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)

/* Apply nosuid/nodev/noexec/ro to the bind mount now on `path`, recursively when asked. */
int mounts_restrict(struct child *c, int rootfd, const char *path, unsigned long flags,
                    bool recursive, struct error *err)
{
        _cleanup_close_ int fd = rootfd >= 0 ? resolve(rootfd, path[1] ? path + 1 : ".")
                                             : open(path, O_PATH | O_CLOEXEC);
        char target[64];
        if (fd < 0)
                return error_set(err, errno, "cannot open '%s' to restrict it", path);
        snprintf(target, sizeof target, "/proc/self/fd/%d", fd);
#if defined(SYS_mount_setattr) && defined(MOUNT_ATTR_RDONLY)
        if (recursive) {
                struct mount_attr attr = {0};
                if (flags & MS_RDONLY)
                        attr.attr_set |= MOUNT_ATTR_RDONLY;
                if (flags & MS_NOSUID)
                        attr.attr_set |= MOUNT_ATTR_NOSUID;
                if (flags & MS_NODEV)
                        attr.attr_set |= MOUNT_ATTR_NODEV;
                if (flags & MS_NOEXEC)
                        attr.attr_set |= MOUNT_ATTR_NOEXEC;
                long r = syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr,
                                 sizeof attr);
                int e = errno;
                trace_line(&c->trace, "  mount_setattr(\"%s\", AT_RECURSIVE, set=%#llx) = %s", path,
                           (unsigned long long)attr.attr_set, r == 0 ? "0" : "-1");
                if (r == 0)
                        return 0;
                if (e != ENOSYS)
                        return error_set(err, e, "cannot restrict the mounts under '%s'", path);
                /* before Linux 5.12: only the top mount can be changed */
        }
#endif
        (void)recursive;
        return sys_mount(&c->trace, NULL, target, path, NULL,
                         MS_REMOUNT | MS_BIND | locked_flags(target) | (flags & ATTR_FLAGS), NULL,
                         err);
}

/* A bind source is the one planning found (mount_op.src_dev and src_ino), or nothing is bound:
 * its name may lead elsewhere by now (a directory of another user's on the way, swapped for a
 * symbolic link between two runs of a restart policy: crib's monitor runs the setup again from
 * the same plan) */
static int bind_pinned(const struct mount_op *op, const struct stat *st, struct error *err)
{
        if (!op->src_ino || (st->st_dev == op->src_dev && st->st_ino == op->src_ino))
                return 0;
        error_set(err, 0,
                  "bind source '%s' is no longer what the container was planned with: "
                  "something else was put in its place since (device %u:%u inode %llu, "
                  "planned %u:%u inode %llu)",
                  op->src, major(st->st_dev), minor(st->st_dev), (unsigned long long)st->st_ino,
                  major(op->src_dev), minor(op->src_dev), (unsigned long long)op->src_ino);
        return error_hint(err, "crib binds what it checked or nothing; to bind the new one, "
                               "start the container again (crib rm, then crib run)");
}

/* A generated file (MOP_FILE): written on a small tmpfs that no path reaches, then only that
 * file mounted on `op->dst`, read-only. The name there may be a symlink, even a dangling one
 * (an image's /etc/resolv.conf -> ../run/systemd/resolve/stub-resolv.conf): the file is
 * mounted on the link itself, so nothing is followed and nothing in the rootfs changes. */
/* open_tree(OPEN_TREE_CLONE) of the file "file" on the detached tmpfs `mnt`, on older kernels
 * (Debian bookworm's 6.1, Raspberry Pi OS's), which clone only from a mount of the caller's
 * namespace: the tmpfs is attached over the directory `dir` (`name` for the trace) for the
 * moment (only this process is in the new mount namespace, its propagation private), the file
 * cloned from there, and the tmpfs detached again. The target was opened before. The clone's
 * descriptor, or -1 with errno. */
static int clone_attached(struct child *c, int mnt, int dir, const char *name)
{
        char top[64];
        snprintf(top, sizeof top, "/proc/self/fd/%d", mnt);
        if (syscall(SYS_move_mount, mnt, "", dir, "",
                    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
                return -1;
        int tree = (int)syscall(SYS_open_tree, mnt, "file", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
        int e = errno;
        int u = umount2(top, MNT_DETACH);
        trace_line(&c->trace,
                   "  move_mount(tmpfs, \"%s\"); open_tree(\"file\", OPEN_TREE_CLONE) = %d; "
                   "umount2(MNT_DETACH) = %d",
                   name, tree, u);
        if (u < 0) { /* the tmpfs would hide the directory: no container of that */
                e = errno;
                if (tree >= 0)
                        close(tree);
                tree = -1;
        }
        errno = e;
        return tree;
}

static int file_mount(struct child *c, int rootfd, const struct mount_op *op, struct error *err)
{
        char parent[PATH_MAX];
        snprintf(parent, sizeof parent, "%s", op->dst);
        *strrchr(parent, '/') = '\0';
        const char *name = strrchr(op->dst, '/') + 1;
        _cleanup_close_ int dir = mountpoint(c, NULL, rootfd, parent[0] ? parent : "/", true, err);
        if (dir < 0)
                return -1;
        _cleanup_close_ int target = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (target < 0 && errno == ENOENT) {
                int made = openat(dir, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
                                  0644);
                int e = errno;
                trace_line(&c->trace, "  create(\"%s\") = %s", op->dst, made >= 0 ? "0" : "-1");
                if (made < 0 && e != EEXIST) {
                        /* a rootfs we may not write (another user's, read-only): the container
                         * runs without the file, and crib says how to give it one */
                        char change[128];
                        child_warn(c,
                                   "'%s' is not in the rootfs and cannot be made there (%s): the "
                                   "container runs without crib's %s\ncreate an empty %s in the "
                                   "rootfs, or %s",
                                   op->dst, strerror(e), op->dst, op->dst,
                                   phrase_change(c->plan->front, SPEC_KEY_MOUNTS_BIND, PHRASE_ON,
                                                 change, sizeof change));
                        return 0;
                }
                if (made >= 0)
                        close(made);
                target = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        }
        struct stat st;
        if (target < 0 || fstat(target, &st) < 0)
                return error_set(err, errno, "cannot open '%s' in the rootfs", op->dst);
        if (S_ISDIR(st.st_mode))
                return error_set(err, EISDIR, "'%s' in the rootfs is a directory", op->dst);
        _cleanup_close_ int fs = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
        if (fs < 0)
                return error_set(err, errno, "cannot make a tmpfs for '%s' (fsopen(2): Linux 5.2)",
                                 op->dst);
        _cleanup_close_ int mnt = -1, file = -1, tree = -1;
        if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "size", "64k", 0) < 0 ||
            syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "nr_inodes", "8", 0) < 0 ||
            syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0 ||
            (mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC,
                                MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC)) < 0)
                return error_set(err, errno, "cannot make a tmpfs for '%s'", op->dst);
        size_t len = strlen(op->data);
        file = openat(mnt, "file", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
        if (file < 0 || sys_write_all(file, op->data, len) < 0)
                return error_set(err, errno, "cannot write '%s'", op->dst);
        tree = (int)syscall(SYS_open_tree, mnt, "file", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
        if (tree < 0 && errno == EINVAL)
                tree = clone_attached(c, mnt, dir, parent[0] ? parent : "/");
        if (tree < 0)
                return error_set(err, errno, "cannot open the file for '%s'", op->dst);
        long m = syscall(SYS_move_mount, tree, "", target, "",
                         MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
        int e = errno;
        trace_line(&c->trace, "  move_mount(tmpfs file, \"%s\") = %ld  (%zu bytes)", op->dst, m,
                   len);
        if (m < 0)
                return error_set(err, e, "cannot mount the generated file on '%s'", op->dst);
        char self[64];
        snprintf(self, sizeof self, "/proc/self/fd/%d", tree);
        return sys_mount(&c->trace, NULL, self, op->dst, NULL,
                         MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL,
                         err);
}

static int apply(struct child *c, struct fresh *f, int rootfd, const struct mount_op *op, int srcfd,
                 struct error *err)
{
        const struct plan *p = c->plan;
        bool dir = op->kind != MOP_DEV_NODE && (op->kind != MOP_BIND || op->src_is_dir);
        char target[64];
        _cleanup_close_ int fd = -1;

        if (op->kind == MOP_FILE)
                return file_mount(c, rootfd, op, err);
        if (op->kind == MOP_CGROUP)
                return cgroup_mount(c, f, rootfd, op, err);
        if (op->kind == MOP_DEVICE)
                return device_node(c, f, rootfd, op, err);
        if (op->kind == MOP_SYMLINK || (op->kind == MOP_DEV_NODE && !p->userns && p->privileged)) {
                /* these create a new name: open the parent directory */
                char parent[PATH_MAX];
                snprintf(parent, sizeof parent, "%s", op->dst);
                char *slash = strrchr(parent, '/');
                *slash = '\0';
                const char *name = strrchr(op->dst, '/') + 1;
                int i = fresh_find(f, parent, strlen(parent));
                if (op->kind == MOP_SYMLINK && i >= 0) /* in a fresh tmpfs: made from its root */
                        return sys_symlinkat(&c->trace, op->src, f->fd[i], name, op->dst, err);
                fd = mountpoint(c, f, rootfd, parent[0] ? parent : "/", true, err);
                if (fd < 0)
                        return -1;
                if (op->kind == MOP_SYMLINK)
                        return sys_symlinkat(&c->trace, op->src, fd, name, op->dst, err);
                unlinkat(fd, name, 0);
                if (sys_mknodat(&c->trace, fd, name, op->dst, S_IFCHR | 0666, op->dev, err) < 0)
                        return -1;
                if (fchmodat(fd, name, 0666, 0) < 0)
                        return error_set(err, errno, "cannot chmod '%s'", op->dst);
                return own_node(c, rootfd, op, err);
        }
        /* a host node the plan took without looking (in a user namespace: plan.c), checked
         * here, where it is opened anyway: a host without a character device by that name has
         * a container without it */
        _cleanup_close_ int node = -1;
        if (op->kind == MOP_DEV_NODE) {
                struct stat st;
                if (srcfd < 0) {
                        node = open(op->src, O_PATH | O_CLOEXEC);
                        int e = errno;
                        trace_line(&c->trace, "  open(\"%s\", O_PATH) = %d", op->src, node);
                        if (node < 0 && e != ENOENT)
                                return error_set(err, e, "cannot open bind source '%s'", op->src);
                }
                int from = srcfd >= 0 ? srcfd : node;
                if (from >= 0 && fstat(from, &st) < 0)
                        return error_set(err, errno, "cannot stat bind source '%s'", op->src);
                if (from < 0 || !S_ISCHR(st.st_mode)) {
                        trace_line(&c->trace, "  no character device '%s' on the host: none here",
                                   op->src);
                        return 0;
                }
        }
        fd = mountpoint(c, f, rootfd, op->dst, dir, err);
        if (fd < 0)
                return -1;
        snprintf(target, sizeof target, "/proc/self/fd/%d", fd);

        switch (op->kind) {
        case MOP_BIND:
        case MOP_DEV_NODE: {
                /* bound from a descriptor, so the nodev decision is about what is bound: a
                 * directory is always nodev, even if its name held a device file at planning */
                struct stat st;
                char src[64];
                if (srcfd >= 0) {
                        /* root: the copy of the source's tree the parent opened (step.h) */
                        if (fstat(srcfd, &st) < 0)
                                return error_set(err, errno, "cannot stat bind source '%s'",
                                                 op->src);
                        if (bind_pinned(op, &st, err) < 0)
                                return -1;
                        unsigned long flags = op->flags | (S_ISDIR(st.st_mode) ? MS_NODEV : 0);
                        long m = syscall(SYS_move_mount, srcfd, "", fd, "",
                                         MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
                        int e = errno;
                        trace_line(&c->trace, "  move_mount(copy of \"%s\", \"%s\") = %ld", op->src,
                                   op->dst, m);
                        if (m < 0)
                                return error_set(err, e, "cannot bind '%s' on '%s'", op->src,
                                                 op->dst);
                        if (flags & ATTR_FLAGS)
                                return mounts_restrict(c, rootfd, op->dst, flags, flags & MS_REC,
                                                       err);
                        return 0;
                }
                _cleanup_close_ int sfd = take_fd(&node);
                if (sfd < 0) {
                        sfd = open(op->src, O_PATH | O_CLOEXEC);
                        trace_line(&c->trace, "  open(\"%s\", O_PATH) = %d", op->src, sfd);
                }
                if (sfd < 0 || fstat(sfd, &st) < 0)
                        return error_set(err, errno, "cannot open bind source '%s'", op->src);
                if (bind_pinned(op, &st, err) < 0)
                        return -1;
                unsigned long flags = op->flags | (S_ISDIR(st.st_mode) ? MS_NODEV : 0);
                snprintf(src, sizeof src, "/proc/self/fd/%d", sfd);
                if (sys_mount(&c->trace, src, target, op->dst, NULL, MS_BIND | (flags & MS_REC),
                              NULL, err) < 0)
                        return error_set(err, err->errnum, "cannot bind '%s' on '%s'", op->src,
                                         op->dst);
                if (flags & ATTR_FLAGS)
                        return mounts_restrict(c, rootfd, op->dst, flags, flags & MS_REC, err);
                return 0;
        }
        case MOP_TMPFS:
                if (sys_mount(&c->trace, "tmpfs", target, op->dst, "tmpfs", op->flags, op->data,
                              err) < 0)
                        return -1;
                fresh_add(f, rootfd, op->dst);
                return 0;
        case MOP_PROC:
                if (sys_mount(&c->trace, "proc", target, op->dst, "proc", op->flags, NULL, err) <
                    0) {
                        char change[128];
                        if (err->errnum == EPERM && p->userns)
                                error_hint(err,
                                           "the kernel refuses a new /proc in a user namespace "
                                           "when the host's /proc has parts hidden by other "
                                           "mounts (as inside another container); %s to bind the "
                                           "host's /proc instead",
                                           phrase_change(p->front, SPEC_KEY_NAMESPACES_PID,
                                                         PHRASE_OFF, change, sizeof change));
                        return -1;
                }
                return 0;
        case MOP_SYSFS:
                if (sys_mount(&c->trace, "sysfs", target, op->dst, "sysfs", op->flags, NULL, err) ==
                    0)
                        return 0;
                if (err->errnum != EPERM)
                        return -1;
                /* a sysfs of our own is refused: show the host's, read-only */
                trace_line(&c->trace, "  (sysfs refused: binding the host's /sys read-only)");
                if (sys_mount(&c->trace, "/sys", target, op->dst, NULL, MS_BIND | MS_REC, NULL,
                              err) < 0)
                        return -1;
                return mounts_restrict(c, rootfd, op->dst, op->flags, true, err);
        case MOP_DEVPTS:
                return sys_mount(&c->trace, "devpts", target, op->dst, "devpts", op->flags,
                                 op->data, err);
        case MOP_MQUEUE:
                return sys_mount(&c->trace, "mqueue", target, op->dst, "mqueue", op->flags, NULL,
                                 err);
        case MOP_SYMLINK:
        case MOP_FILE:
        case MOP_CGROUP:
        case MOP_DEVICE:
                break;
        }
        return 0;
}

/* Child: after the rootfs bind, before pivot_root; host paths are still reachable. Every
 * mountpoint is resolved from the bind's root (c->rootfd), never from the rootfs's name. */
int step_mounts(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        struct fresh f;
        int r = 0;
        for (int i = 0; i < FRESH_MAX; i++)
                f.fd[i] = -1;
        for (size_t i = 0; i < p->nmounts && r == 0; i++) {
                const struct mount_op *op = &p->mounts[i];
                fresh_forget(&f, op->dst);
                r = apply(c, &f, c->rootfd, op, c->fds->src[i], err);
                if (r < 0 && op->line)
                        error_wrap(err, "%s:%u", p->spec_path, op->line);
        }
        for (int i = 0; i < FRESH_MAX; i++)
                if (f.fd[i] >= 0)
                        close(f.fd[i]);
        /* the copies of the bind sources are mounted (or the setup stops): their descriptors
         * go now, before any path of the container is resolved outside this table (fds.c) */
        for (size_t i = 0; i < p->nmounts; i++)
                if (c->fds->src[i] >= 0)
                        close(c->fds->src[i]);
        return r;
}
