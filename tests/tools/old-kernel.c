/* old-kernel PROGRAM [ARGS...] - run PROGRAM as on a kernel before Linux 5.2: open_tree(2),
 * move_mount(2), openat2(2), mount_setattr(2) and pidfd_open(2) fail with ENOSYS (a seccomp
 * filter, which PROGRAM and its children inherit). tests/e2e/12-rootfs-devices.t runs crib
 * under it to test the fallbacks that machines with those kernels take, 20-exec.t crib exec's
 * (its namespaces joined through /proc/PID/ns). */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seccomp/seccomp.h"

/* the x86_64, arm and arm64 numbers, where the headers are older than the calls */
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

int main(int argc, char **argv)
{
        struct sock_filter f[] = {
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open_tree, 5, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_move_mount, 4, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 3, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mount_setattr, 2, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 1, 0),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        };
        if (argc < 2)
                return fprintf(stderr, "usage: old-kernel PROGRAM [ARGS...]\n"), 2;
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
            seccomp_load_filter(f, sizeof f / sizeof f[0], 0) < 0)
                return fprintf(stderr, "old-kernel: seccomp: %s\n", strerror(errno)), 1;
        execv(argv[1], argv + 1);
        fprintf(stderr, "old-kernel: %s: %s\n", argv[1], strerror(errno));
        return 127;
}
