/* seccomp_profile.h - crib's seccomp profile format: text in, rule list out (pure).
 *
 * The format is described at the top of profiles/seccomp/default. A rule is an action, argument
 * conditions, requirements on the container (capabilities in the bounding set, the native
 * architecture, the kernel version), and the system call names it covers.
 */
#ifndef CRIB_SECCOMP_PROFILE_H
#define CRIB_SECCOMP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

#define PROFILE_MAX_RULES  256
#define PROFILE_MAX_NAMES  1024 /* per rule */
#define PROFILE_MAX_ARCHES 8

enum profile_op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_MASKED_EQ };

struct profile_cond {
        unsigned arg; /* 0..5 */
        enum profile_op op;
        uint64_t value, mask;
};

struct profile_rule {
        unsigned line;
        bool allow;
        int errnum; /* when !allow */
        struct profile_cond conds[6];
        size_t nconds;
        uint64_t caps_all, caps_none; /* "when cap", "when not cap" */
        char arches_in[PROFILE_MAX_ARCHES][16], arches_out[PROFILE_MAX_ARCHES][16];
        size_t nin, nout;
        unsigned kernel_major, kernel_minor; /* "when kernel >=", 0.0 when none */
        char **names;
        size_t nnames;
};

struct profile {
        int default_errno;
        struct profile_rule *rules;
        size_t n;
};

/* Parse a profile; `name` names it in FILE:LINE errors. `base NAME` loads a built-in profile. */
int profile_parse(FILE *f, const char *name, struct profile *ret, struct error *err);
/* Parse a built-in profile (profiles/seccomp/NAME); NULL-safe error when there is none. */
int profile_builtin(const char *name, struct profile *ret, struct error *err);
const char *profile_builtin_text(const char *name);
void profile_free(struct profile *p);

/* Does the rule apply to a container with bounding set `caps` on native arch `arch`
 * (libseccomp name) and kernel major.minor? */
bool profile_rule_applies(const struct profile_rule *r, uint64_t caps, const char *arch,
                          unsigned kmajor, unsigned kminor);
/* The capabilities the profile's rules test ("when [not] cap"): a program depends on the
 * bounding set only through its intersection with these. */
uint64_t profile_caps_mentioned(const struct profile *p);
/* The distinct "when kernel >= X.Y" versions, ascending, at most `max` (more than `max`
 * returned: there are more): a program depends on the kernel only through how many of them it
 * reaches. */
size_t profile_kernel_thresholds(const struct profile *p, unsigned ret[][2], size_t max);
/* Does the call's argument vector satisfy every condition of the rule? */
bool profile_rule_matches(const struct profile_rule *r, const uint64_t args[6]);
/* Does the rule name system call `syscall`? */
bool profile_rule_names(const struct profile_rule *r, const char *syscall);
/* The rule that decides `syscall` with arguments `args` for a container with bounding set
 * `caps` on `arch`, kernel kmajor.kminor: among the rules that name it, apply and whose
 * conditions hold, an unconditional one, else the first. NULL: no rule does, the default
 * action (or the ENOSYS guard) answers. */
const struct profile_rule *profile_decide(const struct profile *p, const char *syscall,
                                          const uint64_t args[6], uint64_t caps, const char *arch,
                                          unsigned kmajor, unsigned kminor);
/* Text of one rule's header, as the format writes it ("allow if arg0 < 38 when cap X"). */
void profile_rule_text(const struct profile_rule *r, char *buf, size_t len);

#endif
