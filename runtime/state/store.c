/* store.c - containers by name; see store.h.
 *
 * Kernel features: pidfd_open(2) and pidfd_send_signal(2) (Linux 5.3) to signal a recorded
 * process without racing its pid's reuse, and poll(2) on a pidfd to wait for a monitor's end;
 * on an older kernel kill(2) after the same start-time check (state_proc_alive), and a sleep.
 * flock(2) on the container's directory (state_lock) for commands that change it.
 */
#define _GNU_SOURCE
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "base/cleanup.h"
#include "base/sys.h"
#include "state.h"

static int open_root(const char *root, struct error *err)
{
        return state_open_root(root, geteuid(), err);
}

/* ---- crib run --name / -d, crib oci create: the record before the start ---- */

int store_name(const char *root_path, char *name, size_t name_len, struct error *err)
{
        _cleanup_close_ int root = open_root(root_path, err);
        if (root < 0)
                return -1;
        return state_name_generate(root, (uint32_t)getpid() ^ (uint32_t)time(NULL), name, name_len,
                                   err);
}

int store_create(const char *root_path, const struct plan *p, const char *spec_path,
                 const char *name, bool detached, struct error *err)
{
        _cleanup_close_ int root = open_root(root_path, err);
        if (root < 0)
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

int store_record_running(const char *root, const char *name, pid_t pid, pid_t workload,
                         struct error *err)
{
        _cleanup_close_ int dir = state_open_path(root, geteuid(), name, err);
        return dir < 0 ? -1 : record_write_pid(dir, pid, workload, err);
}

int store_forget(const char *root_path, const char *name)
{
        struct error ignored;
        _cleanup_close_ int root = open_root(root_path, &ignored);
        return root < 0 ? -1 : state_remove(root, name, &ignored);
}

/* ---- opening ---- */

void store_close(struct stored *c)
{
        if (c->dir >= 0)
                close(c->dir);
        if (c->root >= 0)
                close(c->root);
        c->dir = c->root = -1;
}

int store_open(const char *root, const char *name, struct stored *ret, struct error *err)
{
        ret->root = open_root(root, err);
        ret->dir = ret->root < 0 ? -1 : state_open(ret->root, name, err);
        if (ret->dir < 0 || record_read(ret->dir, name, &ret->rec, err) < 0) {
                store_close(ret);
                return -1;
        }
        return 0;
}

int store_open_locked(const char *root, const char *name, struct stored *ret, struct error *err)
{
        struct stat st;
        if (store_open(root, name, ret, err) < 0)
                return -1;
        if (state_lock(ret->dir, true, err) < 0)
                goto fail;
        /* what was opened may have been removed meanwhile (and the name taken by a new
         * container, which must not be touched for it), or changed: read it again */
        if (fstat(ret->dir, &st) == 0 && st.st_nlink == 0) {
                error_set(err, ENOENT, "no container named '%s'", name);
                error_hint(err, "another crib command removed it meanwhile");
                goto fail;
        }
        if (record_read(ret->dir, name, &ret->rec, err) < 0)
                goto fail;
        return 0;
fail:
        store_close(ret);
        return -1;
}

int store_each(const char *root_path, int (*fn)(void *ctx, struct stored *c), void *ctx,
               struct error *err)
{
        int root = open_root(root_path, err);
        if (root < 0)
                return -1;
        DIR *d = fdopendir(root);
        if (!d) {
                close(root);
                return error_set(err, errno, "cannot list the containers in '%s'", root_path);
        }
        struct dirent *e;
        int r = 0;
        while (!r && (e = readdir(d))) {
                if (!state_name_valid(e->d_name))
                        continue;
                struct error ignored;
                struct stored c = {.root = -1, .dir = state_open(dirfd(d), e->d_name, &ignored)};
                if (c.dir >= 0 && record_read(c.dir, e->d_name, &c.rec, &ignored) == 0)
                        r = fn(ctx, &c);
                store_close(&c);
        }
        closedir(d);
        return 0;
}

/* ---- what state it is in ---- */

static bool has(const struct stored *c, const char *file)
{
        struct stat st;
        return fstatat(c->dir, file, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

enum store_status store_status(const struct stored *c)
{
        /* the record's pid_alive is the one test of "its process runs" (record.c) */
        if (!c->rec.pid_alive)
                return c->rec.phase == RECORD_CREATED ? STORE_CREATING : STORE_STOPPED;
        if (has(c, STORE_FILE_FIFO))
                return STORE_CREATED;
        if (has(c, STORE_FILE_PAUSED))
                return STORE_PAUSED;
        return STORE_RUNNING;
}

const char *store_status_name(enum store_status s)
{
        switch (s) {
        case STORE_CREATING:
                return "creating";
        case STORE_CREATED:
                return "created";
        case STORE_RUNNING:
                return "running";
        case STORE_PAUSED:
                return "paused";
        case STORE_STOPPED:
                return "stopped";
        }
        return "?";
}

bool store_engine_made(const struct stored *c)
{
        return has(c, STORE_FILE_OCI);
}

/* ---- signal, wait ---- */

enum { GONE = -1, NO_PIDFD = -2, FAILED = -3 };

/* A process by pid, if it is still the one recorded: a pidfd (Linux 5.3); NO_PIDFD when the
 * kernel has none (then kill(2) after the same check); GONE when it has ended or was never
 * recorded; FAILED, with `err`, when pidfd_open(2) fails otherwise. */
static int open_process(pid_t pid, uint64_t start, struct error *err)
{
        /* no record (pid 0): kill(2) would take 0 for crib's own process group */
        if (pid <= 0 || !start)
                return GONE;
        int fd = (int)syscall(SYS_pidfd_open, pid, 0);
        if (fd < 0 && errno == ESRCH)
                return GONE;
        if (fd < 0 && errno != ENOSYS)
                return error_set(err, errno, "cannot open process %d", (int)pid), FAILED;
        /* checked after the open: the pidfd now holds this process, whatever happens next */
        if (!state_proc_alive(pid, start)) {
                if (fd >= 0)
                        close(fd);
                return GONE;
        }
        return fd < 0 ? NO_PIDFD : fd;
}

int store_signal(pid_t pid, uint64_t start, int sig, struct error *err)
{
        int fd = open_process(pid, start, err);
        if (fd == GONE)
                return 0; /* ended meanwhile */
        if (fd == FAILED)
                return -1;
        int r = fd >= 0 ? (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0) : kill(pid, sig);
        int e = errno;
        if (fd >= 0)
                close(fd);
        if (r < 0 && e != ESRCH)
                return error_set(err, e, "cannot send %s to the container's process %d",
                                 sigabbrev_np(sig), (int)pid);
        return 0;
}

bool store_wait_gone(pid_t pid, uint64_t start, long ms)
{
        struct error ignored;
        int fd = open_process(pid, start, &ignored);
        if (fd == GONE)
                return true;
        if (fd >= 0) {
                /* readable once it has exited (a zombie is gone for state_proc_alive too) */
                sys_wait_readable(fd, (int)ms);
                close(fd);
                return !state_proc_alive(pid, start);
        }
        /* no pidfd (before Linux 5.3), or it could not be opened: look every millisecond */
        for (long i = 0; i < ms && state_proc_alive(pid, start); i++)
                usleep(1000);
        return !state_proc_alive(pid, start);
}

bool store_wait(struct stored *c, long ms)
{
        struct error err;
        struct timespec t0, now;
        char name[sizeof c->rec.name];
        snprintf(name, sizeof name, "%s", c->rec.name);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        bool looked_again = false;
        for (;;) {
                if (record_read(c->dir, name, &c->rec, &err) < 0)
                        return true;
                /* stopped with no exit recorded: its monitor gone without a word. Once seen,
                 * looked at again 100 ms later before it is said (CI saw a crib wait of a
                 * restarting container end without the exit status its monitor recorded) */
                if (c->rec.phase == RECORD_STOPPED && (c->rec.has_exit || looked_again))
                        return true;
                if (c->rec.phase == RECORD_STOPPED) {
                        looked_again = true;
                        usleep(100 * 1000);
                        continue;
                }
                /* a foreground `crib run --name` removes its record at the end */
                struct stat st;
                if (fstat(c->dir, &st) == 0 && st.st_nlink == 0)
                        return true;
                clock_gettime(CLOCK_MONOTONIC, &now);
                long spent = (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
                if (ms >= 0 && spent >= ms)
                        return false;
                long slice = ms < 0 || ms - spent > 100 ? 100 : ms - spent;
                int fd = c->rec.monitor_alive
                                 ? open_process(c->rec.monitor, c->rec.monitor_start, &err)
                                 : GONE;
                if (fd >= 0) {
                        sys_wait_readable(fd, (int)slice);
                        close(fd);
                } else {
                        usleep((useconds_t)slice * 1000);
                }
        }
}

/* Its record is final: the exit recorded, or no one left to record it (record.h) */
static bool active(const struct record *r)
{
        return r->phase != RECORD_STOPPED;
}

/* The stop marker (record.h) with `sig`, then the record read again and `sig` sent to the
 * process it names now. In this order, against a monitor that restarts the workload: it writes
 * the new pid, then looks for the marker (monitor.c). Either it finds the marker and kills the
 * new run itself, or it looked before the marker was written, so its pid record was there
 * before we read ours, and we signal the new run. A workload that ends of our signal ends
 * after the marker exists, so the monitor, which looks before each restart, restarts nothing. */
int store_signal_stop(struct stored *c, int sig, struct error *err)
{
        char name[sizeof c->rec.name];
        snprintf(name, sizeof name, "%s", c->rec.name);
        if (record_write_stop(c->dir, sig, err) < 0 || record_read(c->dir, name, &c->rec, err) < 0)
                return -1;
        if (!active(&c->rec) || !c->rec.pid_alive)
                return 0; /* ended, or between two runs: its monitor sees the marker */
        return store_signal(c->rec.pid, c->rec.pid_start, sig, err);
}

int store_stop(struct stored *c, long seconds, bool *ret_killed, struct error *err)
{
        *ret_killed = false;
        if (!active(&c->rec))
                return 0;
        if (seconds > 0 && store_signal_stop(c, SIGTERM, err) < 0)
                return -1;
        if (store_wait(c, seconds * 1000))
                return 0;
        *ret_killed = true;
        /* the marker again, now with SIGKILL: a run the monitor starts meanwhile gets that */
        if (store_signal_stop(c, SIGKILL, err) < 0)
                return -1;
        if (!store_wait(c, 10 * 1000))
                return error_set(err, 0, "'%s' is still running after SIGKILL", c->rec.name);
        return 0;
}

int store_kill(struct stored *c, struct error *err)
{
        struct error ignored;
        if (active(&c->rec) && store_signal_stop(c, SIGKILL, err) < 0)
                return -1;
        /* no process yet: its monitor sets it up (SIGKILL to it ends the setup, which dies
         * with it), unless the monitor is restarting it: then the marker ends it, recorded */
        if (active(&c->rec) && c->rec.monitor_alive && c->rec.monitor != getpid() &&
            !c->rec.pid_alive && !c->rec.restarting)
                store_signal(c->rec.monitor, c->rec.monitor_start, SIGKILL, &ignored);
        if (store_wait(c, 10 * 1000))
                return 0;
        /* a monitor that did not honour the marker: the last resort */
        if (c->rec.monitor_alive && c->rec.monitor != getpid())
                store_signal(c->rec.monitor, c->rec.monitor_start, SIGKILL, &ignored);
        if (!store_wait(c, 1000))
                return error_set(err, 0, "'%s' is still running after SIGKILL", c->rec.name);
        return 0;
}

int store_kill_remove(struct stored *c, struct error *err)
{
        if (store_kill(c, err) < 0)
                return -1;
        if (store_remove(c, err) < 0 && err->errnum != ENOENT)
                return -1;
        return 0;
}

/* ---- its plan, its removal ---- */

int store_read_plan(int dir, struct plan *ret, struct error *err)
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

int store_exec_target(struct stored *c, struct plan *ret_plan, enum store_status *ret_status,
                      struct error *err)
{
        *ret_status = store_status(c);
        int r = *ret_status != STORE_RUNNING ? 1 : store_read_plan(c->dir, ret_plan, err);
        store_close(c);
        return r;
}

/* A stopped container's cgroup, left when its monitor was killed: removed if empty. */
static void remove_cgroup(int dir, const char *name)
{
        struct plan p;
        struct error ignored;
        char leaf[1200];
        if (store_read_plan(dir, &p, &ignored) < 0)
                return;
        if (p.cgroup && p.cgroup_path[0]) {
                cgroup_remove_empty(p.cgroup_path);
        } else if (p.cgroup && p.cgroup_base[0]) {
                cgroup_leaf(p.cgroup_base, name, leaf, sizeof leaf);
                cgroup_remove_empty(leaf);
        }
        plan_free(&p);
}

int store_remove(struct stored *c, struct error *err)
{
        remove_cgroup(c->dir, c->rec.name);
        return state_remove(c->root, c->rec.name, err);
}
