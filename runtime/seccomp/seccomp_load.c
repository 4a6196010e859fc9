/* seccomp_load.c - the child's half of seccomp: hand the ready program to the kernel.
 *
 * Kernel feature: seccomp(2) SECCOMP_SET_MODE_FILTER with a struct sock_fprog. No libseccomp
 * here: the parent compiled the program (seccomp_compile.c). The kernel requires no_new_privs, or
 * CAP_SYS_ADMIN in the caller's user namespace, which the setup process still has.
 *
 * SECCOMP_CLONE_FILTER (seccomp op 4, proposed in September 2025, not in mainline as of 6.18)
 * would copy a filter from a template process through a pidfd, in about a microsecond instead
 * of the ~0.2 ms the kernel spends checking and JIT-compiling a program. crib asks for it
 * first, with fd -1: a kernel without the operation answers EINVAL, one with it EBADF. Either
 * way crib then loads the program, and the trace names the path: clone, or load of the program
 * built into crib or compiled at run time.
 *
 * The template, as designed (not built: no kernel to run it on, and a path no test can take
 * would be untested security code):
 *   - who keeps it: `crib run` itself, and only when it starts several containers from one
 *     invocation with the same compiled program (a batch); for one container, starting a
 *     template costs a fork and a load, more than the load it saves. No daemon: the template
 *     lives exactly as long as that `crib run`.
 *   - what it is: a child of the parent that sets no_new_privs and PR_SET_PDEATHSIG(SIGKILL),
 *     loads the prepared program with SECCOMP_SET_MODE_FILTER, makes itself not dumpable and
 *     waits in pause(2). It has no namespace, no capability and none of crib's fds, so what
 *     it holds is exactly the program its key names (profile, arch, the capabilities the
 *     profile tests, the kernel thresholds reached; or, compiled at run time, the profile text).
 *   - how it is used: the parent opens a pidfd for it (pidfd_open(2)) and lets each
 *     container's setup process inherit it; this step calls seccomp(SECCOMP_CLONE_FILTER, 0,
 *     pidfd) and falls back to SECCOMP_SET_MODE_FILTER on any error, so a template that died
 *     costs a load, never a container without its filter. The plan would carry the pidfd and
 *     the key the template was built for, checked as seccomp_builtin_find() checks its key.
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

/* Child: the setup process, after no_new_privs, before it starts the workload's process. */
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
