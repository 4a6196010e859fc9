/* nestns.c - the workload's own user namespace and its network namespace, made once, before the
 * setup's first mount.
 *
 * Kernel features: user namespaces below user namespaces (user_namespaces(7)): setns(2) into
 * the container's user namespace gives a process of ours, whose euid owns it, every capability
 * there, and unshare(CLONE_NEWUSER | CLONE_NEWNET) there makes a namespace below it that owns a
 * new network namespace. Its maps are written from outside by us, with every capability in the
 * namespace above (we own it), through /proc/PID/uid_map of the helper, which must be dumpable
 * for those files to be its own.
 *
 * Why: a workload that keeps CAP_SYS_ADMIN gets a user namespace below the container's, so that
 * the kernel locks the setup's mounts against it (steps/lockmounts.c), and its capabilities
 * count only in namespaces that one owns: a network namespace among them, so that it binds port
 * 80 and sets up its interfaces. Made in the workload's process, after every mount, that is a
 * second network namespace beside the container's, which the setup needed for /sys and lo: the
 * dearest namespace to make (0.5-0.7 ms here) and to tear down. Made here, before GO, it is the
 * only one: the setup is cloned without CLONE_NEWNET and joins it as its first network step
 * (steps/netns.c), crib's init stays in it, and the workload's process joins the user namespace
 * (setns) and copies only the mount, UTS and cgroup namespaces.
 *
 * Against the container: the helper is a process of the host's pid namespace, in the
 * container's user namespace and then one below it, for as long as it takes to make them and
 * be mapped; it holds no descriptor but its two pipes and the namespace it joins, and it exits
 * (reaping the lower process first) as soon as we have sent its namespaces. A container's
 * process never sees it: with a pid namespace, none sees a process of the host's, and with
 * pid = no crib reaps it before it sends GO, before any code of the container runs.
 * The descriptors we send are namespaces, not paths; the setup joins the network namespace
 * before it mounts anything, and the workload's process joins the user namespace as its own
 * first step.
 *
 * Not with namespaces joined by path (joinns.c) or an engine's hooks (they look at the setup's
 * namespaces before GO, when it has not joined this one yet): plan/confine.c leaves those to the
 * late way, all in the workload's process.
 */
#define _GNU_SOURCE
#include "nestns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "steps/step.h"
#include "steps/userns.h"

/* What the helper reports on its pipe: the lower process, or which call failed and its errno. */
struct helper_status {
        int stage; /* 0: done; else the stage_call that failed */
        int errnum;
        pid_t lower; /* the process in the namespaces below, as we see it */
};
static const char *const stage_call[] = {"",
                                         "setns(CLONE_NEWUSER) into the container's user namespace",
                                         "setresuid(0) there",
                                         "prctl(PR_SET_DUMPABLE)",
                                         "clone(CLONE_NEWUSER|CLONE_NEWNET)",
                                         "writing its id maps"};

/* The helper: nothing of ours but the container's user namespace and the pipes. It joins that
 * namespace as its root and starts the lower process in new user and network namespaces
 * below it; a map of more than one id may be written only from the namespace right above (the
 * kernel's rule for /proc/PID/uid_map), which is why there are two processes: the helper writes
 * the lower one's maps. Both say nothing more and wait for EOF on `done`. */
static _Noreturn void helper(const struct plan *p, int userns, int ready, int done)
{
        /* 0, 1 and 2 too: the host's terminal is not the helper's to hold */
        const int keep[] = {userns, ready, done};
        struct error ignored;
        fds_close_all_but(keep, 3, &ignored);
        for (int fd = 0; fd < 3; fd++)
                close(fd);
        struct helper_status st = {1, 0, 0};
        if (setns(userns, CLONE_NEWUSER) < 0)
                goto report;
        close(userns);
        /* root of the container's namespace, the owner of the one below (as root on the host,
         * our ids are not mapped there at all) */
        st.stage = 2;
        if (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)
                goto report;
        /* the change of ids cleared it; the lower process inherits it: its /proc/PID files are
         * its own only while dumpable, and we, and then crib, open them */
        st.stage = 3;
        if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
                goto report;
        st.stage = 4;
        st.lower = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWNET | SIGCHLD, NULL, NULL,
                                  NULL, NULL);
        if (st.lower < 0)
                goto report;
        char b;
        if (st.lower == 0) { /* the lower process: there until EOF */
                close(ready);
                while (read(done, &b, 1) < 0 && errno == EINTR)
                        ;
                _exit(0);
        }
        st.stage = 5;
        struct trace quiet = {.on = false};
        struct error e;
        if (userns_write_nested_maps(p, st.lower, &quiet, &e) < 0) {
                errno = e.errnum;
                kill(st.lower, SIGKILL);
                goto report;
        }
        st.stage = 0;
