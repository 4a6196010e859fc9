/* test_record.c - runtime/state/record.c and log.c on a real directory: what the records say
 * (created, running, stopped, and why), records that lie (another boot, a reused pid, garbage),
 * and the log: rotation that keeps the latest output within the limit, --tail. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "state/log.h"
#include "state/record.h"
#include "state/state.h"

static void put(int dir, const char *file, const char *text)
{
        struct error err;
        state_write(dir, file, text, strlen(text), &err);
}

/* the log's contents, log.1 then log, with --tail N (-1: all) */
static char *logged(int dir, long tail)
{
        static char buf[1 << 20];
        struct error err;
        char path[] = "/tmp/crib-log-out.XXXXXX";
        int fd = mkstemp(path);
        unlink(path);
        if (log_copy(dir, fd, tail, &err) < 0)
                return NULL;
        ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
        close(fd);
        buf[n < 0 ? 0 : n] = '\0';
        return buf;
}

static long file_size(int dir, const char *file)
{
        struct stat st;
        return fstatat(dir, file, &st, AT_SYMLINK_NOFOLLOW) == 0 ? (long)st.st_size : 0;
}

int main(void)
{
        struct error err;
        char tmpl[] = "/tmp/crib-record-test.XXXXXX", path[256], boot[64], text[256];
        const char *top = mkdtemp(tmpl);
        snprintf(path, sizeof path, "%s/root", top);
        int root = state_open_root(path, geteuid(), &err);
        int dir = state_create(root, "c1", &err);
        ok(root >= 0 && dir >= 0, "a state root and a container's directory");

        struct record r = {.created = 1000, .detached = true}, got;
        snprintf(r.name, sizeof r.name, "c1");
        snprintf(r.command, sizeof r.command, "/bin/sh -c 'echo a\nb'");
        snprintf(r.spec, sizeof r.spec, "/srv/web.ini");
        record_boot_id(r.boot, sizeof r.boot);
        ok(record_write_info(dir, &r, &err) == 0, "info written");
        ok(record_read(dir, "c1", &got, &err) == 0 && got.phase == RECORD_STOPPED && got.why &&
                   strstr(got.why, "killed while creating"),
           "info alone: stopped, crib was killed while creating it");
        ok(!strcmp(got.command, "/bin/sh -c 'echo a?b'") && !strcmp(got.spec, "/srv/web.ini") &&
                   got.created == 1000 && got.detached,
           "the record reads back, a newline in the command made harmless");

        /* this process as the monitor, a child as the container's first process */
        record_write_monitor(dir, getpid(), &err);
        record_read(dir, "c1", &got, &err);
        ok(got.phase == RECORD_CREATED && got.monitor_alive, "a live monitor, no pid: created");
        pid_t child = fork();
        if (child == 0) {
                pause();
                _exit(0);
        }
        record_write_pid(dir, child, 0, &err);
        record_read(dir, "c1", &got, &err);
        ok(got.phase == RECORD_RUNNING && got.pid == child && got.pid_alive && got.started > 0,
           "a live first process: running");
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
        record_read(dir, "c1", &got, &err);
        ok(got.phase == RECORD_RUNNING && !got.pid_alive && !got.restarting && !got.restarts,
           "its process gone, the monitor alive: still running until the monitor records it");

        /* the restart policy's records: the count, restarting, the stop marker */
        ok(record_stop_signal(dir) == 0, "no stop marker: 0");
        ok(record_write_restarts(dir, 3, true, 137, &err) == 0, "a restarts record");
        record_read(dir, "c1", &got, &err);
        ok(got.phase == RECORD_RUNNING && got.restarting && got.restarts == 3 &&
                   got.last_exit == 137,
           "restarting, 3 restarts, the last run's status 137");
        ok(record_write_stop(dir, SIGTERM, &err) == 0 && record_stop_signal(dir) == SIGTERM,
           "the stop marker holds crib stop's signal");
        put(dir, "stop", "signal=junk\n");
        ok(record_stop_signal(dir) == SIGKILL, "a malformed marker still stops it: SIGKILL");
        put(dir, "restarts", "count=9\nrestarting=1\nlast=1\nboot=another-boot\n");
        record_read(dir, "c1", &got, &err);
        ok(!got.restarting && got.restarts == 0, "a restarts record of another boot is ignored");
        put(dir, "restarts", "count=-2\nrestarting=5\nlast=900\n");
        record_read(dir, "c1", &got, &err);
        ok(!got.restarting && got.restarts == 0 && got.last_exit == 0,
           "garbage in the restarts record is ignored");
        record_write_exit(dir, 137, &err);
        record_read(dir, "c1", &got, &err);
        ok(got.phase == RECORD_STOPPED && got.has_exit && got.exit_status == 137 && !got.why,
           "an exit record: stopped, with the status");

        /* the health record: what a container's check printed, escaped and bounded */
        {
                static struct record_health h, back;
                char out[4 * 16 + 1];
                record_escape("a\nb\t\\\x1b[2J\xff=", 11, out);
                ok(!strcmp(out, "a\\nb\\t\\\\\\x1b[2J\\xff="), "escaped: \\n \\t \\\\ \\xHH (%s)",
                   out);
                ok(record_read_health(dir, &back) < 0 && back.last_exit == -1,
                   "no health record: -1, nothing");
                h = (struct record_health){.pid = 42, .streak = 2, .checks = 7, .last_exit = 3};
                snprintf(h.status, sizeof h.status, "unhealthy");
                snprintf(h.action, sizeof h.action, "restarted");
                memset(h.output, 'x', sizeof h.output - 1);
                h.output[5] = '\n'; /* the record's own guard: never a line of its own */
                ok(record_write_health(dir, &h, &err) == 0,
                   "a health record, its output at the bound");
                ok(record_read_health(dir, &back) == 0 && back.pid == 42 &&
                           !strcmp(back.status, "unhealthy") && back.streak == 2 &&
                           back.checks == 7 && back.last_exit == 3 &&
                           !strcmp(back.action, "restarted") &&
                           strlen(back.output) == sizeof back.output - 1 && back.output[5] == '?',
                   "read back whole; a newline in it became '?'");
                put(dir, "health", "status=healthy\nstreak=-1\nlast_exit=999\npid=x\n");
                ok(record_read_health(dir, &back) == 0 && back.streak == 0 &&
                           back.last_exit == -1 && back.pid == 0,
                   "garbage numbers in the health record are ignored");
                unlinkat(dir, "health", 0);
        }

        /* records that lie */
        unlinkat(dir, "exit", 0);
        snprintf(text, sizeof text, "pid=%d\nstart=1\ntime=0\n", (int)getpid());
        put(dir, "pid", text);
        put(dir, "monitor", "pid=1\nstart=1\ntime=0\n");
        record_read(dir, "c1", &got, &err);
        ok(got.phase == RECORD_STOPPED && !got.pid_alive && !got.monitor_alive && got.why &&
                   strstr(got.why, "monitor was killed"),
           "live pids with other start times are not the container's");
        record_write_monitor(dir, getpid(), &err);
        record_write_pid(dir, getpid(), getpid(), &err);
        record_read(dir, "c1", &got, &err);
        ok(got.pid_alive && got.workload == getpid() && got.workload_start == got.pid_start &&
                   got.workload_start > 0,
           "the workload's pid and start time are recorded beside the first process's");
        put(dir, "info", "name=c1\nboot=another-boot\ncreated=5\n");
        record_read(dir, "c1", &got, &err);
        ok(got.phase == RECORD_STOPPED && got.why && strstr(got.why, "restarted"),
           "a record from another boot: stopped, the machine restarted");
        record_boot_id(boot, sizeof boot);
        snprintf(text, sizeof text, "boot=%s\ncreated=-4\ndetached=7\n", boot);
        put(dir, "info", text);
        put(dir, "pid", "pid=-3\nstart=x\nworkload=5\nworkload_start=x\n");
        put(dir, "exit", "status=300\n");
        ok(record_read(dir, "c1", &got, &err) == 0 && !got.has_exit && got.pid == 0 &&
                   got.workload == 0 && got.created == 0 && !got.detached &&
                   got.phase == RECORD_CREATED,
           "garbage numbers are ignored, not trusted");
        ok(!strcmp(record_phase_name(RECORD_RUNNING), "running"), "phase names");

        /* the log: 8k limit, so each file at most 4k */
        struct log_writer w = {.limit = 8192, .uid = geteuid()};
        snprintf(w.root, sizeof w.root, "%s", path);
        snprintf(w.name, sizeof w.name, "c1");
        ok(log_open(&w, dir, &err) == 0, "a log");
        char line[64];
        for (int i = 1; i <= 2000; i++) {
                int n = snprintf(line, sizeof line, "line %d of the log\n", i);
                log_write(&w, line, (size_t)n);
        }
        long total = file_size(dir, "log") + file_size(dir, "log.1");
        ok(total <= 8192 && total > 4096, "2000 lines (41 kB) keep the log within 8k (%ld bytes)",
           total);
        char *all = logged(dir, -1);
        ok(all && strstr(all, "line 2000 of the log\n") && !strstr(all, "line 1 of"),
           "the latest lines are kept, the first dropped");
        ok(all && !strncmp(all, "line ", 5),
           "written a line at a time, the kept part begins at a whole line");
        char *t3 = logged(dir, 3);
        ok(t3 && !strcmp(t3, "line 1998 of the log\nline 1999 of the log\nline 2000 of the log\n"),
           "--tail 3");
        ok(!strcmp(logged(dir, 0), ""), "--tail 0: nothing");
        /* a tail reaching back into log.1 */
        long in_log = 0;
        for (char *p = logged(dir, -1); (p = strchr(p, '\n')); p++)
                in_log++;
        char *t = logged(dir, in_log);
        ok(t && !strcmp(t, all), "--tail of every line kept: the same as all of it");
        log_write(&w, "no newline", 10);
        ok(strstr(logged(dir, 1), "no newline") && !strstr(logged(dir, 1), "line 2000"),
           "a last line without its newline counts as a line");
        static char big[20000];
        memset(big, 'x', sizeof big);
        log_write(&w, big, sizeof big);
        total = file_size(dir, "log") + file_size(dir, "log.1");
        ok(total <= 8192, "one write larger than the limit keeps only its end (%ld bytes)", total);

        /* `crib rm -f` removed the container while its monitor was ending, and a new one of the
         * same name has its own log: the old writer never rotates it away */
        unlinkat(dir, "log", 0);
        unlinkat(dir, "log.1", 0);
        put(dir, "log", "the new container's\n");
        for (int i = 0; i < 400; i++)
                log_write(&w, "old\n", 4);
        ok(file_size(dir, "log") == 20 && faccessat(dir, "log.1", F_OK, AT_SYMLINK_NOFOLLOW) < 0,
           "a writer whose log was replaced rotates only its own file (log: %ld bytes, no log.1)",
           file_size(dir, "log"));
        log_close(&w);

        /* a symlink planted as the log is never written through */
        unlinkat(dir, "log", 0);
        snprintf(text, sizeof text, "%s/target", top);
        ok(symlinkat(text, dir, "log") == 0, "a symlink planted as 'log'");
        ok(log_open(&w, dir, &err) < 0 && err.errnum == ELOOP, "log_open refuses it (ELOOP)");
        ok(access(text, F_OK) < 0, "and nothing was created at its target");

        close(dir);
        state_remove(root, "c1", &err);
        close(root);
        rmdir(path);
        rmdir(top);
        return tap_done();
}
