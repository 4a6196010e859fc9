/* lifecycle.c - containers that outlive the command that started them:
 *
 *   crib run -d [--name NAME] [--log-size BYTES] SPEC [-- PROGRAM ARGS...]   (main.c, with this)
 *   crib stop [-t SECONDS] NAME      SIGTERM, then SIGKILL after SECONDS (10)
 *   crib kill NAME [SIGNAL]          SIGTERM unless told, as runc's
 *   crib rm [-f] NAME                -f: kill it first if it runs
 *   crib wait NAME                   until it ends; prints and exits with its exit status
 *   crib logs [-f] [--tail N] NAME   a detached container's output
 *   crib exec [-t] [-u UID:GID] [-e K=V]... [-w DIR] NAME -- PROGRAM ARGS...
 *                                    a new process in a running container (runtime/launch/enter.c)
 *
 * Global: `crib --root DIR COMMAND ...` puts the state somewhere else, as runc's flag does.
 * The state directory is runtime/state (state.h, record.h, log.h); the process that follows a
 * detached container is runtime/launch/monitor.c; crib ps is ps.c.
 */
#define _GNU_SOURCE
#include "lifecycle.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "cleanup.h"
#include "enter.h"
#include "log.h"
#include "output.h"
#include "record.h"
#include "sealed.h"
#include "state.h"

const char *lifecycle_root_override;

int lifecycle_exit_status(int status)
{
        if (WIFEXITED(status))
                return WEXITSTATUS(status);
        return 128 + WTERMSIG(status);
}

int lifecycle_root_path(char *buf, size_t len, struct error *err)
{
        return state_root_path(lifecycle_root_override, geteuid(), getenv("XDG_RUNTIME_DIR"), buf,
                               len, err);
}

static int open_root(struct error *err)
{
        char path[4096];
        if (lifecycle_root_path(path, sizeof path, err) < 0)
                return -1;
        return state_open_root(path, geteuid(), err);
}

/* ---- crib run --name / -d: the record before the start ---- */

int lifecycle_create(struct plan *p, const char *spec_path, char *name, size_t name_len,
                     bool detached, struct error *err)
{
        _cleanup_close_ int root = open_root(err);
        if (root < 0)
                return -1;
        if (!name[0] && state_name_generate(root, (uint32_t)getpid() ^ (uint32_t)time(NULL), name,
                                            name_len, err) < 0)
                return -1;
        _cleanup_close_ int dir = state_create(root, name, err);
        if (dir < 0)
                return -1;
        /* under the lock, this crib the monitor first (its own replaces it): `crib rm` (which
         * reads again once it has the lock) never takes a container being made for stopped */
        if (state_lock(dir, false, err) < 0 || record_write_monitor(dir, getpid(), err) < 0) {
                struct error ignored;
                state_remove(root, name, &ignored);
                return -1;
        }
        /* its cgroup, if [resources] makes one, is named after it (in the plan `crib exec`
         * reads too) */
        snprintf(p->cgroup_name, sizeof p->cgroup_name, "%s", name);
        struct record r = {.created = time(NULL), .detached = detached};
        snprintf(r.name, sizeof r.name, "%s", name);
        size_t used = 0;
        for (char **a = p->argv; *a && used + 1 < sizeof r.command; a++)
                used += (size_t)snprintf(r.command + used, sizeof r.command - used, "%s%s",
                                         used ? " " : "", *a);
        char *abs = realpath(spec_path, NULL);
        snprintf(r.spec, sizeof r.spec, "%s", abs ? abs : spec_path);
        free(abs);
        record_boot_id(r.boot, sizeof r.boot);
        _cleanup_free_ void *bytes = NULL;
        size_t n = 0;
        if (record_write_info(dir, &r, err) < 0 || plan_to_bytes(p, &bytes, &n, err) < 0 ||
            state_write(dir, "plan", bytes, n, err) < 0) {
                struct error ignored;
                state_remove(root, name, &ignored);
                return -1;
        }
        return 0;
}

int lifecycle_forget(const char *name)
{
        struct error ignored;
        _cleanup_close_ int root = open_root(&ignored);
        return root < 0 ? -1 : state_remove(root, name, &ignored);
}

void lifecycle_record_self(const char *name)
{
        char path[4096];
        struct error err;
        if (lifecycle_root_path(path, sizeof path, &err) < 0)
                return;
        _cleanup_close_ int dir = state_open_path(path, geteuid(), name, &err);
        if (dir < 0 || record_write_monitor(dir, getpid(), &err) < 0)
                output_error(&err);
}

