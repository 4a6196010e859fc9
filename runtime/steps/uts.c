/* uts.c - the container's hostname.
 *
 * Kernel feature: UTS namespaces (uts_namespaces(7)), sethostname(2). Needs the container's
 * own uts namespace (the spec refuses a hostname with uts = no, and one joined by path that is
 * the host's: plan/tunables.c), and CAP_SYS_ADMIN in the user namespace that owns it, which the
 * setup process has.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "step.h"
#include "base/cleanup.h"

/* Child: in the container's uts namespace, made or joined by path; after pivot_root. */
int step_hostname(struct child *c, struct error *err)
{
        const char *h = c->plan->hostname;
        if (!h)
                return step_skip(c, "no hostname in the spec");
        /* a UTS namespace joined by path: the plan checked it is not the host's, and this is
         * the one joined (the path was looked up again); through the container's /proc */
        if (c->plan->join_path[SPEC_NS_UTS]) {
                _cleanup_close_ int proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
                int in = proc < 0 ? -1 : step_in_crib_ns(c, SPEC_NS_UTS, proc);
                if (in < 0)
                        return error_set(err, errno,
                                         "cannot look up our UTS namespace in the container's "
                                         "/proc");
                if (in)
                        return error_set(err, 0,
                                         "cannot set hostname '%s': the container is in the "
                                         "host's UTS namespace",
                                         h);
        }
        int r = sethostname(h, strlen(h));
        trace_line(&c->trace, "  sethostname(\"%s\") = %d", h, r);
        if (r < 0)
                return error_set(err, errno, "cannot set hostname '%s'", h);
        return 0;
}
