/* seccomp.c - `crib seccomp export|show|explain|builtin`: the program a container gets, the
 * resolved rules, which rule decides a call, and the programs compiled into crib at build time. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <linux/audit.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seccomp/bpf.h"
#include "base/capname.h"
#include "base/cleanup.h"
#include "host/kernel.h"
#include "seccomp/seccomp.h"
#include "seccomp/seccomp_profile.h"
#include "spec/spec.h"
#include "output.h"

int cmd_seccomp(int argc, char **argv);

static const char usage[] =
        "usage: crib seccomp export [--arch ARCH] [--caps CAP,...] [PROFILE] > prog.bpf\n"
        "       crib seccomp show [--arch ARCH] [--caps CAP,...] [PROFILE]\n"
        "       crib seccomp explain [--arch ARCH] [--caps CAP,...] [--profile P] SYSCALL "
        "[ARG...]\n"
        "       crib seccomp builtin [--check]\n"
        "PROFILE is a built-in profile (default, strict) or a file. CAPS is the whole bounding\n"
        "set (Docker's 14 by default); ARCH a libseccomp name (x86_64, aarch64, arm, ...).\n"
        "The built-in profiles are compiled when crib is built, for the capability sets of the\n"
        "levels and each one added capability, and as an engine resolves them for the default\n"
        "level's set (found by their canonical form in an OCI config); 'builtin' lists those\n"
        "programs, and with --check compares each with what libseccomp compiles now.\n"
        "Anything else is compiled when a\n"
        "container starts; no compiled program is ever read from a file.\n";

struct opts {
        const char *arch;
        uint64_t caps;
        const char *profile;
        char **rest;
        int nrest;
};

static int parse_caps(const char *list, uint64_t *ret, struct error *err)
{
        char buf[1024];
        *ret = 0;
        snprintf(buf, sizeof buf, "%s", list);
        for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                int v = capname_parse(t);
                if (v < 0)
                        return error_set(err, 0, "unknown capability '%s' in --caps", t);
                *ret |= 1ULL << v;
        }
        return 0;
}

static int parse_opts(int argc, char **argv, bool profile_positional, struct opts *o,
                      struct error *err)
{
        struct spec d;
        o->arch = seccomp_native_arch();
        o->profile = "default";
        if (spec_from_level("default", &d, err) < 0)
                return -1;
        o->caps = d.caps;
        spec_free(&d);
        int i = 0;
        for (; i < argc; i++) {
                if (!strcmp(argv[i], "--arch") && i + 1 < argc) {
                        o->arch = argv[++i];
                        if (!seccomp_arch_known(o->arch))
                                return error_set(err, 0, "unknown architecture '%s'", o->arch);
                } else if (!strcmp(argv[i], "--caps") && i + 1 < argc) {
                        if (parse_caps(argv[++i], &o->caps, err) < 0)
                                return -1;
                } else if (!strcmp(argv[i], "--profile") && i + 1 < argc) {
                        o->profile = argv[++i];
                } else if (argv[i][0] == '-' && argv[i][1] && !isdigit((unsigned char)argv[i][1])) {
                        return error_set(err, 0, "unknown option '%s' for 'crib seccomp'", argv[i]);
                } else {
                        break;
                }
        }
        if (profile_positional && i < argc)
                o->profile = argv[i++];
        o->rest = argv + i;
        o->nrest = argc - i;
        if (profile_positional && o->nrest)
                return error_set(err, 0, "unexpected argument '%s'", o->rest[0]);
        return 0;
}

static int load_profile(const char *name, struct profile *p, char **ret_text, struct error *err)
{
        const char *builtin = profile_builtin_text(name);
        if (builtin) {
                *ret_text = strdup(builtin);
                return profile_builtin(name, p, err);
        }
        _cleanup_fclose_ FILE *f = fopen(name, "re");
        if (!f)
                return error_set(err, errno, "cannot open seccomp profile '%s'", name);
        if (profile_parse(f, name, p, err) < 0)
                return -1;
        rewind(f);
        *ret_text = calloc(1, 1024 * 1024 + 1);
        if (*ret_text && fread(*ret_text, 1, 1024 * 1024, f) == 0)
                **ret_text = '\0';
        return 0;
}

/* The program a container with o->caps on o->arch gets: the built-in one, or compiled now. */
static int program(const struct opts *o, const char *text, struct seccomp_program *prog, char *how,
                   size_t howlen, struct error *err)
{
        bool builtin = profile_builtin_text(o->profile) != NULL;
        char label[4096];
        snprintf(label, sizeof label, builtin ? "profiles/seccomp/%s" : "%s", o->profile);
        return seccomp_prepare(builtin ? o->profile : NULL, text, label, o->arch, o->caps, prog,
                               how, howlen, err);
}

