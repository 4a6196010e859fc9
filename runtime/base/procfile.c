/* procfile.c - see procfile.h. */
#define _GNU_SOURCE
#include "procfile.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"

long procfile_long(const char *path)
{
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        long v;
        if (!f || fscanf(f, "%ld", &v) != 1)
                return -1;
        return v;
}

int procfile_write(const char *path, const char *text)
{
        _cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0)
                return errno;
        size_t len = strlen(text);
        ssize_t n = write(fd, text, len);
        if (n < 0)
                return errno;
        return n == (ssize_t)len ? 0 : EIO;
}

size_t procfile_children(pid_t parent, pid_t *ret, size_t max)
{
        _cleanup_closedir_ DIR *d = opendir("/proc");
        struct dirent *e;
        size_t n = 0;
        while (d && n < max && (e = readdir(d))) {
                char path[64], line[128];
                pid_t pid = (pid_t)atoi(e->d_name);
                if (pid <= 0)
                        continue;
                snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
                _cleanup_fclose_ FILE *f = fopen(path, "re");
                while (f && fgets(line, sizeof line, f))
                        if (!strncmp(line, "PPid:", 5)) {
                                if (atoi(line + 5) == parent)
                                        ret[n++] = pid;
                                break;
                        }
        }
        return n;
}

bool procfile_mount_seen(unsigned long mount_id, const char *path)
{
        struct statx stx;
        if (statx(AT_FDCWD, path, AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &stx) < 0)
                return false;
        if (!(stx.stx_mask & STATX_MNT_ID))
                return true;
        return stx.stx_mnt_id == mount_id;
}
