/* enter.c - `crib exec`: a new process in a running container, in the same namespaces, root and
 * security settings as its workload.
 *
 * Kernel features: pidfd_open(2) (Linux 5.3) and setns(2) with a pidfd and several CLONE_NEW*
 * flags at once (Linux 5.8), which joins every namespace of that process in one call, or fails
 * with ESRCH once the process is gone, so a container that stops between the lookup and the
 * join is never mistaken for another process with the same pid; on older kernels the files of
 * /proc/PID/ns, opened through a /proc/PID directory checked to be that process, one setns(2)
 * each (the trace says so), user namespaces level by level from crib's down (ioctl_ns(2):
 * NS_GET_PARENT, NS_GET_USERNS, Linux 4.9), since the workload's namespaces may be owned by two
 * of them and joining one needs CAP_SYS_ADMIN in its owner. clone(2) with CLONE_PARENT, so the
 * process that runs in the container is crib exec's own child though another process made it;
 * chroot(2) into the root of the workload, opened through /proc/PID/root.
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
 *
 * Three processes. crib exec's own (the parent) stays outside the container: it relays the
 * terminal, forwards signals and waits, as container.c does for `crib run`. Without -t, where
 * its own 0, 1 or 2 is a terminal, the process gets a pipe in its place, which the parent
 * relays while the process runs (relay.h): no process of the container ever holds the user's
 * terminal. The joiner, forked
 * from it, joins the namespaces and takes on the workload's settings; since setns(CLONE_NEWPID)
 * moves only the children of the caller into the pid namespace, it then starts the process that
 * will exec (the entered process) with clone(CLONE_PARENT): a child of the parent, in the
 * container's pid namespace. The joiner sends its pid to the parent (SYNC_PID) and exits; the
 * entered process waits for that exit (a pipe's EOF) before it speaks, so their messages on the
 * one sync socket stay in order. EOF after SYNC_EXEC means the program runs, as for `crib run`.
 *
 * The order, and why: no process the container can see is ever more privileged than its
 * workload (tests/e2e/20-exec.t holds each moment and looks).
 *   1. the parent: everything that needs no privilege in the container, before any join: the
 *      exec's plan (argv, environment, cwd, ids; the ids checked against the id maps), the
 *      workload's pid, its pidfd, its /proc directory and root, the host's /proc; signals
 *      blocked.
 *   2. the joiner: death signal, then not dumpable (PR_SET_DUMPABLE 0) BEFORE the setns; every
 *      descriptor closed but the sync socket, the workload's /proc directory, root and pidfd,
 *      and the host's /proc (fds.c); the plan's limits, still outside, where root may raise a
 *      hard limit (as the parent does for `crib run`: rlimits.c); the AppArmor request for the
 *      workload's profile at exec, through the host's /proc, which it then closes; the join.
 *      From here it holds every capability of the container's user namespace, and is in none
 *      of its pid namespaces: no process of the container can name it, so none can signal,
 *      ptrace or read it. In the workload's order it becomes root of the user namespace, takes
 *      the workload's root (closing what named the workload: from here on nothing of the host
 *      is open, so no path of the container's, /dev/ptmx or the working directory, can lead
 *      out through /proc/self/fd), opens the terminal, sets no_new_privs, loads the plan's
 *      seccomp program if the plan has no no_new_privs (as OCI configs may: the kernel then
 *      asks for CAP_SYS_ADMIN, which it holds there), limits the bounding set, switches to the
 *      container user (then not dumpable again: the change of ids may set it to
 *      fs.suid_dumpable), sets the capabilities, umask and cwd, the cwd checked to be inside
 *      the container's root (creds.c). Only then the clone.
 *   3. the entered process: born with all of that (ids, capabilities, no_new_privs, the
 *      filter when the joiner loaded it, root, cwd, the AppArmor request, not dumpable: a fork
 *      copies each), so from its first instruction it is no more privileged than the workload;
 *      with no_new_privs it loads the seccomp program itself (so a profile that forbids
 *      clone(2) does not stop the joiner's clone), takes the terminal, closes every descriptor
 *      but 0, 1, 2 and the sync socket (none of the plan's pass_fds, which were `crib run`'s),
 *      and execs. Its status shows what the workload's does: CapEff, CapBnd, NoNewPrivs,
 *      Seccomp 2 with the same Seccomp_filters count as the workload's (crib's init has one
 *      more, its own: init.c), ids, the links of /proc/self/ns.
 *
 * What the container can do to it: replace any program in its rootfs (exec runs what the
 * container has, looked up on its PATH, as the container user); signal the entered process (in
 * the container's pid namespace: the workload, as container root, may kill it: a denial of
 * service only); not ptrace it nor open its /proc files (not dumpable: that needs
 * CAP_SYS_PTRACE in the user namespace that owns its memory, the host's, where crib was exec'd).
 * A workload with CAP_SYS_ADMIN could mount over /proc in its own mount namespace, which the
 * joiner joins, to swallow the AppArmor request (CVE-2025-52881 did this to runc): so the
 * request goes through the host's /proc, opened before the join (child.h: procfd), a
 * descriptor that neither the entered process nor exec'd code ever holds. With a terminal, the
 * pty is opened at /dev/ptmx of the container, as `crib run` does.
 */
#define _GNU_SOURCE
#include "enter.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capname.h"
#include "cgroup.h"
#include "child.h"
#include "cleanup.h"
#include "procfile.h"
#include "pty.h"
#include "relay.h"
#include "rlimits.h"
#include "sync.h"
#include "sys.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* The namespaces a process of the container can be in. */
#define NS_FLAGS                                                                                   \
        (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET | \
         CLONE_NEWCGROUP)

/* The state of crib exec, from the parent's first step to its last; the joiner and the entered
 * process get their copies with the fork. */
struct enter {
        struct child c; /* the joiner's and the entered process's (steps read `c.plan`) */
        const struct plan *plan;
        struct plan q; /* the exec's plan: the container's, with the request's argv, ... */
        char **envp;   /* q's environment (malloc'd) */
        const struct enter_request *rq;
        const struct container_hooks *hooks;
        struct trace trace;
        pid_t wpid;      /* the workload's process, as the host sees it */
        uint64_t wstart; /* and its start time */
        int pidfd;       /* its pidfd, or -1 (before Linux 5.3) */
        int procdir;     /* its /proc/PID, checked to be it */
        int rootfd;      /* its root */
        int hostproc;    /* the host's /proc, for the AppArmor request */
        int cgroupfd;    /* the workload's cgroup, when it has one; else -1 */
        struct sync_chan chan;
        int child_end; /* the joiner's end of the sync socket, until the fork */
        int sigfd;
        bool blocked;
        sigset_t old, pending;
        pid_t joiner, proc; /* the joiner, the entered process (from SYNC_PID), or -1 */
        bool joiner_reaped, proc_reaped, exec_seen, have_error;
        bool proc_exited; /* detached: it exited, left unreaped for our parent (WNOWAIT) */
        int status;
        struct error child_err;
        struct relay relay;
        /* without -t, in place of crib exec's own 0, 1 and 2 where each is a terminal: the
         * process's ends of pipes (-1: it gets crib exec's own), and ours, which we relay */
        int io[3], io_ours[3];
        bool piped;
};

