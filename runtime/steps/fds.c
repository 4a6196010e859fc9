/* fds.c - only stdin, stdout, stderr (and the spec's pass_fds) reach the workload.
 *
 * Kernel feature: close_range(2) with CLOSE_RANGE_CLOEXEC (Linux 5.11) marks every other
 * descriptor close-on-exec in one call; older kernels get the same by walking /proc/self/fd.
 * Marking, not closing: the sync socket to the parent must stay open until execve succeeds.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<linux/close_range.h>)
#include <linux/close_range.h>
#endif

#include "child.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* Child: the workload's process, just before exec. */
int step_close_fds(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        long r = -1;
#ifdef SYS_close_range
        r = syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
#endif
        trace_line(&c->trace, "  close_range(3, ~0, CLOSE_RANGE_CLOEXEC) = %ld", r);
        if (r < 0) {
                DIR *d = opendir("/proc/self/fd");
                struct dirent *e;
                if (!d)
                        return error_set(err, errno, "cannot list /proc/self/fd");
                while ((e = readdir(d))) {
                        int fd = atoi(e->d_name);
                        if (fd > 2 && fd != dirfd(d))
                                fcntl(fd, F_SETFD, FD_CLOEXEC);
                }
                closedir(d);
        }
        for (size_t i = 0; i < p->npass_fds; i++) {
                if (fcntl(p->pass_fds[i], F_SETFD, 0) < 0)
                        return error_set(err, errno, "cannot pass fd %d on", p->pass_fds[i]);
                trace_line(&c->trace, "  fcntl(%d, F_SETFD, 0): passed on", p->pass_fds[i]);
        }
        return 0;
}
