/* record.c - a container's records in its state directory; see record.h.
 *
 * Kernel features: /proc/PID/stat's start time (field 22) to tell a recorded process from a
 * later one with the same pid, and /proc/sys/kernel/random/boot_id to tell this boot from the
 * one a record was written in (a --root on a disk outlives a restart; /run does not).
 *
 * Each file is lines of KEY=VALUE. Values are written by crib, but read back as untrusted:
 * lengths are bounded, numbers parsed strictly, unknown keys ignored.
 */
#define _GNU_SOURCE
#include "record.h"

#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/cleanup.h"

void record_boot_id(char *buf, size_t len)
{
        buf[0] = '\0';
        _cleanup_fclose_ FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
        if (f && fgets(buf, (int)len, f))
                buf[strcspn(buf, "\n")] = '\0';
}

/* printable, one line: control characters become '?' */
static void one_line(char *s)
{
        for (; *s; s++)
                if ((unsigned char)*s < 0x20 || *s == 0x7f)
                        *s = '?';
}

int record_write_info(int dir, const struct record *r, struct error *err)
{
        struct record c = *r;
        one_line(c.command);
        one_line(c.spec);
        one_line(c.boot);
        char buf[2048];
        int n = snprintf(buf, sizeof buf,
                         "name=%s\ncommand=%s\nspec=%s\nboot=%s\ncreated=%" PRId64
                         "\ndetached=%d\n",
                         c.name, c.command, c.spec, c.boot, c.created, c.detached ? 1 : 0);
        if (n < 0 || (size_t)n >= sizeof buf)
                return error_set(err, ENAMETOOLONG, "the container's record is too long");
        return state_write(dir, "info", buf, (size_t)n, err);
}

/* `file`: pid, its start time, now; and the workload's pid and start time when given (> 0) */
static int write_process(int dir, const char *file, pid_t pid, pid_t workload, struct error *err)
{
        char buf[256], boot[64];
        record_boot_id(boot, sizeof boot);
        one_line(boot);
        int n = snprintf(buf, sizeof buf, "pid=%d\nstart=%" PRIu64 "\ntime=%lld\nboot=%s\n",
                         (int)pid, state_proc_start(pid), (long long)time(NULL), boot);
        if (workload > 0)
                n += snprintf(buf + n, sizeof buf - (size_t)n,
                              "workload=%d\nworkload_start=%" PRIu64 "\n", (int)workload,
                              state_proc_start(workload));
        return state_write(dir, file, buf, (size_t)n, err);
}

int record_write_monitor(int dir, pid_t pid, struct error *err)
{
        return write_process(dir, "monitor", pid, 0, err);
}

int record_write_pid(int dir, pid_t pid, pid_t workload, struct error *err)
{
        return write_process(dir, "pid", pid, workload, err);
}

int record_write_exit(int dir, int exit_status, struct error *err)
{
        char buf[64];
        int n = snprintf(buf, sizeof buf, "status=%d\ntime=%lld\n", exit_status,
                         (long long)time(NULL));
        return state_write(dir, "exit", buf, (size_t)n, err);
}

int record_write_restarts(int dir, unsigned count, bool restarting, int last, struct error *err)
{
        char buf[256], boot[64];
        record_boot_id(boot, sizeof boot);
        one_line(boot);
        int n = snprintf(buf, sizeof buf, "count=%u\nrestarting=%d\nlast=%d\ntime=%lld\nboot=%s\n",
                         count, restarting ? 1 : 0, last, (long long)time(NULL), boot);
        return state_write(dir, "restarts", buf, (size_t)n, err);
}

int record_write_stop(int dir, int sig, struct error *err)
{
        char buf[64];
        int n = snprintf(buf, sizeof buf, "signal=%d\ntime=%lld\n", sig, (long long)time(NULL));
        if (state_write(dir, "stop", buf, (size_t)n, err) < 0)
                return error_wrap(err, "cannot mark the container stopped (its restart policy "
                                       "would undo it)");
        return 0;
}

