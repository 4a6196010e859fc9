/* container.c - the parent's half of a container's life: clone, map ids, follow the setup,
 * relay signals and the terminal, wait.
 *
 * Kernel features: clone(2) with CLONE_NEW* flags, called raw so it behaves like fork(2) (no
 * separate stack, as bubblewrap does); signalfd(2) to take the forwarded signals and SIGCHLD in
 * one poll(2) loop with the sync socket and the terminal.
 *
 * The parent's steps, in order:
 *   1. socketpair(SOCK_SEQPACKET)         the sync channel (sync.h)
 *   2. block the forwarded signals         they are read from a signalfd, and the child starts
 *                                          with them blocked, so none is lost during setup
 *   3. clone(CLONE_NEW*)                   the child runs the step table (steps.c)
 *   4. write the id maps                   userns.c
 *   5. send GO                             the child goes on with its setup
 *   6. loop until the child exits          trace/warning/error messages, the pty master,
 *                                          signals to forward, terminal bytes to relay
 */
#define _GNU_SOURCE
#include "container.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <dirent.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "child.h"
#include "cleanup.h"
#include "mountapi.h"
#include "pty.h"
#include "rlimits.h"
#include "sync.h"
#include "userns.h"

/* The signals crib passes on: from the parent to the setup process, from crib's init to the
 * workload (init.c). The one list of them. */
static const int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH};

void forwarded_signals(sigset_t *ret)
{
        sigemptyset(ret);
        for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
                sigaddset(ret, forwarded[i]);
}

struct relay {
        int master;      /* the container's pty, or -1 */
        bool stdin_open; /* still reading our stdin into it */
        bool hung_up;    /* the container closed its side */
        bool raw;        /* our terminal is in raw mode, to restore */
        struct termios saved;
};

static void relay_start(struct relay *r, int master)
{
        r->master = master;
        r->stdin_open = true;
        if (isatty(STDIN_FILENO)) {
                r->raw = pty_raw(STDIN_FILENO, &r->saved) == 0;
                pty_copy_size(STDIN_FILENO, master);
        } else if (isatty(STDOUT_FILENO)) {
                pty_copy_size(STDOUT_FILENO, master);
        }
}

static void write_all(int fd, const char *buf, size_t n)
{
        while (n) {
                ssize_t w = write(fd, buf, n);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w <= 0)
                        return;
                buf += w;
                n -= (size_t)w;
        }
}

