/* cgroup.c - a container's cgroup; see cgroup.h.
 *
 * Kernel features: the cgroup v2 filesystem (Linux 4.5; cpu in it 4.15), its files
 * cgroup.controllers and cgroup.subtree_control (which controllers a cgroup's children get:
 * "no internal processes", so only a cgroup without processes of its own, or the root, may
 * enable one), memory.max, memory.high, memory.swap.max, memory.events, cpu.max, cpu.weight,
 * pids.max, io.weight; cgroup.kill (Linux 5.14) to end every process of a cgroup at once;
 * /proc/cgroups for a controller disabled at boot (cgroup_disable=, as Raspberry Pi OS does for
 * memory) or bound to a cgroup v1 hierarchy; clone3(2) with CLONE_INTO_CGROUP (Linux 5.7),
 * which container.c uses; cgroup.freeze and the frozen line of cgroup.events (Linux 5.2), the
 * v2 freezer, for the OCI front end's pause and resume.
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
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bootline.h"
#include "cleanup.h"
#include "sys.h"

static const char *const names[CGROUP_NCTRL] = {"memory", "cpu", "pids", "io"};

const char *cgroup_ctrl_name(enum cgroup_ctrl c)
{
        return names[c];
}

/* the controllers named in a cgroup.controllers file */
static unsigned read_controllers(const char *dir)
{
        char path[1100], buf[512];
        snprintf(path, sizeof path, "%s/cgroup.controllers", dir);
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
        if (n <= 0)
                return 0;
        buf[n] = '\0';
        unsigned got = 0;
        char *save = NULL;
        for (char *t = strtok_r(buf, " \n", &save); t; t = strtok_r(NULL, " \n", &save))
                for (int c = 0; c < CGROUP_NCTRL; c++)
                        if (!strcmp(t, names[c]))
                                got |= CGROUP_BIT(c);
        return got;
}

/* the cgroup2 mount point and the cgroup its root shows (field 4 of mountinfo) */
static bool find_mount(char *mnt, size_t len, char *root, size_t rlen)
{
        char line[1024];
        _cleanup_fclose_ FILE *f = fopen("/proc/self/mountinfo", "re");
        while (f && fgets(line, sizeof line, f)) {
                char r[512], m[512], fstype[64];
                const char *dash = strstr(line, " - ");
                if (!dash || sscanf(dash + 3, "%63s", fstype) != 1 || strcmp(fstype, "cgroup2") ||
                    sscanf(line, "%*s %*s %*s %511s %511s", r, m) != 2)
                        continue;
                snprintf(mnt, len, "%s", m);
                snprintf(root, rlen, "%s", r);
                return true;
        }
        return false;
}

/* our own cgroup, from /proc/self/cgroup's "0::" line */
/* The path of the one "0::" line of a /proc/PID/cgroup file (fd, closed here): the whole file,
 * and exactly one such line. cgroup v1 names are a workload's to choose where it may mount a v1
 * hierarchy, and a line read in pieces (a long path) could hand over a forged "0::" piece. */
static int v2_path(int fd, char *buf, size_t len)
{
        char text[8192];
        size_t used = 0;
        ssize_t n;
        while (fd >= 0 && used < sizeof text - 1 &&
               (n = read(fd, text + used, sizeof text - 1 - used)) > 0)
                used += (size_t)n;
        if (fd >= 0)
                close(fd);
        if (fd < 0 || used == 0 || used >= sizeof text - 1)
                return -1;
        text[used] = '\0';
        const char *line = NULL;
        for (const char *at = text; at && *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL)
                if (!strncmp(at, "0::", 3)) {
                        if (line)
                                return -1;
                        line = at;
                }
        size_t ll = line ? strcspn(line + 3, "\n") : 0;
        if (!line || line[3] != '/' || ll >= len)
                return -1;
        memcpy(buf, line + 3, ll);
        buf[ll] = '\0';
        return 0;
}

static bool own_cgroup(char *buf, size_t len)
{
        return v2_path(open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC), buf, len) == 0;
}

/* /proc/cgroups: is the controller known, enabled, and on a v1 hierarchy (hierarchy id > 0)? */
static void proc_cgroups(const char *name, bool *known, bool *enabled, bool *v1)
{
        char line[256];
        *known = *enabled = *v1 = false;
        _cleanup_fclose_ FILE *f = fopen("/proc/cgroups", "re");
        while (f && fgets(line, sizeof line, f)) {
                char n[64];
                int hier, num, en;
                if (sscanf(line, "%63s %d %d %d", n, &hier, &num, &en) == 4 && !strcmp(n, name)) {
                        *known = true;
                        *enabled = en != 0;
                        *v1 = hier > 0;
                }
        }
}

