/* cgroupmount.c - the container's own cgroup at /sys/fs/cgroup (MOP_CGROUP), and nothing more
 * of the host's tree.
 *
 * Kernel features: cgroup2 mounted in a cgroup namespace (cgroup_namespaces(7)), whose root is
 * the namespace's; a bind of one cgroup directory; tmpfs; fstatfs(2) (CGROUP2_SUPER_MAGIC) to
 * check a directory is a cgroup2 one before it is bound.
 */
#define _GNU_SOURCE
#include "mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/procfile.h"
#include "base/sys.h"
#include "cgroup/cgroup.h"

/* The container's own cgroup (MOP_CGROUP) on /sys/fs/cgroup, as runc and crun make it, and
 * never more of the host's tree than that:
 *
 *   - a cgroup namespace of its own: a new cgroup2 mount, whose root is the namespace's, the
 *     container's cgroup (clone3(2) put the setup process there with CLONE_INTO_CGROUP, the
 *     namespace rooted there: cgroup_namespaces(7));
 *   - none (containerd's default, podman --cgroupns=host), or the kernel refuses the mount
 *     (EPERM: a cgroup namespace another user namespace owns): a bind of the container's cgroup
 *     directory, found from /proc/self/cgroup and this mount namespace's cgroup2 mount;
 *   - the container has no cgroup of its own (no limits, no cgroupsPath, or the kernel cannot
 *     place it): its namespace's root would be crib's caller's cgroup, with the host's
 *     processes in it, so an empty read-only tmpfs instead. That tmpfs also covers what a bind
 *     of the host's /sys (network = host) brings along: the host's whole tree.
 *
 * A host whose controllers are on cgroup v1 (a hybrid host: systemd's cgroup2 is in unified/)
 * gets a read-only tmpfs on /sys/fs/cgroup and the container's cgroup v2 in its unified/, as
 * systemd lays a hybrid host out. crib makes no v1 cgroups, so the container's v1 cgroups are
 * its caller's, and none is shown. Always nosuid, nodev and noexec; the cgroup read-only unless
 * the spec says rw. */
#define CGROUP_TMPFS "mode=755,size=16k,nr_inodes=8"

/* `path` is `dir` or below it; *ret_rest is what follows dir ("" or "/...") */
static bool cgroup_below(const char *path, const char *dir, const char **ret_rest)
{
        size_t n = strcmp(dir, "/") ? strlen(dir) : 0;
        if (strncmp(path, dir, n) || (path[n] != '/' && path[n] != '\0'))
                return false;
        *ret_rest = path + n;
        return true;
}

/* The container's cgroup directory as this mount namespace reaches it, into src: `own` (its
 * path in the hierarchy, from /proc/self/cgroup) below the root of a cgroup2 mount, the host's,
 * not a copy under the rootfs (a bind of the host's /sys brought one along, whose path leads
 * nowhere now: `rootfs`, as the rootfs bind's descriptor names it). */
static bool cgroup_dir(const char *own, const char *rootfs, char *src, size_t len)
{
        char line[2048];
        bool whole = true; /* the line read starts a line of the file */
        _cleanup_fclose_ FILE *f = fopen("/proc/self/mountinfo", "re");
        while (f && fgets(line, sizeof line, f)) {
                char root[1024], mnt[1024], fstype[64];
                unsigned long id;
                const char *dash = strstr(line, " - "), *rest;
                bool start = whole;
                whole = strchr(line, '\n') != NULL;
                /* a line longer than the buffer is skipped whole, never read in pieces; a name
                 * with an escape (\040 for a space) is no cgroup2 mount of the host's */
                if (!start || !whole || !dash || sscanf(dash + 3, "%63s", fstype) != 1 ||
                    strcmp(fstype, "cgroup2") ||
                    sscanf(line, "%lu %*s %*s %1023s %1023s", &id, root, mnt) != 3 ||
                    strchr(line, '\\') || !procfile_mount_seen(id, mnt) ||
                    cgroup_below(mnt, rootfs, &rest) || !cgroup_below(own, root, &rest))
                        continue;
                return (size_t)snprintf(src, len, "%s%s", mnt, rest) < len;
        }
        return false;
}

/* A bind of the container's cgroup directory on `fd` (`shown`), with op's flags. 1 when it
 * cannot be found (the caller shows none), 0 when bound, -1 on error. */
static int cgroup_bind_own(struct child *c, int rootfd, int fd, const char *shown,
                           const struct mount_op *op, struct error *err)
{
        char own[1024], rootfs[PATH_MAX], src[PATH_MAX], self[64], target[64];
        struct statfs sf;
        snprintf(self, sizeof self, "/proc/self/fd/%d", rootfd);
        ssize_t n = readlink(self, rootfs, sizeof rootfs - 1);
        if (n <= 0 || (size_t)n >= sizeof rootfs - 1)
                return error_set(err, n < 0 ? errno : ENAMETOOLONG, "cannot read the rootfs' path");
        rootfs[n] = '\0';
        if (cgroup_v2_path(open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC), own, sizeof own) < 0 ||
            !cgroup_dir(own, rootfs, src, sizeof src)) {
                /* in a namespace rooted below the mount's root, that root shows as /.. */
                trace_line(&c->trace,
                           "  the container's cgroup is not below this mount namespace's cgroup2 "
                           "mount: none shown");
                return 1;
        }
        _cleanup_close_ int sfd = open(src, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        trace_line(&c->trace, "  open(\"%s\", O_PATH) = %d", src, sfd);
        /* the directory a cgroup2 mount shows, nothing else of the host */
        if (sfd < 0 || fstatfs(sfd, &sf) < 0 || sf.f_type != CGROUP2_SUPER_MAGIC)
                return error_set(err, sfd < 0 ? errno : ENOTDIR,
                                 "cannot open the container's cgroup '%s'", src);
        snprintf(self, sizeof self, "/proc/self/fd/%d", sfd);
        snprintf(target, sizeof target, "/proc/self/fd/%d", fd);
        if (sys_mount(&c->trace, self, target, shown, NULL, MS_BIND, NULL, err) < 0)
                return error_wrap(err, "cannot bind the container's cgroup '%s'", src);
        return mounts_restrict(c, rootfd, shown, op->flags, false, err);
}

