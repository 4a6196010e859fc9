/* seccomp-gen - compile the built-in seccomp profiles at build time, for the target's arch.
 *
 *   seccomp-gen ARCH LEVEL PROFILE... > seccomp-programs.h
 *
 * Runs on the build host (the Makefile builds it with the host's compiler and libseccomp, so a
 * cross build works) and writes C for runtime/seccomp/seccomp_builtin.c: for each built-in PROFILE
 * (profiles/seccomp/, embedded through seccomp-data.h), the programs crib's own
 * seccomp_compile() makes for architecture ARCH (a libseccomp name: x86_64, aarch64, arm, ...).
 *
 * A compiled program depends on the container only through (profile_rule_applies) the bounding
 * set's intersection with the capabilities the rules test, and how many of the profile's
 * "when kernel >= X.Y" thresholds the kernel reaches. Embedded, for every threshold count:
 *   - the bounding set of the security level file LEVEL (`capabilities =`, the default level),
 *   - no capability (the strict level, or `capabilities = none`),
 *   - LEVEL's set plus any one capability a rule tests (`capabilities = default +SYS_PTRACE`).
 * Identical programs are written once. Any other key is compiled when a container starts.
 *
 * And, for each PROFILE, the "known" program: the profile resolved (profile_resolve) for
 * LEVEL's bounding set with every kernel threshold reached, which is what an engine writes into
 * config.json for its default (profiles/seccomp/default is Docker's profile rule for rule, and
 * LEVEL's set Docker's default capabilities), with its canonical form (profile_canonical). An
 * OCI `create` whose profile has that form gets this program (seccomp_builtin.c).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/capname.h"
#include "seccomp/seccomp.h"
#include "seccomp/seccomp_profile.h"

#define MAX_THRESHOLDS 8
#define MAX_PROGRAMS   1024

struct out {
        const char *profile;
        uint64_t caps;
        unsigned level, kmaj, kmin;
        size_t prog; /* index into progs */
};

static struct seccomp_program progs[MAX_PROGRAMS];
static size_t nprogs;
static struct out outs[MAX_PROGRAMS];
static size_t nouts;

struct known {
        const char *profile, *origin, *source;
        uint64_t caps;
        unsigned kmaj, kmin;
        char *canonical;
        size_t len;
        size_t prog;
};
static struct known knowns[16];
static size_t nknowns;

