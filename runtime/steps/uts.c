/* uts.c - the container's hostname.
 *
 * Kernel feature: UTS namespaces (uts_namespaces(7)), sethostname(2). Needs the container's
 * own uts namespace (the spec refuses a hostname with uts = no), and CAP_SYS_ADMIN in the user
 * namespace that owns it, which the setup process has.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "step.h"

/* Child: in the new uts namespace. */
int step_hostname(struct child *c, struct error *err)
{
        const char *h = c->plan->hostname;
        if (!h)
                return step_skip(c, "no hostname in the spec");
        int r = sethostname(h, strlen(h));
        trace_line(&c->trace, "  sethostname(\"%s\") = %d", h, r);
        if (r < 0)
                return error_set(err, errno, "cannot set hostname '%s'", h);
        return 0;
}
