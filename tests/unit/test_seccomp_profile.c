/* test_seccomp_profile - every error of the seccomp profile parser (runtime/seccomp/
 * seccomp_profile.c) names the file and line, and says what was expected; a profile that parses
 * gives the rules it says. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

#include "seccomp/seccomp_profile.h"
#include "../lib/tap.h"

static int parse(const char *text, struct profile *p, struct error *err)
{
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        if (!f)
                return error_set(err, errno, "fmemopen");
        int r = profile_parse(f, "t.profile", p, err);
        fclose(f);
        return r;
}

/* `text` is refused with exactly `want` (the FILE:LINE: prefix included) */
static void refused(const char *text, const char *want, const char *what)
{
        struct profile p = {0};
        struct error err;
        error_clear(&err);
        int r = parse(text, &p, &err);
        ok(r == -1 && p.rules == NULL, "%s: refused", what);
        is_str(err.msg, want, "%s: the message", what);
        if (r == 0)
                profile_free(&p);
}

#define HEAD "default errno EPERM\n"

static void header_errors(void)
{
        refused(HEAD "[allow\nread\n", "t.profile:2: missing ']' in rule header",
                "unclosed header");
        refused(HEAD "[ ]\nread\n", "t.profile:2: empty rule header", "empty header");
        refused(HEAD "[allow 'if]\nread\n", "t.profile:2: unterminated single quote",
                "a quote in a header");
        refused(HEAD "[errno EFOO]\nread\n", "t.profile:2: unknown errno 'EFOO'", "unknown errno");
        refused(HEAD "[deny]\nread\n",
                "t.profile:2: a rule starts with 'allow' or 'errno NAME', not 'deny'",
                "unknown action");
        refused(HEAD "[errno]\nread\n",
                "t.profile:2: a rule starts with 'allow' or 'errno NAME', not 'errno'",
                "errno without a name");
        refused(HEAD "[allow if arg6 == 1]\nread\n",
                "t.profile:2: expected 'if argN OP VALUE' (N from 0 to 5)", "argument 6");
        refused(HEAD "[allow if arg0 ==]\nread\n",
                "t.profile:2: expected 'if argN OP VALUE' (N from 0 to 5)", "no value");
        refused(HEAD "[allow if arg0 == 1 if arg1 == 1 if arg2 == 1 if arg3 == 1 if arg4 == 1 "
                     "if arg5 == 1 if arg0 == 2]\nread\n",
                "t.profile:2: expected 'if argN OP VALUE' (N from 0 to 5)", "seven conditions");
        refused(HEAD "[allow if arg0 & 0x1 != 1]\nread\n",
                "t.profile:2: expected 'if argN & MASK == VALUE'", "mask with !=");
        refused(HEAD "[allow if arg0 =~ 1]\nread\n",
                "t.profile:2: expected 'if argN OP VALUE' with OP one of == != < <= > >=",
                "unknown operator");
        refused(HEAD "[allow if arg0 == -1]\nread\n",
                "t.profile:2: expected 'if argN OP VALUE' with OP one of == != < <= > >=",
                "negative value");
        refused(HEAD "[allow when]\nread\n", "t.profile:2: 'when' needs 'cap', 'arch' or 'kernel'",
                "bare when");
        refused(HEAD "[allow when cap]\nread\n", "t.profile:2: 'when cap' needs a value",
                "when cap without names");
        refused(HEAD "[allow when cap NOT_A_CAP]\nread\n",
                "t.profile:2: unknown capability 'NOT_A_CAP'", "unknown capability");
        refused(HEAD "[allow when arch a_name_of_sixteen]\nread\n",
                "t.profile:2: too many or too long architecture names", "long arch name");
        refused(HEAD "[allow when not arch a b c d e f g h i]\nread\n",
                "t.profile:2: too many or too long architecture names", "nine arches");
        refused(HEAD "[allow when kernel 5.4]\nread\n",
                "t.profile:2: expected 'when [not] cap NAMES', 'when [not] arch NAMES' or "
                "'when kernel >= X.Y'",
                "kernel without >=");
        refused(HEAD "[allow when not kernel >= 5.4]\nread\n",
                "t.profile:2: expected 'when [not] cap NAMES', 'when [not] arch NAMES' or "
                "'when kernel >= X.Y'",
                "when not kernel");
        refused(HEAD "[allow unless cap SYS_ADMIN]\nread\n",
                "t.profile:2: unexpected 'unless' in a rule header (expected 'if' or 'when')",
                "unknown word");
}

static void line_errors(void)
{
        refused("default allow\n",
                "t.profile:1: expected one 'default errno NAME' before the rules",
                "default action not errno");
        refused("default errno EFOO\n",
                "t.profile:1: expected one 'default errno NAME' before the rules",
                "default errno unknown");
        refused(HEAD HEAD, "t.profile:2: expected one 'default errno NAME' before the rules",
                "default twice");
        refused(HEAD "[allow]\nread\ndefault errno EPERM\n",
                "t.profile:4: expected one 'default errno NAME' before the rules",
                "default after a rule");
        refused(HEAD "[allow]\nread\nbase default\n", "t.profile:4: 'base' must come first, once",
                "base after a rule");
        refused("base no-such-profile\n",
                "t.profile:1: base: no built-in seccomp profile 'no-such-profile'", "unknown base");
        refused("base default\n[allow]\nread\ndrop write\n",
                "t.profile:4: 'drop' must come before this profile's own rules", "late drop");
        refused("base default\ndrop no_such_call\n",
                "t.profile:2: drop: 'no_such_call' is in no rule of the base profile",
                "drop of a name not in the base");
        refused("base default\ndrop Read\n", "t.profile:2: 'Read' is not a system call name",
                "drop of a bad name");
        refused(HEAD "read\n",
                "t.profile:2: expected 'default errno NAME', 'base NAME', 'drop NAMES' or a "
                "'[rule]' header",
                "names before any rule");
        refused(HEAD "[allow]\nread Write\n", "t.profile:3: 'Write' is not a system call name",
                "upper case name");
        refused(HEAD "[allow]\nread \"write\n", "t.profile:3: unterminated double quote",
                "a quote in a names line");
        refused("[allow]\nread\n", "t.profile: no 'default errno NAME' line",
                "no default (no line: the whole file)");
        refused(HEAD "[allow]\nread\n[allow]\n# nothing\n",
                "t.profile:4: rule without system calls", "a rule without names");
}

