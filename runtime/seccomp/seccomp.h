/* seccomp.h - seccomp programs: the built-in profiles compiled at build time, others at run time.
 *
 * One job a file: the profile format (seccomp_profile.h), a profile as an engine resolves it
 * and its canonical form (seccomp_canonical.c), the architectures a filter covers
 * (seccomp_arch.c), compiling a profile with libseccomp (seccomp_compile.c), the programs
 * built into crib and the choice between them and a compile now (seccomp_builtin.c), and
 * loading a program into the kernel (seccomp_load.c). What the kernel offers is a host fact
 * (host/kernel.h).
 * The BPF underneath (run, guard, fold) is in bpf.h.
 */
#ifndef CRIB_SECCOMP_H
#define CRIB_SECCOMP_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "seccomp_profile.h"

struct seccomp_program {
        struct sock_filter *insns;
        size_t n;
        size_t unfolded; /* the length libseccomp's program had before bpf_fold() */
};

/* seccomp_arch.c */

/* The architectures a filter for native `arch` covers, as Docker's archMap: x86_64 with x86
 * and x32, aarch64 with arm, others alone. Returns the count; names[0] is the native one. */
size_t seccomp_arches(const char *arch, const char *names[4]);
/* The libseccomp name of the architecture crib was built for ("x86_64", "aarch64", "arm"). */
const char *seccomp_native_arch(void);
bool seccomp_arch_known(const char *arch);
/* libseccomp's token (SCMP_ARCH_*, = AUDIT_ARCH_*) for a name of seccomp_arches(), 0 when
 * crib does not know it. */
uint32_t seccomp_arch_token(const char *arch);

/* seccomp_compile.c */

/* Compile `p` for a container with bounding set `caps` on native `arch`, kernel kmaj.kmin:
 * libseccomp's binary-tree program behind crib's ENOSYS guard, folded into ranges. */
int seccomp_compile(const struct profile *p, const char *arch, uint64_t caps, unsigned kmaj,
                    unsigned kmin, struct seccomp_program *ret, struct error *err);
void seccomp_program_free(struct seccomp_program *p);
/* A known program as it is made (tools/seccomp-gen.c) and checked (`crib seccomp builtin
 * --check`, the tests): `p` resolved for `caps` on `arch`, kernel kmaj.kmin (profile_resolve),
 * its canonical form (*canon, *len bytes, to free) and the resolved profile compiled (*prog).
 * A resolved profile without a canonical form is an error. 0, or -1 with nothing to free. */
int seccomp_known_make(const struct profile *p, uint64_t caps, const char *arch, unsigned kmaj,
                       unsigned kmin, char **canon, size_t *len, struct seccomp_program *prog,
                       struct error *err);

/* seccomp_builtin.c */

/* A program compiled at build time (tools/seccomp-gen.c) and embedded in crib. Its key: the
 * built-in profile, the architecture crib was built for, the bounding set's intersection with
 * the capabilities the profile's rules test, and how many of the profile's "when kernel >= X.Y"
 * thresholds the kernel reaches. kmaj.kmin is a kernel version that reaches exactly those. */
struct seccomp_builtin {
        const char *profile;
        const char *arch;
        uint64_t caps;
        unsigned kernel_level;
        unsigned kmaj, kmin;
        const struct sock_filter *insns;
        size_t n, unfolded;
};

/* The embedded program for built-in `profile` on `arch` with bounding set `caps` on kernel
 * kmaj.kmin, or NULL when crib was built without one for that key. */
const struct seccomp_builtin *seccomp_builtin_find(const char *profile, const char *arch,
                                                   uint64_t caps, unsigned kmaj, unsigned kmin);
/* The i-th embedded program, NULL past the last (for `crib seccomp builtin` and the tests). */
const struct seccomp_builtin *seccomp_builtin_at(size_t i);

