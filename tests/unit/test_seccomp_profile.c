/* test_seccomp_profile - every error of the seccomp profile parser (runtime/seccomp/
 * seccomp_profile.c) names the file and line, and says what was expected; a profile that parses
 * gives the rules it says. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/seccomp.h>
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
                "t.profile:2: a rule starts with an action (allow, errno NAME, kill, "
                "kill-thread, trap or log), not 'deny'",
                "unknown action");
        refused(HEAD "[errno]\nread\n",
                "t.profile:2: a rule starts with an action (allow, errno NAME, kill, "
                "kill-thread, trap or log), not 'errno'",
                "errno without a name");
        refused(HEAD "[KILL]\nread\n",
                "t.profile:2: a rule starts with an action (allow, errno NAME, kill, "
                "kill-thread, trap or log), not 'KILL'",
                "an action in capitals");
        refused(HEAD "[kill-process]\nread\n",
                "t.profile:2: a rule starts with an action (allow, errno NAME, kill, "
                "kill-thread, trap or log), not 'kill-process'",
                "libseccomp's name for kill");
        refused(HEAD "[errno 1]\nread\n", "t.profile:2: unknown errno '1'", "an errno by number");
        refused(HEAD "[kill EPERM]\nread\n",
                "t.profile:2: unexpected 'EPERM' in a rule header (expected 'if' or 'when')",
                "an errno after kill");
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
        /* show and explain print an arch name back: a control character is no name */
        refused(HEAD "[allow when arch \033[2Jx86_64]\nread\n",
                "t.profile:2: '\033[2Jx86_64' is not an architecture name", "escape in arch name");
        refused(HEAD "[allow when not arch X86-64]\nread\n",
                "t.profile:2: 'X86-64' is not an architecture name", "arch name not libseccomp's");
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

#define DEFAULT_WANT                                                                               \
        "expected one 'default ACTION' before the rules (ACTION: allow, errno NAME, "              \
        "kill, kill-thread, trap or log)"