static bool kernel_at_least(int major, int minor)
{
        struct utsname u;
        int a = 0, b = 0;
        if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &a, &b) != 2)
                return false;
        return a > major || (a == major && b >= minor);
}

/* Why controller c is not there to use, and the fix, most basic cause first: a remedy further
 * down (a delegated subtree) cannot help while one further up (the kernel, the boot command
 * line, the hybrid setup that keeps every controller on cgroup v1) stands in the way. */
static void explain(struct cgroup_host *h, int c, const struct cgroup_facts *f)
{
        const char *n = names[c];
        char *why = h->ctrl_why[c], *fix = h->ctrl_fix[c];
        size_t wl = sizeof h->ctrl_why[c], fl = sizeof h->ctrl_fix[c];
        if (!f->ctrl[c].known) {
                h->lack[c] = CGROUP_NO_KERNEL;
                snprintf(why, wl, "this kernel has no %s controller", n);
                snprintf(fix, fl,
                         "use a kernel built with it (Debian's and Raspberry Pi OS's are)");
        } else if (!f->ctrl[c].enabled) {
                h->lack[c] = CGROUP_NO_BOOT;
                snprintf(why, wl, "the %s controller is disabled at boot (cgroup_disable=%s)", n,
                         n);
                snprintf(fix, fl,
                         "add cgroup_enable=%s to the kernel command line%s, and reboot (on a "
                         "Raspberry Pi with kernel 6.12 or later the disable comes from the "
                         "device tree; cgroup_enable= in cmdline.txt still overrides it)",
                         n, f->bootline);
        } else if (f->ctrl[c].v1) {
                h->lack[c] = CGROUP_NO_V1;
                snprintf(why, wl, "the %s controller is on a cgroup v1 hierarchy here", n);
                snprintf(fix, fl, "boot with systemd.unified_cgroup_hierarchy=1%s (cgroup v2)",
                         f->bootline);
        } else if (!h->v2) {
                h->lack[c] = CGROUP_NO_V2;
                snprintf(why, wl, "%s", h->why);
                snprintf(fix, fl, "%s", h->fix);
        } else if (!(h->top & CGROUP_BIT(c))) {
                h->lack[c] = CGROUP_NO_V2;
                snprintf(why, wl, "the %s controller is not in the cgroup v2 root", n);
                snprintf(fix, fl, "is another cgroup v1 mount holding it? see /proc/cgroups");
        } else if (!h->base[0]) {
                /* the hierarchy has it; a cgroup of the user's own would get it */
                h->lack[c] = CGROUP_NO_DELEGATE;
                snprintf(why, wl, "%s", h->why);
                snprintf(fix, fl, "%s", h->fix);
        } else {
                h->lack[c] = CGROUP_NO_DELEGATE;
                snprintf(why, wl, "the %s controller is not delegated to you", n);
                snprintf(fix, fl,
                         "systemd delegates cpu, memory and pids (bookworm); for others, a "
                         "drop-in /etc/systemd/system/user@.service.d/delegate.conf with "
                         "[Service] Delegate=cpu cpuset io memory pids");
        }
}

/* The parent of cgroup `own` as a path under the mount: a mount of a cgroup (root, field 4 of
 * mountinfo, not "/") shows paths relative to it. "" when it does not fit: unknown, not cut
 * short, as it bounds a user's paths. */
static void parent_path(const char *mount, const char *root, const char *own, char *buf, size_t len)
{
        char up[1024];
        snprintf(up, sizeof up, "%s", own);
        char *slash = strrchr(up, '/');
        if (slash)
                *slash = '\0';
        const char *rel = up;
        size_t rl = strcmp(root, "/") ? strlen(root) : 0;
        if (rl && !strncmp(up, root, rl) && (up[rl] == '/' || !up[rl]))
                rel = up + rl;
        size_t ml = strlen(mount), n = strlen(rel);
        if (ml + n >= len) {
                buf[0] = '\0';
        } else {
                memcpy(buf, mount, ml);
                memcpy(buf + ml, rel, n + 1);
        }
}

