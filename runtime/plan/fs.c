/* fs.c - the container's filesystem as the setup will make it (steps/mounts.c, pivot_root(2)):
 * the rootfs, opened and checked once; crib's own mounts (/proc, /dev, /sys and, when asked,
 * /sys/fs/cgroup: a table, each row with the condition it is made under); then the spec's [mounts],
 * as mount operations the child applies in order with one switch. Reads only: stat(2) and
 * open(O_PATH) of the host's paths. Who else on the host can reach the rootfs and the bind sources
 * is setuid.c's. */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"

/* `path` as written in the spec: relative paths are relative to the spec file's directory. */
char *plan_spec_relative(const struct spec *s, const char *path)
{
        char *out;
        if (path[0] == '/')
                return strdup(path);
        _cleanup_free_ char *copy = strdup(s->path);
        if (!copy)
                return NULL;
        const char *dir = dirname(copy);
        if (!strcmp(dir, ".")) /* a spec in the working directory: the path as written */
                return strdup(path);
        while (path[0] == '.' && path[1] == '/')
                path += 2;
        if (asprintf(&out, "%s/%s", dir, path) < 0)
                return NULL;
        return out;
}

/* The same, absolute: a bind source is opened by crib's monitor too, which works from /. */
static char *spec_absolute(const struct spec *s, const char *path)
{
        char *rel = plan_spec_relative(s, path), *out, cwd[PATH_MAX];
        if (!rel || rel[0] == '/')
                return rel;
        if (!getcwd(cwd, sizeof cwd) || asprintf(&out, "%s/%s", cwd, rel) < 0)
                out = NULL;
        free(rel);
        return out;
}

int plan_add_op(struct plan *p, struct mount_op op, struct error *err)
{
        if (p->nmounts == PLAN_MAX_MOUNTS)
                return error_set(err, E2BIG, "too many mounts");
        p->mounts[p->nmounts++] = op;
        return 0;
}

/* A directory of the overlay (`dir`/`name`), checked to be one; a path overlayfs's options can
 * hold (its separators ',' and ':', and '\\', which escapes them, are refused) */
static int overlay_path(const struct planning *pl, const char *name, char **ret, struct error *err)
{
        const struct spec *s = pl->s;
        struct stat st;
        if (asprintf(ret, "%s/%s", s->image_dir, name) < 0)
                return *ret = NULL, error_set(err, ENOMEM, "cannot allocate");
        if (strpbrk(*ret, ",:\\")) {
                error_set(err, EINVAL,
                          "the image store's path '%s' has a ',', ':' or '\\', which "
                          "overlayfs's options cannot hold",
                          s->image_dir);
                return error_hint(err, "keep the store in a directory whose path has none of "
                                       "them: CRIB_STORE=DIR, or XDG_DATA_HOME for "
                                       "$XDG_DATA_HOME/crib");
        }
        if (pl->o->unmade_at) /* crib plan: crib run makes it */
                return 0;
        if (stat(*ret, &st) < 0)
                return error_set(err, errno, "cannot use the container's layer '%s'", *ret);
        if (!S_ISDIR(st.st_mode))
                return error_set(err, ENOTDIR, "the container's layer '%s' is not a directory",
                                 *ret);
        return 0;
}

/* `abs`, or its form relative to the rootfs's mountpoint merged/ ("../NAME"), where `abs` is
 * longer than fsconfig(2) takes a value (255 bytes) or `relative` says so: the setup mounts the
 * overlay from merged/, its working directory, and overlayfs resolves a relative path from
 * there */
static char *overlay_value(char *abs, const char *name, bool relative)
{
        char *rel = NULL;
        if (!abs || (!relative && strlen(abs) <= PLAN_FSCONFIG_MAX))
                return abs;
        free(abs);
        return asprintf(&rel, "../%s", name) < 0 ? NULL : rel;
}

/* A container of a store image: overlayfs's lowerdir (l/0, the topmost layer, first), upperdir
 * and workdir, each checked. fsconfig(2) takes a value of 255 bytes at most: the absolute paths
 * where they fit, else "../l/0:../l/1:..." (36 layers), else no lowerdir and the setup gives
 * the layers one by one as "lowerdir+" (Linux 6.8; imgrootfs.c copies where the kernel is
 * older). Root's container in a user namespace gets its layers as idmapped mounts at m/N
 * (steps/idlayers.c), and only the relative forms: its root is not host root, and cannot walk
 * root's 0700 store from / (EACCES). */
