/* cgroup.c - a container's cgroup; see cgroup.h.
 *
 * Kernel features: the cgroup v2 filesystem (Linux 4.5; cpu in it 4.15), its files
 * cgroup.controllers and cgroup.subtree_control (which controllers a cgroup's children get:
 * "no internal processes", so only a cgroup without processes of its own, or the root, may
 * enable one), memory.max, memory.high, memory.swap.max, memory.events, cpu.max, cpu.weight,
 * pids.max, io.weight; cgroup.kill (Linux 5.14) to end every process of a cgroup at once;
 * clone3(2) with CLONE_INTO_CGROUP (Linux 5.7), which container.c uses; cgroup.freeze and the
 * frozen line of cgroup.events (Linux 5.2), the v2 freezer, for the OCI front end's pause and
 * resume. What the host offers (the mount, crib's own cgroup, /proc/cgroups, delegation) is
 * read once by host/cgroupfacts.c.
 */
#define _GNU_SOURCE
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "sys.h"

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

void cgroup_format_bytes(int64_t v, char *buf, size_t len)
{
        static const char units[] = "KMGT";
        if (v == CGROUP_MAX) {
                snprintf(buf, len, "max");
                return;
        }
        int u = -1;
        while (u < 3 && v >= 1024 && v % 1024 == 0) {
                v /= 1024;
                u++;
        }
        if (u < 0)
                snprintf(buf, len, "%" PRId64, v);
        else
                snprintf(buf, len, "%" PRId64 "%c", v, units[u]);
}

static void value(int64_t v, char *buf, size_t len)
{
        if (v == CGROUP_MAX)
                snprintf(buf, len, "max");
        else
                snprintf(buf, len, "%" PRId64, v);
}

int cgroup_write_limits(const char *dir, const struct cgroup_limits *l, struct trace *t,
                        struct error *err)
{
        char v[64];
        const struct {
                const char *file;
                int64_t v;
        } sizes[] = {
                {"memory.max", l->memory_max},
                {"memory.high", l->memory_high},
                {"memory.swap.max", l->memory_swap},
                {"pids.max", l->pids_max},
        };
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                if (sizes[i].v == CGROUP_UNSET)
                        continue;
                value(sizes[i].v, v, sizeof v);
                if (cgroup_write_file(dir, sizes[i].file, v, t, err) < 0)
                        return -1;
        }
        if (l->cpu_quota) { /* period 0 (an update without one): the cgroup's stays */
                int n = l->cpu_quota == CGROUP_CPU_MAX ? snprintf(v, sizeof v, "max")
                                                       : snprintf(v, sizeof v, "%u", l->cpu_quota);
                if (l->cpu_period)
                        snprintf(v + n, sizeof v - (size_t)n, " %u", l->cpu_period);
                if (cgroup_write_file(dir, "cpu.max", v, t, err) < 0)
                        return -1;
        }
        if (l->cpu_weight) {
                snprintf(v, sizeof v, "%u", l->cpu_weight);
                if (cgroup_write_file(dir, "cpu.weight", v, t, err) < 0)
                        return -1;
        }
        if (l->io_weight) {
                snprintf(v, sizeof v, "default %u", l->io_weight);
                if (cgroup_write_file(dir, "io.weight", v, t, err) < 0)
                        return -1;
        }
        return 0;
}

/* The cgroups below a container's are its workload's to make (with SYS_ADMIN in its namespaces),
 * so they are walked by descriptor (names of any length) and no deeper than cgroup_make lets
 * them go (cgroup.max.depth). */
#define TREE_DEPTH (CGROUP_NEST_DEPTH + 2)

/* SIGKILL each process of dirfd's cgroup */
static void kill_procs(int dirfd)
{
        char buf[4096];
        _cleanup_close_ int pfd = openat(dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
        ssize_t n = pfd < 0 ? -1 : read(pfd, buf, sizeof buf - 1);
        if (n <= 0)
                return;
        buf[n] = '\0';
        char *save = NULL;
        for (char *s = strtok_r(buf, "\n", &save); s; s = strtok_r(NULL, "\n", &save))
                kill((pid_t)atoi(s), SIGKILL);
}

/* Each cgroup below dirfd, deepest first: with kill, SIGKILL its processes (before
 * cgroup.kill); else rmdir it. true when every one below is gone. */
static bool walk_below(int dirfd, int depth, bool kill)
{
        if (kill)
                kill_procs(dirfd);
        int fd = depth < TREE_DEPTH ? dup(dirfd) : -1;
        _cleanup_closedir_ DIR *d = fd < 0 ? NULL : fdopendir(fd);
        if (!d) {
                if (fd >= 0)
                        close(fd);
                return false;
        }
        bool all = true;
        struct dirent *e;
        while ((e = readdir(d))) {
                if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                        continue;
                _cleanup_close_ int sub =
                        openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                bool gone = sub >= 0 && walk_below(sub, depth + 1, kill);
                if (!kill &&
                    (!gone || (unlinkat(dirfd, e->d_name, AT_REMOVEDIR) < 0 && errno != ENOENT)))
                        all = false;
        }
        return all;
}

/* rmdir a cgroup and every cgroup below it; a cgroup with processes (EBUSY) and its ancestors
 * stay. true when path is gone. */
bool cgroup_rmdir_tree(const char *path)
{
        _cleanup_close_ int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return errno == ENOENT;
        walk_below(fd, 0, false);
        return rmdir(path) == 0 || errno == ENOENT;
}

static void kill_tree(const char *path)
{
        _cleanup_close_ int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0)
                walk_below(fd, 0, true);
}