void cgroup_host_decide(struct cgroup_host *h, const struct cgroup_facts *f)
{
        memset(h, 0, sizeof *h);
        h->clone_into = f->clone_into;
        if (!f->mounted) {
                bool v1 = false;
                for (int c = 0; c < CGROUP_NCTRL; c++)
                        v1 |= f->ctrl[c].v1;
                snprintf(h->why, sizeof h->why, "no cgroup v2 hierarchy is mounted%s",
                         v1 ? " (cgroup v1 only)" : "");
                snprintf(h->fix, sizeof h->fix, "boot with systemd.unified_cgroup_hierarchy=1%s",
                         f->bootline);
        } else {
                h->v2 = true;
                h->top = f->top;
                snprintf(h->mount, sizeof h->mount, "%s", f->mount);
                if (f->own[0])
                        parent_path(f->mount, f->mount_root, f->own, h->own_parent,
                                    sizeof h->own_parent);
                if (f->root) {
                        snprintf(h->base, sizeof h->base, "%s/crib", f->mount);
                        h->available = f->top;
                } else if (!f->own[0]) {
                        snprintf(h->why, sizeof h->why, "crib's own cgroup v2 is unknown");
                        snprintf(h->fix, sizeof h->fix, "is /proc mounted?");
                } else if (f->parent_delegated) {
                        snprintf(h->base, sizeof h->base, "%s", h->own_parent);
                        h->available = f->parent_ctrls;
                } else if (f->systemd_base[0]) {
                        h->systemd = true;
                        snprintf(h->base, sizeof h->base, "%s", f->systemd_base);
                        snprintf(h->helper, sizeof h->helper, "%s", f->systemd_helper);
                        h->available = f->systemd_ctrls;
                } else {
                        snprintf(h->why, sizeof h->why,
                                 "no cgroup is delegated to you: the parent of crib's cgroup "
                                 "(%.180s) is not yours",
                                 h->own_parent);
                        snprintf(h->fix, sizeof h->fix,
                                 "run crib in a delegated scope: systemd-run --user --scope -p "
                                 "Delegate=yes, in front of the command that starts it (crib run "
                                 "..., podman run ...)");
                }
        }
        for (int c = 0; c < CGROUP_NCTRL; c++)
                if (!(h->available & CGROUP_BIT(c)))
                        explain(h, c, f);
}

void cgroup_facts_gather(struct cgroup_facts *f)
{
        memset(f, 0, sizeof *f);
        f->root = geteuid() == 0;
        f->clone_into = kernel_at_least(5, 7);
        f->bootline = bootline_where();
        /* io is blkio in /proc/cgroups (its cgroup v1 name) */
        for (int c = 0; c < CGROUP_NCTRL; c++)
                proc_cgroups(c == CGROUP_IO ? "blkio" : names[c], &f->ctrl[c].known,
                             &f->ctrl[c].enabled, &f->ctrl[c].v1);
        f->mounted = find_mount(f->mount, sizeof f->mount, f->mount_root, sizeof f->mount_root);
        if (!f->mounted)
                return;
        f->top = read_controllers(f->mount);
        if (!own_cgroup(f->own, sizeof f->own))
                f->own[0] = '\0';
        if (f->root || !f->own[0])
                return;
        char parent[1024], ctl[1100];
        struct stat st;
        parent_path(f->mount, f->mount_root, f->own, parent, sizeof parent);
        snprintf(ctl, sizeof ctl, "%s/cgroup.subtree_control", parent);
        f->parent_delegated = parent[0] && stat(parent, &st) == 0 && st.st_uid == geteuid() &&
                              access(ctl, W_OK) == 0;
        if (f->parent_delegated) {
                f->parent_ctrls = read_controllers(parent);
                return;
        }
        /* where crib's own cgroup is not delegated, the user's systemd may give one */
        struct cgroup_host sd;
        memset(&sd, 0, sizeof sd);
        snprintf(sd.mount, sizeof sd.mount, "%s", f->mount);
        if (cgroup_systemd_gather(&sd)) {
                snprintf(f->systemd_base, sizeof f->systemd_base, "%s", sd.base);
                snprintf(f->systemd_helper, sizeof f->systemd_helper, "%s", sd.helper);
                f->systemd_ctrls = read_controllers(sd.base);
        }
}

void cgroup_host_gather(struct cgroup_host *h)
{
        struct cgroup_facts f;
        cgroup_facts_gather(&f);
        cgroup_host_decide(h, &f);
}

