/* bpf_fold.c - shorten a seccomp program by folding its comparison trees into ranges. Pure.
 *
 * Kernel feature: seccomp(2) SECCOMP_SET_MODE_FILTER. Loading a classic BPF filter costs time
 * in proportion to its length: the kernel checks it, translates it to eBPF
 * (bpf_convert_filter), JIT-compiles it in several passes (do_jit) and then runs it for every
 * syscall number to fill its per-arch "always allowed" cache. On this class of machine that is
 * ~0.45 us an instruction, and libseccomp tests syscall numbers with one `jeq` each: Docker's
 * profile on x86_64 (with x86 and x32) comes out at ~1250 instructions, 970 of them `jeq`.
 * Most allowed numbers come in runs (read, write, open, close, ...), so the same decisions fit
 * in a binary search over ranges a third as long.
 *
 * What is folded: a "decision tree over A" - conditional jumps that compare the accumulator
 * with a constant (jeq, jgt, jge with K) and the `ja`s between them, where every instruction
 * but the first is only reached from inside the tree. A cannot change inside it, so where it
 * leaves the tree is a function of A alone: the function is evaluated on each interval between
 * the tree's constants, neighbouring intervals that leave to the same place are merged, and the
 * tree is rewritten as a balanced binary search over the interval starts (n intervals, n - 1
 * `jge`). Everything else is kept as it is. Conditional jumps reach at most 255 instructions
 * ahead: a longer one goes through a `ja` placed right after it.
 *
 * Checked: bpf_fold_checked() runs both programs (bpf_run.c) on every system call number each
 * architecture's guard lets through, and a few past it, with several argument values, and keeps
 * the folded program only when every answer is the same. Should it ever differ, the container
 * gets the unfolded program: slower to load, never a different filter.
 */
#include "bpf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"

/* an instruction of the output, its jump targets still labels: 0..n-1 are the input's
 * instructions, n and up new ones */
struct item {
        struct sock_filter f;
        int label, jt, jf; /* jt also holds a `ja`'s target */
};

struct fold {
        const struct sock_filter *in;
        size_t n;
        int *region; /* per input instruction: the head of its tree, or -1 */
        int *npred;  /* per input instruction: how many instructions jump or fall to it */
        int *pred;   /* predecessors, pred_at[i] .. pred_at[i + 1] - 1 */
        int *pred_at;
        struct item *items;
        size_t nitems, cap;
        int next_label;
};

static bool is_cmp(const struct sock_filter *f)
{
        unsigned op = BPF_OP(f->code);
        return BPF_CLASS(f->code) == BPF_JMP && BPF_SRC(f->code) == BPF_K &&
               (op == BPF_JEQ || op == BPF_JGT || op == BPF_JGE);
}

static bool is_ja(const struct sock_filter *f)
{
        return f->code == (BPF_JMP | BPF_JA);
}

/* the successors of instruction i: returns how many (0, 1 or 2) */
static int successors(const struct sock_filter *in, size_t i, size_t s[2])
{
        const struct sock_filter *f = &in[i];
        if (BPF_CLASS(f->code) == BPF_RET)
                return 0;
        if (is_ja(f)) {
                s[0] = i + 1 + f->k;
                return 1;
        }
        if (BPF_CLASS(f->code) == BPF_JMP) {
                s[0] = i + 1 + f->jt;
                s[1] = i + 1 + f->jf;
                return 2;
        }
        s[0] = i + 1;
        return 1;
}

static int build_preds(struct fold *fd)
{
        size_t n = fd->n, s[2];
        fd->npred = calloc(n + 1, sizeof(int));
        fd->pred_at = calloc(n + 2, sizeof(int));
        fd->pred = calloc(2 * n + 1, sizeof(int));
        fd->region = malloc((n + 1) * sizeof(int));
        if (!fd->npred || !fd->pred_at || !fd->pred || !fd->region)
                return -1;
        for (size_t i = 0; i < n; i++) {
                int k = successors(fd->in, i, s);
                for (int j = 0; j < k; j++) {
                        if (s[j] >= n)
                                return -1; /* jumps out of the program: leave it alone */
                        fd->npred[s[j]]++;
                }
                fd->region[i] = -1;
        }
        for (size_t i = 0; i < n; i++)
                fd->pred_at[i + 1] = fd->pred_at[i] + fd->npred[i];
        int *fill = calloc(n + 1, sizeof(int));
        if (!fill)
                return -1;
        for (size_t i = 0; i < n; i++) {
                int k = successors(fd->in, i, s);
                for (int j = 0; j < k; j++)
                        fd->pred[fd->pred_at[s[j]] + fill[s[j]]++] = (int)i;
        }
        free(fill);
        return 0;
}

