/* ociseccomp.c - config.json's .linux.seccomp (seccomp(2) filters in libseccomp's terms: actions,
 * syscall names, argument comparisons) translated into the text of a crib seccomp profile,
 * which plan.c compiles as it compiles any profile; see oci.h.
 *
 * Only what crib's profile language says exactly is taken: the actions allow, errno, kill
 * (process or thread), trap and log, as the default or a rule's, and the comparisons of
 * libseccomp. SCMP_ACT_NOTIFY (a listener to hand calls to, which crib does not run) and
 * SCMP_ACT_TRACE (a ptrace tracer, which crib does not attach: every such call would fail with
 * ENOSYS), an unknown action, a listener or a flag that would weaken the filter is an error
 * naming its path.
 *
 * What goes into the text is the parser's input, from a config crib did not write: every piece
 * is one of a fixed set of words (actions, operators), a number crib prints itself, an errno
 * name from strerrorname_np() or a system call name checked character by character, so that no
 * string of the config can add a line or a word to the profile.
 */
#define _GNU_SOURCE
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"

/* libseccomp's action `name` (the one at path p.key) as crib's profile words into `out`; the
 * errno from `errkey` (errnoRet, defaultErrnoRet; EPERM when absent, as runc). */
static int seccomp_action(struct oci_ctx *c, json_object *obj, const char *p, const char *key,
                          const char *errkey, FILE *out)
{
        static const char *const acts[][2] = {
                {"SCMP_ACT_ALLOW", "allow"},
                {"SCMP_ACT_KILL", "kill-thread"}, /* libseccomp's KILL kills the thread */
                {"SCMP_ACT_KILL_THREAD", "kill-thread"},
                {"SCMP_ACT_KILL_PROCESS", "kill"},
                {"SCMP_ACT_TRAP", "trap"},
                {"SCMP_ACT_LOG", "log"},
        };
        const char *name;
        char q[PATHLEN];
        if (oci_get_str(c, obj, p, key, &name) < 0)
                return -1;
        oci_sub(q, p, key);
        if (!name)
                return oci_bad(c, q, "is missing");
        if (!strcmp(name, "SCMP_ACT_ERRNO")) {
                int64_t e = EPERM;
                /* 4095: what the profile parser takes (PROFILE_MAX_ERRNO) by the same
                 * strerrorname_np() name */
                if (oci_get_int(c, obj, p, errkey, 1, 4095, &e) < 0)
                        return -1;
                const char *en = strerrorname_np((int)e);
                if (!en) {
                        oci_sub(q, p, errkey);
                        return oci_bad(c, q, "%lld is not an errno crib knows", (long long)e);
                }
                fprintf(out, "errno %s", en);
                return 0;
        }
        for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
                if (!strcmp(name, acts[i][0])) {
                        fputs(acts[i][1], out);
                        return 0;
                }
        if (!strcmp(name, "SCMP_ACT_NOTIFY"))
                return oci_bad(c, q,
                               "crib cannot honour 'SCMP_ACT_NOTIFY': it runs no seccomp "
                               "listener to hand the calls to");
        if (!strcmp(name, "SCMP_ACT_TRACE"))
                return oci_bad(c, q,
                               "crib cannot honour 'SCMP_ACT_TRACE': it attaches no tracer, "
                               "so every such call would fail with ENOSYS");
        return oci_bad(c, q, "'%s' is not a libseccomp action crib knows", name);
}

/* One condition of a rule, b its path: " if argN OP VALUE" */
static int seccomp_arg(struct oci_ctx *c, json_object *e, const char *b, FILE *out)
{
        int64_t index;
        uint64_t value = 0, two = 0;
        const char *op;
        char d[PATHLEN];
        int r;
        if (oci_want(c, e, b, json_type_object, "an object") < 0 ||
            (r = oci_get_int(c, e, b, "index", 0, 5, &index)) < 0 ||
            oci_get_str(c, e, b, "op", &op) < 0)
                return -1;
        if (!r)
                return oci_bad(c, b, "needs an index");
        oci_sub(d, b, "value");
        if (oci_member(e, "value") && oci_as_u64(c, oci_member(e, "value"), d, &value) < 0)
                return -1;
        oci_sub(d, b, "valueTwo");
        if (oci_member(e, "valueTwo") && oci_as_u64(c, oci_member(e, "valueTwo"), d, &two) < 0)
                return -1;
        static const char *const ops[][2] = {{"SCMP_CMP_EQ", "=="}, {"SCMP_CMP_NE", "!="},
                                             {"SCMP_CMP_LT", "<"},  {"SCMP_CMP_LE", "<="},
                                             {"SCMP_CMP_GT", ">"},  {"SCMP_CMP_GE", ">="}};
        const char *sym = NULL;
        for (size_t k = 0; op && k < sizeof ops / sizeof ops[0]; k++)
                if (!strcmp(op, ops[k][0]))
                        sym = ops[k][1];
        if (sym)
                fprintf(out, " if arg%d %s %llu", (int)index, sym, (unsigned long long)value);
        else if (op && !strcmp(op, "SCMP_CMP_MASKED_EQ"))
                fprintf(out, " if arg%d & %llu == %llu", (int)index, (unsigned long long)value,
                        (unsigned long long)two);
        else {
                oci_sub(d, b, "op");
                return oci_bad(c, d, "'%s' is not a libseccomp comparison", op ? op : "(none)");
        }
        return 0;
}

