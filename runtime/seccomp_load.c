/* seccomp_load.c - the child's half of seccomp: hand the ready program to the kernel.
 *
 * Kernel feature: seccomp(2) SECCOMP_SET_MODE_FILTER with a struct sock_fprog. No libseccomp
 * here: the parent compiled the program (seccomp.c). The kernel requires no_new_privs, or
 * CAP_SYS_ADMIN in the caller's user namespace, which the setup process still has.
 *
 * SECCOMP_CLONE_FILTER (seccomp op 4, proposed in September 2025, not in mainline as of 6.18)
 * would copy a filter from a template process through a pidfd. crib asks for it first: a
 * kernel without it answers EINVAL, and crib loads the program. A kernel with it would answer
 * EBADF for the fd -1 used here; crib has no template process to clone from yet, so it loads
 * then too, and the trace says so.
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

#define SECCOMP_CLONE_FILTER 4

/* Child: the setup process, after no_new_privs, before forking the workload. */
int step_seccomp(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        char name[32];
        if (!p->seccomp.n) {
                trace_line(&c->trace, "  no filter: %s", p->seccomp_how);
                return 0;
        }
        long r = syscall(SYS_seccomp, SECCOMP_CLONE_FILTER, 0, -1);
        int e = errno;
        trace_line(&c->trace, "  seccomp(SECCOMP_CLONE_FILTER, 0, -1) = %ld %s: %s", r,
                   trace_errno_name(e, name, sizeof name),
                   e == EINVAL ? "this kernel cannot clone filters" : "no template process");
        struct sock_fprog prog = {.len = (unsigned short)p->seccomp.n, .filter = p->seccomp.insns};
        uint64_t t0 = trace_now_us();
        r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
        e = errno;
        trace_line(&c->trace, "  seccomp(SECCOMP_SET_MODE_FILTER, 0, {len=%zu}) = %ld  %llu us",
                   p->seccomp.n, r, (unsigned long long)(trace_now_us() - t0));
        if (r < 0)
                return error_set(err, e, "cannot load the seccomp filter");
        return 0;
}
