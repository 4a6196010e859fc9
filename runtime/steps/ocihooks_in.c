/* ocihooks_in.c - the engine's hooks that run inside the container: the OCI runtime spec's
 * createContainer and startContainer (config.md, "POSIX-platform Hooks"; runtime.md, the
 * lifecycle), each with the container's state JSON on its stdin, its own argv and environment,
 * and its timeout. The hooks that run in the runtime's namespaces are the front end's
 * (runtime/launch/hooks.c).
 *
 * Kernel features: fork(2) and execve(2); pipe2(2) for the hook's stdin (the state) and for its
 * stdout and stderr, which this process reads and throws away but for the first line of stderr,
 * which goes, escaped, into the error when the hook fails: nothing a hook prints reaches the
 * engine's terminal as it is. close_range(2) (fds.c) in the hook's process before execve, so it
 * holds no descriptor but 0, 1 and 2: closed, not close-on-exec, since execve(2) resolves the
 * path (and a '#!' interpreter) with the close-on-exec ones still open. pidfd_open(2) (Linux
 * 5.3; else a look every 20 ms) with poll(2) to wait at most its timeout, after which its
 * process group is killed (SIGKILL). openat2(2) RESOLVE_NO_MAGICLINKS (exec.c) so its path
 * cannot lead through a link of /proc.
 *
 * createContainer (PLAN_HOOK_SETUP): the setup process runs it (launch/child.c) after every
 * mount and before pivot_root, where the runtime spec and runc put it: in every namespace of
 * the container, as the setup process (root of the container's user namespace, with the
 * capabilities the setup holds: runc runs it as itself too), its working directory the rootfs
 * (as runc's), its path resolved from the host's root, which is still ours. A host program, which
 * the engine's config names: as trusted as the engine. What it must not get is crib's own: the
 * sync socket, the rootfs's descriptor (whose '..' is a host directory), the bind sources'
 * trees, the exec fifo, the seccomp template, the spec's pass_fds. All are closed.
 *
 * startContainer (PLAN_HOOK_START): the workload's process runs it after `crib start` let it go
 * and just before it execs the workload, where runc runs it. Its path is resolved in the
 * container, after pivot_root: the program is the image's, as hostile as the workload. So it
 * gets exactly the workload's confinement, by being forked from the workload's process after
 * every other step of it, as runc's is: the container user's ids and groups, the workload's
 * capabilities (bounding set included), no_new_privs when the config asks for it, the seccomp
 * filter, the AppArmor profile (set for the next exec, which a forked child inherits), the
 * container's cgroup and rlimits, the workload's working directory (checked to be inside the
 * root). crib's init has given up everything by then (init.c) and nothing of the host is open.
 * It gets less than runc's: no descriptor but 0, 1 and 2 (runc's keeps the preserved fds, and
 * kept runc's own until the fix of CVE-2024-21626), none of crib's environment (a hook with no
 * env gets none), and a path that leads through /proc is refused (an image's link to
 * /proc/self/exe would run crib's own binary, the host's: CVE-2019-5736's shape).
 *
 * The state each reads: the plan's (the front end's: id, bundle, annotations, ...) with what
 * only the container knows: its status (creating during create, created at start: runtime.md's
 * lifecycle, as runc), its pid as the host sees it (the setup process's, from SYNC_GO; runc
 * gives the pid inside the container's pid namespace, which the spec does not mean) and its
 * rootfs.
 *
 * What can go wrong: a hook that fails (an exit status other than 0, a signal, past its
 * timeout, not there) ends the container: create (or start) fails with 125 and says which hook,
 * how, and the first line of its stderr. A hook's children that outlive it are not waited for,
 * as runc does not; past its timeout, its process group is killed. An engine's seccomp profile
 * without fork, pipe2, poll or close_range stops a startContainer hook (the default profiles
 * allow them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "step.h"
#include "base/termsafe.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* The state's head: status, pid and rootfs (a path, escaped for JSON: at most 6 bytes each);
 * the plan's object follows it from after its '{'. Static: the workload's stack is small. */
