/* enter.c - `crib exec`: a new process in a running container, in the same namespaces, root and
 * security settings as its workload.
 *
 * Kernel features: clone(2) with CLONE_PARENT, so the process that runs in the container is
 * crib exec's own child though another process made it; chroot(2) into the root of the
 * workload, opened through /proc/PID/root. Which process is the workload's, and how crib makes
 * sure it is that very process: find.c; joining its namespaces (setns(2) with a pidfd, or the
 * files of /proc/PID/ns): join.c; the exec's plan, the request checked against the
 * container's: execplan.c.
 *
 * Three processes. crib exec's own (the parent) stays outside the container: it relays the
 * terminal, forwards signals and waits, in the loop `crib run` follows its container with
 * (follow.c). Without -t, where its own 0, 1 or 2 is a terminal, the process gets a pipe in its
 * place, which the parent relays while the process runs (relay.h): no process of the container
 * ever holds the user's terminal. The joiner, forked from it, joins the namespaces and takes on
 * the workload's settings; since setns(CLONE_NEWPID) moves only the children of the caller into
 * the pid namespace, it then starts the process that will exec (the entered process) with
 * clone(CLONE_PARENT): a child of the parent, in the container's pid namespace. The joiner
 * sends its pid to the parent (SYNC_PID) and exits; the entered process waits for that exit (a
 * pipe's EOF) before it speaks, so their messages on the one sync socket stay in order. EOF
 * after SYNC_EXEC means the program runs, as for `crib run`.
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
 * request goes through the host's /proc, opened before the join (step.h: procfd), a
 * descriptor that neither the entered process nor exec'd code ever holds. With a terminal, the
 * pty is opened at /dev/ptmx of the container, as `crib run` does.
 */
#define _GNU_SOURCE
#include "enter.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "child.h"
#include "follow.h"
#include "join.h"
#include "relay.h"
#include "steps/rlimits.h"
#include "steps/sync.h"
#include "base/sys.h"

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
        struct workload w; /* the workload's process, pinned */
        int rootfd;        /* its root */
        int hostproc;      /* the host's /proc, for the AppArmor request */
        /* the joiner (f.joiner), the entered process (f.pid, from SYNC_PID), their socket,
         * the signals, the terminal */
        struct follow f;
        int child_end; /* the joiner's end of the sync socket, until the fork */
        /* without -t, in place of crib exec's own 0, 1 and 2 where each is a terminal: the
         * process's ends of pipes (-1: it gets crib exec's own), and ours, which we relay */
        int io[3], io_ours[3];
        bool piped;
};

#define ENTER(child) ((struct enter *)((char *)(child)-offsetof(struct enter, c)))

/* --- the parent: before any join ---------------------------------------------------------- */

