/* joinns.c - a container in namespaces that exist already: an OCI config's
 * .linux.namespaces[].path (podman's network namespace, a pod's, `--network container:X`,
 * `ctr run --with-ns`), joined before the setup process is cloned.
 *
 * Kernel features: setns(2) on each namespace file, checked to be of the expected type with
 * ioctl_ns(2) NS_GET_NSTYPE on the very descriptor joined; then clone(2), or clone3(2) with
 * CLONE_INTO_CGROUP, with CLONE_PARENT, so the setup process is the parent's own child (as
 * `crib exec`'s entered process is: enter.c), in the joined namespaces and the new ones.
 *
 * A process of its own does the joining, so the parent stays in the host's namespaces for all
 * it still does (its cgroup, the engine's hooks, the state files): it forks, joins, clones and
 * exits, and its one message is the setup process's pid, or what failed. setns(CLONE_NEWPID)
 * moves only the caller's later children, which is why it clones rather than execs. The order
 * is runc's intent with crib's means: every namespace the caller may join as it is, first;
 * then the user namespace; then those only its root may join (an unprivileged caller's own
 * user namespace owns them).
 *
 * Against the container: once it is in a joined user namespace, a process of that namespace
 * (another container of a pod) holds every capability over it, and could ptrace it and take
 * the host's descriptors it carries (the rootfs, the bind sources: CVE-2019-5736's shape).
 * So before it joins one it makes itself not dumpable, and the setup process it clones
 * inherits that; nothing needs either dumpable, since a joined namespace's maps are not
 * written.
 */
#define _GNU_SOURCE
#include "joinns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "host/host.h"
#include "steps/userns.h"

/* By enum spec_ns: each namespace's flag and name. */
static const struct {
        int flag;
        const char *name;
} kinds[SPEC_NNS] = {
        [SPEC_NS_USER] = {CLONE_NEWUSER, "user"},  [SPEC_NS_PID] = {CLONE_NEWPID, "pid"},
        [SPEC_NS_IPC] = {CLONE_NEWIPC, "ipc"},     [SPEC_NS_UTS] = {CLONE_NEWUTS, "uts"},
        [SPEC_NS_NET] = {CLONE_NEWNET, "network"}, [SPEC_NS_CGROUP] = {CLONE_NEWCGROUP, "cgroup"},
};

/* The intermediate's one message. */
struct joined {
        pid_t pid;     /* the setup process, or -1 */
        int errnum;    /* what failed: a setns(2) (`failed` is its enum spec_ns) or the clone */
        int failed;    /* enum spec_ns, or -1 for the clone */
        unsigned late; /* the namespaces joined after the user namespace, by 1 << spec_ns */
};

static void close_all(int *fds)
{
        for (int i = 0; i < SPEC_NNS; i++)
                if (fds[i] >= 0) {
                        close(fds[i]);
                        fds[i] = -1;
                }
}

/* Intermediate: join, clone, report; never returns. */
static void intermediate(const struct plan *p, int *fds, int cgroup, int out, void (*child)(void *),
                         void *ctx)
{
        struct joined j = {.pid = -1, .failed = -1};
        /* a joined user namespace's root may ptrace what is dumpable in it */
        if (fds[SPEC_NS_USER] >= 0 && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
                j.errnum = errno;
                goto report;
        }
        /* those we may join as we are, then the user namespace, then the rest */
        for (int pass = 0; pass < 2; pass++) {
                for (int i = 0; i < SPEC_NNS; i++) {
                        if (i == SPEC_NS_USER || fds[i] < 0)
                                continue;
                        if (setns(fds[i], kinds[i].flag) == 0) {
                                close(fds[i]);
                                fds[i] = -1;
                                j.late |= pass ? 1u << i : 0;
                        } else if (pass || errno != EPERM || fds[SPEC_NS_USER] < 0) {
                                j.errnum = errno;
                                j.failed = i;
                                goto report;
                        }
                }
                if (pass == 0 && fds[SPEC_NS_USER] >= 0) {
                        if (setns(fds[SPEC_NS_USER], CLONE_NEWUSER) < 0) {
                                j.errnum = errno;
                                j.failed = SPEC_NS_USER;
                                goto report;
                        }
                        close(fds[SPEC_NS_USER]);
                        fds[SPEC_NS_USER] = -1;
                }
        }
        uint64_t flags = (uint64_t)(unsigned)p->clone_flags | CLONE_PARENT;
        j.pid = cgroup >= 0 ? cgroup_clone_into(cgroup, flags)
                            : (pid_t)syscall(SYS_clone, (unsigned long)flags | SIGCHLD, NULL, NULL,
                                             NULL, NULL);
        if (j.pid == 0) {
                close(out);
                child(ctx);
                _exit(125);
        }
        j.errnum = j.pid < 0 ? errno : 0;
report:
        while (write(out, &j, sizeof j) < 0 && errno == EINTR)
                ;
        _exit(0);
}

