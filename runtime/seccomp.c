/* seccomp.c - seccomp filters: compiled once with libseccomp in the parent, kept, loaded raw.
 *
 * Kernel feature: seccomp(2) SECCOMP_SET_MODE_FILTER (CONFIG_SECCOMP_FILTER): a classic BPF
 * program runs on every system call's number, architecture and arguments and answers allow,
 * or fail with an errno. Loading a ready program costs microseconds; compiling Docker's
 * profile with libseccomp costs milliseconds, so crib compiles once per (profile, arch,
 * capabilities, kernel, libseccomp, crib) and keeps the program in a cache only its owner can
 * write. libseccomp is never used in the container: the child loads the raw program.
 *
 * What crib adds in front of libseccomp's program: a guard that answers ENOSYS for numbers
 * above the highest one the profile names for the architecture (bpf.c), so that programs
 * newer than the profile fall back (glibc retries the time64 calls, for instance) instead of
 * failing with EPERM. What crib does after it: folds libseccomp's one-jeq-per-syscall trees
 * into binary searches over ranges (bpf_fold.c), a quarter of the length, which the kernel
 * loads in a third of the time; the folded program is checked against the unfolded one.
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "account.h"
#include "bpf.h"
#include "cleanup.h"
#include "trace.h"

#ifndef CRIB_VERSION
#define CRIB_VERSION "0"
#endif

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

/* --- the cache ---------------------------------------------------------------------------- */

#define CACHE_MAGIC "CRIBBPF2" /* 2: folded programs */

struct cache_header {
        char magic[8];
        uint64_t key;
        uint32_t count;
        uint32_t zero;
        uint64_t checksum;
};

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
        const unsigned char *p = data;
        for (size_t i = 0; i < n; i++) {
                h ^= p[i];
                h *= 0x100000001b3ULL;
        }
        return h;
}

/* An absolute path to a directory of ours. */
static bool own_dir(const char *path)
{
        struct stat st;
        return path && path[0] == '/' && stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
               st.st_uid == geteuid();
}

const char *seccomp_cache_dir(char *buf, size_t len)
{
        const char *xdg = getenv("XDG_CACHE_HOME");
        const char *home = getenv("HOME");
        if (geteuid() == 0) {
                snprintf(buf, len, "/var/cache/crib");
        } else if (xdg && xdg[0] == '/') {
                snprintf(buf, len, "%s/crib", xdg);
        } else {
                struct account a;
                /* a HOME left over from another user (sudo, setpriv) is not ours to use */
                if (!own_dir(home)) {
                        account_of(geteuid(), &a);
                        home = a.home;
                }
                if (!own_dir(home))
                        return NULL;
                snprintf(buf, len, "%s/.cache/crib", home);
        }
        return buf;
}

/* Make the cache directory (0700) and check it is ours and private; NULL with *why if not. */
static const char *cache_dir(char *buf, size_t len, const char **why)
{
        struct stat st;
        if (!seccomp_cache_dir(buf, len)) {
                *why = "no home directory";
                return NULL;
        }
        if (lstat(buf, &st) < 0) {
                /* the missing parents too: 0755 for root's /var/cache, 0700 for ~/.cache */
                char parent[4096];
                snprintf(parent, sizeof parent, "%s", buf);
                for (char *p = parent + 1; (p = strchr(p, '/')); p++) {
                        *p = '\0';
                        mkdir(parent, geteuid() == 0 ? 0755 : 0700);
                        *p = '/';
                }
                if (mkdir(buf, 0700) < 0 || lstat(buf, &st) < 0) {
                        *why = "cannot create the cache directory";
                        return NULL;
                }
        }
        if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077)) {
                *why = "the cache directory is not private to this user (mode 0700, owned)";
                return NULL;
        }
        return buf;
}