/* cgroup.events says a process is in it or below it */
bool cgroup_populated(const char *path)
{
        char file[1200], line[64];
        snprintf(file, sizeof file, "%s/cgroup.events", path);
        _cleanup_fclose_ FILE *f = fopen(file, "re");
        while (f && fgets(line, sizeof line, f))
                if (!strncmp(line, "populated ", 10))
                        return line[10] == '1';
        return false;
}

void cgroup_remove_empty(const char *path)
{
        if (path[0])
                cgroup_rmdir_tree(path);
}

/* The cgroups of unnamed containers whose crib was killed (SIGKILL leaves no time to remove
 * them): run-PID with PID gone; empty, or rmdir fails and leaves it. */
void cgroup_remove_stale(const char *base, const char *prefix)
{
        _cleanup_closedir_ DIR *d = opendir(base);
        struct dirent *e;
        size_t n = strlen(prefix);
        while (d && (e = readdir(d))) {
                char path[1200];
                if (strncmp(e->d_name, prefix, n))
                        continue;
                long pid = strtol(e->d_name + n, NULL, 10);
                if (pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
                        continue;
                snprintf(path, sizeof path, "%s/%s", base, e->d_name);
                cgroup_rmdir_tree(path);
        }
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

/* The cgroup a container's controllers are enabled from, down to its leaf: for an engine's
 * path the plan's top (cgroup_make_at's); for crib's own names the hierarchy's root as root
 * (cgroup_make enables it for crib's base) and the delegated base as a user. -1 when leaf is
 * not that deep. */
static int top_of(const char *leaf, const char *top, char *buf, size_t len)
{
        snprintf(buf, len, "%s", top && top[0] ? top : leaf);
        for (int up = top && top[0] ? 0 : geteuid() == 0 ? 2 : 1; up > 0; up--) {
                char *slash = strrchr(buf, '/');
                if (!slash || slash == buf)
                        return -1;
                *slash = '\0';
        }
        return 0;
}

unsigned cgroup_available_to(const char *leaf, const char *top)
{
        char dir[1024];
        return top_of(leaf, top, dir, sizeof dir) < 0 ? 0 : cgroup_controllers(dir);
}

/* Every file cgroup_write_limits would write for `l` is in dir, or an error naming the first that
 * is not (memory.swap.max without swap accounting, for one) */
static int limit_files_exist(const char *dir, const struct cgroup_limits *l, struct error *err)
{
        const struct {
                bool set;
                const char *file;
        } files[] = {
                {l->memory_max != CGROUP_UNSET, "memory.max"},
                {l->memory_high != CGROUP_UNSET, "memory.high"},
                {l->memory_swap != CGROUP_UNSET, "memory.swap.max"},
                {l->pids_max != CGROUP_UNSET, "pids.max"},
                {l->cpu_quota != 0, "cpu.max"},
                {l->cpu_weight != 0, "cpu.weight"},
                {l->io_weight != 0, "io.weight"},
        };
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
                char path[1300];
                snprintf(path, sizeof path, "%s/%s", dir, files[i].file);
                if (files[i].set && access(path, W_OK) < 0)
                        return error_set(err, errno, "cannot write '%s'", path);
        }
        return 0;
}

int cgroup_update(const char *leaf, const char *top, const struct cgroup_limits *l, struct trace *t,
                  struct error *err)
{
        /* the controllers, as the container's cgroup was made: from its top down to the leaf,
         * whose only child holds the processes */
        char from[1024], inner[1200];
        if (top_of(leaf, top, from, sizeof from) < 0)
                return error_set(err, EINVAL, "'%s' is not a container's cgroup", leaf);
        snprintf(inner, sizeof inner, "%s/container", leaf);
        unsigned have = cgroup_controllers(from);
        for (int c = 0; c < CGROUP_NCTRL; c++)
                if ((l->need & CGROUP_BIT(c)) && !(have & CGROUP_BIT(c)))
                        return error_set(err, 0, "the %s controller is not available to '%s'",
                                         cgroup_ctrl_name(c), leaf);
        if (cgroup_walk_down(from, leaf, l->need, false, t, err) < 0 ||
            cgroup_enable(leaf, l->need, t, err) < 0)
                return -1;
        /* every file there before any is written: a failure changes no limit */
        if (limit_files_exist(leaf, l, err) < 0 || limit_files_exist(inner, l, err) < 0)
                return -1;
        if (cgroup_write_limits(leaf, l, t, err) < 0)
                return -1;
        /* the copy the container reads; the leaf's hold */
        return cgroup_write_limits(inner, l, t, err);
}

void cgroup_remove(const char *path)
{
        char file[1100];
        if (!path[0])
                return;
        snprintf(file, sizeof file, "%s/cgroup.kill", path);
        _cleanup_close_ int kfd = open(file, O_WRONLY | O_CLOEXEC);
        bool killed = kfd >= 0 && write(kfd, "1", 1) == 1;
        /* rmdir fails with EBUSY until the last process is gone: up to a second */
        for (int i = 0; i < 100; i++) {
                if (!killed) /* before Linux 5.14: each process, and again for late forks */
                        kill_tree(path);
                if (cgroup_rmdir_tree(path) || errno != EBUSY)
                        return;
                nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
        }
}

bool cgroup_oom_killed(const char *path)
{
        char file[1100], line[128];
        snprintf(file, sizeof file, "%s/memory.events", path);
        _cleanup_fclose_ FILE *f = fopen(file, "re");
        long long n;
        while (f && fgets(line, sizeof line, f))
                if (sscanf(line, "oom_kill %lld", &n) == 1)
                        return n > 0;
        return false;
}

bool cgroup_frozen(const char *path)
{
        char file[1100], line[128];
        snprintf(file, sizeof file, "%s/cgroup.events", path);
        _cleanup_fclose_ FILE *f = fopen(file, "re");
        int n;
        while (f && fgets(line, sizeof line, f))
                if (sscanf(line, "frozen %d", &n) == 1)
                        return n == 1;
        return false;
}

int cgroup_freeze(const char *path, bool freeze, struct error *err)
{
        char file[1100];
        snprintf(file, sizeof file, "%s/cgroup.freeze", path);
        _cleanup_close_ int fd = open(file, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) {
                error_set(err, errno, "cannot open '%s'", file);
                return error_hint(err, errno == ENOENT ? "the cgroup v2 freezer needs Linux 5.2"
                                                       : "the container's cgroup is not yours");
        }
        if (write(fd, freeze ? "1" : "0", 1) != 1)
                return error_set(err, errno, "cannot write '%s'", file);
        /* the kernel freezes each task at its next return to user space: wait, bounded */
        for (int i = 0; i < 200; i++) {
                if (cgroup_frozen(path) == freeze)
                        return 0;
                usleep(10000);
        }
        /* a task stuck in the kernel (a dead NFS server): not left half frozen */
        if (freeze && write(fd, "0", 1) < 0)
                return error_set(err, errno, "'%s' did not freeze within 2 s, and cannot be thawed",
                                 path);
        error_set(err, 0, "'%s' did not %s within 2 s", path, freeze ? "freeze" : "thaw");
        return error_hint(err, "a process of it may be stuck in the kernel (ps -o stat,wchan)");
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

static int64_t read_number(const char *dir, const char *file, const char *key)
{
        char path[1200], line[256];
        snprintf(path, sizeof path, "%s/%s", dir, file);
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        size_t kl = key ? strlen(key) : 0;
        while (f && fgets(line, sizeof line, f)) {
                if (key && (strncmp(line, key, kl) || line[kl] != ' '))
                        continue;
                return strtoll(line + (key ? kl + 1 : 0), NULL, 10);
        }
        return -1;
}

void cgroup_usage_read(const char *path, struct cgroup_usage *u)
{
        u->memory = read_number(path, "memory.current", NULL);
        u->cpu_usec = read_number(path, "cpu.stat", "usage_usec");
        u->pids = read_number(path, "pids.current", NULL);
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
                                .exit_signal = SIGCHLD,
                                .cgroup = (uint64_t)cgroup_fd};
        return (pid_t)syscall(SYS_clone3, &a, sizeof a);
}
