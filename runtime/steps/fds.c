/* fds.c - which descriptors a container's processes hold: each only what it needs, and none that
 * names a host filesystem object while a path the container controls is resolved.
 *
 * Kernel feature: close_range(2) (Linux 5.9) closes every descriptor of a range in one call;
 * older kernels list /proc/self/fd and close one at a time.
 *
 * Why closed, not marked close-on-exec: execve(2) resolves the program, its '#!' interpreter and
 * its ELF interpreter (PT_INTERP) BEFORE it closes the close-on-exec descriptors, and chdir(2)
 * to the working directory resolves its path with them open too. Each of those paths is the
 * container's (an image chooses its entrypoint and working directory), and a link of /proc such
 * as /proc/self/fd/N is followed to whatever descriptor N is. A descriptor of a host directory
 * (the caller's working directory, the rootfs or the container's cgroup as the host sees them, a
 * descriptor crib inherited) then leads out: /proc/self/fd/N/../../usr/bin runs a host program
 * inside the container, which can then rewrite it once it is no longer busy (CVE-2019-5736's
 * technique), and a working directory of /proc/self/fd/N is a host directory (CVE-2024-21626).
 *
 * So every process of a container closes what it does not need before it resolves any path of
 * the container's: the setup process first of all (child.c), and again before pivot_root once
 * the bind sources are mounted (mounts.c); the workload's process before its working directory;
 * `crib exec`'s joiner as it starts, and once it has entered the container's root (enter.c). What
 * may stay is what cannot be walked: the sync socket to crib (close-on-exec: its end of file
 * tells crib that the exec succeeded), pipes, the exec fifo, a pty of the container's devpts,
 * and the spec's pass_fds, which its author gives the workload on purpose.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "step.h"

/* Close every descriptor from 3 up but the `n` in `keep` (any order; negative ones ignored). */
int fds_close_all_but(const int *keep, size_t n, struct error *err)
{
        unsigned sorted[FDS_MAX_KEEP];
        size_t k = 0;
        if (n > FDS_MAX_KEEP)
                return error_set(err, E2BIG, "too many descriptors to keep (%zu)", n);
        for (size_t i = 0; i < n; i++) {
                if (keep[i] < 3)
                        continue;
                unsigned v = (unsigned)keep[i];
                size_t j = k++;
                for (; j > 0 && sorted[j - 1] > v; j--)
                        sorted[j] = sorted[j - 1];
                sorted[j] = v;
        }
        unsigned from = 3;
        for (size_t i = 0; i <= k; i++) {
                unsigned to = i < k ? sorted[i] : ~0U; /* the gap [from, to) */
                if (to > from) {
                        long r = -1;
#ifdef SYS_close_range
                        r = syscall(SYS_close_range, from, to - 1, 0U);
#endif
                        if (r < 0 && errno != ENOSYS && errno != EINVAL)
                                return error_set(err, errno, "cannot close descriptors %u-%u", from,
                                                 to - 1);
                        if (r < 0) {
                                /* before Linux 5.9: one at a time, from the list of this
                                 * process's own (opendir allocates: step.h says so) */
                                DIR *d = opendir("/proc/self/fd");
                                struct dirent *e;
                                if (!d)
                                        return error_set(err, errno, "cannot list /proc/self/fd");
                                while ((e = readdir(d))) {
                                        long fd = strtol(e->d_name, NULL, 10);
                                        if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && fd >= 0 &&
                                            (unsigned long)fd >= from && (unsigned long)fd < to &&
                                            fd != dirfd(d))
                                                close((int)fd);
                                }
                                closedir(d);
                        }
                }
                if (i < k)
                        from = sorted[i] + 1;
        }
        return 0;
}

/* Child: the workload's process (or the entered process of `crib exec`), before its working
 * directory: 0, 1 and 2, the plan's pass_fds, the sync socket, crib's init's pipes and the exec
 * fifo stay; everything else is closed. Of those, only 0, 1, 2 and pass_fds reach the workload:
 * the rest are close-on-exec, or closed before the exec (init.c, start.c). */
int step_close_fds(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        int keep[FDS_MAX_KEEP];
        size_t n = 0;
        keep[n++] = c->chan.fd;
        keep[n++] = c->init_ready;
        keep[n++] = c->init_go;
        keep[n++] = c->pty_slave;
        keep[n++] = c->fds ? c->fds->start_fifo : -1;
        for (size_t i = 0; i < p->npass_fds && n < FDS_MAX_KEEP; i++)
                keep[n++] = p->pass_fds[i];
        if (fds_close_all_but(keep, n, err) < 0)
                return -1;
        trace_line(&c->trace,
                   "  close_range() but 0-2, the sync socket%s%s and %zu pass_fds: nothing of the "
                   "host stays open",
                   c->init_go >= 0 ? ", crib's init's pipes" : "",
                   c->fds && c->fds->start_fifo >= 0 ? ", the exec fifo" : "", p->npass_fds);
        for (size_t i = 0; i < p->npass_fds; i++) {
                if (fcntl(p->pass_fds[i], F_SETFD, 0) < 0)
                        return error_set(err, errno, "cannot pass fd %d on", p->pass_fds[i]);
                trace_line(&c->trace, "  fcntl(%d, F_SETFD, 0): passed on", p->pass_fds[i]);
        }
        return 0;
}

/* Parent (crib run, crib exec), before anything of the container exists: 0, 1 and 2 are the
 * caller's to give (a file, a pipe, a terminal), but never a directory, which would be a host
 * directory open in the container, a way out as above. */
int fds_check_stdio(struct error *err)
{
        for (int fd = 0; fd < 3; fd++) {
                struct stat st;
                if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
                        error_set(err, 0, "crib's fd %d is a directory", fd);
                        return error_hint(err, "give the container a file, a pipe or a "
                                               "terminal there: a directory of the host open "
                                               "in the container would lead out of it");
                }
        }
        return 0;
}

/* Child: the setup process, first of all, before it resolves any path. What crib opened for it
 * stays (the bind sources until they are mounted, the exec fifo, the seccomp template), with
 * the sync socket and the spec's pass_fds; crib's working directory, the rootfs and the cgroup
 * as the host sees them, and every other descriptor crib had are closed. */
int step_close_inherited(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        const struct launch_fds *f = c->fds;
        int keep[FDS_MAX_KEEP];
        size_t n = 0, nsrc = 0;
        keep[n++] = c->chan.fd;
        keep[n++] = f->start_fifo;
        keep[n++] = f->seccomp_template ? f->seccomp_template->pidfd : -1;
        for (size_t i = 0; i < p->nmounts && n < FDS_MAX_KEEP; i++)
                if (f->src[i] >= 0) {
                        keep[n++] = f->src[i];
                        nsrc++;
                }
        for (size_t i = 0; i < p->npass_fds && n < FDS_MAX_KEEP; i++)
                keep[n++] = p->pass_fds[i];
        if (fds_close_all_but(keep, n, err) < 0)
                return -1;
        trace_line(&c->trace,
                   "  close_range() but 0-2, the sync socket, %zu bind sources%s%s and %zu "
                   "pass_fds",
                   nsrc, f->start_fifo >= 0 ? ", the exec fifo" : "",
                   f->seccomp_template ? ", the seccomp template" : "", p->npass_fds);
        return 0;
}
