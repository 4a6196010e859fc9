/* equiv - is crib's compiled seccomp program equivalent to Docker's profile?
 *
 *   docker-rules.py JSON ARCH CAPS KERNEL | equiv PROFILE ARCH CAPMASK KMAJ KMIN [BUILTIN|known]
 *
 * Compiles PROFILE (crib's format) with crib's own compiler for native ARCH, bounding set
 * CAPMASK (hex) and kernel KMAJ.KMIN, or, with BUILTIN, takes the program compiled into crib at
 * build time for built-in profile BUILTIN and that key (failing when crib has none), or with
 * `known` the known engine profile's program PROFILE resolved for that key finds (the one an OCI
 * config carrying that profile gets; failing when crib has none), then
 * runs the program (with crib's BPF interpreter) for
 * every system call number of every architecture the filter covers, with the argument values
 * that matter to the conditional rules, and compares each answer with what Docker's rules
 * (read from stdin, see docker-rules.py) say. crib's one intended difference: a number above
 * the highest the profile names answers ENOSYS. Prints one TAP line for each architecture.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seccomp/bpf.h"
#include "seccomp/seccomp.h"
#include "seccomp/seccomp_profile.h"

struct drule {
        char name[64];
        int action; /* -1 allow, else errno */
        int nargs;
        unsigned idx[6];
        char op[6][16];
        uint64_t v[6], v2[6];
};

static struct drule rules[4096];
static size_t nrules;
static char names[2048][64];
static size_t nnames;
static int dflt = EPERM;

static bool named(const char *n)
{
        for (size_t i = 0; i < nnames; i++)
                if (!strcmp(names[i], n))
                        return true;
        return false;
}

static bool cond(const struct drule *r, int i, const uint64_t *a)
{
        uint64_t x = a[r->idx[i]];
        const char *op = r->op[i];
        if (!strcmp(op, "EQ"))
                return x == r->v[i];
        if (!strcmp(op, "NE"))
                return x != r->v[i];
        if (!strcmp(op, "LT"))
                return x < r->v[i];
        if (!strcmp(op, "LE"))
                return x <= r->v[i];
        if (!strcmp(op, "GT"))
                return x > r->v[i];
        if (!strcmp(op, "GE"))
                return x >= r->v[i];
        if (!strcmp(op, "MASKED_EQ"))
                return (x & r->v[i]) == r->v2[i];
        fprintf(stderr, "unknown op %s\n", op);
        exit(2);
}

/* Docker's answer: -1 allow, else the errno */
static int expect(const char *name, uint32_t nr, uint32_t max, bool privrange, const uint64_t *a)
{
        bool any = false, allow = false;
        if (name) {
                for (size_t i = 0; i < nrules; i++) {
                        const struct drule *r = &rules[i];
                        if (strcmp(r->name, name))
                                continue;
                        any = true;
                        if (r->nargs == 0)
                                return r->action;
                        bool all = true;
                        for (int c = 0; c < r->nargs; c++)
                                all &= cond(r, c, a);
                        if (all && r->action == -1)
                                allow = true;
                }
        }
        if (allow)
                return -1;
        if (any || (name && named(name)) || privrange)
                return dflt;
        return nr > max ? ENOSYS : dflt;
}

