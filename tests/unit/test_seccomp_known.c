/* test_seccomp_known - the known engine profiles compiled into crib (seccomp_known_find): a
 * profile with exactly the canonical form of one gets its program, which is the program a
 * run-time compile of that profile gives; a profile that differs in anything the compiler reads
 * (one name, one errno, one value, the order of two rules, a name crib does not know, a "when")
 * is compiled, and gets the program of what it says, never the known one. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "host/kernel.h"
#include "seccomp/bpf.h"
#include "seccomp/seccomp.h"
#include "spec/spec.h"
#include "../lib/tap.h"

/* A resolved profile (no "when") in crib's text format, as the OCI front end writes one. */
static char *to_text(const struct profile *p)
{
        char *text = NULL, act[64], hdr[512];
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        fprintf(f, "default %s\n", profile_action_text(&p->def, act, sizeof act));
        for (size_t i = 0; i < p->n; i++) {
                profile_rule_text(&p->rules[i], hdr, sizeof hdr);
                fprintf(f, "[%s]\n", hdr);
                for (size_t j = 0; j < p->rules[i].nnames; j++)
                        fprintf(f, "%s\n", p->rules[i].names[j]);
        }
        fclose(f);
        return text;
}

/* What the program answers for system call `nr` of the native arch, arguments all 0. */
static uint32_t answer(const struct seccomp_program *p, int nr)
{
        struct seccomp_data d = {.nr = nr};
#if defined(__x86_64__)
        d.arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
        d.arch = AUDIT_ARCH_AARCH64;
#elif defined(__arm__)
        d.arch = AUDIT_ARCH_ARM;
#endif
        return bpf_run(p->insns, p->n, &d);
}

static bool same_prog(const struct seccomp_program *p, const struct seccomp_known *k)
{
        return p->n == k->n && !memcmp(p->insns, k->insns, k->n * sizeof *k->insns);
}

/* Prepare `text` as an OCI config's profile (no built-in name); *how says the path. */
static int prepare(const char *text, struct seccomp_program *ret, char *how, size_t howlen,
                   uint64_t caps)
{
        struct error err;
        int r = seccomp_prepare(NULL, text, "config.json", seccomp_native_arch(), caps, ret, how,
                                howlen, &err);
        if (r < 0)
                printf("#   %s\n", err.msg);
        return r;
}

/* `text` with the first occurrence of `from` replaced by `to` */
static char *replace(const char *text, const char *from, const char *to)
{
        const char *at = strstr(text, from);
        char *out = NULL;
        if (!at || asprintf(&out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)) < 0)
                return NULL;
        return out;
}

/* A variant must be compiled, and get exactly what a compile of it gives. */
static void variant(const char *what, char *text, const struct seccomp_known *k, uint64_t caps,
                    int same_semantics)
{
        struct seccomp_program got = {0}, want = {0};
        struct profile p;
        struct error err;
        char how[1024] = "";
        ok(text && prepare(text, &got, how, sizeof how, caps) == 0, "%s: prepared", what);
        contains(how, "compiled at run time", "%s: compiled, not matched", what);
        FILE *f = text ? fmemopen(text, strlen(text), "r") : NULL;
        unsigned kmaj, kmin;
        seccomp_kernel_version(&kmaj, &kmin);
        ok(f && profile_parse(f, "v", &p, &err) == 0 &&
                   seccomp_compile(&p, seccomp_native_arch(), caps, kmaj, kmin, &want, &err) == 0,
           "%s: compiles on its own", what);
        if (f) {
                fclose(f);
                profile_free(&p);
        }
        ok(got.n && got.n == want.n && !memcmp(got.insns, want.insns, got.n * sizeof *got.insns),
           "%s: its program is its own compile's", what);
        if (same_semantics > 0)
                ok(same_prog(&got, k), "%s: which here is the known program (the same rules)",
                   what);
        else if (same_semantics == 0)
                ok(!same_prog(&got, k), "%s: which is not the known program", what);
        seccomp_program_free(&got);
        seccomp_program_free(&want);
        free(text);
}

