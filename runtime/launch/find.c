/* find.c - which process of a running container `crib exec` enters, and making sure it is
 * that very process.
 *
 * Kernel features: pidfd_open(2) (Linux 5.3), a descriptor that names one process for good
 * (join.c joins its namespaces through it); /proc/PID/stat's start time (field 22), to tell a
 * process from another that got its pid later; /proc/PID/cgroup, for the cgroup the joiner is
 * cloned into (clone3(2) CLONE_INTO_CGROUP, enter.c).
 *
 * Which process: the workload's, not crib's init, because a workload that keeps CAP_SYS_ADMIN
 * lives in namespaces of its own below the container's (lockmounts.c: plan->nest_flags). With
 * init = no it is the container's first process itself; with crib's init it is the process crib
 * recorded when the workload ran (record.h): the kernel named it as the sender of the
 * workload's last message before its exec (SCM_CREDENTIALS, sync.h), with its start time. Not a
 * number inside: the setup's own children (nft for [network]) take the first ones. A container
 * an older crib started has no such record: then init's child that started first (the others
 * are orphans of the workload, started after it), read from /proc/PID/task/PID/children, or
 * else from every process's PPid. Each pid is checked against its start time (field 22 of
 * /proc/PID/stat) and its parent, before and after its pidfd and /proc directory are open, so a
 * pid that was reused by another process is refused; with a pid namespace, crib's init must be
 * pid 1 of it.
 */
#define _GNU_SOURCE
#include "find.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "base/cleanup.h"
#include "base/procfile.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* Field 4 (ppid) and 22 (start time) of /proc/PID/stat, read through its directory; -1 also
 * for a process that has exited (a zombie, state Z or X, waiting to be reaped). */
static int read_stat(int dir, pid_t *ret_ppid, uint64_t *ret_start)
{
        char buf[1024];
        _cleanup_close_ int fd = openat(dir, "stat", O_RDONLY | O_CLOEXEC);
        ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
        if (n <= 0)
                return -1;
        buf[n] = '\0';
        char *p = strrchr(buf, ')'); /* the command may hold spaces and parentheses */
        if (!p)
                return -1;
        p++;
        if (p[0] != ' ' || p[1] == 'Z' || p[1] == 'X')
                return -1;
        unsigned long long v[19] = {0}; /* fields 4 to 22 */
        int field = 2;                  /* the last one read */
        char *save = NULL;
        for (char *t = strtok_r(p, " ", &save); t && field < 22; t = strtok_r(NULL, " ", &save)) {
                field++;
                if (field >= 4)
                        v[field - 4] = strtoull(t, NULL, 10);
        }
        if (field < 22)
                return -1;
        *ret_ppid = (pid_t)v[0];
        *ret_start = v[18];
        return 0;
}

/* The pid in the innermost pid namespace (the last field of NSpid), or -1. */
static long read_inner_pid(int dir)
{
        char line[256];
        long last = -1;
        int fd = openat(dir, "status", O_RDONLY | O_CLOEXEC);
        _cleanup_fclose_ FILE *f = fd < 0 ? NULL : fdopen(fd, "re");
        if (!f) {
                if (fd >= 0)
                        close(fd);
                return -1;
        }
        while (fgets(line, sizeof line, f))
                if (!strncmp(line, "NSpid:", 6)) {
                        char *save = NULL;
                        for (char *t = strtok_r(line + 6, " \t\n", &save); t;
                             t = strtok_r(NULL, " \t\n", &save))
                                last = strtol(t, NULL, 10);
                        break;
                }
        return last;
}

static int open_proc_dir(pid_t pid)
{
        char path[64];
        snprintf(path, sizeof path, "/proc/%d", (int)pid);
        return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* The children of `parent`: /proc/PID/task/PID/children (one thread: crib's init has one),
 * or else every process whose PPid is `parent`. How many, at most `max`. */
static size_t list_children(pid_t parent, pid_t *ret, size_t max)
{
        char path[96];
        size_t n = 0;
        snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)parent, (int)parent);
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        if (f) {
                long v;
                while (n < max && fscanf(f, "%ld", &v) == 1)
                        ret[n++] = (pid_t)v;
                return n;
        }
        return procfile_children(parent, ret, max);
}

int container_gone(pid_t pid, struct error *err)
{
        error_set(err, ESRCH, "the container's process %d is gone", (int)pid);
        return error_hint(err, "the container has stopped");
}

/* The container's first process is still the one the caller recorded; its start time. */
static int check_first(const struct enter_request *rq, uint64_t *ret_start, struct error *err)
{
        _cleanup_close_ int dir = open_proc_dir(rq->pid);
        pid_t ppid;
        uint64_t start;
        if (dir < 0 || read_stat(dir, &ppid, &start) < 0)
                return container_gone(rq->pid, err);
        if (rq->start && start != rq->start) {
                error_set(err, ESRCH,
                          "pid %d is not the container's process any more (it started at tick "
                          "%llu, the container at %llu)",
                          (int)rq->pid, (unsigned long long)start, (unsigned long long)rq->start);
                return error_hint(err, "the container has stopped, and another process got its "
                                       "pid");
        }
        *ret_start = start;
        return 0;
}

