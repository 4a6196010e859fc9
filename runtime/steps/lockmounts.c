/* lockmounts.c - masked and read-only paths that CAP_SYS_ADMIN cannot undo.
 *
 * Kernel feature: locked mounts (mount_namespaces(7), "Restrictions on mount namespaces"), and
 * user namespaces below user namespaces (user_namespaces(7)). The setup makes the masks (an
 * empty read-only tmpfs or /dev/null over /proc/kcore, /sys/firmware, ...) and the read-only
 * paths (/proc/sys, ...) in the container's user namespace, and any process with CAP_SYS_ADMIN
 * in the namespace that made a mount may unmount or remount it. A workload that keeps
 * CAP_SYS_ADMIN (`capabilities = default +SYS_ADMIN`) could then uncover what they hide, or
 * mount a fresh /proc without them. But when a mount namespace is copied into one owned by a
 * less privileged user namespace, the kernel locks every mount of the copy: none can be
 * unmounted to uncover what is under it (EINVAL), their read-only, nosuid, nodev and noexec
 * flags cannot be cleared (EPERM), and no new proc or sysfs may be mounted while a locked mask
 * hides part of the old one. So such a workload gets a user namespace of its own below the
 * container's, and a copy of the mount namespace with it: unshare(CLONE_NEWUSER | CLONE_NEWNS).
 * Its ids are the container's, each mapped to itself, so nothing changes in who owns what.
 *
 * Capabilities count only in the namespaces their user namespace owns, so the workload gets its
 * own network, UTS and cgroup namespaces too (the hostname is copied): a workload with
 * +SYS_ADMIN still binds port 80, opens raw sockets and sets its hostname. What it cannot do
 * any more: mount a /proc (the pid namespace is the container's) or change the IPC namespace's
 * limits. Except with a network helper (pasta, slirp4netns): its tap, the container's published
 * ports and way out are in the container's network namespace, so the workload stays there
 * (plan/confine.c), without NET_RAW or NET_ADMIN as every workload with a helper, and with the
 * ports below 1024 opened by the namespace's sysctl (netns.c).
 *
 * Two ways to the same namespaces:
 *   early (plan.nest_early: the usual case)  the parent made the user namespace before GO,
 *       with the network namespace it owns, the container's only one, which the setup joined
 *       before its first mount (launch/nestns.c, netns.c): here the workload's process joins
 *       the user namespace (setns(2): its euid owns it, from the namespace above) and copies
 *       the mount, UTS and cgroup namespaces. One network namespace, not two: ~0.6 ms less.
 *   late  everything here, after every mount, as below: with a network helper (the workload
 *       stays in the container's network namespace, so no new one is made), and where an
 *       engine's hooks look at the setup's namespaces before GO or namespaces are joined by path
 *       (then the container's network namespace stays crib's init's, lo only, and the workload
 *       gets one of its own, lo up).
 *
 * The late way: the new namespace's maps must be written from the container's namespace by a
 * process with CAP_SETUID, CAP_SETGID and CAP_SETFCAP there, into /proc/PID/uid_map of a process of
 * the new namespace, which must be dumpable so that its /proc files are its own. The workload's
 * process is not dumpable (it shares its memory, and so that flag, with crib's init, which must
 * never be), so a forked child (with its own memory) makes the namespace and becomes dumpable; the
 * workload's process writes that child's maps, joins the namespace with setns(2) (it may: its
 * euid owns the namespace, from the namespace above), and lets the child go without waiting
 * for its exit where crib's init reaps it with any orphan (clone(CLONE_PARENT)); without init
 * (init = no, and every engine's container) this process is the pid namespace's first, which
 * may not use CLONE_PARENT, and it waits. Then it copies the mount namespace, and the others, with
 * unshare(2). crib's init runs no new code.
 *
 * Where it sits: first row of the workload's table (child.c), in the workload's process, after
 * every mount of the setup, while the process still holds every capability of the container's
 * namespace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "step.h"
#include "userns.h"

/* The forked child: a user namespace of its own, dumpable (its memory is its own) so that the
 * workload's process may write its maps; it says so on `ready` (0, or the errno of what
 * failed), then waits until that process has joined it (EOF on `done`), and exits. */
