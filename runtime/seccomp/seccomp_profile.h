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
#define PROFILE_MAX_ERRNO  4095 /* "errno NAME": what SECCOMP_RET_ERRNO can return, as runc */

enum profile_op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_MASKED_EQ };

struct profile_cond {
        unsigned arg; /* 0..5 */
        enum profile_op op;
        uint64_t value, mask;
};

/* What a system call gets: the format's words, the kernel's SECCOMP_RET_* (seccomp(2)). */
enum profile_act {
        PROFILE_ERRNO,       /* "errno NAME": fails with errnum, the kernel does nothing */
        PROFILE_ALLOW,       /* "allow" */
        PROFILE_KILL,        /* "kill": SECCOMP_RET_KILL_PROCESS, SIGSYS to the whole process */
        PROFILE_KILL_THREAD, /* "kill-thread": SECCOMP_RET_KILL_THREAD (libseccomp's KILL) */
        PROFILE_TRAP,        /* "trap": SIGSYS the process may catch */
        PROFILE_LOG,         /* "log": allowed, and logged by the kernel's audit */
};

struct profile_action {
        enum profile_act act;
        int errnum; /* PROFILE_ERRNO: 1..4095; else 0 */
};

struct profile_rule {
        unsigned line;
        struct profile_action action;
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
        struct profile_action def; /* the "default" line: what a call no rule decides gets */
        struct profile_rule *rules;
        size_t n;
};

/* An action from words w[0..n): "allow", "errno NAME" (the names of errno(3) glibc knows),
 * "kill", "kill-thread", "trap", "log". Returns how many words it took, 0 when w[0] is no
 * action, -1 when "errno" has no known name after it (*ret_bad: the word at fault). */
int profile_action_parse(char *const *w, size_t n, struct profile_action *ret,
                         const char **ret_bad);
/* The format's words for it ("errno EPERM"). */
const char *profile_action_text(const struct profile_action *a, char *buf, size_t len);
/* The kernel's return value for it (SECCOMP_RET_*, = libseccomp's SCMP_ACT_*). */
uint32_t profile_action_ret(const struct profile_action *a);
bool profile_action_same(const struct profile_action *a, const struct profile_action *b);
/* Does it let a call through to the kernel (allow, log)? Such a default is a deny-list's: no
 * ENOSYS guard goes in front of it (bpf_guard.c says why). */
bool profile_action_lets_through(const struct profile_action *a);

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
 * conditions hold, an unconditional one, else the first. A rule whose action is the default's
 * adds nothing and is passed over, as the compiler passes it over (libseccomp refuses it).
 * NULL: no rule does, the default action (or the ENOSYS guard) answers. */
const struct profile_rule *profile_decide(const struct profile *p, const char *syscall,
                                          const uint64_t args[6], uint64_t caps, const char *arch,
                                          unsigned kmajor, unsigned kminor);
/* The profile as resolved for a container with bounding set `caps` on native `arch`, kernel
 * kmajor.kminor: the rules that apply, in order, without their "when" conditions, which is
 * the profile an engine (Docker, podman) hands a runtime in config.json. */
int profile_resolve(const struct profile *p, uint64_t caps, const char *arch, unsigned kmajor,
                    unsigned kminor, struct profile *ret, struct error *err);
/* The canonical form of a profile with no "when" condition (resolved): one line per item of
 * everything seccomp_compile() reads from it (the default, each rule's action, conditions and
 * names, in order), numbers in decimal, so that two profiles with the same form compile to the
 * same program and two that differ in anything the compiler reads have different forms.
 * 1: *ret (malloc'd, *ret_len bytes, NUL-terminated) holds it; 0: the profile has a "when"
 * condition (its program depends on the container: no canonical form); -1: out of memory. */
int profile_canonical(const struct profile *p, char **ret, size_t *ret_len, struct error *err);
/* Text of one rule's header, as the format writes it ("allow if arg0 < 38 when cap X"). */
void profile_rule_text(const struct profile_rule *r, char *buf, size_t len);

#endif
