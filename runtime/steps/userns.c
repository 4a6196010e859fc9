/* userns.c - user namespaces: the id maps and what stops them.
 *
 * Kernel feature: user namespaces (user_namespaces(7)): the child is created with
 * CLONE_NEWUSER and has every capability inside it, but no usable ids until /proc/PID/uid_map
 * and gid_map are written. An unprivileged user may map only its own id, and only after
 * writing "deny" to /proc/PID/setgroups for the gid map; larger maps go through the setuid
 * helpers newuidmap(1)/newgidmap(1) and /etc/subuid, /etc/subgid. A map of the caller's own
 * ids alone may be written from inside the new namespace too (as `unshare -r` does): then the
 * child writes /proc/self/... itself and the parent has nothing to wait for.
 *
 * The child's step (step_id_maps, the second row of the setup table, launch/child.c): write its
 * own maps, or wait for the parent's SYNC_GO that says the parent wrote them (and, before it,
 * the idmapped rootfs: SYNC_ROOTFS); then the setup process stops being dumpable, and stays so.
 *
 * As root, a container's root is not host root: root's default map is its own range of
 * subordinate ids (crib records one in /etc/subuid and /etc/subgid when root has none), and a
 * rootfs that host root owns is shown through an idmapped mount (mount_setattr(2)
 * MOUNT_ATTR_IDMAP, Linux 5.12), so it still looks root's inside. Why an idmapped mount rather
 * than a chown of the rootfs into the range: it changes nothing on disk, costs one call, and the
 * same rootfs keeps working for rootless users and for `user = no`. Its price: what container
 * root writes there is host root's on disk, so a setuid file it makes is host root's; the plan
 * refuses a writable idmapped rootfs that other host users can reach (plan.c). A kernel or
 * filesystem without idmapped mounts gets the chown as the remedy.
 *
 * What goes wrong, and the hints given: unprivileged user namespaces switched off (Debian's
 * kernel.unprivileged_userns_clone, user.max_user_namespaces, Ubuntu's AppArmor restriction),
 * a kernel built without CONFIG_USER_NS, newuidmap missing, not setuid, or refusing the ranges.
 */
#define _GNU_SOURCE
#include "userns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "mountapi.h"
#include "spec/phrase.h"
#include "base/procfile.h"
#include "rlimits.h"
#include "step.h"
#include "host/subids.h"
#include "idlayers.h"

/* procfile_write, traced, with the error for the user */
static int write_file(const struct trace *t, const char *path, const char *text, struct error *err)
{
        int e = procfile_write(path, text);
        char shown[512], *o = shown;
        for (const char *s = text; *s && o < shown + sizeof shown - 3; s++) {
                if (*s == '\n') {
                        if (s[1])
                                *o++ = '\\', *o++ = 'n';
                } else {
                        *o++ = *s;
                }
        }
        *o = '\0';
        trace_line(t, "  write(\"%s\", \"%s\") = %s", path, shown, e ? "-1" : "ok");
        if (e)
                return error_set(err, e, "cannot write '%s' to '%s'", shown, path);
        return 0;
}

