/* sweep.h - kill what is left in a container's namespaces when it has no pid namespace. */
#ifndef CRIB_SWEEP_H
#define CRIB_SWEEP_H

#include <stdbool.h>
#include <sys/types.h>

/* The namespace every process of the container is in: its user namespace when crib made one,
 * else its mount namespace. */
struct sweep_mark {
        bool set;
        bool user; /* a user namespace: a process in one below it is the container's too */
        dev_t dev;
        ino_t ino;
};

/* Take the mark once the workload runs: from the setup process `setup` (crib's init, our
 * child), or from the `workload` after its exec where we cannot read that one's; given the
 * container's clone flags. 0, or -1 with errno: the mark stays unset, and sweep_kill kills
 * nothing. */
int sweep_mark(pid_t setup, pid_t workload, int clone_flags, struct sweep_mark *m);

/* SIGKILL every process in the marked namespace (or, for a user namespace, one below it) but
 * ourselves, pass after pass until three in a row see none (for at most two seconds). The
 * number the first pass that found any found; *more is set when some were still there at the
 * end. */
size_t sweep_kill(const struct sweep_mark *m, bool *more);

#endif
