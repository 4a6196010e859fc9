/* log.c - a detached container's output; see log.h.
 *
 * Kernel features: renameat(2), atomic, so a reader sees the old `log` or the new one, never
 * none; openat(2) with O_NOFOLLOW, so a planted symlink is never written through.
 */
#define _GNU_SOURCE
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "state.h"
#include "base/sys.h"

static int open_log(int dir)
{
        /* O_NONBLOCK: a FIFO in its place fails (ENXIO) rather than hang the monitor */
        return openat(dir, "log",
                      O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
                      0600);
}

int log_open(struct log_writer *w, int dir, struct error *err)
{
        w->size = 0;
        if (w->limit < LOG_LIMIT_MIN)
                w->limit = LOG_LIMIT_MIN;
        w->fd = open_log(dir);
        if (w->fd < 0)
                return error_set(err, errno, "cannot create the log of '%s'", w->name);
        return 0;
}

/* `log` in dir is the file we write: not a new container's of the same name, made after `crib
 * rm -f` removed ours while this monitor was still ending */
static bool ours(int dir, int fd)
{
        struct stat a, b;
        return fstatat(dir, "log", &a, AT_SYMLINK_NOFOLLOW) == 0 && fstat(fd, &b) == 0 &&
               a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* log -> log.1, and a new log; on any failure the old one goes on (and is truncated) */
static void rotate(struct log_writer *w)
{
        struct error ignored;
        _cleanup_close_ int dir = state_open_path(w->root, w->uid, w->name, &ignored);
        if (dir >= 0 && ours(dir, w->fd) && renameat(dir, "log", dir, "log.1") == 0) {
                int fd = open_log(dir);
                if (fd >= 0) {
                        close(w->fd);
                        w->fd = fd;
                        w->size = 0;
                        return;
                }
        }
        if (ftruncate(w->fd, 0) == 0)
                w->size = 0;
}

void log_write(struct log_writer *w, const char *buf, size_t n)
{
        if (w->fd < 0)
                return;
        if (w->size + n > w->limit / 2)
                rotate(w);
        if (n > w->limit / 2) { /* one write larger than a file: keep its end */
                buf += n - w->limit / 2;
                n = w->limit / 2;
        }
        /* a write that fails is dropped; what it may have written counts at the next fstat */
        if (sys_write_all(w->fd, buf, n) == 0) {
                w->size += n;
        } else {
                struct stat st;
                if (fstat(w->fd, &st) == 0)
                        w->size = (uint64_t)st.st_size;
        }
}

void log_close(struct log_writer *w)
{
        if (w->fd >= 0)
                close(w->fd);
        w->fd = -1;
}

/* where the last `tail` lines of the file at fd begin */
static off_t tail_start(int fd, off_t size, long tail)
{
        char buf[4096];
        long lines = 0;
        off_t pos = size;
        /* a last line without its newline counts as a line too */
        if (size > 0 && pread(fd, buf, 1, size - 1) == 1 && buf[0] == '\n')
                pos = size - 1;
        while (pos > 0) {
                size_t chunk = pos > (off_t)sizeof buf ? sizeof buf : (size_t)pos;
                if (pread(fd, buf, chunk, pos - (off_t)chunk) != (ssize_t)chunk)
                        return 0;
                for (size_t i = chunk; i-- > 0;)
                        if (buf[i] == '\n' && ++lines == tail)
                                return pos - (off_t)chunk + (off_t)i + 1;
                pos -= (off_t)chunk;
        }
        return 0;
}

static long count_lines(int fd, off_t from, off_t size)
{
        char buf[4096];
        long lines = 0;
        bool partial = false;
        for (off_t pos = from; pos < size;) {
                ssize_t n = pread(fd, buf, sizeof buf, pos);
                if (n <= 0)
                        break;
                for (ssize_t i = 0; i < n; i++)
                        if (buf[i] == '\n')
                                lines++;
                partial = buf[n - 1] != '\n';
                pos += n;
        }
        return lines + (partial ? 1 : 0);
}

static int copy_range(int in, off_t from, off_t to, int out)
{
        char buf[16384];
        while (from < to) {
                size_t want = (size_t)(to - from) < sizeof buf ? (size_t)(to - from) : sizeof buf;
                ssize_t n = pread(in, buf, want, from);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;
                if (sys_write_all(out, buf, (size_t)n) < 0)
                        return -1;
                from += n;
        }
        return 0;
}

int64_t log_copy(int dir, int out, long tail, struct error *err)
{
        _cleanup_close_ int old =
                openat(dir, "log.1", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        _cleanup_close_ int cur =
                openat(dir, "log", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        struct stat so = {0}, sc = {0};
        if (cur < 0 && errno != ENOENT)
                return error_set(err, errno, "cannot read the log");
        if (old >= 0 && fstat(old, &so) < 0)
                return error_set(err, errno, "cannot read the log");
        if (cur >= 0 && fstat(cur, &sc) < 0)
                return error_set(err, errno, "cannot read the log");
        off_t from_cur = 0, from_old = old >= 0 ? 0 : so.st_size;
        if (tail == 0) {
                from_cur = sc.st_size;
                from_old = so.st_size;
        } else if (tail > 0) {
                long in_cur = cur >= 0 ? count_lines(cur, 0, sc.st_size) : 0;
                if (in_cur >= tail) {
                        from_cur = cur >= 0 ? tail_start(cur, sc.st_size, tail) : 0;
                        from_old = so.st_size;
                } else if (old >= 0) {
                        from_old = tail_start(old, so.st_size, tail - in_cur);
                }
        }
        if ((old >= 0 && copy_range(old, from_old, so.st_size, out) < 0) ||
            (cur >= 0 && copy_range(cur, from_cur, sc.st_size, out) < 0))
                return error_set(err, errno, "cannot write the log out");
        return (int64_t)sc.st_size;
}

int log_follow(int dir, int out, int64_t offset, bool (*more)(void *ctx), void *ctx,
               struct error *err)
{
        _cleanup_close_ int fd = openat(dir, "log", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        off_t at = (off_t)offset;
        for (;;) {
                bool last =
                        !more(ctx); /* asked before the copy: nothing written after it is lost */
                struct stat st = {0}, now;
                if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > at) {
                        if (copy_range(fd, at, st.st_size, out) < 0)
                                return error_set(err, errno, "cannot write the log out");
                        at = st.st_size;
                }
                /* rotated: the rest of the old file was copied just now; the new one from 0 */
                if (fstatat(dir, "log", &now, AT_SYMLINK_NOFOLLOW) == 0 &&
                    (fd < 0 || now.st_ino != st.st_ino)) {
                        if (fd >= 0) {
                                /* what reached the old file between our look and the rename */
                                if (fstat(fd, &st) == 0 && st.st_size > at)
                                        copy_range(fd, at, st.st_size, out);
                                close(fd);
                        }
                        fd = openat(dir, "log", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
                        at = 0;
                        continue;
                }
                if (last)
                        return 0;
                usleep(100 * 1000);
        }
}
