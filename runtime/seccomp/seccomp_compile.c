/* seccomp.c - seccomp filters: compiled with libseccomp in the parent, loaded raw in the child.
 *
 * Kernel feature: seccomp(2) SECCOMP_SET_MODE_FILTER (CONFIG_SECCOMP_FILTER): a classic BPF
 * program runs on every system call's number, architecture and arguments and answers allow,
 * or fail with an errno. Loading a ready program costs microseconds; compiling Docker's
 * profile with libseccomp costs milliseconds. The built-in profiles are therefore compiled when
 * crib is built (tools/seccomp-gen.c runs this file's seccomp_compile() on the build host, for
 * the target's architecture) and embedded in the binary (seccomp_builtin.c); only a profile of
 * one's own, or capabilities no embedded program was made for, are compiled at run time. No
 * program is ever read from disk: a file the user can write, a container running as the user
 * can write too. libseccomp is never used in the container: the child loads the raw program.
 *
 * What crib adds in front of libseccomp's program: a guard that answers ENOSYS for numbers
 * above the highest one the profile names for the architecture (bpf.c), so that programs
 * newer than the profile fall back (glibc retries the time64 calls, for instance) instead of
 * failing with EPERM. What crib does after it: folds libseccomp's one-jeq-per-syscall trees
 * into binary searches over ranges (bpf_fold.c), a quarter of the length, which the kernel
 * loads in a third of the time; the folded program is checked against the unfolded one.
 *
 * This file makes no use of the rest of crib beyond the profile parser and the BPF helpers, so
 * that the build-time generator can link it for the build host.
 *
 * Where it sits: the plan prepares the program; the child loads it after no_new_privs and
 * before crib's init starts the workload's process, so nothing in the container runs unfiltered.
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
#include <sys/utsname.h>
#include <unistd.h>

#include "bpf.h"
#include "cleanup.h"

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

static uint32_t arch_token(const char *name)
{
        for (size_t i = 0; i < sizeof arch_table / sizeof arch_table[0]; i++)
                if (!strcmp(arch_table[i].name, name))
                        return arch_table[i].token;
        return 0;
}

bool seccomp_arch_known(const char *arch)
{
        return arch_token(arch) != 0;
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

void seccomp_program_free(struct seccomp_program *p)
{
        free(p->insns);
        p->insns = NULL;
        p->n = 0;
}

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

/* The program answers the same for every number of each arch (and x32's), with arguments
 * all 0, all 1 and all ones? The tests compare every argument value the program tests. */
static bool same_answers(const struct seccomp_program *a, const struct seccomp_program *b,
                         const struct bpf_guard_arch *g, size_t ng)
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
                                        if (bpf_run(a->insns, a->n, &d) !=
                                            bpf_run(b->insns, b->n, &d))
                                                return false;
                                }
                }
        return true;
}

/* libseccomp tests syscall numbers one jeq each; folded into ranges the same program is about
 * a quarter as long and the kernel loads it in about a third of the time (bpf_fold.c). Should
 * the folded program ever answer differently, the unfolded one is kept. */
static void fold_checked(struct seccomp_program *prog, const struct bpf_guard_arch *g, size_t ng)
{
        struct seccomp_program folded = {.unfolded = prog->n};
        if (bpf_fold(prog->insns, prog->n, &folded.insns, &folded.n) < 0)
                return;
        if (folded.n >= prog->n || !same_answers(prog, &folded, g, ng)) {
                free(folded.insns);
                return;
        }
        free(prog->insns);
        *prog = folded;
}

int seccomp_compile(const struct profile *p, const char *arch, uint64_t caps, unsigned kmaj,
                    unsigned kmin, struct seccomp_program *ret, struct error *err)
{
        const char *names[4];
        size_t narch = seccomp_arches(arch, names);
        uint32_t native = arch_token(arch);
        struct sock_filter guard[64];
        struct bpf_guard_arch g[4];
        size_t ng = 0;
        int r;

        if (!native)
                return error_set(err, 0, "unknown architecture '%s' for seccomp", arch);
        scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO((uint32_t)p->default_errno));
        if (!ctx)
                return error_set(err, ENOMEM, "libseccomp cannot create a filter");
        seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2); /* binary tree of syscall numbers */
        if (native != seccomp_arch_native())
                seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE);
        for (size_t i = 0; i < narch; i++) {
                r = seccomp_arch_add(ctx, arch_token(names[i]));
                if (r < 0 && r != -EEXIST) {
                        seccomp_release(ctx);
                        return error_set(err, -r, "libseccomp cannot add architecture '%s'",
                                         names[i]);
                }
        }
        for (size_t i = 0; i < p->n; i++) {
                const struct profile_rule *rule = &p->rules[i];
                struct scmp_arg_cmp c[6];
                if (!profile_rule_applies(rule, caps, arch, kmaj, kmin))
                        continue;
                uint32_t action =
                        rule->allow ? SCMP_ACT_ALLOW : SCMP_ACT_ERRNO((uint32_t)rule->errnum);
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
                }
        }
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
                uint32_t t = arch_token(names[i]);
                if (t == SCMP_ARCH_X32)
                        continue; /* x32 shares x86_64's audit arch: handled with it */
                g[ng] = (struct bpf_guard_arch){.audit_arch = t, .max = highest(p, t)};
                if (t == SCMP_ARCH_X86_64 && narch > 2)
                        g[ng].max_x32 = highest(p, SCMP_ARCH_X32);
                if (t == SCMP_ARCH_ARM)
                        g[ng].private_from = 0x0f0000;
                ng++;
        }
        size_t nguard = bpf_enosys_guard(g, ng, guard);
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
        ret->insns = all;
        ret->n = ret->unfolded = nguard + nprog;
        fold_checked(ret, g, ng);
        return 0;
}
