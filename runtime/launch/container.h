/* container.h - run a container from a plan: the parent's half of `crib run`. */
#ifndef CRIB_CONTAINER_H
#define CRIB_CONTAINER_H

#include "base/error.h"
#include "plan/plan.h"
#include "seccomp/seccomp.h"
#include "notify.h"

#include <sys/types.h>

/* How the runtime hands lines to cmd/ (the only printer), and says when the workload runs.
 * Any may be NULL. */
struct container_hooks {
        void (*trace)(void *ctx, const char *line);
        void (*warn)(void *ctx, const char *line);
        /* the workload runs (it exec'd); `pid` is the container's first process: crib's init,
         * or the workload itself with init = no; `workload` is the workload's process as the
         * kernel named the sender of its last message before the exec (0: not known) */
        void (*running)(void *ctx, pid_t pid, pid_t workload);
        /* plan.wait_start: the workload is set up and waits for `crib start` (start.c);
         * container_run returns now, leaving it running; `pid` is the container's process,
         * `workload` as for running */
        void (*created)(void *ctx, pid_t pid, pid_t workload);
        /* the container's own cgroup is made, at `path` (before anything of it runs there) */
        void (*cgroup)(void *ctx, const char *path);
        /* the terminal's master side, when set: given to it (it closes it), not relayed */
        void (*pty)(void *ctx, int master);
        /* the container's namespaces exist and its setup waits before its first mount (the
         * plan must not have self_maps): the OCI front end's prestart and createRuntime hooks;
         * an error ends the container */
        int (*before_go)(void *ctx, pid_t pid, struct error *err);
        /* plan.step_mode: a step is about to run ("N/M NAME", or "parent: N/M NAME"), in the
         * process `pid` (as crib sees it); it runs when this returns 0; -1 stops the container
         * (the user asked to) */
        int (*step)(void *ctx, const char *step, pid_t pid);
        int start_fifo; /* plan.wait_start: the exec fifo, O_PATH */
        /* [service] notify = container: crib's socket for the container's sd_notify, read
         * while the container runs (follow.c); NULL: none */
        struct notify_proxy *notify;
        /* `crib run --count N`: the batch's seccomp template (seccomp_template.c), or NULL */
        const struct seccomp_template *seccomp_template;
        void *ctx;
};

/* Create the namespaces, let the child set up and exec the workload, relay signals (and the
 * terminal), and wait. On success *ret_status is the container's wait status (see wait(2)).
 * On failure err->kind tells a setup error from a workload that could not be executed. */
int container_run(const struct plan *p, const struct container_hooks *h, int *ret_status,
                  struct error *err);

#endif