static int plan_overlay(struct planning *pl, struct error *err)
{
        const struct spec *s = pl->s;
        struct plan *p = pl->p;
        bool idm = s->overlay_idmapped;
        char abs[PLAN_FSCONFIG_MAX + 1] = "", rel[PLAN_FSCONFIG_MAX + 1] = "";
        size_t size = idm ? sizeof abs : 0, rsize = 0;
        if (s->overlay_layers > PLAN_MAX_LAYERS)
                return error_set(err, E2BIG, "the image has %u layers, more than %d",
                                 s->overlay_layers, PLAN_MAX_LAYERS);
        if (idm && !(p->privileged && p->userns))
                return error_set(err, EINVAL,
                                 "idmapped layers are for root's containers in a user namespace");
        for (unsigned i = 0; i < s->overlay_layers; i++) {
                char name[32];
                _cleanup_free_ char *path = NULL;
                snprintf(name, sizeof name, "%s/%u", idm ? "m" : "l", i);
                if (overlay_path(pl, name, &path, err) < 0)
                        return -1;
                if (size <= PLAN_FSCONFIG_MAX)
                        size += (size_t)snprintf(abs + size, sizeof abs - size, "%s%s",
                                                 i ? ":" : "", path);
                if (rsize <= PLAN_FSCONFIG_MAX)
                        rsize += (size_t)snprintf(rel + rsize, sizeof rel - rsize, "%s../%s",
                                                  i ? ":" : "", name);
        }
        const char *lower = size <= PLAN_FSCONFIG_MAX    ? abs
                            : rsize <= PLAN_FSCONFIG_MAX ? rel
                                                         : NULL;
        if (lower && !(p->overlay_lower = plan_keep(&pl->sc, strdup(lower))))
                return error_set(err, ENOMEM, "cannot allocate");
        p->overlay_layers = s->overlay_layers;
        p->overlay_idmapped = idm;
        p->overlay_volatile = s->overlay_volatile;
        char *upper = NULL, *work = NULL;
        int r = overlay_path(pl, "upper", &upper, err);
        upper = plan_keep(&pl->sc, overlay_value(upper, "upper", idm));
        if (r < 0 || (r = overlay_path(pl, "work", &work, err)) < 0)
                return free(work), -1;
        work = plan_keep(&pl->sc, overlay_value(work, "work", idm));
        if (!upper || !work)
                return error_set(err, ENOMEM, "cannot allocate");
        p->overlay_upper = upper;
        p->overlay_work = work;
        return 0;
}

/* The rootfs is opened once, by name, and everything is checked on that descriptor; the
 * child opens the name once more and refuses anything but this directory (step_bind_rootfs). */
