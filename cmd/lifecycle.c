/* lifecycle.c - containers that outlive the command that started them:
 *
 *   crib run -d [--name NAME] [--log-size BYTES] SPEC [-- PROGRAM ARGS...]   (main.c, with this)
 *   crib ps [-a] [--format=table|ini|json]
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
 * detached container is runtime/launch/monitor.c.
 */
#define _GNU_SOURCE
#include "lifecycle.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json.h>
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

int cmd_wait(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        if (argc != 1 || argv[0][0] == '-')
                return usage("%s", "usage: crib wait NAME");
        struct opened o = {.root = -1, .dir = -1};
        int code;
        if (open_container(argv[0], &o, &err) < 0) {
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
            (at = log_copy(o.dir, STDOUT_FILENO, tail, &err)) < 0 ||
            (follow && log_follow(o.dir, STDOUT_FILENO, at, still_active, &o, &err) < 0))
                code = output_error(&err);
        opened_close(&o);
        return code;
}

/* ---- crib ps ---- */

struct row {
        struct record rec;
        struct cgroup_usage use; /* of its own cgroup ([resources]), else all -1 */
        char ports[512];         /* its published ports, "" for none */
};

/* The published ports, from the plan the container was started with: "A:H->P/tcp, ...". */
static void ports_of(int dir, struct row *row)
{
        struct plan p;
        struct error err;
        row->ports[0] = '\0';
        if (lifecycle_read_plan(dir, &p, &err) < 0)
                return;
        for (size_t i = 0; i < p.nports; i++) {
                char one[64];
                size_t used = strlen(row->ports);
                spec_port_format(&p.ports[i], one, sizeof one);
                snprintf(row->ports + used, sizeof row->ports - used, "%s%s", i ? "," : "", one);
        }
        plan_free(&p);
}

/* The usage of a running container's own cgroup: the one its first process is in, when that
 * is named after the container (a container without [resources] stays in crib's). */
static void usage_of(struct row *row)
{
        const struct record *r = &row->rec;
        row->use = (struct cgroup_usage){-1, -1, -1};
        char path[1200], leaf[160];
        _cleanup_close_ int dir = -1;
        if (r->phase != RECORD_RUNNING || !r->pid_alive)
                return;
        snprintf(path, sizeof path, "/proc/%d", (int)r->pid);
        dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        cgroup_leaf("", r->name, leaf, sizeof leaf);
        /* its init runs in NAME/container; the limits and the counts are NAME's */
        char *tail = NULL;
        if (dir < 0 || cgroup_of(dir, path, sizeof path) < 0 || !(tail = strrchr(path, '/')) ||
            strcmp(tail, "/container"))
                return;
        *tail = '\0';
        if (!(tail = strrchr(path, '/')) || strcmp(tail, leaf) ||
            state_proc_start(r->pid) != r->pid_start)
                return;
        cgroup_usage_read(path, &row->use);
}

static void human_bytes(int64_t v, char *buf, size_t len)
{
        const char *units = "KMGT";
        double d = (double)v;
        int u = -1;
        while (d >= 1024 && u < 3) {
                d /= 1024;
                u++;
        }
        if (v < 0)
                snprintf(buf, len, "-");
        else if (u < 0)
                snprintf(buf, len, "%lldB", (long long)v);
        else
                snprintf(buf, len, "%.*f%c", d < 10 ? 1 : 0, d, units[u]);
}

static int by_created(const void *a, const void *b)
{
        const struct row *x = a, *y = b;
        if (x->rec.created != y->rec.created)
                return x->rec.created < y->rec.created ? -1 : 1;
        return strcmp(x->rec.name, y->rec.name);
}

