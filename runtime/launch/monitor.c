/* monitor.c - crib's monitor: the process that stays behind a detached container.
 *
 * Kernel features: fork(2) and setsid(2), so the monitor has no terminal and outlives the
 * shell that ran `crib run -d`; prctl(2) PR_SET_PDEATHSIG, so it dies with that crib until the
 * workload runs (a crib killed during `run -d` leaves no container, only a record that says
 * so) and not after; a pipe(2) for the container's stdout and stderr, read by a thread that
 * writes the log (log.c), and unix(7) SOCK_SEQPACKET to tell crib how the start went, which
 * crib reads in the loop that follows every container (follow.c) until the workload runs.
 *
 * Why a monitor, and not crib's init, follows a detached container: crib's init lives inside
 * the container, beside the workload, and holds nothing (init.c: no capability, no descriptor,
 * a seccomp filter of a dozen calls). Writing a log and the exit status would give it a
 * descriptor on the host's filesystem and the calls to use it. The monitor is crib's own
 * parent half of `crib run` (container.c), unchanged, in a process of its own: outside every
 * namespace of the container, where no process of the container can reach it, and it sees
 * how crib's init ended, even by SIGKILL. It costs one small process per container (runc's
 * users run conmon for the same reasons).
 *
 * Lifetime, in order:
 *   crib                     monitor                          container
 *   fork ------------------> setsid, death signal, record
 *                            stdin /dev/null, stdout+stderr
 *                            the log pipe; the log thread
 *                            container_run ------------------> setup (its trace and warnings
 *   prints them <----------- passes them on                    go to crib until it runs)
 *   prints the name <------- running: record pid, no death    workload
 *   exits 0                  signal any more
 *                            follows it: signals, reaping      ...
 *                            record exit status <------------- ends
 *                            close the log, exit
 *
 * A setup that fails sends its error to crib, which prints it (exit status 125), and the
 * monitor removes the container's state directory: a failed start leaves nothing behind.
 *
 * The monitor holds no descriptor of the state tree while it starts the container (the setup
 * process, cloned from it, would inherit them): it opens the container's directory by path
 * each time it writes a record (state_open_path), and so does the log when it rotates.
 *
 * Restarts ([service] restart, plan.restart; crib.ini(5)). When the workload ends and the
 * policy says so, the monitor waits docker's backoff and calls container_run again: the whole
 * setup, every check, the same plan, state directory, log pipe and (an image's) rootfs; the
 * restarts file (record.h) counts them. The log's thread is stopped before each restart's clone
 * (clone3 copies no other thread, and one holding a lock, malloc's say, would leave it held in
 * the setup process) and started again once the workload runs. crib stop, crib kill with a
 * signal that ends it and crib rm -f write the stop marker (record.h) before they signal, and
 * signal the pid recorded after the marker is written (store_signal_stop). The races, and what
 * closes each:
 *   - stop while the workload runs: its signal ends the workload after the marker exists; the
 *     monitor looks for the marker before every restart, so it restarts nothing.
 *   - stop during the backoff: no process to signal; the monitor looks every 100 ms while it
 *     waits, so crib stop's wait ends within that, not after the backoff.
 *   - stop while a restart is being set up: crib stop finds the old, dead pid and signals
 *     nothing. The monitor writes the new pid record, then looks for the marker (on_running):
 *     either it sees it and sends the run the marker's signal itself, or it looked before the
 *     marker was written, and then crib stop, which reads the record after writing the marker,
 *     reads the new pid and signals it. One of the two always signals the new run.
 *   - stop's escalation to SIGKILL writes the marker again with SIGKILL, so a run started
 *     meanwhile gets SIGKILL too, and crib stop never waits more than its timeout and 10 s.
 *   - crib rm -f while the monitor restarts: it does not kill the monitor (that would leave no
 *     exit record, nor clean up a setup under way) but waits for the marker to end it; only a
 *     monitor that does not end within 10 s is killed.
 *   - a pid record that cannot be written: the run is killed and the monitor ends, as on the
 *     first start; a restart whose setup fails ends the container with its status (125),
 *     logged: a setup that failed once would fail again, so there is no loop.
 */
#define _GNU_SOURCE
#include "monitor.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "follow.h"
#include "health.h"
#include "state/log.h"
#include "state/record.h"
#include "state/state.h"
#include "steps/sync.h"

struct pump {
        int in;     /* the log pipe's read end */
        int ctl[2]; /* a byte on it pauses the thread (before a restart's clone) */
        struct log_writer w;
};