int plan_rootfs(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        if (!s->rootfs)
                return error_at(err, s->path, spec_line(s, SPEC_KEY_CONTAINER_IMAGE),
                                "image '%s' is for 'crib run', which makes its rootfs", s->image);
        if (s->image_dir && !(p->image_dir = plan_keep(&pl->sc, strdup(s->image_dir))))
                return error_set(err, ENOMEM, "cannot allocate");
        if (s->overlay_layers && plan_overlay(pl, err) < 0)
                return -1;
        _cleanup_free_ char *path = plan_spec_relative(s, s->rootfs);
        unsigned line = spec_line(s, SPEC_KEY_CONTAINER_ROOTFS);
        struct stat st, root;
        char self[64], resolved[PATH_MAX];
        if (!path)
                return error_set(err, ENOMEM, "cannot allocate");
        /* crib plan of an image: the store's root stands in for the rootfs not made */
        const char *unmade = pl->o->unmade_at && s->image_dir ? pl->o->unmade_at : NULL;
        _cleanup_close_ int fd = open(unmade ? unmade : path, O_PATH | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) < 0) {
                int e = errno;
                error_at_errno(err, e, s->path, line, "rootfs '%s' %s", path,
                               e == ENOENT ? "does not exist" : "cannot be read");
                if (e == ENOENT)
                        return error_hint(err,
                                          "build a busybox rootfs there with: "
                                          "rootfs-tools/mkrootfs %s",
                                          path);
                return -1;
        }
        if (!S_ISDIR(st.st_mode))
                return error_at(err, s->path, line, "rootfs '%s' is not a directory", path);
        if (stat("/", &root) == 0 && st.st_dev == root.st_dev && st.st_ino == root.st_ino) {
                error_at(err, s->path, line, "rootfs '%s' is the host's root directory", path);
                return error_hint(err, "a container needs a root filesystem of its own; build a "
                                       "busybox one with: rootfs-tools/mkrootfs DIR");
        }
        /* The name later steps find it by (container.c opens it again, and refuses another
         * directory by its device and inode). A user's absolute path stays as written: what
         * resolving it costs (a readlink of /proc/self/fd, whose entries are new in every
         * process) buys nothing there. A relative one is resolved, as the monitor works from
         * /, and root's. Who else can reach it is asked of the descriptor, not of the name
         * (reachable_by_others walks up from it by ".."), so a symlink on the way cannot hide
         * an open directory. */
        if (unmade || (path[0] == '/' && !p->privileged)) {
                snprintf(resolved, sizeof resolved, "%s", path);
        } else {
                snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
                ssize_t n = readlink(self, resolved, sizeof resolved - 1);
                if (n <= 0 || (size_t)n >= sizeof resolved - 1 || resolved[0] != '/')
                        return error_set(err, n < 0 ? errno : ENAMETOOLONG,
                                         "cannot resolve rootfs '%s'", path);
                resolved[n] = '\0';
        }
        p->rootfs = plan_keep(&pl->sc, strdup(resolved));
        if (!p->rootfs)
                return error_set(err, ENOMEM, "cannot allocate");
        if (p->privileged && p->userns &&
            plan_root_rootfs(p, s, h, fd, unmade != NULL, &st, line, err) < 0)
                return -1;
        if (!p->privileged && p->userns &&
            plan_user_rootfs(p, s, fd, unmade != NULL, line, err) < 0)
                return -1;
        p->rootfs_dev = st.st_dev;
        p->rootfs_ino = st.st_ino;
        /* search (x) permission on the directory itself: "." is looked up in it */
        _cleanup_close_ int dot = openat(fd, ".", O_PATH | O_CLOEXEC);
        if (dot < 0) {
                error_at_errno(err, errno, s->path, line, "rootfs '%s' is not accessible to uid %u",
                               p->rootfs, (unsigned)p->host_uid);
                return error_hint(err, "every directory on the way to it needs search (x) "
                                       "permission for you");
        }
        pl->rootfs = take_fd(&fd); /* for the binds' check (plan_bind_reach) */
        return 0;
}

/* crib's own mounts, in order, each with the condition it is made under. Every mount a
 * container could make a device node in is nodev (the rootfs bind too, in mounts.c): with
 * user = no it is real root and keeps CAP_MKNOD. Only the standard nodes in /dev, devpts, and
 * device files the spec binds one by one open. */
enum default_when {
        ALWAYS,
        WITH_NS,           /* the container has namespace `ns` of its own */
        WITHOUT_NS,        /* it shares the host's */
        WITHOUT_NS_IF_DIR, /* it shares the host's, and the host has directory `src` */
        IF_HOST_CHR,       /* the host has character device `src` (checked by the child in a user
                            * namespace, which binds it; here for real root, which copies it) */
        IF_TTY_GID,        /* gid 5 (tty) is mapped (or there is no user namespace) */
        UNLESS_TTY_GID,    /* it is not: devpts without gid=5, or the mount fails */
        IF_CGROUP_ASKED,   /* the spec asks for its cgroup ([mounts] cgroup, an OCI config's
                            * cgroup mount): read-only unless it says rw */
};

#define HARD   (MS_NOSUID | MS_NODEV | MS_NOEXEC)
#define DEVPTS "newinstance,ptmxmode=0666,mode=0620"
#define DEV_NODE(name)                                                                             \
        {                                                                                          \
                IF_HOST_CHR, 0,                                                                    \
                {                                                                                  \
                        .kind = MOP_DEV_NODE, .src = "/dev/" name, .dst = "/dev/" name             \
                }                                                                                  \
        }
#define SYMLINK(target, link)                                                                      \
        {                                                                                          \
                ALWAYS, 0,                                                                         \
                {                                                                                  \
                        .kind = MOP_SYMLINK, .src = target, .dst = link                            \
                }                                                                                  \
        }

