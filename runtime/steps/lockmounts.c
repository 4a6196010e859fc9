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
 * Capabilities count only in the namespaces their user namespace owns, so the same call gives
 * the workload its own network, UTS and cgroup namespaces (lo is brought up again, the hostname
 * is copied): a workload with +SYS_ADMIN still binds port 80, opens raw sockets and sets its
 * hostname. What it cannot do any more: mount a /proc (the pid namespace is the container's) or
 * change the IPC namespace's limits; and /sys shows the network of crib's init (lo only).
 *
 * The new namespace's maps must be written from the container's namespace by a process with
 * CAP_SETUID, CAP_SETGID and CAP_SETFCAP there, into /proc/PID/uid_map of a process of the new
 * namespace, which must be dumpable so that its /proc files are its own. The workload's process
 * is not dumpable (it shares its memory, and so that flag, with crib's init, which must never
 * be), so a forked child (with its own memory) makes the namespace and becomes dumpable; the
 * workload's process writes that child's maps, joins the namespace with setns(2) (it may: its
 * euid owns the namespace, from the namespace above), and lets the child go. Then it copies
 * the mount namespace, and the others, with unshare(2). crib's init runs no new code.
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
 * workload's process may write its maps; then wait until that process has joined it (EOF on
 * `done`), and exit: 0, or the errno of the unshare. */
static _Noreturn void make_userns(int ready, int done)
{
        /* nothing of crib's but the two pipes */
        for (int fd = 0; fd < 3; fd++)
                if (fd != ready && fd != done)
                        close(fd);
        int lo = ready < done ? ready : done, hi = ready < done ? done : ready;
        syscall(SYS_close_range, 3U, (unsigned)lo - 1, 0U);
        syscall(SYS_close_range, (unsigned)lo + 1, (unsigned)hi - 1, 0U);
        syscall(SYS_close_range, (unsigned)hi + 1, ~0U, 0U);
        if (unshare(CLONE_NEWUSER) < 0)
                _exit(errno);
        if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
                _exit(errno);
        char b = 'u';
        if (write(ready, &b, 1) != 1)
                _exit(EPIPE);
        while (read(done, &b, 1) < 0 && errno == EINTR)
                ;
        _exit(0);
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
        int ready[2], done[2];
        if (pipe2(ready, O_CLOEXEC) < 0)
                return error_set(err, errno, "cannot create a pipe");
        if (pipe2(done, O_CLOEXEC) < 0) {
                int e = errno;
                close(ready[0]);
                close(ready[1]);
                return error_set(err, e, "cannot create a pipe");
        }
        pid_t child = fork();
        if (child == 0) {
                close(ready[0]);
                close(done[1]);
                make_userns(ready[1], done[0]);
        }
        int e = errno;
        close(ready[1]);
        close(done[0]);
        char b;
        ssize_t n = -1;
        while (child > 0 && (n = read(ready[0], &b, 1)) < 0 && errno == EINTR)
                ;
        close(ready[0]);
        int r = -1;
        const char *failed = "fork(2)";
        bool maps_failed = false; /* err says why already */
        if (n == 1) {
                trace_line(&c->trace, "  fork() = %d: unshare(CLONE_NEWUSER), dumpable",
                           (int)child);
                r = userns_write_nested_maps(p, child, &c->trace, err);
                maps_failed = r < 0;
                if (r == 0) {
                        failed = "setns(2)";
                        r = join_userns(c, child);
                        e = errno;
                }
        }
        close(done[1]); /* the child reads EOF and exits */
        int status = 0;
        while (child > 0 && waitpid(child, &status, 0) < 0 && errno == EINTR)
                ;
        if (child > 0 && n != 1) {
                /* it exited first: its status is the errno of what failed there */
                e = WIFEXITED(status) && WEXITSTATUS(status) ? WEXITSTATUS(status) : EIO;
                failed = "unshare(CLONE_NEWUSER)";
        }
        if (maps_failed)
                return error_wrap(err, "cannot give the workload, which keeps CAP_SYS_ADMIN, a "
                                       "user namespace of its own");
        if (r < 0)
                return cannot(err, e, failed);

        /* in the new user namespace, with every capability there: the copy of the mount
         * namespace (locked), and namespaces of its own for the capabilities to act on */
        char names[128];
        int flags = p->nest_flags & ~CLONE_NEWUSER;
        r = unshare(flags);
        e = errno;
        trace_line(&c->trace, "  unshare(%s) = %d",
                   trace_clone_flags((unsigned long)flags, names, sizeof names), r);
        if (r < 0)
                return cannot(err, e, "unshare(2)");
        if (p->nest_flags & CLONE_NEWNET)
                return netns_loopback_up(c, err);
        return 0;
}