/* The container's cgroup v2 on `fd` (`shown`): a new cgroup2 in its own cgroup namespace, or
 * a bind of its directory. 1 when there is none to show. */
static int cgroup_v2(struct child *c, int rootfd, int fd, const char *shown,
                     const struct mount_op *op, struct error *err)
{
        char target[64];
        snprintf(target, sizeof target, "/proc/self/fd/%d", fd);
        if (!(c->plan->clone_flags & CLONE_NEWCGROUP)) {
                trace_line(&c->trace,
                           "  no cgroup namespace: a bind of the container's own cgroup, not the "
                           "hierarchy's root");
                return cgroup_bind_own(c, rootfd, fd, shown, op, err);
        }
        trace_line(&c->trace, "  a cgroup2 of the container's cgroup namespace, rooted at its "
                              "own cgroup");
        if (sys_mount(&c->trace, "cgroup2", target, shown, "cgroup2", op->flags, NULL, err) == 0)
                return 0;
        if (err->errnum != EPERM)
                return -1;
        error_clear(err);
        trace_line(&c->trace, "  (cgroup2 refused: a bind of the container's own cgroup)");
        return cgroup_bind_own(c, rootfd, fd, shown, op, err);
}

int cgroup_mount(struct child *c, struct fresh *f, int rootfd, const struct mount_op *op,
                 struct error *err)
{
        const struct plan *p = c->plan;
        unsigned long hard = MS_NOSUID | MS_NODEV | MS_NOEXEC;
        char target[64], unified[PATH_MAX];
        _cleanup_close_ int fd = mountpoint(c, f, rootfd, op->dst, true, err);
        if (fd < 0)
                return -1;
        snprintf(target, sizeof target, "/proc/self/fd/%d", fd);
        if (!p->cgroup) {
                trace_line(&c->trace,
                           "  the container has no cgroup of its own (no limits, no cgroupsPath "
                           "crib could use): an empty read-only tmpfs on %s, no cgroup of the "
                           "host's",
                           op->dst);
                return sys_mount(&c->trace, "tmpfs", target, op->dst, "tmpfs", MS_RDONLY | hard,
                                 CGROUP_TMPFS, err);
        }
        if (!op->cgroup_v1) {
                struct statfs sf;
                if (fstatfs(fd, &sf) == 0 && sf.f_type == CGROUP2_SUPER_MAGIC) {
                        /* a bind of the host's /sys brought the host's cgroup2 here, and the
                         * kernel refuses a new mount of a filesystem on its own root (EBUSY) */
                        trace_line(&c->trace,
                                   "  the host's cgroup2 is on %s (the bind of its "
                                   "/sys): an empty read-only tmpfs over it first",
                                   op->dst);
                        if (sys_mount(&c->trace, "tmpfs", target, op->dst, "tmpfs",
                                      MS_RDONLY | hard, CGROUP_TMPFS, err) < 0)
                                return -1;
                        close(fd);
                        fd = resolve(rootfd, op->dst + 1);
                        if (fd < 0)
                                return error_set(err, errno, "cannot open '%s' in the rootfs",
                                                 op->dst);
                        snprintf(target, sizeof target, "/proc/self/fd/%d", fd);
                }
                int r = cgroup_v2(c, rootfd, fd, op->dst, op, err);
                if (r <= 0)
                        return r;
                return sys_mount(&c->trace, "tmpfs", target, op->dst, "tmpfs", MS_RDONLY | hard,
                                 CGROUP_TMPFS, err);
        }
        trace_line(&c->trace,
                   "  the host's controllers are on cgroup v1, where crib makes no cgroups: a "
                   "read-only tmpfs on %s, the container's cgroup v2 in unified/",
                   op->dst);
        if (sys_mount(&c->trace, "tmpfs", target, op->dst, "tmpfs", hard, CGROUP_TMPFS, err) < 0)
                return -1;
        snprintf(unified, sizeof unified, "%s/unified", op->dst);
        _cleanup_close_ int top = resolve(rootfd, op->dst + 1);
        if (top < 0)
                return error_set(err, errno, "cannot open '%s' in the rootfs", op->dst);
        _cleanup_close_ int u = make_in(c, top, "unified", unified, true, true, err);
        if (u < 0)
                return u == -2 ? error_set(err, EEXIST, "'%s' exists already", unified) : -1;
        if (cgroup_v2(c, rootfd, u, unified, op, err) < 0)
                return -1;
        return mounts_restrict(c, rootfd, op->dst, MS_RDONLY | hard, false, err);
}