/* A profile an engine hands crib in config.json that crib knows, compiled at build time: a
 * built-in profile, or podman's as the build host's package has it, resolved for a bounding set
 * (profile_resolve), found by its canonical form (profile_canonical), compared whole. */
struct seccomp_known {
        const char *profile;   /* the built-in profile ("default"), or "podman" */
        const char *origin;    /* NULL for a built-in profile, else the file it was made from */
        const char *source;    /* NULL for a built-in profile, else its text in crib's language */
        uint64_t caps;         /* the bounding set it is resolved for (the default level's) */
        unsigned kmaj, kmin;   /* a kernel version that reaches all its thresholds */
        const char *canonical; /* its canonical form, `len` bytes */
        size_t len;
        const char *arch;
        const struct sock_filter *insns;
        size_t n, unfolded;
};
/* The embedded program whose profile has canonical form text[0..len) on `arch`, or NULL. */
const struct seccomp_known *seccomp_known_find(const char *text, size_t len, const char *arch);
/* The i-th one, NULL past the last. */
const struct seccomp_known *seccomp_known_at(size_t i);
/* The profile known program k was made from (built in, or its source text), parsed into *p. */
int seccomp_known_profile(const struct seccomp_known *k, struct profile *p, struct error *err);
/* Program k made again from its profile now (seccomp_known_make): 1 when its canonical form
 * and program are the embedded ones, 0 when they differ, -1 with err when it cannot be made. */
int seccomp_known_check(const struct seccomp_known *k, struct error *err);

/* The program for a container: when `builtin` names a built-in profile and crib embeds a
 * program for this key, a copy of that one; otherwise `text` (the profile as read, `label`
 * naming it in errors) parsed, and when its canonical form is one crib embeds a program for (a
 * known engine profile, seccomp_known_find), a copy of that one, else compiled now. Nothing is read
 * from or written to disk. *how tells the trace which path was taken and what it cost. */
int seccomp_prepare(const char *builtin, const char *text, const char *label, const char *arch,
                    uint64_t caps, struct seccomp_program *ret, char *how, size_t howlen,
                    struct error *err);

/* seccomp_load.c */

/* Load the program insns[0..n) as a filter of the calling thread, with SECCOMP_FILTER_FLAG_*
 * `flags`: seccomp(SECCOMP_SET_MODE_FILTER). Returns what the kernel does (0, or a listener fd
 * with SECCOMP_FILTER_FLAG_NEW_LISTENER), or -1 with errno. Only the system call: safe in
 * crib's init and in a CLONE_VM child. */
int seccomp_load_filter(const struct sock_filter *insns, size_t n, unsigned flags);

/* seccomp_template.c: a process of crib's holding a loaded filter, for the setup processes of
 * a batch of containers to clone it from (SECCOMP_CLONE_FILTER); the comment there says why a
 * container never gets a filter weaker than its profile from it. */
struct seccomp_template {
        int pidfd; /* from clone3(CLONE_PIDFD); -1: none */
        pid_t pid;
        struct sock_filter *insns; /* a copy of the program the template loaded */
        size_t n;
};
/* Parent: start a template holding `prog` and wait until it has loaded it. */
int seccomp_template_start(const struct seccomp_program *prog, struct seccomp_template *ret,
                           struct error *err);
/* Parent: kill and reap it, free its copy. */
void seccomp_template_stop(struct seccomp_template *t);
/* Child: the setup process, with no_new_privs and no filter yet. 1: the template held exactly
 * `prog` and its filter is now ours (*ret_count: our Seccomp_filters, -1 if unreadable;
 * *ret_us: the clone's own time, without the checks around it); 0: not
 * usable, why in `why`, nothing changed (load the program); -1: cloned, but not what it should
 * be (the container must not start). */
int seccomp_template_clone(const struct seccomp_template *t, const struct seccomp_program *prog,
                           int *ret_count, uint64_t *ret_us, char *why, size_t whylen,
                           struct error *err);

#endif
