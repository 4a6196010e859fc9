/* init.c - crib's own pid 1 (`init = yes`, the default).
 *
 * Kernel features: pid namespaces (pid_namespaces(7)). The first process of a new pid namespace
 * is its init: orphans are reparented to it and must be reaped, and signals without a handler
 * do not reach it. A workload rarely expects that, so crib's init, the setup process itself,
 * starts the workload's process and stays as pid 1: it forwards SIGTERM, SIGINT, SIGHUP, SIGQUIT,
 * SIGUSR1, SIGUSR2 and SIGWINCH to the workload, reaps every child, and exits with the workload's
 * status (128+N when a signal N killed it). When pid 1 exits the kernel kills everything left in
 * the namespace. Without a pid namespace (pid = no) it becomes a child subreaper
 * (PR_SET_CHILD_SUBREAPER) to reap the same orphans.
 *
 * The forwarded signals are blocked from the start of the setup (the parent blocks them before
 * clone), so one sent early waits instead of being lost, and sigwaitinfo(2) takes them here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

/* pid 1: forward signals to the workload, reap children, exit as the workload did. */
static _Noreturn void init_loop(pid_t workload, const sigset_t *forwarded)
{
        sigset_t wait_set = *forwarded;
        sigaddset(&wait_set, SIGCHLD);
        for (;;) {
                siginfo_t si;
                int sig = sigwaitinfo(&wait_set, &si);
                if (sig < 0)
                        continue;
                if (sig != SIGCHLD) {
                        kill(workload, sig);
                        continue;
                }
                int status;
                pid_t pid;
                while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
                        if (pid != workload)
                                continue;
                        if (WIFEXITED(status))
                                _exit(WEXITSTATUS(status));
                        _exit(128 + WTERMSIG(status));
                }
        }
}

/* The workload's process starts here, on its own stack, in the memory of crib's init (which
 * waits, suspended, until it execs or exits): it reports the step and runs the rest. */
static int workload_start(void *arg)
{
        struct child *c = arg;
        /* only the workload's process reports from here on: one sender, in order */
        if (c->trace.on) {
                trace_line(&c->trace,
                           "  clone(CLONE_VM|CLONE_VFORK) = %d (the workload; crib's init stays "
                           "as pid %d)",
                           (int)getpid(), (int)getppid());
                trace_line(&c->trace, "  done in %llu us",
                           (unsigned long long)(trace_now_us() - c->step_start));
        }
        run_steps(c, c->step + 1);
}

/* Child: the setup process, after the mounts and the terminal are in place. The rest of the
 * steps run in the workload's process; the setup process itself becomes init and never
 * returns.
 *
 * The workload's process is started like posix_spawn(3) starts one: clone(2) with CLONE_VM
 * and CLONE_VFORK, so nothing of crib's memory is copied and init sleeps until the exec. A
 * fork(2) here cost ~250 us on this class of machine (page tables, then copy-on-write faults in
 * both processes); this costs ~30. What the workload's process does before exec is only system
 * calls on the plan, as every step is; its fds, credentials and signal mask are its own. */
int step_start_init(struct child *c, struct error *err)
{
        /* the workload's stack, used by that process alone (init is asleep until its exec) */
        static char stack[256 * 1024] __attribute__((aligned(16)));
        const struct plan *p = c->plan;
        if (!p->init)
                return 0;
        if (!(p->clone_flags & CLONE_NEWPID) && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
                return error_set(err, errno, "cannot become a child subreaper");
        /* init's own copies: the workload's process may change the shared struct child */
        int chan = c->chan.fd, pty_slave = c->pty_slave;
        sigset_t forwarded = c->forwarded;
        pid_t pid =
                clone(workload_start, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, c);
        if (pid < 0)
                return error_set(err, errno, "cannot start the workload's process");
        /* init keeps nothing of the setup */
        close(chan);
        if (pty_slave >= 0)
                close(pty_slave);
        prctl(PR_SET_DUMPABLE, 0);
        init_loop(pid, &forwarded);
}