static _Noreturn void make_userns(int ready, int done)
{
        /* nothing of crib's but the two pipes, not the workload's 0, 1 and 2 either */
        const int keep[] = {ready, done};
        struct error ignored;
        fds_close_all_but(keep, 2, &ignored);
        for (int fd = 0; fd < 3; fd++)
                close(fd);
        int e = 0;
        if (unshare(CLONE_NEWUSER) < 0 || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
                e = errno;
        if (write(ready, &e, sizeof e) != sizeof e || e)
                _exit(1);
        char b;
        while (read(done, &b, 1) < 0 && errno == EINTR)
                ;
        _exit(0);
}

/* Start that child. With crib's init (`init = yes`) it is init's child (CLONE_PARENT): init
 * reaps it with the rest, and the workload's process goes on while it exits, where a wait for
 * its exit cost ~0.2 ms here. Without init this process is the pid namespace's first, which
 * may not use CLONE_PARENT, and it reaps the child itself (*reap). */
static pid_t start_helper(struct child *c, int ready[2], int done[2], bool *reap)
{
        *reap = !c->plan->init;
        pid_t child = (pid_t)syscall(SYS_clone, (*reap ? 0UL : CLONE_PARENT) | SIGCHLD, NULL, NULL,
                                     NULL, NULL);
        if (child == 0) {
                close(ready[0]);
                close(done[1]);
                make_userns(ready[1], done[0]);
        }
        return child;
}

/* Join the user namespace of `pid`; the trace says so. 0, or -1 with errno. */
static int join_userns(struct child *c, pid_t pid)
{
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/user", (int)pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        int r = fd < 0 ? -1 : setns(fd, CLONE_NEWUSER);
        int e = errno;
        if (fd >= 0)
                close(fd);
        trace_line(&c->trace, "  setns(%s, CLONE_NEWUSER) = %d", path, r);
        errno = e;
        return r;
}

static int cannot(struct error *err, int e, const char *call)
{
        error_set(err, e,
                  "cannot give the workload, which keeps CAP_SYS_ADMIN, a user namespace of its "
                  "own to lock its mounts: %s",
                  call);
        return error_hint(err, e == EPERM
                                       ? "a seccomp profile that refuses unshare(2) or setns(2), "
                                         "or a container root that is a chroot (the host's / "
                                         "is an initramfs) prevents it; or leave SYS_ADMIN "
                                         "out of capabilities"
                                       : "leave SYS_ADMIN out of capabilities");
}

/* Child: the workload's process, in the container's user namespace. The copies of the mount
 * namespace, and the others this one must own, and lo up when it has a network namespace of its
 * own. */
static int copy_namespaces(struct child *c, int flags, struct error *err)
{
        char names[128], call[160];
        int r = unshare(flags);
        int e = errno;
        snprintf(call, sizeof call, "unshare(%s)",
                 trace_clone_flags((unsigned long)flags, names, sizeof names));
        trace_line(&c->trace, "  %s = %d", call, r);
        if (r < 0)
                return cannot(err, e, call);
        if (flags & CLONE_NEWNET)
                return netns_loopback_up(c, err);
        return 0;
}

/* The same, with the user namespace the parent made (plan.nest_early, launch/nestns.c): it owns
 * the network namespace the setup joined, so only the mount, UTS and cgroup namespaces are
 * copied here. */
static int join_early(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        int r = setns(c->nest_userns, CLONE_NEWUSER);
        int e = errno;
        trace_line(&c->trace, "  setns(fd %d: the user namespace crib made, CLONE_NEWUSER) = %d",
                   c->nest_userns, r);
        close(c->nest_userns);
        c->nest_userns = -1;
        if (r < 0)
                return cannot(err, e, "setns(2)");
        return copy_namespaces(c, p->nest_flags & ~(CLONE_NEWUSER | CLONE_NEWNET), err);
}

/* Child: the workload's process, in the container's user namespace. */
int step_lock_mounts(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        if (!p->nest_flags)
                return step_skip(c, "%s",
                                 !p->userns ? "no user namespace (user = no): there is none to "
                                              "nest below"
                                            : "the workload has no SYS_ADMIN: it cannot undo "
                                              "the setup's mounts");
        if (p->nest_early)
                return join_early(c, err);
        int ready[2], done[2];
        if (pipe2(ready, O_CLOEXEC) < 0)
                return error_set(err, errno, "cannot create a pipe");
        if (pipe2(done, O_CLOEXEC) < 0) {
                int e = errno;
                close(ready[0]);
                close(ready[1]);
                return error_set(err, e, "cannot create a pipe");
        }
        bool reap;
        pid_t child = start_helper(c, ready, done, &reap);
        int e = errno;
        close(ready[1]);
        close(done[0]);
        int status = 0; /* the child's: 0, or the errno of what failed there */
        ssize_t n = -1;
        while (child > 0 && (n = read(ready[0], &status, sizeof status)) < 0 && errno == EINTR)
                ;
        close(ready[0]);
        int r = -1;
        const char *failed = "fork(2)";
        bool maps_failed = false; /* err says why already */
        if (n == sizeof status && status == 0) {
                trace_line(&c->trace, "  clone(%s) = %d: unshare(CLONE_NEWUSER), dumpable",
                           reap ? "SIGCHLD" : "CLONE_PARENT", (int)child);
                r = userns_write_nested_maps(p, child, &c->trace, err);
                maps_failed = r < 0;
                if (r == 0) {
                        failed = "setns(2)";
                        r = join_userns(c, child);
                        e = errno;
                }
        } else if (child > 0) {
                failed = "unshare(CLONE_NEWUSER)";
                e = n == sizeof status ? status : EIO;
        }
        close(done[1]); /* the child reads EOF and exits */
        while (reap && child > 0 && waitpid(child, NULL, 0) < 0 && errno == EINTR)
                ;
        if (maps_failed)
                return error_wrap(err, "cannot give the workload, which keeps CAP_SYS_ADMIN, a "
                                       "user namespace of its own");
        if (r < 0)
                return cannot(err, e, failed);

        /* in the new user namespace, with every capability there: the copy of the mount
         * namespace (locked), and namespaces of its own for the capabilities to act on */
        return copy_namespaces(c, p->nest_flags & ~CLONE_NEWUSER, err);
}
