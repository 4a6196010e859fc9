/* monitor.h - crib's monitor: the process that follows a detached container (`crib run -d`). */
#ifndef CRIB_MONITOR_H
#define CRIB_MONITOR_H

#include <stdint.h>
#include <sys/types.h>

#include "container.h"
#include "base/error.h"
#include "plan/plan.h"

struct monitor_opts {
        const char *root;   /* the state root's path */
        uid_t uid;          /* who owns it */
        const char *name;   /* the container's; its directory exists, with its info */
        uint64_t log_limit; /* bytes, both log files together (log.h) */
        int (*exit_status)(int wait_status); /* cmd/'s rule: the workload's, or 128+N */
        /* NULL, or what cmd/ does once the container ended and its exit is recorded (crib run
         * --rm: remove it); in the monitor, its errors its own */
        void (*at_end)(const struct plan *p, const char *name);
};

/* Fork crib's monitor, which starts the container from `p` and follows it to its end.
 * Returns (in crib) once the workload runs: 0, with the monitor's pid in *ret_pid; or -1 with
 * the setup's error, and then nothing of the container is left, its state directory
 * included. Until then the trace and the warnings come to crib's hooks `h`; after, the
 * monitor's go to the container's log. Never returns in the monitor. */
int monitor_start(const struct plan *p, const struct monitor_opts *o,
                  const struct container_hooks *h, pid_t *ret_pid, struct error *err);

#endif
