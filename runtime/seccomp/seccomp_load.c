/* seccomp_load.c - hand a ready seccomp program to the kernel: the one place crib loads filters.
 *
 * Kernel feature: seccomp(2) SECCOMP_SET_MODE_FILTER with a struct sock_fprog (man 2 seccomp).
 * The kernel checks the program, translates it to eBPF and JIT-compiles it, ~0.2 ms for the
 * default profile. It requires no_new_privs, or CAP_SYS_ADMIN in the caller's user namespace,
 * which the setup process still has. Flags: SECCOMP_FILTER_FLAG_NEW_LISTENER (crib check asks
 * for user notification with it); none for a container. No libseccomp here: the parent compiled
 * the program (seccomp_compile.c) or took the one built into crib (seccomp_builtin.c).
 *
 * seccomp_load_filter() is used by every filter crib loads: the container's (step_seccomp,
 * below), crib's init's own (runtime/steps/init.c), crib check's probes, crib bench, and the
 * tests' old-kernel tool.
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
 * (pid 1) and everything after it run under the filter.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "child.h"
#include "trace.h"
#include "seccomp.h"

/* Any process: a system call and nothing else, so crib's init and a CLONE_VM child may call it. */
int seccomp_load_filter(const struct sock_filter *insns, size_t n, unsigned flags)
{
        if (n == 0 || n > BPF_MAXINSNS) {
                errno = EINVAL; /* what the kernel answers; a longer one would not fit .len */
                return -1;
        }
        struct sock_fprog prog = {.len = (unsigned short)n, .filter = (struct sock_filter *)insns};
        return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

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