static int die(const char *what, const char *detail)
{
        fprintf(stderr, "seccomp-gen: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
        exit(1);
}

/* The `capabilities =` line of a level file: names, or "none". */
static uint64_t level_caps(const char *path)
{
        char line[4096];
        uint64_t caps = 0;
        bool found = false;
        FILE *f = fopen(path, "re");
        if (!f)
                die("cannot open the level file", path);
        while (fgets(line, sizeof line, f)) {
                char *s = line + strspn(line, " \t"), *save;
                if (strncmp(s, "capabilities", 12) || !strchr(s, '='))
                        continue;
                found = true;
                for (char *w = strtok_r(strchr(s, '=') + 1, " \t\n", &save); w;
                     w = strtok_r(NULL, " \t\n", &save)) {
                        if (!strcmp(w, "none"))
                                continue;
                        int v = capname_parse(w);
                        if (v < 0)
                                die("unknown capability in the level file", w);
                        caps |= 1ULL << v;
                }
        }
        fclose(f);
        if (!found)
                die("no 'capabilities =' line in", path);
        return caps;
}

static size_t keep(const struct seccomp_program *p)
{
        for (size_t i = 0; i < nprogs; i++)
                if (progs[i].n == p->n && progs[i].unfolded == p->unfolded &&
                    !memcmp(progs[i].insns, p->insns, p->n * sizeof *p->insns))
                        return i;
        if (nprogs == MAX_PROGRAMS)
                die("too many programs", NULL);
        progs[nprogs] = *p;
        return nprogs++;
}

/* The profile p as an engine resolves it for bounding set caps, on a kernel that reaches every
 * threshold, and its canonical form: what an OCI config carries for the engine's default. origin
 * and source: where a profile that is not built in came from, and its text (for `crib seccomp
 * builtin --check`); NULL for a built-in profile. -1 with *why set when it cannot be made. */
static int add_known(const char *name, const char *origin, const char *source,
                     const struct profile *p, uint64_t caps, const char *arch, const char **why)
{
        unsigned t[MAX_THRESHOLDS][2];
        struct seccomp_program prog;
        static struct error err; /* *why may point at its message */
        size_t nt = profile_kernel_thresholds(p, t, MAX_THRESHOLDS);
        struct known *k = &knowns[nknowns];
        if (nt > MAX_THRESHOLDS)
                return *why = "too many kernel thresholds", -1;
        if (nknowns == sizeof knowns / sizeof knowns[0])
                return *why = "too many known profiles", -1;
        unsigned kmaj = nt ? t[nt - 1][0] : 0, kmin = nt ? t[nt - 1][1] : 0;
        if (seccomp_known_make(p, caps, arch, kmaj, kmin, &k->canonical, &k->len, &prog, &err) < 0)
                return *why = err.msg, -1;
        k->prog = keep(&prog);
        if (progs[k->prog].insns != prog.insns)
                seccomp_program_free(&prog);
        k->profile = name;
        k->origin = origin;
        k->source = source;
        k->caps = caps;
        k->kmaj = kmaj;
        k->kmin = kmin;
        nknowns++;
        return 0;
}

/* The line after the one `l` is in, or NULL after the last. */
static const char *next_line(const char *l)
{
        const char *nl = strchr(l, '\n');
        return nl ? nl + 1 : NULL;
}

/* --known NAME ORIGIN FILE: a profile that is not built in (podman's, made from its package's
 * JSON by tools/seccomp-json2crib), known as the engine resolves it for each set of
 * capabilities a "# capabilities = ..." line names. An empty FILE (the build host has no such
 * profile) adds nothing; one that crib's parser or libseccomp refuses is left out with a warning,
 * never failing the build: its containers' profiles are then compiled at create, as any other. */
static void known_file(const char *name, const char *origin, const char *path, const char *arch)
{
        struct profile p;
        struct error err;
        char *text = NULL;
        const char *why = NULL;
        size_t cap = 0, nsets = 0, added = 0;
        uint64_t sets[4];
        FILE *f = fopen(path, "re");
        if (!f)
                die("cannot open", path);
        ssize_t len = getdelim(&text, &cap, '\0', f); /* the whole file */
        fclose(f);
        if (len <= 0) {
                free(text);
                return;
        }
        /* each "# capabilities = NAME..." line: a set the engine may resolve it for */
        for (const char *l = text; l && !why; l = next_line(l)) {
                if (strncmp(l, "# capabilities =", 16))
                        continue;
                if (nsets == sizeof sets / sizeof sets[0]) {
                        why = "too many '# capabilities =' lines";
                        break;
                }
                char words[4096], *save;
                snprintf(words, sizeof words, "%.*s", (int)strcspn(l + 16, "\n"), l + 16);
                sets[nsets] = 0;
                for (char *w = strtok_r(words, " \t", &save); w && !why;
                     w = strtok_r(NULL, " \t", &save)) {
                        int c = capname_parse(w);
                        if (c < 0)
                                why = "an unknown capability on its '# capabilities =' line";
                        else
                                sets[nsets] |= 1ULL << c;
                }
                nsets++;
        }
        if (!why && !nsets)
                why = "no '# capabilities =' line";
        if (!why) {
                FILE *m = fmemopen(text, (size_t)len, "r");
                bool parsed = m && profile_parse(m, path, &p, &err) == 0;
                if (m)
                        fclose(m);
                if (!parsed)
                        why = m ? err.msg : "cannot read it";
                else {
                        /* the source is kept beside every program made of it (the one
                         * literal, which the compiler writes once) */
                        for (size_t i = 0; i < nsets && !why; i++)
                                added +=
                                        add_known(name, origin, text, &p, sets[i], arch, &why) == 0;
                        profile_free(&p);
                }
        }
        if (why)
                fprintf(stderr,
                        "seccomp-gen: warning: %s (%s) is left out of crib: %s; containers "
                        "that carry it have it compiled at create\n",
                        origin, path, why);
        if (!added)
                free(text);
}

/* s[0..len) as a C string literal, a line of the source a line of the literal; NULL as NULL */
static void print_string(const char *s, size_t len)
{
        if (!s) {
                printf("NULL");
                return;
        }
        putchar('"');
        for (size_t j = 0; j < len; j++) {
                unsigned char ch = (unsigned char)s[j];
                if (ch == '\n')
                        printf(j + 1 < len ? "\\n\"\n         \"" : "\\n");
                else if (ch == '"' || ch == '\\')
                        printf("\\%c", ch);
                else if (ch >= 0x20 && ch < 0x7f)
                        putchar(ch);
                else
                        printf("\\%03o", ch);
        }
        putchar('"');
}

static void generate(const char *name, const char *arch, uint64_t level)
{
        struct profile p;
        struct error err;
        unsigned t[MAX_THRESHOLDS][2];
        uint64_t sets[66];
        size_t nsets = 0;

        if (profile_builtin(name, &p, &err) < 0)
                die(err.msg, NULL);
        uint64_t mentioned = profile_caps_mentioned(&p);
        size_t nt = profile_kernel_thresholds(&p, t, MAX_THRESHOLDS);
        if (nt > MAX_THRESHOLDS)
                die("too many kernel thresholds in profile", name);
        sets[nsets++] = level & mentioned;
        if (level & mentioned)
                sets[nsets++] = 0;
        for (int c = 0; c < 64; c++)
                if ((mentioned & ~level) & (1ULL << c))
                        sets[nsets++] = (level & mentioned) | (1ULL << c);
        for (size_t s = 0; s < nsets; s++)
                for (unsigned k = 0; k <= nt; k++) {
                        struct seccomp_program prog;
                        unsigned kmaj = k ? t[k - 1][0] : 0, kmin = k ? t[k - 1][1] : 0;
                        if (seccomp_compile(&p, arch, sets[s], kmaj, kmin, &prog, &err) < 0)
                                die(err.msg, name);
                        size_t i = keep(&prog);
                        if (progs[i].insns != prog.insns)
                                seccomp_program_free(&prog);
                        if (nouts == MAX_PROGRAMS)
                                die("too many programs", NULL);
                        outs[nouts++] = (struct out){name, sets[s], k, kmaj, kmin, i};
                }
        printf("        {\"%s\", %#llxULL, %zu, {", name, (unsigned long long)mentioned, nt);
        for (size_t i = 0; i < nt; i++)
                printf("%s{%u, %u}", i ? ", " : "", t[i][0], t[i][1]);
        printf("}},\n");

        const char *why;
        if (add_known(name, NULL, NULL, &p, level, arch, &why) < 0)
                die(why, name);
        profile_free(&p);
}

int main(int argc, char **argv)
{
        if (argc < 4)
                die("usage: seccomp-gen ARCH LEVEL-FILE PROFILE... > seccomp-programs.h", NULL);
        const char *arch = argv[1];
        if (!seccomp_arch_known(arch))
                die("unknown architecture", arch);
        uint64_t level = level_caps(argv[2]);

        printf("/* generated by tools/seccomp-gen for %s from profiles/seccomp/ and %s */\n\n",
               arch, argv[2]);
        printf("static const struct builtin_profile builtin_profiles[] = {\n");
        int a = 3;
        for (; a < argc && strcmp(argv[a], "--known"); a++)
                generate(argv[a], arch, level);
        printf("};\n\n");
        for (; a < argc; a += 4) {
                if (a + 3 >= argc || strcmp(argv[a], "--known"))
                        die("usage: ... --known NAME ORIGIN FILE", NULL);
                known_file(argv[a + 1], argv[a + 2], argv[a + 3], arch);
        }
        for (size_t i = 0; i < nprogs; i++) {
                printf("static const struct sock_filter builtin_prog_%zu[%zu] = {\n", i,
                       progs[i].n);
                for (size_t j = 0; j < progs[i].n; j++) {
                        const struct sock_filter *f = &progs[i].insns[j];
                        printf("        {%#06x, %u, %u, %#010x},\n", f->code, f->jt, f->jf, f->k);
                }
                printf("};\n\n");
        }
        printf("static const struct seccomp_builtin builtin_programs[] = {\n");
        for (size_t i = 0; i < nouts; i++) {
                const struct out *o = &outs[i];
                printf("        {\"%s\", \"%s\", %#llxULL, %u, %u, %u, builtin_prog_%zu, %zu, "
                       "%zu},\n",
                       o->profile, arch, (unsigned long long)o->caps, o->level, o->kmaj, o->kmin,
                       o->prog, progs[o->prog].n, progs[o->prog].unfolded);
        }
        printf("};\n\n");
        printf("static const struct seccomp_known known_programs[] = {\n");
        for (size_t i = 0; i < nknowns; i++) {
                const struct known *k = &knowns[i];
                printf("        {\"%s\", ", k->profile);
                print_string(k->origin, k->origin ? strlen(k->origin) : 0);
                printf(",\n         ");
                print_string(k->source, k->source ? strlen(k->source) : 0);
                printf(",\n         %#llxULL, %u, %u,\n         ", (unsigned long long)k->caps,
                       k->kmaj, k->kmin);
                print_string(k->canonical, k->len);
                printf(",\n         %zu, \"%s\", builtin_prog_%zu, %zu, %zu},\n", k->len, arch,
                       k->prog, progs[k->prog].n, progs[k->prog].unfolded);
        }
        printf("};\n");
        if (fflush(stdout) != 0)
                die("cannot write the output", NULL);
        return 0;
}
