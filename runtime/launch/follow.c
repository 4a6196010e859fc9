/* follow.c - the parent's side of the processes it started in a container, from the fork to
 * their end: one loop for `crib run` (container.c), `crib exec` (enter.c) and `crib run -d`
 * until the workload runs (monitor.c).
 *
 * Kernel features: signalfd(2), so the forwarded signals and SIGCHLD, blocked before the fork
 * (none sent early is lost), come in one poll(2) with the sync socket and the terminal relay
 * (relay.c); a SOCK_SEQPACKET socket whose end in the container closes at its execve(2), so
 * EOF after SYNC_EXEC means the program runs (sync.h); waitpid(2) with WNOHANG, and
 * waitid(2) with WNOWAIT for a detached exec, whose status is for our parent (a subreaper).
 *
 * Each round: read what is ready (a message, the signals, the terminal), then stop once the
 * process ended (or, as the caller asked, runs detached, waits for crib start, or execs) and
 * its socket is closed. A signal for the process before its pid is known (crib exec: its
 * joiner sends it, SYNC_PID) waits in a set and is forwarded then. Nothing here waits for the
 * container: the relay never blocks (relay.h), and what the container wrote is drained in
 * bounded reads once it is gone (relay_end).
 */
#define _GNU_SOURCE
#include "follow.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "steps/pty.h"

/* The signals crib passes on: from the parent to the setup process, from crib's init to the
 * workload (init.c). The one list of them. */
static const int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH};

void forwarded_signals(sigset_t *ret)
{
        sigemptyset(ret);
        for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
                sigaddset(ret, forwarded[i]);
}

void follow_trace_hook(void *ctx, const char *line)
{
        const struct container_hooks *h = ctx;
        if (h->trace)
                h->trace(h->ctx, line);
}

void follow_init(struct follow *f, const struct container_hooks *h, struct trace *t)
{
        *f = (struct follow){
                .hooks = h,
                .trace = t,
                .pid = -1,
                .joiner = -1,
                .chan = {.fd = -1},
                .sigfd = -1,
        };
        sigemptyset(&f->pending);
        relay_init(&f->relay);
}

int follow_open(struct follow *f, int *ret_child_end, struct error *err)
{
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return error_set(err, errno, "cannot create the sync socket");
        f->chan.fd = sv[0];
        *ret_child_end = sv[1];
        return 0;
}

int follow_block_signals(struct follow *f, struct error *err)
{
        sigset_t set;
        forwarded_signals(&set);
        sigaddset(&set, SIGCHLD);
        sigset_t block = set;
        if (f->block_sigpipe)
                sigaddset(&block, SIGPIPE);
        sigprocmask(SIG_BLOCK, &block, &f->old);
        f->blocked = true;
        f->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
        if (f->sigfd < 0)
                return error_set(err, errno, "cannot create a signalfd");
        return 0;
}

/* Pass `sig` on to the process, or keep it until we know it. */
static void forward(struct follow *f, int sig)
{
        if (f->pid <= 0) {
                sigaddset(&f->pending, sig); /* passed on once we know the process */
                return;
        }
        if (f->reaped)
                return;
        trace_line(f->trace, "parent: kill(%d, %s) (forwarded)", (int)f->pid, sigabbrev_np(sig));
        kill(f->pid, sig);
}

/* Reap what exited of ours: the process (detached: noticed, never reaped: its status is for
 * our parent, the subreaper that adopts it, a program that exits at once included), the
 * joiner, and the caller's others. */