static int run_helper(const struct plan *p, const char *name, pid_t pid, const struct idmap *m,
                      const struct trace *t, struct error *err)
{
        char path[256], pidstr[16], args[SPEC_MAX_RANGES + 1][3][12];
        char *argv[3 + 3 * (SPEC_MAX_RANGES + 1) + 1];
        size_t a = 0;
        char shown[1024];
        size_t used;

        if (!userns_find_helper(name, path, sizeof path)) {
                error_set(err, ENOENT, "cannot map the ids: '%s' is not installed", name);
                return error_hint(err, "install it with: sudo apt-get install uidmap");
        }
        struct stat st;
        snprintf(pidstr, sizeof pidstr, "%d", (int)pid);
        argv[a++] = path;
        argv[a++] = pidstr;
        used = (size_t)snprintf(shown, sizeof shown, "%s %s", name, pidstr);
        for (size_t i = 0; i < m->n; i++) {
                snprintf(args[i][0], 12, "%u", m->r[i].inside);
                snprintf(args[i][1], 12, "%u", m->r[i].outside);
                snprintf(args[i][2], 12, "%u", m->r[i].count);
                for (int j = 0; j < 3; j++) {
                        argv[a++] = args[i][j];
                        if (used < sizeof shown)
                                used += (size_t)snprintf(shown + used, sizeof shown - used, " %s",
                                                         args[i][j]);
                }
        }
        argv[a] = NULL;
        pid_t h = fork();
        if (h < 0)
                return error_set(err, errno, "cannot fork to run '%s'", name);
        if (h == 0) {
                sigset_t none;
                sigemptyset(&none);
                sigprocmask(SIG_SETMASK, &none, NULL);
                execv(path, argv);
                _exit(127);
        }
        int status;
        while (waitpid(h, &status, 0) < 0 && errno == EINTR)
                ;
        trace_line(t, "  %s = exit %d", shown, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
                return 0;
        error_set(err, 0, "'%s' refused to map the ids", shown);
        if (stat(path, &st) == 0 && !(st.st_mode & S_ISUID))
                return error_hint(err, "'%s' is not setuid root; fix it with: sudo chmod u+s %s",
                                  path, path);
        return error_hint(err,
                          "check that %s gives user %u the ranges used (see its message "
                          "above)",
                          !strcmp(name, "newuidmap") ? "/etc/subuid" : "/etc/subgid",
                          (unsigned)p->host_uid);
}

/* The maps of `pid`'s user namespace as we see them are `want`'s. */
static int same_map(pid_t pid, const char *name, const struct idmap *want, struct error *err)
{
        char path[64];
        struct idmap got;
        snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
        FILE *f = fopen(path, "re");
        if (!f)
                return error_set(err, errno, "cannot read '%s'", path);
        int r = idmap_read_map(f, &got, err);
        fclose(f);
        if (r < 0)
                return error_wrap(err, "%s", path);
        bool same = got.n == want->n;
        for (size_t i = 0; same && i < got.n; i++)
                same = got.r[i].inside == want->r[i].inside &&
                       got.r[i].outside == want->r[i].outside && got.r[i].count == want->r[i].count;
        if (!same)
                return error_set(err, 0,
                                 "the joined user namespace's %s changed since the config was "
                                 "read (the file now names another namespace)",
                                 name);
        return 0;
}

int userns_check_joined_maps(const struct plan *p, pid_t pid, const struct trace *t,
                             struct error *err)
{
        if (same_map(pid, "uid_map", &p->uidmap, err) < 0 ||
            same_map(pid, "gid_map", &p->gidmap, err) < 0)
                return -1;
        trace_line(t, "  /proc/%d/uid_map and gid_map: the joined namespace's, as planned",
                   (int)pid);
        return 0;
}

int userns_write_maps(const struct plan *p, pid_t pid, const struct trace *t, struct error *err)
{
        char path[64], text[4096], self[16];
        if (!p->userns)
                return 0;
        snprintf(self, sizeof self, "%d", (int)pid);
        const char *who = pid ? self : "self";
        /* gid first: "deny" for setgroups must come before an unprivileged gid_map */
        if (p->gidmap.use_helper) {
                if (run_helper(p, "newgidmap", pid, &p->gidmap, t, err) < 0)
                        return -1;
        } else {
                if (p->deny_setgroups) {
                        snprintf(path, sizeof path, "/proc/%s/setgroups", who);
                        if (write_file(t, path, "deny", err) < 0)
                                return -1;
                }
                snprintf(path, sizeof path, "/proc/%s/gid_map", who);
                idmap_format(&p->gidmap, text, sizeof text);
                if (write_file(t, path, text, err) < 0)
                        return error_hint(err, "the kernel refused the gid map; an unprivileged "
                                               "user may map only its own gid (use 'gid = auto' "
                                               "for more)");
        }
        if (p->uidmap.use_helper)
                return run_helper(p, "newuidmap", pid, &p->uidmap, t, err);
        snprintf(path, sizeof path, "/proc/%s/uid_map", who);
        idmap_format(&p->uidmap, text, sizeof text);
        if (write_file(t, path, text, err) < 0)
                return error_hint(err, "the kernel refused the uid map; an unprivileged user may "
                                       "map only its own uid (use 'uid = auto' for more)");
        return 0;
}

/* Child: not dumpable from now on, before any code of the workload exists, so that no process
 * of the container can ptrace(2) this one or open its /proc/PID/{mem,fd,exe} (init.c). Not
 * before: while dumpable, the files of /proc/PID belong to us, so the maps can be written (and
 * the OOM score adjustment: oom.c). A row of its own after the maps (launch/child.c). */
int step_not_dumpable(struct child *c, struct error *err)
{
        int r = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        trace_line(&c->trace, "  prctl(PR_SET_DUMPABLE, 0) = %d", r);
        if (r < 0)
                return error_set(err, errno, "cannot make the setup process not dumpable");
        return 0;
}

/* Child: a tree the parent sends before SYNC_GO: the idmapped rootfs (SYNC_ROOTFS), a layer of
 * an image (SYNC_LAYER, idlayers.c), or a namespace of the workload's (SYNC_NEST, nestns.c);
 * anything else is out of place */
static int take_tree(struct child *c, const struct sync_msg *m, int fd, struct error *err)
{
        if (m->type == SYNC_ROOTFS && fd >= 0 && c->plan->idmap_rootfs && c->rootfs_tree < 0) {
                c->rootfs_tree = fd;
                trace_line(&c->trace, "  read(sync) = ROOTFS (the idmapped rootfs, fd %d)", fd);
                return 0;
        }
        if (m->type == SYNC_LAYER && c->plan->overlay_idmapped)
                return idlayers_take(c, m->u.layer, fd, err);
        if (m->type == SYNC_NEST && fd >= 0 && c->plan->nest_early) {
                bool user = m->u.nsflag == CLONE_NEWUSER;
                int *nest = user                          ? &c->nest_userns
                            : m->u.nsflag == CLONE_NEWNET ? &c->nest_netns
                                                          : NULL;
                if (nest && *nest < 0) {
                        *nest = fd;
                        trace_line(&c->trace,
                                   "  read(sync) = NEST (the workload's %s namespace, fd %d)",
                                   user ? "user" : "network", fd);
                        return 0;
                }
        }
        if (fd >= 0)
                close(fd);
        return error_set(err, EPROTO, "expected the go-ahead, got message %u", m->type);
}

/* Child: before anything, write our own maps (and limits), or wait for the parent's SYNC_GO
 * that says it wrote them, taking the trees it sends before; EOF means crib died. */
int step_id_maps(struct child *c, struct error *err)
{
        if (c->plan->self_maps) {
                if (userns_write_maps(c->plan, 0, &c->trace, err) < 0 ||
                    rlimits_apply(c->plan, 0, &c->trace, err) < 0)
                        return -1;
                return 0;
        }
        struct sync_msg m;
        for (;;) {
                int fd = -1;
                int r = sync_recv(&c->chan, &m, &fd, err);
                if (r == 0)
                        _exit(125); /* crib is gone */
                if (r < 0)
                        return -1;
                if (m.type == SYNC_GO) {
                        if (fd >= 0)
                                close(fd);
                        break;
                }
                if (take_tree(c, &m, fd, err) < 0)
                        return -1;
        }
        c->host_pid = m.u.pid;
        trace_line(&c->trace, "  read(sync) = GO (maps written; we are pid %d to crib)",
                   (int)c->host_pid);
        return 0;
}

int userns_write_nested_maps(const struct plan *p, pid_t pid, const struct trace *t,
                             struct error *err)
{
        const struct idmap *maps[2] = {&p->gidmap, &p->uidmap};
        const char *names[2] = {"gid_map", "uid_map"};
        for (int i = 0; i < 2; i++) {
                /* the ids of the namespace above, each as itself */
                struct idmap same = *maps[i];
                for (size_t r = 0; r < same.n; r++)
                        same.r[r].outside = same.r[r].inside;
                char path[64], text[4096];
                snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, names[i]);
                if (idmap_format(&same, text, sizeof text) < 0)
                        return error_set(err, E2BIG, "the id map does not fit in '%s'", path);
                if (write_file(t, path, text, err) < 0)
                        return -1;
        }
        return 0;
}

