/* join.c - `crib exec`'s joiner enters the namespaces of the container's workload.
 *
 * Kernel features: setns(2) with a pidfd and several CLONE_NEW* flags at once (Linux 5.8), which
 * joins every namespace of that process in one call, or fails with ESRCH once the process is
 * gone, so a container that stops between the lookup and the join is never mistaken for another
 * process with the same pid; on older kernels the files of /proc/PID/ns, opened through a
 * /proc/PID directory checked to be that process, one setns(2) each (the trace says so), user
 * namespaces level by level from crib's down (ioctl_ns(2): NS_GET_PARENT, NS_GET_USERNS, Linux
 * 4.9), since the workload's namespaces may be owned by two of them and joining one needs
 * CAP_SYS_ADMIN in its owner.
 *
 * The joiner does this in its table (enter.c), after it made itself not dumpable and closed
 * what it does not need, and before it takes the workload's root.
 */
#define _GNU_SOURCE
#include "join.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"

/* The namespaces a process of the container can be in. */
#define NS_FLAGS                                                                                   \
        (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET | \
         CLONE_NEWCGROUP)

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

/* Joiner: the files of the namespaces in `flags`, through the workload's checked /proc
 * directory, in fds (by ns_files' order), and the user namespace that owns each in owner. */
static int open_ns_files(const struct workload *w, int flags, int *fds, int *owner,
                         struct error *err)
{
        for (size_t i = 0; i < N_NS_FILES; i++) {
                char path[32];
                if (!(flags & ns_files[i].flag))
                        continue;
                snprintf(path, sizeof path, "ns/%s", ns_files[i].name);
                fds[i] = openat(w->procdir, path, O_RDONLY | O_CLOEXEC);
                if (fds[i] < 0) {
                        if (errno == ESRCH || errno == ENOENT)
                                return container_gone(w->pid, err);
                        return error_set(err, errno, "cannot open /proc/%d/%s", (int)w->pid, path);
                }
                if (ns_files[i].flag != CLONE_NEWUSER)
                        owner[i] = ioctl(fds[i], NS_GET_USERNS);
        }
        return 0;
}

/* Joiner: the chain of user namespaces from `user` (the workload's) up to below `self` (ours),
 * innermost first, in chain[0..*ret_depth) (the caller closes them, also on an error). */
static int userns_chain(int user, int self, int *chain, size_t *ret_depth, struct error *err)
{
        size_t depth = 0;
        int u = dup(user);
        while (u >= 0 && !same_file(u, self) && depth < MAX_USERNS_DEPTH) {
                chain[depth++] = u;
                u = ioctl(u, NS_GET_PARENT);
        }
        *ret_depth = depth;
        if (u < 0 || depth == MAX_USERNS_DEPTH) {
                error_set(err, u < 0 ? errno : ELOOP,
                          "cannot find the user namespaces between crib's and the "
                          "container's");
                if (u >= 0)
                        close(u);
                return -1;
        }
        close(u);
        return 0;
}

/* Joiner: the namespaces of fds the user namespace `level` owns, each closed once joined. */
static int join_owned(const struct workload *w, int level, int *fds, const int *owner,
                      struct trace *t, struct error *err)
{
        for (size_t i = 0; i + 1 < N_NS_FILES; i++) {
                if (fds[i] < 0 || owner[i] < 0 || !same_file(owner[i], level))
                        continue;
                if (setns(fds[i], ns_files[i].flag) < 0)
                        return error_set(err, errno,
                                         "cannot join the %s namespace of the container",
                                         ns_files[i].name);
                trace_line(t, "  setns(/proc/%d/ns/%s) = 0", (int)w->pid, ns_files[i].name);
                close(fds[i]);
                fds[i] = -1;
        }
        return 0;
}

