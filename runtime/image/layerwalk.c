/* layerwalk.c - walking and removing inside an image's root (layerwalk.h): one component at a
 * time from the root's descriptor, O_NOFOLLOW, never through a symbolic link an image planted;
 * removing never follows one either. Split from layer.c, which applies a layer with them. */
#define _GNU_SOURCE
#include "layerwalk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "budget.h"
#include "layer.h"

#define REMOVE_MAX_DEPTH 512

int layer_walk_charged(int root, const char *path, bool create, struct layer_ctx *c, int *ret_fd,
                       struct error *err)
{
        _cleanup_close_ int fd = fcntl(root, F_DUPFD_CLOEXEC, 3);
        if (fd < 0)
                return error_set(err, errno, "cannot duplicate the root's descriptor");
        char comp[256];
        const char *p = path;
        while (*p) {
                const char *end = strchr(p, '/');
                size_t n = end ? (size_t)(end - p) : strlen(p);
                if (n >= sizeof comp)
                        return error_set(err, ENAMETOOLONG, "'%s'", path);
                memcpy(comp, p, n);
                comp[n] = '\0';
                int next = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (next < 0 && errno == ENOENT && create) {
                        bool made = mkdirat(fd, comp, 0755) == 0;
                        if (!made && errno != EEXIST)
                                return error_set(err, errno, "cannot make directory '%.*s'",
                                                 (int)(p - path + n), path);
                        next = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        if (next >= 0 && made && c &&
                            (budget_charge(c, LAYER_ENTRY_COST, err) < 0 ||
                             budget_charge_made(c, next, "", LAYER_ENTRY_COST, err) < 0)) {
                                close(next);
                                return -1;
                        }
                }
                if (next < 0) {
                        int e = errno;
                        struct stat st;
                        if ((e == ENOTDIR || e == ELOOP) &&
                            fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
                                return error_set(err, 0,
                                                 "'%.*s' is a symbolic link: crib does not "
                                                 "write through one",
                                                 (int)(p - path + n), path);
                        if (e == ENOTDIR)
                                return error_set(err, 0, "'%.*s' is not a directory",
                                                 (int)(p - path + n), path);
                        return error_set(err, e, "cannot open directory '%.*s'",
                                         (int)(p - path + n), path);
                }
                close(fd);
                fd = next;
                p += n;
                if (*p == '/')
                        p++;
        }
        *ret_fd = take_fd(&fd);
        return 0;
}

int layer_walk(int root, const char *path, bool create, int *ret_fd, struct error *err)
{
        return layer_walk_charged(root, path, create, NULL, ret_fd, err);
}

static int remove_at(int pfd, const char *name, int depth, struct error *err)
{
        if (unlinkat(pfd, name, 0) == 0 || errno == ENOENT)
                return 0;
        if (errno != EISDIR && errno != EPERM)
                return error_set(err, errno, "cannot remove '%s'", name);
        if (depth > REMOVE_MAX_DEPTH)
                return error_set(err, ELOOP, "'%s' is nested too deeply to remove", name);
        int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "cannot open '%s' to remove it", name);
        _cleanup_closedir_ DIR *d = fdopendir(fd);
        if (!d) {
                close(fd);
                return error_set(err, errno, "cannot read '%s'", name);
        }
        struct dirent *de;
        while ((errno = 0, de = readdir(d))) {
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                if (remove_at(dirfd(d), de->d_name, depth + 1, err) < 0)
                        return error_wrap(err, "'%s'", name);
        }
        if (errno)
                return error_set(err, errno, "cannot read '%s'", name);
        if (unlinkat(pfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
                return error_set(err, errno, "cannot remove directory '%s'", name);
        return 0;
}

int layer_remove(int pfd, const char *name, struct error *err)
{
        return remove_at(pfd, name, 0, err);
}
