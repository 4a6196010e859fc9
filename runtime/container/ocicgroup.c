/* ocicgroup.c - crib's OCI runtime on a container's own cgroup; see ocicgroup.h.
 *
 * Kernel features: cgroup v2's cgroup.procs (its processes), cgroup.kill (Linux 5.14: SIGKILL
 * to a whole subtree at once), cgroup.freeze (the freezer) and the controllers' limit files
 * (cgroup/limits.c, cgroup/state.c). crib makes a cgroup of its own for a container with limits or,
 * as real root, a device program; its process is in it, so the freezer and the limits reach all of
 * it.
 */
#define _GNU_SOURCE
#include "ocicgroup.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "base/cleanup.h"
#include "base/procfile.h"
#include "state/state.h"
#include "base/trace.h"

/* The pids of the cgroup `path` and of those below it (the container runs in NAME/container,
 * and may make cgroups of its own there), at most OCICGROUP_MAX_PIDS, depth first; the count. */
static size_t subtree_pids(const char *path, pid_t *pids, size_t n, int depth)
{
        char file[4200], line[32];
        snprintf(file, sizeof file, "%s/cgroup.procs", path);
        _cleanup_fclose_ FILE *f = fopen(file, "re");
        while (f && n < OCICGROUP_MAX_PIDS && fgets(line, sizeof line, f))
                if (atoi(line) > 0)
                        pids[n++] = (pid_t)atoi(line);
        _cleanup_closedir_ DIR *d = depth < 16 ? opendir(path) : NULL;
        struct dirent *e;
        while (d && n < OCICGROUP_MAX_PIDS && (e = readdir(d))) {
                /* ".h" is a cgroup too (a workload may hide in one): only . and .. are not */
                if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                        continue;
                if (snprintf(file, sizeof file, "%s/%s", path, e->d_name) < (int)sizeof file)
                        n = subtree_pids(file, pids, n, depth + 1);
        }
        return n;
}

size_t ocicgroup_pids(const struct stored *o, const char *id, pid_t *pids, char *leaf, size_t len)
{
        struct stat st;
        ocistate_leaf(o, id, leaf, len, NULL, 0);
        if (!leaf[0] || stat(leaf, &st) < 0 || !S_ISDIR(st.st_mode)) {
                leaf[0] = '\0';
                return 0;
        }
        return subtree_pids(leaf, pids, 0, 0);
}

/* SIGKILL through cgroup.kill (Linux 5.14), the whole subtree at once; another signal with the
 * cgroup frozen while its pids are read and signalled, so none exits and has its pid reused by
 * a host process in between, and none forks a child that is missed. */
void ocicgroup_signal(const struct stored *o, const char *id, int sig)
{
        static pid_t pids[OCICGROUP_MAX_PIDS];
        char leaf[1200], file[1300];
        ocistate_leaf(o, id, leaf, sizeof leaf, NULL, 0);
        if (!leaf[0])
                return;
        snprintf(file, sizeof file, "%s/cgroup.kill", leaf);
        _cleanup_close_ int kfd = sig == SIGKILL ? open(file, O_WRONLY | O_CLOEXEC) : -1;
        if (kfd >= 0 && write(kfd, "1", 1) == 1)
                return;
        struct error ignored;
        bool thaw = !cgroup_frozen(leaf) && cgroup_freeze(leaf, true, &ignored) == 0;
        size_t n = ocicgroup_pids(o, id, pids, leaf, sizeof leaf);
        for (size_t i = 0; i < n; i++)
                kill(pids[i], sig);
        if (thaw)
                cgroup_freeze(leaf, false, &ignored);
}

/* The pids below `pid` (their PPid: lines), depth first, after the `n` in `pids`; the count */
static size_t descendants(pid_t pid, pid_t *pids, size_t n, size_t max, int depth)
{
        pid_t kids[256];
        size_t k = depth < 64 ? procfile_children(pid, kids, 256) : 0;
        for (size_t i = 0; i < k && n < max; i++) {
                pids[n++] = kids[i];
                n = descendants(kids[i], pids, n, max, depth + 1);
        }
        return n;
}

