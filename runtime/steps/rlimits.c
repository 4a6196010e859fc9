/* rlimits.c - the spec's [limits], set on the container's first process.
 *
 * Kernel feature: resource limits (getrlimit(2), prlimit(2)). They are inherited by every child,
 * so setting them on the container's first process covers the whole container. The parent sets
 * them with prlimit(2) before the child goes on: raising a hard limit needs CAP_SYS_RESOURCE in
 * the initial user namespace, which root's crib has and the container (in its own user
 * namespace) never does. When the child writes its own id maps (an unprivileged caller, who has
 * no such capability either) it sets them on itself, prlimit(0, ...). The plan has already
 * refused what the caller could not raise itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>

#include "rlimits.h"
#include "spec/spec.h"

static const char *value(rlim_t v, char *buf, size_t len)
{
        if (v == RLIM_INFINITY)
                return "unlimited";
        snprintf(buf, len, "%llu", (unsigned long long)v);
        return buf;
}

/* Parent: after clone, before the child goes on; or the child itself, with pid 0. */
int rlimits_apply(const struct plan *p, pid_t pid, const struct trace *t, struct error *err)
{
        for (size_t i = 0; i < p->nrlimits; i++) {
                const struct plan_rlimit *l = &p->rlimits[i];
                char a[32], b[32];
                int r = prlimit(pid, (__rlimit_resource_t)l->resource, &l->lim, NULL);
                int e = errno;
                trace_line(t, "  prlimit(%d, %s, %s:%s) = %d", (int)pid,
                           spec_limit_name(l->resource), value(l->lim.rlim_cur, a, sizeof a),
                           value(l->lim.rlim_max, b, sizeof b), r);
                if (r < 0)
                        return error_set(err, e, "cannot set limit '%s'",
                                         spec_limit_name(l->resource));
        }
        return 0;
}
