/* seccomp_builtin.c - the seccomp program a container gets: compiled at build time, or now.
 *
 * The built-in profiles (profiles/seccomp/default and strict) are compiled when crib is built,
 * by tools/seccomp-gen.c on the build host for the target's architecture, and the programs are
 * part of the binary (seccomp-programs.h, generated). A program depends on the container only
 * through the bounding set's intersection with the capabilities the profile's rules test, and
 * on the kernel only through how many of the profile's "when kernel >= X.Y" thresholds it
 * reaches (profile_rule_applies); that is the key looked up here. The build embeds the keys
 * the levels give and the one-capability additions (tools/seccomp-gen.c says which).
 *
 * Feature: none of the kernel's; the programs are data in crib's binary, found by their key
 * and copied, in microseconds. capname.c names the capabilities in the trace.
 *
 * The profiles engines hand over in an OCI config are built in too, as far as crib has them:
 * profiles/seccomp/default is Docker's default rule for rule, and Docker writes it into the
 * config resolved for the container's capabilities. The build embeds each built-in profile
 * resolved for the default level's set (Docker's default capabilities) with its canonical form
 * (seccomp_canonical.c); a profile from a config whose canonical form is the same, byte for
 * byte, gets that program, which is what compiling it would give (the same form is the same
 * compiler input). The form is compared whole, not hashed: a few kB of memcmp. podman's
 * profile is not crib's to carry in its repository, but Debian ships it (containers-common's
 * /usr/share/containers/seccomp.json): when the build host has it, the build converts it
 * (tools/seccomp-json2crib) and embeds it as podman resolves it for its default capabilities
 * (containers.conf's default_capabilities, 11 in Debian's, and podman's compiled-in 14 where no
 * containers.conf it reads has the list), found the same way. Whatever the file held, a
 * config gets that program only when its own rules have the same canonical form, so a file
 * unlike the target's podman costs a compile, never a weaker filter.
 *
 * Anything else (a profile of one's own, a bounding set with two added capabilities) is
 * compiled with libseccomp in the parent when the container starts, a few milliseconds, and
 * not kept. Why no cache: crib used to keep compiled programs in ~/.cache/crib
 * (/var/cache/crib as root), trusted because the user owned them. Every process of the user
 * can write there, a container with $HOME bound in too, so one such container rewrote the
 * program as a single "allow" and the next container ran without a filter. A key that
 * authenticates the cache would have to be kept where the user's processes cannot read it,
 * and for a rootless user there is no such place: whatever crib can read, a container running
 * as the same user with the same files bound in can read. A program built into crib is as
 * trustworthy as crib itself.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/capname.h"
#include "host/kernel.h"
#include "seccomp.h"
#include "base/trace.h"

struct builtin_profile {
        const char *name;
        uint64_t mentioned; /* the capabilities its rules test */
        size_t nthresholds;
        unsigned thresholds[8][2]; /* "when kernel >= X.Y", ascending (seccomp-gen: at most 8) */
};

#include "seccomp-programs.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const struct seccomp_builtin *seccomp_builtin_at(size_t i)
{
        return i < COUNT(builtin_programs) ? &builtin_programs[i] : NULL;
}

const struct seccomp_builtin *seccomp_builtin_find(const char *profile, const char *arch,
                                                   uint64_t caps, unsigned kmaj, unsigned kmin)
{
        for (size_t i = 0; i < COUNT(builtin_profiles); i++) {
                const struct builtin_profile *bp = &builtin_profiles[i];
                unsigned level = 0;
                if (strcmp(bp->name, profile))
                        continue;
                for (size_t t = 0; t < bp->nthresholds; t++)
                        if (kmaj > bp->thresholds[t][0] ||
                            (kmaj == bp->thresholds[t][0] && kmin >= bp->thresholds[t][1]))
                                level++;
                for (size_t j = 0; j < COUNT(builtin_programs); j++) {
                        const struct seccomp_builtin *b = &builtin_programs[j];
                        if (!strcmp(b->profile, profile) && !strcmp(b->arch, arch) &&
                            b->caps == (caps & bp->mentioned) && b->kernel_level == level)
                                return b;
                }
        }
        return NULL;
}

const struct seccomp_known *seccomp_known_at(size_t i)
{
        return i < COUNT(known_programs) ? &known_programs[i] : NULL;
}

const struct seccomp_known *seccomp_known_find(const char *text, size_t len, const char *arch)
{
        /* the whole form, byte for byte: no hash to collide, and a memcmp of a few kB costs
         * about what hashing them would */
        for (size_t i = 0; i < COUNT(known_programs); i++) {
                const struct seccomp_known *k = &known_programs[i];
                if (k->len == len && !strcmp(k->arch, arch) && !memcmp(k->canonical, text, len))
                        return k;
        }
        return NULL;
}