int main(int argc, char **argv)
{
        char line[4096];
        if (argc != 6 && argc != 7) {
                fprintf(stderr,
                        "usage: equiv PROFILE ARCH CAPMASK KMAJ KMIN [BUILTIN] < docker-rules\n");
                return 2;
        }
        const char *arch = argv[2];
        uint64_t caps = strtoull(argv[3], NULL, 16);
        unsigned kmaj = (unsigned)atoi(argv[4]), kmin = (unsigned)atoi(argv[5]);
        while (fgets(line, sizeof line, stdin)) {
                char *save, *w = strtok_r(line, " \n", &save);
                if (!w)
                        continue;
                if (!strcmp(w, "default")) {
                        dflt = atoi(strtok_r(NULL, " \n", &save));
                } else if (!strcmp(w, "name")) {
                        snprintf(names[nnames++], 64, "%s", strtok_r(NULL, " \n", &save));
                } else if (!strcmp(w, "rule")) {
                        struct drule *r = &rules[nrules++];
                        char *act = strtok_r(NULL, " \n", &save);
                        r->action = !strcmp(act, "allow") ? -1 : atoi(act);
                        snprintf(r->name, sizeof r->name, "%s", strtok_r(NULL, " \n", &save));
                        char *c;
                        while ((c = strtok_r(NULL, " \n", &save)) && r->nargs < 6) {
                                char op[16];
                                unsigned long long v, v2;
                                if (sscanf(c, "%u:%15[^:]:%llu:%llu", &r->idx[r->nargs], op, &v,
                                           &v2) != 4)
                                        return fprintf(stderr, "bad rule arg %s\n", c), 2;
                                snprintf(r->op[r->nargs], 16, "%s", op);
                                r->v[r->nargs] = v;
                                r->v2[r->nargs] = v2;
                                r->nargs++;
                        }
                }
        }

        struct profile p;
        struct error err;
        FILE *f = fopen(argv[1], "r");
        if (!f || profile_parse(f, argv[1], &p, &err) < 0)
                return fprintf(stderr, "profile: %s\n", f ? err.msg : "cannot open"), 2;
        fclose(f);
        struct seccomp_program prog;
        const char *what = "compiled";
        if (argc == 7 && !strcmp(argv[6], "known")) {
                /* the known engine profile's program: PROFILE resolved as an engine resolves it
                 * for CAPMASK, found by its canonical form, as an OCI create finds it */
                struct profile r;
                char *canon = NULL;
                size_t len = 0;
                const struct seccomp_known *k = NULL;
                if (profile_resolve(&p, caps, arch, kmaj, kmin, &r, &err) == 0) {
                        if (profile_canonical(&r, &canon, &len, &err) == 1)
                                k = seccomp_known_find(canon, len, arch);
                        profile_free(&r);
                }
                free(canon);
                if (!k) {
                        printf("not ok 1 - crib has no known program for %s resolved on %s with "
                               "caps %#llx, kernel %u.%u\n1..1\n",
                               argv[1], arch, (unsigned long long)caps, kmaj, kmin);
                        return 1;
                }
                prog.insns = (struct sock_filter *)k->insns;
                prog.n = k->n;
                what = "known engine profile (compiled at build time, found by canonical form)";
        } else if (argc == 7) {
                const struct seccomp_builtin *b =
                        seccomp_builtin_find(argv[6], arch, caps, kmaj, kmin);
                if (!b) {
                        printf("not ok 1 - crib has no built-in program for %s on %s with caps "
                               "%#llx, kernel %u.%u\n1..1\n",
                               argv[6], arch, (unsigned long long)caps, kmaj, kmin);
                        return 1;
                }
                prog.insns = (struct sock_filter *)b->insns;
                prog.n = b->n;
                what = "built-in (compiled at build time)";
        } else if (seccomp_compile(&p, arch, caps, kmaj, kmin, &prog, &err) < 0) {
                return fprintf(stderr, "compile: %s\n", err.msg), 2;
        }

        const char *archnames[4];
        size_t narch = seccomp_arches(arch, archnames);
        int failed = 0, n = 0;
        for (size_t ai = 0; ai < narch; ai++) {
                uint32_t token = seccomp_arch_resolve_name(archnames[ai]);
                bool x32 = token == SCMP_ARCH_X32, arm = token == SCMP_ARCH_ARM;
                /* 32-bit ABIs: only the low 32 bits of an argument exist (libseccomp compares
                 * just those on x32 too, for Docker's runtime as for crib) */
                bool narrow = token == SCMP_ARCH_X86 || arm || x32;
                uint32_t audit = x32 ? AUDIT_ARCH_X86_64 : token;
                uint32_t base = x32 ? 0x40000000 : 0, max = 0;
                for (size_t i = 0; i < nnames; i++) {
                        int nr = seccomp_syscall_resolve_name_arch(token, names[i]);
                        if (nr >= 0 && !(arm && nr >= 0x0f0000) && (uint32_t)nr > max)
                                max = (uint32_t)nr;
                }
                long calls = 0, bad = 0;
                char diag[4096] = "";
                uint32_t nrs[1200];
                size_t nn = 0;
                for (uint32_t k = base; k <= max + 64 && nn < 1100; k++)
                        nrs[nn++] = k;
                nrs[nn++] = base + 1000;
                nrs[nn++] = base + 0x3fff;
                if (arm)
                        for (uint32_t k = 0x0f0000; k <= 0x0f0008; k++)
                                nrs[nn++] = k;
                for (size_t i = 0; i < nn; i++) {
                        uint32_t nr = nrs[i];
                        char *name = seccomp_syscall_resolve_num_arch(token, (int)nr);
                        /* the argument vectors that matter: zeros, and around every value */
                        uint64_t vec[64][6];
                        int nv = 1;
                        memset(vec, 0, sizeof vec);
                        for (size_t r = 0; name && r < nrules; r++) {
                                if (strcmp(rules[r].name, name))
                                        continue;
                                for (int c = 0; c < rules[r].nargs && nv < 60; c++) {
                                        uint64_t v = rules[r].v[c], cand[4];
                                        int nc = 0;
                                        if (!strcmp(rules[r].op[c], "MASKED_EQ")) {
                                                cand[nc++] = rules[r].v2[c];
                                                cand[nc++] = v;
                                                cand[nc++] = v & -v; /* lowest bit of the mask */
                                                cand[nc++] = rules[r].v2[c] | 0x11;
                                        } else {
                                                cand[nc++] = v - 1;
                                                cand[nc++] = v;
                                                cand[nc++] = v + 1;
                                        }
                                        for (int k = 0; k < nc; k++) {
                                                if (narrow && cand[k] > 0xffffffffULL)
                                                        continue;
                                                vec[nv][rules[r].idx[c]] = cand[k];
                                                nv++;
                                        }
                                }
                        }
                        for (int v = 0; v < nv; v++) {
                                struct seccomp_data d = {.nr = (int)nr, .arch = audit};
                                memcpy(d.args, vec[v], sizeof d.args);
                                uint32_t got = bpf_run(prog.insns, prog.n, &d);
                                int want = expect(name, nr, max, arm && nr >= 0x0f0000, vec[v]);
                                uint32_t wantv = want < 0 ? SECCOMP_RET_ALLOW
                                                          : SECCOMP_RET_ERRNO | (uint32_t)want;
                                calls++;
                                if (got != wantv) {
                                        bad++;
                                        if (strlen(diag) < 3000)
                                                snprintf(diag + strlen(diag),
                                                         sizeof diag - strlen(diag),
                                                         "#   %s nr %#x (%s) arg0 %#llx: crib %#x, "
                                                         "Docker %#x\n",
                                                         archnames[ai], nr, name ? name : "-",
                                                         (unsigned long long)vec[v][0], got, wantv);
                                }
                        }
                        free(name);
                }
                n++;
                printf("%sok %d - %s %s filter, %s calls: %ld answers checked, %ld differ "
                       "(highest named %#x; ENOSYS above)\n",
                       bad ? "not " : "", n, what, arch, archnames[ai], calls, bad, max);
                if (bad) {
                        failed++;
                        fputs(diag, stdout);
                }
        }
        printf("1..%d\n", n);
        return failed ? 1 : 0;
}
