/* bpf_run.c - run a seccomp program on one system call, as the kernel would. Pure.
 *
 * Kernel feature: classic BPF as seccomp(2) runs it (Documentation/networking/filter.rst, the
 * "a dozen opcodes" of bpf(4)): an accumulator, an index register, 16 words of scratch memory,
 * loads from struct seccomp_data, jumps forward only, and a return value that is the action.
 * The kernel is never asked: `crib seccomp explain` answers with it, the folded program is
 * checked against the unfolded one with it (bpf_fold.c), and the tests compare programs with it.
 */
#define _GNU_SOURCE /* strerrorname_np */
#include "bpf.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
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

/* What a seccomp return value does to the call, in words */
const char *bpf_action_text(uint32_t a, char *buf, size_t len)
{
        switch (a & SECCOMP_RET_ACTION_FULL) {
        case SECCOMP_RET_ALLOW:
                return "allowed";
        case SECCOMP_RET_LOG:
                return "allowed, and logged by the kernel";
        case SECCOMP_RET_ERRNO:
                snprintf(buf, len, "fails with %s", strerrorname_np((int)(a & SECCOMP_RET_DATA)));
                return buf;
        case SECCOMP_RET_KILL_PROCESS:
                return "kills the process (SIGSYS)";
        case SECCOMP_RET_KILL_THREAD:
                return "kills the thread (SIGSYS)";
        case SECCOMP_RET_TRAP:
                return "raises SIGSYS, which the process may catch";
        default:
                snprintf(buf, len, "action %#x", a);
                return buf;
        }
}
