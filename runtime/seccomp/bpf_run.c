/* bpf.c - a classic BPF interpreter for seccomp programs (bpf(4)-style "a dozen opcodes"),
 * and the ENOSYS guard crib puts in front of libseccomp's program. Pure. */
#include "bpf.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

uint32_t bpf_run(const struct sock_filter *prog, size_t n, const struct seccomp_data *d)
{
        uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = {0};
        const unsigned char *data = (const unsigned char *)d;
        for (size_t pc = 0; pc < n; pc++) {
                const struct sock_filter *i = &prog[pc];
                uint32_t src = BPF_SRC(i->code) == BPF_X ? x : i->k;
                switch (BPF_CLASS(i->code)) {
                case BPF_LD:
                        if (BPF_MODE(i->code) == BPF_ABS && BPF_SIZE(i->code) == BPF_W &&
                            i->k + 4 <= sizeof *d && i->k % 4 == 0)
                                memcpy(&a, data + i->k, 4);
                        else if (BPF_MODE(i->code) == BPF_IMM)
                                a = i->k;
                        else if (BPF_MODE(i->code) == BPF_MEM && i->k < BPF_MEMWORDS)
                                a = mem[i->k];
                        else if (BPF_MODE(i->code) == BPF_LEN)
                                a = sizeof *d;
                        else
                                return SECCOMP_RET_KILL_PROCESS;
                        break;
                case BPF_LDX:
                        if (BPF_MODE(i->code) == BPF_IMM)
                                x = i->k;
                        else if (BPF_MODE(i->code) == BPF_MEM && i->k < BPF_MEMWORDS)
                                x = mem[i->k];
                        else if (BPF_MODE(i->code) == BPF_LEN)
                                x = sizeof *d;
                        else
                                return SECCOMP_RET_KILL_PROCESS;
                        break;
                case BPF_ST:
                case BPF_STX:
                        if (i->k >= BPF_MEMWORDS)
                                return SECCOMP_RET_KILL_PROCESS;
                        mem[i->k] = BPF_CLASS(i->code) == BPF_ST ? a : x;
                        break;
                case BPF_ALU:
                        switch (BPF_OP(i->code)) {
                        case BPF_ADD:
                                a += src;
                                break;
                        case BPF_SUB:
                                a -= src;
                                break;
                        case BPF_MUL:
                                a *= src;
                                break;
                        case BPF_DIV:
                                if (!src)
                                        return SECCOMP_RET_KILL_PROCESS;
                                a /= src;
                                break;
                        case BPF_MOD:
                                if (!src)
                                        return SECCOMP_RET_KILL_PROCESS;
                                a %= src;
                                break;
                        case BPF_OR:
                                a |= src;
                                break;
                        case BPF_AND:
                                a &= src;
                                break;
                        case BPF_XOR:
                                a ^= src;
                                break;
                        case BPF_LSH:
                                a = src < 32 ? a << src : 0;
                                break;
                        case BPF_RSH:
                                a = src < 32 ? a >> src : 0;
                                break;
                        case BPF_NEG:
                                a = -a;
                                break;
                        default:
                                return SECCOMP_RET_KILL_PROCESS;
                        }
                        break;
                case BPF_JMP: {
                        bool taken;
                        if (BPF_OP(i->code) == BPF_JA) {
                                pc += i->k;
                                continue;
                        }
                        switch (BPF_OP(i->code)) {
                        case BPF_JEQ:
                                taken = a == src;
                                break;
                        case BPF_JGT:
                                taken = a > src;
                                break;
                        case BPF_JGE:
                                taken = a >= src;
                                break;
                        case BPF_JSET:
                                taken = (a & src) != 0;
                                break;
                        default:
                                return SECCOMP_RET_KILL_PROCESS;
                        }
                        pc += taken ? i->jt : i->jf;
                        break;
                }
                case BPF_RET:
                        return BPF_RVAL(i->code) == BPF_A ? a : i->k;
                case BPF_MISC:
                        if (BPF_MISCOP(i->code) == BPF_TAX)
                                x = a;
                        else
                                a = x;
                        break;
                default:
                        return SECCOMP_RET_KILL_PROCESS;
                }
        }
        return SECCOMP_RET_KILL_PROCESS; /* fell off the end */
}

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