void lifecycle_record_running(const char *name, pid_t pid, pid_t workload)
{
        char path[4096];
        struct error err;
        if (lifecycle_root_path(path, sizeof path, &err) < 0)
                return;
        _cleanup_close_ int dir = state_open_path(path, geteuid(), name, &err);
        if (dir < 0 || record_write_pid(dir, pid, workload, &err) < 0)
                output_error(&err);
}

/* ---- the commands on a container by name ---- */

static int usage(const char *fmt, const char *arg)
{
        output_usage_error(fmt, arg);
        return EXIT_CRIB_ERROR;
}

int lifecycle_parse_signal(const char *s)
{
        char *end;
        long n = strtol(s, &end, 10);
        if (*s && !*end)
                return n > 0 && n < NSIG ? (int)n : -1;
        if (!strncasecmp(s, "SIG", 3))
                s += 3;
        for (int sig = 1; sig < NSIG; sig++) {
                const char *abbrev = sigabbrev_np(sig);
                if (abbrev && !strcasecmp(s, abbrev))
                        return sig;
        }
        return -1;
}

/* A process by pid, if it is still the one recorded: a pidfd (Linux 5.3), or -2 when the kernel
 * has none (then kill(2) after the same check), or -1 when it is gone or was never recorded. */
static int open_process(pid_t pid, uint64_t start)
{
        /* no record (pid 0): kill(2) would take 0 for crib's own process group */
        if (pid <= 0 || !start)
                return -1;
        int fd = (int)syscall(SYS_pidfd_open, pid, 0);
        if (fd < 0 && errno != ENOSYS)
                return -1;
        /* checked after the open: the pidfd now holds this process, whatever happens next */
        if (state_proc_start(pid) != start) {
                if (fd >= 0)
                        close(fd);
                return -1;
        }
        return fd < 0 ? -2 : fd;
}

static int send_signal(pid_t pid, uint64_t start, int sig, struct error *err)
{
        int fd = open_process(pid, start);
        if (fd == -1)
                return 0; /* ended meanwhile */
        int r = fd >= 0 ? (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0) : kill(pid, sig);
        int e = errno;
        if (fd >= 0)
                close(fd);
        if (r < 0 && e != ESRCH)
                return error_set(err, e, "cannot send %s to the container's process %d",
                                 sigabbrev_np(sig), (int)pid);
        return 0;
}

void opened_close(struct opened *o)
{
        if (o->dir >= 0)
                close(o->dir);
        if (o->root >= 0)
                close(o->root);
        o->dir = o->root = -1;
}

static int open_container(const char *name, struct opened *o, struct error *err)
{
        o->root = open_root(err);
        o->dir = o->root < 0 ? -1 : state_open(o->root, name, err);
        if (o->dir < 0) {
                if (err->errnum == ENOENT)
                        error_hint(err, "'crib ps -a' lists the containers");
                return -1;
        }
        return record_read(o->dir, name, &o->rec, err);
}

/* Wait until NAME has stopped, at most `ms` (-1: no limit): true when it has. Polls its
 * monitor's pidfd (readable when it exits), else every 100 ms. */
