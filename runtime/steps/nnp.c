/* nnp.c - no_new_privs: execve(2) can never grant more privileges than the caller has.
 *
 * Kernel feature: prctl(2) PR_SET_NO_NEW_PRIVS (Linux 3.5). With it set, setuid and setgid bits
 * and file capabilities are ignored on exec, and it is inherited by every child and can never be
 * unset. It is also what lets an unprivileged process install a seccomp filter, which is why it
 * sits in the setup table just before the filter is loaded, in the setup process, so that crib's
 * init and the workload's process both inherit it. The steps after it may still give up
 * capabilities and change ids; what no_new_privs stops is an exec that would raise them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/prctl.h>

#include "step.h"

/* Child: the setup process, root in the user namespace, before the seccomp filter. */
int step_no_new_privs(struct child *c, struct error *err)
{
        if (!c->plan->no_new_privs)
                return step_skip(c,
                                 "no_new_privileges = no: setuid programs work in the container");
        int r = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        trace_line(&c->trace, "  prctl(PR_SET_NO_NEW_PRIVS, 1) = %d", r);
        if (r < 0)
                return error_set(err, errno, "cannot set no_new_privs");
        return 0;
}