/* mark the tree headed by h; returns its size */
static size_t grow_region(struct fold *fd, size_t h)
{
        size_t size = 1;
        fd->region[h] = (int)h;
        for (size_t j = h + 1; j < fd->n; j++) {
                if (fd->region[j] >= 0 || fd->npred[j] == 0 ||
                    !(is_cmp(&fd->in[j]) || is_ja(&fd->in[j])))
                        continue;
                bool inside = true;
                for (int p = fd->pred_at[j]; p < fd->pred_at[j + 1] && inside; p++)
                        inside = fd->region[fd->pred[p]] == (int)h;
                if (inside) {
                        fd->region[j] = (int)h;
                        size++;
                }
        }
        return size;
}

/* where the tree headed by h leaves to when A = a */
static size_t tree_exit(const struct fold *fd, size_t h, uint32_t a)
{
        size_t i = h;
        while (i < fd->n && fd->region[i] == (int)h) {
                const struct sock_filter *f = &fd->in[i];
                if (is_ja(f)) {
                        i = i + 1 + f->k;
                        continue;
                }
                bool c = BPF_OP(f->code) == BPF_JEQ   ? a == f->k
                         : BPF_OP(f->code) == BPF_JGT ? a > f->k
                                                      : a >= f->k;
                i = i + 1 + (c ? f->jt : f->jf);
        }
        return i;
}

static int cmp_u64(const void *a, const void *b)
{
        uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
        return x < y ? -1 : x > y;
}

static struct item *add_item(struct fold *fd)
{
        if (fd->nitems == fd->cap) {
                size_t cap = fd->cap ? fd->cap * 2 : 256;
                struct item *it = realloc(fd->items, cap * sizeof *it);
                if (!it)
                        return NULL;
                fd->items = it;
                fd->cap = cap;
        }
        return &fd->items[fd->nitems++];
}

/* interval starts and where each interval leaves to */
struct intervals {
        uint32_t *start;
        int *exit;
        size_t n;
};

/* emit a binary search over intervals lo..hi-1, its root labelled `label` (-1: a new label);
 * returns the label to jump to for it (an interval alone needs no instruction: its exit's) */
static int emit_search(struct fold *fd, const struct intervals *iv, size_t lo, size_t hi, int label)
{
        if (hi - lo == 1)
                return iv->exit[lo];
        if (label < 0)
                label = fd->next_label++;
        size_t mid = lo + (hi - lo) / 2;
        size_t at = fd->nitems;
        struct item *it = add_item(fd);
        if (!it)
                return -1;
        *it = (struct item){.f = {.code = BPF_JMP | BPF_JGE | BPF_K, .k = iv->start[mid]},
                            .label = label};
        int jf = emit_search(fd, iv, lo, mid, -1);
        int jt = emit_search(fd, iv, mid, hi, -1);
        if (jf < 0 || jt < 0)
                return -1;
        fd->items[at].jf = jf;
        fd->items[at].jt = jt;
        return label;
}

