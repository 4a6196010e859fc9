/* ociops.h - crib as an OCI runtime: create, start, kill and delete as library calls on crib's
 * state directory and plan (ociops.c); runc's command line is cmd/oci.c's. The state machine:
 *
 *   create   -> created (its process set up, waiting on the exec fifo)
 *   start    created -> running (the fifo read: its program execs)
 *   kill     created, running or paused: a signal to its process (--all: its cgroup's too)
 *   delete   created or stopped (or any, --force: it ends first) -> gone
 *
 * and state/list (ocistate.h), pause/resume/update/ps (ocicgroup.h), exec (ociexec.h).
 */
#ifndef CRIB_OCIOPS_H
#define CRIB_OCIOPS_H

#include <stdbool.h>

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

#endif
