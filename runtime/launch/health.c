/* health.c - [service] healthcheck: crib's monitor runs a program in a detached container now
 * and then, as `crib exec` runs one, and records whether it is healthy (docker's HEALTHCHECK).
 *
 * Kernel features: fork(2), for the checker: a process of the monitor's own, single-threaded,
 * that runs the checks one after the other for one run of the workload; poll(2) on a pipe for
 * the check's output and the time it has; kill(2) of the check's process group (it is a session
 * leader: enter.c) when it overruns its timeout.
 *
 * Why a process, and not a timer in the monitor's loop: the monitor follows the workload in
 * container_run's loop (follow.c), which reaps, forwards and waits; a check that runs for its
 * whole timeout must not hold that loop up, and container_enter clones (clone3, which copies no
 * other thread) so it must not run beside the log's thread either. The checker is forked from
 * the monitor's only thread (on_running, before the log's thread starts again), closes every
 * descriptor it inherited but 0, 1 and 2, and ends when the monitor kills it at the run's end.
 * Under a systemd unit, `crib run` in the foreground is the monitor (cmd/unit.c): it starts
 * and stops the checker the same way, and systemd's Restart= does what the restart loop does.
 *
 * Each check is container_enter (enter.c), exactly what `crib exec NAME -- CHECK` does, detached
 * so that it returns once the check runs: the same namespaces, root, ids, capabilities,
 * no_new_privs, seccomp filter, AppArmor profile and cgroup as the workload, never more, and no
 * descriptor of the host but its 0 (the monitor's /dev/null) and the pipe its 1 and 2 write to.
 * The program is looked up in the container: the container decides what runs, but only ever
 * inside itself; nothing it writes reaches the host but the output, at most
 * RECORD_HEALTH_OUTPUT bytes, escaped (record_escape) before it is recorded.
 *
 * docker's rules: the status is `starting` until a check succeeds (healthy) or `retries` checks
 * in a row fail after the start period (unhealthy); a check fails when it exits other than 0,
 * cannot run, or overruns its timeout (then it and its process group are killed); failures in
 * the start period do not count. The first check runs one interval after the workload starts.
 * Unhealthy, on_unhealthy decides: none, recorded only; kill, the stop marker (record.h) then
 * SIGKILL to the container's first process, so no restart policy undoes it; restart, the
 * health record says `restarted` for this run's pid, then SIGKILL: the monitor's restart loop
 * reads it and runs the container again (monitor.c).
 */
#define _GNU_SOURCE
#include "health.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "enter.h"
#include "state/record.h"
#include "state/state.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

struct checker {
        const struct plan *plan;
        const struct health_opts *o;
        pid_t pid;   /* the run's first process */
        int pidfd;   /* and pinned (pidfd_open, taken while the monitor has not reaped it), or -1 */
        int logfd;   /* the monitor's stderr: the container's log */
        pid_t check; /* the check's process, once it runs */
        struct record_health h;
};

