/* seccomp_kernel.c - what the running kernel offers for seccomp, asked once where it is needed.
 *
 * Kernel feature: seccomp(2) (CONFIG_SECCOMP_FILTER) and uname(2). The kernel's version decides
 * which of a profile's "when kernel >= X.Y" rules apply (profile_rule_applies); whether filters
 * exist at all is asked with a NULL program, which the kernel refuses before it loads anything.
 * Nothing here loads a filter (seccomp_load.c does) or changes the calling process.
 *
 * Where it is asked: the kernel version and filter support when the plan is made, in the
 * parent. Operations the kernel may or may not have (SECCOMP_CLONE_FILTER, below) only by
 * `crib check` and `crib bench`, never on a container's way to its workload.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "seccomp.h"

void seccomp_kernel_version(unsigned *major, unsigned *minor)
{
        struct utsname u;
        *major = *minor = 0;
        if (uname(&u) == 0)
                sscanf(u.release, "%u.%u", major, minor);
}

int seccomp_kernel_supported(void)
{
        /* with a NULL program: EFAULT when filters exist, EINVAL (or ENOSYS) when not */
        long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, NULL);
        return r < 0 && errno == EFAULT;
}