static const struct default_mount {
        enum default_when when;
        int ns; /* CLONE_NEW* for WITH_NS, WITHOUT_NS, WITHOUT_NS_IF_DIR */
        struct mount_op op;
} default_mounts[] = {
        /* proc of the container's own pid namespace, or the host's */
        {WITH_NS, CLONE_NEWPID, {.kind = MOP_PROC, .dst = "/proc", .flags = HARD}},
        {WITHOUT_NS,
         CLONE_NEWPID,
         {.kind = MOP_BIND,
          .src = "/proc",
          .dst = "/proc",
          .flags = MS_REC | MS_NODEV,
          .src_is_dir = true}},
        {ALWAYS,
         0,
         {.kind = MOP_TMPFS,
          .dst = "/dev",
          .flags = MS_NOSUID | MS_NODEV | MS_STRICTATIME,
          .data = "mode=755,size=65536k"}},
        /* a host without one of these goes without it in the container too */
        DEV_NODE("null"),
        DEV_NODE("zero"),
        DEV_NODE("full"),
        DEV_NODE("random"),
        DEV_NODE("urandom"),
        DEV_NODE("tty"),
        {IF_TTY_GID,
         0,
         {.kind = MOP_DEVPTS,
          .dst = "/dev/pts",
          .flags = MS_NOSUID | MS_NOEXEC,
          .data = DEVPTS ",gid=5"}},
        {UNLESS_TTY_GID,
         0,
         {.kind = MOP_DEVPTS, .dst = "/dev/pts", .flags = MS_NOSUID | MS_NOEXEC, .data = DEVPTS}},
        SYMLINK("pts/ptmx", "/dev/ptmx"),
        {ALWAYS,
         0,
         {.kind = MOP_TMPFS, .dst = "/dev/shm", .flags = HARD, .data = "mode=1777,size=65536k"}},
        /* the ipc namespace's message queues, or the host's where it has them */
        {WITH_NS, CLONE_NEWIPC, {.kind = MOP_MQUEUE, .dst = "/dev/mqueue", .flags = HARD}},
        {WITHOUT_NS_IF_DIR,
         CLONE_NEWIPC,
         {.kind = MOP_BIND,
          .src = "/dev/mqueue",
          .dst = "/dev/mqueue",
          .flags = MS_NODEV,
          .src_is_dir = true}},
        SYMLINK("/proc/self/fd", "/dev/fd"),
        SYMLINK("/proc/self/fd/0", "/dev/stdin"),
        SYMLINK("/proc/self/fd/1", "/dev/stdout"),
        SYMLINK("/proc/self/fd/2", "/dev/stderr"),
        /* a sysfs of our own shows our network namespace; otherwise the host's, read-only */
        {WITH_NS, CLONE_NEWNET, {.kind = MOP_SYSFS, .dst = "/sys", .flags = MS_RDONLY | HARD}},
        {WITHOUT_NS,
         CLONE_NEWNET,
         {.kind = MOP_BIND,
          .src = "/sys",
          .dst = "/sys",
          .flags = MS_REC | MS_RDONLY | HARD,
          .src_is_dir = true}},
        /* the container's own cgroup, in the /sys above; over the host's tree, which a bind of
         * the host's /sys brings along */
        {IF_CGROUP_ASKED, 0, {.kind = MOP_CGROUP, .dst = "/sys/fs/cgroup", .flags = HARD}},
};
#undef HARD
#undef DEVPTS
#undef DEV_NODE
#undef SYMLINK

