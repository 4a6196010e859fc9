/* sysctl.c - the container's sysctls, set in its own namespaces.
 *
 * Kernel feature: /proc/sys (proc(5), sysctl(8)). A file there is the kernel's setting; for the
 * namespaced ones (net.* per network namespace, the IPC limits per IPC namespace,
 * kernel.domainname per UTS namespace: spec/sysctlkey.c) the value read or written is that of
 * the namespace of the process that opens it, whichever proc mount it goes through. The plan
 * has only such sysctls, each of a namespace the container has of its own, and none in a
 * namespace crib runs in, the host's, joined by path (plan/tunables.c); this step checks the last
 * once more on the namespace it is in, since a path is looked up again when it is joined.
 *
 * kernel.domainname is set with setdomainname(2) instead, which is the same setting: the UTS
 * namespace's files in /proc/sys belong to the host's root in any namespace, so a user's
 * container could not write it there, while the call needs only CAP_SYS_ADMIN in the user
 * namespace that owns the UTS namespace (runc writes the file, and fails there).
 *
 * Where it sits: after pivot_root, through the container's own /proc (crib's mount of it, checked
 * to be a proc filesystem), never the host's; before the paths are hidden and made read-only,
 * which makes /proc/sys read-only; as root of the container's user namespace, which owns its
 * namespaces. Each name becomes a path below /proc/sys, opened with openat2(2) with
 * RESOLVE_BENEATH, RESOLVE_NO_SYMLINKS and RESOLVE_NO_XDEV (Linux 5.6), so no symlink, "..",
 * or mount put over a part of it (a config's mount, say) is followed; before Linux 5.6 one
 * component at a time with O_NOFOLLOW, the file checked to be on the same proc mount.
 *
 * What can go wrong: the kernel refuses a sysctl in a user namespace it does not let own it (on
 * older kernels the IPC sysctls stay the host root's), or has no such sysctl (a module not
 * loaded, a different kernel version): an error, as runc's, with nothing of the host changed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif

#include "step.h"
#include "base/cleanup.h"

#define PROC_SUPER_MAGIC_ 0x9fa0 /* <linux/magic.h> */

/* Whether fd is on a proc filesystem, on the mount whose device is `dev` */
static bool on_proc(int fd, dev_t dev)
{
        struct statfs sf;
        struct stat st;
        return fstatfs(fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC_ && fstat(fd, &st) == 0 &&
               st.st_dev == dev;
}

/* `rel` (components of a checked sysctl name, '/' between them) below the directory `dir`,
 * with `flags`, following no symlink, no "..", no mount; a descriptor, or -1 with errno set */
static int open_beneath(int dir, const char *rel, int flags)
{
#if defined(SYS_openat2) && defined(RESOLVE_NO_XDEV)
        struct open_how how = {.flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC),
                               .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
                                          RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV};
        int fd = (int)syscall(SYS_openat2, dir, rel, &how, sizeof how);
        if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
                return fd;
                /* ENOSYS: before Linux 5.6; EPERM: a seccomp filter of a container crib runs in */
#endif
        char part[SPEC_SYSCTL_KEY + 8];
        int cur = dup(dir);
        for (const char *at = rel; cur >= 0;) {
                const char *slash = strchr(at, '/');
                size_t n = slash ? (size_t)(slash - at) : strlen(at);
                if (!n || n >= sizeof part || (n <= 2 && !strncmp(at, "..", n))) {
                        close(cur);
                        errno = EINVAL;
                        return -1;
                }
                memcpy(part, at, n);
                part[n] = '\0';
                int next = openat(cur, part,
                                  (slash ? O_PATH | O_DIRECTORY : flags) | O_NOFOLLOW | O_CLOEXEC);
                int e = errno;
                close(cur);
                errno = e;
                cur = next;
                if (!slash)
                        break;
                at = slash + 1;
        }
        return cur;
}

