/* test_seccomp_builtin - the programs compiled into crib at build time are the ones libseccomp
 * compiles at run time for the same key, the levels find theirs, and the key is what it says. */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <stdlib.h>

#include "host/kernel.h"
#include "seccomp/seccomp.h"
#include "spec/spec.h"
#include "../lib/tap.h"

static bool same(const struct seccomp_program *p, const struct seccomp_builtin *b)
{
        return p->n == b->n && !memcmp(p->insns, b->insns, b->n * sizeof *b->insns);
}

/* The level's own program: found, and equal to a run-time compile for the running kernel. */
static void level(const char *name)
{
        struct spec s;
        struct profile p;
        struct seccomp_program prog;
        struct error err;
        unsigned kmaj, kmin;
        seccomp_kernel_version(&kmaj, &kmin);
        if (spec_from_level(name, &s, &err) < 0) {
                ok(0, "level %s: %s", name, err.msg);
                return;
        }
        const char *arch = seccomp_native_arch();
        const struct seccomp_builtin *b = seccomp_builtin_find(s.seccomp, arch, s.caps, kmaj, kmin);
        ok(b != NULL, "level %s: crib embeds a program for profile %s on %s, kernel %u.%u", name,
           s.seccomp, arch, kmaj, kmin);
        ok(profile_builtin(s.seccomp, &p, &err) == 0 &&
                   seccomp_compile(&p, arch, s.caps, kmaj, kmin, &prog, &err) == 0,
           "level %s: libseccomp compiles the profile now", name);
        ok(b && same(&prog, b),
           "level %s: the embedded program is the one libseccomp compiles now (%zu instructions)",
           name, prog.n);
        ok(b && prog.unfolded == b->unfolded, "level %s: and was folded from the same length",
           name);

        char how[1024];
        struct seccomp_program got;
        ok(seccomp_prepare(s.seccomp, profile_builtin_text(s.seccomp), "label", arch, s.caps, &got,
                           how, sizeof how, &err) == 0 &&
                   got.n == prog.n && !memcmp(got.insns, prog.insns, got.n * sizeof *got.insns),
           "level %s: seccomp_prepare hands out that program", name);
        contains(how, "built-in program compiled at build time", "level %s: and says so", name);
        seccomp_program_free(&got);
        seccomp_program_free(&prog);
        profile_free(&p);
        spec_free(&s);
}

int main(void)
{
        struct error err;
        struct profile p;
        unsigned kmaj, kmin;
        const char *arch = seccomp_native_arch();
        seccomp_kernel_version(&kmaj, &kmin);

        level("default");
        level("strict");

        /* every embedded program, against a run-time compile with its key */
        size_t n = 0, good = 0;
        const struct seccomp_builtin *b;
        for (; (b = seccomp_builtin_at(n)); n++) {
                struct seccomp_program prog;
                if (profile_builtin(b->profile, &p, &err) < 0)
                        continue;
                if (seccomp_compile(&p, b->arch, b->caps, b->kmaj, b->kmin, &prog, &err) == 0) {
                        good += same(&prog, b);
                        seccomp_program_free(&prog);
                }
                profile_free(&p);
        }
        ok(n >= 4 && good == n, "all %zu embedded programs equal a run-time compile (%zu do)", n,
           good);

        /* the key: capabilities no rule tests do not matter; two added ones are not embedded */
        struct spec s;
        if (spec_from_level("default", &s, &err) == 0) {
                uint64_t caps = s.caps;
                const struct seccomp_builtin *d =
                        seccomp_builtin_find("default", arch, caps, kmaj, kmin);
                ok(d && d == seccomp_builtin_find("default", arch,
                                                  caps | (1ULL << CAP_LINUX_IMMUTABLE), kmaj, kmin),
                   "a capability no rule tests (LINUX_IMMUTABLE) selects the same program");
                const struct seccomp_builtin *pt = seccomp_builtin_find(
                        "default", arch, caps | (1ULL << CAP_SYS_PTRACE), kmaj, kmin);
                ok(pt && pt != d && pt->caps & (1ULL << CAP_SYS_PTRACE),
                   "default +SYS_PTRACE has a program of its own");
                ok(!seccomp_builtin_find("default", arch,
                                         caps | (1ULL << CAP_SYS_PTRACE) | (1ULL << CAP_SYS_ADMIN),
                                         kmaj, kmin),
                   "default +SYS_PTRACE +SYS_ADMIN is not embedded");
                ok(!seccomp_builtin_find("default", strcmp(arch, "arm") ? "arm" : "x86_64", caps,
                                         kmaj, kmin),
                   "nor another architecture than the build's");
                ok(!seccomp_builtin_find("mine", arch, caps, kmaj, kmin),
                   "nor a profile that is not built in");
                const struct seccomp_builtin *old =
                        seccomp_builtin_find("default", arch, caps, 4, 4);
                ok(old && d && old != d && old->kernel_level == 0 && d->kernel_level == 1,
                   "kernel 4.4 (below the profile's 'when kernel >= 4.8') has its own program");

                char how[1024];
                struct seccomp_program got;
                const char *mine = "base default\ndrop getpid\n";
                ok(seccomp_prepare(NULL, mine, "mine", arch, caps, &got, how, sizeof how, &err) ==
                           0,
                   "a profile of one's own is prepared");
                contains(how, "compiled at run time in ", "and compiled at run time");
                seccomp_program_free(&got);
                ok(seccomp_prepare("default", profile_builtin_text("default"), "default", arch,
                                   caps | (1ULL << CAP_SYS_PTRACE) | (1ULL << CAP_SYS_ADMIN), &got,
                                   how, sizeof how, &err) == 0,
                   "default with two added capabilities is prepared");
                contains(how, "no built-in program for this bounding set",
                         "and compiled at run time, saying why");
                seccomp_program_free(&got);
                spec_free(&s);
        }

        /* the thresholds: ascending, each once, and "too many" said */
        static char text[] = "default errno EPERM\n[allow when kernel >= 5.10]\nread\n"
                             "[allow when kernel >= 4.8]\nwrite\n[allow when kernel >= 5.10]\n"
                             "open\n[allow]\nclose\n";
        FILE *f = fmemopen(text, strlen(text), "r");
        unsigned t[2][2];
        ok(f && profile_parse(f, "t", &p, &err) == 0, "a profile with three kernel rules");
        if (f)
                fclose(f);
        size_t nt = profile_kernel_thresholds(&p, t, 2);
        ok(nt == 2 && t[0][0] == 4 && t[0][1] == 8 && t[1][0] == 5 && t[1][1] == 10,
           "its thresholds: 4.8 then 5.10, once each");
        ok(profile_kernel_thresholds(&p, t, 1) == 2, "more than the room: said");
        ok(profile_caps_mentioned(&p) == 0, "no capability mentioned");
        profile_free(&p);
        return tap_done();
}