/* Joiner, before Linux 5.8: the files of /proc/PID/ns, through the checked directory. A
 * namespace may only be joined with CAP_SYS_ADMIN in the user namespace that owns it, and the
 * workload's namespaces are owned by two of them when it has its own (lockmounts.c): so the
 * user namespaces are joined from ours down to the workload's (NS_GET_PARENT), and after each
 * the namespaces it owns (NS_GET_USERNS), all opened and sorted before the first join. */
static int join_by_files(const struct workload *w, int flags, struct trace *t, struct error *err)
{
        int fds[N_NS_FILES], owner[N_NS_FILES], chain[MAX_USERNS_DEPTH];
        size_t depth = 0, user = N_NS_FILES - 1;
        int ret = -1, self = -1;
        for (size_t i = 0; i < N_NS_FILES; i++)
                fds[i] = owner[i] = -1;
        if (open_ns_files(w, flags, fds, owner, err) < 0)
                goto out;
        self = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
        if (fds[user] >= 0 && userns_chain(fds[user], self, chain, &depth, err) < 0)
                goto out;
        /* level by level: those our own user namespace owns, then each user namespace of the
         * chain, outermost first, and those it owns */
        for (size_t k = depth + 1; k-- > 0;) {
                if (k < depth) {
                        if (setns(chain[k], CLONE_NEWUSER) < 0) {
                                error_set(err, errno,
                                          "cannot join the user namespace of the container");
                                goto out;
                        }
                        trace_line(t, "  setns(user namespace %zu of %zu, CLONE_NEWUSER) = 0",
                                   depth - k, depth);
                }
                if (join_owned(w, k == depth ? self : chain[k], fds, owner, t, err) < 0)
                        goto out;
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

/* Joiner: the user namespace of a container crib made as root of an engine's (rootless podman
 * runs the runtime so, and its config.json asks for none): the plan names no user namespace,
 * but crib exec, run by the user outside it, must join that one first. Only the one that owns
 * the workload's mount namespace, never one the workload made for itself, which owns none of
 * the container's. CLONE_NEWUSER when it is to be joined, else 0. */
static int engine_userns(const struct workload *w, int flags)
{
        if (flags & CLONE_NEWUSER)
                return 0;
        _cleanup_close_ int user = openat(w->procdir, "ns/user", O_RDONLY | O_CLOEXEC);
        _cleanup_close_ int mnt = openat(w->procdir, "ns/mnt", O_RDONLY | O_CLOEXEC);
        _cleanup_close_ int owner = mnt < 0 ? -1 : ioctl(mnt, NS_GET_USERNS);
        _cleanup_close_ int self = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
        return user >= 0 && owner >= 0 && self >= 0 && same_file(user, owner) &&
                               !same_file(user, self)
                       ? CLONE_NEWUSER
                       : 0;
}

/* Joiner: every namespace of the workload: one setns(2) on its pidfd, else one per file. */
int join_namespaces(const struct plan *p, const struct workload *w, struct trace *t,
                    struct error *err)
{
        /* the namespaces it made, and those it joined by path (an engine's network) */
        int flags = (p->clone_flags | p->nest_flags | p->join_flags) & NS_FLAGS;
        flags |= engine_userns(w, flags);
        char names[256];
        trace_clone_flags((unsigned long)flags, names, sizeof names);
        if (w->pidfd >= 0) {
                int r = setns(w->pidfd, flags);
                int se = errno;
                trace_line(t, "  setns(pidfd of %d, %s) = %d", (int)w->pid, names, r);
                if (r == 0)
                        return 0;
                if (se == ESRCH)
                        return container_gone(w->pid, err);
                if (se != EINVAL)
                        return error_set(err, se, "cannot join the namespaces of the container");
                trace_line(t,
                           "  setns(2) takes no pidfd (before Linux 5.8): joining "
                           "/proc/%d/ns/* one at a time",
                           (int)w->pid);
        } else {
                trace_line(t,
                           "  no pidfd_open(2) (before Linux 5.3): joining "
                           "/proc/%d/ns/* one at a time",
                           (int)w->pid);
        }
        return join_by_files(w, flags, t, err);
}