/* the intervals of the tree headed by h; returns how many, 0 on failure */
static size_t tree_intervals(struct fold *fd, size_t h, struct intervals *iv)
{
        size_t nb = 1;
        _cleanup_free_ uint64_t *b = malloc((2 * fd->n + 1) * sizeof *b);
        if (!b)
                return 0;
        b[0] = 0;
        for (size_t i = h; i < fd->n; i++) {
                const struct sock_filter *f = &fd->in[i];
                if (fd->region[i] != (int)h || is_ja(f))
                        continue;
                if (BPF_OP(f->code) == BPF_JEQ) {
                        b[nb++] = f->k;
                        b[nb++] = (uint64_t)f->k + 1;
                } else if (BPF_OP(f->code) == BPF_JGT) {
                        b[nb++] = (uint64_t)f->k + 1;
                } else {
                        b[nb++] = f->k;
                }
        }
        qsort(b, nb, sizeof *b, cmp_u64);
        iv->start = malloc(nb * sizeof *iv->start);
        iv->exit = malloc(nb * sizeof *iv->exit);
        iv->n = 0;
        if (!iv->start || !iv->exit)
                return 0;
        for (size_t i = 0; i < nb; i++) {
                if (b[i] > UINT32_MAX || (i > 0 && b[i] == b[i - 1]))
                        continue;
                size_t e = tree_exit(fd, h, (uint32_t)b[i]);
                if (e >= fd->n)
                        return 0;
                if (iv->n > 0 && iv->exit[iv->n - 1] == (int)e)
                        continue;
                iv->start[iv->n] = (uint32_t)b[i];
                iv->exit[iv->n++] = (int)e;
        }
        return iv->n;
}

/* the input instruction i as an item with label targets */
static int copy_instruction(struct fold *fd, size_t i)
{
        struct item *it = add_item(fd);
        if (!it)
                return -1;
        const struct sock_filter *f = &fd->in[i];
        *it = (struct item){.f = *f, .label = (int)i, .jt = -1, .jf = -1};
        if (is_ja(f))
                it->jt = (int)(i + 1 + f->k);
        else if (BPF_CLASS(f->code) == BPF_JMP) {
                it->jt = (int)(i + 1 + f->jt);
                it->jf = (int)(i + 1 + f->jf);
        }
        return 0;
}

/* the first conditional jump (item *at, side *which: 0 jt, 1 jf) more than 255 ahead;
 * 1 found, 0 none, -1 a backward jump (a malformed program) */
static int far_jump(const struct fold *fd, const size_t *pos, size_t *at, int *which)
{
        for (size_t i = 0; i < fd->nitems; i++) {
                const struct item *it = &fd->items[i];
                if (BPF_CLASS(it->f.code) != BPF_JMP || is_ja(&it->f))
                        continue;
                for (int w = 0; w < 2; w++) {
                        size_t target = pos[w ? it->jf : it->jt];
                        if (target <= i)
                                return -1;
                        if (target - i - 1 > 255) {
                                *at = i;
                                *which = w;
                                return 1;
                        }
                }
        }
        return 0;
}

/* turn labels into offsets, adding a `ja` right after each conditional jump that is too long
 * (which lengthens others: repeat until none is) */
static int lay_out(struct fold *fd, struct sock_filter **out, size_t *outn)
{
        _cleanup_free_ size_t *pos = NULL;
        for (;;) {
                free(pos);
                if (!(pos = malloc((size_t)fd->next_label * sizeof *pos)))
                        return -1;
                for (size_t i = 0; i < fd->nitems; i++)
                        pos[fd->items[i].label] = i;
                size_t i;
                int which, r = far_jump(fd, pos, &i, &which);
                if (r < 0)
                        return -1;
                if (r == 0)
                        break;
                if (!add_item(fd))
                        return -1;
                memmove(&fd->items[i + 2], &fd->items[i + 1],
                        (fd->nitems - i - 2) * sizeof fd->items[0]);
                struct item *it = &fd->items[i];
                int *side = which ? &it->jf : &it->jt;
                fd->items[i + 1] = (struct item){
                        .f = {.code = BPF_JMP | BPF_JA}, .label = fd->next_label, .jt = *side};
                *side = fd->next_label++;
        }
        if (fd->nitems > BPF_MAXINSNS)
                return -1;
        struct sock_filter *prog = malloc(fd->nitems * sizeof *prog);
        if (!prog)
                return -1;
        for (size_t i = 0; i < fd->nitems; i++) {
                const struct item *it = &fd->items[i];
                prog[i] = it->f;
                if (is_ja(&it->f))
                        prog[i].k = (uint32_t)(pos[it->jt] - i - 1);
                else if (BPF_CLASS(it->f.code) == BPF_JMP) {
                        prog[i].jt = (uint8_t)(pos[it->jt] - i - 1);
                        prog[i].jf = (uint8_t)(pos[it->jf] - i - 1);
                }
        }
        *out = prog;
        *outn = fd->nitems;
        return 0;
}