static int seccomp_rule(struct oci_ctx *c, json_object *rule, const char *p, FILE *out)
{
        char q[PATHLEN];
        json_object *names, *args;
        if (oci_want(c, rule, p, json_type_object, "an object") < 0)
                return -1;
        int r = oci_get_strings(c, rule, p, "names", 1024, &names);
        oci_sub(q, p, "names");
        if (r < 0)
                return -1;
        if (!r || !json_object_array_length(names))
                return oci_bad(c, q, "is missing or empty");
        fputc('[', out);
        if (seccomp_action(c, rule, p, "action", "errnoRet", out) < 0)
                return -1;
        if ((args = oci_member(rule, "args"))) {
                char a[PATHLEN];
                oci_sub(a, p, "args");
                if (oci_want(c, args, a, json_type_array, "a list") < 0)
                        return -1;
                size_t n = json_object_array_length(args);
                if (n > 6)
                        return oci_bad(c, a, "has %zu conditions; crib takes at most 6", n);
                for (size_t i = 0; i < n; i++) {
                        char b[PATHLEN];
                        oci_idx(b, a, i);
                        if (seccomp_arg(c, json_object_array_get_idx(args, i), b, out) < 0)
                                return -1;
                }
        }
        fputs("]\n", out);
        for (size_t i = 0; i < json_object_array_length(names); i++) {
                const char *n = json_object_get_string(json_object_array_get_idx(names, i));
                bool ok = n[0] && strlen(n) < 64;
                for (const char *x = n; ok && *x; x++)
                        ok = islower((unsigned char)*x) || isdigit((unsigned char)*x) || *x == '_';
                if (!ok) {
                        char w[PATHLEN];
                        oci_sub(q, p, "names");
                        oci_idx(w, q, i);
                        return oci_bad(c, w, "'%s' is not a system call name", n);
                }
                fprintf(out, "%s\n", n);
        }
        return 0;
}

int oci_seccomp(struct oci_ctx *c, json_object *lx)
{
        json_object *sc = oci_member(lx, "seccomp"), *flags, *arches, *rules;
        const char *listener;
        const char *p = ".linux.seccomp";
        oci_set_from(c->s, SPEC_KEY_SECURITY_SECCOMP);
        if (!sc)
                return 0; /* none asked for: none (the OCI spec's meaning) */
        if (oci_want(c, sc, p, json_type_object, "an object") < 0 ||
            oci_get_str(c, sc, p, "listenerPath", &listener) < 0 ||
            oci_get_strings(c, sc, p, "flags", 16, &flags) < 0 ||
            oci_get_strings(c, sc, p, "architectures", 32, &arches) < 0)
                return -1;
        if (listener && listener[0])
                return oci_bad(c, ".linux.seccomp.listenerPath",
                               "crib has no seccomp notify support (it runs no listener)");
        for (size_t i = 0; flags && i < json_object_array_length(flags); i++) {
                const char *f = json_object_get_string(json_object_array_get_idx(flags, i));
                /* the filter is as strict without them (SPEC_ALLOW would turn a mitigation off) */
                if (strcmp(f, "SECCOMP_FILTER_FLAG_TSYNC") &&
                    strcmp(f, "SECCOMP_FILTER_FLAG_LOG") &&
                    strcmp(f, "SECCOMP_FILTER_FLAG_SPEC_ALLOW")) {
                        char q[PATHLEN];
                        oci_idx(q, ".linux.seccomp.flags", i);
                        return oci_bad(c, q, "crib cannot honour '%s'", f);
                }
        }
        char *text = NULL;
        size_t len = 0;
        _cleanup_fclose_ FILE *out = open_memstream(&text, &len);
        if (!out)
                return oci_nomem(c);
        fputs("default ", out);
        int r = seccomp_action(c, sc, p, "defaultAction", "defaultErrnoRet", out);
        fputc('\n', out);
        if (r == 0 && (rules = oci_member(sc, "syscalls"))) {
                if (oci_want(c, rules, ".linux.seccomp.syscalls", json_type_array, "a list") < 0)
                        r = -1;
                else if (json_object_array_length(rules) > 256)
                        r = oci_bad(c, ".linux.seccomp.syscalls", "has more than 256 rules");
                for (size_t i = 0; r == 0 && i < json_object_array_length(rules); i++) {
                        char q[PATHLEN];
                        oci_idx(q, ".linux.seccomp.syscalls", i);
                        r = seccomp_rule(c, json_object_array_get_idx(rules, i), q, out);
                }
        }
        fclose(steal_ptr(&out));
        if (r < 0) {
                free(text);
                return -1;
        }
        c->s->seccomp_text = text;
        c->s->seccomp_require = true;
        oci_set_from(c->s, SPEC_KEY_SECURITY_SECCOMP_MODE);
        return 0;
}
