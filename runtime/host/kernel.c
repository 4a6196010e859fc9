/* kernel.c - what the running kernel offers, and where crib runs in it: its version, seccomp
 * filters, idmapped mounts, the user namespace crib is in. Asked once where it is needed.
 *
 * Kernel feature: seccomp(2) (CONFIG_SECCOMP_FILTER) and uname(2). The kernel's version decides
 * which of a profile's "when kernel >= X.Y" rules apply (profile_rule_applies); whether filters
 * exist at all is asked with a NULL program, which the kernel refuses before it loads anything.
 * Nothing here loads a filter (seccomp_load.c does) or changes the calling process.
 *
 * Where it is asked: the kernel version and filter support when the plan is made, in the
 * parent. Operations the kernel may or may not have (SECCOMP_CLONE_FILTER, below) only by
 * `crib check`, `crib bench` and, once per batch, by the parent of `crib run --count N` before it
 * starts a seccomp template (seccomp_template.c); never on a container's way to its workload.
 *
 * Kernel feature: user namespaces (user_namespaces(7)): the initial one's nsfs inode, and
 * mount_setattr(2) (idmapped mounts, Linux 5.12), asked for by the plan (gather.c) and crib
 * check; steps/userns.c makes the namespaces and their maps.
 */
#define _GNU_SOURCE
#include "kernel.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/cleanup.h"

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

/* SECCOMP_CLONE_FILTER: proposed in September 2025 (copy a filter from a template process
 * through a pidfd), not in mainline as of 6.18; crib's tests run it on a patched 6.1
 * (tests/vm/kernel/), and seccomp_template.c says how crib uses it */
#define SECCOMP_CLONE_FILTER 4

int seccomp_kernel_has_clone_filter(void)
{
        /* fd -1: EINVAL when the kernel has no such operation; when it has: EBADF, or EACCES
         * without no_new_privs (and CAP_SYS_ADMIN). EINVAL too from a caller under a filter
         * already, which could not clone one anyway. */
        long r = syscall(SYS_seccomp, SECCOMP_CLONE_FILTER, 0, -1);
        return !(r < 0 && errno == EINVAL);
}

/* The initial user namespace's nsfs inode is fixed: PROC_USER_INIT_INO (include/linux/proc_ns.h,
 * since Linux 3.8). One stat(2) where reading uid_map takes four calls, and exact where a nested
 * namespace maps every id as well; uid_map where there is no /proc/self/ns/user. */
#define USERNS_INIT_INO 0xEFFFFFFDU

bool userns_is_initial(void)
{
        struct stat st;
        if (stat("/proc/self/ns/user", &st) == 0)
                return st.st_ino == USERNS_INIT_INO;
        _cleanup_fclose_ FILE *f = fopen("/proc/self/uid_map", "re");
        unsigned long a, b, n;
        return f && fscanf(f, "%lu %lu %lu", &a, &b, &n) == 3 && a == 0 && b == 0 &&
               n == 4294967295UL;
}

bool userns_idmap_supported(void)
{
#ifdef SYS_mount_setattr
        /* a call that can only fail: EBADF where the call exists, ENOSYS where it does not */
        return syscall(SYS_mount_setattr, -1, "", 0, NULL, 0) < 0 && errno != ENOSYS;
#else
        return false;
#endif
}

void host_machine_facts(struct host_machine *ret)
{
        struct utsname u;
        char line[256];
        memset(ret, 0, sizeof *ret);
        snprintf(ret->machine, sizeof ret->machine, "%s", uname(&u) == 0 ? u.machine : "unknown");
        const char *plat = (const char *)getauxval(AT_PLATFORM);
        if (plat)
                snprintf(ret->at_platform, sizeof ret->at_platform, "%s", plat);
        FILE *f = fopen("/proc/cpuinfo", "re");
        while (f && fgets(line, sizeof line, f))
                if (!strncmp(line, "CPU part", 8) && strchr(line, ':')) {
                        snprintf(ret->cpu_part, sizeof ret->cpu_part, "%s", strchr(line, ':') + 1);
                        break;
                }
        if (f)
                fclose(f);
}
