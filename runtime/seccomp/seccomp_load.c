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
 * What the load does not do: ask for SECCOMP_CLONE_FILTER (seccomp op 4, proposed in September
 * 2025, not in mainline as of 6.18), which would copy a filter from a template process through
 * a pidfd in about a microsecond. Upstream has not assigned that number, and asking an unknown
 * operation of the kernel in every container is not crib's to do: `crib check` asks once
 * (seccomp_kernel_has_clone_filter, row seccomp_clone_filter), and the step loads the program.
 *
 * The template, as designed (not built: no kernel to run it on, and a path no test can take
 * would be untested security code):
 *   - who keeps it: `crib run` itself, and only when it starts several containers from one
 *     invocation with the same compiled program (a batch); for one container, starting a
 *     template costs a fork and a load, more than the load it saves. No daemon: the template
 *     lives exactly as long as that `crib run`.
 *   - what it is: a child of the parent that sets no_new_privs and PR_SET_PDEATHSIG(SIGKILL),
 *     loads the prepared program with seccomp_load_filter(), makes itself not dumpable and
 *     waits in pause(2). It has no namespace, no capability and none of crib's fds, so what
 *     it holds is exactly the program its key names (profile, arch, the capabilities the
 *     profile tests, the kernel thresholds reached; or, compiled at run time, the profile text).
 *   - how it is used: only on a kernel that has the operation, known before the batch starts;
 *     the parent opens a pidfd for it (pidfd_open(2)) and lets each container's setup process
 *     inherit it; this step calls seccomp(SECCOMP_CLONE_FILTER, 0, pidfd) and falls back to
 *     seccomp_load_filter() on any error, so a template that died costs a load, never a
 *     container without its filter. The plan would carry the pidfd and the key the template
 *     was built for, checked as seccomp_builtin_find() checks its key.
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
        if (!p->seccomp.n) {
                trace_line(&c->trace, "  no filter: %s", p->seccomp_how);
                return 0;
        }
        uint64_t t0 = trace_now_us();
        int r = seccomp_load_filter(p->seccomp.insns, p->seccomp.n, 0);
        int e = errno;
        trace_line(&c->trace, "  seccomp(SECCOMP_SET_MODE_FILTER, 0, {len=%zu}) = %d  %llu us",
                   p->seccomp.n, r, (unsigned long long)(trace_now_us() - t0));
        if (r < 0)
                return error_set(err, e, "cannot load the seccomp filter");
        return 0;
}
