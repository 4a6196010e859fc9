/* execplan.h - `crib exec`'s request, and the exec's plan made from it and the container's
 * (execplan.c). */
#ifndef CRIB_EXECPLAN_H
#define CRIB_EXECPLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "plan.h"

struct enter_request {
        pid_t pid; /* the container's first process: crib's init (init = yes), else the workload */
        uint64_t start; /* its start time when recorded (state_proc_start(), runtime/state), to
                         * refuse a pid that was reused by another process; 0: not recorded */
        pid_t workload; /* the workload's process and its start time, as crib recorded them
                         * when it ran (record.h); 0: not recorded (a container of an older
                         * crib): then the oldest child of crib's init */
        uint64_t workload_start;
        char **argv; /* program and arguments, NULL-terminated; looked up on the container's PATH */
        char **env;  /* K=V to add to / replace in the plan's environment, or NULL */
        const char *cwd; /* NULL: the plan's */
        bool user_set;   /* -u UID:GID; else the plan's uid and gid (and groups) */
        uid_t uid;
        gid_t gid;
        bool tty; /* -t: a new pty from the container's own devpts, relayed like crib run's
                   * (or given to hooks->pty when it is set: the OCI console socket) */
        /* The OCI front end's (`crib-runc exec --process FILE`): a process.json says more than
         * crib exec's options. Each is checked against the plan: the exec gets at most what
         * the container's workload has, never more. */
        bool env_replace; /* env is the whole environment, not additions to the plan's */
        bool groups_set;  /* the supplementary groups (each mapped in the container) */
        const gid_t *groups;
        size_t ngroups;
        bool caps_set; /* a capability set: a subset of the workload's, or an error */
        uint64_t caps;
        bool caps_no_ambient; /* a user other than root keeps only the bounding set (oci.h) */
        bool caps_sets;       /* a process.json's five sets (caps is its bounding set) */
        uint64_t caps_effective, caps_permitted, caps_inheritable, caps_ambient;
        bool no_new_privs;    /* set it even where the workload's plan does not */
        const char *apparmor; /* must name the workload's profile; NULL: the workload's */
        bool limits_set;      /* these limits instead of the plan's */
        const struct plan_rlimit *limits;
        size_t nlimits;
        /* detach: return once the program runs (hooks->created gets its pid), leaving it to
         * crib exec's parent, a subreaper (conmon, containerd's shim), as runc exec --detach
         * does; without it, crib exec waits, relays and forwards signals */
        bool detach;
};

/* The exec's plan: the container's `p`, with the request's program, environment, working
 * directory and ids, a terminal when asked, no init and none of `crib run`'s pass_fds, each
 * checked against `p` first: an exec gets at most what the container's workload has. *ret is
 * `p` with those in place; its environment is *ret_envp (malloc'd, the caller's to free), NULL
 * on an error. */
int plan_exec(const struct plan *p, const struct enter_request *rq, struct plan *ret,
              char ***ret_envp, struct error *err);

#endif
