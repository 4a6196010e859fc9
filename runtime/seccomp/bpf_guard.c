/* bpf_guard.c - the ENOSYS guard crib puts in front of libseccomp's program. Pure.
 *
 * Kernel feature: seccomp(2) SECCOMP_RET_ERRNO. A profile lists the system calls it knew when it
 * was written; a call added to the kernel later is not in it and would fail with the profile's
 * default errno (EPERM), which programs take as "forbidden" rather than "not there". The guard
 * answers ENOSYS for every number above the highest one the profile names on each architecture,
 * so that programs newer than the profile fall back (glibc retries the time64 calls, for
 * instance) instead of failing with EPERM. Which numbers the guard lets through to the profile
 * is computed from the profile by seccomp_compile.c; this file writes the instructions.
 *
 * Which profiles get it: those whose default stops a call, an allow-list's. A default of errno,
 * kill, kill-thread or trap: a call newer than the profile answers ENOSYS rather than killing
 * the program or raising SIGSYS, since the profile could not name a call that did not exist
 * when it was written, and a program probing for one (clone3, the time64 calls) should fall
 * back, not die; ENOSYS runs no kernel code either, so the guard lets nothing through that the
 * default would have stopped. A default of allow or log (a deny-list: every call it does not
 * name goes to the kernel) gets none: an unknown call is let through by definition, and ENOSYS
 * would take away calls the profile means to allow. runc's ENOSYS stub draws the same line:
 * it has none for its allow, log and trace defaults.
 */
#include <errno.h>
#include <stddef.h>

#include "bpf.h"

/*
 * The guard, for each arch of the filter (x32 shares x86_64's audit arch, with bit 30 set in
 * the number):
 *
 *         ld  [arch]
 *         jeq ARCH_1, sec_1            one line per arch
 *         ...
 *         ja  profile                  an arch we do not know: the profile decides
 *   sec_i: ld  [nr]
 *         (x86_64 with x32)  jge 0x40000000, x32_i
 *         (arm)              jge 0x0f0000, profile     ARM-private calls: the profile decides
 *         jgt MAX_i, enosys
 *         ja  profile
 *   x32_i: jgt MAX_X32_i, enosys
 *         ja  profile
 *   enosys: ret ERRNO(ENOSYS)
 *   profile: ...libseccomp's program...
 */
size_t bpf_enosys_guard(const struct bpf_guard_arch *arches, size_t n, struct sock_filter *out)
{
        size_t secstart[8], seclen[8], pos;
        if (n > 8)
                n = 8;
        for (size_t i = 0; i < n; i++)
                seclen[i] = 3 + (arches[i].max_x32 ? 3 : 0) + (arches[i].private_from ? 1 : 0);
        pos = 1 + n + 1;
        for (size_t i = 0; i < n; i++) {
                secstart[i] = pos;
                pos += seclen[i];
        }
        size_t enosys = pos, profile = pos + 1, k = 0;

#define AT(idx, target) ((unsigned char)((target) - (idx)-1))
        out[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                                offsetof(struct seccomp_data, arch));
        for (size_t i = 0; i < n; i++, k++)
                out[k] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
                                                      arches[i].audit_arch, AT(k, secstart[i]), 0);
        out[k] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, (uint32_t)(profile - k - 1));
        k++;
        for (size_t i = 0; i < n; i++) {
                const struct bpf_guard_arch *g = &arches[i];
                size_t x32 = secstart[i] + 4; /* when present: after ld, jge, jgt, ja */
                out[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                                        offsetof(struct seccomp_data, nr));
                if (g->max_x32) {
                        out[k] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000,
                                                              AT(k, x32), 0);
                        k++;
                }
                if (g->private_from) {
                        out[k] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
                                                              g->private_from, AT(k, profile), 0);
                        k++;
                }
                out[k] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, g->max,
                                                      AT(k, enosys), 0);
                k++;
                out[k] =
                        (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, (uint32_t)(profile - k - 1));
                k++;
                if (g->max_x32) {
                        out[k] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, g->max_x32,
                                                              AT(k, enosys), 0);
                        k++;
                        out[k] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA,
                                                              (uint32_t)(profile - k - 1));
                        k++;
                }
        }
        out[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
#undef AT
        return k;
}