static int64_t now_ms(void)
{
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void sleep_ms(int64_t ms)
{
        struct timespec t = {ms / 1000, (ms % 1000) * 1000000};
        while (ms > 0 && nanosleep(&t, &t) < 0 && errno == EINTR)
                ;
}

/* Checker: a line in the container's log */
__attribute__((format(printf, 2, 3))) static void log_line(struct checker *c, const char *fmt, ...)
{
        char line[600];
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(line, sizeof line - 1, fmt, ap);
        va_end(ap);
        if (n < 0)
                return;
        if ((size_t)n > sizeof line - 2)
                n = sizeof line - 2;
        line[n++] = '\n';
        if (write(c->logfd, line, (size_t)n) < 0) {
                /* nowhere else to say it */
        }
}

static void on_warn(void *ctx, const char *line)
{
        log_line(ctx, "crib: health check: %s", line);
}

static void on_created(void *ctx, pid_t pid, pid_t workload)
{
        struct checker *c = ctx;
        (void)workload;
        c->check = pid;
}

static void write_record(struct checker *c)
{
        struct error err;
        _cleanup_close_ int dir = state_open_path(c->o->root, c->o->uid, c->o->name, &err);
        c->h.pid = c->pid;
        if (dir < 0 || record_write_health(dir, &c->h, &err) < 0)
                on_warn(c, err.msg);
}

/* Checker: the check's output until it ends or its time is up; false when it overran (then it
 * and its process group are killed). *status: its wait status. */
static bool wait_check(struct checker *c, int out, int64_t deadline, char *buf, size_t *len,
                       int *status)
{
        bool eof = false;
        for (;;) {
                pid_t r = waitpid(c->check, status, WNOHANG);
                if (r == c->check)
                        break;
                if (r < 0 && errno != EINTR) {
                        *status = 255 << 8; /* not ours to wait for: a failure, never a pass */
                        break;
                }
                int64_t left = deadline - now_ms();
                if (left <= 0) {
                        kill(-c->check, SIGKILL); /* it is a session leader: its group */
                        kill(c->check, SIGKILL);
                        while (waitpid(c->check, status, 0) < 0 && errno == EINTR)
                                ;
                        return false;
                }
                /* once every writer has closed the pipe (a check that closes its 1 and 2 and
                 * runs on), poll would say POLLHUP at once, again and again: the pipe is left
                 * out (fd -1) and poll only sleeps, or the checker spins for the timeout */
                struct pollfd p = {.fd = eof ? -1 : out, .events = POLLIN};
                if (poll(&p, 1, left < 50 ? (int)left : 50) > 0) {
                        char tmp[4096];
                        ssize_t n = read(out, tmp, sizeof tmp);
                        if (n == 0)
                                eof = true;
                        if (n > 0 && *len < RECORD_HEALTH_OUTPUT) {
                                size_t k = (size_t)n < RECORD_HEALTH_OUTPUT - *len
                                                   ? (size_t)n
                                                   : RECORD_HEALTH_OUTPUT - *len;
                                memcpy(buf + *len, tmp, k);
                                *len += k;
                        }
                }
        }
        /* what it wrote before it ended; a process it left holding the pipe is not waited for */
        ssize_t n;
        while (*len < RECORD_HEALTH_OUTPUT &&
               (n = read(out, buf + *len, RECORD_HEALTH_OUTPUT - *len)) > 0)
                *len += (size_t)n;
        return true;
}

/* Checker: one check, as crib exec runs one; its exit status (125-127: it could not run), and
 * in c->h its output and whether it overran */
static int run_check(struct checker *c)
{
        char buf[RECORD_HEALTH_OUTPUT];
        size_t len = 0;
        int status = 0, code;
        struct error err;
        int64_t deadline = now_ms() + c->plan->health.timeout_ms;
        error_clear(&err);
        c->check = 0;
        c->h.timed_out = false;
        struct record rec;
        _cleanup_close_ int dir = state_open_path(c->o->root, c->o->uid, c->o->name, &err);
        if (dir < 0 || record_read(dir, c->o->name, &rec, &err) < 0)
                goto failed;
        struct enter_request rq = {.pid = rec.pid,
                                   .start = rec.pid_start,
                                   .workload = rec.workload,
                                   .workload_start = rec.workload_start,
                                   .argv = c->plan->health.argv,
                                   .detach = true};
        int pipefd[2];
        if (pipe2(pipefd, O_CLOEXEC) < 0) {
                error_set(&err, errno, "cannot make the check's pipe");
                goto failed;
        }
        /* its 1 and 2 the pipe's write end, for the time it takes to start it */
        if (dup2(pipefd[1], STDOUT_FILENO) < 0 || dup2(pipefd[1], STDERR_FILENO) < 0) {
                error_set(&err, errno, "cannot give the check its output");
                close(pipefd[0]);
                close(pipefd[1]);
                goto failed;
        }
        close(pipefd[1]);
        fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
        struct container_hooks hooks = {.warn = on_warn, .created = on_created, .ctx = c};
        int r = container_enter(c->plan, &rq, &hooks, &status, &err);
        dup2(c->logfd, STDOUT_FILENO);
        dup2(c->logfd, STDERR_FILENO);
        if (r < 0 || c->check <= 0) {
                close(pipefd[0]);
                goto failed;
        }
        c->h.timed_out = !wait_check(c, pipefd[0], deadline, buf, &len, &status);
        close(pipefd[0]);
        code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (c->h.timed_out) {
                static const char note[] = "crib: the check overran its timeout: killed";
                len = len + sizeof note > RECORD_HEALTH_OUTPUT ? RECORD_HEALTH_OUTPUT - sizeof note
                                                               : len;
                memcpy(buf + len, note, sizeof note - 1);
                len += sizeof note - 1;
        }
        record_escape(buf, len, c->h.output);
        return code;
failed:
        snprintf(buf, sizeof buf, "crib: the check could not run: %s%s%s", err.msg,
                 err.errnum ? ": " : "", err.errnum ? strerror(err.errnum) : "");
        record_escape(buf, strlen(buf), c->h.output);
        return error_exit_status(&err);
}

/* Checker: unhealthy, on_unhealthy = kill or restart: say so, then SIGKILL the run */
static _Noreturn void act(struct checker *c)
{
        enum spec_on_unhealthy u = c->plan->health.on_unhealthy;
        struct error err;
        snprintf(c->h.action, sizeof c->h.action, "%s",
                 u == SPEC_UNHEALTHY_KILL ? "killed" : "restarted");
        write_record(c); /* first: the monitor reads it once the run has ended */
        if (u == SPEC_UNHEALTHY_KILL) {
                _cleanup_close_ int dir = state_open_path(c->o->root, c->o->uid, c->o->name, &err);
                if (dir < 0 || record_write_stop(dir, SIGKILL, &err) < 0)
                        on_warn(c, err.msg);
        }
        log_line(c, "crib: '%s' is unhealthy (%u failed checks in a row): %s (on_unhealthy = %s)",
                 c->o->name, c->h.streak, u == SPEC_UNHEALTHY_KILL ? "killed" : "restarting it",
                 spec_on_unhealthy_name(u));
        /* through the pidfd: the monitor reaps the run when it ends, and kills us only after,
         * so by the pid alone this SIGKILL could reach a process that has taken the pid since */
        if (c->pidfd >= 0)
                syscall(SYS_pidfd_send_signal, c->pidfd, SIGKILL, NULL, 0);
        else
                kill(c->pid, SIGKILL); /* a kernel before 5.3 */
        _exit(0);
}

/* Checker: the checks, one interval apart, until the monitor kills us */
static _Noreturn void checker_main(struct checker *c)
{
        const struct spec_health *hp = &c->plan->health;
        int64_t started = now_ms();
        c->h = (struct record_health){.last_exit = -1};
        snprintf(c->h.status, sizeof c->h.status, "starting");
        write_record(c);
        for (;;) {
                sleep_ms(hp->interval_ms);
                int code = run_check(c);
                bool ok = code == 0 && !c->h.timed_out;
                c->h.checks++;
                c->h.last_exit = code;
                c->h.time = time(NULL);
                if (ok) {
                        c->h.streak = 0;
                        snprintf(c->h.status, sizeof c->h.status, "healthy");
                } else if (!strcmp(c->h.status, "starting") &&
                           now_ms() - started < (int64_t)hp->start_period_ms) {
                        /* docker: a failure in the start period does not count */
                } else if (++c->h.streak >= hp->retries) {
                        snprintf(c->h.status, sizeof c->h.status, "unhealthy");
                }
                if (!strcmp(c->h.status, "unhealthy") && hp->on_unhealthy != SPEC_UNHEALTHY_NONE)
                        act(c);
                write_record(c);
        }
}

pid_t health_start(const struct plan *p, const struct health_opts *o, pid_t pid, struct error *err)
{
        pid_t monitor = getpid();
        /* Monitor: the run pinned while it is our unreaped child (close-on-exec) */
        int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
        pid_t checker = fork();
        if (checker != 0) {
                if (pidfd >= 0)
                        close(pidfd);
                if (checker < 0)
                        error_set(err, errno, "cannot start the health checks");
                return checker;
        }
        /* Checker: dies with the monitor; holds nothing of it but its 0, 1 and 2, and the
         * run's pidfd as 3 */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != monitor)
                _exit(0);
        if (pidfd >= 0 && pidfd != 3 && (pidfd = dup3(pidfd, 3, O_CLOEXEC)) < 0)
                _exit(0);
        if (syscall(SYS_close_range, pidfd >= 0 ? 4U : 3U, ~0U, 0U) < 0) /* before Linux 5.9 */
                for (int fd = pidfd >= 0 ? 4 : 3; fd < 65536; fd++)
                        close(fd);
        struct checker c = {.plan = p, .o = o, .pid = pid, .pidfd = pidfd};
        c.logfd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
        if (c.logfd < 0)
                _exit(0);
        checker_main(&c);
}

enum health_end health_stop(pid_t checker, const struct health_opts *o, pid_t pid)
{
        struct record_health h;
        struct error ignored;
        if (checker > 0) {
                kill(checker, SIGKILL);
                while (waitpid(checker, NULL, 0) < 0 && errno == EINTR)
                        ;
        }
        _cleanup_close_ int dir = state_open_path(o->root, o->uid, o->name, &ignored);
        if (dir < 0 || record_read_health(dir, &h) < 0 || h.pid != pid)
                return HEALTH_END_NONE;
        return !strcmp(h.action, "restarted") ? HEALTH_END_RESTART
               : !strcmp(h.action, "killed")  ? HEALTH_END_KILLED
                                              : HEALTH_END_NONE;
}
