/* record.h - what a container's state directory says about it, and what is true now.
 *
 * Small files, each written atomically (state_write) by the process that knows it; the first
 * four once each (pid again at each restart):
 *
 *   info     `crib run` before anything starts: name, command, spec, created, boot id
 *   monitor  the process that follows the container (crib's monitor, or the foreground `crib
 *            run --name`): its pid and start time
 *   pid      once the workload runs: the container's first process (crib's init, or the
 *            workload with init = no), its start time, and when it started; and the
 *            workload's own process with its start time (crib exec joins that one), as the
 *            kernel named the sender of its last message before the exec (sync.h)
 *   exit     once it has ended: crib's exit status for it, and when it ended
 *   restarts crib's monitor, when a [service] restart policy restarts the workload: how many
 *            times, whether it is restarting now (between a run's end and the next one's
 *            pid), the last run's exit status, when, and the boot id
 *   health   crib's monitor, with a [service] healthcheck, after each check: the status
 *            (starting, healthy, unhealthy), the streak of failures, the last check's exit
 *            status, whether it overran its timeout, its output (at most RECORD_HEALTH_OUTPUT
 *            bytes, escaped: printable ASCII only), when, and what on_unhealthy did
 *   stop     crib stop, crib kill with a signal that ends it, crib rm -f: written before they
 *            signal, with the signal: the monitor restarts nothing once it is there, and kills
 *            a workload it started meanwhile with that signal (monitor.c says each race)
 *
 * A recorded pid counts only while /proc/PID/stat shows the same start time, not a zombie,
 * and the machine has not restarted since (the boot id), so a pid reused by another process is
 * never taken for the container's, nor one that ended for a running one (state_proc_alive).
 * Everything else follows from which files exist (record_read).
 */
#ifndef CRIB_RECORD_H
#define CRIB_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "state.h"

enum record_phase {
        RECORD_CREATED, /* being set up: its monitor runs, its workload does not yet */
        RECORD_RUNNING, /* its first process runs */
        RECORD_STOPPED, /* ended: with an exit status, or `why` says why none is known */
};

struct record {
        char name[STATE_NAME_MAX + 1];
        char command[512]; /* the workload's argv, joined with spaces */
        char spec[1024];   /* the spec file it was started from */
        char boot[64];     /* /proc/sys/kernel/random/boot_id when it was created */
        int64_t created, started, finished; /* seconds since the epoch; 0: not (yet) */
        pid_t monitor, pid;                 /* 0: not recorded */
        uint64_t monitor_start, pid_start;
        pid_t workload; /* the workload's process; 0: not recorded (then pid is the best guess) */
        uint64_t workload_start;
        bool detached;
        bool has_exit;
        int exit_status;   /* crib's exit status for it: the workload's, or 128+N, or 125... */
        unsigned restarts; /* how many times its monitor restarted it (restart policy) */
        int last_exit;     /* with restarts: the exit status of the run before the last restart */
        bool restarting_file; /* the restarts file says a restart is under way */

        /* what is true now (record_read) */
        enum record_phase phase;
        bool monitor_alive, pid_alive;
        bool restarting; /* between a run's end and the next run's pid: its monitor alive */
        const char *why; /* stopped without an exit status: why */
};

/* The current boot's id (empty when unknown). */
void record_boot_id(char *buf, size_t len);

/* The four writers (see above). */
int record_write_info(int dir, const struct record *r, struct error *err);
int record_write_monitor(int dir, pid_t pid, struct error *err);
int record_write_pid(int dir, pid_t pid, pid_t workload, struct error *err);
int record_write_exit(int dir, int exit_status, struct error *err);
/* The monitor: `count` restarts so far; `restarting` while the next run is not recorded yet;
 * `last`, the exit status that made it restart. */
int record_write_restarts(int dir, unsigned count, bool restarting, int last, struct error *err);
/* crib stop, kill, rm -f: the stop marker with the signal they send (see above). */
int record_write_stop(int dir, int sig, struct error *err);
/* The stop marker's signal, 0 when there is none (a malformed one reads as SIGKILL). */
int record_stop_signal(int dir);

/* The health file (see above). */
#define RECORD_HEALTH_OUTPUT 4096
struct record_health {
        pid_t pid;       /* the run's first process: the record is that run's */
        char status[16]; /* starting, healthy, unhealthy */
        unsigned streak; /* failures in a row */
        unsigned checks; /* checks run in this run of the workload */
        int last_exit;   /* the last check's exit status; -1: none ran yet */
        bool timed_out;  /* the last check overran its timeout (killed) */
        int64_t time;    /* when the last check ended, seconds since the epoch */
        char action[16]; /* "", or what on_unhealthy did: killed, restarted */
        /* the last check's output, escaped (record_escape): at most 4 bytes for each of its
         * RECORD_HEALTH_OUTPUT */
        char output[4 * RECORD_HEALTH_OUTPUT + 1];
};
int record_write_health(int dir, const struct record_health *h, struct error *err);
/* 0 with *ret filled, -1 when there is no health file (or a malformed one) */
int record_read_health(int dir, struct record_health *ret);
/* `in` (n bytes of a container's output) as printable ASCII in `out` (4n + 1 bytes): a
 * backslash as \\, a newline as \n, a tab as \t, every other byte below 0x20 or above 0x7e as
 * \xHH; so it is one line, safe in a record, an INI value, JSON and on a terminal. */
void record_escape(const char *in, size_t n, char *out);

/* Read NAME's files and check its processes: the phase, and `why` for a stopped container
 * without an exit status. */
int record_read(int dir, const char *name, struct record *ret, struct error *err);

const char *record_phase_name(enum record_phase p);

#endif