void record_escape(const char *in, size_t n, char *out)
{
        static const char hex[] = "0123456789abcdef";
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)in[i];
                if (c == '\\' || c == '\n' || c == '\t') {
                        *out++ = '\\';
                        *out++ = c == '\n' ? 'n' : c == '\t' ? 't' : '\\';
                } else if (c < 0x20 || c > 0x7e) {
                        *out++ = '\\';
                        *out++ = 'x';
                        *out++ = hex[c >> 4];
                        *out++ = hex[c & 15];
                } else {
                        *out++ = (char)c;
                }
        }
        *out = '\0';
}

int record_write_health(int dir, const struct record_health *h, struct error *err)
{
        struct record_health c = *h;
        one_line(c.status);
        one_line(c.action);
        one_line(c.output); /* escaped already; this is the record's own guard */
        _cleanup_free_ char *buf = NULL;
        int n = asprintf(
                &buf,
                "pid=%d\nstatus=%s\nstreak=%u\nchecks=%u\nlast_exit=%d\ntimed_out=%d\ntime=%lld\n"
                "action=%s\noutput=%s\n",
                (int)c.pid, c.status, c.streak, c.checks, c.last_exit, c.timed_out ? 1 : 0,
                (long long)c.time, c.action, c.output);
        if (n < 0)
                return error_set(err, ENOMEM, "cannot write the health record");
        return state_write(dir, "health", buf, (size_t)n, err);
}

/* the value of KEY in `text` (lines of KEY=VALUE), copied into buf; false when absent */
static bool value(const char *text, const char *key, char *buf, size_t len)
{
        size_t k = strlen(key);
        for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
                if (strncmp(l, key, k) || l[k] != '=')
                        continue;
                const char *v = l + k + 1;
                size_t n = strcspn(v, "\n");
                if (n >= len)
                        n = len - 1;
                memcpy(buf, v, n);
                buf[n] = '\0';
                return true;
        }
        return false;
}

static bool number(const char *text, const char *key, int64_t min, int64_t max, int64_t *ret)
{
        char buf[32], *end;
        if (!value(text, key, buf, sizeof buf) || !buf[0])
                return false;
        errno = 0;
        long long v = strtoll(buf, &end, 10);
        if (errno || *end || v < min || v > max)
                return false;
        *ret = v;
        return true;
}

/* a process record: pid, start time and its time, and (`r`, for "pid") the workload's pid and
 * start time when both are there; false when absent or malformed, or written in another boot
 * than `now_boot` (the files are not synced: after a power cut the info file may be lost while
 * this one survived) */
static bool read_process(int dir, const char *file, const char *now_boot, bool *other_boot,
                         pid_t *pid, uint64_t *start, int64_t *when, struct record *r)
{
        char text[256], boot[64];
        struct error ignored;
        int64_t p, s, t = 0, w, ws;
        if (state_read(dir, file, text, sizeof text, &ignored) < 0)
                return false;
        if (value(text, "boot", boot, sizeof boot) && now_boot[0] && strcmp(boot, now_boot)) {
                *other_boot = true;
                return false;
        }
        if (!number(text, "pid", 1, INT32_MAX, &p) || !number(text, "start", 0, INT64_MAX, &s))
                return false;
        number(text, "time", 0, INT64_MAX, &t);
        *pid = (pid_t)p;
        *start = (uint64_t)s;
        if (when)
                *when = t;
        if (r && number(text, "workload", 1, INT32_MAX, &w) &&
            number(text, "workload_start", 1, INT64_MAX, &ws)) {
                r->workload = (pid_t)w;
                r->workload_start = (uint64_t)ws;
        }
        return true;
}

int record_stop_signal(int dir)
{
        char text[64];
        int64_t v;
        struct error ignored;
        if (state_read(dir, "stop", text, sizeof text, &ignored) < 0)
                return 0;
        return number(text, "signal", 1, 64, &v) ? (int)v : SIGKILL;
}

int record_read_health(int dir, struct record_health *ret)
{
        _cleanup_free_ char *text = malloc(sizeof ret->output + 512);
        int64_t v;
        struct error ignored;
        *ret = (struct record_health){.last_exit = -1};
        if (!text || state_read(dir, "health", text, sizeof ret->output + 512, &ignored) < 0 ||
            !value(text, "status", ret->status, sizeof ret->status))
                return -1;
        value(text, "action", ret->action, sizeof ret->action);
        value(text, "output", ret->output, sizeof ret->output);
        if (number(text, "pid", 1, INT32_MAX, &v))
                ret->pid = (pid_t)v;
        if (number(text, "streak", 0, UINT32_MAX, &v))
                ret->streak = (unsigned)v;
        if (number(text, "checks", 0, UINT32_MAX, &v))
                ret->checks = (unsigned)v;
        if (number(text, "last_exit", -1, 255, &v))
                ret->last_exit = (int)v;
        if (number(text, "timed_out", 0, 1, &v))
                ret->timed_out = v == 1;
        if (number(text, "time", 0, INT64_MAX, &v))
                ret->time = v;
        return 0;
}

