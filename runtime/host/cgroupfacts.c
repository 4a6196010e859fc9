/* cgroupfacts.c - the cgroup v2 hierarchy as this host offers it to the invoking user; see
 * cgroupfacts.h. Only reads: cgroup/ makes, limits and removes the cgroups.
 *
 * Kernel features: the cgroup v2 filesystem (Linux 4.5; cpu in it 4.15) and its
 * cgroup.controllers and cgroup.subtree_control files; /proc/self/mountinfo for where it is
 * mounted, /proc/self/cgroup for crib's own cgroup; /proc/cgroups for a controller disabled at
 * boot (cgroup_disable=, as Raspberry Pi OS does for memory) or bound to a cgroup v1 hierarchy;
 * clone3(2) with CLONE_INTO_CGROUP (Linux 5.7), which container.c uses.
 *
 * The facts are read (cgroup_facts_gather), then decided on (cgroup_host_decide, pure, unit
 * tested with made-up hosts): where a container's cgroup goes (root: CGROUP2/crib; a user: the
 * parent of crib's own cgroup when it is the user's, or a scope the user's systemd makes), and
 * for each controller it cannot have, why and the fix, the most basic cause first.
 *
 * systemd's part: where crib's own cgroup is not delegated, the user's manager can make a
 * transient scope with Delegate=yes (systemd.resource-control(5)) on request (crib-scope, over
 * D-Bus); cgroup/systemd.c asks for it. Whether it can is read here: user@UID.service is the
 * user's, its bus is reachable ($DBUS_SESSION_BUS_ADDRESS, or $XDG_RUNTIME_DIR/bus: the
 * environment is read here, in host/, and nowhere else in the runtime), crib-scope is there.
 */
#define _GNU_SOURCE
#include "cgroupfacts.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bootline.h"
#include "base/cleanup.h"
#include "base/procfile.h"

static const char *const names[CGROUP_NCTRL] = {"memory", "cpu", "pids", "io", "cpuset"};

const char *cgroup_ctrl_name(enum cgroup_ctrl c)
{
        return names[c];
}

/* the controllers named in a cgroup.controllers file */
unsigned cgroup_controllers(const char *dir)
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

/* the cgroup2 mount point and the cgroup its root shows (field 4 of mountinfo): the one seen
 * at its path, not the first line that names a cgroup2 (podman's and some engines' mount
 * namespaces mount one over /sys/fs/cgroup and leave the host's /sys/fs/cgroup/unified listed
 * beneath it, hidden) */
bool cgroup_find_mount(char *mnt, size_t len, char *root, size_t rlen)
{
        char line[1024];
        _cleanup_fclose_ FILE *f = fopen("/proc/self/mountinfo", "re");
        while (f && fgets(line, sizeof line, f)) {
                char r[512], m[512], fstype[64];
                unsigned long id;
                const char *dash = strstr(line, " - ");
                if (!dash || sscanf(dash + 3, "%63s", fstype) != 1 || strcmp(fstype, "cgroup2") ||
                    sscanf(line, "%lu %*s %*s %511s %511s", &id, r, m) != 3 ||
                    !procfile_mount_seen(id, m))
                        continue;
                snprintf(mnt, len, "%s", m);
                snprintf(root, rlen, "%s", r);
                return true;
        }
        return false;
}

/* The path of the one "0::" line of a /proc/PID/cgroup file (fd, closed here): the whole file,
 * and exactly one such line. cgroup v1 names are a workload's to choose where it may mount a v1
 * hierarchy, and a line read in pieces (a long path) could hand over a forged "0::" piece. */
int cgroup_v2_path(int fd, char *buf, size_t len)
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

/* our own cgroup, from /proc/self/cgroup's "0::" line */
static bool own_cgroup(char *buf, size_t len)
{
        return cgroup_v2_path(open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC), buf, len) == 0;
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