report:
        st.errnum = st.stage ? errno : 0;
        if (write(ready, &st, sizeof st) == sizeof st && !st.stage)
                while (read(done, &b, 1) < 0 && errno == EINTR)
                        ;
        if (st.lower > 0)
                while (waitpid(st.lower, NULL, 0) < 0 && errno == EINTR)
                        ;
        _exit(st.stage ? 1 : 0);
}

/* Open /proc/PID/ns/NAME. */
static int open_ns(pid_t pid, const char *name, struct error *err)
{
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/%s", (int)pid, name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                error_set(err, errno, "cannot open '%s'", path);
        return fd;
}

/* Send the two namespaces of the lower process. 0, or -1 with err set. */
static int send_both(pid_t lower, struct sync_chan *chan, const struct trace *t, struct error *err)
{
        static const struct {
                int flag;
                const char *name;
        } kinds[2] = {{CLONE_NEWUSER, "user"}, {CLONE_NEWNET, "net"}};
        for (int i = 0; i < 2; i++) {
                int fd = open_ns(lower, kinds[i].name, err);
                if (fd < 0)
                        return -1;
                struct sync_msg m = {.type = SYNC_NEST, .u.nsflag = kinds[i].flag};
                int r = sync_send(chan, &m, fd, err);
                close(fd);
                if (r < 0)
                        return -1;
                trace_line(t, "  sendmsg(sync, NEST, /proc/%d/ns/%s) = 0", (int)lower,
                           kinds[i].name);
        }
        return 0;
}

static pid_t make_and_send(const struct plan *p, pid_t setup, struct sync_chan *chan,
                           const struct trace *t, struct error *err)
{
        /* the setup is dumpable until GO, and our child: its pid is not reused meanwhile */
        int userns = open_ns(setup, "user", err);
        if (userns < 0)
                return -1;
        int ready[2] = {-1, -1}, done[2] = {-1, -1};
        if (pipe2(ready, O_CLOEXEC) < 0 || pipe2(done, O_CLOEXEC) < 0) {
                error_set(err, errno, "cannot create a pipe");
                goto fail;
        }
        pid_t pid = fork();
        if (pid == 0) {
                close(ready[0]);
                close(done[1]);
                helper(p, userns, ready[1], done[0]);
        }
        int fork_errno = errno;
        close(userns);
        userns = -1;
        close(ready[1]);
        close(done[0]);
        ready[1] = done[0] = -1;
        if (pid < 0) {
                error_set(err, fork_errno, "cannot fork to make the workload's user namespace");
                goto fail;
        }
        struct helper_status st = {-1, EIO, 0};
        ssize_t n;
        while ((n = read(ready[0], &st, sizeof st)) < 0 && errno == EINTR)
                ;
        int r = -1;
        bool died = n != sizeof st || st.stage < 0 || st.stage > 5 || (!st.stage && st.lower <= 0);
        if (died || st.stage) {
                if (st.stage == 4 && !died) /* the namespaces' limits, with their hints */
                        userns_clone_error(CLONE_NEWUSER | CLONE_NEWNET, st.errnum, p->front, err);
                else {
                        if (died)
                                error_set(err, EIO, "its helper died");
                        else
                                error_set(err, st.errnum, "%s", stage_call[st.stage]);
                        error_hint(err, "leave SYS_ADMIN out of capabilities: the workload then "
                                        "needs no user namespace of its own");
                }
                error_wrap(err, "cannot give the workload, which keeps CAP_SYS_ADMIN, a user "
                                "namespace of its own to lock its mounts");
        } else {
                trace_line(t,
                           "  fork() = %d: setns(/proc/%d/ns/user), root there; clone("
                           "CLONE_NEWUSER|CLONE_NEWNET) = %d, its maps written: every id as itself",
                           (int)pid, (int)setup, (int)st.lower);
                r = send_both(st.lower, chan, t, err);
        }
        close(ready[0]);
        close(done[1]); /* it reads EOF and exits: reaped after GO */
        if (r < 0) {
                while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                        ;
                return -1;
        }
        return pid;
fail:
        if (userns >= 0)
                close(userns);
        for (int i = 0; i < 2; i++) {
                if (ready[i] >= 0)
                        close(ready[i]);
                if (done[i] >= 0)
                        close(done[i]);
        }
        return -1;
}

pid_t nestns_make(const struct plan *p, pid_t setup, struct sync_chan *chan, const struct trace *t,
                  struct error *err)
{
        if (!p->nest_early)
                return trace_skip(t, "%s",
                                  !p->nest_flags ? "the workload has no SYS_ADMIN, or there is no "
                                                   "user namespace to nest below"
                                  : p->nest_flags & CLONE_NEWNET
                                          ? "the workload's process makes it, after every mount "
                                            "(an engine's hooks look at the setup's namespaces "
                                            "before GO)"
                                          : "the workload stays in the container's network "
                                            "namespace (a network helper's): its process makes "
                                            "its user namespace, after every mount");
        return make_and_send(p, setup, chan, t, err);
}