#define ENTER(child) ((struct enter *)((char *)(child)-offsetof(struct enter, c)))

static void emit_hook(void *ctx, const char *line)
{
        const struct container_hooks *h = ctx;
        if (h->trace)
                h->trace(h->ctx, line);
}

/* --- the parent: before any join ---------------------------------------------------------- */

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

static int container_gone(pid_t pid, struct error *err)
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

/* The workload's process: see the top of this file. */
static int find_workload(struct enter *e, struct error *err)
{
        const struct plan *p = e->plan;
        const struct enter_request *rq = e->rq;
        uint64_t first_start;
        if (check_first(rq, &first_start, err) < 0)
                return -1;
        e->wpid = rq->pid;
        e->wstart = first_start;
        if (p->init && (p->clone_flags & CLONE_NEWPID)) {
                _cleanup_close_ int dir = open_proc_dir(rq->pid);
                if (dir < 0 || read_inner_pid(dir) != 1) {
                        error_set(err, ESRCH,
                                  "pid %d is not crib's init: it is not pid 1 of a pid "
                                  "namespace",
                                  (int)rq->pid);
                        return error_hint(err, "the container has stopped, or is stopping");
                }
        }
        if (p->init && rq->workload > 0) {
                /* the process crib recorded when the workload ran: not a number inside, which
                 * the setup's own children (nft, [network]) can take first */
                e->wpid = rq->workload;
                e->wstart = rq->workload_start;
        } else if (p->init) {
                /* recorded by an older crib: the oldest child of crib's init; any later one
                 * was an orphan init adopted */
                pid_t kids[256];
                size_t n = list_children(rq->pid, kids, 256);
                e->wpid = -1;
                for (size_t i = 0; i < n; i++) {
                        _cleanup_close_ int dir = open_proc_dir(kids[i]);
                        pid_t ppid;
                        uint64_t start;
                        if (dir < 0 || read_stat(dir, &ppid, &start) < 0 || ppid != rq->pid)
                                continue;
                        if (e->wpid > 0 &&
                            (start > e->wstart || (start == e->wstart && kids[i] > e->wpid)))
                                continue;
                        e->wpid = kids[i];
                        e->wstart = start;
                }
                if (e->wpid < 0) {
                        error_set(err, ESRCH, "crib's init (pid %d) has no workload process",
                                  (int)rq->pid);
                        return error_hint(err, "the container is starting or stopping; try "
                                               "again");
                }
        }
        /* pinned now: the pidfd and the directory each name one process for good */
        e->pidfd = (int)syscall(SYS_pidfd_open, e->wpid, 0);
        int pidfd_errno = errno;
        e->procdir = open_proc_dir(e->wpid);
        pid_t ppid;
        uint64_t start;
        if (p->init && rq->workload > 0 &&
            (e->procdir < 0 || read_stat(e->procdir, &ppid, &start) < 0 || start != e->wstart ||
             ppid != rq->pid)) {
                error_set(err, ESRCH, "the container's workload (pid %d) has ended",
                          (int)rq->workload);
                return error_hint(err,
                                  "crib's init (pid %d) still waits for what the workload "
                                  "left running; 'crib stop' ends it",
                                  (int)rq->pid);
        }
        if (e->procdir < 0 || read_stat(e->procdir, &ppid, &start) < 0)
                return container_gone(e->wpid, err);
        if (start != e->wstart || (p->init && ppid != rq->pid)) {
                error_set(err, ESRCH,
                          "the container's workload (pid %d) changed while crib "
                          "looked it up",
                          (int)e->wpid);
                return error_hint(err, "the container has stopped, or is stopping");
        }
        if (p->init && check_first(rq, &first_start, err) < 0)
                return -1;
        trace_line(&e->trace, "  the workload is pid %d (start tick %llu%s); pidfd_open() = %d%s%s",
                   (int)e->wpid, (unsigned long long)e->wstart,
                   !p->init           ? ""
                   : rq->workload > 0 ? ", crib's init's child, as crib recorded it"
                                      : ", crib's init's first child",
                   e->pidfd, e->pidfd < 0 ? " " : "", e->pidfd < 0 ? strerror(pidfd_errno) : "");
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
static int find_cgroup(struct enter *e, struct error *err)
{
        const struct plan *p = e->plan;
        char path[1200];
        if (!p->cgroup || (!p->cgroup_base[0] && !p->cgroup_path[0]))
                return 0;
        if (cgroup_of(e->procdir, path, sizeof path) < 0) {
                if (kill(e->wpid, 0) < 0)
                        return container_gone(e->wpid, err);
                error_set(err, EPERM, "cannot tell the cgroup of the container's workload");
                return error_hint(err, "its /proc/%d/cgroup does not say one cgroup v2 path",
                                  (int)e->wpid);
        }
        if (!container_cgroup(p, path)) {
                error_set(err, EPERM,
                          "the container's workload is in the cgroup '%s', not in its "
                          "container's under '%s'",
                          path, p->cgroup_path[0] ? p->cgroup_path : p->cgroup_base);
                return error_hint(err, "was it started by this crib?");
        }
        e->cgroupfd = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (e->cgroupfd < 0)
                return error_set(err, errno, "cannot open the workload's cgroup '%s'", path);
        trace_line(&e->trace, "  its cgroup: %s", path);
        /* moving a process between two cgroups needs write access to their common ancestor:
         * a user whose own cgroup systemd did not delegate gets a scope for crib exec too,
         * beside the container's, in the subtree that is theirs */
        char scope[1200], name[96];
        snprintf(name, sizeof name, "exec-%s", p->cgroup_name[0] ? p->cgroup_name : "run");
        if (p->cgroup_systemd && !p->cgroup_path[0] &&
            cgroup_systemd_scope(name, &e->trace, scope, sizeof scope, err) < 0)
                return -1;
        return 0;
}

/* Its root, which the entered process takes with chroot(2), and the host's /proc. */
static int open_root(struct enter *e, struct error *err)
{
        e->rootfd = openat(e->procdir, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (e->rootfd < 0) {
                if (errno == ESRCH || errno == ENOENT)
                        return container_gone(e->wpid, err);
                return error_set(err, errno,
                                 "cannot open the root of the container's workload "
                                 "(/proc/%d/root)",
                                 (int)e->wpid);
        }
        e->hostproc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (e->hostproc < 0)
                return error_set(err, errno, "cannot open '/proc'");
        trace_line(&e->trace, "  open(\"/proc/%d/root\") = %d; open(\"/proc\") = %d", (int)e->wpid,
                   e->rootfd, e->hostproc);
        return find_cgroup(e, err);
}

/* The plan's environment with the request's K=V added or put in place of the same K. */
static int merge_env(struct enter *e, struct error *err)
{
        static char *none[] = {NULL};
        char **base = e->rq->env_replace ? none : e->plan->envp, **add = e->rq->env;
        size_t nb = 0, na = 0;
        while (base[nb])
                nb++;
        while (add && add[na])
                na++;
        e->envp = calloc(nb + na + 1, sizeof *e->envp);
        if (!e->envp)
                return error_set(err, ENOMEM, "cannot build the environment");
        memcpy(e->envp, base, nb * sizeof *base);
        size_t n = nb;
        for (size_t i = 0; i < na; i++) {
                const char *eq = strchr(add[i], '=');
                if (!eq || eq == add[i]) {
                        error_set(err, 0, "environment entry '%s' is not NAME=VALUE", add[i]);
                        return error_hint(err, "write it as -e NAME=VALUE");
                }
                size_t k = (size_t)(eq - add[i]) + 1;
                size_t j = 0;
                while (j < n && strncmp(e->envp[j], add[i], k))
                        j++;
                e->envp[j] = add[i];
                if (j == n)
                        n++;
        }
        return 0;
}

/* The exec's plan: the container's, with the request's program, environment, working
 * directory and ids, a terminal when asked, no init and none of `crib run`'s pass_fds. */
static int plan_exec(struct enter *e, struct error *err)
{
        if (fds_check_stdio(err) < 0)
                return -1;
        const struct plan *p = e->plan;
        const struct enter_request *rq = e->rq;
        if (!rq->argv || !rq->argv[0] || !rq->argv[0][0])
                return error_set(err, 0, "'crib exec' needs a program to run");
        if (rq->user_set && p->userns) {
                if (idmap_outside(&p->uidmap, rq->uid) < 0 ||
                    idmap_outside(&p->gidmap, rq->gid) < 0) {
                        error_set(err, 0, "%s %u is not mapped in the container",
                                  idmap_outside(&p->uidmap, rq->uid) < 0 ? "uid" : "gid",
                                  idmap_outside(&p->uidmap, rq->uid) < 0 ? (unsigned)rq->uid
                                                                         : (unsigned)rq->gid);
                        return error_hint(err, "the container's ids are those its uid and gid "
                                               "maps name ('crib run --trace' shows them)");
                }
        }
        for (size_t i = 0; rq->groups_set && i < rq->ngroups; i++)
                if (p->userns && idmap_outside(&p->gidmap, rq->groups[i]) < 0) {
                        error_set(err, 0, "supplementary group %u is not mapped in the container",
                                  (unsigned)rq->groups[i]);
                        return error_hint(err, "the container's ids are those its gid map names");
                }
        if (rq->groups_set && rq->ngroups && !p->set_groups) {
                error_set(err, 0,
                          "the container cannot set supplementary groups (its user "
                          "namespace denies setgroups)");
                return error_hint(err, "ask for none (additionalGids)");
        }
        if (rq->caps_set && (rq->caps & ~p->cap_bounding)) {
                uint64_t more = rq->caps & ~p->cap_bounding;
                int cap = __builtin_ctzll(more);
                error_set(err, 0,
                          "capability %d (%s) is not in the container's bounding set: an exec "
                          "gets at most what a process of the container can have",
                          cap, capname_of(cap));
                return error_hint(err, "ask for a subset of the container's set, or create the "
                                       "container with it");
        }
        if (rq->apparmor && rq->apparmor[0] && strcmp(rq->apparmor, p->apparmor)) {
                error_set(err, 0, "AppArmor profile '%s' is not the container's ('%s')",
                          rq->apparmor, p->apparmor[0] ? p->apparmor : "none");
                return error_hint(err, "an exec runs under the container's profile");
        }
        if (rq->cwd && rq->cwd[0] != '/') {
                error_set(err, 0, "working directory '%s' is not an absolute path", rq->cwd);
                return error_hint(err, "give the directory inside the container from its root, "
                                       "such as /tmp");
        }
        if (merge_env(e, err) < 0)
                return -1;
        e->q = *p;
        e->q.argv = rq->argv;
        e->q.envp = e->envp;
        if (rq->cwd)
                e->q.cwd = rq->cwd;
        if (rq->user_set) {
                e->q.uid = rq->uid;
                e->q.gid = rq->gid;
                e->q.groups = NULL; /* no supplementary groups, where they can be set */
                e->q.ngroups = 0;
        }
        if (rq->groups_set) {
                e->q.groups = rq->groups;
                e->q.ngroups = rq->ngroups;
        }
        if (rq->caps_set) {
                e->q.cap_bounding = e->q.cap_permitted = e->q.cap_effective = rq->caps;
                bool none = e->q.uid != 0 && rq->caps_no_ambient;
                e->q.cap_inheritable = e->q.cap_ambient = e->q.uid == 0 || none ? 0 : rq->caps;
                if (none)
                        e->q.cap_permitted = e->q.cap_effective = 0;
        } else {
                /* the workload's rule for the exec's uid: -u 1000 gets only what the spec
                 * named, -u 0 the bounding set, whatever the workload's own uid is */
                plan_caps_for_uid(&e->q, e->q.uid);
        }
        e->q.no_new_privs = p->no_new_privs || rq->no_new_privs;
        if (rq->limits_set) {
                size_t n = rq->nlimits < SPEC_NLIMITS ? rq->nlimits : SPEC_NLIMITS;
                memcpy(e->q.rlimits, rq->limits, n * sizeof *rq->limits);
                e->q.nrlimits = n;
        }
        e->q.terminal = rq->tty;
        e->q.init = false;
        e->q.pass_fds = NULL;
        e->q.npass_fds = 0;
        return 0;
}

static int open_sync(struct enter *e, struct error *err)
{
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return error_set(err, errno, "cannot create the sync socket");
        e->chan.fd = sv[0];
        e->child_end = sv[1];
        return 0;
}

static int block_signals(struct enter *e, struct error *err)
{
        sigset_t set;
        forwarded_signals(&set);
        sigaddset(&set, SIGCHLD);
        /* and SIGPIPE, which a write to the stdin pipe of a process that closed it would send
         * (the relay sees EPIPE); taken back before the mask is restored (container_enter) */
        sigset_t with_pipe = set;
        sigaddset(&with_pipe, SIGPIPE);
        sigprocmask(SIG_BLOCK, &with_pipe, &e->old);
        e->blocked = true;
        e->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
        if (e->sigfd < 0)
                return error_set(err, errno, "cannot create a signalfd");
        return 0;
}

/* Without -t, crib exec's own 0, 1 and 2 are the process's, except a terminal: a process of
 * the container that outlives the exec must never hold the user's terminal (it would read
 * what is typed at the shell's prompt later, or write over it), so each of those becomes a
 * pipe that crib exec relays while the process runs, as podman's exec does. Detached (OCI exec
 * --detach), nobody relays: /dev/null instead. A pipe or file the caller gave stays as it is. */
static int open_pipes(struct enter *e, struct error *err)
{
        if (e->rq->tty)
                return 0; /* a pty of the container's own, relayed */
        for (int fd = 0; fd < 3; fd++) {
                if (!isatty(fd))
                        continue;
                if (e->rq->detach) {
                        e->io[fd] = open("/dev/null", (fd ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
                        if (e->io[fd] < 0)
                                return error_set(err, errno, "cannot open /dev/null");
                        continue;
                }
                int p[2];
                if (pipe2(p, O_CLOEXEC) < 0)
                        return error_set(err, errno, "cannot make a pipe");
                e->io[fd] = fd == 0 ? p[0] : p[1];
                e->io_ours[fd] = fd == 0 ? p[1] : p[0];
                e->piped = true;
        }
        trace_line(&e->trace, "  the process's fds 0-2: %s, %s, %s",
                   e->io[0] < 0    ? "ours"
                   : e->rq->detach ? "/dev/null"
                                   : "a pipe (our terminal)",
                   e->io[1] < 0    ? "ours"
                   : e->rq->detach ? "/dev/null"
                                   : "a pipe (our terminal)",
                   e->io[2] < 0    ? "ours"
                   : e->rq->detach ? "/dev/null"
                                   : "a pipe (our terminal)");
        return 0;
}

/* --- the joiner --------------------------------------------------------------------------- */

static _Noreturn void joiner_main(struct enter *e);

static int fork_joiner(struct enter *e, struct error *err)
{
        e->joiner = e->cgroupfd >= 0 ? cgroup_clone_into(e->cgroupfd, 0) : fork();
        if (e->joiner == 0)
                joiner_main(e);
        int fork_errno = errno;
        close(e->child_end);
        e->child_end = -1;
        for (int fd = 0; fd < 3; fd++)
                if (e->io[fd] >= 0) {
                        close(e->io[fd]);
                        e->io[fd] = -1;
                }
        if (e->piped) {
                relay_start_pipes(&e->relay, e->io_ours[0], e->io_ours[1], e->io_ours[2]);
                e->io_ours[0] = e->io_ours[1] = e->io_ours[2] = -1; /* the relay's now */
        }
        trace_line(&e->trace, "  %s = %d (the joiner)",
                   e->cgroupfd >= 0 ? "clone3(CLONE_INTO_CGROUP), into the workload's cgroup"
                                    : "fork()",
                   (int)e->joiner);
        if (e->joiner < 0 && fork_errno == EAGAIN && e->cgroupfd >= 0) {
                error_set(err, EAGAIN, "cannot start a process in the container's cgroup");
                return error_hint(err, "it may be at its pids limit (pids.max)");
        }
        if (e->joiner < 0)
                return error_set(err, fork_errno, "cannot fork");
        return 0;
}

/* Joiner: killed with crib exec, and (as the setup process is once its maps are written) not
 * dumpable, before it joins anything. */
static int joiner_attributes(struct child *c, struct error *err)
{
        int r = prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        int d = r < 0 ? -1 : prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        trace_line(&c->trace,
                   "  prctl(PR_SET_PDEATHSIG, SIGKILL) = %d; prctl(PR_SET_DUMPABLE, 0) "
                   "= %d",
                   r, d);
        if (r < 0 || d < 0)
                return error_set(err, errno, "cannot set the attributes of the joining process");
        struct pollfd pfd = {.fd = c->chan.fd, .events = POLLIN};
        if (poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLHUP | POLLERR)))
                _exit(125); /* crib exec is gone */
        return 0;
}

/* Joiner: still outside, where root may raise a hard limit. */
static int joiner_limits(struct child *c, struct error *err)
{
        return rlimits_apply(c->plan, 0, &c->trace, err);
}

/* The namespaces a fallback join opens, in the order it joins those of one user namespace
 * (nsenter's: mount last). */
static const struct {
        int flag;
        const char *name;
} ns_files[] = {
        {CLONE_NEWIPC, "ipc"},   {CLONE_NEWUTS, "uts"},       {CLONE_NEWNET, "net"},
        {CLONE_NEWPID, "pid"},   {CLONE_NEWCGROUP, "cgroup"}, {CLONE_NEWNS, "mnt"},
        {CLONE_NEWUSER, "user"}, /* last here: joined apart, level by level */
};
#define N_NS_FILES       (sizeof ns_files / sizeof ns_files[0])
#define MAX_USERNS_DEPTH 8

static bool same_file(int a, int b)
{
        struct stat sa, sb;
        return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
               sa.st_ino == sb.st_ino;
}

/* Joiner, before Linux 5.8: the files of /proc/PID/ns, through the checked directory. A
 * namespace may only be joined with CAP_SYS_ADMIN in the user namespace that owns it, and the
 * workload's namespaces are owned by two of them when it has its own (lockmounts.c): so the
 * user namespaces are joined from ours down to the workload's (NS_GET_PARENT), and after each
 * the namespaces it owns (NS_GET_USERNS), all opened and sorted before the first join. */
static int join_by_files(struct child *c, struct enter *e, int flags, struct error *err)
{
        int fds[N_NS_FILES], owner[N_NS_FILES], chain[MAX_USERNS_DEPTH];
        size_t depth = 0;
        int ret = -1, self = -1;
        for (size_t i = 0; i < N_NS_FILES; i++)
                fds[i] = owner[i] = -1;
        for (size_t i = 0; i < N_NS_FILES; i++) {
                char path[32];
                if (!(flags & ns_files[i].flag))
                        continue;
                snprintf(path, sizeof path, "ns/%s", ns_files[i].name);
                fds[i] = openat(e->procdir, path, O_RDONLY | O_CLOEXEC);
                if (fds[i] < 0) {
                        if (errno == ESRCH || errno == ENOENT)
                                container_gone(e->wpid, err);
                        else
                                error_set(err, errno, "cannot open /proc/%d/%s", (int)e->wpid,
                                          path);
                        goto out;
                }
                if (ns_files[i].flag != CLONE_NEWUSER)
                        owner[i] = ioctl(fds[i], NS_GET_USERNS);
        }
        size_t user = N_NS_FILES - 1;
        self = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
        if (fds[user] >= 0) {
                /* the chain of user namespaces from the workload's up to below ours */
                int u = dup(fds[user]);
                while (u >= 0 && !same_file(u, self) && depth < MAX_USERNS_DEPTH) {
                        chain[depth++] = u;
                        u = ioctl(u, NS_GET_PARENT);
                }
                if (u < 0 || depth == MAX_USERNS_DEPTH) {
                        error_set(err, u < 0 ? errno : ELOOP,
                                  "cannot find the user namespaces between crib's and the "
                                  "container's");
                        if (u >= 0)
                                close(u);
                        goto out;
                }
                close(u);
        }
        /* level by level: those our own user namespace owns, then each user namespace of the
         * chain, outermost first, and those it owns */
        for (size_t k = depth + 1; k-- > 0;) {
                int level = k == depth ? self : chain[k];
                if (k < depth) {
                        if (setns(chain[k], CLONE_NEWUSER) < 0) {
                                error_set(err, errno,
                                          "cannot join the user namespace of the container");
                                goto out;
                        }
                        trace_line(&c->trace,
                                   "  setns(user namespace %zu of %zu, CLONE_NEWUSER) = 0",
                                   depth - k, depth);
                }
                for (size_t i = 0; i + 1 < N_NS_FILES; i++) {
                        if (fds[i] < 0 || owner[i] < 0 || !same_file(owner[i], level))
                                continue;
                        if (setns(fds[i], ns_files[i].flag) < 0) {
                                error_set(err, errno,
                                          "cannot join the %s namespace of the container",
                                          ns_files[i].name);
                                goto out;
                        }
                        trace_line(&c->trace, "  setns(/proc/%d/ns/%s) = 0", (int)e->wpid,
                                   ns_files[i].name);
                        close(fds[i]);
                        fds[i] = -1;
                }
        }
        for (size_t i = 0; i + 1 < N_NS_FILES; i++)
                if (fds[i] >= 0) { /* owned by no user namespace on the way: not ours to join */
                        error_set(err, EPERM,
                                  "cannot join the %s namespace of the container: "
                                  "its owner is not on the way to the workload's",
                                  ns_files[i].name);
                        goto out;
                }
        ret = 0;
out:
        for (size_t i = 0; i < N_NS_FILES; i++) {
                if (fds[i] >= 0)
                        close(fds[i]);
                if (owner[i] >= 0)
                        close(owner[i]);
        }
        for (size_t k = 0; k < depth; k++)
                close(chain[k]);
        if (self >= 0)
                close(self);
        return ret;
}

static int enter_root(struct child *c, struct error *err);
static int joiner_seccomp(struct child *c, struct error *err);
static int stay_not_dumpable(struct child *c, struct error *err);

/* Joiner: every namespace of the workload: one setns(2) on its pidfd, else one per file. */
static int joiner_setns(struct child *c, struct error *err)
{
        struct enter *e = ENTER(c);
        const struct plan *p = c->plan;
        int flags = (p->clone_flags | p->nest_flags) & NS_FLAGS;
        char names[256];
        trace_clone_flags((unsigned long)flags, names, sizeof names);
        if (e->pidfd >= 0) {
                int r = setns(e->pidfd, flags);
                int se = errno;
                trace_line(&c->trace, "  setns(pidfd of %d, %s) = %d", (int)e->wpid, names, r);
                if (r == 0)
                        return 0;
                if (se == ESRCH)
                        return container_gone(e->wpid, err);
                if (se != EINVAL)
                        return error_set(err, se, "cannot join the namespaces of the container");
                trace_line(&c->trace,
                           "  setns(2) takes no pidfd (before Linux 5.8): joining "
                           "/proc/%d/ns/* one at a time",
                           (int)e->wpid);
        } else {
                trace_line(&c->trace,
                           "  no pidfd_open(2) (before Linux 5.3): joining "
                           "/proc/%d/ns/* one at a time",
                           (int)e->wpid);
        }
        return join_by_files(c, e, flags, err);
}

/* Joiner: first of all. The pipes crib exec relays become 0, 1 and 2 (without -t, in place of
 * crib exec's terminal); of everything else crib exec held (its state, its log, what it
 * inherited, the workload's cgroup it was cloned into) only the sync socket stays, with what
 * names the workload (its /proc directory, root and pidfd) and the host's /proc, each closed
 * as soon as it has served (fds.c). */
static int joiner_close_fds(struct child *c, struct error *err)
{
        struct enter *e = ENTER(c);
        for (int fd = 0; fd < 3; fd++)
                if (e->io[fd] >= 0 && dup2(e->io[fd], fd) < 0)
                        return error_set(err, errno, "cannot give the process its fd %d", fd);
        int keep[] = {c->chan.fd, e->procdir, e->rootfd, e->pidfd, e->hostproc};
        if (fds_close_all_but(keep, sizeof keep / sizeof keep[0], err) < 0)
                return -1;
        for (int fd = 0; fd < 3; fd++)
                e->io[fd] = e->io_ours[fd] = -1;
        e->cgroupfd = -1;
        trace_line(&c->trace,
                   "  close_range() but 0-2%s, the sync socket, the workload's /proc directory, "
                   "root and pidfd, and the host's /proc",
                   e->piped ? " (pipes crib exec relays)" : "");
        return 0;
}

/* Joiner: the AppArmor request written, it needs the host's /proc no more; the entered
 * process never holds it, nor does any process in the container's namespaces. */
static int close_host_proc(struct child *c, struct error *err)
{
        (void)err;
        struct enter *e = ENTER(c);
        close(e->hostproc);
        e->hostproc = c->procfd = -1;
        trace_line(&c->trace, "  close(host /proc)");
        return 0;
}

/* The joiner's table. It is in no pid namespace of the container (setns(CLONE_NEWPID) moves
 * only its children there), so no process of the container can name it, let alone signal,
 * ptrace or read it: it holds every capability of the container's user namespace while it
 * takes on the workload's settings, and the entered process it starts is born with them. */
static const struct step joiner_steps[] = {
        /* first: nothing of the container may reach into this process from now on */
        {"set the parent-death signal and make this process not dumpable", joiner_attributes},
        /* before any join: of crib exec's descriptors only those this table needs stay */
        {"close every descriptor the joiner does not need", joiner_close_fds},
        /* before the join: the host's CAP_SYS_RESOURCE (root's) still counts */
        {"set the limits", joiner_limits},
        /* still outside, through the host's /proc (procfd): a workload with CAP_SYS_ADMIN may
         * have mounted over its own /proc to swallow the request (CVE-2025-52881). It holds
         * for this process's next exec, and the entered process inherits it */
        {"set the AppArmor profile for exec", step_apparmor},
        /* before the join: no descriptor of the host's /proc is open in the container's
         * namespaces, where a working directory of /proc/self/fd/N would reach it (with
         * pid = no, the container's /proc shows this process) */
        {"close the host's /proc", close_host_proc},
        /* not dumpable already; the pidfd fails with ESRCH if the workload is gone */
        {"join the workload's namespaces", joiner_setns},
        /* the setup's ids: what it creates (a pty) is container root's */
        {"become root in the user namespace", step_become_root},
        /* the workload's root: names from here on are the container's, and the descriptors
         * that named the workload are closed: only 0, 1, 2 and the sync socket stay */
        {"enter the workload's root", enter_root},
        /* -t: in the container's devpts, as the setup opens the workload's */
        {"open the terminal", step_open_terminal},
        /* before the filter (the entered process loads it), which needs it */
        {"set no_new_privs", step_no_new_privs},
        /* without no_new_privs (OCI configs may have none) the kernel asks for CAP_SYS_ADMIN,
         * which we hold here, where the workload's table loads it; the entered process is born
         * under it. With no_new_privs the entered process loads it, after the clone, so a
         * profile that forbids clone(2) still lets crib exec start it */
        {"load the seccomp filter, if there is no no_new_privs", joiner_seccomp},
        /* while we still hold CAP_SETPCAP */
        {"limit the capability bounding set", step_bounding_set},
        /* last change of ids */
        {"switch to the container user", step_switch_user},
        /* the change of ids may have reset it */
        {"stay not dumpable", stay_not_dumpable},
        /* every set as the plan says: what the entered process is born with */
        {"set capabilities", step_capabilities},
        /* as the container user, with nothing of the host open; checked to be inside the
         * container's root */
        {"set umask and working directory", step_umask_cwd},
};

/* The entered process's table, at the end of this file. */
static const struct table entered;

/* Joiner: start the entered process in the container's pid namespace, a child of crib exec,
 * tell crib exec its pid, and exit. */
static _Noreturn void spawn(struct enter *e)
{
        struct child *c = &e->c;
        struct error err;
        error_clear(&err);
        int hold[2];
        if (pipe2(hold, O_CLOEXEC) < 0) {
                error_set(&err, errno, "cannot create a pipe");
                step_failed(c, &err);
        }
        pid_t pid = (pid_t)syscall(SYS_clone, CLONE_PARENT | SIGCHLD, NULL, NULL, NULL, NULL);
        if (pid == 0) {
                /* speak only once the joiner is gone: its SYNC_PID comes first */
                char b;
                close(hold[1]);
                while (read(hold[0], &b, 1) < 0 && errno == EINTR)
                        ;
                close(hold[0]);
                c->chan.send_seq++; /* the joiner's SYNC_PID */
                steps_run(c, &entered);
                _exit(125); /* not reached: the last step execs or fails */
        }
        if (pid < 0) {
                error_set(&err, errno, "cannot start a process in the container");
                step_failed(c, &err);
        }
        /* one message, and nothing else after the clone (the entered process counts on it) */
        struct sync_msg m = {.type = SYNC_PID};
        m.u.pid = pid;
        if (sync_send(&c->chan, &m, -1, &err) < 0)
                kill(pid, SIGKILL);
        _exit(0); /* closes `hold`: the entered process goes on */
}

static _Noreturn void joiner_main(struct enter *e)
{
        close(e->chan.fd);
        close(e->sigfd);
        struct child *c = &e->c;
        *c = (struct child){
                .plan = &e->q,
                .chan = {.fd = e->child_end},
                .trace = {.on = e->plan->trace, .emit = child_emit_over_sync},
                .pty_slave = -1,
                .rootfd = -1,
                .rootfs_tree = -1,
                .init_ready = -1,
                .init_go = -1,
                .procfd = e->hostproc,
                .start_fd = -1,
                /* the fault tests' hook, as for crib run (steps.c): wait before that step */
                .stop_at = getenv("CRIB_TEST_STOP_AT"),
                .nsteps = sizeof joiner_steps / sizeof joiner_steps[0] + entered.n,
        };
        c->trace.ctx = c;
        forwarded_signals(&c->forwarded);
        steps_run(c, &(struct table){joiner_steps, sizeof joiner_steps / sizeof joiner_steps[0]});
        spawn(e);
}

/* --- the joiner's steps after the join, and the entered process's --------------------------- */

/* Joiner: the workload's root (setns(CLONE_NEWNS) gave the mount namespace's), as its cwd
 * too until the plan's cwd; the descriptors that named the workload are closed. */
static int enter_root(struct child *c, struct error *err)
{
        struct enter *e = ENTER(c);
        int r = fchdir(e->rootfd);
        if (r == 0)
                r = chroot(".");
        int ce = errno;
        trace_line(&c->trace, "  fchdir(/proc/%d/root); chroot(\".\") = %d", (int)e->wpid, r);
        if (r < 0)
                return error_set(err, ce, "cannot enter the root of the container");
        close(e->rootfd);
        close(e->procdir);
        if (e->pidfd >= 0)
                close(e->pidfd);
        e->rootfd = e->procdir = e->pidfd = -1;
        /* nothing else was open (joiner_close_fds); said once more where it counts */
        int keep[] = {c->chan.fd};
        return fds_close_all_but(keep, 1, err);
}

/* Joiner: the plan's filter when there is no no_new_privs (the entered process loads it
 * otherwise: entered_seccomp). */
static int joiner_seccomp(struct child *c, struct error *err)
{
        if (c->plan->no_new_privs)
                return 0;
        return step_seccomp(c, err);
}

/* Joiner: the change of ids may have made us dumpable again (fs.suid_dumpable): not so. */
static int stay_not_dumpable(struct child *c, struct error *err)
{
        int r = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        trace_line(&c->trace, "  prctl(PR_SET_DUMPABLE, 0) = %d", r);
        if (r < 0)
                return error_set(err, errno, "cannot make the process not dumpable");
        return 0;
}

/* Entered: crib exec's go-ahead, once it knows our pid (and forwards signals to us). */
static int entered_go(struct child *c, struct error *err)
{
        struct sync_msg m;
        int r = sync_recv(&c->chan, &m, NULL, err);
        if (r == 0)
                _exit(125); /* crib exec is gone */
        if (r < 0)
                return -1;
        if (m.type != SYNC_GO)
                return error_set(err, EPROTO, "expected the go-ahead, got message %u", m.type);
        trace_line(&c->trace, "  read(sync) = GO");
        return 0;
}

/* Entered: the plan's filter, when no_new_privs lets us load it without CAP_SYS_ADMIN (else
 * the joiner did: joiner_seccomp) */
static int entered_seccomp(struct child *c, struct error *err)
{
        if (!c->plan->no_new_privs)
                return 0;
        return step_seccomp(c, err);
}

/* Entered: with --detach, crib exec returns once we exec, and its parent (conmon, containerd's
 * shim: subreapers) adopts us, so its death must not kill us; until here it would have. */
static int entered_detach(struct child *c, struct error *err)
{
        if (!ENTER(c)->rq->detach)
                return 0;
        int r = prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0);
        trace_line(&c->trace, "  prctl(PR_SET_PDEATHSIG, 0) = %d (detached)", r);
        if (r < 0)
                return error_set(err, errno, "cannot clear the parent-death signal");
        return 0;
}

/* The entered process: in the container's namespaces and pid namespace, born with the
 * workload's ids, capabilities, no_new_privs, root and cwd (the joiner's), not dumpable. */
static const struct step entered_steps[] = {
        /* first: crib exec dying kills us (a fork does not inherit it) */
        {"set the parent-death signal", step_parent_death},
        /* crib exec knows us (we are in the workload's cgroup already, from the joiner) */
        {"wait for crib exec's go-ahead", entered_go},
        /* detached (OCI exec --detach): we outlive crib exec, adopted by its parent */
        {"clear the parent-death signal if detached", entered_detach},
        /* with no_new_privs; the steps below run under it, as the workload's table does */
        {"load the seccomp filter, with no_new_privs", entered_seccomp},
        /* a session of its own; the pty as controlling terminal */
        {"attach to the terminal", step_attach_terminal},
        /* only 0, 1, 2 reach the program; nothing of the host was open since the join */
        {"close every descriptor the program does not need", step_close_fds},
        /* on success the sync socket closes: crib exec sees EOF */
        {"exec the program", step_exec},
};

static const struct table entered = {entered_steps, sizeof entered_steps / sizeof entered_steps[0]};

/* --- the parent: following the two --------------------------------------------------------- */

static void forward(struct enter *e, int sig)
{
        if (e->proc > 0 && !e->proc_reaped) {
                trace_line(&e->trace, "parent: kill(%d, %s) (forwarded)", (int)e->proc,
                           sigabbrev_np(sig));
                kill(e->proc, sig);
        } else {
                sigaddset(&e->pending, sig); /* passed on once we know the process */
        }
}

static void reap(struct enter *e)
{
        int st;
        if (!e->joiner_reaped && e->joiner > 0 && waitpid(e->joiner, &st, WNOHANG) == e->joiner)
                e->joiner_reaped = true;
        if (e->rq->detach && e->proc > 0 && !e->proc_exited) {
                /* detached: noticed, never reaped: its status is for our parent, the
                 * subreaper that adopts it (a program that exits at once included) */
                siginfo_t si = {.si_pid = 0};
                if (waitid(P_PID, (id_t)e->proc, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                    si.si_pid == e->proc)
                        e->proc_exited = true;
        } else if (!e->rq->detach && !e->proc_reaped && e->proc > 0 &&
                   waitpid(e->proc, &e->status, WNOHANG) == e->proc) {
                e->proc_reaped = true;
        }
}

/* The entered process waits (entered_go) for our go-ahead: we know its pid, so a signal for it
 * is forwarded from here on. It is in the workload's cgroup already, from the joiner's. */
static int send_go(struct enter *e, struct error *err)
{
        struct sync_msg go = {.type = SYNC_GO};
        return sync_send(&e->chan, &go, -1, err);
}

static int on_message(struct enter *e, struct error *err)
{
        struct sync_msg m;
        int fd = -1;
        int n = sync_recv(&e->chan, &m, &fd, err);
        if (n <= 0) {
                close(e->chan.fd);
                e->chan.fd = -1;
                return n;
        }
        switch (m.type) {
        case SYNC_TRACE:
                emit_hook((void *)e->hooks, m.u.text);
                break;
        case SYNC_WARN:
                if (e->hooks->warn)
                        e->hooks->warn(e->hooks->ctx, m.u.text);
                break;
        case SYNC_PID:
                if (e->proc > 0 || m.u.pid <= 0)
                        return error_set(err, EPROTO, "unexpected pid message");
                e->proc = m.u.pid;
                trace_line(&e->trace,
                           "  the joiner's clone(CLONE_PARENT) = %d: our child, in the "
                           "container's pid namespace",
                           (int)e->proc);
                for (int sig = 1; sig < NSIG; sig++)
                        if (sigismember(&e->pending, sig) == 1)
                                forward(e, sig);
                sigemptyset(&e->pending);
                if (send_go(e, err) < 0)
                        return -1;
                break;
        case SYNC_PTY:
                if (fd < 0)
                        return error_set(err, EPROTO, "terminal message without a descriptor");
                if (e->hooks->pty)
                        e->hooks->pty(e->hooks->ctx, fd); /* it closes it */
                else
                        relay_start(&e->relay, fd);
                fd = -1;
                break;
        case SYNC_EXEC:
                e->exec_seen = true;
                break;
        case SYNC_ERROR:
                if (!e->have_error) {
                        sync_error_of(&m, &e->child_err);
                        e->have_error = true;
                }
                break;
        default:
                if (fd >= 0)
                        close(fd);
                return error_set(err, EPROTO, "unexpected sync message %u", m.type);
        }
        if (fd >= 0)
                close(fd);
        return 1;
}

static void on_signal(struct enter *e)
{
        struct signalfd_siginfo si;
        while (read(e->sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
                int sig = (int)si.ssi_signo;
                if (sig == SIGCHLD)
                        continue; /* reaped below */
                if (sig == SIGWINCH && e->relay.master >= 0)
                        pty_copy_size(STDIN_FILENO, e->relay.master);
                forward(e, sig);
        }
}

/* Until the joiner is reaped, the entered process too (when there is one), and the socket
 * closed: every message read. */
static int follow(struct enter *e, struct error *err)
{
        for (;;) {
                reap(e);
                /* detached: the program runs (EOF after SYNC_EXEC, no error): it is left to
                 * our parent, which adopts it when we exit */
                bool left = e->rq->detach && (e->proc_exited || (e->exec_seen && !e->have_error));
                if (e->chan.fd < 0 && e->joiner_reaped && (e->proc <= 0 || e->proc_reaped || left))
                        break;
                struct pollfd pfd[2 + RELAY_MAX_POLL];
                int n = 0, i_chan = -1, i_sig;
                if (e->chan.fd >= 0)
                        pfd[i_chan = n++] = (struct pollfd){.fd = e->chan.fd, .events = POLLIN};
                pfd[i_sig = n++] = (struct pollfd){.fd = e->sigfd, .events = POLLIN};
                int i_relay = n, nrelay = relay_poll(&e->relay, pfd + n);
                n += nrelay;
                if (poll(pfd, (nfds_t)n, -1) < 0) {
                        if (errno == EINTR)
                                continue;
                        return error_set(err, errno, "poll");
                }
                if (i_chan >= 0 && pfd[i_chan].revents && on_message(e, err) < 0)
                        return -1;
                if (pfd[i_sig].revents)
                        on_signal(e);
                relay_handle(&e->relay, pfd + i_relay, nrelay);
        }
        relay_end(&e->relay);
        return 0;
}

struct parent_step {
        const char *name;
        int (*run)(struct enter *e, struct error *err);
};

/* crib exec's own steps, in order: all it needs before the fork, then following the two. */
static const struct parent_step parent_steps[] = {
        /* the request checked against the plan: bad input changes nothing */
        {"plan the exec", plan_exec},
        /* by pid, start time, pidfd and /proc directory: this very process, or an error */
        {"find the workload's process", find_workload},
        /* opened while we are still outside: its root, and the host's /proc */
        {"open its root", open_root},
        /* the messages of the joiner and the entered process (sync.h) */
        {"create the sync socket", open_sync},
        /* before the fork, so none sent early is lost */
        {"block the forwarded signals", block_signals},
        /* without -t: pipes in place of our terminal, for the process's 0, 1 and 2 */
        {"give the process pipes instead of our terminal", open_pipes},
        /* it joins the namespaces and starts the entered process */
        {"fork the joiner", fork_joiner},
        /* until the entered process exits */
        {"follow the process", follow},
};

int container_enter(const struct plan *p, const struct enter_request *rq,
                    const struct container_hooks *h, int *ret_status, struct error *err)
{
        /* large (the plan's copy): on the heap */
        struct enter *e = calloc(1, sizeof *e);
        if (!e)
                return error_set(err, ENOMEM, "cannot start crib exec");
        e->plan = p;
        e->rq = rq;
        e->hooks = h;
        e->trace = (struct trace){.on = p->trace, .emit = emit_hook, .ctx = (void *)h};
        e->pidfd = e->procdir = e->rootfd = e->hostproc = e->cgroupfd = -1;
        e->chan.fd = e->child_end = e->sigfd = -1;
        e->joiner = e->proc = -1;
        relay_init(&e->relay);
        for (int fd = 0; fd < 3; fd++)
                e->io[fd] = e->io_ours[fd] = -1;
        sigemptyset(&e->pending);
        int ret = -1;
        const size_t n = sizeof parent_steps / sizeof parent_steps[0];
        for (size_t i = 0; i < n; i++) {
                trace_line(&e->trace, "parent: step %2zu/%zu  %s", i + 1, n, parent_steps[i].name);
                if (parent_steps[i].run(e, err) < 0) {
                        if (e->proc > 0 && !e->proc_reaped) {
                                kill(e->proc, SIGKILL);
                                while (waitpid(e->proc, NULL, 0) < 0 && errno == EINTR)
                                        ;
                        }
                        if (e->joiner > 0 && !e->joiner_reaped) {
                                kill(e->joiner, SIGKILL);
                                while (waitpid(e->joiner, NULL, 0) < 0 && errno == EINTR)
                                        ;
                        }
                        relay_end(&e->relay);
                        goto out;
                }
        }
        /* detached, and it never ran the program: ours to reap, for its status */
        if (rq->detach && e->proc_exited && (e->have_error || !e->exec_seen) &&
            waitpid(e->proc, &e->status, 0) == e->proc)
                e->proc_reaped = true;
        if (e->have_error) {
                *err = e->child_err;
                goto out;
        }
        if (!e->exec_seen) {
                if (e->proc > 0 && WIFSIGNALED(e->status))
                        error_set(err, 0,
                                  "the process entering the container was killed by signal %d "
                                  "(%s) before it ran '%s'",
                                  WTERMSIG(e->status), sigabbrev_np(WTERMSIG(e->status)),
                                  rq->argv[0]);
                else
                        error_set(err, 0,
                                  "the process entering the container ended before it "
                                  "ran '%s'",
                                  rq->argv[0]);
                goto out;
        }
        if (rq->detach) {
                trace_line(&e->trace, "parent: detached: process %d is left to our parent",
                           (int)e->proc);
                if (h->created)
                        h->created(h->ctx, e->proc, e->proc);
                e->status = 0;
        }
        *ret_status = e->status;
        ret = 0;
out:;
        int fds[] = {e->pidfd, e->procdir, e->rootfd, e->hostproc, e->cgroupfd};
        for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
                if (fds[i] >= 0)
                        close(fds[i]);
        if (e->chan.fd >= 0)
                close(e->chan.fd);
        if (e->child_end >= 0)
                close(e->child_end);
        if (e->sigfd >= 0)
                close(e->sigfd);
        for (int fd = 0; fd < 3; fd++) {
                if (e->io[fd] >= 0)
                        close(e->io[fd]);
                if (e->io_ours[fd] >= 0)
                        close(e->io_ours[fd]);
        }
        relay_end(&e->relay);
        if (e->blocked) {
                /* a SIGPIPE the relay got (EPIPE) is not ours to die of */
                sigset_t pipe_set;
                sigemptyset(&pipe_set);
                sigaddset(&pipe_set, SIGPIPE);
                while (sigtimedwait(&pipe_set, NULL, &(struct timespec){0, 0}) == SIGPIPE)
                        ;
                sigprocmask(SIG_SETMASK, &e->old, NULL);
        }
        free(e->envp);
        free(e);
        return ret;
}
