/* tree.c - making a container's cgroup: the cgroups above it, NAME with its limits and
 * NAME/container where its processes run; see cgroup.h for where each goes and why two levels.
 *
 * Kernel features: the cgroup v2 filesystem (Linux 4.5), its cgroup.subtree_control (which
 * controllers a cgroup's children get: "no internal processes", so only a cgroup without
 * processes of its own, or the root, may enable one), cgroup.max.depth and
 * cgroup.max.descendants; clone3(2) with CLONE_INTO_CGROUP (Linux 5.7), which container.c uses
 * to start the container in it; /proc/PID/cgroup for the cgroup a process is in. What the host
 * offers (the mount, crib's own cgroup, delegation) is read once by host/cgroupfacts.c.
 */
#define _GNU_SOURCE
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/sys.h"

int cgroup_write_file(const char *dir, const char *file, const char *value, struct trace *t,
                      struct error *err)
{
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, file);
        _cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
        int r = fd < 0 ? -1 : sys_write_all(fd, value, strlen(value));
        int e = errno;
        trace_line(t, "  write(\"%s\", \"%s\") = %d", path, value, r < 0 ? -1 : 0);
        if (r < 0)
                return error_set(err, e, "cannot write '%s' to '%s'", value, path);
        return 0;
}

/* the controllers `need` in dir's children */
int cgroup_enable(const char *dir, unsigned need, struct trace *t, struct error *err)
{
        for (int c = 0; c < CGROUP_NCTRL; c++) {
                char v[32];
                if (!(need & CGROUP_BIT(c)))
                        continue;
                snprintf(v, sizeof v, "+%s", cgroup_ctrl_name(c));
                if (cgroup_write_file(dir, "cgroup.subtree_control", v, t, err) < 0) {
                        if (err->errnum == EBUSY)
                                return error_hint(err,
                                                  "'%s' has processes of its own, and cgroup v2 "
                                                  "gives controllers only to the children of a "
                                                  "cgroup without any",
                                                  dir);
                        return -1;
                }
        }
        return 0;
}

/* dir has a cgroup below it (a directory: cgroup v2 files are not) */
static bool has_children(const char *dir)
{
        _cleanup_closedir_ DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d)))
                if (e->d_type == DT_DIR && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                        return true;
        return false;
}

/* The container's cgroup at path (its parent made, with the controllers l needs), its limits,
 * and PATH/container below it: an O_PATH descriptor of that for clone3, and path in ret_path,
 * or -1 and ret_path "". An existing one without processes is a crashed run's, removed and
 * made again; with `reuse` (an engine's path) an empty one without cgroups below it is used as
 * it is (one with them is, or was, another container's). A failure removes only what this
 * call made: never a cgroup it found. */