/* With a pid namespace, crib's init is pid 1 of it: a pid that names another process now is
 * refused. */
static int check_init(const struct plan *p, const struct enter_request *rq, struct error *err)
{
        if (!p->init || !(p->clone_flags & CLONE_NEWPID))
                return 0;
        _cleanup_close_ int dir = open_proc_dir(rq->pid);
        if (dir < 0 || read_inner_pid(dir) != 1) {
                error_set(err, ESRCH,
                          "pid %d is not crib's init: it is not pid 1 of a pid namespace",
                          (int)rq->pid);
                return error_hint(err, "the container has stopped, or is stopping");
        }
        return 0;
}

/* A container an older crib started, which recorded no workload: the oldest child of crib's
 * init; any later one was an orphan init adopted. */
static int oldest_child(const struct enter_request *rq, struct workload *w, struct error *err)
{
        pid_t kids[256];
        size_t n = list_children(rq->pid, kids, 256);
        w->pid = -1;
        for (size_t i = 0; i < n; i++) {
                _cleanup_close_ int dir = open_proc_dir(kids[i]);
                pid_t ppid;
                uint64_t start;
                if (dir < 0 || read_stat(dir, &ppid, &start) < 0 || ppid != rq->pid)
                        continue;
                if (w->pid > 0 && (start > w->start || (start == w->start && kids[i] > w->pid)))
                        continue;
                w->pid = kids[i];
                w->start = start;
        }
        if (w->pid < 0) {
                error_set(err, ESRCH, "crib's init (pid %d) has no workload process", (int)rq->pid);
                return error_hint(err, "the container is starting or stopping; try again");
        }
        return 0;
}

/* Pinned now: the pidfd and the directory each name one process for good; the directory's is
 * checked to be the one found (start time, and crib's init as its parent). The errno of a
 * pidfd_open that failed in *ret_pidfd_errno. */
static int pin(const struct plan *p, const struct enter_request *rq, struct workload *w,
               int *ret_pidfd_errno, struct error *err)
{
        w->pidfd = (int)syscall(SYS_pidfd_open, w->pid, 0);
        *ret_pidfd_errno = errno;
        w->procdir = open_proc_dir(w->pid);
        pid_t ppid;
        uint64_t start;
        if (p->init && rq->workload > 0 &&
            (w->procdir < 0 || read_stat(w->procdir, &ppid, &start) < 0 || start != w->start ||
             ppid != rq->pid)) {
                error_set(err, ESRCH, "the container's workload (pid %d) has ended",
                          (int)rq->workload);
                return error_hint(err,
                                  "crib's init (pid %d) still waits for what the workload "
                                  "left running; 'crib stop' ends it",
                                  (int)rq->pid);
        }
        if (w->procdir < 0 || read_stat(w->procdir, &ppid, &start) < 0)
                return container_gone(w->pid, err);
        if (start != w->start || (p->init && ppid != rq->pid)) {
                error_set(err, ESRCH,
                          "the container's workload (pid %d) changed while crib "
                          "looked it up",
                          (int)w->pid);
                return error_hint(err, "the container has stopped, or is stopping");
        }
        return 0;
}

/* The workload's process: see the top of this file. */
int find_workload(const struct plan *p, const struct enter_request *rq, struct trace *t,
                  struct workload *w, struct error *err)
{
        uint64_t first_start;
        if (check_first(rq, &first_start, err) < 0)
                return -1;
        w->pid = rq->pid;
        w->start = first_start;
        if (check_init(p, rq, err) < 0)
                return -1;
        if (p->init && rq->workload > 0) {
                /* the process crib recorded when the workload ran: not a number inside, which
                 * the setup's own children (nft, [network]) can take first */
                w->pid = rq->workload;
                w->start = rq->workload_start;
        } else if (p->init && oldest_child(rq, w, err) < 0) {
                return -1;
        }
        int pidfd_errno;
        if (pin(p, rq, w, &pidfd_errno, err) < 0)
                return -1;
        /* and the container's first process is still the one recorded */
        if (p->init && check_first(rq, &first_start, err) < 0)
                return -1;
        trace_line(t, "  the workload is pid %d (start tick %llu%s); pidfd_open() = %d%s%s",
                   (int)w->pid, (unsigned long long)w->start,
                   !p->init           ? ""
                   : rq->workload > 0 ? ", crib's init's child, as crib recorded it"
                                      : ", crib's init's first child",
                   w->pidfd, w->pidfd < 0 ? " " : "", w->pidfd < 0 ? strerror(pidfd_errno) : "");
        return 0;
}