/* Its root, which the entered process takes with chroot(2), and the host's /proc. */
static int open_root(struct enter *e, struct error *err)
{
        e->rootfd = openat(e->w.procdir, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (e->rootfd < 0) {
                if (errno == ESRCH || errno == ENOENT)
                        return container_gone(e->w.pid, err);
                return error_set(err, errno,
                                 "cannot open the root of the container's workload "
                                 "(/proc/%d/root)",
                                 (int)e->w.pid);
        }
        e->hostproc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (e->hostproc < 0)
                return error_set(err, errno, "cannot open '/proc'");
        trace_line(&e->trace, "  open(\"/proc/%d/root\") = %d; open(\"/proc\") = %d", (int)e->w.pid,
                   e->rootfd, e->hostproc);
        return find_cgroup(e->plan, &e->w, &e->trace, err);
}

/* The request checked against the plan (execplan.c), with our 0, 1 and 2, the process's. */
static int plan_the_exec(struct enter *e, struct error *err)
{
        if (fds_check_stdio(err) < 0)
                return -1;
        return plan_exec(e->plan, e->rq, &e->q, &e->envp, err);
}

/* By pid, start time, pidfd and /proc directory (find.c). */
static int pin_workload(struct enter *e, struct error *err)
{
        return find_workload(e->plan, e->rq, &e->trace, &e->w, err);
}

static int open_sync(struct enter *e, struct error *err)
{
        return follow_open(&e->f, &e->child_end, err);
}

/* The forwarded signals and SIGCHLD, and SIGPIPE (f.block_sigpipe), which a write to the
 * stdin pipe of a process that closed it would send (the relay sees EPIPE instead); taken back
 * before the mask is restored (follow_close). */
static int block_signals(struct enter *e, struct error *err)
{
        return follow_block_signals(&e->f, err);
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
        e->f.joiner = e->w.cgroupfd >= 0 ? cgroup_clone_into(e->w.cgroupfd, 0) : fork();
        if (e->f.joiner == 0)
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
                relay_start_pipes(&e->f.relay, e->io_ours[0], e->io_ours[1], e->io_ours[2]);
                e->io_ours[0] = e->io_ours[1] = e->io_ours[2] = -1; /* the relay's now */
        }
        trace_line(&e->trace, "  %s = %d (the joiner)",
                   e->w.cgroupfd >= 0 ? "clone3(CLONE_INTO_CGROUP), into the workload's cgroup"
                                      : "fork()",
                   (int)e->f.joiner);
        if (e->f.joiner < 0 && fork_errno == EAGAIN && e->w.cgroupfd >= 0) {
                error_set(err, EAGAIN, "cannot start a process in the container's cgroup");
                return error_hint(err, "it may be at its pids limit (pids.max)");
        }
        if (e->f.joiner < 0)
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

static int enter_root(struct child *c, struct error *err);
static int joiner_seccomp(struct child *c, struct error *err);
static int stay_not_dumpable(struct child *c, struct error *err);

/* Joiner: the workload's namespaces (join.c). */
static int joiner_setns(struct child *c, struct error *err)
{
        return join_namespaces(c->plan, &ENTER(c)->w, &c->trace, err);
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
        int keep[] = {c->chan.fd, e->w.procdir, e->rootfd, e->w.pidfd, e->hostproc};
        if (fds_close_all_but(keep, sizeof keep / sizeof keep[0], err) < 0)
                return -1;
        for (int fd = 0; fd < 3; fd++)
                e->io[fd] = e->io_ours[fd] = -1;
        e->w.cgroupfd = -1;
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
        STEP("set the OOM score adjustment", step_oom_score_adj, "runtime/steps/oom.c",
             "the container's, as under runc: outside the container, and while still dumpable "
             "(after, /proc/self's files are root's: a user could not write it); the host's "
             "CAP_SYS_RESOURCE (root's) counts for a value below the current one; the entered "
             "process inherits it"),
        STEP("set the parent-death signal and make this process not dumpable", joiner_attributes,
             "runtime/launch/enter.c",
             "before anything of the container: nothing of it may reach into this process from now"
             " on"),
        STEP("close every descriptor the joiner does not need", joiner_close_fds,
             "runtime/launch/enter.c",
             "before any join: of crib exec's descriptors only those this table needs stay"),
        STEP("set the limits", joiner_limits, "runtime/launch/enter.c",
             "before the join: the host's CAP_SYS_RESOURCE (root's) still counts"),
        STEP("set the AppArmor profile for exec", step_apparmor, "runtime/steps/apparmor.c",
             "still outside, through the host's /proc (procfd): a workload with CAP_SYS_ADMIN may "
             "have mounted over its own /proc to swallow the request (CVE-2025-52881). It holds "
             "for this process's next exec, and the entered process inherits it"),
        STEP("close the host's /proc", close_host_proc, "runtime/launch/enter.c",
             "before the join: no descriptor of the host's /proc is open in the container's "
             "namespaces, where a working directory of /proc/self/fd/N would reach it (with pid = "
             "no, the container's /proc shows this process)"),
        STEP("join the workload's namespaces", joiner_setns, "runtime/launch/enter.c",
             "not dumpable already; the pidfd fails with ESRCH if the workload is gone"),
        STEP("become root in the user namespace", step_become_root, "runtime/steps/creds.c",
             "the setup's ids: what it creates (a pty) is container root's"),
        STEP("enter the workload's root", enter_root, "runtime/launch/enter.c",
             "the workload's root: names from here on are the container's, and the descriptors "
             "that named the workload are closed: only 0, 1, 2 and the sync socket stay"),
        STEP("open the terminal", step_open_terminal, "runtime/steps/pty.c",
             "-t: in the container's devpts, as the setup opens the workload's"),
        STEP("set no_new_privs", step_no_new_privs, "runtime/steps/nnp.c",
             "before the filter (the entered process loads it), which needs it"),
        STEP("load the seccomp filter, if there is no no_new_privs", joiner_seccomp,
             "runtime/launch/enter.c",
             "without no_new_privs (OCI configs may have none) the kernel asks for CAP_SYS_ADMIN, "
             "which we hold here, where the workload's table loads it; the entered process is born"
             " under it. With no_new_privs the entered process loads it, after the clone, so a "
             "profile that forbids clone(2) still lets crib exec start it"),
        STEP("limit the capability bounding set", step_bounding_set, "runtime/steps/caps.c",
             "while we still hold CAP_SETPCAP"),
        STEP("switch to the container user", step_switch_user, "runtime/steps/creds.c",
             "last change of ids"),
        STEP("stay not dumpable", stay_not_dumpable, "runtime/launch/enter.c",
             "the change of ids may have reset it"),
        STEP("set capabilities", step_capabilities, "runtime/steps/caps.c",
             "every set as the plan says: what the entered process is born with"),
        STEP("set umask and working directory", step_umask_cwd, "runtime/steps/creds.c",
             "as the container user, with nothing of the host open; checked to be inside the "
             "container's root"),
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
        close(e->f.chan.fd);
        close(e->f.sigfd);
        struct child *c = &e->c;
        *c = (struct child){
                .plan = &e->q,
                .chan = {.fd = e->child_end},
                .trace = {.on = e->plan->trace,
                          .explain = e->plan->explain,
                          .emit = child_emit_over_sync},
                .pty_slave = -1,
                .rootfd = -1,
                .rootfs_tree = -1,
                .init_ready = -1,
                .init_go = -1,
                .procfd = e->hostproc,
                .start_fd = -1,
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
        trace_line(&c->trace, "  fchdir(/proc/%d/root); chroot(\".\") = %d", (int)e->w.pid, r);
        if (r < 0)
                return error_set(err, ce, "cannot enter the root of the container");
        close(e->rootfd);
        close(e->w.procdir);
        if (e->w.pidfd >= 0)
                close(e->w.pidfd);
        e->rootfd = e->w.procdir = e->w.pidfd = -1;
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
        STEP("set the parent-death signal", step_parent_death, "runtime/steps/creds.c",
             "first: crib exec dying kills us (a fork does not inherit it)"),
        STEP("wait for crib exec's go-ahead", entered_go, "runtime/launch/enter.c",
             "crib exec knows us (we are in the workload's cgroup already, from the joiner)"),
        STEP("clear the parent-death signal if detached", entered_detach, "runtime/launch/enter.c",
             "detached (OCI exec --detach): we outlive crib exec, adopted by its parent"),
        STEP("load the seccomp filter, with no_new_privs", entered_seccomp,
             "runtime/launch/enter.c",
             "with no_new_privs; the steps below run under it, as the workload's table does"),
        STEP("attach to the terminal", step_attach_terminal, "runtime/steps/pty.c",
             "a session of its own; the pty as controlling terminal"),
        STEP("close every descriptor the program does not need", step_close_fds,
             "runtime/steps/fds.c",
             "only 0, 1, 2 reach the program; nothing of the host was open since the join"),
        STEP("exec the program", step_exec, "runtime/steps/exec.c",
             "on success the sync socket closes: crib exec sees EOF"),
};

static const struct table entered = {entered_steps, sizeof entered_steps / sizeof entered_steps[0]};

/* --- the parent: following the two --------------------------------------------------------- */

/* Until the joiner is reaped, the entered process too (when there is one), and the socket
 * closed: every message read (follow.c). */
static int follow(struct enter *e, struct error *err)
{
        return follow_run(&e->f, err);
}

struct parent_step {
        const char *name;
        int (*run)(struct enter *e, struct error *err);
};

/* crib exec's own steps, in order: all it needs before the fork, then following the two. */
static const struct parent_step parent_steps[] = {
        /* the request checked against the plan: bad input changes nothing */
        {"plan the exec", plan_the_exec},
        /* by pid, start time, pidfd and /proc directory: this very process, or an error */
        {"find the workload's process", pin_workload},
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

/* Parent: the table, in order; a step that fails after the fork ends the joiner and the
 * entered process. */
static int enter_steps(struct enter *e, struct error *err)
{
        const size_t n = sizeof parent_steps / sizeof parent_steps[0];
        for (size_t i = 0; i < n; i++) {
                trace_line(&e->trace, "parent: step %2zu/%zu  %s", i + 1, n, parent_steps[i].name);
                if (parent_steps[i].run(e, err) < 0) {
                        follow_kill(&e->f);
                        relay_end(&e->f.relay);
                        return -1;
                }
        }
        return 0;
}

/* Parent: how the process ended (or, detached, that it runs), or why it never ran. */
static int enter_result(struct enter *e, int *ret_status, struct error *err)
{
        struct follow *f = &e->f;
        const struct enter_request *rq = e->rq;
        /* detached, and it never ran the program: ours to reap, for its status */
        if (rq->detach && f->exited && (f->have_error || !f->exec_seen) &&
            waitpid(f->pid, &f->status, 0) == f->pid)
                f->reaped = true;
        if (f->have_error) {
                *err = f->child_err;
                return -1;
        }
        if (!f->exec_seen) {
                if (f->pid > 0 && WIFSIGNALED(f->status))
                        return error_set(err, 0,
                                         "the process entering the container was killed by "
                                         "signal %d (%s) before it ran '%s'",
                                         WTERMSIG(f->status), sigabbrev_np(WTERMSIG(f->status)),
                                         rq->argv[0]);
                return error_set(err, 0,
                                 "the process entering the container ended before it ran '%s'",
                                 rq->argv[0]);
        }
        if (rq->detach) {
                trace_line(&e->trace, "parent: detached: process %d is left to our parent",
                           (int)f->pid);
                if (e->hooks->created)
                        e->hooks->created(e->hooks->ctx, f->pid, f->pid);
                f->status = 0;
        }
        *ret_status = f->status;
        return 0;
}

/* Parent: every descriptor of ours closed, the terminal and the signal mask as they were. */
static void enter_close(struct enter *e)
{
        int fds[] = {e->w.pidfd, e->w.procdir, e->rootfd, e->hostproc, e->w.cgroupfd, e->child_end};
        for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
                if (fds[i] >= 0)
                        close(fds[i]);
        for (int fd = 0; fd < 3; fd++) {
                if (e->io[fd] >= 0)
                        close(e->io[fd]);
                if (e->io_ours[fd] >= 0)
                        close(e->io_ours[fd]);
        }
        follow_close(&e->f);
        free(e->envp);
}

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
        e->trace = (struct trace){
                .on = p->trace, .explain = p->explain, .emit = follow_trace_hook, .ctx = (void *)h};
        e->w.pidfd = e->w.procdir = e->rootfd = e->hostproc = e->w.cgroupfd = -1;
        e->child_end = -1;
        for (int fd = 0; fd < 3; fd++)
                e->io[fd] = e->io_ours[fd] = -1;
        follow_init(&e->f, h, &e->trace);
        e->f.detach = rq->detach;
        e->f.block_sigpipe = true;
        int ret = enter_steps(e, err);
        if (ret == 0)
                ret = enter_result(e, ret_status, err);
        enter_close(e);
        free(e);
        return ret;
}
