/* seccomp_canonical.c - a profile as an engine hands it over, and its canonical form (pure).
 *
 * An engine (Docker, podman) resolves its profile's includes and excludes for the container and
 * writes the rules that apply into config.json; profile_resolve() does the same to one of
 * crib's profiles ("when" conditions evaluated and dropped). profile_canonical() writes what
 * seccomp_compile() reads from a resolved profile, so that crib can recognise, in an OCI config,
 * a profile whose program it compiled at build time (seccomp_builtin.c, tools/seccomp-gen.c).
 *
 * Feature: none of the kernel's; no system call. What can go wrong: a form that two profiles
 * with different programs share would hand one the other's program, so the form holds every
 * field the compiler reads, numbers in decimal, a name per line (names are [a-z0-9_]+, checked
 * by the parser, so no name can pass for another line), and a profile with a "when" has none:
 * its program depends on the container.
 */
#define _GNU_SOURCE
#include "seccomp_profile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int profile_resolve(const struct profile *p, uint64_t caps, const char *arch, unsigned kmajor,
                    unsigned kminor, struct profile *ret, struct error *err)
{
        struct profile r = {.def = p->def};
        r.rules = calloc(p->n ? p->n : 1, sizeof *r.rules);
        if (!r.rules)
                return error_set(err, ENOMEM, "cannot allocate");
        for (size_t i = 0; i < p->n; i++) {
                const struct profile_rule *src = &p->rules[i];
                if (!profile_rule_applies(src, caps, arch, kmajor, kminor))
                        continue;
                struct profile_rule *d = &r.rules[r.n];
                d->line = src->line;
                d->action = src->action;
                d->nconds = src->nconds;
                memcpy(d->conds, src->conds, sizeof d->conds);
                d->names = calloc(src->nnames + 1, sizeof *d->names);
                r.n++; /* freed with the profile from here on */
                if (!d->names)
                        goto nomem;
                for (size_t j = 0; j < src->nnames; j++, d->nnames++)
                        if (!(d->names[j] = strdup(src->names[j])))
                                goto nomem;
        }
        *ret = r;
        return 0;
nomem:
        profile_free(&r);
        return error_set(err, ENOMEM, "cannot allocate");
}

int profile_canonical(const struct profile *p, char **ret, size_t *ret_len, struct error *err)
{
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f)
                return error_set(err, ENOMEM, "cannot allocate");
        /* what the compiler reads, and nothing it does not: a rule's line number is not there */
        fprintf(f, "crib-seccomp-canonical 1\ndefault %d %d\n", (int)p->def.act, p->def.errnum);
        for (size_t i = 0; i < p->n; i++) {
                const struct profile_rule *r = &p->rules[i];
                if (r->caps_all || r->caps_none || r->nin || r->nout || r->kernel_major ||
                    r->kernel_minor) {
                        fclose(f);
                        free(text);
                        return 0;
                }
                fprintf(f, "rule %d %d %zu\n", (int)r->action.act, r->action.errnum, r->nconds);
                for (size_t c = 0; c < r->nconds; c++)
                        fprintf(f, "if %u %d %llu %llu\n", r->conds[c].arg, (int)r->conds[c].op,
                                (unsigned long long)r->conds[c].value,
                                (unsigned long long)r->conds[c].mask);
                /* a name is [a-z0-9_]+ (the parser's check): one a line, no room for a word */
                for (size_t j = 0; j < r->nnames; j++)
                        fprintf(f, "%s\n", r->names[j]);
        }
        if (fclose(f) != 0) {
                free(text);
                return error_set(err, ENOMEM, "cannot allocate");
        }
        *ret = text;
        *ret_len = len;
        return 1;
}
