/* seccomp_arch.c - the architectures a seccomp filter covers, and the one crib was built for.
 *
 * Library feature: libseccomp's architecture tokens (SCMP_ARCH_*, equal to the kernel's
 * AUDIT_ARCH_* values that seccomp_data.arch carries) and seccomp_arch_native(3). A filter
 * made for one architecture tests the arch field first: a process can make system calls of
 * another ABI the kernel also runs (x86 and x32 on x86_64, 32-bit arm on aarch64), with other
 * numbers, so the filter covers those too, as Docker's archMap does.
 *
 * Pure: a table and libseccomp's answer for the build's own architecture; no system call.
 * Linked into the build-time generator (tools/seccomp-gen.c) as well as crib.
 */
#define _GNU_SOURCE
#include <seccomp.h>
#include <string.h>

#include "seccomp.h"

static const struct {
        const char *name;
        uint32_t token;
} arch_table[] = {
        {"x86_64", SCMP_ARCH_X86_64},   {"x86", SCMP_ARCH_X86},
        {"x32", SCMP_ARCH_X32},         {"arm", SCMP_ARCH_ARM},
        {"aarch64", SCMP_ARCH_AARCH64}, {"ppc64le", SCMP_ARCH_PPC64LE},
        {"s390", SCMP_ARCH_S390},       {"s390x", SCMP_ARCH_S390X},
        {"riscv64", SCMP_ARCH_RISCV64},
};

uint32_t seccomp_arch_token(const char *name)
{
        for (size_t i = 0; i < sizeof arch_table / sizeof arch_table[0]; i++)
                if (!strcmp(arch_table[i].name, name))
                        return arch_table[i].token;
        return 0;
}

bool seccomp_arch_known(const char *arch)
{
        return seccomp_arch_token(arch) != 0;
}

const char *seccomp_native_arch(void)
{
        uint32_t t = seccomp_arch_native();
        for (size_t i = 0; i < sizeof arch_table / sizeof arch_table[0]; i++)
                if (arch_table[i].token == t)
                        return arch_table[i].name;
        return "unknown";
}

size_t seccomp_arches(const char *arch, const char *names[4])
{
        size_t n = 0;
        names[n++] = arch;
        if (!strcmp(arch, "x86_64")) {
                names[n++] = "x86";
                names[n++] = "x32";
        } else if (!strcmp(arch, "aarch64")) {
                names[n++] = "arm";
        }
        return n;
}
