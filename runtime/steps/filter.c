/* filter.c - the container's seccomp filter: the setup's last step loads it.
 *
 * Kernel feature: seccomp(2) (man 2 seccomp). The parent compiled the program, or took the one
 * built into crib (plan.seccomp); this step only hands it to the kernel, through
 * seccomp_load_filter() (seccomp/seccomp_load.c), the one place crib loads filters.
 *
 * The other way in: `crib run --count N` starts a seccomp template (seccomp_template.c) when the
 * kernel has SECCOMP_CLONE_FILTER (seccomp op 4, proposed in September 2025, not in mainline;
 * crib's tests run it on a patched 6.1, tests/vm/kernel/). step_seccomp then clones the
 * template's filter when the template holds exactly the plan's program, and loads the program
 * on any error or doubt: a dead template costs a load, never a container without its filter.
 * The trace names the path taken: "cloned from template pid N", "loaded N instructions", or
 * "template unusable: WHY, loaded". seccomp_template.c says why a clone is never weaker than
 * the profile. Without a batch, or on a kernel without the operation, nothing changes: one
 * SECCOMP_SET_MODE_FILTER, as before.
 *
 * Where it sits: after no_new_privs and before crib's init starts the workload's process, so init
 * (pid 1) and everything after it run under the filter. The step is here, not in seccomp/, which
 * compiles and loads programs and knows nothing of processes. Named filter.c, not seccomp.c:
 * one basename per tree (cmd/seccomp.c is `crib seccomp`, seccomp/seccomp.h the compiler's
 * header), and the row it runs says "load the seccomp filter".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "seccomp/seccomp.h"
#include "step.h"

/* Child: the setup process, after no_new_privs, before it starts the workload's process. */
int step_seccomp(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        if (!p->seccomp.n)
                return step_skip(c, "no filter: %s", p->seccomp_how);
        uint64_t t0 = trace_now_us();
        /* crib exec (enter.c) has no launch fds: it loads the program */
        const struct seccomp_template *t = c->fds ? c->fds->seccomp_template : NULL;
        if (t) {
                char why[320];
                int count;
                uint64_t us;
                int r = seccomp_template_clone(t, &p->seccomp, &count, &us, why, sizeof why, err);
                close(t->pidfd); /* crib's init, which stays, keeps no way to the template */
                if (r < 0)
                        return -1;
                if (r > 0) {
                        trace_line(&c->trace,
                                   "  seccomp(SECCOMP_CLONE_FILTER, 0, pidfd) = 0  cloned from "
                                   "template pid %d (%zu instructions)  %llu us",
                                   (int)t->pid, t->n, (unsigned long long)us);
                        trace_line(&c->trace,
                                   "  compared the programs, read Seccomp_filters: %d  %llu us "
                                   "in all",
                                   count, (unsigned long long)(trace_now_us() - t0));
                        return 0;
                }
                trace_line(&c->trace, "  template unusable: %s, loaded", why);
                t0 = trace_now_us();
        }
        int r = seccomp_load_filter(p->seccomp.insns, p->seccomp.n, 0);
        int e = errno;
        trace_line(&c->trace,
                   "  seccomp(SECCOMP_SET_MODE_FILTER, 0, {len=%zu}) = %d  loaded %zu "
                   "instructions  %llu us",
                   p->seccomp.n, r, p->seccomp.n, (unsigned long long)(trace_now_us() - t0));
        if (r < 0)
                return error_set(err, e, "cannot load the seccomp filter");
        return 0;
}
