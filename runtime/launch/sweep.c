/* sweep.c - kill what is left in a container's namespaces when it has no pid namespace.
 *
 * Kernel features: the namespace files of /proc/PID/ns (namespaces(7)), compared by device
 * and inode; ioctl(2) NS_GET_PARENT (ioctl_ns(2), Linux 4.9) to walk from a user namespace to
 * the one that made it; pidfd_open(2) and pidfd_send_signal(2) (Linux 5.3), so the process
 * signalled is the one that was checked, not one that took its pid meanwhile.
 *
 * With a pid namespace, the kernel kills every process of the container when crib's init,
 * its pid 1, exits. Without one (`pid = no`) the parent kills what came back to it as their
 * subreaper (container.c); but a process `crib exec` started is crib exec's child, and one it
 * left running (`sh -c 'worker &'`) belongs to no one crib follows. Without a cgroup of the
 * container's own to kill, what is left marks such a process as the container's: it is in the
 * container's user namespace (crib exec joins it), or in one below it (a workload that keeps
 * SYS_ADMIN has its own: steps/lockmounts.c), or, for `user = no`, in its mount namespace.
 *
 * The mark is taken when the workload runs (container.c), before crib exec can find it: from
 * the setup process (crib's init), which is our child and not reaped yet, so its pid cannot
 * name another process. An unprivileged crib cannot read that one's /proc/PID/ns (it is not
 * dumpable from its first steps, userns.c): it takes the workload's, after its exec. Either
 * way the mark must be a user namespace right below our own, the one crib made, never ours or
 * one above: a pid taken meanwhile by a process of the host cannot turn the sweep on the host.
 * An unprivileged crib may read and signal the container's processes: it owns their user
 * namespace, so it holds every capability there (user_namespaces(7)).
 */
#define _GNU_SOURCE
#include "sweep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/procfile.h"

/* user namespaces nest at most 32 deep (user_namespaces(7)) */
#define MAX_DEPTH 33

static int ns_open(pid_t pid, bool user)
{
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/%s", (int)pid, user ? "user" : "mnt");
        return open(path, O_RDONLY | O_CLOEXEC);
}

/* The user namespace of `pid` that is a child of ours: the container's, which crib made below
 * its own, whether `pid` is in it or in one below it (a SYS_ADMIN workload's). -1 (EPERM) when
 * our own is not above it: not a container of ours, and never our own namespace or one above. */
static int container_userns(pid_t pid, struct stat *out)
{
        struct stat mine;
        if (stat("/proc/self/ns/user", &mine) < 0)
                return -1;
        int fd = ns_open(pid, true);
        struct stat st;
        for (int depth = 0; fd >= 0 && depth < MAX_DEPTH; depth++) {
                int up = fstat(fd, &st) < 0 ? -1 : ioctl(fd, NS_GET_PARENT);
                struct stat ust;
                if (up >= 0 && fstat(up, &ust) == 0 && ust.st_dev == mine.st_dev &&
                    ust.st_ino == mine.st_ino) {
                        close(up);
                        close(fd);
                        *out = st;
                        return 0;
                }
                close(fd);
                fd = up;
        }
        if (fd >= 0)
                close(fd);
        errno = EPERM;
        return -1;
}

int sweep_mark(pid_t setup, pid_t workload, int clone_flags, struct sweep_mark *m)
{
        m->set = false;
        m->user = (clone_flags & CLONE_NEWUSER) != 0;
        struct stat st;
        if (m->user) {
                /* the setup process (crib's init) first: our child, not reaped, so its pid is
                 * its own; an unprivileged crib cannot read it (it is not dumpable), and reads
                 * the workload's, after its exec */
                if ((setup <= 0 || container_userns(setup, &st) < 0) &&
                    (workload <= 0 || container_userns(workload, &st) < 0))
                        return -1;
        } else if (clone_flags & CLONE_NEWNS) {
                /* user = no: root's crib, which reads any process's */
                struct stat mine;
                int fd = setup <= 0 ? -1 : ns_open(setup, false);
                int r = fd < 0 ? -1 : fstat(fd, &st);
                if (fd >= 0)
                        close(fd);
                if (r < 0 || stat("/proc/self/ns/mnt", &mine) < 0)
                        return -1;
                if (st.st_dev == mine.st_dev && st.st_ino == mine.st_ino) {
                        errno = EPERM; /* our own: never the container's */
                        return -1;
                }
        } else {
                errno = ENOENT; /* nothing of the container's own marks its processes */
                return -1;
        }
        m->dev = st.st_dev;
        m->ino = st.st_ino;
        m->set = true;
        return 0;
}