int ocicgroup_ps(const struct oci_runtime *rt, const char *id, pid_t *pids, size_t max,
                 size_t *ret_n, struct error *err)
{
        static pid_t all[OCICGROUP_MAX_PIDS];
        struct stored o;
        char leaf[1200];
        if (ocistate_open(rt, id, false, &o, err) < 0)
                return -1;
        size_t n = ocicgroup_pids(&o, id, all, leaf, sizeof leaf);
        if (n > max)
                n = max;
        memcpy(pids, all, n * sizeof *pids);
        /* no cgroup of its own: its process and those below it */
        if (!n && o.rec.pid_alive && max) {
                pids[n++] = o.rec.pid;
                n = descendants(o.rec.pid, pids, n, max, 0);
        }
        store_close(&o);
        *ret_n = n;
        return 0;
}

/* The container's own cgroup (to freeze: one that is there), or an error saying it has none
 * to `what` */
static int own_cgroup(const struct stored *o, const char *id, const char *what, char *leaf,
                      size_t len, char *top, size_t tlen, struct error *err)
{
        struct stat st;
        ocistate_leaf(o, id, leaf, len, top, tlen);
        if (!strcmp(what, "freeze") && leaf[0] && (stat(leaf, &st) < 0 || !S_ISDIR(st.st_mode)))
                leaf[0] = '\0';
        if (leaf[0])
                return 0;
        error_set(err, 0, "container \"%s\" has no cgroup v2 of its own to %s", id, what);
        return error_hint(err, "crib makes one for a container with resource limits (a cgroup v2 "
                               "host, or a delegated subtree for a user)");
}

int ocicgroup_freeze(const struct oci_runtime *rt, const char *id, bool freeze, struct error *err)
{
        struct stored o;
        if (ocistate_open(rt, id, true, &o, err) < 0)
                return -1;
        enum store_status status = store_status(&o), want = freeze ? STORE_RUNNING : STORE_PAUSED;
        char leaf[1200];
        int r = -1;
        if (status != want)
                error_set(err, 0, "container \"%s\" is %s, not %s", id, store_status_name(status),
                          store_status_name(want));
        else if (own_cgroup(&o, id, "freeze", leaf, sizeof leaf, NULL, 0, err) == 0 &&
                 cgroup_freeze(leaf, freeze, err) == 0)
                r = 0;
        /* the mark once the cgroup is frozen (store_status: paused), gone on resume */
        if (r == 0 && freeze && state_write(o.dir, STORE_FILE_PAUSED, "", 0, err) < 0) {
                struct error ignored;
                cgroup_freeze(leaf, false, &ignored);
                r = -1;
        } else if (r == 0 && !freeze) {
                unlinkat(o.dir, STORE_FILE_PAUSED, 0);
        }
        store_close(&o);
        return r;
}

/* As create refuses limits it cannot apply: the controller, and why (the host's reasons, when
 * they are why; else the container's parent lacks it). */
static int check_controllers(const struct cgroup_limits *l, const char *leaf, const char *top,
                             struct error *err)
{
        unsigned have = cgroup_available_to(leaf, top);
        for (int k = 0; k < CGROUP_NCTRL; k++) {
                if (!(l->need & CGROUP_BIT(k)) || (have & CGROUP_BIT(k)))
                        continue;
                struct cgroup_host h;
                cgroup_host_gather(&h);
                bool host = !(h.available & CGROUP_BIT(k));
                /* (the host's reason for the controller, the most basic first: host/cgroupfacts.c)
                 */
                error_set(err, 0, "the %s limits cannot be applied: %s", cgroup_ctrl_name(k),
                          !host ? "the container's parent cgroup does not have that controller"
                                : h.ctrl_why[k]);
                return error_hint(err, "%s",
                                  !host ? "the cgroup above the container's must have it (for a "
                                          "user, systemd delegates it: Delegate=)"
                                        : h.ctrl_fix[k]);
        }
        return 0;
}

int ocicgroup_update(const struct oci_runtime *rt, const char *id, const char *name, FILE *f,
                     struct error *err)
{
        struct cgroup_limits l;
        if (oci_load_resources(name, f, &l, err) < 0)
                return -1;
        struct stored o;
        if (ocistate_open(rt, id, true, &o, err) < 0)
                return -1;
        enum store_status status = store_status(&o);
        char leaf[1200], top[1024];
        int r = -1;
        if (status == STORE_STOPPED || status == STORE_CREATING)
                error_set(err, 0, "container \"%s\" is %s: nothing to update", id,
                          store_status_name(status));
        else if (own_cgroup(&o, id, "limit", leaf, sizeof leaf, top, sizeof top, err) == 0 &&
                 (!l.need || check_controllers(&l, leaf, top, err) == 0)) {
                struct trace t = {.on = false};
                r = l.need ? cgroup_update(leaf, top, &l, &t, err) : 0;
        }
        store_close(&o);
        return r;
}
