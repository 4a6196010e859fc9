/* state.c - what a container's cgroup says while it runs: whether a process is in it, what it
 * uses, whether the OOM killer struck, and the freezer.
 *
 * Kernel features: cgroup.events (populated; frozen, Linux 5.2), memory.current, cpu.stat,
 * pids.current, memory.events (oom_kill); cgroup.freeze, the v2 freezer (Linux 5.2), for the
 * OCI front end's pause and resume.
 */
#define _GNU_SOURCE
#include "cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"

/* cgroup.events says a process is in it or below it */
bool cgroup_populated(const char *path)
{
        char file[1200], line[64];
        snprintf(file, sizeof file, "%s/cgroup.events", path);
        _cleanup_fclose_ FILE *f = fopen(file, "re");
        while (f && fgets(line, sizeof line, f))
                if (!strncmp(line, "populated ", 10))
                        return line[10] == '1';
        return false;
}

bool cgroup_oom_killed(const char *path)
{
        char file[1100], line[128];
        snprintf(file, sizeof file, "%s/memory.events", path);
        _cleanup_fclose_ FILE *f = fopen(file, "re");
        long long n;
        while (f && fgets(line, sizeof line, f))
                if (sscanf(line, "oom_kill %lld", &n) == 1)
                        return n > 0;
        return false;
}

bool cgroup_frozen(const char *path)
{
        char file[1100], line[128];
        snprintf(file, sizeof file, "%s/cgroup.events", path);
        _cleanup_fclose_ FILE *f = fopen(file, "re");
        int n;
        while (f && fgets(line, sizeof line, f))
                if (sscanf(line, "frozen %d", &n) == 1)
                        return n == 1;
        return false;
}

int cgroup_freeze(const char *path, bool freeze, struct error *err)
{
        char file[1100];
        snprintf(file, sizeof file, "%s/cgroup.freeze", path);
        _cleanup_close_ int fd = open(file, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) {
                error_set(err, errno, "cannot open '%s'", file);
                return error_hint(err, errno == ENOENT ? "the cgroup v2 freezer needs Linux 5.2"
                                                       : "the container's cgroup is not yours");
        }
        if (write(fd, freeze ? "1" : "0", 1) != 1)
                return error_set(err, errno, "cannot write '%s'", file);
        /* the kernel freezes each task at its next return to user space: wait, bounded */
        for (int i = 0; i < 200; i++) {
                if (cgroup_frozen(path) == freeze)
                        return 0;
                usleep(10000);
        }
        /* a task stuck in the kernel (a dead NFS server): not left half frozen */
        if (freeze && write(fd, "0", 1) < 0)
                return error_set(err, errno, "'%s' did not freeze within 2 s, and cannot be thawed",
                                 path);
        error_set(err, 0, "'%s' did not %s within 2 s", path, freeze ? "freeze" : "thaw");
        return error_hint(err, "a process of it may be stuck in the kernel (ps -o stat,wchan)");
}

static int64_t read_number(const char *dir, const char *file, const char *key)
{
        char path[1200], line[256];
        snprintf(path, sizeof path, "%s/%s", dir, file);
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        size_t kl = key ? strlen(key) : 0;
        while (f && fgets(line, sizeof line, f)) {
                if (key && (strncmp(line, key, kl) || line[kl] != ' '))
                        continue;
                return strtoll(line + (key ? kl + 1 : 0), NULL, 10);
        }
        return -1;
}

void cgroup_usage_read(const char *path, struct cgroup_usage *u)
{
        u->memory = read_number(path, "memory.current", NULL);
        u->cpu_usec = read_number(path, "cpu.stat", "usage_usec");
        u->pids = read_number(path, "pids.current", NULL);
}
