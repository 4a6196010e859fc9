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
 * The mark is taken from the workload after its exec (container.c, when it runs), and not
 * from the setup process: that one is not dumpable from its first steps (userns.c), and its
 * /proc/PID/ns is then closed to an unprivileged parent. An unprivileged crib may read and
 * signal the container's processes: it owns their user namespace, so it holds every
 * capability there (user_namespaces(7)).
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

#include "cleanup.h"

/* user namespaces nest at most 32 deep (user_namespaces(7)) */
#define MAX_DEPTH 33

static int ns_open(pid_t pid, bool user)
{
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/%s", (int)pid, user ? "user" : "mnt");
        return open(path, O_RDONLY | O_CLOEXEC);
}

int sweep_mark(pid_t pid, int clone_flags, int nest_flags, struct sweep_mark *m)
{
        m->set = false;
        m->user = (clone_flags & CLONE_NEWUSER) != 0;
        if (!m->user && !(clone_flags & CLONE_NEWNS)) {
                errno = ENOENT; /* nothing of the container's own marks its processes */
                return -1;
        }
        int fd = ns_open(pid, m->user);
        /* the workload's own user namespace is below the container's: take its parent */
        if (fd >= 0 && m->user && (nest_flags & CLONE_NEWUSER)) {
                int up = ioctl(fd, NS_GET_PARENT);
                close(fd);
                fd = up;
        }
        struct stat st;
        if (fd < 0 || fstat(fd, &st) < 0) {
                int e = errno;
                if (fd >= 0)
                        close(fd);
                errno = e;
                return -1;
        }
        close(fd);
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

/* One pass over /proc: the number of the container's processes signalled. */
static size_t sweep_once(const struct sweep_mark *m)
{
        _cleanup_closedir_ DIR *d = opendir("/proc");
        struct dirent *e;
        size_t n = 0;
        pid_t self = getpid();
        while (d && (e = readdir(d))) {
                pid_t pid = (pid_t)atoi(e->d_name);
                if (pid <= 0 || pid == self || !living(pid) || !member(m, pid))
                        continue;
                /* checked again through a pidfd: the process signalled is the one checked */
                int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
                if (pfd < 0 && errno == ENOSYS) {
                        n += kill(pid, SIGKILL) == 0;
                        continue;
                }
                if (pfd < 0)
                        continue; /* gone */
                if (member(m, pid) && syscall(SYS_pidfd_send_signal, pfd, SIGKILL, NULL, 0) == 0)
                        n++;
                close(pfd);
        }
        return n;
}

size_t sweep_kill(const struct sweep_mark *m, bool *more)
{
        size_t killed = 0;
        *more = false;
        if (!m->set)
                return 0;
        for (int round = 0; round < 16; round++) {
                size_t n = sweep_once(m);
                if (!n)
                        return killed;
                if (!round)
                        killed = n;
                /* a process killed but not yet dead is still in its namespaces: let it go */
                nanosleep(&(struct timespec){.tv_nsec = 5 * 1000 * 1000}, NULL);
        }
        *more = true;
        return killed;
}
