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
 * runtime/steps/filter.c, which may clone a batch's template's filter instead), crib's init's
 * own (runtime/launch/init.c), crib check's probes, crib bench, and the tests' old-kernel tool.
 * It is a system call and nothing else: this folder compiles and loads programs, and knows
 * nothing of the container's processes (steps/, launch/) that load them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>
#include <unistd.h>

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