static int export(struct opts *o, struct error *err)
{
        struct profile p;
        struct seccomp_program prog;
        char how[1024];
        _cleanup_free_ char *text = NULL;
        if (isatty(STDOUT_FILENO))
                return error_set(err, 0,
                                 "refusing to write a binary program to a terminal; "
                                 "redirect it to a file");
        if (load_profile(o->profile, &p, &text, err) < 0)
                return -1;
        profile_free(&p);
        if (!text)
                return error_set(err, ENOMEM, "cannot allocate");
        if (program(o, text, &prog, how, sizeof how, err) < 0)
                return -1;
        size_t bytes = prog.n * sizeof *prog.insns;
        int r = fwrite(prog.insns, 1, bytes, stdout) == bytes && fflush(stdout) == 0
                        ? 0
                        : error_set(err, errno, "cannot write the program");
        seccomp_program_free(&prog);
        return r;
}

static bool applies(const struct profile_rule *r, const struct opts *o)
{
        unsigned kmaj, kmin;
        seccomp_kernel_version(&kmaj, &kmin);
        return profile_rule_applies(r, o->caps, o->arch, kmaj, kmin);
}

static int show(struct opts *o, struct error *err)
{
        struct profile p;
        _cleanup_free_ char *text = NULL;
        char hdr[512];
        if (load_profile(o->profile, &p, &text, err) < 0)
                return -1;
        printf("# profile %s for %s, bounding set %#llx: the rules that apply\n", o->profile,
               o->arch, (unsigned long long)o->caps);
        printf("default %s\n", profile_action_text(&p.def, hdr, sizeof hdr));
        for (size_t i = 0; i < p.n; i++) {
                const struct profile_rule *r = &p.rules[i];
                profile_rule_text(r, hdr, sizeof hdr);
                if (!applies(r, o)) {
                        printf("\n# not applied (line %u): [%s]\n", r->line, hdr);
                        continue;
                }
                printf("\n[%s]  # line %u\n", hdr, r->line);
                size_t col = 0;
                for (size_t j = 0; j < r->nnames; j++) {
                        bool known = seccomp_syscall_resolve_name(r->names[j]) != __NR_SCMP_ERROR;
                        int w = printf("%s%s%s", col ? " " : "", r->names[j], known ? "" : "(?)");
                        col += (size_t)w;
                        if (col > 90) {
                                printf("\n");
                                col = 0;
                        }
                }
                if (col)
                        printf("\n");
        }
        printf("\n# (?) = unknown to this libseccomp %u.%u.%u: such a call is not in the program\n",
               seccomp_version()->major, seccomp_version()->minor, seccomp_version()->micro);
        profile_free(&p);
        return 0;
}

/* What a profile's action does, as explain has said it: an errno by its name alone */
static const char *verdict(const struct profile_action *a, char *buf, size_t len)
{
        return a->act == PROFILE_ERRNO ? strerrorname_np(a->errnum)
                                       : bpf_action_text(profile_action_ret(a), buf, len);
}