/* Copy what the container's terminal wrote to our stdout; false once it is closed. */
static bool relay_out(struct relay *r)
{
        char buf[4096];
        ssize_t n = read(r->master, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
                return true;
        if (n <= 0)
                return false;
        write_all(STDOUT_FILENO, buf, (size_t)n);
        return true;
}

static void relay_in(struct relay *r)
{
        char buf[4096];
        ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
                return;
        if (n <= 0) {
                /* end of a non-terminal stdin: pass the terminal's end-of-file character on */
                struct termios t;
                if (tcgetattr(r->master, &t) == 0)
                        write_all(r->master, (const char *)&t.c_cc[VEOF], 1);
                r->stdin_open = false;
                return;
        }
        write_all(r->master, buf, (size_t)n);
}

static void relay_end(struct relay *r)
{
        if (r->master < 0)
                return;
        fcntl(r->master, F_SETFL, O_NONBLOCK);
        while (relay_out(r))
                ;
        if (r->raw)
                pty_restore(STDIN_FILENO, &r->saved);
        close(r->master);
        r->master = -1;
}

static void emit_hook(void *ctx, const char *line)
{
        const struct container_hooks *h = ctx;
        if (h->trace)
                h->trace(h->ctx, line);
}

struct run {
        const struct plan *plan;
        const struct container_hooks *hooks;
        struct trace trace;
        struct sync_chan chan;
        pid_t pid;
        bool exec_seen, have_error, reaped;
        int status;
        struct error child_err;
        struct relay relay;
};

/* A message from the setup process; -1 on a protocol error. */
static int on_message(struct run *r, struct error *err)
{
        struct sync_msg m;
        int fd = -1;
        int n = sync_recv(&r->chan, &m, &fd, err);
        if (n <= 0) {
                close(r->chan.fd);
                r->chan.fd = -1;
                return n;
        }
        switch (m.type) {
        case SYNC_TRACE:
                emit_hook((void *)r->hooks, m.u.text);
                break;
        case SYNC_WARN:
                if (r->hooks->warn)
                        r->hooks->warn(r->hooks->ctx, m.u.text);
                break;
        case SYNC_PTY:
                if (fd < 0)
                        return error_set(err, EPROTO, "terminal message without a descriptor");
                relay_start(&r->relay, fd);
                fd = -1;
                break;
        case SYNC_EXEC:
                r->exec_seen = true;
                break;
        case SYNC_ERROR:
                if (!r->have_error) {
                        r->child_err = m.u.err;
                        r->child_err.msg[sizeof r->child_err.msg - 1] = '\0';
                        r->child_err.hint[sizeof r->child_err.hint - 1] = '\0';
                        r->have_error = true;
                }
                break;
        default:
                return error_set(err, EPROTO, "unexpected sync message %u from the container",
                                 m.type);
        }
        if (fd >= 0)
                close(fd);
        return 1;
}

static void on_signal(struct run *r, int sigfd)
{
        struct signalfd_siginfo si;
        while (read(sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
                int sig = (int)si.ssi_signo;
                if (sig == SIGCHLD) {
                        if (!r->reaped && waitpid(r->pid, &r->status, WNOHANG) == r->pid)
                                r->reaped = true;
                        continue;
                }
                if (sig == SIGWINCH && r->relay.master >= 0)
                        pty_copy_size(STDIN_FILENO, r->relay.master);
                if (!r->reaped) {
                        trace_line(&r->trace, "parent: kill(%d, %s) (forwarded)", (int)r->pid,
                                   sigabbrev_np(sig));
                        kill(r->pid, sig);
                }
        }
}

static int event_loop(struct run *r, int sigfd, struct error *err)
{
        while (!r->reaped || r->chan.fd >= 0) {
                struct pollfd pfd[4];
                int n = 0, i_chan = -1, i_sig, i_in = -1, i_master = -1;
                if (r->chan.fd >= 0)
                        pfd[i_chan = n++] = (struct pollfd){.fd = r->chan.fd, .events = POLLIN};
                pfd[i_sig = n++] = (struct pollfd){.fd = sigfd, .events = POLLIN};
                if (r->relay.master >= 0 && !r->relay.hung_up) {
                        pfd[i_master = n++] =
                                (struct pollfd){.fd = r->relay.master, .events = POLLIN};
                        if (r->relay.stdin_open)
                                pfd[i_in = n++] =
                                        (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
                }
                if (poll(pfd, (nfds_t)n, -1) < 0) {
                        if (errno == EINTR)
                                continue;
                        return error_set(err, errno, "poll");
                }
                if (i_chan >= 0 && pfd[i_chan].revents && on_message(r, err) < 0)
                        return -1;
                if (pfd[i_sig].revents)
                        on_signal(r, sigfd);
                if (i_master >= 0 && pfd[i_master].revents && !relay_out(&r->relay)) {
                        /* every slave side is closed: stop polling, drain at the end */
                        r->relay.hung_up = true;
                        r->relay.stdin_open = false;
                }
                if (i_in >= 0 && pfd[i_in].revents)
                        relay_in(&r->relay);
        }
        return 0;
}

/* Root's container, rootfs owned by host root: hand the child an idmapped copy of it. Where
 * the kernel or the filesystem has no idmapped mounts, the container still runs, its rootfs's
 * files owned by nobody inside (container root cannot change them), and crib says so. */
static int send_idmapped_rootfs(struct run *r, struct error *err)
{
        struct error why;
        error_clear(&why);
        _cleanup_close_ int tree = userns_idmapped_rootfs(r->plan, r->pid, &r->trace, &why);
        if (tree < 0) {
                if (why.errnum != EINVAL && why.errnum != ENOSYS && why.errnum != EOPNOTSUPP) {
                        *err = why;
                        return -1;
                }
                if (r->hooks->warn) {
                        char text[4096];
                        snprintf(text, sizeof text,
                                 "%s (%s): its files show as nobody's inside, and container root "
                                 "cannot change them\n%s",
                                 why.msg, strerror(why.errnum), why.hint);
                        r->hooks->warn(r->hooks->ctx, text);
                }
                return 0;
        }
        struct sync_msg m = {.type = SYNC_ROOTFS};
        return sync_send(&r->chan, &m, tree, err);
}

/* Root: open a detached copy of every bind source's mount tree, once, here. */
static int launch_open(const struct plan *p, struct launch_fds *fds, struct error *err)
{
        if (!p->privileged)
                return 0;
        for (size_t i = 0; i < p->nmounts; i++) {
                const struct mount_op *op = &p->mounts[i];
                if (op->kind != MOP_BIND && (op->kind != MOP_DEV_NODE || !p->userns))
                        continue;
                unsigned flags = OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC;
                if (op->flags & MS_REC)
                        flags |= AT_RECURSIVE;
                fds->src[i] = (int)syscall(SYS_open_tree, AT_FDCWD, op->src, flags);
                if (fds->src[i] < 0 && errno == ENOSYS)
                        return 0; /* before Linux 5.2: the child binds by name */
                if (fds->src[i] < 0)
                        return error_set(err, errno, "cannot open bind source '%s'", op->src);
        }
        return 0;
}

static void launch_close(const struct plan *p, struct launch_fds *fds)
{
        for (size_t i = 0; i < p->nmounts; i++)
                if (fds->src[i] >= 0) {
                        close(fds->src[i]);
                        fds->src[i] = -1;
                }
}

/* Our children now, by pid: with the host's /proc, the lines 'PPid:' of /proc/PID/status. */
static size_t list_children(pid_t *ret, size_t max)
{
        _cleanup_closedir_ DIR *d = opendir("/proc");
        struct dirent *e;
        size_t n = 0;
        pid_t self = getpid();
        while (d && n < max && (e = readdir(d))) {
                char path[64], line[128];
                pid_t pid = (pid_t)atoi(e->d_name);
                if (pid <= 0)
                        continue;
                snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
                _cleanup_fclose_ FILE *f = fopen(path, "re");
                while (f && fgets(line, sizeof line, f))
                        if (!strncmp(line, "PPid:", 5)) {
                                if (atoi(line + 5) == self)
                                        ret[n++] = pid;
                                break;
                        }
        }
        return n;
}

/* Without a pid namespace, nothing kills what the workload left running when crib's init exits
 * (with one, the kernel does). We are its subreaper: kill and reap each process that came back
 * to us, and theirs, until none is left. Bounded: a process that forks faster than this loop
 * kills would keep it going, so after 64 rounds it stops and says so. */
static void kill_leftovers(struct run *r)
{
        if (r->plan->clone_flags & CLONE_NEWPID)
                return;
        size_t killed = 0;
        for (int round = 0; round < 64; round++) {
                pid_t pids[256];
                size_t n = list_children(pids, 256);
                if (!n) {
                        if (killed)
                                trace_line(&r->trace,
                                           "parent: killed %zu processes the workload left "
                                           "running (pid = no)",
                                           killed);
                        return;
                }
                for (size_t i = 0; i < n; i++)
                        kill(pids[i], SIGKILL);
                for (size_t i = 0; i < n; i++)
                        while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
                                ;
                killed += n;
        }
        if (r->hooks->warn)
                r->hooks->warn(r->hooks->ctx, "processes the workload left running (pid = no) "
                                              "kept forking; some may still be running");
}

int container_run(const struct plan *p, const struct container_hooks *h, int *ret_status,
                  struct error *err)
{
        struct run r = {.plan = p, .hooks = h, .pid = -1, .relay = {.master = -1}};
        struct launch_fds fds;
        int here = -1, rootfd = -1;
        for (size_t i = 0; i < PLAN_MAX_MOUNTS; i++)
                fds.src[i] = -1;
        sigset_t set, old;
        int sv[2];
        char flagbuf[256];
        int ret = -1;

        r.trace = (struct trace){.on = p->trace, .emit = emit_hook, .ctx = (void *)h};
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return error_set(err, errno, "cannot create the sync socket");
        r.chan.fd = sv[0];

        forwarded_signals(&set);
        sigaddset(&set, SIGCHLD);
        sigprocmask(SIG_BLOCK, &set, &old);
        _cleanup_close_ int sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
        if (sigfd < 0) {
                error_set(err, errno, "cannot create a signalfd");
                goto out;
        }

        /* without a pid namespace, what the workload leaves running comes back to us */
        if (!(p->clone_flags & CLONE_NEWPID) && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
                error_set(err, errno, "cannot become a child subreaper");
                goto out;
        }
        if (launch_open(p, &fds, err) < 0)
                goto out;
        /* the child starts in the rootfs: opened once, here, and entered by descriptor */
        here = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        rootfd = open(p->rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
        struct stat st;
        if (rootfd < 0 || fstat(rootfd, &st) < 0) {
                error_set(err, errno, "cannot open the rootfs '%s'", p->rootfs);
                goto out;
        }
        if (st.st_dev != p->rootfs_dev || st.st_ino != p->rootfs_ino) {
                mounts_rootfs_replaced(p->rootfs, err);
                goto out;
        }
        if (fchdir(rootfd) < 0) {
                error_set(err, errno, "cannot enter the rootfs '%s'", p->rootfs);
                goto out;
        }
        uint64_t t0 = trace_now_us();
        unsigned long flags = (unsigned long)p->clone_flags | SIGCHLD;
        r.pid = (pid_t)syscall(SYS_clone, flags, NULL, NULL, NULL, NULL);
        if (r.pid == 0) {
                /* the child: only the sync socket's own end comes along */
                close(sv[0]);
                close(sigfd);
                child_main(p, sv[1], &fds);
        }
        int clone_errno = errno;
        close(sv[1]);
        launch_close(p, &fds);
        if (here < 0 || fchdir(here) < 0) {
                if (chdir("/") < 0) /* the working directory we had is gone */
                        trace_line(&r.trace, "parent: cannot return to a working directory");
        }
        close(here);
        close(rootfd);
        here = rootfd = -1;
        trace_line(&r.trace, "parent: clone(%s) = %d  %llu us",
                   trace_clone_flags(flags, flagbuf, sizeof flagbuf), (int)r.pid,
                   (unsigned long long)(trace_now_us() - t0));
        if (r.pid < 0) {
                userns_clone_error(p->clone_flags, clone_errno, err);
                goto out;
        }

        if (p->self_maps) {
                trace_line(&r.trace, "parent: the id maps are our own ids: %d writes them",
                           (int)r.pid);
        } else {
                t0 = trace_now_us();
                trace_line(&r.trace, "parent: write the id maps and limits of %d", (int)r.pid);
                if (userns_write_maps(p, r.pid, &r.trace, err) < 0 ||
                    rlimits_apply(p, r.pid, &r.trace, err) < 0)
                        goto kill_child;
                if (p->idmap_rootfs && send_idmapped_rootfs(&r, err) < 0)
                        goto kill_child;
                struct sync_msg go = {.type = SYNC_GO};
                if (sync_send(&r.chan, &go, -1, err) < 0)
                        goto kill_child;
                trace_line(&r.trace, "parent: send GO  %llu us",
                           (unsigned long long)(trace_now_us() - t0));
        }

        if (event_loop(&r, sigfd, err) < 0)
                goto kill_child;
        relay_end(&r.relay);
        kill_leftovers(&r);
        if (r.have_error) {
                *err = r.child_err;
                goto out;
        }
        if (!r.exec_seen) {
                if (WIFSIGNALED(r.status))
                        error_set(err, 0,
                                  "the container's setup process was killed by signal %d (%s) "
                                  "before it started the workload",
                                  WTERMSIG(r.status), sigabbrev_np(WTERMSIG(r.status)));
                else
                        error_set(err, 0,
                                  "the container's setup process exited with status %d before "
                                  "it started the workload",
                                  WEXITSTATUS(r.status));
                goto out;
        }
        *ret_status = r.status;
        ret = 0;
        goto out;

kill_child:
        kill(r.pid, SIGKILL);
        while (!r.reaped && waitpid(r.pid, &r.status, 0) < 0 && errno == EINTR)
                ;
        relay_end(&r.relay);
        kill_leftovers(&r);
out:
        launch_close(p, &fds);
        if (here >= 0)
                close(here);
        if (rootfd >= 0)
                close(rootfd);
        if (r.chan.fd >= 0)
                close(r.chan.fd);
        sigprocmask(SIG_SETMASK, &old, NULL);
        return ret;
}