static void line_errors(void)
{
        refused("default deny\n", "t.profile:1: " DEFAULT_WANT, "default action unknown");
        refused("default errno EFOO\n", "t.profile:1: " DEFAULT_WANT, "default errno unknown");
        refused("default errno\n", "t.profile:1: " DEFAULT_WANT, "default errno without a name");
        refused("default allow EPERM\n", "t.profile:1: " DEFAULT_WANT,
                "a word after the default's action");
        refused("default errno EPERM EACCES\n", "t.profile:1: " DEFAULT_WANT,
                "two errnos for the default");
        refused("default errno 4096\n", "t.profile:1: " DEFAULT_WANT, "an errno by number");
        refused(HEAD HEAD, "t.profile:2: " DEFAULT_WANT, "default twice");
        refused(HEAD "default allow\n", "t.profile:2: " DEFAULT_WANT,
                "a second default of another action");
        refused("base default\ndefault allow\n", "t.profile:2: " DEFAULT_WANT,
                "a default after a base (which has one)");
        refused(HEAD "[allow]\nread\ndefault errno EPERM\n", "t.profile:4: " DEFAULT_WANT,
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
                "t.profile:2: expected 'default ACTION', 'base NAME', 'drop NAMES' or a "
                "'[rule]' header",
                "names before any rule");
        refused(HEAD "[allow]\nread Write\n", "t.profile:3: 'Write' is not a system call name",
                "upper case name");
        refused(HEAD "[allow]\nread \"write\n", "t.profile:3: unterminated double quote",
                "a quote in a names line");
        refused("[allow]\nread\n", "t.profile: no 'default ACTION' line",
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
        ok(p.def.act == PROFILE_ERRNO && p.def.errnum == ENOSYS && p.n == 2,
           "default errno and two rules");
        const struct profile_rule *a = &p.rules[0], *b = &p.rules[1];
        ok(a->line == 3 && a->action.act == PROFILE_ERRNO && a->action.errnum == EPERM &&
                   a->nconds == 1 && a->conds[0].op == OP_MASKED_EQ && a->conds[0].mask == 0xff &&
                   a->conds[0].value == 0x10 && a->caps_none && !a->caps_all &&
                   a->kernel_major == 5 && a->kernel_minor == 4 && a->nnames == 2 &&
                   !strcmp(a->names[1], "personality"),
           "the first rule is what its header and names say");
        ok(b->line == 5 && b->action.act == PROFILE_ALLOW && b->nin == 1 &&
                   !strcmp(b->arches_in[0], "x86_64") && b->caps_all && b->nnames == 1,
           "the second rule is what its header and names say");
        profile_free(&p);
}

/* every action, as a default and as a rule's, with its words and kernel value */
static void actions(void)
{
        static const struct {
                const char *words;
                enum profile_act act;
                int errnum;
                uint32_t ret;
        } want[] = {
                {"allow", PROFILE_ALLOW, 0, SECCOMP_RET_ALLOW},
                {"errno EACCES", PROFILE_ERRNO, EACCES, SECCOMP_RET_ERRNO | EACCES},
                {"errno EHWPOISON", PROFILE_ERRNO, EHWPOISON, SECCOMP_RET_ERRNO | EHWPOISON},
                {"kill", PROFILE_KILL, 0, SECCOMP_RET_KILL_PROCESS},
                {"kill-thread", PROFILE_KILL_THREAD, 0, SECCOMP_RET_KILL_THREAD},
                {"trap", PROFILE_TRAP, 0, SECCOMP_RET_TRAP},
                {"log", PROFILE_LOG, 0, SECCOMP_RET_LOG},
        };
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
                char text[256], buf[64];
                struct profile p;
                struct error err;
                /* the default is another action, so that the rule is not the default's */
                snprintf(text, sizeof text, "default %s\n[%s if arg0 == 1]\nread\n", want[i].words,
                         i ? "allow" : "log");
                int r = parse(text, &p, &err);
                ok(r == 0 && p.def.act == want[i].act && p.def.errnum == want[i].errnum &&
                           profile_action_ret(&p.def) == want[i].ret,
                   "'default %s' parses to its action and kernel value%s%s", want[i].words,
                   r ? ": " : "", r ? err.msg : "");
                if (r == 0) {
                        is_str(profile_action_text(&p.def, buf, sizeof buf), want[i].words,
                               "'%s' is written back as it was", want[i].words);
                        profile_free(&p);
                }
                snprintf(text, sizeof text, "default %s\n[%s when cap SYS_ADMIN]\nread\n",
                         i ? "allow" : "log", want[i].words);
                r = parse(text, &p, &err);
                ok(r == 0 && p.n == 1 && p.rules[0].action.act == want[i].act &&
                           p.rules[0].action.errnum == want[i].errnum && p.rules[0].caps_all,
                   "'[%s when cap SYS_ADMIN]' parses to its action and condition%s%s",
                   want[i].words, r ? ": " : "", r ? err.msg : "");
                if (r == 0) {
                        profile_rule_text(&p.rules[0], text, sizeof text);
                        char w[128];
                        snprintf(w, sizeof w, "%s when cap SYS_ADMIN", want[i].words);
                        is_str(text, w, "and its header is written back");
                        profile_free(&p);
                }
        }
        ok(profile_action_lets_through(&(struct profile_action){PROFILE_ALLOW, 0}) &&
                   profile_action_lets_through(&(struct profile_action){PROFILE_LOG, 0}) &&
                   !profile_action_lets_through(&(struct profile_action){PROFILE_KILL, 0}) &&
                   !profile_action_lets_through(&(struct profile_action){PROFILE_TRAP, 0}) &&
                   !profile_action_lets_through(&(struct profile_action){PROFILE_ERRNO, 1}),
           "allow and log let calls through; kill, trap and errno do not");
}

/* every errno name glibc gives (what ociseccomp.c writes) is read back as its number */
static void errno_names(void)
{
        size_t n = 0, good = 0;
        for (int e = 1; e <= PROFILE_MAX_ERRNO; e++) {
                const char *name = strerrorname_np(e);
                char text[128];
                struct profile p;
                struct error err;
                if (!name)
                        continue;
                n++;
                snprintf(text, sizeof text, "default errno %s\n[errno %s]\nread\n",
                         e == EPERM ? "EACCES" : "EPERM", name);
                if (parse(text, &p, &err) == 0) {
                        good += p.n == 1 && p.rules[0].action.act == PROFILE_ERRNO &&
                                p.rules[0].action.errnum == e;
                        profile_free(&p);
                }
        }
        ok(n > 100 && good == n, "all %zu errno names glibc knows parse to their number (%zu do)",
           n, good);
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

        /* a deny-list: a rule of the default's action is passed over, as the compiler does */
        r = parse("default allow\n[errno EACCES if arg0 == 8]\npersonality\n" /* line 2 */
                  "[allow]\npersonality\n"                                    /* line 4 */
                  "[kill]\nuname\n",                                          /* line 6 */
                  &p, &err);
        ok(r == 0, "a deny-list parses%s%s", r ? ": " : "", r ? err.msg : "");
        if (r)
                return;
        d = profile_decide(&p, "personality", eight, 0, "x86_64", 6, 1);
        ok(d && d->line == 2, "an unconditional rule of the default's action does not decide");
        d = profile_decide(&p, "uname", zero, 0, "x86_64", 6, 1);
        ok(d && d->line == 6 && d->action.act == PROFILE_KILL, "a kill rule decides");
        profile_free(&p);
}

int main(void)
{
        header_errors();
        line_errors();
        limit_errors();
        accepted();
        actions();
        errno_names();
        decide();
        return tap_done();
}
