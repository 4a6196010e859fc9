/* sys.c - traced system call wrappers for the container setup; see sys.h. */
#define _GNU_SOURCE
#include "sys.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* Trace "call(args) = 0" or "call(args) = -1 EPERM" for a call that returned r with errno e. */
static void traced(const struct trace *t, int r, int e, const char *fmt, ...) CRIB_PRINTF(4, 5);
static void traced(const struct trace *t, int r, int e, const char *fmt, ...)
{
        char call[900], buf[32];
        va_list ap;
        if (!t || !t->on)
                return;
        va_start(ap, fmt);
        vsnprintf(call, sizeof call, fmt, ap);
        va_end(ap);
        if (r < 0)
                trace_line(t, "  %s = -1 %s", call, trace_errno_name(e, buf, sizeof buf));
        else
                trace_line(t, "  %s = %d", call, r);
}

static const char *q(const char *s, char *buf, size_t len)
{
        if (!s)
                return "NULL";
        snprintf(buf, len, "\"%s\"", s);
        return buf;
}

int sys_mount(const struct trace *t, const char *src, const char *target, const char *shown,
              const char *fstype, unsigned long flags, const char *data, struct error *err)
{
        int r = mount(src, target, fstype, flags, data);
        int e = errno;
        if (t && t->on) {
                char b1[256], b2[256], b3[64], b4[256], fl[256];
                traced(t, r, e, "mount(%s, %s, %s, %s, %s)", q(src, b1, sizeof b1),
                       q(shown ? shown : target, b2, sizeof b2), q(fstype, b3, sizeof b3),
                       trace_mount_flags(flags, fl, sizeof fl), q(data, b4, sizeof b4));
        }
        if (r < 0) {
                const char *on = shown ? shown : target;
                if (flags & MS_REMOUNT)
                        return error_set(err, e, "cannot remount '%s'", on);
                if (flags & MS_BIND)
                        return error_set(err, e, "cannot bind '%s' on '%s'", src, on);
                if (flags & MS_MOVE)
                        return error_set(err, e, "cannot move '%s' to '%s'", src, on);
                if (flags & (MS_PRIVATE | MS_SLAVE | MS_SHARED))
                        return error_set(err, e, "cannot change the propagation of '%s'", on);
                return error_set(err, e, "cannot mount %s on '%s'", fstype, on);
        }
        return 0;
}

int sys_umount2(const struct trace *t, const char *target, int flags, struct error *err)
{
        int r = umount2(target, flags);
        int e = errno;
        traced(t, r, e, "umount2(\"%s\", %s)", target, flags == MNT_DETACH ? "MNT_DETACH" : "0");
        if (r < 0)
                return error_set(err, e, "cannot unmount '%s'", target);
        return 0;
}

int sys_chdir(const struct trace *t, const char *path, struct error *err)
{
        int r = chdir(path);
        int e = errno;
        traced(t, r, e, "chdir(\"%s\")", path);
        if (r < 0)
                return error_set(err, e, "cannot change directory to '%s'", path);
        return 0;
}

int sys_pivot_root(const struct trace *t, const char *new_root, const char *put_old,
                   struct error *err)
{
        int r = (int)syscall(SYS_pivot_root, new_root, put_old);
        int e = errno;
        traced(t, r, e, "pivot_root(\"%s\", \"%s\")", new_root, put_old);
        if (r < 0)
                return error_set(err, e, "cannot pivot_root into the rootfs");
        return 0;
}

int sys_chroot(const struct trace *t, const char *path, struct error *err)
{
        int r = chroot(path);
        int e = errno;
        traced(t, r, e, "chroot(\"%s\")", path);
        if (r < 0)
                return error_set(err, e, "cannot chroot into '%s'", path);
        return 0;
}

int sys_mkdirat(const struct trace *t, int dirfd, const char *name, const char *shown, mode_t mode,
                struct error *err)
{
        int r = mkdirat(dirfd, name, mode);
        int e = errno;
        traced(t, r, e, "mkdir(\"%s\", 0%o)", shown, (unsigned)mode);
        if (r < 0 && e != EEXIST)
                return error_set(err, e, "cannot create directory '%s' in the rootfs", shown);
        return r < 0 ? 1 : 0;
}

int sys_symlinkat(const struct trace *t, const char *target, int dirfd, const char *name,
                  const char *shown, struct error *err)
{
        int r = symlinkat(target, dirfd, name);
        int e = errno;
        traced(t, r, e, "symlink(\"%s\", \"%s\")", target, shown);
        if (r < 0 && e != EEXIST)
                return error_set(err, e, "cannot create symlink '%s'", shown);
        return 0;
}

int sys_mknodat(const struct trace *t, int dirfd, const char *name, const char *shown, mode_t mode,
                dev_t dev, struct error *err)
{
        int r = mknodat(dirfd, name, mode, dev);
        int e = errno;
        traced(t, r, e, "mknod(\"%s\", S_IFCHR|0%o, makedev(%u, %u))", shown,
               (unsigned)(mode & 07777), major(dev), minor(dev));
        if (r < 0)
                return error_set(err, e, "cannot create device node '%s'", shown);
        return 0;
}

int sys_write_all(int fd, const void *buf, size_t n)
{
        const char *p = buf;
        while (n) {
                ssize_t w = write(fd, p, n);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w <= 0) {
                        if (w == 0)
                                errno = EIO;
                        return -1;
                }
                p += w;
                n -= (size_t)w;
        }
        return 0;
}

int sys_wait_readable(int fd, int ms)
{
        struct timespec end;
        clock_gettime(CLOCK_MONOTONIC, &end);
        end.tv_sec += ms / 1000;
        end.tv_nsec += (long)(ms % 1000) * 1000000;
        for (;;) {
                struct pollfd p = {.fd = fd, .events = POLLIN};
                int r = poll(&p, 1, ms);
                if (r >= 0 || errno != EINTR)
                        return r;
                if (ms < 0)
                        continue;
                struct timespec now;
                clock_gettime(CLOCK_MONOTONIC, &now);
                long left =
                        (end.tv_sec - now.tv_sec) * 1000 + (end.tv_nsec - now.tv_nsec) / 1000000;
                ms = left > 0 ? (int)left : 0;
        }
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

void sys_prefault_stack(size_t bytes)
{
        /* the stack's mapping reaches 128 KB below where it began at exec (the kernel's
         * stack_expand), so `bytes` below a frame near main's stays inside it */
        char here;
        uintptr_t top = (uintptr_t)&here & ~(uintptr_t)4095;
        int saved = errno;
        madvise((void *)(top - bytes), bytes, MADV_POPULATE_WRITE);
        errno = saved;
}