static int make_leaf(const char *path, const struct cgroup_limits *l, bool reuse, struct trace *t,
                     char *ret_path, size_t len, bool *ret_made, struct error *err)
{
        ret_path[0] = '\0';
        if (strlen(path) >= len)
                return error_set(err, ENAMETOOLONG, "the cgroup path '%s' is too long", path);
        int r = mkdir(path, 0755);
        bool made = r == 0;
        if (r < 0 && errno == EEXIST && reuse) {
                /* an engine's: used as it is, never emptied, and never another container's */
                if (cgroup_populated(path) || has_children(path)) {
                        error_set(err, EEXIST,
                                  "the cgroup '%s' exists, and is another "
                                  "container's (with processes, or cgroups below it)",
                                  path);
                        return error_hint(err, "another container runs there, or ran there and "
                                               "was not deleted: its cgroupsPath is this "
                                               "container's too");
                }
                r = 0;
        } else if (r < 0 && errno == EEXIST) {
                /* a crashed run's, empty (its processes died with it: their parent-death
                 * signal) and removed; one with processes is another container's, never ours
                 * to end (the same name under another state root) */
                if (!cgroup_rmdir_tree(path)) {
                        if (cgroup_populated(path)) {
                                error_set(err, EEXIST,
                                          "the cgroup '%s' exists, with processes in it", path);
                                return error_hint(err, "another container of that name runs "
                                                       "(under another --root?); choose another "
                                                       "name");
                        }
                        return error_set(err, errno, "the cgroup '%s' exists and cannot be removed",
                                         path);
                }
                r = mkdir(path, 0755);
                made = r == 0;
        }
        int e = errno;
        trace_line(t, "  mkdir(\"%s\") = %d", path, r);
        if (r < 0)
                return error_set(err, e, "cannot make the cgroup '%s'", path);
        /* the limits hold on NAME, whose files the container cannot reach; it runs in
         * NAME/container, the root of its cgroup namespace, with a copy of them to read. A
         * rootless container's cgroups are its user's, so a workload that mounts cgroup2 (with
         * SYS_ADMIN in its user namespace) may write the copy, but not NAME's. */
        char inner[1200];
        snprintf(inner, sizeof inner, "%s/container", path);
        char depth[16];
        snprintf(depth, sizeof depth, "%d", CGROUP_NEST_DEPTH);
        if (cgroup_write_limits(path, l, t, err) < 0 || cgroup_enable(path, l->need, t, err) < 0 ||
            cgroup_write_file(path, "cgroup.max.depth", depth, t, err) < 0 ||
            cgroup_write_file(path, "cgroup.max.descendants", "256", t, err) < 0)
                goto fail;
        r = mkdir(inner, 0755);
        e = errno;
        trace_line(t, "  mkdir(\"%s\") = %d", inner, r);
        if (r < 0) {
                error_set(err, e, "cannot make the cgroup '%s'", inner);
                goto fail;
        }
        if (cgroup_write_limits(inner, l, t, err) < 0)
                goto fail;
        int fd = open(inner, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
                error_set(err, errno, "cannot open the cgroup '%s'", inner);
                goto fail;
        }
        snprintf(ret_path, len, "%s", path);
        if (ret_made)
                *ret_made = made;
        return fd;
fail:
        if (made)
                cgroup_remove(path); /* new: nothing of anyone else's is in it */
        else
                rmdir(inner); /* an engine's, found empty: only what this call made */
        return -1;
}

int cgroup_make(const char *base, const char *name, const struct cgroup_limits *l, struct trace *t,
                char *ret_path, size_t len, struct error *err)
{
        bool as_root = geteuid() == 0;
        if (as_root) {
                /* the hierarchy's root may enable controllers though it has processes */
                char top[1024];
                snprintf(top, sizeof top, "%s", base);
                char *slash = strrchr(top, '/');
                if (slash)
                        *slash = '\0';
                if (cgroup_enable(top, l->need, t, err) < 0)
                        return -1;
                if (mkdir(base, 0755) < 0 && errno != EEXIST)
                        return error_set(err, errno, "cannot make the cgroup '%s'", base);
        }
        if (cgroup_enable(base, l->need, t, err) < 0)
                return -1;
        cgroup_remove_stale(base, as_root ? "run-" : "crib-run-");
        char path[1200];
        cgroup_leaf(base, name, path, sizeof path);
        return make_leaf(path, l, false, t, ret_path, len, NULL, err);
}

/* Each cgroup from top down to path's parent: made where missing (with make), given what need
 * asks for their children. Each one below top that exists must be the caller's (a root
 * container's cgroup in a user's subtree would be the user's to move its processes out of) and
 * no container's (crib's PATH/container in it: its delete would end this one too). */
