/* init.c - crib's own pid 1 (`init = yes`, the default), and what it gives up before the
 * workload runs.
 *
 * Kernel features: pid namespaces (pid_namespaces(7)). The first process of a new pid namespace
 * is its init: orphans are reparented to it and must be reaped, and signals without a handler
 * do not reach it. A workload rarely expects that, so crib's init, the setup process itself,
 * starts the workload's process and stays as pid 1: it forwards the signals crib forwards
 * (forwarded_signals(), follow.c) to the workload, reaps every child, and exits with the
 * workload's status (128+N when a signal N killed it). When pid 1 exits the kernel kills
 * everything left in the namespace. Without a pid namespace (pid = no) it becomes a child
 * subreaper (PR_SET_CHILD_SUBREAPER) to reap the same orphans.
 *
 * The forwarded signals are blocked from the start of the setup (the parent blocks them before
 * clone), so one sent early waits instead of being lost, and sigwaitinfo(2) takes them here.
 *
 * crib's init is crib itself (cloned, never exec'd): /proc/1/exe is the host's crib binary, and
 * it lives beside the workload for the container's whole life. So it holds the least it can,
 * and holds it before the workload's first instruction (runc and crun learned each point from a
 * CVE; CVE-2019-5736 is the one about the binary):
 *
 *   not dumpable   from the moment the id maps are written (child.c), so /proc/1/{mem,fd,exe,
 *                  root,environ} and ptrace(2) need CAP_SYS_PTRACE in the user namespace that
 *                  owns init's memory: the host's, which a container in a user namespace never
 *                  has. This is also why the crib binary needs no sealed memfd copy of itself
 *                  (runc's answer): no process of such a container can open /proc/1/exe at all,
 *                  and while init runs the file cannot be opened for writing (ETXTBSY), while
 *                  everything in the pid namespace dies with it. Only `user = no` with
 *                  +SYS_PTRACE gives a container that capability; crib warns that such a
 *                  container is real root with ptrace, which no launcher can contain.
 *   no capability  the bounding set emptied and every set cleared; init takes the workload's
 *                  uid and gid, so it may still signal the workload without CAP_KILL
 *   no descriptor  all closed: not the sync socket, not the terminal, not what crib inherited
 *   no terminal    a session of its own (setsid(2)), so the host's terminal is not its
 *                  controlling terminal and TIOCSTI on it is refused
 *   a death signal  SIGKILL when crib dies, set after the last change of ids (which clears it),
 *                  and it cannot be taken back: init's own seccomp filter allows only the
 *                  calls the loop below makes (waiting, reaping, kill, exit), whoever asks
 *                  init to make them (a ptrace(2) tracer included)
 *
 * The setup process runs the setup table (child.c), then init_start below. The workload's
 * process starts with clone(CLONE_VM) on its own stack, sharing init's memory (no copy: a fork
 * here cost ~250 us). It runs the workload's table, and before its exec waits on a pipe;
 * init, woken by the other pipe, gives everything up and lets the workload exec. The two never
 * run at the same time until the exec, so they never use the shared memory (errno included)
 * at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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

#if defined(__x86_64__)
#define INIT_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define INIT_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define INIT_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__arm__) && defined(__ARMEL__)
#define INIT_AUDIT_ARCH AUDIT_ARCH_ARM
#elif defined(__riscv) && __riscv_xlen == 64
#define INIT_AUDIT_ARCH AUDIT_ARCH_RISCV64
#endif

/* Under AddressSanitizer (make check SANITIZE=1) both processes share ASan's record of the
 * current stack (one memory, one thread-local area): each says when it takes over, while the
 * other waits on its pipe, or ASan warns of a stack it does not know. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/common_interface_defs.h>
#define CRIB_ASAN 1
#endif
#endif
#ifdef CRIB_ASAN
static const void *asan_init_bottom;
static size_t asan_init_size;
#endif

/* The system calls init makes from here on, and nothing else. */
static const long init_calls[] = {
        SYS_rt_sigtimedwait,
#ifdef SYS_rt_sigtimedwait_time64
        SYS_rt_sigtimedwait_time64,
#endif
        SYS_rt_sigreturn,
        SYS_restart_syscall,
        SYS_wait4,
        SYS_waitid,
        SYS_kill,
        SYS_write,
        SYS_close,
        SYS_exit,
        SYS_exit_group,
#ifdef SYS_close_range
        SYS_close_range,
#endif
#ifdef CRIB_ASAN
        /* the sanitizers' own runtime, in test builds only: its stack and memory bookkeeping */
        SYS_mmap,
        SYS_munmap,
        SYS_mprotect,
        SYS_madvise,
        SYS_sigaltstack,
        SYS_gettid,
        SYS_getpid,
        SYS_rt_sigprocmask,
        SYS_rt_sigaction,
        SYS_futex,
        SYS_sched_yield,
#endif
};
#define N_INIT_CALLS (sizeof init_calls / sizeof init_calls[0])