static int write_file(const char *dir, const char *file, const char *value, struct trace *t,
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
static int enable(const char *dir, unsigned need, struct trace *t, struct error *err)
{
        for (int c = 0; c < CGROUP_NCTRL; c++) {
                char v[32];
                if (!(need & CGROUP_BIT(c)))
                        continue;
                snprintf(v, sizeof v, "+%s", names[c]);
                if (write_file(dir, "cgroup.subtree_control", v, t, err) < 0) {
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

static int write_limits(const char *dir, const struct cgroup_limits *l, struct trace *t,
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
                if (write_file(dir, sizes[i].file, v, t, err) < 0)
                        return -1;
        }
        if (l->cpu_quota) { /* period 0 (an update without one): the cgroup's stays */
                int n = l->cpu_quota == CGROUP_CPU_MAX ? snprintf(v, sizeof v, "max")
                                                       : snprintf(v, sizeof v, "%u", l->cpu_quota);
                if (l->cpu_period)
                        snprintf(v + n, sizeof v - (size_t)n, " %u", l->cpu_period);
                if (write_file(dir, "cpu.max", v, t, err) < 0)
                        return -1;
        }
        if (l->cpu_weight) {
                snprintf(v, sizeof v, "%u", l->cpu_weight);
                if (write_file(dir, "cpu.weight", v, t, err) < 0)
                        return -1;
        }
        if (l->io_weight) {
                snprintf(v, sizeof v, "default %u", l->io_weight);
                if (write_file(dir, "io.weight", v, t, err) < 0)
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
static bool rmdir_tree(const char *path)
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
static bool populated(const char *path)
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
                rmdir_tree(path);
}

/* The cgroups of unnamed containers whose crib was killed (SIGKILL leaves no time to remove
 * them): run-PID with PID gone; empty, or rmdir fails and leaves it. */
static void remove_stale(const char *base, const char *prefix)
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
                rmdir_tree(path);
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
                if (populated(path) || has_children(path)) {
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
                if (!rmdir_tree(path)) {
                        if (populated(path)) {
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
        if (write_limits(path, l, t, err) < 0 || enable(path, l->need, t, err) < 0 ||
            write_file(path, "cgroup.max.depth", depth, t, err) < 0 ||
            write_file(path, "cgroup.max.descendants", "256", t, err) < 0)
                goto fail;
        r = mkdir(inner, 0755);
        e = errno;
        trace_line(t, "  mkdir(\"%s\") = %d", inner, r);
        if (r < 0) {
                error_set(err, e, "cannot make the cgroup '%s'", inner);
                goto fail;
        }
        if (write_limits(inner, l, t, err) < 0)
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
                if (enable(top, l->need, t, err) < 0)
                        return -1;
                if (mkdir(base, 0755) < 0 && errno != EEXIST)
                        return error_set(err, errno, "cannot make the cgroup '%s'", base);
        }
        if (enable(base, l->need, t, err) < 0)
                return -1;
        remove_stale(base, as_root ? "run-" : "crib-run-");
        char path[1200];
        cgroup_leaf(base, name, path, sizeof path);
        return make_leaf(path, l, false, t, ret_path, len, NULL, err);
}

/* Each cgroup from top down to path's parent: made where missing (with make), given what need
 * asks for their children. Each one below top that exists must be the caller's (a root
 * container's cgroup in a user's subtree would be the user's to move its processes out of) and
 * no container's (crib's PATH/container in it: its delete would end this one too). */
static int walk_down(const char *top, const char *path, unsigned need, bool make, struct trace *t,
                     struct error *err)
{
        size_t tl = strlen(top);
        if (strncmp(path, top, tl) || path[tl] != '/' || strlen(path) >= 1100)
                return error_set(err, EINVAL, "the cgroup '%s' is not below '%s'", path, top);
        char dir[1200];
        snprintf(dir, sizeof dir, "%s", top);
        for (const char *at = path + tl;;) {
                if (enable(dir, need, t, err) < 0)
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
        if (walk_down(top, path, l->need, true, t, err) < 0)
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
        return top_of(leaf, top, dir, sizeof dir) < 0 ? 0 : read_controllers(dir);
}

/* Every file write_limits would write for `l` is in dir, or an error naming the first that
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
        unsigned have = read_controllers(from);
        for (int c = 0; c < CGROUP_NCTRL; c++)
                if ((l->need & CGROUP_BIT(c)) && !(have & CGROUP_BIT(c)))
                        return error_set(err, 0, "the %s controller is not available to '%s'",
                                         names[c], leaf);
        if (walk_down(from, leaf, l->need, false, t, err) < 0 || enable(leaf, l->need, t, err) < 0)
                return -1;
        /* every file there before any is written: a failure changes no limit */
        if (limit_files_exist(leaf, l, err) < 0 || limit_files_exist(inner, l, err) < 0)
                return -1;
        if (write_limits(leaf, l, t, err) < 0)
                return -1;
        /* the copy the container reads; the leaf's hold */
        return write_limits(inner, l, t, err);
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
                if (rmdir_tree(path) || errno != EBUSY)
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
        if (!find_mount(mnt, sizeof mnt, root, sizeof root) ||
            v2_path(openat(procdir, "cgroup", O_RDONLY | O_CLOEXEC), rel_buf, sizeof rel_buf) < 0)
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