static void limit_errors(void)
{
        /* PROFILE_MAX_NAMES in one rule: two lines of 600 (a line holds at most 1024 words) */
        size_t len = 64 + 2 * 600 * 8;
        char *text = malloc(len), *t = text;
        t += sprintf(t, HEAD "[allow]\n");
        for (int l = 0; l < 2; l++) {
                for (int i = 0; i < 600; i++)
                        t += sprintf(t, "c%d ", l * 600 + i);
                t += sprintf(t, "\n");
        }
        refused(text, "t.profile:4: too many names in one rule", "1200 names in a rule");
        free(text);

        /* PROFILE_MAX_RULES */
        text = malloc(64 + (PROFILE_MAX_RULES + 1) * 16);
        t = text;
        t += sprintf(t, HEAD);
        for (int i = 0; i <= PROFILE_MAX_RULES; i++)
                t += sprintf(t, "[allow]\nread\n");
        char want[128];
        snprintf(want, sizeof want, "t.profile:%d: more than %d rules", 2 + 2 * PROFILE_MAX_RULES,
                 PROFILE_MAX_RULES);
        refused(text, want, "one rule too many");
        free(text);
}

/* the same parser accepts what the format allows, with what it says */
static void accepted(void)
{
        struct profile p;
        struct error err;
        int r = parse("# comment\ndefault errno ENOSYS  # trailing comment\n"
                      "[errno EPERM if arg0 & 0xff == 0x10 when not cap SYS_ADMIN when kernel >= "
                      "5.4]\n"
                      "  ptrace personality\n"
                      "[allow when arch x86_64 when cap SYS_PTRACE]\nprocess_vm_readv\n",
                      &p, &err);
        ok(r == 0, "a profile with every kind of clause parses%s%s", r ? ": " : "",
           r ? err.msg : "");
        if (r)
                return;
        ok(p.default_errno == ENOSYS && p.n == 2, "default errno and two rules");
        const struct profile_rule *a = &p.rules[0], *b = &p.rules[1];
        ok(a->line == 3 && !a->allow && a->errnum == EPERM && a->nconds == 1 &&
                   a->conds[0].op == OP_MASKED_EQ && a->conds[0].mask == 0xff &&
                   a->conds[0].value == 0x10 && a->caps_none && !a->caps_all &&
                   a->kernel_major == 5 && a->kernel_minor == 4 && a->nnames == 2 &&
                   !strcmp(a->names[1], "personality"),
           "the first rule is what its header and names say");
        ok(b->line == 5 && b->allow && b->nin == 1 && !strcmp(b->arches_in[0], "x86_64") &&
                   b->caps_all && b->nnames == 1,
           "the second rule is what its header and names say");
        profile_free(&p);
}

/* which rule decides a call: the one `crib seccomp explain` names */
static void decide(void)
{
        struct profile p;
        struct error err;
        const uint64_t zero[6] = {0}, eight[6] = {8};
        int r = parse(HEAD "[allow if arg0 == 8]\npersonality\n"        /* line 2 */
                           "[errno EINVAL if arg0 < 16]\npersonality\n" /* line 4 */
                           "[allow when cap SYS_ADMIN]\npersonality\n"  /* line 6 */
                           "[allow when arch aarch64]\nchroot\n",       /* line 8 */
                      &p, &err);
        ok(r == 0, "the decision profile parses%s%s", r ? ": " : "", r ? err.msg : "");
        if (r)
                return;
        const struct profile_rule *d = profile_decide(&p, "personality", eight, 0, "x86_64", 6, 1);
        ok(d && d->line == 2, "the first rule whose conditions hold decides");
        d = profile_decide(&p, "personality", zero, 0, "x86_64", 6, 1);
        ok(d && d->line == 4, "a rule whose conditions fail does not");
        d = profile_decide(&p, "personality", eight, 1ULL << 21 /* CAP_SYS_ADMIN */, "x86_64", 6,
                           1);
        ok(d && d->line == 6, "an unconditional rule that applies wins over conditional ones");
        ok(profile_decide(&p, "chroot", zero, 0, "x86_64", 6, 1) == NULL,
           "a rule for another architecture does not decide: the default action does");
        d = profile_decide(&p, "chroot", zero, 0, "aarch64", 6, 1);
        ok(d && d->line == 8, "on its architecture it does");
        ok(profile_decide(&p, "read", zero, 0, "x86_64", 6, 1) == NULL, "a call no rule names");
        profile_free(&p);
}

int main(void)
{
        header_errors();
        line_errors();
        limit_errors();
        accepted();
        decide();
        return tap_done();
}
