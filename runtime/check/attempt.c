/* attempt.c - try a feature for real in a throw-away child: fork, attempt, report the errno, exit.
 *
 * The child may unshare, load a seccomp filter or change its AppArmor profile on exec: all of
 * that dies with it, so `crib check` changes nothing on the host. Each p_* probe is one attempt,
 * made as crib would make it (as a user: inside a user namespace of its own, mapped to 0).
 */
#define _GNU_SOURCE
#include "check_private.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/apparmor.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/kernel.h"
#include "base/procfile.h"
#include "seccomp/seccomp.h"

struct probe {
        int (*fn)(const void *arg, long *value); /* returns 0 or an errno */
        const void *arg;
};

/* Run fn in a child; returns its errno (0: it worked), *value what it reported. */
int attempt(int (*fn)(const void *, long *), const void *arg, long *value)
{
        int p[2];
        long out[2] = {EIO, 0};
        if (pipe2(p, O_CLOEXEC) < 0)
                return errno;
        pid_t pid = fork();
        if (pid < 0)
                return errno;
        if (pid == 0) {
                long v = 0;
                long r = fn(arg, &v);
                long msg[2] = {r, v};
                ssize_t w = write(p[1], msg, sizeof msg);
                _exit(w == (ssize_t)sizeof msg ? 0 : 1);
        }
        close(p[1]);
        ssize_t n = read(p[0], out, sizeof out);
        close(p[0]);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
        if (n != (ssize_t)sizeof out)
                return EIO;
        if (value)
                *value = out[1];
        return (int)out[0];
}

/* Enter a new user namespace and map ourselves to 0 in it, as an unprivileged user must. */
static int map_self(void)
{
        char map[64];
        uid_t uid = getuid();
        gid_t gid = getgid();
        if (unshare(CLONE_NEWUSER) < 0)
                return errno;
        int e = procfile_write("/proc/self/setgroups", "deny");
        snprintf(map, sizeof map, "0 %u 1", gid);
        if (!e)
                e = procfile_write("/proc/self/gid_map", map);
        snprintf(map, sizeof map, "0 %u 1", uid);
        if (!e)
                e = procfile_write("/proc/self/uid_map", map);
        return e;
}

/* Become root of a new user namespace, unless we are root already. */
static int own_userns(void)
{
        return geteuid() == 0 ? 0 : map_self();
}

int p_unshare(const void *arg, long *v)
{
        const struct ns_arg *a = arg;
        (void)v;
        if (a->as_nobody && (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
                             setresuid(65534, 65534, 65534) < 0))
                return errno;
        if (!(a->flags & CLONE_NEWUSER) && geteuid() != 0) {
                int e = own_userns();
                if (e)
                        return e;
        }
        return unshare(a->flags) < 0 ? errno : 0;
}

int p_idmap(const void *arg, long *v)
{
        (void)arg, (void)v;
        return map_self();
}

int p_pivot(const void *arg, long *v)
{
        const char *rootfs = arg;
        (void)v;
        int e = own_userns();
        if (e)
                return e;
        if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
            mount(rootfs, rootfs, NULL, MS_BIND | MS_REC, NULL) < 0 || chdir(rootfs) < 0 ||
            syscall(SYS_pivot_root, ".", ".") < 0)
                return errno;
        return 0;
}

int p_nnp(const void *arg, long *v)
{
        (void)arg, (void)v;
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return errno;
        return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? 0 : EINVAL;
}

int p_ambient(const void *arg, long *v)
{
        (void)arg, (void)v;
        struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
        struct __user_cap_data_struct d[2];
        int e = own_userns();
        if (e)
                return e;
        if (syscall(SYS_capget, &h, d) < 0)
                return errno;
        d[0].inheritable = d[0].permitted;
        d[1].inheritable = d[1].permitted;
        if (syscall(SYS_capset, &h, d) < 0)
                return errno;
        return prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_BIND_SERVICE, 0, 0) < 0 ? errno
                                                                                           : 0;
}

int p_seccomp(const void *arg, long *v)
{
        struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        char line[128];
        (void)arg;
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return errno;
        if (seccomp_load_filter(&allow, 1, 0) < 0)
                return errno;
        FILE *f = fopen("/proc/self/status", "re");
        while (f && fgets(line, sizeof line, f))
                if (!strncmp(line, "Seccomp:", 8))
                        *v = atol(line + 8);
        if (f)
                fclose(f);
        return *v == 2 ? 0 : EINVAL;
}

int p_notify(const void *arg, long *v)
{
        struct sock_filter f[] = {
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        (void)arg, (void)v;
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return errno;
        int fd = seccomp_load_filter(f, sizeof f / sizeof f[0], SECCOMP_FILTER_FLAG_NEW_LISTENER);
        return fd < 0 ? errno : 0;
}

int p_clone_filter(const void *arg, long *v)
{
        (void)arg, (void)v;
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return errno;
        /* asked as `crib run --count N` asks it before it starts a template (host/kernel.c) */
        return seccomp_kernel_has_clone_filter() ? 0 : EINVAL;
}

int p_landlock(const void *arg, long *v)
{
        (void)arg;
        long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
        if (abi < 0)
                return errno;
        *v = abi;
        return 0;
}

int p_overlay(const void *arg, long *v)
{
        const char *dir = arg;
        char lower[256], upper[256], work[256], merged[256], opts[1024];
        (void)v;
        int e = own_userns();
        if (e)
                return e;
        if (unshare(CLONE_NEWNS) < 0)
                return errno;
        snprintf(lower, sizeof lower, "%s/l", dir);
        snprintf(upper, sizeof upper, "%s/u", dir);
        snprintf(work, sizeof work, "%s/w", dir);
        snprintf(merged, sizeof merged, "%s/m", dir);
        snprintf(opts, sizeof opts, "lowerdir=%s,upperdir=%s,workdir=%s", lower, upper, work);
        return mount("overlay", merged, "overlay", 0, opts) < 0 ? errno : 0;
}

int p_apparmor_onexec(const void *arg, long *v)
{
        (void)v;
        return aa_change_onexec(arg) < 0 ? errno : 0;
}

void errno_evidence(struct check_row *r, const char *call, int e)
{
        char name[32];
        if (e)
                put(r->evidence, sizeof r->evidence, "%s: %s (%s)", call,
                    strerrorname_np(e) ? strerrorname_np(e)
                                       : (snprintf(name, sizeof name, "%d", e), name),
                    strerror(e));
        else
                put(r->evidence, sizeof r->evidence, "%s worked", call);
}

/* A row that is one attempt: ok when it works, else `fail` with `remedy` (or none). */
struct check_row *attempt_row(struct check_row *rows, size_t *n, const char *id,
                              const char *feature, enum check_need need,
                              int (*fn)(const void *, long *), const void *arg, const char *call,
                              enum check_status fail, const char *remedy)
{
        struct check_row *r = row(rows, n, id, feature, need);
        int e = attempt(fn, arg, NULL);
        errno_evidence(r, call, e);
        r->status = e ? fail : CHECK_OK;
        if (e && remedy)
                snprintf(r->remedy, sizeof r->remedy, "%s", remedy);
        return r;
}
