/* sys.c - traced system call wrappers for the container setup; see sys.h. */
#define _GNU_SOURCE
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Print "= 0" or "= -1 EPERM" after a traced call; returns r. */
static int result(const struct trace *t, const char *call, int r, int e)
{
        char buf[32];
        if (r < 0)
                trace_line(t, "  %s = -1 %s", call, trace_errno_name(e, buf, sizeof buf));
        else
                trace_line(t, "  %s = %d", call, r);
        errno = e;
        return r;
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
                char call[900], b1[256], b2[256], b3[64], b4[256], fl[256];
                snprintf(call, sizeof call, "mount(%s, %s, %s, %s, %s)", q(src, b1, sizeof b1),
                         q(shown ? shown : target, b2, sizeof b2), q(fstype, b3, sizeof b3),
                         trace_mount_flags(flags, fl, sizeof fl), q(data, b4, sizeof b4));
                result(t, call, r, e);
        }
        if (r < 0) {
                const char *what = (flags & MS_REMOUNT) ? "remount"
                                   : (flags & MS_BIND)  ? "bind"
                                   : (flags & MS_MOVE)  ? "move"
                                   : (flags & (MS_PRIVATE | MS_SLAVE | MS_SHARED))
                                       ? "change propagation of"
                                       : fstype;
                if (flags & MS_BIND && !(flags & MS_REMOUNT))
                        return error_set(err, e, "cannot bind '%s' on '%s'", src,
                                         shown ? shown : target);
                return error_set(
                    err, e, "cannot %s%s '%s'", what,
                    (flags & (MS_REMOUNT | MS_MOVE | MS_PRIVATE | MS_SLAVE | MS_SHARED))
                        ? ""
                        : " mount on",
                    shown ? shown : target);
        }
        return 0;
}

int sys_umount2(const struct trace *t, const char *target, int flags, struct error *err)
{
        int r = umount2(target, flags);
        int e = errno;
        if (t && t->on) {
                char call[300];
                snprintf(call, sizeof call, "umount2(\"%s\", %s)", target,
                         flags == MNT_DETACH ? "MNT_DETACH" : "0");
                result(t, call, r, e);
        }
        if (r < 0)
                return error_set(err, e, "cannot unmount '%s'", target);
        return 0;
}

int sys_chdir(const struct trace *t, const char *path, struct error *err)
{
        int r = chdir(path);
        int e = errno;
        if (t && t->on) {
                char call[300];
                snprintf(call, sizeof call, "chdir(\"%s\")", path);
                result(t, call, r, e);
        }
        if (r < 0)
                return error_set(err, e, "cannot change directory to '%s'", path);
        return 0;
}

int sys_pivot_root(const struct trace *t, const char *new_root, const char *put_old,
                   struct error *err)
{
        int r = (int)syscall(SYS_pivot_root, new_root, put_old);
        int e = errno;
        if (t && t->on) {
                char call[300];
                snprintf(call, sizeof call, "pivot_root(\"%s\", \"%s\")", new_root, put_old);
                result(t, call, r, e);
        }
        if (r < 0)
                return error_set(err, e, "cannot pivot_root into the rootfs");
        return 0;
}

int sys_chroot(const struct trace *t, const char *path, struct error *err)
{
        int r = chroot(path);
        int e = errno;
        if (t && t->on) {
                char call[300];
                snprintf(call, sizeof call, "chroot(\"%s\")", path);
                result(t, call, r, e);
        }
        if (r < 0)
                return error_set(err, e, "cannot chroot into '%s'", path);
        return 0;
}

int sys_mkdirat(const struct trace *t, int dirfd, const char *name, const char *shown, mode_t mode,
                struct error *err)
{
        int r = mkdirat(dirfd, name, mode);
        int e = errno;
        if (t && t->on) {
                char call[300];
                snprintf(call, sizeof call, "mkdir(\"%s\", 0%o)", shown, (unsigned)mode);
                result(t, call, r, e);
        }
        if (r < 0 && e != EEXIST)
                return error_set(err, e, "cannot create directory '%s' in the rootfs", shown);
        return 0;
}

int sys_symlinkat(const struct trace *t, const char *target, int dirfd, const char *name,
                  const char *shown, struct error *err)
{
        int r = symlinkat(target, dirfd, name);
        int e = errno;
        if (t && t->on) {
                char call[300];
                snprintf(call, sizeof call, "symlink(\"%s\", \"%s\")", target, shown);
                result(t, call, r, e);
        }
        if (r < 0 && e != EEXIST)
                return error_set(err, e, "cannot create symlink '%s'", shown);
        return 0;
}

int sys_mknodat(const struct trace *t, int dirfd, const char *name, const char *shown, mode_t mode,
                dev_t dev, struct error *err)
{
        int r = mknodat(dirfd, name, mode, dev);
        int e = errno;
        if (t && t->on) {
                char call[300];
                snprintf(call, sizeof call, "mknod(\"%s\", S_IFCHR|0%o, makedev(%u, %u))", shown,
                         (unsigned)(mode & 07777), major(dev), minor(dev));
                result(t, call, r, e);
        }
        if (r < 0)
                return error_set(err, e, "cannot create device node '%s'", shown);
        return 0;
}