static char state_head[64 + 6 * 4096 + 8];

/* `s` as the inside of a JSON string into `out`; its length, or -1 when it does not fit */
static long json_inside(char *out, size_t size, const char *s)
{
        size_t n = 0;
        for (; *s; s++) {
                unsigned char ch = (unsigned char)*s;
                char e[8] = {(char)ch};
                int len = 1;
                if (ch == '"' || ch == '\\')
                        len = snprintf(e, sizeof e, "\\%c", ch);
                else if (ch < 0x20)
                        len = snprintf(e, sizeof e, "\\u%04x", ch);
                if (n + (size_t)len >= size)
                        return -1;
                memcpy(out + n, e, (size_t)len);
                n += (size_t)len;
        }
        out[n] = '\0';
        return (long)n;
}

/* The state as two parts: the head made here, and the rest of the plan's object */
struct state {
        const char *part[2];
        size_t len[2];
};

static int state_make(const struct child *c, const char *status, struct state *ret,
                      struct error *err)
{
        const char *obj = c->plan->hook_state;
        if (!obj || obj[0] != '{')
                return error_set(err, EINVAL, "the plan has no state for the hooks");
        if (c->host_pid <= 0)
                return error_set(err, EINVAL, "the setup process was not told its pid");
        int n = snprintf(state_head, sizeof state_head,
                         "{\"status\":\"%s\",\"pid\":%d,\"rootfs\":\"", status, (int)c->host_pid);
        long r = json_inside(state_head + n, sizeof state_head - (size_t)n - 2, c->plan->rootfs);
        if (r < 0)
                return error_set(err, ENAMETOOLONG, "the rootfs's path is too long for the state");
        strcpy(state_head + n + r, obj[1] == '}' ? "\"" : "\",");
        *ret = (struct state){{state_head, obj + 1}, {strlen(state_head), strlen(obj + 1)}};
        return 0;
}

/* Child: the hook's own process. Its stdio the pipes, nothing else open, its own process group
 * (its timeout kills all of it), killed with its parent; then its program. What fails before
 * the exec says so on its stderr, which the parent reads. */
static _Noreturn void hook_child(const struct plan_hook *h, int in, int out, int errp, int cwd,
                                 pid_t parent)
{
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        setpgid(0, 0);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
                _exit(126);
        /* above 2 first, so no dup2 below overwrites another pipe */
        in = fcntl(in, F_DUPFD_CLOEXEC, 3);
        out = fcntl(out, F_DUPFD_CLOEXEC, 3);
        errp = fcntl(errp, F_DUPFD_CLOEXEC, 3);
        if (in < 0 || out < 0 || errp < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
            dup2(errp, 2) < 0)
                _exit(126);
        struct error e;
        if (cwd >= 0 && fchdir(cwd) < 0) {
                dprintf(2, "cannot enter the rootfs: %s\n", strerror(errno));
                _exit(126);
        }
        if (fds_close_all_but(NULL, 0, &e) < 0) {
                dprintf(2, "%s: %s\n", e.msg, strerror(e.errnum));
                _exit(126);
        }
        if (exec_through_magic_link(h->path)) {
                dprintf(2, "its path leads through a link of /proc\n");
                _exit(126);
        }
        execve(h->path, h->argv, h->envp);
        int saved = errno;
        dprintf(2, "cannot execute it: %s\n", strerror(saved));
        _exit(saved == ENOENT ? 127 : 126);
}

/* What the parent keeps of a hook's output: the first line of its stderr */
struct said {
        char line[256];
        size_t n;
        bool full; /* the line ended, or has all the room */
};

/* Read what `fd` has, at most 16 reads (a hook that writes without end does not keep us from
 * its timeout); 0 to go on, -1 at its end. What is not the first line is thrown away. */