int seccomp_known_profile(const struct seccomp_known *k, struct profile *p, struct error *err)
{
        if (!k->source)
                return profile_builtin(k->profile, p, err);
        FILE *f = fmemopen((void *)k->source, strlen(k->source), "r");
        if (!f)
                return error_set(err, errno, "cannot read the known profile '%s'", k->profile);
        int r = profile_parse(f, k->origin, p, err);
        fclose(f);
        return r;
}

int seccomp_known_check(const struct seccomp_known *k, struct error *err)
{
        struct profile p;
        struct seccomp_program prog;
        char *canon;
        size_t len;
        if (seccomp_known_profile(k, &p, err) < 0)
                return -1;
        int r = seccomp_known_make(&p, k->caps, k->arch, k->kmaj, k->kmin, &canon, &len, &prog,
                                   err);
        profile_free(&p);
        if (r < 0)
                return -1;
        bool same = len == k->len && !memcmp(canon, k->canonical, len) && prog.n == k->n &&
                    prog.unfolded == k->unfolded &&
                    !memcmp(prog.insns, k->insns, k->n * sizeof *k->insns);
        free(canon);
        seccomp_program_free(&prog);
        return same ? 1 : 0;
}

static int copy_program(const struct sock_filter *insns, size_t n, size_t unfolded,
                        struct seccomp_program *ret, struct error *err)
{
        ret->insns = malloc(n * sizeof *insns);
        if (!ret->insns)
                return error_set(err, ENOMEM, "cannot allocate");
        memcpy(ret->insns, insns, n * sizeof *insns);
        ret->n = n;
        ret->unfolded = unfolded;
        return 0;
}

int seccomp_prepare(const char *builtin, const char *text, const char *label, const char *arch,
                    uint64_t caps, struct seccomp_program *ret, char *how, size_t howlen,
                    struct error *err)
{
        unsigned kmaj, kmin;
        char names[1400];
        const char *why = "a profile of one's own";
        seccomp_kernel_version(&kmaj, &kmin);

        if (builtin) {
                uint64_t t0 = trace_now_us();
                const struct seccomp_builtin *b =
                        seccomp_builtin_find(builtin, arch, caps, kmaj, kmin);
                if (b) {
                        if (copy_program(b->insns, b->n, b->unfolded, ret, err) < 0)
                                return -1;
                        uint64_t took = trace_now_us() - t0;
                        capname_list(b->caps, " ", names, sizeof names);
                        snprintf(how, howlen,
                                 "built-in program compiled at build time (profile %s on %s, "
                                 "capabilities the profile tests: %s, kernel thresholds "
                                 "reached: %u; %zu instructions), found in %llu us",
                                 builtin, arch, names, b->kernel_level, b->n,
                                 (unsigned long long)took);
                        return 0;
                }
                why = "no built-in program for this bounding set";
        }
        struct profile prof;
        uint64_t t0 = trace_now_us();
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        if (!f)
                return error_set(err, errno, "cannot read seccomp profile '%s'", label);
        int r = profile_parse(f, label, &prof, err);
        fclose(f);
        if (r < 0)
                return -1;
        /* A profile whose canonical form is one crib compiled at build time (an engine's
         * resolved default) gets that program: the same form compiles to the same program, so
         * this is what the compile below would give, without libseccomp's milliseconds. */
        char *canon = NULL;
        size_t clen = 0;
        r = builtin ? 0 : profile_canonical(&prof, &canon, &clen, err);
        if (r < 0) {
                profile_free(&prof);
                return -1;
        }
        const struct seccomp_known *k = r ? seccomp_known_find(canon, clen, arch) : NULL;
        free(canon);
        if (k) {
                profile_free(&prof);
                if (copy_program(k->insns, k->n, k->unfolded, ret, err) < 0)
                        return -1;
                capname_list(k->caps, " ", names, sizeof names);
                snprintf(how, howlen,
                         "known profile compiled at build time (%s%s as an engine resolves it "
                         "for capabilities %s, on %s; canonical form of %zu bytes equal; %zu "
                         "instructions), found in %llu us",
                         k->origin ? "" : "profiles/seccomp/", k->origin ? k->origin : k->profile,
                         names, arch, clen, k->n, (unsigned long long)(trace_now_us() - t0));
                return 0;
        }
        t0 = trace_now_us();
        r = seccomp_compile(&prof, arch, caps, kmaj, kmin, ret, err);
        profile_free(&prof);
        if (r < 0)
                return error_wrap(err, "seccomp profile '%s'", label);
        capname_list(caps, " ", names, sizeof names);
        snprintf(how, howlen,
                 "compiled at run time in %llu us with libseccomp (%zu instructions, folded to "
                 "%zu): %s (capabilities: %s)",
                 (unsigned long long)(trace_now_us() - t0), ret->unfolded, ret->n, why, names);
        return 0;
}
