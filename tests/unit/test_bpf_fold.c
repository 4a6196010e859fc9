/* test_bpf_fold.c - folding comparison trees keeps every answer and shortens the program. */
#include <stdlib.h>

#include "seccomp/bpf.h"
#include "../lib/tap.h"

#define RET(v) ((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, (v)))
#define LD_NR  ((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0))
#define ALLOW  SECCOMP_RET_ALLOW
#define EPERM_ (SECCOMP_RET_ERRNO | 1)

static uint32_t run(const struct sock_filter *p, size_t n, uint32_t nr, uint64_t arg)
{
        struct seccomp_data d = {.nr = (int)nr, .arch = 0xc000003e};
        for (int i = 0; i < 6; i++)
                d.args[i] = arg;
        return bpf_run(p, n, &d);
}

/* every answer of a and b the same for numbers 0..maxnr and the given argument values? */
static int same(const struct sock_filter *a, size_t na, const struct sock_filter *b, size_t nb,
                uint32_t maxnr, const uint64_t *args, size_t nargs, uint32_t *bad_nr)
{
        for (uint32_t nr = 0; nr <= maxnr; nr++)
                for (size_t k = 0; k < nargs; k++)
                        if (run(a, na, nr, args[k]) != run(b, nb, nr, args[k])) {
                                *bad_nr = nr;
                                return 0;
                        }
        return 1;
}

/* the shape libseccomp gives: one jeq per allowed number */
static void chain(void)
{
        struct sock_filter p[32];
        size_t n = 0;
        p[n++] = LD_NR;
        for (uint32_t nr = 0; nr < 10; nr++) /* 10 jeq, each: allow or next */
                p[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 10 - nr, 0);
        p[n++] = RET(EPERM_);
        p[n++] = RET(ALLOW);
        struct sock_filter *f;
        size_t nf;
        uint32_t bad = 0;
        static const uint64_t args[] = {0};
        ok(bpf_fold(p, n, &f, &nf) == 0, "a chain of 10 jeq folds");
        ok(nf == 4, "into ld, one range test and the two rets (%zu instructions)", nf);
        ok(same(p, n, f, nf, 40, args, 1, &bad), "with the same answers (first difference: %u)",
           bad);
        ok(run(f, nf, 9, 0) == ALLOW && run(f, nf, 10, 0) == EPERM_ &&
                   run(f, nf, 0xffffffff, 0) == EPERM_,
           "9 allowed, 10 and 0xffffffff not");
        free(f);
}

/* exits more than 255 instructions away need a ja */
static void far_exits(void)
{
        static struct sock_filter p[720];
        size_t n = 0;
        p[n++] = LD_NR;
        /* numbers 0..199 alternate between two far exits, so nothing merges */
        for (uint32_t nr = 0; nr < 200; nr++) {
                p[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1);
                p[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0); /* below */
        }
        size_t a = n;
        p[n++] = RET(EPERM_);
        for (int i = 0; i < 300; i++) /* padding the tree cannot reach */
                p[n++] = RET(SECCOMP_RET_KILL_PROCESS);
        size_t allow = n;
        p[n++] = RET(ALLOW);
        size_t other = n;
        p[n++] = RET(SECCOMP_RET_ERRNO | 38);
        for (size_t i = 1; i < a; i += 2) {
                uint32_t nr = (uint32_t)(i - 1) / 2;
                p[i + 1].k = (uint32_t)((nr % 2 ? allow : other) - (i + 2));
        }
        struct sock_filter *f;
        size_t nf;
        uint32_t bad = 0;
        static const uint64_t args[] = {0};
        ok(bpf_fold(p, n, &f, &nf) == 0, "a tree with exits 300 instructions away folds");
        ok(same(p, n, f, nf, 260, args, 1, &bad),
           "with the same answers through its ja's (%zu -> %zu instructions; first difference: %u)",
           n, nf, bad);
        free(f);
}

/* random programs with trees that share nodes, argument loads, ja and far jumps */
static void random_programs(void)
{
        static struct sock_filter p[600];
        static const uint64_t args[] = {0, 5, 17, 47, 48, 0xffffffffULL, 0x100000005ULL};
        int failures = 0, shorter = 0;
        uint32_t bad = 0;
        srand(1);
        for (int t = 0; t < 400; t++) {
                size_t body = 20 + (size_t)(rand() % 500), n = body + 4;
                for (size_t i = 0; i < 4; i++)
                        p[body + i] = RET(i == 0 ? ALLOW : SECCOMP_RET_ERRNO | (uint32_t)i);
                for (size_t i = 0; i < body; i++) {
                        int r = rand() % 100;
                        size_t span = n - i - 1; /* how far a jump may go */
                        uint8_t jt = (uint8_t)(rand() % (span < 256 ? span : 256));
                        uint8_t jf = (uint8_t)(rand() % (span < 256 ? span : 256));
                        uint32_t k = (uint32_t)(rand() % 48);
                        if (r < 70) {
                                uint16_t op = r < 40 ? BPF_JEQ : r < 55 ? BPF_JGT : BPF_JGE;
                                p[i] = (struct sock_filter)BPF_JUMP(BPF_JMP | op | BPF_K, k, jt,
                                                                    jf);
                        } else if (r < 78) {
                                p[i] = (struct sock_filter)BPF_JUMP(
                                        BPF_JMP | BPF_JA, (uint32_t)(rand() % (int)span), 0, 0);
                        } else if (r < 84) {
                                p[i] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
                                                                    1u << (rand() % 6), jt, jf);
                        } else if (r < 92) {
                                p[i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                                                    (uint32_t)(rand() % 3) * 16);
                        } else if (r < 96) {
                                p[i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                                                    20); /* args[0] high */
                        } else {
                                p[i] = RET(SECCOMP_RET_ERRNO | 9);
                        }
                }
                struct sock_filter *f = NULL;
                size_t nf = 0;
                if (bpf_fold(p, n, &f, &nf) < 0 ||
                    !same(p, n, f, nf, 50, args, sizeof args / sizeof args[0], &bad)) {
                        if (!failures++)
                                printf("# program %d (%zu instructions) differs at nr %u\n", t, n,
                                       bad);
                } else if (nf < n) {
                        shorter++;
                }
                free(f);
        }
        ok(failures == 0, "400 random programs keep every answer after folding (%d differ)",
           failures);
        ok(shorter > 0, "and some of them fold shorter (%d)", shorter);
}

static void malformed(void)
{
        struct sock_filter p[] = {
                LD_NR,
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 5, 0), /* past the end */
                RET(ALLOW),
        };
        struct sock_filter *f = NULL;
        size_t nf;
        ok(bpf_fold(p, 3, &f, &nf) < 0, "a jump past the end is refused, not folded");
}

int main(void)
{
        chain();
        far_exits();
        random_programs();
        malformed();
        return tap_done();
}
