/* seccomp.h - compile a seccomp profile once, keep the program, load it in microseconds. */
#ifndef CRIB_SECCOMP_H
#define CRIB_SECCOMP_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "seccomp_profile.h"

struct seccomp_program {
        struct sock_filter *insns;
        size_t n;
        size_t unfolded; /* compiled here: the length before bpf_fold(); 0 when loaded */
};

/* The architectures a filter for native `arch` covers, as Docker's archMap: x86_64 with x86
 * and x32, aarch64 with arm, others alone. Returns the count; names[0] is the native one. */
size_t seccomp_arches(const char *arch, const char *names[4]);
/* The libseccomp name of the architecture crib was built for ("x86_64", "aarch64", "arm"). */
const char *seccomp_native_arch(void);
bool seccomp_arch_known(const char *arch);

/* Compile `p` for a container with bounding set `caps` on native `arch`, kernel kmaj.kmin:
 * libseccomp's binary-tree program behind crib's ENOSYS guard, folded into ranges. */
int seccomp_compile(const struct profile *p, const char *arch, uint64_t caps, unsigned kmaj,
                    unsigned kmin, struct seccomp_program *ret, struct error *err);

/* Compile, or load from the cache when a valid compiled program is there. `text` is the
 * profile as read (the cache key covers it, the arch, caps, kernel, libseccomp and crib
 * versions). *how tells the trace which path was taken. */
int seccomp_prepare(const char *text, const char *label, const char *arch, uint64_t caps,
                    struct seccomp_program *ret, char *how, size_t howlen, struct error *err);

/* The kernel's version, major.minor, from uname(2). */
void seccomp_kernel_version(unsigned *major, unsigned *minor);
/* 1: the kernel has seccomp filters; 0: it has not (CONFIG_SECCOMP_FILTER). */
int seccomp_kernel_supported(void);
/* Where compiled programs are kept for this user (NULL-safe buffer). */
const char *seccomp_cache_dir(char *buf, size_t len);

void seccomp_program_free(struct seccomp_program *p);

#endif