int cgroup_walk_down(const char *top, const char *path, unsigned need, bool make, struct trace *t,
                     struct error *err)
{
        size_t tl = strlen(top);
        if (strncmp(path, top, tl) || path[tl] != '/' || strlen(path) >= 1100)
                return error_set(err, EINVAL, "the cgroup '%s' is not below '%s'", path, top);
        char dir[1200];
        snprintf(dir, sizeof dir, "%s", top);
        for (const char *at = path + tl;;) {
                if (cgroup_enable(dir, need, t, err) < 0)
                        return -1;
                const char *next = strchr(at + 1, '/');
                if (!next)
                        return 0;
                snprintf(dir, sizeof dir, "%.*s", (int)(next - path), path);
                struct stat st;
                char inner[1300];
                snprintf(inner, sizeof inner, "%s/container", dir);
                if (make && mkdir(dir, 0755) < 0 && errno != EEXIST)
                        return error_set(err, errno, "cannot make the cgroup '%s'", dir);
                if (stat(dir, &st) < 0)
                        return error_set(err, errno, "cannot look at the cgroup '%s'", dir);
                if (st.st_uid != geteuid())
                        return error_set(err, EPERM,
                                         "the cgroup '%s' is uid %u's: crib puts a container's "
                                         "cgroup only below cgroups of its caller's",
                                         dir, (unsigned)st.st_uid);
                if (access(inner, F_OK) == 0)
                        return error_set(err, EEXIST,
                                         "the cgroup '%s' is another container's: this one cannot "
                                         "go inside it",
                                         dir);
                at = next;
        }
}

int cgroup_make_at(const char *top, const char *path, const struct cgroup_limits *l,
                   struct trace *t, char *ret_path, size_t len, bool *ret_made, struct error *err)
{
        ret_path[0] = '\0';
        /* the hierarchy's root may give controllers though it has processes; the cgroups below
         * must have none, as an engine's pod and slice cgroups have not */
        if (cgroup_walk_down(top, path, l->need, true, t, err) < 0)
                return -1;
        struct stat st;
        if (stat(path, &st) == 0 && st.st_uid != geteuid())
                return error_set(err, EPERM,
                                 "the cgroup '%s' is uid %u's: crib uses an existing cgroup only "
                                 "when it is its caller's",
                                 path, (unsigned)st.st_uid);
        return make_leaf(path, l, true, t, ret_path, len, ret_made, err);
}

void cgroup_leaf(const char *base, const char *name, char *buf, size_t len)
{
        snprintf(buf, len, "%s/%s%s", base, geteuid() == 0 ? "" : "crib-", name);
}

int cgroup_of(int procdir, char *buf, size_t len)
{
        char mnt[512], root[512], rel_buf[4096];
        if (!cgroup_find_mount(mnt, sizeof mnt, root, sizeof root) ||
            cgroup_v2_path(openat(procdir, "cgroup", O_RDONLY | O_CLOEXEC), rel_buf,
                           sizeof rel_buf) < 0)
                return -1;
        const char *rel = rel_buf;
        size_t rl = strcmp(root, "/") ? strlen(root) : 0;
        if (rl && !strncmp(rel, root, rl) && (rel[rl] == '/' || !rel[rl]))
                rel += rl;
        if (strstr(rel, "/..") ||
            (size_t)snprintf(buf, len, "%s%s", mnt, strcmp(rel, "/") && rel[0] ? rel : "") >= len)
                return -1;
        return 0;
}

/* clone3(2)'s arguments, as linux/sched.h has them from Linux 5.7 */
struct clone3_args {
        uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid,
                set_tid_size, cgroup;
};
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#define CRIB_CLONE_INTO_CGROUP 0x200000000ULL

pid_t cgroup_clone_into(int cgroup_fd, uint64_t flags)
{
        struct clone3_args a = {.flags = flags | CRIB_CLONE_INTO_CGROUP,
                                /* with CLONE_PARENT the caller's own (clone3(2) wants 0) */
                                .exit_signal = flags & CLONE_PARENT ? 0 : SIGCHLD,
                                .cgroup = (uint64_t)cgroup_fd};
        return (pid_t)syscall(SYS_clone3, &a, sizeof a);
}
