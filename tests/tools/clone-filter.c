/* clone-filter - the kernel's side of SECCOMP_CLONE_FILTER (tests/vm/kernel/'s patch), as TAP.
 *
 *   clone-filter        as root, on a kernel with the operation (the x86_64:clone guest)
 *
 * Each case runs in a child of its own (a filter cannot be taken off), which exits with the
 * errno the call gave (0: success) or 100 + a reason. The sources are children too: one
 * under a filter that answers uname(2) with EXDEV and allows the rest, one with no filter, one
 * whose filter has a user-notification listener, and one that exited.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SECCOMP_CLONE_FILTER
#define SECCOMP_CLONE_FILTER 4
#endif

static int n, failed;

static void check(int got, int want, const char *what)
{
        n++;
        if (got == want) {
                printf("ok %d - %s\n", n, what);
                return;
        }
        failed++;
        printf("not ok %d - %s: got %s (%d), want %s\n", n, what,
               got && got < 100 ? strerrorname_np(got) : "?", got,
               want ? strerrorname_np(want) : "success");
}

static const struct sock_filter deny_uname[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_uname, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EXDEV),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

static long load(unsigned flags)
{
        struct sock_fprog p = {.len = 4, .filter = (struct sock_filter *)deny_uname};
        return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &p);
}

/* A source process: kind 0 no filter, 1 the filter, 2 the filter with a listener; it waits
 * until killed. Returns its pid and a pidfd for it. */
static pid_t source(int kind, int *pidfd)
{
        int p[2];
        if (pipe(p) < 0)
                exit(2);
        pid_t pid = fork();
        if (pid == 0) {
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                if (kind && load(kind == 2 ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0) < 0)
                        _exit(1);
                if (write(p[1], "x", 1) != 1)
                        _exit(1);
                for (;;)
                        pause();
        }
        char c;
        close(p[1]);
        if (read(p[0], &c, 1) != 1) {
                printf("Bail out! a source process (kind %d) did not start\n", kind);
                exit(2);
        }
        close(p[0]);
        *pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
        if (*pidfd < 0) {
                printf("Bail out! pidfd_open: %s\n", strerror(errno));
                exit(2);
        }
        return pid;
}

enum how { NNP, NO_NNP_ROOT, NO_NNP_USER, FILTERED, FLAGS };

/* In a child: the call, made `how`; then, on success, whether uname is denied as in the
 * source and Seccomp_filters is 1. Returns the errno, 0, or 100 + a reason. */
static int try_clone(int pidfd, enum how how)
{
        pid_t pid = fork();
        if (pid == 0) {
                if (how == NO_NNP_USER && setresuid(1000, 1000, 1000) < 0)
                        _exit(101);
                if (how != NO_NNP_ROOT && how != NO_NNP_USER)
                        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                if (how == FILTERED && load(0) < 0)
                        _exit(102);
                long r = syscall(SYS_seccomp, SECCOMP_CLONE_FILTER, how == FLAGS ? 1 : 0,
                                 (long)pidfd);
                if (r < 0)
                        _exit(errno);
                struct utsname u;
                if (uname(&u) == 0 || errno != EXDEV)
                        _exit(103); /* the clone does not answer as the source's filter */
                FILE *f = fopen("/proc/self/status", "re");
                char line[256];
                int count = -1;
                while (f && fgets(line, sizeof line, f))
                        if (!strncmp(line, "Seccomp_filters:", 16))
                                count = atoi(line + 16);
                _exit(count == 1 ? 0 : 104);
        }
        int st;
        waitpid(pid, &st, 0);
        return WIFEXITED(st) ? WEXITSTATUS(st) : 110;
}

int main(void)
{
        int with, none, listener, dead, devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
        pid_t p_with = source(1, &with);
        pid_t p_none = source(0, &none);
        pid_t p_listener = source(2, &listener);
        pid_t p_dead = source(1, &dead);
        (void)p_with, (void)p_none, (void)p_listener;

        check(try_clone(with, NNP), 0,
              "with no_new_privs: cloned; uname answers EXDEV as in the source; one filter");
        check(try_clone(with, NO_NNP_ROOT), 0, "without no_new_privs, with CAP_SYS_ADMIN: cloned");
        check(try_clone(with, NO_NNP_USER), EACCES,
              "without no_new_privs or CAP_SYS_ADMIN (uid 1000): EACCES");
        check(try_clone(with, FILTERED), EINVAL, "a caller that has a filter already: EINVAL");
        check(try_clone(with, FLAGS), EINVAL, "flags other than 0: EINVAL");
        check(try_clone(none, NNP), EINVAL, "a source without a filter: EINVAL");
        check(try_clone(listener, NNP), EBUSY,
              "a source whose filter has a user-notification listener: EBUSY");
        check(try_clone(-1, NNP), EBADF, "fd -1: EBADF");
        check(try_clone(devnull, NNP), EBADF, "an fd that is not a pidfd: EBADF");
        kill(p_dead, SIGKILL);
        siginfo_t si;
        waitid(P_PID, (id_t)p_dead, &si, WEXITED | WNOWAIT);
        check(try_clone(dead, NNP), ESRCH, "a source that exited (a zombie): ESRCH");
        waitpid(p_dead, NULL, 0);
        check(try_clone(dead, NNP), ESRCH, "a source that exited and was reaped: ESRCH");
        printf("1..%d\n", n);
        return failed ? 1 : 0;
}