/* the restarts file, when written in this boot (`now_boot`) */
static void read_restarts(int dir, const char *now_boot, struct record *r)
{
        char text[256], boot[64];
        int64_t v;
        struct error ignored;
        if (state_read(dir, "restarts", text, sizeof text, &ignored) < 0 ||
            (value(text, "boot", boot, sizeof boot) && now_boot[0] && strcmp(boot, now_boot)))
                return;
        if (number(text, "count", 0, UINT32_MAX, &v))
                r->restarts = (unsigned)v;
        if (number(text, "last", 0, 255, &v))
                r->last_exit = (int)v;
        r->restarting_file = number(text, "restarting", 0, 1, &v) && v == 1;
}

int record_read(int dir, const char *name, struct record *ret, struct error *err)
{
        char text[2048], now_boot[64];
        int64_t v;
        *ret = (struct record){0};
        snprintf(ret->name, sizeof ret->name, "%s", name);
        if (state_read(dir, "info", text, sizeof text, err) >= 0) {
                value(text, "command", ret->command, sizeof ret->command);
                value(text, "spec", ret->spec, sizeof ret->spec);
                value(text, "boot", ret->boot, sizeof ret->boot);
                if (number(text, "created", 0, INT64_MAX, &v))
                        ret->created = v;
                if (number(text, "detached", 0, 1, &v))
                        ret->detached = v == 1;
        } else if (err->errnum != ENOENT && err->errnum != EINVAL) { /* EINVAL: not a file */
                return -1;
        }
        record_boot_id(now_boot, sizeof now_boot);
        bool other_boot = false;
        bool have_monitor = read_process(dir, "monitor", now_boot, &other_boot, &ret->monitor,
                                         &ret->monitor_start, NULL, NULL);
        bool have_pid = read_process(dir, "pid", now_boot, &other_boot, &ret->pid, &ret->pid_start,
                                     &ret->started, ret);
        if (state_read(dir, "exit", text, sizeof text, err) >= 0 &&
            number(text, "status", 0, 255, &v)) {
                ret->has_exit = true;
                ret->exit_status = (int)v;
                if (number(text, "time", 0, INT64_MAX, &v))
                        ret->finished = v;
        }
        bool this_boot =
                !other_boot && (!ret->boot[0] || !now_boot[0] || !strcmp(ret->boot, now_boot));
        ret->monitor_alive =
                this_boot && have_monitor && state_proc_alive(ret->monitor, ret->monitor_start);
        ret->pid_alive = this_boot && have_pid && state_proc_alive(ret->pid, ret->pid_start);
        read_restarts(dir, now_boot, ret);
        ret->restarting =
                ret->restarting_file && ret->monitor_alive && !ret->has_exit && !ret->pid_alive;

        if (ret->has_exit)
                ret->phase = RECORD_STOPPED;
        else if (ret->pid_alive)
                ret->phase = RECORD_RUNNING;
        else if (!have_pid && ret->monitor_alive)
                ret->phase = RECORD_CREATED;
        else if (have_pid && ret->monitor_alive)
                ret->phase = RECORD_RUNNING; /* ended this instant: its monitor is recording it */
        else {
                ret->phase = RECORD_STOPPED;
                if (!this_boot)
                        ret->why = "the machine restarted since";
                else if (!have_monitor)
                        ret->why = "crib was killed while creating it";
                else if (!have_pid)
                        ret->why = "crib was killed while starting it";
                else
                        ret->why = "crib's monitor was killed";
        }
        return 0;
}

const char *record_phase_name(enum record_phase p)
{
        switch (p) {
        case RECORD_CREATED:
                return "created";
        case RECORD_RUNNING:
                return "running";
        case RECORD_STOPPED:
                return "stopped";
        }
        return "?";
}