/* Init's own filter: the calls above are allowed, any other (or another architecture's) fails
 * with EPERM. Stacked on the container's filter, so it only takes away. 0, or -1 with errno. */
static int load_init_filter(void)
{
#ifdef INIT_AUDIT_ARCH
        struct sock_filter f[4 + N_INIT_CALLS + 2];
        size_t n = 0;
        f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                              offsetof(struct seccomp_data, arch));
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, INIT_AUDIT_ARCH, 1, 0);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                              offsetof(struct seccomp_data, nr));
        for (size_t i = 0; i < N_INIT_CALLS; i++) /* match: jump to the allow at the end */
                f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
                                                      (uint32_t)init_calls[i],
                                                      (uint8_t)(N_INIT_CALLS - i), 0);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        return seccomp_load_filter(f, n, 0);
#else
        errno = ENOSYS; /* an architecture crib has no number table for: said in the trace */
        return -1;
#endif
}

/* Child: crib's init, while the workload's process waits just before its exec. Give up every
 * capability, id, descriptor and terminal of the setup; keep only `keep` (the pipe that lets
 * the workload go). Errors go to the parent over the sync socket, which is closed last. */
static int init_let_go(struct child *c, int keep, struct error *err)
{
        const struct plan *p = c->plan;
        int dropped = 0;

        /* the workload's change of ids, made in this shared memory, may have reset it */
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        /* every capability the kernel knows and init still has: the setup kept only the
         * container's (child.c), and the workload waits on each drop, which costs several
         * reads (it builds new credentials) */
        for (int cap = 0; cap <= p->cap_last; cap++) {
                if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 0)
                        continue;
                if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
                        return error_set(err, errno, "crib's init cannot drop capability %d", cap);
                dropped++;
        }
        if (p->set_groups && setgroups(0, NULL) < 0)
                return error_set(err, errno, "crib's init cannot drop its groups");
        if (setresgid(p->gid, p->gid, p->gid) < 0 || setresuid(p->uid, p->uid, p->uid) < 0)
                return error_set(err, errno, "crib's init cannot take uid %u gid %u", p->uid,
                                 p->gid);
        struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
        struct __user_cap_data_struct none[2] = {{0, 0, 0}, {0, 0, 0}};
        if (syscall(SYS_capset, &h, none) < 0)
                return error_set(err, errno, "crib's init cannot clear its capabilities");
        prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
        /* the change of ids reset both: not dumpable, and killed with crib */
        if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 || prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
                return error_set(err, errno, "crib's init cannot set its process attributes");
        struct pollfd pfd = {.fd = c->chan.fd, .events = POLLIN};
        if (poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLHUP | POLLERR)))
                _exit(125); /* crib died before the death signal was set */
        pid_t sid = setsid();
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return error_set(err, errno, "crib's init cannot set no_new_privs");
        if (c->trace.on)
                trace_line(&c->trace,
                           "  crib's init: dropped %d capabilities, uid %u gid %u, setsid() = %d, "
                           "not dumpable, death signal SIGKILL, no_new_privs; now its own "
                           "seccomp filter (%zu calls allowed) and every descriptor closed",
                           dropped, p->uid, p->gid, (int)sid, N_INIT_CALLS);
        /* EINVAL or ENOSYS: a kernel without seccomp filters (the plan said so already) */
        if (load_init_filter() < 0 && errno != EINVAL && errno != ENOSYS)
                return error_set(err, errno, "crib's init cannot load its own seccomp filter");
        /* from here on nothing is reported: the sync socket is one of the descriptors */
        if (keep > 0)
                syscall(SYS_close_range, 0U, (unsigned)keep - 1, 0U);
        syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0U);
        return 0;
}

/* The pipes between init and the workload's process: `ready` (workload -> init: the setup is
 * done) and `go` (init -> workload: init has let go). Each side keeps its own ends. And the
 * table the workload's process runs. */