int main(void)
{
        struct error err;
        const char *arch = seccomp_native_arch();
        struct spec s;
        if (spec_from_level("default", &s, &err) < 0) {
                ok(0, "level default: %s", err.msg);
                return tap_done();
        }
        const struct seccomp_known *k = NULL;
        size_t n = 0, good = 0;
        for (const struct seccomp_known *x; (x = seccomp_known_at(n)); n++) {
                if (!strcmp(x->profile, "default") && x->caps == s.caps)
                        k = x;
                good += seccomp_known_check(x, &err) == 1;
        }
        ok(n >= 1 && good == n,
           "all %zu known programs and forms equal a run-time resolve and compile (%zu do)", n,
           good);
        ok(k != NULL, "crib knows profile default resolved for the default level's set on %s",
           arch);
        if (!k)
                return tap_done();

        /* the known profile as an engine hands it over: found, the same program */
        struct profile def, res;
        unsigned kmaj, kmin;
        seccomp_kernel_version(&kmaj, &kmin);
        ok(profile_builtin("default", &def, &err) == 0 &&
                   profile_resolve(&def, s.caps, arch, k->kmaj, k->kmin, &res, &err) == 0,
           "profile default resolved for the default level's set");
        char *text = to_text(&res);
        struct seccomp_program got, compiled;
        char how[1024];
        ok(prepare(text, &got, how, sizeof how, s.caps) == 0, "its text is prepared");
        contains(how, "known profile compiled at build time", "from the known program");
        ok(same_prog(&got, k), "which is the known one");
        ok(seccomp_compile(&res, arch, s.caps, kmaj, kmin, &compiled, &err) == 0 &&
                   compiled.n == got.n &&
                   !memcmp(compiled.insns, got.insns, got.n * sizeof *got.insns),
           "and what libseccomp compiles now from the same rules (%zu instructions)", got.n);
        ok(answer(&got, SYS_mkdirat) == SECCOMP_RET_ALLOW, "mkdirat is allowed by it");
        seccomp_program_free(&got);
        seccomp_program_free(&compiled);
        /* the bounding set does not matter to a profile without "when": the same program */
        ok(prepare(text, &got, how, sizeof how, 0) == 0 && same_prog(&got, k) &&
                   strstr(how, "known profile"),
           "and with another bounding set too (a resolved profile has no 'when')");
        seccomp_program_free(&got);

        /* one rule differs: compiled, and the change is in the program */
        char *less = replace(text, "\nmkdirat\n", "\n");
        ok(less && prepare(less, &got, how, sizeof how, s.caps) == 0,
           "without mkdirat in its rule: prepared");
        contains(how, "compiled at run time", "compiled, not matched");
        ok(answer(&got, SYS_mkdirat) == (SECCOMP_RET_ERRNO | EPERM),
           "and mkdirat fails with EPERM under it (the default), as the profile says");
        seccomp_program_free(&got);
        free(less);

        variant("one name less", replace(text, "\nmkdirat\n", "\n"), k, s.caps, 0);
        variant("a name crib does not know added",
                replace(text, "\nmkdirat\n", "\nmkdirat\nno_such_call_crib\n"), k, s.caps, 1);
        variant("the default's errno EACCES",
                replace(text, "default errno EPERM", "default errno EACCES"), k, s.caps, 0);
        variant("a condition's value changed", replace(text, "if arg0 < 38]", "if arg0 < 39]"), k,
                s.caps, 0);
        variant("an extra allow rule for a name already allowed",
                replace(text, "\n[", "\n[allow]\nread\n["), k, s.caps, -1);
        variant("a 'when' rule that does not apply",
                replace(text, "\n[", "\n[allow when cap SYS_ADMIN]\nmount\n["), k, s.caps, 1);
        variant("a 'when' rule that applies",
                replace(text, "\n[", "\n[allow when not cap SYS_ADMIN]\nmount\n["), k, s.caps, 0);
        /* two rules swapped: the first two socket rules */
        char *sw = replace(text, "[allow if arg0 < 38]\nsocket\n[allow if arg0 == 39]\nsocket\n",
                           "[allow if arg0 == 39]\nsocket\n[allow if arg0 < 38]\nsocket\n");
        ok(sw != NULL, "the socket rules are there to swap");
        variant("two rules swapped", sw, k, s.caps, -1);

        /* the canonical form: injective on what the compiler reads */
        struct profile a = {0}, b = {0};
        char *ca = NULL, *cb = NULL;
        size_t la = 0, lb = 0;
        static char t1[] = "default errno EPERM\n[allow]\nread write\n";
        static char t2[] = "default errno EPERM\n[allow]\nread\nwrite\n";
        static char t3[] = "default errno EPERM\n[allow]\nread\n[allow]\nwrite\n";
        FILE *f1 = fmemopen(t1, strlen(t1), "r"), *f2 = fmemopen(t2, strlen(t2), "r");
        ok(profile_parse(f1, "t1", &a, &err) == 0 && profile_parse(f2, "t2", &b, &err) == 0 &&
                   profile_canonical(&a, &ca, &la, &err) == 1 &&
                   profile_canonical(&b, &cb, &lb, &err) == 1 && la == lb && !memcmp(ca, cb, la),
           "names on one line or two: the same form (the same rules)");
        fclose(f1);
        fclose(f2);
        profile_free(&b);
        free(cb);
        f2 = fmemopen(t3, strlen(t3), "r");
        ok(profile_parse(f2, "t3", &b, &err) == 0 && profile_canonical(&b, &cb, &lb, &err) == 1 &&
                   (la != lb || memcmp(ca, cb, la)),
           "the same names in two rules: another form");
        fclose(f2);
        profile_free(&a);
        profile_free(&b);
        free(ca);
        free(cb);

        free(text);
        profile_free(&res);
        profile_free(&def);
        spec_free(&s);
        return tap_done();
}
