/* ociops.h - crib as an OCI runtime: create, start, kill and delete as library calls on crib's
 * state directory and plan (ociops.c); runc's command line is cmd/oci.c's. The state machine:
 *
 *   create   -> created (its process set up, waiting on the exec fifo)
 *   start    created -> running (the fifo read: its program execs)
 *   kill     created, running or paused: a signal to its process (--all: its cgroup's too)
 *   delete   created or stopped (or any, --force: it ends first) -> gone
 *   run      create + start; then, unless detached, waits for it and deletes it
 *
 * and state/list (ocistate.h), pause/resume/update/ps (ocicgroup.h), exec (ociexec.h).
 */
#ifndef CRIB_OCIOPS_H
#define CRIB_OCIOPS_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/error.h"
#include "ocistate.h"

struct ociops_create {
        const char *id;
        const char *bundle;   /* the directory of config.json and (usually) the rootfs */
        const char *pid_file; /* where the engine reads the container's pid, or NULL */
        const char *console;  /* the engine's console socket, for a terminal, or NULL */
        long preserve_fds;    /* descriptors 3.. the container keeps, as runc's --preserve-fds */
        /* make --root's missing parents first (0700), as runc does: containerd's shim passes
         * /run/containerd/runc/NAMESPACE before anything made /run/containerd/runc */
        bool root_parents;
        /* run: what create leaves for it, where not NULL: the container's process (our child),
         * and with a terminal but no console socket the terminal's master side (else -1) */
        pid_t *ret_pid;
        int *ret_master;
};

/* create: the container set up in full, its process waiting on the exec fifo. */
int ociops_create(const struct oci_runtime *rt, const struct ociops_create *c, struct error *err);
/* start ID: let the created container exec its program. When the exec failed, -1 with the
 * container's message and *ret_exit its exit status (126, 127, ...); else 0. */
int ociops_start(const struct oci_runtime *rt, const char *id, int *ret_exit, struct error *err);
/* kill ID SIG: to its process, if it runs (not stopped); with `all` to every process of its own
 * cgroup too. */
int ociops_kill(const struct oci_runtime *rt, const char *id, int sig, bool all, struct error *err);
/* delete ID: a created or stopped container (any, with `force`) ends, its cgroup and state
 * directory are removed, then its poststop hooks run. With `force`, no such container is no
 * error, as runc's. */
int ociops_delete(const struct oci_runtime *rt, const char *id, bool force, struct error *err);

struct ociops_run {
        struct ociops_create create; /* its ret_pid and ret_master are run's own */
        bool detach;                 /* return once the program runs, left to our parent */
        bool keep;                   /* leave it stopped when it ended, as runc's --keep */
};
/* run ID: create and start, as those verbs do. Detached, 0 once the program runs. Else we
 * follow it as its parent until it ends: the forwarded signals (blocked from before create, so
 * none ends us; create's own loop passes those of the setup on) passed on to it, a terminal without
 * a console socket relayed to ours; then it is deleted (unless `keep`), and *ret_status is its wait
 * status. On failure the container is gone (deleted), and *ret_exit is the exec's exit status as
 * for start (126, 127), else 0. */
int ociops_run(const struct oci_runtime *rt, const struct ociops_run *req, int *ret_status,
               int *ret_exit, struct error *err);

#endif