static void when(int64_t t, char *buf, size_t len)
{
        time_t tt = (time_t)t;
        struct tm tm;
        if (!t || !localtime_r(&tt, &tm))
                snprintf(buf, len, "-");
        else
                strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

static void duration(int64_t s, char *buf, size_t len)
{
        if (s < 0)
                snprintf(buf, len, "-");
        else if (s < 60)
                snprintf(buf, len, "%llds", (long long)s);
        else if (s < 3600)
                snprintf(buf, len, "%lldm%02llds", (long long)s / 60, (long long)s % 60);
        else if (s < 86400)
                snprintf(buf, len, "%lldh%02lldm", (long long)s / 3600, (long long)s % 3600 / 60);
        else
                snprintf(buf, len, "%lldd%02lldh", (long long)s / 86400,
                         (long long)s % 86400 / 3600);
}

static int64_t uptime_of(const struct record *r)
{
        if (!r->started || r->phase == RECORD_CREATED)
                return -1;
        if (r->phase == RECORD_RUNNING)
                return (int64_t)time(NULL) - r->started;
        return r->finished ? r->finished - r->started : -1;
}

static void exit_text(const struct record *r, char *buf, size_t len)
{
        if (r->has_exit)
                snprintf(buf, len, "%d", r->exit_status);
        else if (r->phase == RECORD_STOPPED)
                snprintf(buf, len, "?");
        else
                snprintf(buf, len, "-");
}

static void print_table(const struct row *rows, size_t n)
{
        printf("%-24s %-8s %-8s %-19s %-7s %-4s %-6s %-8s %-4s %-24s %s\n", "NAME", "STATE", "PID",
               "STARTED", "UPTIME", "EXIT", "MEM", "CPU", "PIDS", "PORTS", "COMMAND");
        for (size_t i = 0; i < n; i++) {
                const struct record *r = &rows[i].rec;
                const struct cgroup_usage *u = &rows[i].use;
                char pid[16] = "-", started[32], up[32], ex[8], mem[24], cpu[32] = "-",
                     pids[24] = "-";
                if (r->pid_alive)
                        snprintf(pid, sizeof pid, "%d", (int)r->pid);
                when(r->started, started, sizeof started);
                duration(uptime_of(r), up, sizeof up);
                exit_text(r, ex, sizeof ex);
                human_bytes(u->memory, mem, sizeof mem);
                if (u->cpu_usec >= 0)
                        snprintf(cpu, sizeof cpu, "%.2fs", (double)u->cpu_usec / 1e6);
                if (u->pids >= 0)
                        snprintf(pids, sizeof pids, "%lld", (long long)u->pids);
                /* the command is the container's (a spec's, an image's): escaped, as each cell */
                output_line(stdout, "%-24s %-8s %-8s %-19s %-7s %-4s %-6s %-8s %-4s %-24s %s",
                            r->name, record_phase_name(r->phase), pid, started, up, ex, mem, cpu,
                            pids, rows[i].ports[0] ? rows[i].ports : "-", r->command);
        }
        for (size_t i = 0; i < n; i++)
                if (rows[i].rec.why)
                        output_line(stdout, "# %s: exit status unknown: %s", rows[i].rec.name,
                                    rows[i].rec.why);
}

static void print_ini(const struct row *rows, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                const struct record *r = &rows[i].rec;
                char up[32], ex[8];
                duration(uptime_of(r), up, sizeof up);
                exit_text(r, ex, sizeof ex);
                printf("%s[container %s]\nstate = %s\npid = %d\n", i ? "\n" : "", r->name,
                       record_phase_name(r->phase), r->pid_alive ? (int)r->pid : 0);
                output_line(stdout, "command = %s", r->command);
                output_line(stdout, "spec = %s", r->spec);
                printf("created = %lld\nstarted = %lld\nfinished = %lld\nuptime = %s\n"
                       "exit_status = %s\ndetached = %s\n",
                       (long long)r->created, (long long)r->started, (long long)r->finished, up, ex,
                       r->detached ? "yes" : "no");
                if (r->why)
                        output_line(stdout, "why = %s", r->why);
                const struct cgroup_usage *u = &rows[i].use;
                if (u->memory >= 0)
                        printf("memory_bytes = %lld\n", (long long)u->memory);
                if (u->cpu_usec >= 0)
                        printf("cpu_usec = %lld\n", (long long)u->cpu_usec);
                if (u->pids >= 0)
                        printf("pids = %lld\n", (long long)u->pids);
                if (rows[i].ports[0])
                        output_line(stdout, "ports = %s", rows[i].ports);
        }
}