/* Parent: the intermediate's message, and the intermediate reaped. */
static int wait_intermediate(pid_t mid, int in, struct joined *j)
{
        ssize_t n;
        while ((n = read(in, j, sizeof *j)) < 0 && errno == EINTR)
                ;
        while (waitpid(mid, NULL, 0) < 0 && errno == EINTR)
                ;
        if (n != (ssize_t)sizeof *j)
                return -1;
        /* the pid is our child's, or it is no pid of ours */
        siginfo_t info;
        if (j->pid > 0 && waitid(P_PID, (id_t)j->pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
                return -1;
        return 0;
}

pid_t joinns_clone(const struct plan *p, int cgroup, void (*child)(void *ctx), void *ctx,
                   struct trace *t, struct error *err)
{
        int fds[SPEC_NNS];
        for (int i = 0; i < SPEC_NNS; i++)
                fds[i] = -1;
        /* each file opened here, and its type checked on the descriptor joined */
        for (int i = 0; i < SPEC_NNS; i++) {
                if (!p->join_path[i])
                        continue;
                int type = 0;
                fds[i] = nsfile_open(p->join_path[i], &type);
                if (fds[i] < 0 || type != kinds[i].flag) {
                        int e = fds[i] < 0 ? -fds[i] : EINVAL;
                        if (fds[i] >= 0)
                                close(fds[i]);
                        fds[i] = -1;
                        close_all(fds);
                        if (e == ENOTTY || e == EINVAL)
                                return error_set(err, 0, "'%s' is not a %s namespace",
                                                 p->join_path[i], kinds[i].name);
                        return error_set(err, e, "cannot open the %s namespace '%s'", kinds[i].name,
                                         p->join_path[i]);
                }
                trace_line(t, "  open(\"%s\") = %d: a %s namespace (NS_GET_NSTYPE)",
                           p->join_path[i], fds[i], kinds[i].name);
        }
        int pipefd[2];
        if (pipe2(pipefd, O_CLOEXEC) < 0) {
                close_all(fds);
                return error_set(err, errno, "cannot make a pipe");
        }
        pid_t mid = fork();
        if (mid == 0) {
                close(pipefd[0]);
                intermediate(p, fds, cgroup, pipefd[1], child, ctx);
        }
        int fork_errno = errno;
        close(pipefd[1]);
        close_all(fds);
        if (mid < 0) {
                close(pipefd[0]);
                return error_set(err, fork_errno, "cannot fork to join the namespaces");
        }
        struct joined j;
        int r = wait_intermediate(mid, pipefd[0], &j);
        close(pipefd[0]);
        if (r < 0)
                return error_set(err, EPROTO, "the process that joins the namespaces failed");
        for (int i = 0; i < SPEC_NNS; i++)
                if (p->join_path[i] && (j.failed < 0 || (j.failed != i && !(j.late & 1u << i))))
                        trace_line(t, "  fork() = %d: setns(\"%s\", CLONE_NEW%s) = 0%s", (int)mid,
                                   p->join_path[i],
                                   i == SPEC_NS_NET    ? "NET"
                                   : i == SPEC_NS_USER ? "USER"
                                   : i == SPEC_NS_PID  ? "PID"
                                   : i == SPEC_NS_IPC  ? "IPC"
                                   : i == SPEC_NS_UTS  ? "UTS"
                                                       : "CGROUP",
                                   j.late & 1u << i ? ", after the user namespace" : "");
        if (j.failed >= 0) {
                error_set(err, j.errnum, "cannot join the %s namespace '%s'", kinds[j.failed].name,
                          p->join_path[j.failed]);
                return error_hint(err, "joining a namespace needs CAP_SYS_ADMIN in the user "
                                       "namespace that owns it: run the runtime as root, or as "
                                       "root of that user namespace (rootless podman does)");
        }
        if (j.pid < 0)
                return userns_clone_error(p->clone_flags, j.errnum, p->front, err);
        trace_line(t, "  the setup process is %d, cloned (CLONE_PARENT) in the joined namespaces",
                   (int)j.pid);
        return j.pid;
}
