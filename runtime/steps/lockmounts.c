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
 * CAP_SETUID, CAP_SETGID and CAP_SETFCAP there: a child forked for that alone, so crib's init
 * runs no code it did not run before. The child opens /proc/PID/uid_map of the workload's
 * process, which must be dumpable for that instant (no code of the workload exists yet).
 *
 * Where it sits: first row of the workload's table (steps.c), in the workload's process, after
 * every mount of the setup, while the process still holds every capability of the container's
 * namespace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "userns.h"

/* The forked child: wait until the workload's process has its own user namespace (or gave up:
 * EOF), write its maps, exit with 0 or the errno. It sends nothing over the sync socket (the
 * messages there are numbered by the workload's process), so it traces nothing. */
static _Noreturn void write_maps_for(struct child *c, pid_t workload, int go)
{
        char b;
        ssize_t n;
        while ((n = read(go, &b, 1)) < 0 && errno == EINTR)
                ;
        if (n != 1)
                _exit(0);
        struct error err;
        struct trace quiet = {.on = false};
        if (userns_write_nested_maps(c->plan, workload, &quiet, &err) < 0)
                _exit(err.errnum > 0 && err.errnum < 256 ? err.errnum : EIO);
        _exit(0);
}

/* Child: the workload's process, in the container's user namespace. */
int step_lock_mounts(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        if (!p->nest_flags)
                return 0;
        int go[2];
        if (pipe2(go, O_CLOEXEC) < 0)
                return error_set(err, errno, "cannot create a pipe");
        pid_t self = getpid();
        pid_t writer = fork();
        if (writer == 0) {
                close(go[1]);
                write_maps_for(c, self, go[0]);
        }
        int e = errno;
        close(go[0]);
        if (writer < 0) {
                close(go[1]);
                return error_set(err, e,
                                 "cannot start the process that writes the workload's "
                                 "id maps");
        }
        char names[128];
        int r = unshare(p->nest_flags);
        e = errno;
        trace_line(&c->trace, "  unshare(%s) = %d",
                   trace_clone_flags((unsigned long)p->nest_flags, names, sizeof names), r);
        /* for the writer's open(2) of our maps: their owner is ours only while dumpable */
        if (r == 0 && prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) == 0)
                r = write(go[1], "m", 1) == 1 ? 0 : -1;
        close(go[1]); /* on failure the writer reads EOF and exits */
        int status = 0;
        pid_t w;
        while ((w = waitpid(writer, &status, 0)) < 0 && errno == EINTR)
                ;
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        if (r < 0) {
                error_set(err, e,
                          "cannot give the workload, which keeps CAP_SYS_ADMIN, a user "
                          "namespace of its own to lock its masked and read-only paths");
                return error_hint(err, e == EPERM ? "a seccomp profile that refuses unshare(2), or "
                                                    "a container root that is a chroot (the "
                                                    "host's / is an initramfs) prevents it; or "
                                                    "leave SYS_ADMIN out of capabilities"
                                                  : "leave SYS_ADMIN out of capabilities");
        }
        int code = w != writer ? ECHILD : WIFEXITED(status) ? WEXITSTATUS(status) : EINTR;
        trace_line(&c->trace,
                   "  fork() = %d: writes /proc/%d/gid_map and uid_map, each id of the "
                   "container's namespace as itself; exit %d",
                   (int)writer, (int)self, code);
        if (code)
                return error_set(err, code,
                                 "cannot write the id maps of the workload's own "
                                 "user namespace");
        if (p->nest_flags & CLONE_NEWNET)
                return netns_loopback_up(c, err);
        return 0;
}