static int cache_load(const char *path, uint64_t key, struct seccomp_program *ret, const char **why)
{
        struct cache_header h;
        struct stat st;
        _cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
                *why = errno == ENOENT ? "not compiled before" : "cannot open the cached file";
                return -1;
        }
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
                *why = "the cached file is not a regular file";
                return -1;
        }
        if (st.st_uid != geteuid()) {
                *why = "the cached file belongs to another user";
                return -1;
        }
        if (st.st_mode & 022) {
                *why = "the cached file is writable by group or others";
                return -1;
        }
        if (pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h || memcmp(h.magic, CACHE_MAGIC, 8) ||
            h.key != key || h.count == 0 || h.count > BPF_MAXINSNS ||
            st.st_size != (off_t)(sizeof h + h.count * sizeof(struct sock_filter))) {
                *why = "the cached file is truncated or not crib's";
                return -1;
        }
        struct sock_filter *insns = malloc(h.count * sizeof *insns);
        if (!insns) {
                *why = "out of memory";
                return -1;
        }
        size_t bytes = h.count * sizeof *insns;
        if (pread(fd, insns, bytes, sizeof h) != (ssize_t)bytes ||
            fnv(0xcbf29ce484222325ULL, insns, bytes) != h.checksum) {
                free(insns);
                *why = "the cached file's checksum does not match";
                return -1;
        }
        ret->insns = insns;
        ret->n = h.count;
        return 0;
}

/* Write atomically: a temporary file in the same directory, then rename(2). */
static void cache_store(const char *dir, const char *path, uint64_t key,
                        const struct seccomp_program *prog)
{
        char tmp[4200];
        size_t bytes = prog->n * sizeof *prog->insns;
        struct cache_header h = {.key = key, .count = (uint32_t)prog->n};
        memcpy(h.magic, CACHE_MAGIC, 8);
        h.checksum = fnv(0xcbf29ce484222325ULL, prog->insns, bytes);
        snprintf(tmp, sizeof tmp, "%s/.seccomp-XXXXXX", dir);
        int fd = mkostemp(tmp, O_CLOEXEC);
        if (fd < 0)
                return;
        bool ok = fchmod(fd, 0600) == 0 && write(fd, &h, sizeof h) == (ssize_t)sizeof h &&
                  write(fd, prog->insns, bytes) == (ssize_t)bytes;
        ok &= close(fd) == 0;
        if (!ok || rename(tmp, path) < 0)
                unlink(tmp);
}

int seccomp_prepare(const char *text, const char *label, const char *arch, uint64_t caps,
                    struct seccomp_program *ret, char *how, size_t howlen, struct error *err)
{
        unsigned kmaj, kmin;
        const struct scmp_version *v = seccomp_version();
        char dirbuf[4096], path[4200];
        const char *why = NULL;
        seccomp_kernel_version(&kmaj, &kmin);

        uint64_t key = fnv(0xcbf29ce484222325ULL, text, strlen(text));
        key = fnv(key, arch, strlen(arch) + 1);
        key = fnv(key, &caps, sizeof caps);
        unsigned nums[5] = {kmaj, kmin, v->major, v->minor, v->micro};
        key = fnv(key, nums, sizeof nums);
        key = fnv(key, CRIB_VERSION CACHE_MAGIC, sizeof(CRIB_VERSION CACHE_MAGIC));

        const char *dir = cache_dir(dirbuf, sizeof dirbuf, &why);
        if (dir) {
                snprintf(path, sizeof path, "%s/seccomp-%016llx.bpf", dir, (unsigned long long)key);
                uint64_t t0 = trace_now_us();
                if (cache_load(path, key, ret, &why) == 0) {
                        snprintf(how, howlen, "cached load of %zu instructions from %s in %llu us",
                                 ret->n, path, (unsigned long long)(trace_now_us() - t0));
                        return 0;
                }
        }
        struct profile prof;
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        if (!f)
                return error_set(err, errno, "cannot read seccomp profile '%s'", label);
        int r = profile_parse(f, label, &prof, err);
        fclose(f);
        if (r < 0)
                return -1;
        uint64_t t0 = trace_now_us();
        r = seccomp_compile(&prof, arch, caps, kmaj, kmin, ret, err);
        profile_free(&prof);
        if (r < 0)
                return error_wrap(err, "seccomp profile '%s'", label);
        uint64_t took = trace_now_us() - t0;
        if (dir)
                cache_store(dir, path, key, ret);
        snprintf(how, howlen,
                 "compiled with libseccomp (%zu instructions, folded to %zu) in %llu us (%s)%s%s",
                 ret->unfolded, ret->n, (unsigned long long)took, why, dir ? "; kept in " : "",
                 dir ? path : "");
        return 0;
}
