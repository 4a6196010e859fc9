/* seccomp_compile.c - compile a parsed seccomp profile into the program a container gets.
 *
 * Library feature: libseccomp (seccomp_init(3), seccomp_rule_add_array(3),
 * seccomp_export_bpf(3)) turns rules into a classic BPF program for seccomp(2)'s
 * SECCOMP_SET_MODE_FILTER, one binary tree of system call numbers per architecture the filter
 * covers (seccomp_arch.c). Compiling Docker's profile costs milliseconds; the built-in profiles
 * are therefore compiled when crib is built (tools/seccomp-gen.c links this file for the build
 * host and calls seccomp_compile() for the target's architecture; seccomp_builtin.c holds the
 * programs), and only a profile of one's own, or capabilities no built-in program was made for,
 * are compiled when a container starts, in the parent. libseccomp is never used in the
 * container: the child loads the raw program (seccomp_load.c).
 *
 * What crib adds in front of libseccomp's program: a guard that answers ENOSYS for numbers
 * above the highest one the profile names for the architecture (bpf_guard.c), unless the
 * profile's default lets calls through (allow, log: a deny-list, which has no guard). What it
 * does after: folds the program's trees into ranges, checked against the unfolded program
 * (bpf_fold.c). A rule whose action is the default's is passed over: it changes nothing, and
 * libseccomp refuses it (EACCES), as runc passes it over.
 *
 * Pure but for a memfd to export the program into: makes use of nothing in crib beyond the
 * profile, architecture and BPF files, so that the build-time generator can link it.
 */
#define _GNU_SOURCE
#include "seccomp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf.h"
#include "base/cleanup.h"

void seccomp_program_free(struct seccomp_program *p)
{
        free(p->insns);
        p->insns = NULL;
        p->n = 0;
}

static const struct scmp_arg_cmp *conds(const struct profile_rule *r, struct scmp_arg_cmp *out)
{
        static const enum scmp_compare ops[] = {
                [OP_EQ] = SCMP_CMP_EQ,
                [OP_NE] = SCMP_CMP_NE,
                [OP_LT] = SCMP_CMP_LT,
                [OP_LE] = SCMP_CMP_LE,
                [OP_GT] = SCMP_CMP_GT,
                [OP_GE] = SCMP_CMP_GE,
                [OP_MASKED_EQ] = SCMP_CMP_MASKED_EQ,
        };
        for (size_t i = 0; i < r->nconds; i++) {
                const struct profile_cond *c = &r->conds[i];
                out[i].arg = c->arg;
                out[i].op = ops[c->op];
                out[i].datum_a = c->op == OP_MASKED_EQ ? c->mask : c->value;
                out[i].datum_b = c->op == OP_MASKED_EQ ? c->value : 0;
        }
        return out;
}

/* The highest number the profile names on `arch` (below ARM's private range). */
static uint32_t highest(const struct profile *p, uint32_t token)
{
        int max = -1;
        for (size_t i = 0; i < p->n; i++)
                for (size_t j = 0; j < p->rules[i].nnames; j++) {
                        int nr = seccomp_syscall_resolve_name_arch(token, p->rules[i].names[j]);
                        if (token == SCMP_ARCH_ARM && nr >= 0x0f0000)
                                continue;
                        if (nr > max)
                                max = nr;
                }
        return max < 0 ? 0 : (uint32_t)max;
}

