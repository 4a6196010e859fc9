/* hooks.c - run an OCI hook (the runtime spec's config.md, "POSIX-platform Hooks"): the engine's
 * program, with the container's state JSON on its stdin, in the runtime's namespaces.
 *
 * Kernel features: fork(2) and execve(2) with the hook's own argv and environment (nothing of
 * crib's: a hook with no env gets none), close_range(2) (Linux 5.9; else each descriptor) so it
 * inherits none of crib's descriptors but stdin (the state, a pipe) and stderr (crib's, which
 * the engine logs; stdout goes there too, as create's stdout is the container's), and
 * pidfd_open(2) (Linux 5.3) with poll(2) to wait at most its timeout, after which it is killed
 * (SIGKILL). The hook runs with crib's own ids and capabilities: it comes from the engine's
 * config, which is as trusted as the engine that runs crib.
 */
#define _GNU_SOURCE
#include "hooks.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/sys.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/* Child: stdin the state pipe, stdout and stderr crib's stderr, nothing else; then the hook */
static _Noreturn void hook_exec(const struct hook *h, int in)
{
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        if (dup2(in, STDIN_FILENO) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
                _exit(126);
        if (syscall(SYS_close_range, 3U, ~0U, 0U) < 0)
                for (int fd = 3; fd < 1024; fd++)
                        close(fd);
        execve(h->path, h->args, h->env);
        _exit(errno == ENOENT ? 127 : 126);
}

/* Wait for `pid` at most `timeout` seconds (0: for ever); its wait status, or -1 on timeout */
static int wait_bounded(pid_t pid, int timeout, int *status)
{
        int pfd = timeout ? (int)syscall(SYS_pidfd_open, pid, 0) : -1;
        if (pfd >= 0) {
                int r = sys_wait_readable(pfd, timeout * 1000);
                close(pfd);
                if (r == 0)
                        return -1;
        } else if (timeout) {
                /* no pidfd (before 5.3): look every 10 ms */
                for (int i = 0; i < timeout * 100; i++) {
                        if (waitpid(pid, status, WNOHANG) == pid)
                                return 0;
                        usleep(10000);
                }
                return -1;
        }
        while (waitpid(pid, status, 0) < 0)
                if (errno != EINTR)
                        return -1;
        return 0;
}

int hook_run(const struct hook *h, const char *kind, const char *state, struct error *err)
{
        int in[2];
        if (pipe2(in, O_CLOEXEC) < 0)
                return error_set(err, errno, "cannot make a pipe for the %s hook", kind);
        pid_t pid = fork();
        if (pid == 0)
                hook_exec(h, in[0]);
        int fork_errno = errno;
        close(in[0]);
        if (pid < 0) {
                close(in[1]);
                return error_set(err, fork_errno, "cannot start the %s hook '%s'", kind, h->path);
        }
        /* a hook that does not read its stdin must not kill crib with SIGPIPE */
        struct sigaction ign = {.sa_handler = SIG_IGN}, old;
        sigaction(SIGPIPE, &ign, &old);
        sys_write_all(in[1], state, strlen(state));
        close(in[1]);
        sigaction(SIGPIPE, &old, NULL);
        int status = 0;
        if (wait_bounded(pid, h->timeout, &status) < 0) {
                kill(pid, SIGKILL);
                while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                        ;
                error_set(err, 0, "the %s hook '%s' did not finish within %d s", kind, h->path,
                          h->timeout);
                return error_hint(err, "its timeout is the config's .hooks entry's");
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
                return 0;
        if (WIFSIGNALED(status))
                return error_set(err, 0, "the %s hook '%s' was killed by signal %d", kind, h->path,
                                 WTERMSIG(status));
        if (WEXITSTATUS(status) == 127)
                return error_set(err, ENOENT, "the %s hook '%s' cannot be run", kind, h->path);
        return error_set(err, 0, "the %s hook '%s' failed with exit status %d", kind, h->path,
                         WEXITSTATUS(status));
}