struct monitor {
        const struct plan *plan;
        const struct monitor_opts *o;
        const struct container_hooks *h; /* crib's printers: to stderr, the log from now on */
        struct sync_chan chan;           /* to crib, until the workload runs; then fd -1 */
        bool running;
        bool has_failed; /* the workload ran but could not be recorded: stopped, and `failed` */
        struct error failed;
        struct pump *pump; /* the log, and its thread once started */
        pthread_t thread;
        bool pumping;
        /* the restart policy (plan.restart): how many restarts so far, the exit status that
         * made the last one, and when the current run's workload started */
        unsigned restarts;
        int last;
        struct timespec ran_since;
        /* [service] healthcheck (health.c): the current run's first process and its checker
         * (0: none) */
        struct health_opts health;
        pid_t run_pid, checker;
};

/* Monitor: a line for crib to print while it waits; after, the log's. */
static void pass_on(struct monitor *m, uint32_t type, const char *line)
{
        if (m->chan.fd >= 0) {
                struct sync_msg msg = {.type = type};
                struct error ignored;
                snprintf(msg.u.text, sizeof msg.u.text, "%s", line);
                sync_send(&m->chan, &msg, -1, &ignored);
        } else if (type == SYNC_TRACE && m->h->trace) {
                m->h->trace(m->h->ctx, line);
        } else if (type == SYNC_WARN && m->h->warn) {
                m->h->warn(m->h->ctx, line);
        }
}

static void on_trace(void *ctx, const char *line)
{
        pass_on(ctx, SYNC_TRACE, line);
}

static void on_warn(void *ctx, const char *line)
{
        pass_on(ctx, SYNC_WARN, line);
}

static int start_pump(struct pump *p, pthread_t *t, struct error *err);
static void close_inherited(const struct plan *p, int keep, bool all);

/* Monitor: the workload runs (the first run, or a restart): record its pid, then look for the
 * stop marker (see "Restarts" above); the first time, stop dying with crib and let crib go. */
static void on_running(void *ctx, pid_t pid, pid_t workload)
{
        struct monitor *m = ctx;
        struct error err;
        /* first the pid record: without it no crib command could find the workload, so a
         * container that cannot be recorded (its filesystem full) is stopped, and its start
         * fails as any other setup error */
        _cleanup_close_ int dir = state_open_path(m->o->root, m->o->uid, m->o->name, &err);
        if (dir < 0 || record_write_pid(dir, pid, workload, &err) < 0) {
                kill(pid, SIGKILL);
                error_hint(&err,
                           "the container was stopped: no crib command could have found it. "
                           "Make room where crib keeps its state (%s)",
                           m->o->root);
                m->failed = err;
                m->has_failed = true;
                return;
        }
        clock_gettime(CLOCK_MONOTONIC, &m->ran_since);
        /* after the pid record, never before: a crib stop that wrote its marker after this
         * look reads the record after it, and signals this run itself */
        int sig = record_stop_signal(dir);
        if (sig)
                kill(pid, sig); /* our child, not reaped yet: the pid is still this run's */
        if (m->restarts && record_write_restarts(dir, m->restarts, false, m->last, &err) < 0)
                on_warn(m, err.msg);
        /* the checker before the log's thread: forked from the monitor's only thread */
        m->run_pid = pid;
        if (m->plan->health.argv && (m->checker = health_start(m->plan, &m->health, pid, &err)) < 0)
                on_warn(m, err.msg);
        if (!m->pumping) {
                m->pumping = start_pump(m->pump, &m->thread, &err) == 0;
                if (!m->pumping)
                        on_warn(m, err.msg);
        }
        if (m->running)
                return;
        m->running = true;
        /* the workload has the passed ones now; a restart policy keeps them for the next */
        if (m->plan->restart == SPEC_RESTART_NO)
                close_inherited(m->plan, -1, true);
        prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0);
        struct sync_msg msg = {.type = SYNC_EXEC};
        sync_send(&m->chan, &msg, -1, &err);
        close(m->chan.fd);
        m->chan.fd = -1;
}

/* Monitor, its log thread: the container's output into the log, until every writer is gone,
 * or until a byte on ctl pauses it (what is left in the pipe is the next thread's). */
static void *pump_run(void *arg)
{
        struct pump *p = arg;
        char buf[16384];
        struct pollfd fds[2] = {{.fd = p->in, .events = POLLIN},
                                {.fd = p->ctl[0], .events = POLLIN}};
        for (;;) {
                if (poll(fds, 2, -1) < 0 && errno == EINTR)
                        continue;
                if (fds[1].revents)
                        break;
                ssize_t n = read(p->in, buf, sizeof buf);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;
                log_write(&p->w, buf, (size_t)n);
        }
        return NULL;
}

