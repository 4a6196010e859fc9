/* nsfiles.c - the namespace files an OCI config joins by path (spec.ns_path): which namespace
 * each one is, and a joined user namespace's id maps, for planning.
 *
 * Kernel features: ioctl_ns(2) NS_GET_NSTYPE (Linux 4.11) says which namespace a file is, a
 * file of /proc/PID/ns or a bind mount of one (ip-netns(8)'s /run/netns/NAME, podman's
 * /run/user/UID/netns/netns-*), which fstatfs(2) shows on nsfs (NSFS_MAGIC) before it is
 * opened for reading; anything else answers ENOTTY. A user namespace's id maps are
 * read from /proc/PID/uid_map of a process in it, here a child that joins it with setns(2) and
 * waits: read from crib, that file shows the outside ids as crib's user namespace sees them.
 * Only reads: the child joins, reads nothing, and is killed once its maps are read.
 *
 * Against that namespace: once the child is in it, every process of it holds every capability
 * over the child (user_namespaces(7)), and a process of the namespace that sees the host's pid
 * namespace (a container with `pid = no`, podman --pid=host) could ptrace(2) it, or open its
 * /proc/PID/root, the host's root directory, while it waits: a process of host root (its ids
 * unchanged), with all of crib's descriptors. So it makes itself not dumpable first, as the
 * process that joins for the container does (launch/joinns.c): its /proc files then need
 * CAP_SYS_PTRACE in the host's user namespace, which owns its memory. uid_map, gid_map and
 * setgroups stay readable to crib (proc(5): read by anyone).
 */
#define _GNU_SOURCE
#include "host.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cleanup.h"

int nsfile_open(const char *path, int *ret_type)
{
        /* looked at before it is opened: a device or a FIFO the path names is never opened
         * (a watchdog starts counting when it is), only a file of nsfs */
        struct statfs sfs;
        char self[64];
        int fd = open(path, O_PATH | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        if (fstatfs(fd, &sfs) < 0 || sfs.f_type != NSFS_MAGIC) {
                close(fd);
                return -ENOTTY;
        }
        snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
        int opath = fd;
        fd = open(self, O_RDONLY | O_CLOEXEC);
        int e = errno;
        close(opath);
        if (fd < 0)
                return -e;
        int type = ioctl(fd, NS_GET_NSTYPE);
        if (type < 0) {
                int why = errno == ENOTTY || errno == EINVAL ? ENOTTY : errno;
                close(fd);
                return -why;
        }
        *ret_type = type;
        return fd;
}

/* The maps of process `pid`'s user namespace, as ours sees them, and its setgroups. */
static int read_maps(pid_t pid, struct plan_host *h)
{
        struct error ignored;
        char path[64], sg[16] = "";
        snprintf(path, sizeof path, "/proc/%d/uid_map", (int)pid);
        _cleanup_fclose_ FILE *fu = fopen(path, "re");
        snprintf(path, sizeof path, "/proc/%d/gid_map", (int)pid);
        _cleanup_fclose_ FILE *fg = fopen(path, "re");
        snprintf(path, sizeof path, "/proc/%d/setgroups", (int)pid);
        _cleanup_fclose_ FILE *fs = fopen(path, "re");
        if (!fu || !fg || !fs)
                return -errno;
        if (idmap_read_map(fu, &h->joined_uidmap, &ignored) < 0 ||
            idmap_read_map(fg, &h->joined_gidmap, &ignored) < 0)
                return -ignored.errnum;
        if (!fgets(sg, sizeof sg, fs))
                sg[0] = '\0';
        h->joined_setgroups_denied = !strncmp(sg, "deny", 4);
        return 0;
}

#ifdef CRIB_TEST_HOOKS
/* Child of joined_maps, in test builds only (the Makefile's CRIB_TEST_HOOKS): with
 * CRIB_TEST_STOP_AT "read the joined user namespace's maps", it stays 2 s in the namespace it
 * joined before it says so, for tests/e2e/25-oci-join.t to look at it from there. */
static void test_hold_joined(int joined_errno)
{
        const char *at = getenv("CRIB_TEST_STOP_AT");
        if (!joined_errno && at && !strcmp(at, "read the joined user namespace's maps"))
                nanosleep(&(struct timespec){.tv_sec = 2}, NULL);
}
#endif

/* A child joins the user namespace of `fd` and waits on a pipe until we have read its maps;
 * 0, or -errno (its setns(2)'s, sent back as one int). */
static int joined_maps(int fd, struct plan_host *h)
{
        int up[2], hold[2];
        if (pipe2(up, O_CLOEXEC) < 0)
                return -errno;
        if (pipe2(hold, O_CLOEXEC) < 0) {
                int e = errno;
                close(up[0]), close(up[1]);
                return -e;
        }
        pid_t pid = fork();
        if (pid == 0) {
                /* not dumpable before it joins: see the top of this file */
                int e = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 || setns(fd, CLONE_NEWUSER) < 0
                                ? errno
                                : 0;
                char c;
                close(up[0]), close(hold[1]);
#ifdef CRIB_TEST_HOOKS
                test_hold_joined(e);
#endif
                if (write(up[1], &e, sizeof e) == sizeof e && !e)
                        while (read(hold[0], &c, 1) < 0 && errno == EINTR)
                                ;
                _exit(0);
        }
        int e = pid < 0 ? errno : 0, r = -EPROTO;
        close(up[1]), close(hold[0]);
        if (pid > 0) {
                ssize_t n;
                while ((n = read(up[0], &e, sizeof e)) < 0 && errno == EINTR)
                        ;
                r = n != sizeof e ? -EPROTO : e ? -e : read_maps(pid, h);
        } else {
                r = -e;
        }
        close(up[0]), close(hold[1]);
        if (pid > 0) {
                kill(pid, SIGKILL);
                while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                        ;
        }
        return r;
}

void host_gather_nsfiles(const struct spec *s, struct plan_host *h)
{
        for (int i = 0; i < SPEC_NNS; i++) {
                if (!s->ns_path[i])
                        continue;
                int type = 0;
                int fd = nsfile_open(s->ns_path[i], &type);
                h->ns_type[i] = fd < 0 ? fd : type;
                if (fd >= 0 && i == SPEC_NS_USER && type == CLONE_NEWUSER)
                        h->joined_maps = joined_maps(fd, h);
                if (fd >= 0)
                        close(fd);
        }
}
