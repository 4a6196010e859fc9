/* oom.c - the container's OOM score adjustment.
 *
 * Kernel feature: /proc/self/oom_score_adj (proc(5)): -1000 (never chosen by the OOM killer) to
 * 1000 (chosen first), inherited by every process forked or cloned after it is set. The setup
 * process writes its own as early as it can, so crib's init, the workload and all they start
 * have it (runc sets it in its first process so); before it makes itself not dumpable, which
 * gives its /proc/PID files to root, where a user could no longer open this one. crib exec's
 * joiner writes it first of all, still outside the container, before it forks the entered
 * process (launch/enter.c), so an exec has the container's, as under runc.
 *
 * What can go wrong: a value below the process's current one needs CAP_SYS_RESOURCE in the
 * host's user namespace (the kernel keeps the lowest a privileged writer set): an unprivileged
 * user, or a container in a user namespace of its own, may only raise it. As runc, that is an
 * error, not a warning. A user's container that joins a user namespace by path is not dumpable
 * from its clone on (launch/joinns.c): the file is root's then, and even raising it fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "step.h"
#include "base/procfile.h"

/* Child: the setup process, or crib exec's joiner before it forks. */
int step_oom_score_adj(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        if (!p->oom_score_adj_set)
                return step_skip(c, "no OOM score adjustment in the spec");
        char text[16];
        if (p->oom_score_adj < -1000 || p->oom_score_adj > 1000)
                return error_set(err, EINVAL, "the OOM score adjustment %d is not in -1000..1000",
                                 p->oom_score_adj);
        snprintf(text, sizeof text, "%d", p->oom_score_adj);
        long was = procfile_long("/proc/self/oom_score_adj");
        int e = procfile_write("/proc/self/oom_score_adj", text);
        trace_line(&c->trace, "  write(\"/proc/self/oom_score_adj\", \"%s\") = %s%s", text,
                   e ? "-1 " : "0", e ? strerrorname_np(e) : "");
        if (!e)
                return 0;
        error_set(err, e, "cannot set the OOM score adjustment to %s (it was %ld)", text, was);
        if (e == EACCES || e == EPERM)
                return error_hint(err,
                                  "a value below the current one needs CAP_SYS_RESOURCE on "
                                  "the host, which a user, or a container in a user "
                                  "namespace of its own, does not have; give %ld or more",
                                  was);
        return -1;
}