/* path lies in the container's own cgroup, NAME/container, or below it: under the plan's base,
 * in the leaf cgroup_make made for this container's name (crib-NAME as a user; an unnamed one's
 * is run-PID), in systemd's scope for it (crib-NAME-PID.scope) when there is one. Nothing else
 * of the workload's choosing: with SYS_ADMIN it can make cgroups of its own, and another
 * container's must never be joined. The length of path's leaf part (BASE/.../NAME), 0 when it
 * is not such a path. */
static size_t container_cgroup(const struct plan *p, const char *path)
{
        if (p->cgroup_path[0]) {
                /* the engine's: PATH/container, or below it */
                size_t l = strlen(p->cgroup_path);
                if (strncmp(path, p->cgroup_path, l) || strncmp(path + l, "/container", 10) ||
                    (path[l + 10] != '\0' && path[l + 10] != '/') || strstr(path, "/.."))
                        return 0;
                return l;
        }
        size_t bl = strlen(p->cgroup_base);
        if (strncmp(path, p->cgroup_base, bl) || path[bl] != '/' || strstr(path, "/.."))
                return 0;
        const char *rest = path + bl;
        const char *user = geteuid() ? "crib-" : "";
        char want[160];
        if (p->cgroup_systemd) {
                /* .../crib-NAME-PID.scope/crib-NAME/container */
                snprintf(want, sizeof want, "/crib-%s-",
                         p->cgroup_name[0] ? p->cgroup_name : "run");
                const char *scope = strstr(rest, want);
                if (!scope)
                        return 0;
                rest = scope + strlen(want);
                rest += strspn(rest, "0123456789-"); /* PID (an unnamed one's: run-PID-PID) */
                if (strncmp(rest, ".scope/", 7))
                        return 0;
                rest += 6;
        }
        size_t ul = strlen(user);
        if (rest[0] != '/' || strncmp(rest + 1, user, ul))
                return 0;
        rest += 1 + ul;
        size_t nl = strcspn(rest, "/");
        if (p->cgroup_name[0]) {
                if (nl != strlen(p->cgroup_name) || strncmp(rest, p->cgroup_name, nl))
                        return 0;
        } else if (nl <= 4 || strncmp(rest, "run-", 4) ||
                   strspn(rest + 4, "0123456789") != nl - 4) {
                return 0;
        }
        rest += nl;
        if (strncmp(rest, "/container", 10) || (rest[10] != '\0' && rest[10] != '/'))
                return 0;
        return (size_t)(rest - path);
}

bool container_leaf_valid(const struct plan *p, const char *leaf)
{
        char path[1300];
        int n = snprintf(path, sizeof path, "%s/container", leaf);
        return p->cgroup && (p->cgroup_base[0] || p->cgroup_path[0]) && n > 0 &&
               (size_t)n < sizeof path && container_cgroup(p, path) == strlen(leaf);
}

/* The workload's cgroup, when the container has one ([resources], or the device program of a
 * real-root container): the joiner is cloned into it (clone3's CLONE_INTO_CGROUP), so it and
 * the entered process it makes are in it before they touch anything of the container's (the
 * device program judges the joiner's open of /dev/ptmx too). The workload may have moved
 * itself deeper, into a cgroup of its own; never anywhere else (container_cgroup). */
int find_cgroup(const struct plan *p, struct workload *w, struct trace *t, struct error *err)
{
        char path[1200];
        if (!p->cgroup || (!p->cgroup_base[0] && !p->cgroup_path[0]))
                return 0;
        if (cgroup_of(w->procdir, path, sizeof path) < 0) {
                if (kill(w->pid, 0) < 0)
                        return container_gone(w->pid, err);
                error_set(err, EPERM, "cannot tell the cgroup of the container's workload");
                return error_hint(err, "its /proc/%d/cgroup does not say one cgroup v2 path",
                                  (int)w->pid);
        }
        if (!container_cgroup(p, path)) {
                error_set(err, EPERM,
                          "the container's workload is in the cgroup '%s', not in its "
                          "container's under '%s'",
                          path, p->cgroup_path[0] ? p->cgroup_path : p->cgroup_base);
                return error_hint(err, "was it started by this crib?");
        }
        w->cgroupfd = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (w->cgroupfd < 0)
                return error_set(err, errno, "cannot open the workload's cgroup '%s'", path);
        trace_line(t, "  its cgroup: %s", path);
        /* moving a process between two cgroups needs write access to their common ancestor:
         * a user whose own cgroup systemd did not delegate gets a scope for crib exec too,
         * beside the container's, in the subtree that is theirs */
        char scope[1200], name[96];
        snprintf(name, sizeof name, "exec-%s", p->cgroup_name[0] ? p->cgroup_name : "run");
        if (p->cgroup_systemd && !p->cgroup_path[0] &&
            cgroup_systemd_scope(name, t, scope, sizeof scope, err) < 0)
                return -1;
        return 0;
}
