/* record.h - what a container's state directory says about it, and what is true now.
 *
 * Four small files, each written once, atomically (state_write), by the process that knows it:
 *
 *   info     `crib run` before anything starts: name, command, spec, created, boot id
 *   monitor  the process that follows the container (crib's monitor, or the foreground `crib
 *            run --name`): its pid and start time
 *   pid      once the workload runs: the container's first process (crib's init, or the
 *            workload with init = no), its start time, and when it started; and the
 *            workload's own process with its start time (crib exec joins that one), as the
 *            kernel named the sender of its last message before the exec (sync.h)
 *   exit     once it has ended: crib's exit status for it, and when it ended
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
        int exit_status; /* crib's exit status for it: the workload's, or 128+N, or 125... */

        /* what is true now (record_read) */
        enum record_phase phase;
        bool monitor_alive, pid_alive;
        const char *why; /* stopped without an exit status: why */
};

/* The current boot's id (empty when unknown). */
void record_boot_id(char *buf, size_t len);

/* The four writers (see above). */
int record_write_info(int dir, const struct record *r, struct error *err);
int record_write_monitor(int dir, pid_t pid, struct error *err);
int record_write_pid(int dir, pid_t pid, pid_t workload, struct error *err);
int record_write_exit(int dir, int exit_status, struct error *err);

/* Read NAME's files and check its processes: the phase, and `why` for a stopped container
 * without an exit status. */
int record_read(int dir, const char *name, struct record *ret, struct error *err);

const char *record_phase_name(enum record_phase p);

#endif