static int drain(int fd, struct said *keep)
{
        char buf[4096];
        for (int i = 0; i < 16; i++) {
                ssize_t n = read(fd, buf, sizeof buf);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0 && errno == EAGAIN)
                        return 0;
                if (n <= 0)
                        return -1;
                for (ssize_t j = 0; keep && !keep->full && j < n; j++) {
                        if (buf[j] == '\n' || keep->n == sizeof keep->line - 1)
                                keep->full = true;
                        else
                                keep->line[keep->n++] = buf[j];
                }
        }
        return 0;
}

/* Write what the pipe takes of the state; 0 to go on, -1 when all of it is written (or the
 * hook closed its stdin) */
static int feed(int fd, const struct state *s, size_t *part, size_t *off)
{
        while (*part < 2) {
                if (*off == s->len[*part]) {
                        (*part)++;
                        *off = 0;
                        continue;
                }
                ssize_t n = write(fd, s->part[*part] + *off, s->len[*part] - *off);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return errno == EAGAIN ? 0 : -1;
                *off += (size_t)n;
        }
        return -1;
}

static long ms_since(const struct timespec *t0)
{
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (t.tv_sec - t0->tv_sec) * 1000L + (t.tv_nsec - t0->tv_nsec) / 1000000L;
}

static void close_fd(int *fd)
{
        if (*fd >= 0)
                close(*fd);
        *fd = -1;
}

/* Wait for the hook: feed its stdin, read its output, at most its timeout. 0 with its wait
 * status, 1 past its timeout (it is killed), -1 on an error of ours. */
static int follow_hook(pid_t pid, int timeout, int fds[3], const struct state *st,
                       struct said *said, int *status, struct error *err)
{
        int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        size_t part = 0, off = 0;
        int r = 0;
        for (;;) {
                struct pollfd p[4];
                int np = 0, at[4] = {-1, -1, -1, -1};
                for (int i = 0; i < 3; i++)
                        if (fds[i] >= 0) {
                                at[i] = np;
                                p[np++] = (struct pollfd){fds[i], i == 0 ? POLLOUT : POLLIN, 0};
                        }
                if (pidfd >= 0)
                        p[np++] = (struct pollfd){pidfd, POLLIN, 0};
                int wait_ms = pidfd >= 0 ? -1 : 20;
                if (timeout) {
                        long left = timeout * 1000L - ms_since(&t0);
                        if (left <= 0) {
                                r = 1;
                                break;
                        }
                        if (wait_ms < 0 || left < wait_ms)
                                wait_ms = (int)left;
                }
                int n = poll(p, (nfds_t)np, wait_ms);
                if (n < 0 && errno != EINTR) {
                        r = error_set(err, errno, "cannot wait for the hook");
                        break;
                }
                if (n > 0 && at[0] >= 0 && p[at[0]].revents && feed(fds[0], st, &part, &off) < 0)
                        close_fd(&fds[0]); /* all of it: the hook reads end-of-file next */
                if (n > 0 && at[1] >= 0 && p[at[1]].revents && drain(fds[1], NULL) < 0)
                        close_fd(&fds[1]);
                if (n > 0 && at[2] >= 0 && p[at[2]].revents && drain(fds[2], said) < 0)
                        close_fd(&fds[2]);
                pid_t w = waitpid(pid, status, WNOHANG);
                if (w == pid)
                        break;
                if (w < 0 && errno != EINTR) {
                        r = error_set(err, errno, "cannot wait for the hook");
                        break;
                }
        }
        if (pidfd >= 0)
                close(pidfd);
        if (r != 0) {
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                        ;
        } else if (fds[2] >= 0) {
                drain(fds[2], said); /* what it wrote just before it ended */
        }
        return r;
}