static int explain(struct opts *o, struct error *err)
{
        struct profile p;
        struct seccomp_program prog;
        unsigned kmaj, kmin;
        _cleanup_free_ char *text = NULL;
        uint64_t args[6] = {0};
        char hdr[512], b1[64], b2[64];

        if (o->nrest < 1 || o->nrest > 7)
                return error_set(err, 0,
                                 "'crib seccomp explain' needs a system call and up to 6 "
                                 "arguments");
        const char *name = o->rest[0];
        for (int i = 1; i < o->nrest; i++)
                args[i - 1] = strtoull(o->rest[i], NULL, 0);
        uint32_t token = seccomp_arch_resolve_name(o->arch);
        int nr = seccomp_syscall_resolve_name_arch(token, name);
        if (nr == __NR_SCMP_ERROR) {
                char *end;
                nr = (int)strtol(name, &end, 0);
                if (*end || nr < 0)
                        return error_set(err, 0, "'%s' is not a system call on %s", name, o->arch);
                char *n = seccomp_syscall_resolve_num_arch(token, nr);
                name = n ? n : name; /* leaks one string in a short-lived command */
        }
        if (load_profile(o->profile, &p, &text, err) < 0)
                return -1;
        seccomp_kernel_version(&kmaj, &kmin);
        printf("%s(", name);
        for (int i = 1; i < o->nrest; i++)
                printf("%s%s", i > 1 ? ", " : "", o->rest[i]);
        printf(") is system call %d on %s\n", nr, o->arch);

        /* each rule that names it, and the one that decides (profile_decide) */
        bool named = false;
        for (size_t i = 0; i < p.n; i++) {
                const struct profile_rule *r = &p.rules[i];
                if (!profile_rule_names(r, name))
                        continue;
                named = true;
                profile_rule_text(r, hdr, sizeof hdr);
                bool ap = applies(r, o), m = profile_rule_matches(r, args);
                printf("  line %-4u [%s]: %s\n", r->line, hdr,
                       !ap ? "does not apply to this container"
                       : m ? "matches"
                           : "applies, but the arguments do not match");
        }
        const struct profile_rule *decided =
                profile_decide(&p, name, args, o->caps, o->arch, kmaj, kmin);
        const char *dflt = verdict(&p.def, b2, sizeof b2);
        if (decided)
                printf("decided by line %u: %s\n", decided->line,
                       verdict(&decided->action, b1, sizeof b1));
        else if (named)
                printf("no rule matches: the default action, %s\n", dflt);
        else if (profile_action_lets_through(&p.def))
                printf("the profile never names it: the default action, %s\n", dflt);
        else
                printf("the profile never names it: the default action %s, or ENOSYS when its "
                       "number is above the highest the profile names\n",
                       dflt);

        /* and what the program a container gets answers, to be sure */
        profile_free(&p);
        char how[1024];
        if (!text || program(o, text, &prog, how, sizeof how, err) < 0)
                return text ? -1 : error_set(err, ENOMEM, "cannot allocate");
        struct seccomp_data d = {.nr = nr, .arch = token};
        memcpy(d.args, args, sizeof args);
        uint32_t a = bpf_run(prog.insns, prog.n, &d);
        printf("the compiled program (%zu instructions): %s\n", prog.n,
               bpf_action_text(a, b1, sizeof b1));
        printf("  the program: %s\n", how);
        seccomp_program_free(&prog);
        return 0;
}

/* The known engine profiles' programs; with check, each against what libseccomp compiles now
 * from its source. The number that differ, or -1. */
static int list_known(bool check, struct error *err)
{
        int differ = 0;
        printf("# known engine profiles: a built-in profile (or podman's, from the build host's\n"
               "# containers-common) as an engine resolves it for a bounding set, found by its\n"
               "# canonical form when an OCI config carries it\n");
        const struct seccomp_known *k;
        for (size_t i = 0; (k = seccomp_known_at(i)); i++) {
                char names[1400];
                capname_list(k->caps, ",", names, sizeof names);
                printf("known %-8s %-8s %6zu insns, %zu bytes canonical, caps %s%s%s", k->profile,
                       k->arch, k->n, k->len, names, k->origin ? ", from " : "",
                       k->origin ? k->origin : "");
                if (check) {
                        int same = seccomp_known_check(k, err);
                        if (same < 0)
                                return -1;
                        printf("  %s", same ? "same" : "DIFFERENT");
                        differ += !same;
                }
                printf("\n");
        }
        return differ;
}