int seccomp_compile(const struct profile *p, const char *arch, uint64_t caps, unsigned kmaj,
                    unsigned kmin, struct seccomp_program *ret, struct error *err)
{
        const char *names[4];
        size_t narch = seccomp_arches(arch, names);
        /* A deny-list (a default that lets calls through) covers the native ABI alone: its
         * rules name the native calls, and the compat ABI's own (setuid32, mmap2, x32's) would
         * pass unnamed. A call of another ABI then gets libseccomp's bad-arch action, kill, as
         * under runc when the config lists only the native architecture (crib does not read
         * .architectures: fewer ABIs, never more). An allow-list keeps the compat ABIs: what it
         * does not name, the default stops. */
        if (profile_action_lets_through(&p->def))
                narch = 1;
        uint32_t native = seccomp_arch_token(arch);
        struct sock_filter guard[64];
        struct bpf_guard_arch g[4];
        size_t ng = 0, nrules = 0;
        char act[32];
        int r;

        if (!native)
                return error_set(err, 0, "unknown architecture '%s' for seccomp", arch);
        scmp_filter_ctx ctx = seccomp_init(profile_action_ret(&p->def));
        if (!ctx)
                return error_set(err, EINVAL,
                                 "libseccomp cannot create a filter whose default is '%s'",
                                 profile_action_text(&p->def, act, sizeof act));
        if (native != seccomp_arch_native())
                seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE);
        for (size_t i = 0; i < narch; i++) {
                r = seccomp_arch_add(ctx, seccomp_arch_token(names[i]));
                if (r < 0 && r != -EEXIST) {
                        seccomp_release(ctx);
                        return error_set(err, -r, "libseccomp cannot add architecture '%s'",
                                         names[i]);
                }
        }
        for (size_t i = 0; i < p->n; i++) {
                const struct profile_rule *rule = &p->rules[i];
                struct scmp_arg_cmp c[6];
                if (!profile_rule_applies(rule, caps, arch, kmaj, kmin) ||
                    profile_action_same(&rule->action, &p->def))
                        continue;
                uint32_t action = profile_action_ret(&rule->action);
                for (size_t j = 0; j < rule->nnames; j++) {
                        int nr = seccomp_syscall_resolve_name(rule->names[j]);
                        if (nr == __NR_SCMP_ERROR)
                                continue; /* unknown to this libseccomp: as Docker, skipped */
                        r = seccomp_rule_add_array(ctx, action, nr, (unsigned)rule->nconds,
                                                   conds(rule, c));
                        if (r < 0) {
                                seccomp_release(ctx);
                                return error_set(err, -r,
                                                 "libseccomp refused the rule for '%s' "
                                                 "(line %u)",
                                                 rule->names[j], rule->line);
                        }
                        nrules++;
                }
        }
        /* a binary tree of syscall numbers; not for no rules at all, where libseccomp up to
         * 2.5.4 writes a broken program (runc leaves it off for short profiles for this) */
        if (nrules)
                seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
        _cleanup_close_ int fd = memfd_create("crib-seccomp", MFD_CLOEXEC);
        if (fd < 0 || (r = seccomp_export_bpf(ctx, fd)) < 0) {
                seccomp_release(ctx);
                return error_set(err, fd < 0 ? errno : -r, "cannot export the seccomp program");
        }
        seccomp_release(ctx);
        off_t size = lseek(fd, 0, SEEK_END);
        if (size <= 0 || size % (off_t)sizeof(struct sock_filter))
                return error_set(err, EIO, "libseccomp exported %lld bytes", (long long)size);

        for (size_t i = 0; i < narch; i++) {
                uint32_t t = seccomp_arch_token(names[i]);
                if (t == SCMP_ARCH_X32)
                        continue; /* x32 shares x86_64's audit arch: handled with it */
                g[ng] = (struct bpf_guard_arch){.audit_arch = t, .max = highest(p, t)};
                if (t == SCMP_ARCH_X86_64 && narch > 2)
                        g[ng].max_x32 = highest(p, SCMP_ARCH_X32);
                if (t == SCMP_ARCH_ARM)
                        g[ng].private_from = 0x0f0000;
                ng++;
        }
        /* the guard's numbers are computed all the same: the fold is checked over them */
        size_t nguard = profile_action_lets_through(&p->def) ? 0 : bpf_enosys_guard(g, ng, guard);
        size_t nprog = (size_t)size / sizeof(struct sock_filter);
        if (nguard + nprog > BPF_MAXINSNS)
                return error_set(err, E2BIG,
                                 "the seccomp program has %zu instructions; the "
                                 "kernel takes %d",
                                 nguard + nprog, BPF_MAXINSNS);
        struct sock_filter *all = malloc((nguard + nprog) * sizeof *all);
        if (!all)
                return error_set(err, ENOMEM, "cannot allocate");
        memcpy(all, guard, nguard * sizeof *all);
        if (pread(fd, all + nguard, (size_t)size, 0) != size) {
                free(all);
                return error_set(err, EIO, "cannot read the exported seccomp program");
        }
        /* libseccomp tests syscall numbers one jeq each; folded into ranges the same program is
         * about a quarter as long and the kernel loads it in about a third of the time */
        ret->insns = all;
        ret->n = ret->unfolded = nguard + nprog;
        struct sock_filter *folded;
        size_t nfolded;
        if (bpf_fold_checked(all, ret->n, g, ng, &folded, &nfolded) == 0) {
                free(all);
                ret->insns = folded;
                ret->n = nfolded;
        }
        return 0;
}

int seccomp_known_make(const struct profile *p, uint64_t caps, const char *arch, unsigned kmaj,
                       unsigned kmin, char **canon, size_t *len, struct seccomp_program *prog,
                       struct error *err)
{
        struct profile resolved;
        *canon = NULL;
        *len = 0;
        if (profile_resolve(p, caps, arch, kmaj, kmin, &resolved, err) < 0)
                return -1;
        /* as an engine hands it over: every condition decided, so nothing is left to the
         * bounding set or the kernel at compile time */
        int canonical = profile_canonical(&resolved, canon, len, err);
        int r = canonical == 1 ? seccomp_compile(&resolved, arch, 0, 0, 0, prog, err)
                : canonical == 0
                        ? error_set(err, EINVAL, "the resolved profile has no canonical form")
                        : -1;
        profile_free(&resolved);
        if (r < 0) {
                free(*canon);
                *canon = NULL;
                *len = 0;
        }
        return r;
}