/* Whether `pid` is in the marked namespace, or in a user namespace below the marked one. */
static bool member(const struct sweep_mark *m, pid_t pid)
{
        int fd = ns_open(pid, m->user);
        for (int depth = 0; fd >= 0 && depth < MAX_DEPTH; depth++) {
                struct stat st;
                if (fstat(fd, &st) == 0 && st.st_dev == m->dev && st.st_ino == m->ino) {
                        close(fd);
                        return true;
                }
                if (!m->user)
                        break;
                int up = ioctl(fd, NS_GET_PARENT); /* EPERM above our own: not the container's */
                close(fd);
                fd = up;
        }
        if (fd >= 0)
                close(fd);
        return false;
}

/* A zombie keeps its credentials, and so its user namespace, until its parent reaps it: it is
 * dead already, and signalling it again would keep the rounds going. */
static bool living(pid_t pid)
{
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
        if (n <= 0)
                return false;
        buf[n] = '\0';
        const char *end = strrchr(buf, ')'); /* after the command's name, which may hold ')' */
        return end && end[1] == ' ' && end[2] != 'Z' && end[2] != 'X';
}

/* One process: 1 when it is the container's (signalled, or gone before the signal), else 0. */
static size_t consider(const struct sweep_mark *m, pid_t pid)
{
        if (pid <= 0 || pid == getpid() || !living(pid) || !member(m, pid))
                return 0;
        /* checked again through a pidfd: the process signalled is the one checked */
        int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
        if (pfd < 0 && errno == ENOSYS) {
                kill(pid, SIGKILL);
                return 1;
        }
        if (pfd < 0)
                return 1; /* gone: its child, if it forked, is among the newest pids */
        if (member(m, pid))
                syscall(SYS_pidfd_send_signal, pfd, SIGKILL, NULL, 0);
        close(pfd);
        return 1;
}

/* The newest pids, again and again for a few milliseconds, until one is the container's. A
 * process that forks and exits in a loop is gone before a listing's turn comes to it, and its
 * child's pid is not in /proc until the fork is done; but it spends most of its life in
 * fork(2), visible, with a pid among the newest, and a SIGKILL then ends the fork too. */
static size_t watch_newest(const struct sweep_mark *m, long max)
{
        struct timespec t0, now;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        size_t n = 0;
        for (;;) {
                long last = procfile_long("/proc/sys/kernel/ns_last_pid");
                for (long k = 0; last > 0 && k < 8; k++)
                        n += consider(m, (pid_t)(last - k >= 1 ? last - k : last - k + max - 1));
                clock_gettime(CLOCK_MONOTONIC, &now);
                long us = (now.tv_sec - t0.tv_sec) * 1000000 + (now.tv_nsec - t0.tv_nsec) / 1000;
                if (n || last <= 0 || us >= 5000)
                        return n;
        }
}

/* One pass: every process /proc listed when the pass began, then every pid the kernel gave
 * since, up to the last one (ns_last_pid), and the ones it gives meanwhile, then the newest
 * pids watched for a moment. The number of the container's processes seen. */
static size_t sweep_once(const struct sweep_mark *m)
{
        long pos = procfile_long("/proc/sys/kernel/ns_last_pid");
        long max = procfile_long("/proc/sys/kernel/pid_max");
        size_t n = 0;
        {
                _cleanup_closedir_ DIR *d = opendir("/proc");
                struct dirent *e;
                while (d && (e = readdir(d)))
                        n += consider(m, (pid_t)atoi(e->d_name));
        }
        for (int steps = 0; pos > 0 && max > 0 && steps < 1 << 20; steps++) {
                long last = procfile_long("/proc/sys/kernel/ns_last_pid");
                if (last < 0 || last == pos)
                        break;
                pos = pos + 1 >= max ? 1 : pos + 1; /* pids wrap at pid_max */
                n += consider(m, (pid_t)pos);
        }
        if (!n && max > 0)
                n = watch_newest(m, max);
        return n;
}

/* Passes until three in a row see none of the container's processes: a process killed is not
 * dead at once, and one may fork in the moment between its check and its signal. Bounded: two
 * seconds of passes. */
size_t sweep_kill(const struct sweep_mark *m, bool *more)
{
        size_t killed = 0;
        *more = false;
        if (!m->set)
                return 0;
        struct timespec t0, now;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (int pass = 0, clean = 0;; pass++) {
                size_t n = sweep_once(m);
                clean = n ? 0 : clean + 1;
                if (clean == 3)
                        return killed;
                if (!killed)
                        killed = n;
                clock_gettime(CLOCK_MONOTONIC, &now);
                if (now.tv_sec - t0.tv_sec >= 2)
                        break;
                /* a process killed but not yet dead is still in its namespaces: let it go */
                if (pass % 16 == 15)
                        nanosleep(&(struct timespec){.tv_nsec = 1000 * 1000}, NULL);
        }
        *more = true;
        return killed;
}
