/* remove.c - the end of a container's cgroup: its processes killed, it and the cgroups below
 * it removed; and the cgroups of runs whose crib was killed.
 *
 * Kernel features: cgroup.kill (Linux 5.14) to end every process of a cgroup at once, and before
 * it SIGKILL to each pid of cgroup.procs; rmdir(2) of a cgroup, which fails (EBUSY) while a
 * process is in it, and removes no cgroup that has cgroups below it.
 */
#define _GNU_SOURCE
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/cleanup.h"

/* The cgroups below a container's are its workload's to make (with SYS_ADMIN in its namespaces),
 * so they are walked by descriptor (names of any length) and no deeper than cgroup_make lets
 * them go (cgroup.max.depth). */
#define TREE_DEPTH (CGROUP_NEST_DEPTH + 2)

/* SIGKILL each process of dirfd's cgroup */
static void kill_procs(int dirfd)
{
        char buf[4096];
        _cleanup_close_ int pfd = openat(dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
        ssize_t n = pfd < 0 ? -1 : read(pfd, buf, sizeof buf - 1);
        if (n <= 0)
                return;
        buf[n] = '\0';
        char *save = NULL;
        for (char *s = strtok_r(buf, "\n", &save); s; s = strtok_r(NULL, "\n", &save))
                kill((pid_t)atoi(s), SIGKILL);
}

/* Each cgroup below dirfd, deepest first: with kill, SIGKILL its processes (before
 * cgroup.kill); else rmdir it. true when every one below is gone. */
static bool walk_below(int dirfd, int depth, bool kill)
{
        if (kill)
                kill_procs(dirfd);
        int fd = depth < TREE_DEPTH ? dup(dirfd) : -1;
        _cleanup_closedir_ DIR *d = fd < 0 ? NULL : fdopendir(fd);
        if (!d) {
                if (fd >= 0)
                        close(fd);
                return false;
        }
        bool all = true;
        struct dirent *e;
        while ((e = readdir(d))) {
                if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                        continue;
                _cleanup_close_ int sub =
                        openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                bool gone = sub >= 0 && walk_below(sub, depth + 1, kill);
                if (!kill &&
                    (!gone || (unlinkat(dirfd, e->d_name, AT_REMOVEDIR) < 0 && errno != ENOENT)))
                        all = false;
        }
        return all;
}

/* rmdir a cgroup and every cgroup below it; a cgroup with processes (EBUSY) and its ancestors
 * stay. true when path is gone. */
bool cgroup_rmdir_tree(const char *path)
{
        _cleanup_close_ int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return errno == ENOENT;
        walk_below(fd, 0, false);
        return rmdir(path) == 0 || errno == ENOENT;
}

static void kill_tree(const char *path)
{
        _cleanup_close_ int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0)
                walk_below(fd, 0, true);
}

void cgroup_remove_empty(const char *path)
{
        if (path[0])
                cgroup_rmdir_tree(path);
}

/* The cgroups of unnamed containers whose crib was killed (SIGKILL leaves no time to remove
 * them): run-PID with PID gone; empty, or rmdir fails and leaves it. */
void cgroup_remove_stale(const char *base, const char *prefix)
{
        _cleanup_closedir_ DIR *d = opendir(base);
        struct dirent *e;
        size_t n = strlen(prefix);
        while (d && (e = readdir(d))) {
                char path[1200];
                if (strncmp(e->d_name, prefix, n))
                        continue;
                long pid = strtol(e->d_name + n, NULL, 10);
                if (pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
                        continue;
                snprintf(path, sizeof path, "%s/%s", base, e->d_name);
                cgroup_rmdir_tree(path);
        }
}

void cgroup_remove(const char *path)
{
        char file[1100];
        if (!path[0])
                return;
        snprintf(file, sizeof file, "%s/cgroup.kill", path);
        _cleanup_close_ int kfd = open(file, O_WRONLY | O_CLOEXEC);
        bool killed = kfd >= 0 && write(kfd, "1", 1) == 1;
        /* rmdir fails with EBUSY until the last process is gone: up to a second */
        for (int i = 0; i < 100; i++) {
                if (!killed) /* before Linux 5.14: each process, and again for late forks */
                        kill_tree(path);
                if (cgroup_rmdir_tree(path) || errno != EBUSY)
                        return;
                nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
        }
}