int bpf_fold(const struct sock_filter *in, size_t n, struct sock_filter **out, size_t *outn)
{
        struct fold fd = {.in = in, .n = n, .next_label = (int)n};
        bool *fold = NULL;
        struct intervals *iv = NULL;
        int ret = -1;
        if (n == 0 || n > BPF_MAXINSNS || build_preds(&fd) < 0)
                goto done;
        /* the trees, and whether each is worth rewriting */
        fold = calloc(n, sizeof(bool));
        iv = calloc(n, sizeof *iv);
        if (!fold || !iv)
                goto done;
        for (size_t h = 0; h < n; h++) {
                if (fd.region[h] >= 0 || !is_cmp(&in[h]))
                        continue;
                size_t size = grow_region(&fd, h);
                size_t m = tree_intervals(&fd, h, &iv[h]);
                fold[h] = m > 0 && m - 1 < size;
        }
        for (size_t i = 0; i < n; i++) {
                int h = fd.region[i];
                if (h >= 0 && fold[h]) {
                        if ((size_t)h != i)
                                continue; /* inside a tree: replaced with its head */
                        if (iv[h].n == 1) {
                                struct item *it = add_item(&fd);
                                if (!it)
                                        goto done;
                                *it = (struct item){.f = {.code = BPF_JMP | BPF_JA},
                                                    .label = h,
                                                    .jt = iv[h].exit[0],
                                                    .jf = -1};
                        } else if (emit_search(&fd, &iv[h], 0, iv[h].n, h) < 0) {
                                goto done;
                        }
                } else if (copy_instruction(&fd, i) < 0) {
                        goto done;
                }
        }
        ret = lay_out(&fd, out, outn);
done:
        if (iv)
                for (size_t i = 0; i < n; i++) {
                        free(iv[i].start);
                        free(iv[i].exit);
                }
        free(iv);
        free(fold);
        free(fd.npred);
        free(fd.pred);
        free(fd.pred_at);
        free(fd.region);
        free(fd.items);
        return ret;
}

/* The program answers the same for every number of each arch (and x32's), with arguments
 * all 0, all 1 and all ones? The tests compare every argument value the program tests. */
static bool same_answers(const struct sock_filter *a, size_t na, const struct sock_filter *b,
                         size_t nb, const struct bpf_guard_arch *g, size_t ng)
{
        static const uint64_t args[] = {0, 1, ~0ULL};
        for (size_t i = 0; i < ng; i++)
                for (int x32 = 0; x32 <= (g[i].max_x32 != 0); x32++) {
                        uint32_t base = x32 ? 0x40000000u : 0;
                        uint32_t max = x32 ? g[i].max_x32 : g[i].max + 2;
                        for (uint32_t nr = base; nr <= max; nr++)
                                for (size_t k = 0; k < sizeof args / sizeof args[0]; k++) {
                                        struct seccomp_data d = {.nr = (int)nr,
                                                                 .arch = g[i].audit_arch};
                                        for (int j = 0; j < 6; j++)
                                                d.args[j] = args[k];
                                        if (bpf_run(a, na, &d) != bpf_run(b, nb, &d))
                                                return false;
                                }
                }
        return true;
}

int bpf_fold_checked(const struct sock_filter *in, size_t n, const struct bpf_guard_arch *g,
                     size_t ng, struct sock_filter **out, size_t *outn)
{
        struct sock_filter *folded;
        size_t nf;
        if (bpf_fold(in, n, &folded, &nf) < 0)
                return -1;
        if (nf >= n || !same_answers(in, n, folded, nf, g, ng)) {
                free(folded);
                return -1;
        }
        *out = folded;
        *outn = nf;
        return 0;
}