static const struct {
        int flag;
        const char *ns;
        enum spec_key key;
        const char *config;
} namespaces[] = {
        {CLONE_NEWUSER, "user", SPEC_KEY_NAMESPACES_USER, "CONFIG_USER_NS"},
        {CLONE_NEWPID, "pid", SPEC_KEY_NAMESPACES_PID, "CONFIG_PID_NS"},
        {CLONE_NEWNET, "net", SPEC_KEY_NAMESPACES_NET, "CONFIG_NET_NS"},
        {CLONE_NEWIPC, "ipc", SPEC_KEY_NAMESPACES_IPC, "CONFIG_IPC_NS"},
        {CLONE_NEWUTS, "uts", SPEC_KEY_NAMESPACES_UTS, "CONFIG_UTS_NS"},
        {CLONE_NEWCGROUP, "cgroup", SPEC_KEY_NAMESPACES_CGROUP, "CONFIG_CGROUPS"},
};

int userns_clone_error(int flags, int e, enum spec_front front, struct error *err)
{
        const char *what = (flags & CLONE_NEWUSER) ? "cannot create user namespace"
                                                   : "cannot create the container's namespaces";
        error_set(err, e, "%s", what);

        for (size_t i = 0; i < sizeof namespaces / sizeof namespaces[0]; i++) {
                char path[64];
                const char *ns = namespaces[i].ns;
                if (!(flags & namespaces[i].flag))
                        continue;
                /* a type this kernel was built without: EINVAL, and no /proc/self/ns entry */
                snprintf(path, sizeof path, "/proc/self/ns/%s", ns);
                char change[256];
                phrase_change(front, namespaces[i].key, PHRASE_OFF, change, sizeof change);
                if (access(path, F_OK) < 0 && errno == ENOENT) {
                        error_set(err, e, "cannot create %s namespace", ns);
                        return error_hint(err,
                                          "this kernel was built without %s namespaces (%s=y); "
                                          "%s, or use a kernel that has them",
                                          ns, namespaces[i].config, change);
                }
                /* a type switched off: user.max_<ns>_namespaces = 0 (user's own case below) */
                snprintf(path, sizeof path, "/proc/sys/user/max_%s_namespaces", ns);
                if (e == ENOSPC && namespaces[i].flag != CLONE_NEWUSER &&
                    procfile_long(path) == 0) {
                        error_set(err, e, "cannot create %s namespace", ns);
                        return error_hint(err,
                                          "%s namespaces are switched off here "
                                          "(user.max_%s_namespaces = 0): enable them with: sudo "
                                          "sysctl user.max_%s_namespaces=15000, or %s",
                                          ns, ns, ns, change);
                }
        }
        if (!(flags & CLONE_NEWUSER))
                return -1;
        long v = procfile_long("/proc/sys/user/max_user_namespaces");
        if (e == ENOSPC && v == 0)
                return error_hint(err, "user namespaces are disabled "
                                       "(user.max_user_namespaces = 0); enable them with: sudo "
                                       "sysctl user.max_user_namespaces=15000");
        if (e == ENOSPC)
                return error_hint(err,
                                  "the limit of user namespaces (user.max_user_namespaces = %ld) "
                                  "is reached; raise it with sysctl",
                                  v);
        if (e != EPERM)
                return -1;
        if (geteuid() != 0 && procfile_long("/proc/sys/kernel/unprivileged_userns_clone") == 0)
                return error_hint(err, "unprivileged user namespaces are disabled; enable them "
                                       "with: sudo sysctl kernel.unprivileged_userns_clone=1");
        if (geteuid() != 0 &&
            procfile_long("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1)
                return error_hint(err, "AppArmor restricts unprivileged user namespaces "
                                       "(kernel.apparmor_restrict_unprivileged_userns = 1); load "
                                       "crib's AppArmor profile with 'sudo make install-apparmor', "
                                       "or run: sudo sysctl "
                                       "kernel.apparmor_restrict_unprivileged_userns=0");
        return error_hint(err, "the kernel refused; inside another container or a chroot, "
                               "or under a seccomp filter, new user namespaces are often "
                               "not allowed");
}

int userns_idmapped_rootfs(const struct plan *p, pid_t pid, const struct trace *t,
                           struct error *err)
{
#if defined(SYS_open_tree) && defined(SYS_mount_setattr)
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/user", (int)pid);
        _cleanup_close_ int ns = open(path, O_RDONLY | O_CLOEXEC);
        if (ns < 0)
                return error_set(err, errno, "cannot open '%s'", path);
        int tree = (int)syscall(SYS_open_tree, AT_FDCWD, p->rootfs,
                                OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
        int e = errno;
        trace_line(t, "  open_tree(\"%s\", OPEN_TREE_CLONE|AT_RECURSIVE) = %d", p->rootfs, tree);
        if (tree >= 0) {
                struct {
                        uint64_t attr_set, attr_clr, propagation, userns_fd;
                } attr = {.attr_set = MOUNT_ATTR_IDMAP, .userns_fd = (uint64_t)ns};
                long r = syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr,
                                 sizeof attr);
                e = errno;
                trace_line(t, "  mount_setattr(tree, MOUNT_ATTR_IDMAP, %s) = %ld", path, r);
                if (r == 0)
                        return tree;
                close(tree);
        }
        error_set(err, e, "cannot show rootfs '%s' to the container as root's (idmapped mount)",
                  p->rootfs);
#else
        error_set(err, ENOSYS, "cannot show rootfs '%s' to the container as root's", p->rootfs);
#endif
        return error_hint(err,
                          "idmapped mounts need Linux 5.12 and a filesystem that has them "
                          "(ext4, btrfs, xfs; tmpfs from 6.3); or give the rootfs to the "
                          "container's range: sudo chown -hR --from=0:0 %u:%u %s",
                          (unsigned)idmap_outside(&p->uidmap, 0),
                          (unsigned)idmap_outside(&p->gidmap, 0), p->rootfs);
}