/* Monitor: the log's thread stopped, before a restart clones the setup process (see
 * start_pump); -1 when it could not be */
static int pause_pump(struct monitor *m)
{
        char c = 1;
        if (!m->pumping)
                return 0;
        if (write(m->pump->ctl[1], &c, 1) != 1 || pthread_join(m->thread, NULL) != 0)
                return -1;
        m->pumping = false;
        return read(m->pump->ctl[0], &c, 1) == 1 ? 0 : -1;
}

/* Monitor: the container's stdio, and the thread that logs it. */
static int start_log(struct monitor *m, struct pump *p, struct error *err)
{
        int lp[2];
        _cleanup_close_ int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null < 0 || pipe2(lp, O_CLOEXEC) < 0 || pipe2(p->ctl, O_CLOEXEC) < 0)
                return error_set(err, errno, "cannot make the container's log pipe");
        if (dup2(null, STDIN_FILENO) < 0 || dup2(lp[1], STDOUT_FILENO) < 0 ||
            dup2(lp[1], STDERR_FILENO) < 0)
                return error_set(err, errno, "cannot give the container its log");
        close(lp[1]);
        p->in = lp[0];
        snprintf(p->w.root, sizeof p->w.root, "%s", m->o->root);
        snprintf(p->w.name, sizeof p->w.name, "%s", m->o->name);
        p->w.uid = m->o->uid;
        p->w.limit = m->o->log_limit;
        _cleanup_close_ int dir = state_open_path(m->o->root, m->o->uid, m->o->name, err);
        if (dir < 0 || record_write_monitor(dir, getpid(), err) < 0)
                return -1;
        return log_open(&p->w, dir, err);
}

/* Monitor: the thread that empties the log pipe, started once the workload runs: never before
 * the clone, which in a process with a second thread could copy a lock that thread holds into
 * the setup process (the pipe holds the little written before the thread starts). */
static int start_pump(struct pump *p, pthread_t *t, struct error *err)
{
        /* every signal blocked in the thread: SIGCHLD and the forwarded ones are the main
         * thread's, which takes them from a signalfd (follow.c) */
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &old);
        int e = pthread_create(t, NULL, pump_run, p);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (e)
                return error_set(err, e, "cannot start the log's thread");
        return 0;
}

/* Monitor: close our ends of the log pipe; the thread ends when the container's are gone too
 * (all dead by now), or at most 5 s later. */
static void end_log(struct monitor *m)
{
        int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null >= 0) {
                dup2(null, STDOUT_FILENO);
                dup2(null, STDERR_FILENO);
                close(null);
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 5;
        if (!m->pumping || pthread_timedjoin_np(m->thread, NULL, &until) == 0)
                log_close(&m->pump->w);
}

static bool passed(const struct plan *p, int fd)
{
        for (size_t i = 0; i < p->npass_fds; i++)
                if (p->pass_fds[i] == fd)
                        return true;
        return false;
}

/* Monitor: close what crib inherited from its caller (a pipe of a shell's $(...) kept open
 * would make the shell wait for the container), all but the socket to crib and the
 * descriptors the spec passes to the workload (pass_fds), which go on with the clone. With
 * `all`, once the workload has them, those too. */
static void close_inherited(const struct plan *p, int keep, bool all)
{
        int fds[256];
        size_t n;
        do { /* a batch at a time, closed after the scan: as many as there are */
                n = 0;
                DIR *d = opendir("/proc/self/fd");
                struct dirent *e;
                while (d && n < sizeof fds / sizeof fds[0] && (e = readdir(d))) {
                        int fd = atoi(e->d_name);
                        if (fd > 2 && fd != keep && fd != dirfd(d) && all == passed(p, fd))
                                fds[n++] = fd;
                }
                if (d)
                        closedir(d);
                for (size_t i = 0; i < n; i++)
                        close(fds[i]);
        } while (n == sizeof fds / sizeof fds[0]);
}

/* ---- the restart policy ([service] restart, plan.restart) ---- */

/* docker's backoff: 100 ms before the first restart, doubled before each next one, at most a
 * minute; back to 100 ms after a run of 10 s or more */
enum { BACKOFF_FIRST_MS = 100, BACKOFF_MAX_MS = 60 * 1000, BACKOFF_RESET_MS = 10 * 1000 };

/* Monitor: the stop marker's signal (record.h), 0 when there is none; a container whose
 * directory is gone is stopped too */