/* cgroup `up` (as /proc/self/cgroup names it) as a path under the mount, as parent_path */
static void own_path(const char *mount, const char *root, const char *up, char *buf, size_t len)
{
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

/* crib's own cgroup is a service's that systemd delegated to it (Delegate=yes,
 * systemd.resource-control(5)): its name ends in .service, it is the caller's and the caller
 * may write its cgroup.subtree_control, and systemd marked it with the trusted.delegate
 * extended attribute (the system's manager, systemd 251 and later) or user.delegate. A user's
 * manager cannot set trusted.* and marks nothing before systemd 253 (bookworm has 252), where
 * every cgroup of the user's tree is the user's alike: there a .service of the user's own
 * manager that runs crib as its Type=notify main process ($NOTIFY_SOCKET set), as the units of
 * `crib generate systemd --user` do, is taken for delegated. Its path under the mount in buf,
 * else "". */
static bool delegated_unit(const char *mount, const char *root, const char *own, char *buf,
                           size_t len)
{
        char path[1024], ctl[1100], v[8];
        struct stat st;
        size_t n = strlen(own);
        buf[0] = '\0';
        if (n < 8 || strcmp(own + n - 8, ".service"))
                return false;
        own_path(mount, root, own, path, sizeof path);
        snprintf(ctl, sizeof ctl, "%s/cgroup.subtree_control", path);
        ssize_t t = getxattr(path, "trusted.delegate", v, sizeof v);
        ssize_t u = t == 1 ? t : getxattr(path, "user.delegate", v, sizeof v);
        bool marked = (t == 1 || u == 1) && v[0] == '1';
        char mine[128];
        snprintf(mine, sizeof mine, "/user.slice/user-%u.slice/user@%u.service/",
                 (unsigned)geteuid(), (unsigned)geteuid());
        const char *notify = getenv("NOTIFY_SOCKET");
        bool user_unit = geteuid() != 0 && !strncmp(own, mine, strlen(mine)) && notify &&
                         notify[0] && !strstr(own, "/..");
        if (!path[0] || !(marked || user_unit) || stat(path, &st) < 0 || st.st_uid != geteuid() ||
            access(ctl, W_OK) < 0 || strlen(path) >= len)
                return false;
        memcpy(buf, path, strlen(path) + 1);
        return true;
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
        own_path(mount, root, up, buf, len);
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
                if (f->unit[0]) {
                        /* a unit's, Delegate=yes: the container's cgroup inside it */
                        h->unit = true;
                        snprintf(h->base, sizeof h->base, "%s", f->unit);
                        h->available = f->unit_ctrls;
                } else if (f->root) {
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

/* crib-scope: beside crib, or in ../lib/crib/ (make install) */
bool cgroup_scope_helper(char *buf, size_t len)
{
        char exe[1024];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
                return false;
        exe[n] = '\0';
        if (exe[0] != '/') /* a sealed copy (memfd): not crib's own directory */
                return false;
        char *dir = dirname(exe);
        const char *const tries[] = {"%s/crib-scope", "%s/../lib/crib/crib-scope"};
        for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
                snprintf(buf, len, tries[i], dir);
                if (access(buf, X_OK) == 0)
                        return true;
        }
        return false;
}

/* the user's manager has a bus we can reach */
static bool user_bus(void)
{
        const char *addr = getenv("DBUS_SESSION_BUS_ADDRESS");
        const char *run = getenv("XDG_RUNTIME_DIR");
        char path[600];
        if (addr && addr[0])
                return true;
        if (!run || !run[0])
                return false;
        snprintf(path, sizeof path, "%s/bus", run);
        struct stat st;
        return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

static bool cgroup_systemd_gather(struct cgroup_host *h)
{
        char dir[1000];
        struct stat st;
        uid_t uid = geteuid();
        snprintf(dir, sizeof dir, "%s/user.slice/user-%u.slice/user@%u.service", h->mount,
                 (unsigned)uid, (unsigned)uid);
        if (uid == 0 || stat(dir, &st) < 0 || st.st_uid != uid || !user_bus() ||
            !cgroup_scope_helper(h->helper, sizeof h->helper))
                return false;
        h->systemd = true;
        snprintf(h->base, sizeof h->base, "%s", dir);
        return true;
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
        f->mounted =
                cgroup_find_mount(f->mount, sizeof f->mount, f->mount_root, sizeof f->mount_root);
        if (!f->mounted)
                return;
        f->top = cgroup_controllers(f->mount);
        if (!own_cgroup(f->own, sizeof f->own))
                f->own[0] = '\0';
        if (f->own[0] && delegated_unit(f->mount, f->mount_root, f->own, f->unit, sizeof f->unit))
                f->unit_ctrls = cgroup_controllers(f->unit);
        if (f->root || !f->own[0])
                return;
        char parent[1024], ctl[1100];
        struct stat st;
        parent_path(f->mount, f->mount_root, f->own, parent, sizeof parent);
        snprintf(ctl, sizeof ctl, "%s/cgroup.subtree_control", parent);
        f->parent_delegated = parent[0] && stat(parent, &st) == 0 && st.st_uid == geteuid() &&
                              access(ctl, W_OK) == 0;
        if (f->parent_delegated) {
                f->parent_ctrls = cgroup_controllers(parent);
                return;
        }
        /* where crib's own cgroup is not delegated, the user's systemd may give one */
        struct cgroup_host sd;
        memset(&sd, 0, sizeof sd);
        snprintf(sd.mount, sizeof sd.mount, "%s", f->mount);
        if (cgroup_systemd_gather(&sd)) {
                snprintf(f->systemd_base, sizeof f->systemd_base, "%s", sd.base);
                snprintf(f->systemd_helper, sizeof f->systemd_helper, "%s", sd.helper);
                f->systemd_ctrls = cgroup_controllers(sd.base);
        }
}

void cgroup_host_gather(struct cgroup_host *h)
{
        struct cgroup_facts f;
        cgroup_facts_gather(&f);
        cgroup_host_decide(h, &f);
}