/* One sysctl's file under the container's /proc (`proc`, on device `procdev`), written. */
static int write_sysctl(struct child *c, int proc, dev_t procdev, const char *key,
                        const char *value, struct error *err)
{
        char rel[SPEC_SYSCTL_KEY + 8];
        snprintf(rel, sizeof rel, "sys/%s", key);
        for (char *d = rel; *d; d++)
                if (*d == '.')
                        *d = '/';
        _cleanup_close_ int fd = open_beneath(proc, rel, O_WRONLY | O_NOCTTY);
        int e = errno;
        struct stat st;
        if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !on_proc(fd, procdev))) {
                e = EXDEV;
                close(take_fd(&fd));
        }
        ssize_t w = fd >= 0 ? write(fd, value, strlen(value)) : -1;
        if (fd >= 0 && w < 0)
                e = errno;
        trace_line(&c->trace,
                   "  openat2(/proc, \"%s\", RESOLVE_BENEATH|NO_SYMLINKS|NO_XDEV); "
                   "write(\"%s\") = %s%s",
                   rel, value, w >= 0 ? "0" : "-1 ", w >= 0 ? "" : strerrorname_np(e));
        if (w >= 0 && (size_t)w == strlen(value))
                return 0;
        error_set(err, w >= 0 ? EIO : e, "cannot set sysctl '%s' to '%s' in the container", key,
                  value);
        if (e == ENOENT)
                return error_hint(err,
                                  "this kernel has no sysctl '%s' (a module not "
                                  "loaded, or another kernel version)",
                                  key);
        if (e == EACCES || e == EPERM)
                return error_hint(err, "the kernel does not let the container's user "
                                       "namespace set it; leave it out, or run the "
                                       "container without a user namespace as root");
        if (e == EXDEV || e == ELOOP)
                return error_hint(err,
                                  "'/proc/%s' is not the kernel's sysctl file: "
                                  "something is mounted over it",
                                  rel);
        return -1;
}

int step_in_crib_ns(const struct child *c, int kind, int proc)
{
        const struct plan_ns_id *crib = &c->plan->crib_ns[kind];
        char rel[32];
        struct stat st;
        if (!crib->dev)
                return 0; /* the plan has nothing to check */
        snprintf(rel, sizeof rel, "thread-self/ns/%s", spec_ns_file((enum spec_ns)kind));
        if (fstatat(proc, rel, &st, 0) < 0)
                return -1;
        return st.st_dev == crib->dev && st.st_ino == crib->ino;
}

/* Child: the setup process, after pivot_root, root in the container's user namespace. */
int step_sysctl(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        if (!p->sysctl || !p->sysctl[0])
                return step_skip(c, "no sysctl in the spec");
        _cleanup_close_ int proc = open("/proc", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat pst;
        struct statfs sf;
        if (proc < 0 || fstat(proc, &pst) < 0 || fstatfs(proc, &sf) < 0 ||
            sf.f_type != PROC_SUPER_MAGIC_) {
                error_set(err, proc < 0 ? errno : 0,
                          "'/proc' in the container is not a proc filesystem");
                return error_hint(err, "its mount failed or was lost; the sysctls are set "
                                       "through it");
        }
        for (size_t i = 0; p->sysctl[i]; i++) {
                char key[SPEC_SYSCTL_KEY];
                const char *eq = strchr(p->sysctl[i], '='), *value = eq ? eq + 1 : "";
                size_t n = eq ? (size_t)(eq - p->sysctl[i]) : 0;
                struct error why;
                if (!n || n >= sizeof key)
                        return error_set(err, EINVAL, "the plan's sysctl %zu is damaged", i);
                memcpy(key, p->sysctl[i], n);
                key[n] = '\0';
                /* the plan was checked when it was made; a plan file is read back too */
                int ns = spec_sysctl_ns(key, value, &why);
                if (ns < 0)
                        return error_set(err, EINVAL, "sysctl '%s' %s", key, why.msg);
                int in = step_in_crib_ns(c, ns, proc);
                if (in < 0)
                        return error_set(err, errno,
                                         "cannot look up our %s namespace in the container's "
                                         "/proc",
                                         spec_ns_title((enum spec_ns)ns));
                if (in)
                        return error_set(err, 0,
                                         "cannot set sysctl '%s': the container is in the host's "
                                         "%s namespace",
                                         key, spec_ns_title((enum spec_ns)ns));
                /* the UTS namespace's /proc/sys files are the host root's whatever namespace
                 * they show: the call lets the namespace's root set it (a user's container) */
                if (!strcmp(key, "kernel.domainname")) {
                        int r = setdomainname(value, strlen(value));
                        trace_line(&c->trace, "  setdomainname(\"%s\") = %d", value, r);
                        if (r < 0)
                                return error_set(err, errno,
                                                 "cannot set sysctl 'kernel.domainname' to '%s' "
                                                 "in the container",
                                                 value);
                        continue;
                }
                if (write_sysctl(c, proc, pst.st_dev, key, value, err) < 0)
                        return -1;
        }
        return 0;
}