static void print_json(const struct row *rows, size_t n)
{
        json_object *a = json_object_new_array();
        for (size_t i = 0; i < n; i++) {
                const struct record *r = &rows[i].rec;
                json_object *o = json_object_new_object();
                json_object_object_add(o, "name", json_object_new_string(r->name));
                json_object_object_add(o, "state",
                                       json_object_new_string(record_phase_name(r->phase)));
                json_object_object_add(o, "pid", r->pid_alive ? json_object_new_int(r->pid) : NULL);
                json_object_object_add(o, "command", json_object_new_string(r->command));
                json_object_object_add(o, "spec", json_object_new_string(r->spec));
                json_object_object_add(o, "created", json_object_new_int64(r->created));
                json_object_object_add(o, "started",
                                       r->started ? json_object_new_int64(r->started) : NULL);
                json_object_object_add(o, "finished",
                                       r->finished ? json_object_new_int64(r->finished) : NULL);
                int64_t up = uptime_of(r);
                json_object_object_add(o, "uptime", up >= 0 ? json_object_new_int64(up) : NULL);
                json_object_object_add(o, "exit_status",
                                       r->has_exit ? json_object_new_int(r->exit_status) : NULL);
                json_object_object_add(o, "detached", json_object_new_boolean(r->detached));
                if (r->why)
                        json_object_object_add(o, "why", json_object_new_string(r->why));
                const struct cgroup_usage *u = &rows[i].use;
                json_object_object_add(o, "memory_bytes",
                                       u->memory >= 0 ? json_object_new_int64(u->memory) : NULL);
                json_object_object_add(o, "cpu_usec",
                                       u->cpu_usec >= 0 ? json_object_new_int64(u->cpu_usec)
                                                        : NULL);
                json_object_object_add(o, "pids",
                                       u->pids >= 0 ? json_object_new_int64(u->pids) : NULL);
                json_object *ports = json_object_new_array();
                char copy[sizeof rows[i].ports], *save = NULL;
                snprintf(copy, sizeof copy, "%s", rows[i].ports);
                for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
                        json_object_array_add(ports, json_object_new_string(t));
                json_object_object_add(o, "ports", ports);
                json_object_array_add(a, o);
        }
        output_json(stdout, json_object_to_json_string_ext(
                                    a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(a);
}

int cmd_ps(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        bool all = false;
        enum { TABLE, INI, JSON } format = TABLE;
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "-a") || !strcmp(argv[i], "--all"))
                        all = true;
                else if (!strcmp(argv[i], "--format=table"))
                        format = TABLE;
                else if (!strcmp(argv[i], "--format=ini"))
                        format = INI;
                else if (!strcmp(argv[i], "--format=json"))
                        format = JSON;
                else
                        return usage("unknown option '%s' for 'crib ps' (-a, "
                                     "--format=table|ini|json)",
                                     argv[i]);
        }
        int root = open_root(&err);
        if (root < 0)
                return output_error(&err);
        DIR *d = fdopendir(root);
        if (!d) {
                close(root);
                error_set(&err, errno, "cannot list the containers");
                return output_error(&err);
        }
        struct row *rows = NULL;
        size_t n = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
                if (!state_name_valid(e->d_name))
                        continue;
                _cleanup_close_ int dir = state_open(dirfd(d), e->d_name, &err);
                struct record rec;
                if (dir < 0 || record_read(dir, e->d_name, &rec, &err) < 0)
                        continue;
                if (!all && rec.phase == RECORD_STOPPED)
                        continue;
                if (n == cap) {
                        cap = cap ? cap * 2 : 16;
                        struct row *grown = realloc(rows, cap * sizeof *rows);
                        if (!grown)
                                break;
                        rows = grown;
                }
                rows[n].rec = rec;
                ports_of(dir, &rows[n]);
                usage_of(&rows[n++]);
        }
        closedir(d);
        if (n)
                qsort(rows, n, sizeof *rows, by_created);
        if (format == TABLE)
                print_table(rows, n);
        else if (format == INI)
                print_ini(rows, n);
        else
                print_json(rows, n);
        free(rows);
        return 0;
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