/* The programs compiled into crib; with --check, each against libseccomp's answer now. */
static int builtin(int argc, char **argv, struct error *err)
{
        bool check = argc >= 1 && !strcmp(argv[0], "--check");
        int differ = 0;
        if (argc > (check ? 1 : 0))
                return error_set(err, 0, "unexpected argument '%s' for 'crib seccomp builtin'",
                                 argv[check ? 1 : 0]);
        printf("# the programs compiled into crib at build time; any other profile, architecture\n"
               "# or bounding set is compiled when the container starts\n");
        printf("%-8s %-8s %-20s %-14s %6s%s\n", "profile", "arch", "caps tested (mask)", "kernel",
               "insns", check ? "  compiled now" : "");
        const struct seccomp_builtin *b;
        for (size_t i = 0; (b = seccomp_builtin_at(i)); i++) {
                char kernel[32];
                if (b->kmaj || b->kmin)
                        snprintf(kernel, sizeof kernel, ">= %u.%u", b->kmaj, b->kmin);
                else
                        snprintf(kernel, sizeof kernel, "any");
                printf("%-8s %-8s %#-20llx %-14s %6zu", b->profile, b->arch,
                       (unsigned long long)b->caps, kernel, b->n);
                if (check) {
                        struct profile p;
                        struct seccomp_program prog;
                        if (profile_builtin(b->profile, &p, err) < 0)
                                return -1;
                        int r = seccomp_compile(&p, b->arch, b->caps, b->kmaj, b->kmin, &prog, err);
                        profile_free(&p);
                        if (r < 0)
                                return -1;
                        bool same = prog.n == b->n &&
                                    !memcmp(prog.insns, b->insns, b->n * sizeof *b->insns);
                        printf("  %s", same ? "same" : "DIFFERENT");
                        differ += !same;
                        seccomp_program_free(&prog);
                }
                printf("\n");
        }
        int known = list_known(check, err);
        if (known < 0)
                return -1;
        differ += known;
        if (differ)
                return error_set(err, 0,
                                 "%d built-in programs differ from what libseccomp %u.%u.%u "
                                 "compiles now",
                                 differ, seccomp_version()->major, seccomp_version()->minor,
                                 seccomp_version()->micro);
        return 0;
}

int cmd_seccomp(int argc, char **argv)
{
        struct opts o = {0};
        struct error err;
        error_clear(&err);
        if (argc < 1 || !strcmp(argv[0], "help") || !strcmp(argv[0], "--help")) {
                fputs(usage, argc < 1 ? stderr : stdout);
                return argc < 1 ? EXIT_CRIB_ERROR : 0;
        }
        const char *verb = argv[0];
        bool positional = strcmp(verb, "explain") != 0;
        if (strcmp(verb, "export") && strcmp(verb, "show") && strcmp(verb, "explain") &&
            strcmp(verb, "builtin")) {
                error_set(&err, 0, "unknown 'crib seccomp' command '%s'", verb);
                error_hint(&err,
                           "crib seccomp export|show|explain|builtin; see 'crib seccomp help'");
                return output_error(&err);
        }
        if (!strcmp(verb, "builtin"))
                return builtin(argc - 1, argv + 1, &err) < 0 ? output_error(&err) : 0;
        if (parse_opts(argc - 1, argv + 1, positional, &o, &err) < 0)
                return output_error(&err);
        int r = !strcmp(verb, "export") ? export(&o, &err)
                : !strcmp(verb, "show") ? show(&o, &err)
                                        : explain(&o, &err);
        return r < 0 ? output_error(&err) : 0;
}
