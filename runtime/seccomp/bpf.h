/* bpf.h - classic BPF as seccomp uses it, one job a file: run a program (bpf_run.c, for `crib
 * seccomp explain` and the tests), build crib's ENOSYS guard that goes in front of
 * libseccomp's program (bpf_guard.c), and fold the program into fewer instructions, checked
 * (bpf_fold.c). Pure: no system call. */
#ifndef CRIB_BPF_H
#define CRIB_BPF_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>

/* Run the program on one call; returns the seccomp action value (SECCOMP_RET_*|data), or
 * SECCOMP_RET_KILL_PROCESS for a malformed program. */
uint32_t bpf_run(const struct sock_filter *prog, size_t n, const struct seccomp_data *d);
/* What a seccomp action value does to the call, in words ("allowed", "fails with EPERM"...):
 * a constant, or `buf` */
const char *bpf_action_text(uint32_t action, char *buf, size_t len);

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

/* bpf_fold(), kept only when shorter and answering as `in` does for every system call number
 * the guard `g` lets through for each of its `ng` arches (and two more), with arguments all 0,
 * all 1 and all ones. Returns 0 with *out malloc'd, or -1 (nothing to free): keep `in`. */
int bpf_fold_checked(const struct sock_filter *in, size_t n, const struct bpf_guard_arch *g,
                     size_t ng, struct sock_filter **out, size_t *outn);

#endif
