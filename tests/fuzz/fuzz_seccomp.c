/* fuzz_seccomp - libFuzzer target: crib's seccomp profile compiler
 * (runtime/seccomp/seccomp_profile.c, runtime/seccomp/seccomp_compile.c).
 *
 * The input is a seccomp profile in crib's format (profiles/seccomp/default explains it).
 * profile_parse() must accept or refuse it cleanly; an accepted profile is compiled with
 * seccomp_compile() for the native architecture, as `crib run` would, and the program it
 * returns is checked for the two facts the loader relies on (non-empty, within the kernel's
 * BPF_MAXINSNS). Compiling is bounded: libseccomp takes milliseconds per hundred names, so only
 * profiles with at most FUZZ_MAX_NAMES names are compiled (the built-in profiles are compiled
 * by the unit and e2e tests). Seeds: profiles/seccomp/ (copied by tests/fuzz/run).
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "host/kernel.h"
#include "seccomp/seccomp.h"
#include "seccomp/seccomp_profile.h"

#define FUZZ_MAX_NAMES 400

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct profile p;
        struct error err;
        if (size == 0)
                return 0;
        FILE *f = fmemopen((void *)data, size, "r");
        if (!f)
                return 0;
        int r = profile_parse(f, "fuzz.profile", &p, &err);
        fclose(f);
        if (r < 0)
                return 0;

        size_t names = 0;
        for (size_t i = 0; i < p.n; i++)
                names += p.rules[i].nnames;
        if (names <= FUZZ_MAX_NAMES) {
                /* Docker's default capabilities, or all of them: rules say "when cap" */
                uint64_t caps = (data[0] & 1) ? ~0ULL : 0xa80425fbULL;
                unsigned kmaj, kmin;
                struct seccomp_program prog = {0};
                seccomp_kernel_version(&kmaj, &kmin);
                if (seccomp_compile(&p, seccomp_native_arch(), caps, kmaj, kmin, &prog, &err) ==
                    0) {
                        if (prog.n == 0 || prog.n > BPF_MAXINSNS || !prog.insns)
                                abort(); /* the loader would hand this to the kernel */
                        seccomp_program_free(&prog);
                }
        }
        for (size_t i = 0; i < p.n; i++) { /* `crib seccomp show` prints every header */
                char text[512];
                profile_rule_text(&p.rules[i], text, sizeof text);
        }
        profile_free(&p);
        return 0;
}
