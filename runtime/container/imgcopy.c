/* imgcopy.c - a store image's layers copied into one directory, for a container where
 * overlayfs cannot be used (imgrootfs.c says when): lowest layer first, each applied over the
 * ones below as overlayfs would show them. A whiteout (a character device 0:0) removes what
 * the layers below had at its name; a directory with user.overlay.opaque = "y" hides what they
 * had under it. Files are cloned (ioctl(2) FICLONE: the same blocks, shared until written, on
 * btrfs and XFS) where the filesystem can, else copied; owners, modes, times and extended
 * attributes (but overlayfs's own) are kept. Hard links become separate files.
 *
 * Runs as root of the container's user namespace for a user (its ids are the layers' owners,
 * as when the layers were written), as root on the host for root. Every path is opened from a
 * directory descriptor with O_NOFOLLOW: a symlink of a layer is copied, never followed. */
#define _GNU_SOURCE
#include "imgcopy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/cleanup.h"

#define COPY_MAX_DEPTH 256

static bool is_whiteout(const struct stat *st)
{
        return S_ISCHR(st->st_mode) && major(st->st_rdev) == 0 && minor(st->st_rdev) == 0;
}

/* The extended attributes of `src` onto `dst` (both opened, not O_PATH), but overlayfs's */
static void copy_xattrs(int src, int dst)
{
        char names[8192], value[8192];
        ssize_t n = flistxattr(src, names, sizeof names);
        for (ssize_t i = 0; i > -1 && i < n; i += (ssize_t)strlen(names + i) + 1) {
                const char *name = names + i;
                if (!strncmp(name, "user.overlay.", 13) || !strncmp(name, "trusted.overlay.", 16))
                        continue;
                ssize_t v = fgetxattr(src, name, value, sizeof value);
                if (v >= 0)
                        fsetxattr(dst, name, value, (size_t)v, 0);
        }
}

/* Owner, then mode (a chown clears setuid bits), then times, of the entry `name` in `dir` */
static int copy_attrs(int dir, const char *name, const struct stat *st, struct error *err)
{
        struct timespec times[2] = {st->st_atim, st->st_mtim};
        if (fchownat(dir, name, st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW) < 0)
                return error_set(err, errno, "cannot give '%s' its owner %u:%u", name,
                                 (unsigned)st->st_uid, (unsigned)st->st_gid);
        if (!S_ISLNK(st->st_mode) && fchmodat(dir, name, st->st_mode & 07777, 0) < 0)
                return error_set(err, errno, "cannot give '%s' its mode", name);
        utimensat(dir, name, times, AT_SYMLINK_NOFOLLOW);
        return 0;
}

/* `name` in `dir`, all of it, without following a symlink. A directory deeper than
 * COPY_MAX_DEPTH below the one being removed (`top`; -1: `name` is it) is not opened but moved
 * up into `top` (named deep-N, counted in `*moved`), and `top` is read again until nothing more
 * moves: what a container wrote may nest as deep as it likes, and crib holds at most
 * COPY_MAX_DEPTH directories open. */