static int stop_asked(const struct monitor *m)
{
        struct error ignored;
        _cleanup_close_ int dir = state_open_path(m->o->root, m->o->uid, m->o->name, &ignored);
        return dir < 0 ? SIGKILL : record_stop_signal(dir);
}

/* Monitor: whether the policy restarts a run that ended with crib's exit status `code` */
static bool wants_restart(const struct monitor *m, int code)
{
        const struct plan *p = m->plan;
        switch (p->restart) {
        case SPEC_RESTART_NO:
                return false;
        case SPEC_RESTART_ON_FAILURE: /* 128+N, killed by a signal, is a failure too */
                return code != 0 && (!p->restart_max || m->restarts < p->restart_max);
        case SPEC_RESTART_ALWAYS:
        case SPEC_RESTART_UNLESS_STOPPED:
                return true;
        }
        return false;
}

/* Monitor: the wait before the next restart, after `delay` ms before the last one */
static long next_delay(const struct monitor *m, long delay)
{
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long ran = (now.tv_sec - m->ran_since.tv_sec) * 1000 +
                   (now.tv_nsec - m->ran_since.tv_nsec) / 1000000;
        if (!delay || ran >= BACKOFF_RESET_MS)
                return BACKOFF_FIRST_MS;
        return delay > BACKOFF_MAX_MS / 2 ? BACKOFF_MAX_MS : delay * 2;
}

/* Monitor: sleep `ms`, looking for the stop marker before and every 100 ms: its signal, or 0
 * once the time is up (so crib stop of a container waiting to restart ends within 100 ms) */
static int sleep_unless_stopped(const struct monitor *m, long ms)
{
        for (;;) {
                int sig = stop_asked(m);
                if (sig || ms <= 0)
                        return sig;
                long slice = ms < 100 ? ms : 100;
                struct timespec t = {slice / 1000, (slice % 1000) * 1000000};
                while (nanosleep(&t, &t) < 0 && errno == EINTR)
                        ;
                ms -= slice;
        }
}

/* Monitor: the run has ended: its checker killed; whether it ended it for on_unhealthy =
 * restart (health.c) */
static enum health_end run_ended(struct monitor *m)
{
        enum health_end end = HEALTH_END_NONE;
        if (m->plan->health.argv && m->run_pid > 0)
                end = health_stop(m->checker, &m->health, m->run_pid);
        m->checker = 0;
        m->run_pid = 0;
        return end;
}

/* Monitor: the restarts file (record.h); a line in the log for each restart */
static int note_restart(struct monitor *m, bool restarting, const char *fmt, long n)
{
        struct error err;
        char line[256];
        _cleanup_close_ int dir = state_open_path(m->o->root, m->o->uid, m->o->name, &err);
        if (dir < 0 || record_write_restarts(dir, m->restarts, restarting, m->last, &err) < 0) {
                on_warn(m, err.msg);
                return -1;
        }
        if (fmt) {
                snprintf(line, sizeof line, fmt, m->o->name, m->last, n);
                on_warn(m, line);
        }
        return 0;
}

/* Monitor: the workload ended with `code`; while the policy says so and no crib stop came,
 * wait the backoff and run the container again, the whole setup as the first time, in the same
 * directory (an image's container keeps its upper layer) and with the same log. The exit
 * status to record: the last run's, or the setup's error (125) of a restart that failed,
 * which ends it (a setup that fails would fail again: no loop). */
static int restart_loop(struct monitor *m, const struct container_hooks *mine, int code)
{
        long delay = 0;
        struct error err;
        enum health_end end;
        bool unhealthy;
        while ((unhealthy = (end = run_ended(m)) == HEALTH_END_RESTART) || wants_restart(m, code)) {
                m->last = code;
                if (stop_asked(m)) { /* what ended it was crib stop's signal, most likely */
                        note_restart(m, false,
                                     end == HEALTH_END_KILLED
                                             ? "'%s' was unhealthy, killed (status %d): not "
                                               "restarted (on_unhealthy = kill)"
                                             : "'%s' exited with status %d after crib stop: not "
                                               "restarted",
                                     0);
                        break;
                }
                delay = next_delay(m, delay);
                if (note_restart(m, true,
                                 unhealthy ? "'%s' was unhealthy, killed (status %d): restarting "
                                             "in %ld ms"
                                           : "'%s' exited with status %d: restarting in %ld ms",
                                 delay) < 0 ||
                    sleep_unless_stopped(m, delay))
                        break;
                if (pause_pump(m) < 0) {
                        on_warn(m, "cannot pause the log's thread: not restarted");
                        break;
                }
                m->restarts++;
                note_restart(m, true, NULL, 0);
                int status;
                error_clear(&err);
                if (container_run(m->plan, mine, &status, &err) < 0 || m->has_failed) {
                        if (m->has_failed)
                                err = m->failed;
                        char line[1200];
                        snprintf(line, sizeof line,
                                 "restart %u of '%s' failed, not restarted again: %s%s%s",
                                 m->restarts, m->o->name, err.msg, err.errnum ? ": " : "",
                                 err.errnum ? strerror(err.errnum) : "");
                        on_warn(m, line);
                        return error_exit_status(&err);
                }
                code = m->o->exit_status(status);
        }
        return code;
}