static void reap(struct follow *f)
{
        int st;
        if (f->joiner > 0 && !f->joiner_reaped && waitpid(f->joiner, &st, WNOHANG) == f->joiner)
                f->joiner_reaped = true;
        if (f->pid > 0 && f->detach && !f->exited) {
                siginfo_t si = {.si_pid = 0};
                if (waitid(P_PID, (id_t)f->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                    si.si_pid == f->pid)
                        f->exited = true;
        } else if (f->pid > 0 && !f->detach && !f->reaped &&
                   waitpid(f->pid, &f->status, WNOHANG) == f->pid) {
                f->reaped = true;
        }
        if (f->reap_others)
                f->reap_others(f->ctx);
}

/* crib exec's joiner names the process it started (SYNC_PID), which waits for our go-ahead:
 * we know its pid, so a signal for it is forwarded from here on. */
static int on_pid(struct follow *f, const struct sync_msg *m, struct error *err)
{
        if (f->joiner <= 0 || f->pid > 0 || m->u.pid <= 0)
                return error_set(err, EPROTO, "unexpected pid message");
        f->pid = m->u.pid;
        trace_line(f->trace,
                   "  the joiner's clone(CLONE_PARENT) = %d: our child, in the "
                   "container's pid namespace",
                   (int)f->pid);
        /* it may have exited already, its SIGCHLD read while we did not know it */
        reap(f);
        for (int sig = 1; sig < NSIG; sig++)
                if (sigismember(&f->pending, sig) == 1)
                        forward(f, sig);
        sigemptyset(&f->pending);
        struct sync_msg go = {.type = SYNC_GO};
        return sync_send(&f->chan, &go, -1, err);
}

/* One message, with the descriptor that came with it (*fd: taken, or left for the caller to
 * close); -1 on a protocol error. */
static int dispatch(struct follow *f, const struct sync_msg *m, int *fd, struct error *err)
{
        switch (m->type) {
        case SYNC_TRACE:
                follow_trace_hook((void *)f->hooks, m->u.text);
                return 0;
        case SYNC_WARN:
                if (f->hooks->warn)
                        f->hooks->warn(f->hooks->ctx, m->u.text);
                return 0;
        case SYNC_PID:
                return on_pid(f, m, err);
        case SYNC_PTY:
                if (*fd < 0)
                        return error_set(err, EPROTO, "terminal message without a descriptor");
                if (f->hooks->pty)
                        f->hooks->pty(f->hooks->ctx, *fd); /* it closes it */
                else
                        relay_start(&f->relay, *fd);
                *fd = -1;
                return 0;
        case SYNC_CREATED:
                if (!f->wait_start)
                        return error_set(err, EPROTO, "unexpected created message");
                f->created = true;
                f->workload = f->chan.sender;
                if (f->hooks->created)
                        f->hooks->created(f->hooks->ctx, f->pid, f->workload);
                return 0;
        case SYNC_EXEC:
                f->exec_seen = true;
                f->workload = f->chan.sender;
                return 0;
        case SYNC_STEP: {
                /* crib run --step: the user says when it runs (container_hooks.step) */
                struct sync_msg go = {.type = SYNC_STEP_GO};
                char what[sizeof m->u.text];
                snprintf(what, sizeof what, "%s", m->u.text);
                if (!f->hooks->step)
                        return error_set(err, EPROTO, "unexpected step message");
                if (f->hooks->step(f->hooks->ctx, what, f->chan.sender) < 0)
                        return error_set(err, 0, "stopped before step %s, as asked", what);
                return sync_send(&f->chan, &go, -1, err);
        }
        case SYNC_ERROR:
                if (!f->have_error) {
                        sync_error_of(m, &f->child_err);
                        f->have_error = true;
                }
                return 0;
        default:
                return error_set(err, EPROTO, "unexpected sync message %u from the container",
                                 m->type);
        }
}

/* A message on the sync socket, or its end: 1 read one, 0 EOF, -1 error. */
static int on_message(struct follow *f, struct error *err)
{
        struct sync_msg m;
        int fd = -1;
        int n = sync_recv(&f->chan, &m, &fd, err);
        if (n <= 0) {
                close(f->chan.fd);
                f->chan.fd = -1;
                /* EOF after SYNC_EXEC and no error: the exec succeeded (sync.h) */
                if (n == 0 && f->exec_seen && !f->have_error && f->running)
                        f->running(f->ctx);
                return n;
        }
        int r = dispatch(f, &m, &fd, err);
        if (fd >= 0)
                close(fd);
        return r < 0 ? -1 : 1;
}

static void on_signal(struct follow *f)
{
        struct signalfd_siginfo si;
        while (read(f->sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
                int sig = (int)si.ssi_signo;
                if (sig == SIGCHLD) {
                        reap(f);
                        continue;
                }
                if (sig == SIGWINCH && f->relay.master >= 0)
                        pty_copy_size(STDIN_FILENO, f->relay.master);
                forward(f, sig);
        }
}

/* The container's sd_notify messages: passed on (notify.c); one systemd did not take is a
 * warning, once (the container sends as often as it likes: a line each would flood crib's
 * stderr, the unit's journal), never the container's end. */
static void on_notify(struct follow *f)
{
        struct error err;
        for (int i = 0; i < 64; i++) { /* bounded: the other fds get their turn */
                int r = notify_proxy_read(f->notify, &err);
                if (r == 0)
                        return;
                if (r < 0 && f->hooks->warn && !f->notify->warned) {
                        f->notify->warned = true;
                        char line[1200];
                        snprintf(line, sizeof line,
                                 "%s%s%s (said once: the container's later messages that systemd"
                                 " does not take are dropped without a word)",
                                 err.msg, err.errnum ? ": " : "",
                                 err.errnum ? strerror(err.errnum) : "");
                        f->hooks->warn(f->hooks->ctx, line);
                }
        }
}

static bool done(const struct follow *f)
{
        if (f->created || (f->until_exec && f->exec_seen))
                return true;
        if (f->chan.fd >= 0 || (f->joiner > 0 && !f->joiner_reaped))
                return false;
        /* detached: the program runs (EOF after SYNC_EXEC, no error), or it exited: it is left
         * to our parent, which adopts it when we exit */
        bool left = f->detach && (f->exited || (f->exec_seen && !f->have_error));
        return f->pid <= 0 || f->reaped || left;
}

int follow_run(struct follow *f, struct error *err)
{
        while (!done(f)) {
                struct pollfd pfd[3 + RELAY_MAX_POLL];
                int n = 0, i_chan = -1, i_sig = -1, i_notify = -1;
                if (f->chan.fd >= 0)
                        pfd[i_chan = n++] = (struct pollfd){.fd = f->chan.fd, .events = POLLIN};
                if (f->sigfd >= 0)
                        pfd[i_sig = n++] = (struct pollfd){.fd = f->sigfd, .events = POLLIN};
                if (f->notify && f->notify->fd >= 0)
                        pfd[i_notify = n++] =
                                (struct pollfd){.fd = f->notify->fd, .events = POLLIN};
                int i_relay = n, nrelay = relay_poll(&f->relay, pfd + n);
                n += nrelay;
                if (poll(pfd, (nfds_t)n, -1) < 0) {
                        if (errno == EINTR)
                                continue;
                        return error_set(err, errno, "poll");
                }
                if (i_chan >= 0 && pfd[i_chan].revents && on_message(f, err) < 0)
                        return -1;
                if (i_sig >= 0 && pfd[i_sig].revents)
                        on_signal(f);
                if (i_notify >= 0 && pfd[i_notify].revents)
                        on_notify(f);
                relay_handle(&f->relay, pfd + i_relay, nrelay);
        }
        relay_end(&f->relay);
        return 0;
}

void follow_kill(struct follow *f)
{
        if (f->pid > 0 && !f->reaped) {
                kill(f->pid, SIGKILL);
                while (waitpid(f->pid, &f->status, 0) < 0 && errno == EINTR)
                        ;
                f->reaped = true;
        }
        if (f->joiner > 0 && !f->joiner_reaped) {
                kill(f->joiner, SIGKILL);
                while (waitpid(f->joiner, NULL, 0) < 0 && errno == EINTR)
                        ;
                f->joiner_reaped = true;
        }
}

void follow_close(struct follow *f)
{
        if (f->chan.fd >= 0)
                close(f->chan.fd);
        if (f->sigfd >= 0)
                close(f->sigfd);
        f->chan.fd = f->sigfd = -1;
        relay_end(&f->relay);
        if (!f->blocked)
                return;
        if (f->block_sigpipe) {
                /* a SIGPIPE the relay got (EPIPE) is not ours to die of */
                sigset_t pipe_set;
                sigemptyset(&pipe_set);
                sigaddset(&pipe_set, SIGPIPE);
                while (sigtimedwait(&pipe_set, NULL, &(struct timespec){0, 0}) == SIGPIPE)
                        ;
        }
        sigprocmask(SIG_SETMASK, &f->old, NULL);
        f->blocked = false;
}
