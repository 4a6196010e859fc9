/* test_caps.c - the bounding set's drops (runtime/steps/caps.c) in a user namespace of the
 * test's own, whose bounding set starts full, as the workload's does after lockmounts.c and
 * crib exec's joiner's does: also under a seccomp filter that answers PR_CAPBSET_READ with an
 * error, which a container's profile may do, and which must not leave a capability in. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "steps/step.h"
#include "../lib/tap.h"

/* the bounding set as /proc/self/status says it */
static unsigned long long cap_bnd(void)
{
        FILE *f = fopen("/proc/self/status", "re");
        char line[256];
        unsigned long long v = ~0ULL;
        while (f && fgets(line, sizeof line, f))
                if (!strncmp(line, "CapBnd:", 7))
                        v = strtoull(line + 7, NULL, 16);
        if (f)
                fclose(f);
        return v;
}

/* a filter that answers prctl(PR_CAPBSET_READ, ...) with `errnum`, and allows all else */
static int answer_read_with(int errnum)
{
#if defined(__x86_64__)
        const uint32_t arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
        const uint32_t arch = AUDIT_ARCH_AARCH64;
#elif defined(__arm__)
        const uint32_t arch = AUDIT_ARCH_ARM;
#else
        errno = ENOSYS;
        return -1;
#endif
        struct sock_filter f[] = {
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 1, 0),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_CAPBSET_READ, 0, 1),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (uint32_t)errnum),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_fprog prog = {sizeof f / sizeof f[0], f};
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return -1;
        return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

/* In a child in a new user namespace: the filter (errnum 0: none), then the drops keeping
 * CHOWN and KILL. Exit status: 0 when the bounding set is exactly those two, 1 when not, 2 when
 * the drops reported an error, 100 when there is no user namespace or no filter could be
 * loaded (an error where a user namespace exists: crib needs seccomp filters too). */
static int drops_in_new_userns(int errnum, int last)
{
        pid_t pid = fork();
        if (pid == 0) {
                if (unshare(CLONE_NEWUSER) < 0)
                        _exit(100);
                if (errnum && answer_read_with(errnum) < 0)
                        _exit(100);
                const uint64_t keep = (1ULL << CAP_CHOWN) | (1ULL << CAP_KILL);
                struct error err;
                error_clear(&err);
                if (caps_bounding_drop_all_but(keep, last, &err) < 0)
                        _exit(2);
                _exit(cap_bnd() == keep ? 0 : 1);
        }
        int status = -1;
        waitpid(pid, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(void)
{
        FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "re");
        int last = -1;
        ok(f && fscanf(f, "%d", &last) == 1 && last > 0, "the kernel's last capability: %d", last);
        if (f)
                fclose(f);
        int r = drops_in_new_userns(0, last);
        if (r == 100) {
                ok(1, "# SKIP no user namespace here to test the drops in");
                ok(1, "# SKIP no user namespace here to test the drops in");
                ok(1, "# SKIP no user namespace here to test the drops in");
                return tap_done();
        }
        ok(r == 0, "from a full set, all but CHOWN and KILL dropped (status %d)", r);
        r = drops_in_new_userns(EINVAL, last);
        ok(r == 0,
           "a filter answering PR_CAPBSET_READ with EINVAL (as past the last capability) leaves "
           "none of them in (status %d)",
           r);
        r = drops_in_new_userns(EPERM, last);
        ok(r == 0, "nor one answering EPERM (status %d)", r);
        return tap_done();
}