static _Noreturn void monitor_main(const struct plan *p, const struct monitor_opts *o,
                                   const struct container_hooks *h, int chan, pid_t crib)
{
        struct pump pump = {.in = -1, .ctl = {-1, -1}, .w = {.fd = -1}};
        struct monitor m = {.o = o,
                            .h = h,
                            .chan = {.fd = chan},
                            .pump = &pump,
                            .plan = p,
                            .health = {.root = o->root, .uid = o->uid, .name = o->name}};
        struct container_hooks mine = {
                .trace = on_trace, .warn = on_warn, .running = on_running, .ctx = &m};
        struct error err;
        int status = 0;
        bool ended = true; /* the workload ran and ended: `status` is its wait status */
        error_clear(&err);

        setsid();
        if (chdir("/") < 0) /* so the monitor pins no mount (the directory crib ran in) */
                _exit(125);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != crib)
                _exit(125); /* crib is gone already */
        close_inherited(p, chan, false);
        if (start_log(&m, &pump, &err) < 0 || container_run(p, &mine, &status, &err) < 0 ||
            m.has_failed) {
                if (m.has_failed)
                        err = m.failed;
                if (!m.running) {
                        /* crib prints the error; nothing of the container stays */
                        struct sync_msg msg = {.type = SYNC_ERROR};
                        struct error ignored;
                        _cleanup_close_ int root = state_open_root(o->root, o->uid, &ignored);
                        if (root >= 0)
                                state_remove(root, o->name, &ignored);
                        msg.u.err = err;
                        sync_send(&m.chan, &msg, -1, &ignored);
                        _exit(error_exit_status(&err));
                }
                on_warn(&m, err.msg);
                ended = false;
        }
        int code = ended ? o->exit_status(status) : error_exit_status(&err);
        if (ended)
                code = restart_loop(&m, &mine, code);
        run_ended(&m);
        if (!m.pumping) /* paused for a restart that did not run: the rest of the output */
                m.pumping = start_pump(&pump, &m.thread, &err) == 0;
        /* the log whole before the exit is recorded: `crib wait NAME; crib logs NAME` must show
         * the last lines the workload wrote (the exit record ends crib wait; the log's thread
         * ends when every writer is gone, at most 5 s on) */
        end_log(&m);
        _cleanup_close_ int dir = state_open_path(o->root, o->uid, o->name, &err);
        if (dir < 0 || record_write_exit(dir, code, &err) < 0)
                on_warn(&m, err.msg);
        if (o->at_end)
                o->at_end(p, o->name);
        _exit(0);
}

int monitor_start(const struct plan *p, const struct monitor_opts *o,
                  const struct container_hooks *h, pid_t *ret_pid, struct error *err)
{
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return error_set(err, errno, "cannot create the monitor's socket");
        pid_t crib = getpid();
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
                close(sv[0]);
                close(sv[1]);
                return error_set(err, errno, "cannot start crib's monitor");
        }
        if (pid == 0) {
                close(sv[0]);
                monitor_main(p, o, h, sv[1], crib);
        }
        close(sv[1]);
        /* the monitor's trace and warnings, until its SYNC_EXEC (the workload runs: the
         * monitor follows the rest) or its error; no signal to forward, no terminal */
        struct trace quiet = {.on = false};
        struct follow f;
        follow_init(&f, h, &quiet);
        f.chan.fd = sv[0];
        f.until_exec = true;
        int ret = follow_run(&f, err);
        if (ret == 0 && f.have_error)
                *err = f.child_err;
        else if (ret == 0 && !f.exec_seen)
                error_set(err, 0, "crib's monitor ended before the container ran");
        follow_close(&f);
        if (ret == 0 && !f.have_error && f.exec_seen) {
                *ret_pid = pid;
                return 0;
        }
        /* it has removed the container's state, or is gone */
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
        return -1;
}