/* Run hook `i` of `when` (`kind`, for messages) with the state `st`; 0 when it exits 0. */
static int run_one(struct child *c, enum plan_hook_when when, size_t i, const char *kind,
                   const struct state *st, struct error *err)
{
        const struct plan_hook *h = &c->plan->hooks[when][i];
        int in[2] = {-1, -1}, out[2] = {-1, -1}, er[2] = {-1, -1};
        if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(er, O_CLOEXEC) < 0) {
                int e = errno;
                for (int k = 0; k < 2; k++) {
                        close_fd(&in[k]);
                        close_fd(&out[k]);
                        close_fd(&er[k]);
                }
                return error_set(err, e, "cannot make the pipes for the %s hook '%s'", kind,
                                 h->path);
        }
        pid_t self = getpid();
        pid_t pid = fork();
        if (pid == 0)
                hook_child(h, in[0], out[1], er[1], when == PLAN_HOOK_SETUP ? c->rootfd : -1, self);
        int fork_errno = errno;
        close_fd(&in[0]);
        close_fd(&out[1]);
        close_fd(&er[1]);
        int fds[3] = {in[1], out[0], er[0]};
        if (pid < 0) {
                for (int k = 0; k < 3; k++)
                        close_fd(&fds[k]);
                return error_set(err, fork_errno, "cannot start the %s hook '%s'", kind, h->path);
        }
        setpgid(pid, pid); /* as the child does: whichever comes first */
        for (int k = 0; k < 3; k++)
                fcntl(fds[k], F_SETFL, O_NONBLOCK);
        /* a hook that does not read all its stdin must not end us with SIGPIPE */
        struct sigaction ign = {.sa_handler = SIG_IGN}, old;
        sigaction(SIGPIPE, &ign, &old);
        struct said said = {.n = 0};
        int status = 0;
        int r = follow_hook(pid, h->timeout, fds, st, &said, &status, err);
        sigaction(SIGPIPE, &old, NULL);
        for (int k = 0; k < 3; k++)
                close_fd(&fds[k]);
        trace_line(&c->trace, "  fork() = %d; execve(\"%s\"): status 0x%x%s", (int)pid, h->path,
                   (unsigned)status, r == 1 ? ", killed past its timeout" : "");
        if (r < 0)
                return -1;
        char line[TERMSAFE_SIZE(sizeof said.line)];
        termsafe_escape(line, sizeof line, said.line, said.n);
        const char *sep = said.n ? ": " : "";
        if (r == 1) {
                error_set(err, 0, "the %s hook '%s' did not finish within %d s%s%s", kind, h->path,
                          h->timeout, sep, line);
                return error_hint(err,
                                  "it was killed; its timeout is config.json's "
                                  ".hooks.%s[%zu].timeout",
                                  kind, i);
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
                return 0;
        if (WIFSIGNALED(status))
                error_set(err, 0, "the %s hook '%s' was killed by signal %d (SIG%s)%s%s", kind,
                          h->path, WTERMSIG(status), sigabbrev_np(WTERMSIG(status)) ?: "?", sep,
                          line);
        else
                error_set(err, 0, "the %s hook '%s' failed with exit status %d%s%s", kind, h->path,
                          WEXITSTATUS(status), sep, line);
        return error_hint(err, "config.json's .hooks.%s[%zu] names it", kind, i);
}

/* Every hook of `when`, in order, with the state of `status`; the first that fails is the
 * step's error. */
static int run_all(struct child *c, enum plan_hook_when when, const char *kind, const char *status,
                   struct error *err)
{
        size_t n = c->plan->nhooks[when];
        if (!n)
                return step_skip(c, "no %s hooks", kind);
        struct state st;
        if (state_make(c, status, &st, err) < 0)
                return -1;
        for (size_t i = 0; i < n; i++)
                if (run_one(c, when, i, kind, &st, err) < 0)
                        return -1;
        return 0;
}

/* Child: the setup process, after the mounts, before pivot_root */
int step_hooks_setup(struct child *c, struct error *err)
{
        return run_all(c, PLAN_HOOK_SETUP, "createContainer", "creating", err);
}

/* Child: the workload's process, after crib start, before the exec */
int step_hooks_start(struct child *c, struct error *err)
{
        return run_all(c, PLAN_HOOK_START, "startContainer", "created", err);
}
