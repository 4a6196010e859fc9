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
 */
#define _GNU_SOURCE
#include "monitor.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
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
#include "state/log.h"
#include "state/record.h"
#include "state/state.h"
#include "steps/sync.h"

struct pump {
        int in; /* the log pipe's read end */
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

/* Monitor: the workload runs: record its pid, stop dying with crib, and let crib go. */
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
        m->running = true;
        close_inherited(m->plan, -1, true); /* the workload has the passed ones now */
        m->pumping = start_pump(m->pump, &m->thread, &err) == 0;
        if (!m->pumping)
                on_warn(m, err.msg);
        prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0);
        struct sync_msg msg = {.type = SYNC_EXEC};
        sync_send(&m->chan, &msg, -1, &err);
        close(m->chan.fd);
        m->chan.fd = -1;
}

/* Monitor, its log thread: the container's output into the log, until every writer is gone. */
static void *pump_run(void *arg)
{
        struct pump *p = arg;
        char buf[16384];
        for (;;) {
                ssize_t n = read(p->in, buf, sizeof buf);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;
                log_write(&p->w, buf, (size_t)n);
        }
        return NULL;
}

/* Monitor: the container's stdio, and the thread that logs it. */
static int start_log(struct monitor *m, struct pump *p, struct error *err)
{
        int lp[2];
        _cleanup_close_ int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null < 0 || pipe2(lp, O_CLOEXEC) < 0)
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

static _Noreturn void monitor_main(const struct plan *p, const struct monitor_opts *o,
                                   const struct container_hooks *h, int chan, pid_t crib)
{
        struct pump pump = {.in = -1, .w = {.fd = -1}};
        struct monitor m = {.o = o, .h = h, .chan = {.fd = chan}, .pump = &pump, .plan = p};
        struct container_hooks mine = {
                .trace = on_trace, .warn = on_warn, .running = on_running, .ctx = &m};
        struct error err;
        int status = 0;
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
                status = -1;
        }
        int code = status < 0 ? error_exit_status(&err) : o->exit_status(status);
        _cleanup_close_ int dir = state_open_path(o->root, o->uid, o->name, &err);
        if (dir < 0 || record_write_exit(dir, code, &err) < 0)
                on_warn(&m, err.msg);
        end_log(&m);
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