static int remove_in(int dir, const char *name, int depth, int top, unsigned *moved,
                     struct error *err)
{
        if (unlinkat(dir, name, 0) == 0 || errno == ENOENT)
                return 0;
        if (errno != EISDIR && errno != EPERM)
                return error_set(err, errno, "cannot remove '%s'", name);
        if (top >= 0 && depth > COPY_MAX_DEPTH) {
                for (;;) {
                        char to[32];
                        snprintf(to, sizeof to, "deep-%u", (*moved)++);
                        if (renameat2(dir, name, top, to, RENAME_NOREPLACE) == 0)
                                return 0;
                        if (errno != EEXIST)
                                return error_set(err, errno, "cannot move '%s' up to remove it",
                                                 name);
                }
        }
        int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        /* overlayfs's work/work is 0000: its owner may open it once it has made it 0700 (a
         * directory, as unlinkat said: nothing in the store can swap it for a symlink now) */
        if (fd < 0 && errno == EACCES && fchmodat(dir, name, 0700, 0) == 0)
                fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "cannot open '%s' to remove it", name);
        /* its entries can be removed once it is its owner's to write (a chmod only where it is
         * not: each is a metadata write, which waits on the journal of a busy filesystem) */
        struct stat st;
        if (fstat(fd, &st) < 0 || (st.st_mode & 0700) != 0700)
                fchmod(fd, 0700);
        DIR *d = fdopendir(fd);
        if (!d) {
                close(fd);
                return error_set(err, errno, "cannot read '%s'", name);
        }
        struct dirent *e;
        int r = 0;
        unsigned before;
        do {
                before = *moved;
                rewinddir(d);
                while (r == 0 && (e = readdir(d)))
                        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                                r = remove_in(dirfd(d), e->d_name, top >= 0 ? depth + 1 : 1,
                                              top >= 0 ? top : dirfd(d), moved, err);
        } while (r == 0 && top < 0 && *moved != before);
        closedir(d);
        if (r == 0 && unlinkat(dir, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
                return error_set(err, errno, "cannot remove '%s'", name);
        return r;
}

int imgcopy_remove(int dir, const char *name, int depth, struct error *err)
{
        unsigned moved = 0;
        (void)depth;
        return remove_in(dir, name, 0, -1, &moved, err);
}

/* A regular file: cloned, else copied */
static int copy_file(int sdir, int ddir, const char *name, const struct stat *st, struct error *err)
{
        _cleanup_close_ int in = openat(sdir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (in < 0)
                return error_set(err, errno, "cannot open '%s' in a layer", name);
        _cleanup_close_ int out =
                openat(ddir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (out < 0)
                return error_set(err, errno, "cannot make '%s'", name);
        if (ioctl(out, FICLONE, in) < 0) {
                char buf[65536];
                ssize_t n;
                while ((n = read(in, buf, sizeof buf)) > 0)
                        for (ssize_t done = 0, w; done < n; done += w)
                                if ((w = write(out, buf + done, (size_t)(n - done))) < 0)
                                        return error_set(err, errno, "cannot copy '%s'", name);
                if (n < 0)
                        return error_set(err, errno, "cannot read '%s' in a layer", name);
        }
        copy_xattrs(in, out);
        (void)st;
        return 0;
}

static int copy_dir(int sdir, int ddir, int depth, struct error *err);

/* One entry `name` of a layer's directory `sdir` over `ddir` */
static int copy_entry(int sdir, int ddir, const char *name, int depth, struct error *err)
{
        struct stat st, have;
        if (fstatat(sdir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return error_set(err, errno, "cannot read '%s' in a layer", name);
        bool exists = fstatat(ddir, name, &have, AT_SYMLINK_NOFOLLOW) == 0;
        if (is_whiteout(&st))
                return exists ? imgcopy_remove(ddir, name, depth, err) : 0;
        if (S_ISDIR(st.st_mode)) {
                char opaque[2];
                _cleanup_close_ int s =
                        openat(sdir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (s < 0)
                        return error_set(err, errno, "cannot open '%s' in a layer", name);
                bool opq = fgetxattr(s, "user.overlay.opaque", opaque, sizeof opaque) == 1 &&
                           opaque[0] == 'y';
                if (exists && (!S_ISDIR(have.st_mode) || opq) &&
                    imgcopy_remove(ddir, name, depth, err) < 0)
                        return -1;
                if ((!exists || !S_ISDIR(have.st_mode) || opq) && mkdirat(ddir, name, 0700) < 0)
                        return error_set(err, errno, "cannot make '%s'", name);
                _cleanup_close_ int d =
                        openat(ddir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (d < 0)
                        return error_set(err, errno, "cannot open '%s'", name);
                if (copy_dir(s, d, depth + 1, err) < 0)
                        return error_wrap(err, "'%s'", name);
                copy_xattrs(s, d);
                return copy_attrs(ddir, name, &st, err);
        }
        if (exists && imgcopy_remove(ddir, name, depth, err) < 0)
                return -1;
        if (S_ISREG(st.st_mode)) {
                if (copy_file(sdir, ddir, name, &st, err) < 0)
                        return -1;
        } else if (S_ISLNK(st.st_mode)) {
                char target[4096];
                ssize_t n = readlinkat(sdir, name, target, sizeof target - 1);
                if (n < 0)
                        return error_set(err, errno, "cannot read the symlink '%s'", name);
                target[n] = '\0';
                if (symlinkat(target, ddir, name) < 0)
                        return error_set(err, errno, "cannot make the symlink '%s'", name);
        } else if (S_ISFIFO(st.st_mode)) {
                if (mkfifoat(ddir, name, 0600) < 0)
                        return error_set(err, errno, "cannot make the FIFO '%s'", name);
        } else {
                return 0; /* no device node or socket: the store holds none */
        }
        return copy_attrs(ddir, name, &st, err);
}

static int copy_dir(int sdir, int ddir, int depth, struct error *err)
{
        if (depth > COPY_MAX_DEPTH)
                return error_set(err, ELOOP, "a layer nests directories too deep");
        int fd = openat(sdir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *d = fd < 0 ? NULL : fdopendir(fd);
        if (!d) {
                if (fd >= 0)
                        close(fd);
                return error_set(err, errno, "cannot read a layer's directory");
        }
        struct dirent *e;
        int r = 0;
        while (r == 0 && (e = readdir(d)))
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                        r = copy_entry(sdir, ddir, e->d_name, depth, err);
        closedir(d);
        return r;
}

int imgcopy_layer(int src, int dst, struct error *err)
{
        struct stat st;
        if (copy_dir(src, dst, 0, err) < 0)
                return -1;
        /* the root directory's own attributes, the topmost layer's winning */
        if (fstat(src, &st) < 0 || fchown(dst, st.st_uid, st.st_gid) < 0 ||
            fchmod(dst, st.st_mode & 07777) < 0)
                return error_set(err, errno, "cannot give the rootfs the layer's owner and mode");
        return 0;
}