/* crib's own mounts: the rows of the table above whose condition holds. */
int plan_default_mounts(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        bool tty_gid = !p->userns || idmap_outside(&p->gidmap, 5) >= 0;
        struct stat st;

        for (size_t i = 0; i < sizeof default_mounts / sizeof default_mounts[0]; i++) {
                const struct default_mount *d = &default_mounts[i];
                struct mount_op op = d->op;
                /* a joined namespace counts as the container's own unless its user
                 * namespace is new: then the joined one is owned by another, where the setup
                 * may not mount what shows it (sysfs, mqueue), and the host's is bound */
                bool has_ns = (p->clone_flags & d->ns) ||
                              ((p->join_flags & d->ns) && !(p->clone_flags & CLONE_NEWUSER));
                bool take = false;
                switch (d->when) {
                case ALWAYS:
                        take = true;
                        break;
                case WITH_NS:
                        take = has_ns;
                        break;
                case WITHOUT_NS:
                        take = !has_ns;
                        break;
                case WITHOUT_NS_IF_DIR:
                        take = !has_ns && stat(op.src, &st) == 0 && S_ISDIR(st.st_mode);
                        break;
                case IF_HOST_CHR:
                        /* an OCI config's own node at the same path replaces crib's (runc's
                         * way: devices.c) */
                        if (plan_device_given(pl->s, op.dst))
                                break;
                        /* in a user namespace the host's node is bound, and the child looks
                         * at it where it opens it (mounts.c); real root copies it: its number
                         * is needed now */
                        if (p->userns) {
                                take = true;
                                break;
                        }
                        take = stat(op.src, &st) == 0 && S_ISCHR(st.st_mode);
                        op.dev = take ? st.st_rdev : 0;
                        break;
                case IF_TTY_GID:
                        take = tty_gid;
                        break;
                case UNLESS_TTY_GID:
                        take = !tty_gid;
                        break;
                case IF_CGROUP_ASKED:
                        take = pl->s->cgroup_mount != SPEC_CGROUP_MOUNT_NO;
                        if (pl->s->cgroup_mount == SPEC_CGROUP_MOUNT_RO)
                                op.flags |= MS_RDONLY;
                        /* a host whose cgroup2 is not at /sys/fs/cgroup has its controllers on
                         * cgroup v1 (systemd's hybrid layout puts it in unified/), or none */
                        op.cgroup_v1 = !pl->h->cgroup.v2 ||
                                       strcmp(pl->h->cgroup.mount, "/sys/fs/cgroup") != 0;
                        break;
                }
                if (take && plan_add_op(p, op, err) < 0)
                        return -1;
        }
        return 0;
}

/* One mount of the spec's [mounts]: a tmpfs, or a bind of a source that exists, checked for
 * who else can reach it (plan_bind_reach). */
static int plan_spec_mount(struct plan *p, const struct spec *s, const struct spec_mount *m,
                           struct bind_reach *reach, struct scratch *sc, struct error *err)
{
        struct mount_op op = {.dst = m->dst, .line = m->line};
        struct stat st;
        if (m->opts & SPEC_MNT_RO)
                op.flags |= MS_RDONLY;
        if (m->opts & SPEC_MNT_NOSUID)
                op.flags |= MS_NOSUID;
        if (m->opts & SPEC_MNT_NODEV)
                op.flags |= MS_NODEV;
        if (m->opts & SPEC_MNT_NOEXEC)
                op.flags |= MS_NOEXEC;
        if (m->opts & SPEC_MNT_STRICTATIME)
                op.flags |= MS_STRICTATIME;
        if (m->kind == SPEC_MOUNT_TMPFS) {
                op.kind = MOP_TMPFS;
                op.flags |= MS_NODEV;
                op.data = m->data;
        } else {
                char *src = spec_absolute(s, m->src);
                if (!src)
                        return error_set(err, ENOMEM, "cannot allocate");
                if (stat(src, &st) < 0) {
                        int e = errno;
                        error_at_errno(err, e == ENOENT ? 0 : e, s->path, m->line,
                                       "bind source '%s' %s", src,
                                       e == ENOENT ? "does not exist" : "cannot be read");
                        free(src);
                        return -1;
                }
                op.kind = MOP_BIND;
                if (!(op.src = plan_keep(sc, src)))
                        return error_set(err, ENOMEM, "cannot allocate");
                if (plan_bind_reach(p, s, m, op.src, reach, err) < 0)
                        return -1;
                op.src_is_dir = S_ISDIR(st.st_mode);
                op.src_dev = st.st_dev;
                op.src_ino = st.st_ino;
                /* a directory's device nodes do not open; a device the spec binds by name
                 * (/dev/ttyUSB0) does */
                if (op.src_is_dir)
                        op.flags |= MS_NODEV;
                if (m->opts & SPEC_MNT_RECURSIVE)
                        op.flags |= MS_REC;
        }
        return plan_add_op(p, op, err);
}

/* The spec's [mounts], in order, after crib's own; one warning for the read-write binds other
 * users can reach. */
int plan_spec_mounts(struct planning *pl, struct error *err)
{
        const struct spec *s = pl->s;
        struct bind_reach reach = {.rootfs = pl->rootfs, .rootfs_reach = -1};

        for (size_t i = 0; i < s->nmounts; i++)
                if (plan_spec_mount(pl->p, s, &s->mounts[i], &reach, &pl->sc, err) < 0)
                        return -1;
        plan_bind_warn(pl->p, s, &reach);
        return 0;
}
