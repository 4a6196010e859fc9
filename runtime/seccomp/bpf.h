/* bpf.h - classic BPF as seccomp uses it: run a program (for `crib seccomp explain` and the
 * tests), build crib's ENOSYS guard that goes in front of libseccomp's program, and fold the
 * program into fewer instructions. */
#ifndef CRIB_BPF_H
#define CRIB_BPF_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>

/* Run the program on one call; returns the seccomp action value (SECCOMP_RET_*|data), or
 * SECCOMP_RET_KILL_PROCESS for a malformed program. */
uint32_t bpf_run(const struct sock_filter *prog, size_t n, const struct seccomp_data *d);

struct bpf_guard_arch {
        uint32_t audit_arch;   /* AUDIT_ARCH_* (= libseccomp's SCMP_ARCH_* token) */
        uint32_t max;          /* highest syscall number the profile names */
        uint32_t max_x32;      /* x86_64 only: the same for x32 (numbers with bit 30), 0 = none */
        uint32_t private_from; /* arm: numbers from here on (0x0f0000) are left to the profile */
};

/* Write the guard for `n` arches into out (room for 64 instructions); returns its length.
 * The guard answers ERRNO(ENOSYS) above each arch's max and falls through to whatever
 * follows it otherwise. */
size_t bpf_enosys_guard(const struct bpf_guard_arch *arches, size_t n, struct sock_filter *out);

/* Fold the program's comparison trees into binary searches over ranges (see bpf_fold.c): the
 * same answer for every input, in fewer instructions. On success *out is malloc'd. Returns 0,
 * or -1 when out of memory or the program is malformed. */
int bpf_fold(const struct sock_filter *in, size_t n, struct sock_filter **out, size_t *outn);

#endif