static bool wait_stopped(struct opened *o, const char *name, long ms)
{
        struct error err;
        struct timespec t0, now;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (;;) {
                if (record_read(o->dir, name, &o->rec, &err) < 0 || o->rec.phase == RECORD_STOPPED)
                        return true;
                /* a foreground `crib run --name` removes its record at the end */
                struct stat st;
                if (fstat(o->dir, &st) == 0 && st.st_nlink == 0)
                        return true;
                clock_gettime(CLOCK_MONOTONIC, &now);
                long spent = (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
                if (ms >= 0 && spent >= ms)
                        return false;
                long slice = ms < 0 || ms - spent > 100 ? 100 : ms - spent;
                int fd = o->rec.monitor_alive ? open_process(o->rec.monitor, o->rec.monitor_start)
                                              : -1;
                if (fd >= 0) {
                        struct pollfd p = {.fd = fd, .events = POLLIN};
                        poll(&p, 1, (int)slice);
                        close(fd);
                } else {
                        usleep((useconds_t)slice * 1000);
                }
        }
}

static bool active(const struct record *r)
{
        return r->phase != RECORD_STOPPED;
}

int cmd_kill(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        if (argc < 1 || argc > 2)
                return usage("%s", "usage: crib kill NAME [SIGNAL]");
        int sig = argc == 2 ? lifecycle_parse_signal(argv[1]) : SIGTERM;
        if (sig < 0)
                return usage("'%s' is not a signal (say TERM, SIGKILL or 9)", argv[1]);
        struct opened o = {.root = -1, .dir = -1};
        int code = 0;
        if (open_container(argv[0], &o, &err) < 0)
                code = output_error(&err);
        else if (!o.rec.pid_alive) {
                error_set(&err, 0, "'%s' is not running", argv[0]);
                code = output_error(&err);
        } else if (send_signal(o.rec.pid, o.rec.pid_start, sig, &err) < 0)
                code = output_error(&err);
        opened_close(&o);
        return code;
}

int cmd_stop(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        long seconds = 10;
        const char *name = NULL;
        for (int i = 0; i < argc; i++) {
                if ((!strcmp(argv[i], "-t") || !strcmp(argv[i], "--time")) && i + 1 < argc) {
                        char *end;
                        seconds = strtol(argv[++i], &end, 10);
                        if (*end || seconds < 0 || seconds > 86400)
                                return usage("'%s' is not a number of seconds (0 to 86400)",
                                             argv[i]);
                } else if (argv[i][0] == '-' || name) {
                        return usage("%s", "usage: crib stop [-t SECONDS] NAME");
                } else {
                        name = argv[i];
                }
        }
        if (!name)
                return usage("%s", "usage: crib stop [-t SECONDS] NAME");
        struct opened o = {.root = -1, .dir = -1};
        int code = 0;
        if (open_container(name, &o, &err) < 0 || state_lock(o.dir, true, &err) < 0) {
                code = output_error(&err);
        } else if (active(&o.rec)) {
                if (o.rec.pid_alive && seconds > 0 &&
                    send_signal(o.rec.pid, o.rec.pid_start, SIGTERM, &err) < 0)
                        code = output_error(&err);
                else if (!wait_stopped(&o, name, seconds * 1000)) {
                        output_warning("'%s' did not stop within %ld s of SIGTERM: SIGKILL", name,
                                       seconds);
                        if (send_signal(o.rec.pid, o.rec.pid_start, SIGKILL, &err) < 0)
                                code = output_error(&err);
                        else if (!wait_stopped(&o, name, 10 * 1000)) {
                                error_set(&err, 0, "'%s' is still running after SIGKILL", name);
                                code = output_error(&err);
                        }
                }
        }
        opened_close(&o);
        return code;
}

/* Once the lock is ours: what was opened may have been removed meanwhile (and the name taken
 * by a new container, which must not be removed for it), or changed; read it again. */
static int locked_again(struct opened *o, const char *name, struct error *err)
{
        struct stat st;
        if (fstat(o->dir, &st) == 0 && st.st_nlink == 0) {
                error_set(err, ENOENT, "no container named '%s'", name);
                return error_hint(err, "another crib command removed it meanwhile");
        }
        return record_read(o->dir, name, &o->rec, err);
}

/* A stopped container's cgroup, left when its monitor was killed: removed if empty (rmdir, no
 * kill: under another --root a running container may have the same name, and that cgroup). */
static void remove_cgroup(int dir, const char *name)
{
        struct plan p;
        struct error ignored;
        char leaf[1200];
        if (lifecycle_read_plan(dir, &p, &ignored) < 0)
                return;
        if (p.cgroup && p.cgroup_path[0]) {
                cgroup_remove_empty(p.cgroup_path);
        } else if (p.cgroup && p.cgroup_base[0]) {
                cgroup_leaf(p.cgroup_base, name, leaf, sizeof leaf);
                cgroup_remove_empty(leaf);
        }
        plan_free(&p);
}

int cmd_rm(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        bool force = false;
        int code = 0;
        if (argc >= 1 && (!strcmp(argv[0], "-f") || !strcmp(argv[0], "--force"))) {
                force = true;
                argc--, argv++;
        }
        if (argc < 1)
                return usage("%s", "usage: crib rm [-f] NAME...");
        for (int i = 0; i < argc; i++) {
                struct opened o = {.root = -1, .dir = -1};
                const char *name = argv[i];
                if (open_container(name, &o, &err) < 0 || state_lock(o.dir, true, &err) < 0 ||
                    locked_again(&o, name, &err) < 0) {
                        code = output_error(&err);
                } else if (active(&o.rec) && !force) {
                        error_set(&err, 0, "'%s' is %s", name, record_phase_name(o.rec.phase));
                        error_hint(&err, "'crib stop %s' first, or 'crib rm -f %s'", name, name);
                        code = output_error(&err);
                } else {
                        if (active(&o.rec) && o.rec.pid_alive)
                                send_signal(o.rec.pid, o.rec.pid_start, SIGKILL, &err);
                        if (active(&o.rec) && o.rec.monitor_alive && o.rec.monitor != getpid() &&
                            !o.rec.pid_alive)
                                send_signal(o.rec.monitor, o.rec.monitor_start, SIGKILL, &err);
                        if (!wait_stopped(&o, name, 10 * 1000)) {
                                error_set(&err, 0, "'%s' is still running after SIGKILL", name);
                                code = output_error(&err);
                        } else {
                                remove_cgroup(o.dir, name);
                                if (state_remove(o.root, name, &err) < 0 && err.errnum != ENOENT)
                                        code = output_error(&err);
                        }
                }
                opened_close(&o);
        }
        return code;
}

/* A container `crib oci create` made for an engine (its state directory has oci.c's `oci`
 * file) has no monitor and no log of crib's: what crib's own commands would read there is the
 * engine's. An error saying so, naming the engine's command, for `what` crib cannot give. */
static int engine_made(const struct opened *o, const char *name, const char *what, const char *ask,
                       struct error *err)
{
        struct stat st;
        if (fstatat(o->dir, "oci", &st, AT_SYMLINK_NOFOLLOW) < 0)
                return 0;
        error_set(err, 0, "container '%s' was made by an engine (crib oci create): its %s", name,
                  what);
        return error_hint(err, "ask the engine: %s", ask);
}

int cmd_wait(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        if (argc != 1 || argv[0][0] == '-')
                return usage("%s", "usage: crib wait NAME");
        struct opened o = {.root = -1, .dir = -1};
        int code;
        if (open_container(argv[0], &o, &err) < 0 ||
            engine_made(&o, argv[0],
                        "exit status is the engine's (its process is the engine's child)",
                        "'podman wait NAME' under podman, 'ctr task wait ID' under containerd",
                        &err) < 0) {
                code = output_error(&err);
        } else {
                wait_stopped(&o, argv[0], -1);
                if (o.rec.has_exit) {
                        printf("%d\n", o.rec.exit_status);
                        code = o.rec.exit_status;
                } else {
                        error_set(&err, 0, "the exit status of '%s' is unknown: %s", argv[0],
                                  o.rec.why ? o.rec.why : "its record is gone");
                        code = output_error(&err);
                }
        }
        opened_close(&o);
        return code;
}

static bool still_active(void *ctx)
{
        struct opened *o = ctx;
        struct error err;
        return record_read(o->dir, o->rec.name, &o->rec, &err) == 0 && active(&o->rec);
}

int cmd_logs(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        bool follow = false;
        long tail = -1;
        const char *name = NULL;
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "-f") || !strcmp(argv[i], "--follow")) {
                        follow = true;
                } else if (!strcmp(argv[i], "--tail") && i + 1 < argc) {
                        char *end;
                        tail = strtol(argv[++i], &end, 10);
                        if (*end || tail < 0)
                                return usage("'%s' is not a number of lines", argv[i]);
                } else if (argv[i][0] == '-' || name) {
                        return usage("%s", "usage: crib logs [-f] [--tail N] NAME");
                } else {
                        name = argv[i];
                }
        }
        if (!name)
                return usage("%s", "usage: crib logs [-f] [--tail N] NAME");
        struct opened o = {.root = -1, .dir = -1};
        int code = 0;
        int64_t at;
        if (open_container(name, &o, &err) < 0 ||
            engine_made(&o, name, "output is the engine's, crib keeps no log of it",
                        "'podman logs NAME' under podman; under containerd the client that "
                        "started the task has it",
                        &err) < 0) {
                code = output_error(&err);
        } else if ((at = log_copy(o.dir, STDOUT_FILENO, tail, &err)) < 0 ||
                   (follow && log_follow(o.dir, STDOUT_FILENO, at, still_active, &o, &err) < 0)) {
                code = output_error(&err);
        }
        opened_close(&o);
        return code;
}