struct handshake {
        int ready[2], go[2];
        const struct table *workload;
};
static struct handshake hs;

/* The workload's process starts here, on its own stack, in the memory of crib's init (which
 * waits until it says it is ready): it reports the end of init's step and runs its table. */
static int workload_start(void *arg)
{
        struct child *c = arg;
#ifdef CRIB_ASAN
        __sanitizer_finish_switch_fiber(NULL, &asan_init_bottom, &asan_init_size);
#endif
        close(hs.ready[0]);
        close(hs.go[1]);
        c->init_ready = hs.ready[1];
        c->init_go = hs.go[0];
        /* only the workload's process reports from here on, until it says it is ready */
        if (c->trace.on)
                trace_line(&c->trace,
                           "  clone(CLONE_VM) = %d (the workload; crib's init stays as pid %d)",
                           (int)getpid(), (int)getppid());
        step_done(c);
        steps_run(c, hs.workload);
        _exit(125); /* not reached: the table's last step execs or fails */
}

/* Child: the setup process, after the setup table (child.c: child_main), so the mounts, the
 * terminal and the filter are in place. The workload's table runs in the new process; this one
 * becomes crib's init and never returns, or returns -1 before there is a workload's process. */
int init_start(struct child *c, const struct table *workload, struct error *err)
{
        /* the workload's stack, used by that process alone */
        static char stack[256 * 1024] __attribute__((aligned(16)));
        const struct plan *p = c->plan;
        if (!(p->clone_flags & CLONE_NEWPID) && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
                return error_set(err, errno, "cannot become a child subreaper");
        if (pipe2(hs.ready, O_CLOEXEC) < 0 || pipe2(hs.go, O_CLOEXEC) < 0)
                return error_set(err, errno, "cannot create the pipes to crib's init");
        hs.workload = workload;
        sigset_t forwarded = c->forwarded;
#ifdef CRIB_ASAN
        __sanitizer_start_switch_fiber(NULL, stack, sizeof stack);
#endif
        pid_t pid = clone(workload_start, stack + sizeof stack, CLONE_VM | SIGCHLD, c);
        if (pid < 0)
                return error_set(err, errno, "cannot start the workload's process");
        close(hs.ready[1]);
        close(hs.go[0]);
        char b;
        ssize_t n;
        while ((n = read(hs.ready[0], &b, 1)) < 0 && errno == EINTR)
                ;
#ifdef CRIB_ASAN
        /* the workload's process waits (or is gone): init's own stack again */
        __sanitizer_start_switch_fiber(NULL, asan_init_bottom, asan_init_size);
        __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
        if (n == 1) {
                /* the workload's process waits for `go`: init alone runs now */
                if (init_let_go(c, hs.go[1], err) < 0) {
                        struct sync_msg m = {.type = SYNC_ERROR};
                        struct error ignored;
                        m.u.err = *err;
                        sync_send(&c->chan, &m, -1, &ignored);
                        kill(pid, SIGKILL);
                        _exit(125);
                }
                if (write(hs.go[1], "g", 1) != 1)
                        kill(pid, SIGKILL);
        } else {
                /* the workload's setup failed and it exits; it runs no code of its own */
                syscall(SYS_close_range, 0U, ~0U, 0U);
        }
        close(hs.go[1]);
        init_loop(pid, &forwarded);
}

/* Child: the workload's process, after the rest of its table and before exec: tell init the
 * setup is done and wait until init has let go of everything. */
int step_wait_init(struct child *c, struct error *err)
{
        if (!c->plan->init)
                return step_skip(c, "init = no: the workload is the container's first process");
        char b = 'r';
        ssize_t n = write(c->init_ready, &b, 1);
        close(c->init_ready);
        while (n == 1 && (n = read(c->init_go, &b, 1)) < 0 && errno == EINTR)
                ;
        /* and the pipe's end: init closes its `go` end right after it writes, and until it has
         * the workload could find that end in init (16-init.t saw it, with user = no and
         * SYS_PTRACE: a descriptor of init's to take); end of file says init holds none */
        ssize_t end = 0;
        while (n == 1 && (end = read(c->init_go, &b, 1)) != 0 && (end > 0 || errno == EINTR))
                ;
        close(c->init_go);
        trace_line(&c->trace, "  write(ready); read(go) = %zd", n);
        if (n != 1)
                return error_set(err, EPIPE, "crib's init did not give up its privileges");
        return 0;
}