/* ---- crib exec ---- */

int lifecycle_seal(const struct plan *p, bool trace, struct error *err)
{
        if (p->userns || !(p->cap_bounding & (1ULL << CAP_SYS_PTRACE)) || sealed_running())
                return 0;
        if (trace)
                output_line(stderr, "crib: trace: no user namespace and SYS_PTRACE: running "
                                    "again from a sealed copy of crib");
        return sealed_reexec(crib_argv, environ, err);
}

/* Read the plan the container was started with (its state directory's `plan`). */
int lifecycle_read_plan(int dir, struct plan *ret, struct error *err)
{
        const size_t max = 16 << 20;
        _cleanup_free_ char *buf = malloc(max);
        if (!buf)
                return error_set(err, ENOMEM, "cannot read the container's plan");
        ssize_t n = state_read(dir, "plan", buf, max, err);
        if (n < 0)
                return error_wrap(err, "the container's plan");
        if (plan_from_bytes(buf, (size_t)n, ret, err) < 0) {
                error_wrap(err, "the container's plan");
                return error_hint(err, "it was written by another build of crib: restart the "
                                       "container with this one");
        }
        return 0;
}

int cmd_exec(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        static const char use[] =
                "usage: crib exec [-t] [-u UID:GID] [-e K=V]... [-w DIR] NAME -- PROGRAM ARGS...";
        struct enter_request rq = {0};
        char *env[65];
        size_t nenv = 0;
        const char *name = NULL;
        int i = 0;
        for (; i < argc && !name; i++) {
                const char *a = argv[i];
                if (!strcmp(a, "-t") || !strcmp(a, "--tty")) {
                        rq.tty = true;
                } else if ((!strcmp(a, "-u") || !strcmp(a, "--user")) && i + 1 < argc) {
                        unsigned long u, g;
                        char *end;
                        u = strtoul(argv[++i], &end, 10);
                        if (end == argv[i] || *end != ':' || argv[i][0] == '-')
                                return usage("'%s' is not UID:GID (numbers, as inside the "
                                             "container)",
                                             argv[i]);
                        const char *gs = end + 1;
                        g = strtoul(gs, &end, 10);
                        if (end == gs || *end || *gs == '-' || u > 0xfffffffe || g > 0xfffffffe)
                                return usage("'%s' is not UID:GID (numbers, as inside the "
                                             "container)",
                                             argv[i]);
                        rq.user_set = true;
                        rq.uid = (uid_t)u;
                        rq.gid = (gid_t)g;
                } else if ((!strcmp(a, "-e") || !strcmp(a, "--env")) && i + 1 < argc) {
                        if (!strchr(argv[++i], '=') || argv[i][0] == '=')
                                return usage("'%s' is not K=V", argv[i]);
                        if (nenv == 64)
                                return usage("%s", "at most 64 -e");
                        env[nenv++] = argv[i];
                } else if ((!strcmp(a, "-w") || !strcmp(a, "--workdir")) && i + 1 < argc) {
                        rq.cwd = argv[++i];
                        if (rq.cwd[0] != '/')
                                return usage("'%s' is not an absolute path in the container",
                                             rq.cwd);
                } else if (a[0] == '-') {
                        return usage("unknown option '%s' for 'crib exec'", a);
                } else {
                        name = a;
                }
        }
        if (i < argc && !strcmp(argv[i], "--"))
                i++;
        if (!name || i >= argc)
                return usage("%s", use);
        env[nenv] = NULL;
        rq.argv = &argv[i];
        rq.env = nenv ? env : NULL;

        struct opened o = {.root = -1, .dir = -1};
        struct plan plan;
        bool planned = false;
        int code = 0;
        if (open_container(name, &o, &err) < 0) {
                code = output_error(&err);
        } else if (!o.rec.pid_alive) {
                error_set(&err, 0, "'%s' is not running", name);
                code = output_error(&err);
        } else if (lifecycle_read_plan(o.dir, &plan, &err) < 0) {
                code = output_error(&err);
        } else {
                planned = true;
                rq.pid = o.rec.pid;
                rq.start = o.rec.pid_start;
                rq.workload = o.rec.workload;
                rq.workload_start = o.rec.workload_start;
        }
        opened_close(&o); /* nothing of the state tree goes along into the container */
        if (planned && lifecycle_seal(&plan, plan.trace, &err) < 0) {
                code = output_error(&err);
                planned = false;
        }
        if (planned) {
                struct container_hooks hooks = {.warn = output_warning_line};
                int status;
                if (container_enter(&plan, &rq, &hooks, &status, &err) < 0)
                        code = output_error(&err);
                else
                        code = lifecycle_exit_status(status);
                plan_free(&plan);
        }
        return code;
}
