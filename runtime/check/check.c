/* check.c - `crib check`: does this kernel really support what crib uses?
 *
 * Each feature is tried for real in a throw-away child process (fork, attempt, report the
 * errno, exit), and separately looked up in the kernel config (/proc/config.gz, or
 * /boot/config-RELEASE). The attempt is the truth; the config only explains it: on a Raspberry
 * Pi the config can say a feature is built while a sysctl or the boot command line switches
 * it off, and /proc/config.gz only exists after `modprobe configs`.
 */
#define _GNU_SOURCE
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/apparmor.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "account.h"
#include "apparmor.h"
#include "bootline.h"
#include "cgroup.h"
#include "cleanup.h"
#include "procfile.h"
#include "seccomp.h"
#include "idmap.h"
#include "phrase.h"
#include "userns.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

const char *check_status_name(enum check_status s)
{
        static const char *const names[] = {"ok",         "missing", "disabled",
                                            "restricted", "error",   "not tried"};
        return names[s];
}

/* --- the kernel config ---------------------------------------------------------------------- */

static char *config;
static char config_src[128];

static void load_config(void)
{
        struct utsname u;
        char path[128];
        static bool done;
        if (done)
                return;
        done = true;
        uname(&u);
        snprintf(path, sizeof path, "/boot/config-%s", u.release);
        const char *tries[] = {"/proc/config.gz", path};
        for (size_t i = 0; i < 2 && !config; i++) {
                gzFile g = access(tries[i], R_OK) == 0 ? gzopen(tries[i], "rb") : NULL;
                if (!g)
                        continue;
                size_t cap = 1 << 20, n = 0;
                config = malloc(cap + 1);
                int r;
                while (config && n < cap && (r = gzread(g, config + n, (unsigned)(cap - n))) > 0)
                        n += (size_t)r;
                gzclose(g);
                if (config) {
                        config[n] = '\0';
                        snprintf(config_src, sizeof config_src, "%s", tries[i]);
                }
        }
}

/* Whether the running kernel has a `configs` module (CONFIG_IKCONFIG=m), which makes
 * /proc/config.gz appear when loaded: Raspberry Pi OS's kernels do, Debian's rpi kernel not. */
static bool configs_module(void)
{
        struct utsname u;
        char path[192], line[512];
        if (uname(&u) < 0)
                return false;
        snprintf(path, sizeof path, "/lib/modules/%s/modules.dep", u.release);
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        while (f && fgets(line, sizeof line, f)) {
                char *colon = strchr(line, ':');
                if (colon)
                        *colon = '\0';
                const char *base = strrchr(line, '/');
                base = base ? base + 1 : line;
                if (!strncmp(base, "configs.ko", 10))
                        return true;
        }
        return false;
}

/* "CONFIG_X=y", "CONFIG_X is not set", or how to get a config; and which wins. */
static void set_config(struct check_row *r, const char *key, bool works)
{
        char line[96];
        load_config();
        if (!config) {
                snprintf(r->config, sizeof r->config,
                         "no kernel config here (/proc/config.gz, /boot/config-*)%s",
                         configs_module() ? "; 'sudo modprobe configs' makes /proc/config.gz "
                                            "appear"
                                          : "");
                return;
        }
        snprintf(line, sizeof line, "\n%s=", key);
        const char *at = strstr(config, line);
        char val[8] = "";
        if (at)
                sscanf(at + strlen(line), "%7[^\n]", val);
        bool built = val[0] == 'y' || val[0] == 'm';
        snprintf(r->config, sizeof r->config, "%s%s%s%s", key, at ? "=" : " is not set",
                 at ? val : "",
                 built && !works   ? " (built, yet the attempt fails: the attempt wins)"
                 : !built && works ? " (the attempt works: it wins)"
                                   : "");
}

/* --- attempts in throw-away children -------------------------------------------------------- */

struct probe {
        int (*fn)(const void *arg, long *value); /* returns 0 or an errno */
        const void *arg;
};

/* Run fn in a child; returns its errno (0: it worked), *value what it reported. */
static int attempt(int (*fn)(const void *, long *), const void *arg, long *value)
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

struct ns_arg {
        int flags;
        bool as_nobody;
};

static int p_unshare(const void *arg, long *v)
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

static int p_idmap(const void *arg, long *v)
{
        (void)arg, (void)v;
        return map_self();
}

static int p_pivot(const void *arg, long *v)
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

static int p_nnp(const void *arg, long *v)
{
        (void)arg, (void)v;
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return errno;
        return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? 0 : EINVAL;
}

static int p_ambient(const void *arg, long *v)
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

static int p_seccomp(const void *arg, long *v)
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

static int p_notify(const void *arg, long *v)
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

static int p_clone_filter(const void *arg, long *v)
{
        (void)arg, (void)v;
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return errno;
        /* asked as `crib run --count N` asks it before it starts a template (seccomp_kernel.c) */
        return seccomp_kernel_has_clone_filter() ? 0 : EINVAL;
}

static int p_landlock(const void *arg, long *v)
{
        (void)arg;
        long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
        if (abi < 0)
                return errno;
        *v = abi;
        return 0;
}

static int p_overlay(const void *arg, long *v)
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

static int p_apparmor_onexec(const void *arg, long *v)
{
        (void)v;
        return aa_change_onexec(arg) < 0 ? errno : 0;
}

/* --- rows ------------------------------------------------------------------------------------ */

static struct check_row *row(struct check_row *rows, size_t *n, const char *id, const char *feature,
                             enum check_need need)
{
        struct check_row *r = &rows[(*n)++];
        memset(r, 0, sizeof *r);
        snprintf(r->id, sizeof r->id, "%s", id);
        snprintf(r->feature, sizeof r->feature, "%s", feature);
        r->need = need;
        return r;
}

static void put(char *buf, size_t len, const char *fmt, ...) CRIB_PRINTF(3, 4);
static void put(char *buf, size_t len, const char *fmt, ...)
{
        va_list ap;
        size_t used = strlen(buf);
        va_start(ap, fmt);
        vsnprintf(buf + used, len > used ? len - used : 0, fmt, ap);
        va_end(ap);
}

static void errno_evidence(struct check_row *r, const char *call, int e)
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
static struct check_row *attempt_row(struct check_row *rows, size_t *n, const char *id,
                                     const char *feature, enum check_need need,
                                     int (*fn)(const void *, long *), const void *arg,
                                     const char *call, enum check_status fail, const char *remedy)
{
        struct check_row *r = row(rows, n, id, feature, need);
        int e = attempt(fn, arg, NULL);
        errno_evidence(r, call, e);
        r->status = e ? fail : CHECK_OK;
        if (e && remedy)
                snprintf(r->remedy, sizeof r->remedy, "%s", remedy);
        return r;
}

static void userns_row(struct check_row *r, int e, bool unprivileged)
{
        struct error err;
        long clone = procfile_long("/proc/sys/kernel/unprivileged_userns_clone");
        long maxns = procfile_long("/proc/sys/user/max_user_namespaces");
        long aa = procfile_long("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
        errno_evidence(r, "unshare(CLONE_NEWUSER)", e);
        put(r->evidence, sizeof r->evidence, "; user.max_user_namespaces = %ld", maxns);
        if (clone >= 0)
                put(r->evidence, sizeof r->evidence, "; kernel.unprivileged_userns_clone = %ld",
                    clone);
        if (aa >= 0)
                put(r->evidence, sizeof r->evidence,
                    "; kernel.apparmor_restrict_unprivileged_userns = %ld", aa);
        set_config(r, "CONFIG_USER_NS", e == 0);
        if (!e) {
                r->status = CHECK_OK;
                return;
        }
        r->status = e == EINVAL                  ? CHECK_MISSING
                    : e == ENOSPC                ? CHECK_DISABLED
                    : unprivileged && clone == 0 ? CHECK_DISABLED
                    : e == EPERM                 ? CHECK_RESTRICTED
                                                 : CHECK_ERROR;
        error_clear(&err);
        userns_clone_error(CLONE_NEWUSER, e, SPEC_FRONT_INI, &err);
        if (e == EINVAL)
                snprintf(r->remedy, sizeof r->remedy, "use a kernel built with CONFIG_USER_NS=y");
        else
                snprintf(r->remedy, sizeof r->remedy, "%s", err.hint);
}

/* what crib check was asked about: a spec (only its rows), and where to try pivot_root */
struct check_ctx {
        const struct spec *spec;
        const char *rootfs;
};

static void ns_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        const struct spec *spec = x->spec;
        static const struct {
                const char *id, *feature, *config, *key;
                int flag;
                enum check_need need;
        } nss[] = {
                {"mount_namespace", "mount namespace", "CONFIG_NAMESPACES", NULL, CLONE_NEWNS,
                 NEED_ESSENTIAL},
                {"pid_namespace", "pid namespace", "CONFIG_PID_NS", "pid", CLONE_NEWPID,
                 NEED_DEFAULT},
                {"ipc_namespace", "ipc namespace", "CONFIG_IPC_NS", "ipc", CLONE_NEWIPC,
                 NEED_DEFAULT},
                {"uts_namespace", "uts namespace", "CONFIG_UTS_NS", "uts", CLONE_NEWUTS,
                 NEED_DEFAULT},
                {"net_namespace", "network namespace", "CONFIG_NET_NS", "net", CLONE_NEWNET,
                 NEED_DEFAULT},
                {"cgroup_namespace", "cgroup namespace", "CONFIG_CGROUPS", "cgroup",
                 CLONE_NEWCGROUP, NEED_DEFAULT},
                {"time_namespace", "time namespace", "CONFIG_TIME_NS", NULL, CLONE_NEWTIME,
                 NEED_OPTIONAL},
        };
        for (size_t i = 0; i < sizeof nss / sizeof nss[0]; i++) {
                bool on = nss[i].flag == CLONE_NEWPID      ? spec && spec->ns_pid
                          : nss[i].flag == CLONE_NEWIPC    ? spec && spec->ns_ipc
                          : nss[i].flag == CLONE_NEWUTS    ? spec && spec->ns_uts
                          : nss[i].flag == CLONE_NEWNET    ? spec && spec->ns_net
                          : nss[i].flag == CLONE_NEWCGROUP ? spec && spec->ns_cgroup
                                                           : true;
                if (spec && !on)
                        continue; /* the spec does not ask for it */
                if (spec && nss[i].flag == CLONE_NEWTIME)
                        continue;
                struct ns_arg a = {.flags = nss[i].flag};
                struct check_row *r = row(rows, n, nss[i].id, nss[i].feature, nss[i].need);
                int e = attempt(p_unshare, &a, NULL);
                char call[64];
                snprintf(call, sizeof call, "unshare(%s)%s", nss[i].feature,
                         geteuid() ? " in a user namespace" : "");
                errno_evidence(r, call, e);
                set_config(r, nss[i].config, e == 0);
                r->status = !e            ? CHECK_OK
                            : e == EINVAL ? CHECK_MISSING
                            : e == EPERM  ? CHECK_RESTRICTED
                                          : CHECK_ERROR;
                if (e == EINVAL)
                        snprintf(r->remedy, sizeof r->remedy, "use a kernel built with %s=y%s%s%s",
                                 nss[i].config, nss[i].key ? ", or set " : "",
                                 nss[i].key ? nss[i].key : "",
                                 nss[i].key ? " = no in [namespaces]" : "");
                else if (e)
                        snprintf(r->remedy, sizeof r->remedy,
                                 "the kernel refused; inside another container or under a "
                                 "seccomp filter this is often not allowed");
        }
}

static void apparmor_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        (void)x;
        struct check_row *r = row(rows, n, "apparmor", "AppArmor", NEED_DEFAULT);
        char why[256], fix[512];
        int e = 0;
        bool enabled = apparmor_available(why, sizeof why, fix, sizeof fix, &e);
        set_config(r, "CONFIG_SECURITY_APPARMOR", enabled);
        if (enabled) {
                r->status = CHECK_OK;
                snprintf(r->evidence, sizeof r->evidence, "aa_is_enabled() = 1");
        } else {
                /* ENOSYS: the kernel has no /sys/module/apparmor (apparmor.c looks there first,
                 * as libapparmor does) */
                if (e == ENOSYS)
                        snprintf(r->evidence, sizeof r->evidence, "no /sys/module/apparmor");
                else
                        errno_evidence(r, "aa_is_enabled()", e);
                put(r->evidence, sizeof r->evidence, ": %s", why);
                r->status = e == ENOSYS                     ? CHECK_MISSING
                            : e == ECANCELED || e == ENOENT ? CHECK_DISABLED
                                                            : CHECK_ERROR;
                /* an errno libapparmor does not document has no remedy but the evidence (the
                 * generic one, "see 'crib check'", is for crib run) */
                if (r->status != CHECK_ERROR)
                        snprintf(r->remedy, sizeof r->remedy, "%s", fix);
                /* a spec's way to run without it (crib check reads crib.ini's) */
                char change[128];
                if (e == ENOSYS)
                        put(r->remedy, sizeof r->remedy, ", or %s",
                            phrase_change(SPEC_FRONT_INI, SPEC_KEY_SECURITY_APPARMOR, PHRASE_OFF,
                                          change, sizeof change));
                return;
        }
        /* enabled: are crib's profiles loaded, and can we switch to one? */
        r = row(rows, n, "apparmor_profiles", "AppArmor: crib's profiles", NEED_DEFAULT);
        char line[256];
        bool found = false;
        FILE *f = fopen("/sys/kernel/security/apparmor/profiles", "re");
        while (f && fgets(line, sizeof line, f))
                found |= !strncmp(line, "crib-default ", 13);
        if (f)
                fclose(f);
        if (!f) {
                r->status = CHECK_NOT_TRIED;
                snprintf(r->evidence, sizeof r->evidence,
                         "cannot read /sys/kernel/security/apparmor/profiles (root can)");
        } else if (!found) {
                r->status = CHECK_MISSING;
                snprintf(r->evidence, sizeof r->evidence, "no crib-default profile loaded");
                snprintf(r->remedy, sizeof r->remedy, "sudo make install-apparmor");
        } else {
                r->status = CHECK_OK;
                snprintf(r->evidence, sizeof r->evidence, "crib-default is loaded");
                r = row(rows, n, "apparmor_change_onexec", "AppArmor: change_onexec", NEED_DEFAULT);
                e = attempt(p_apparmor_onexec, "crib-default", NULL);
                errno_evidence(r, "aa_change_onexec(\"crib-default\")", e);
                r->status = e ? CHECK_ERROR : CHECK_OK;
        }
}

/* cgroups: the hierarchy, where a container's cgroup would go, each controller; no level
 * needs them yet, shown without a spec */
static void cgroup_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        if (x->spec)
                return;
        struct check_row *r = row(rows, n, "cgroups", "cgroups", NEED_OPTIONAL);
        char line[1024], v2mount[512] = "";
        bool v1 = false, v2 = false;
        FILE *f = fopen("/proc/self/mountinfo", "re");
        while (f && fgets(line, sizeof line, f)) {
                char mnt[512], fstype[64];
                const char *dash = strstr(line, " - ");
                if (!dash || sscanf(dash + 3, "%63s", fstype) != 1 ||
                    sscanf(line, "%*s %*s %*s %*s %511s", mnt) != 1)
                        continue;
                if (!strcmp(fstype, "cgroup"))
                        v1 = true;
                if (!strcmp(fstype, "cgroup2")) {
                        v2 = true;
                        snprintf(v2mount, sizeof v2mount, "%s", mnt);
                }
        }
        if (f)
                fclose(f);
        r->status = v1 || v2 ? CHECK_OK : CHECK_MISSING;
        snprintf(r->evidence, sizeof r->evidence, "%s",
                 v1 && v2 ? "hybrid (v1 controllers, v2 at "
                 : v2     ? "v2 (unified) at "
                 : v1     ? "v1 only"
                          : "none mounted");
        if (v2)
                put(r->evidence, sizeof r->evidence, "%s%s", v2mount, v1 ? ")" : "");
        set_config(r, "CONFIG_CGROUPS", v1 || v2);
        if (v1 && !v2)
                snprintf(r->remedy, sizeof r->remedy,
                         "for cgroup v2 boot with systemd.unified_cgroup_hierarchy=1%s",
                         bootline_where());

        /* where crib would make a container's cgroup, and each controller [resources] uses:
         * there, or why not and the fix (runtime/cgroup decides, so this says what crib run
         * will do) */
        struct cgroup_host h;
        cgroup_host_gather(&h);
        static const enum check_status status_of[] = {
                [CGROUP_HAS] = CHECK_OK,           [CGROUP_NO_KERNEL] = CHECK_MISSING,
                [CGROUP_NO_BOOT] = CHECK_DISABLED, [CGROUP_NO_V1] = CHECK_DISABLED,
                [CGROUP_NO_V2] = CHECK_MISSING,    [CGROUP_NO_DELEGATE] = CHECK_RESTRICTED,
        };
        /* which controllers a container's limits can have, and whether those it cannot have
         * lack them for one reason */
        char usable[64] = "", unusable[64] = "";
        int first = -1;
        bool one_reason = true;
        for (int c = 0; c < CGROUP_NCTRL; c++) {
                bool ok = h.available & CGROUP_BIT(c);
                char *list = ok ? usable : unusable;
                put(list, sizeof usable, "%s%s", list[0] ? ", " : "", cgroup_ctrl_name(c));
                if (ok)
                        continue;
                if (first < 0)
                        first = c;
                else if (h.lack[c] != h.lack[first] || strcmp(h.ctrl_fix[c], h.ctrl_fix[first]))
                        one_reason = false;
        }
        r = row(rows, n, "cgroup_delegation",
                geteuid() ? "cgroup v2 subtree delegated to you" : "cgroup v2 for containers",
                NEED_OPTIONAL);
        if (h.base[0])
                snprintf(r->evidence, sizeof r->evidence,
                         h.systemd ? "your systemd gives each container a delegated scope in %.300s"
                                   : "containers' cgroups go under %.300s",
                         h.base);
        else
                snprintf(r->evidence, sizeof r->evidence, "%s", h.why);
        if (usable[0] && h.base[0]) {
                r->status = CHECK_OK;
                put(r->evidence, sizeof r->evidence, " (limits: %s%s%s)", usable,
                    unusable[0] ? "; not: " : "", unusable);
        } else if (!h.base[0] && h.lack[first] == CGROUP_NO_DELEGATE) {
                /* the hierarchy has the controllers: a cgroup of the user's own would get them */
                r->status = h.v2 ? CHECK_RESTRICTED : CHECK_MISSING;
                snprintf(r->remedy, sizeof r->remedy, "%s", h.fix);
        } else {
                /* no limit would hold there, delegated or not: the most basic cause (cgroup.c's
                 * order) is what to fix first, not the delegation */
                static const char *const they[] = {
                        [CGROUP_NO_KERNEL] = "not in this kernel",
                        [CGROUP_NO_BOOT] = "disabled at boot",
                        [CGROUP_NO_V1] = "on cgroup v1 hierarchies",
                        [CGROUP_NO_V2] = "not in the cgroup v2 hierarchy",
                };
                r->status = status_of[h.lack[first]];
                if (one_reason && h.lack[first] != CGROUP_NO_DELEGATE)
                        put(r->evidence, sizeof r->evidence,
                            "; no limit would hold there: %s %s %s%s", unusable,
                            strchr(unusable, ',') ? "are" : "is", they[h.lack[first]],
                            h.lack[first] != CGROUP_NO_V1 ? ""
                            : h.v2 ? " (a hybrid setup: cgroup v2 is mounted without them)"
                                   : "");
                else
                        put(r->evidence, sizeof r->evidence,
                            "; no limit would hold there: none of %s is usable (see below)",
                            unusable);
                snprintf(r->remedy, sizeof r->remedy, "%s",
                         one_reason ? h.ctrl_fix[first] : "see each controller below");
        }
        for (int c = 0; c < CGROUP_NCTRL; c++) {
                char id[32], feature[64];
                snprintf(id, sizeof id, "cgroup_%s", cgroup_ctrl_name(c));
                snprintf(feature, sizeof feature, "cgroup v2 %s controller", cgroup_ctrl_name(c));
                r = row(rows, n, id, feature, NEED_OPTIONAL);
                r->status = status_of[h.lack[c]];
                if (h.lack[c] == CGROUP_HAS) {
                        snprintf(r->evidence, sizeof r->evidence, "available%s%.400s",
                                 geteuid() ? " (delegated) in " : " in ", h.base);
                        continue;
                }
                snprintf(r->evidence, sizeof r->evidence, "%s", h.ctrl_why[c]);
                snprintf(r->remedy, sizeof r->remedy, "%s", h.ctrl_fix[c]);
        }
        if (geteuid() != 0)
                return; /* user = no, which gets the device program, is root's only */
        r = row(rows, n, "cgroup_devices", "device program for user = no", NEED_OPTIONAL);
        struct error err;
        error_clear(&err);
        if (!h.base[0]) {
                r->status = h.v2 ? CHECK_RESTRICTED : CHECK_MISSING;
                snprintf(r->evidence, sizeof r->evidence,
                         "%s: real-root containers rely on nodev mounts alone", h.why);
                snprintf(r->remedy, sizeof r->remedy, "%s", h.fix);
        } else if (cgroup_devices_probe(&err) < 0) {
                r->status = CHECK_MISSING;
                snprintf(r->evidence, sizeof r->evidence, "%.400s", err.msg);
                snprintf(r->remedy, sizeof r->remedy, "%.400s", err.hint);
        } else {
                r->status = CHECK_OK;
                snprintf(r->evidence, sizeof r->evidence,
                         "BPF_PROG_TYPE_CGROUP_DEVICE loads: each user = no container gets one");
        }
}

/* user namespaces, for the invoking user and (as root) for an unprivileged one; writing maps */
static void userns_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        struct check_row *r;
        if (!x->spec || x->spec->ns_user) {
                struct ns_arg a = {.flags = CLONE_NEWUSER};
                r = row(rows, n, "user_namespace",
                        geteuid() ? "user namespace (you)" : "user namespace (root)",
                        geteuid() ? NEED_ESSENTIAL : NEED_DEFAULT);
                userns_row(r, attempt(p_unshare, &a, NULL), geteuid() != 0);
                if (geteuid() == 0 && !x->spec) {
                        a.as_nobody = true;
                        r = row(rows, n, "user_namespace_unprivileged",
                                "user namespace (unprivileged user)", NEED_OPTIONAL);
                        userns_row(r, attempt(p_unshare, &a, NULL), true);
                }
                attempt_row(rows, n, "id_map", "writing uid_map and gid_map", NEED_DEFAULT, p_idmap,
                            NULL, "write /proc/self/{setgroups,gid_map,uid_map}", CHECK_ERROR,
                            "the kernel refused the map; an unprivileged user may map only its "
                            "own id");
        }
}

/* newuidmap/newgidmap and the user's subordinate ids */
static void subids_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        struct check_row *r;
        if (!x->spec || x->spec->uidmap.is_auto || x->spec->gidmap.is_auto) {
                r = row(rows, n, "newuidmap", "newuidmap, newgidmap and /etc/subuid",
                        NEED_OPTIONAL);
                struct stat su, sg;
                char upath[256], gpath[256];
                bool have = userns_find_helper("newuidmap", upath, sizeof upath) &&
                            userns_find_helper("newgidmap", gpath, sizeof gpath) &&
                            stat(upath, &su) == 0 && stat(gpath, &sg) == 0;
                struct idmap_range sub[IDMAP_MAX_SUBIDS];
                size_t nsub = 0;
                struct error err;
                FILE *f = fopen("/etc/subuid", "re");
                if (f) {
                        struct account a;
                        account_of(getuid(), &a);
                        idmap_read_subids(f, a.name[0] ? a.name : NULL, getuid(), sub, &nsub, &err);
                        fclose(f);
                }
                if (!have) {
                        r->status = CHECK_MISSING;
                        snprintf(r->evidence, sizeof r->evidence,
                                 "newuidmap or newgidmap not found");
                        snprintf(r->remedy, sizeof r->remedy, "sudo apt-get install uidmap");
                } else if (!(su.st_mode & S_ISUID) || !(sg.st_mode & S_ISUID)) {
                        r->status = CHECK_ERROR;
                        snprintf(r->evidence, sizeof r->evidence, "newuidmap/newgidmap not setuid");
                        snprintf(r->remedy, sizeof r->remedy, "sudo chmod u+s %s %s", upath, gpath);
                } else if (geteuid() == 0) {
                        r->status = CHECK_OK;
                        snprintf(r->evidence, sizeof r->evidence,
                                 "installed and setuid (as root crib writes maps itself)");
                } else if (!nsub) {
                        r->status = CHECK_MISSING;
                        snprintf(r->evidence, sizeof r->evidence,
                                 "installed and setuid; no /etc/subuid range for uid %u",
                                 (unsigned)getuid());
                        snprintf(r->remedy, sizeof r->remedy,
                                 "sudo usermod --add-subuids 100000-165535 --add-subgids "
                                 "100000-165535 $(id -un)");
                } else {
                        r->status = CHECK_OK;
                        snprintf(r->evidence, sizeof r->evidence,
                                 "installed and setuid; /etc/subuid gives %u ids from %u",
                                 sub[0].count, sub[0].outside);
                }
        }
}

/* pivot_root on the filesystem holding the rootfs */
static void pivot_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        struct check_row *r;
        int e;
        r = row(rows, n, "pivot_root", "pivot_root into the rootfs", NEED_DEFAULT);
        if (!x->rootfs) {
                r->status = CHECK_NOT_TRIED;
                snprintf(r->evidence, sizeof r->evidence,
                         "no rootfs given (--rootfs DIR or --spec)");
        } else {
                e = attempt(p_pivot, x->rootfs, NULL);
                errno_evidence(r, "pivot_root", e);
                put(r->evidence, sizeof r->evidence, " on '%s'", x->rootfs);
                r->status = e ? CHECK_ERROR : CHECK_OK;
                if (e == EINVAL)
                        snprintf(r->remedy, sizeof r->remedy,
                                 "the host's / is probably an initramfs: crib falls back to an "
                                 "escapable chroot; switch_root to a real filesystem first");
        }
}

/* no_new_privs */
static void nnp_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        (void)x;
        attempt_row(rows, n, "no_new_privs", "no_new_privs", NEED_DEFAULT, p_nnp, NULL,
                    "prctl(PR_SET_NO_NEW_PRIVS)", CHECK_MISSING, NULL);
}

/* the ambient capability set */
static void ambient_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        struct check_row *r;
        int e;
        (void)x;
        r = row(rows, n, "ambient_capabilities", "capabilities, ambient set", NEED_DEFAULT);
        e = attempt(p_ambient, NULL, NULL);
        {
                char line[128], bnd[32] = "?";
                FILE *f = fopen("/proc/self/status", "re");
                while (f && fgets(line, sizeof line, f))
                        if (!strncmp(line, "CapBnd:", 7))
                                sscanf(line + 7, "%31s", bnd);
                if (f)
                        fclose(f);
                errno_evidence(r, "PR_CAP_AMBIENT_RAISE", e);
                put(r->evidence, sizeof r->evidence, "; bounding set %s", bnd);
        }
        r->status = !e ? CHECK_OK : e == EINVAL ? CHECK_MISSING : CHECK_ERROR;
        if (e == EINVAL)
                snprintf(r->remedy, sizeof r->remedy, "ambient capabilities need Linux 4.3");
}

/* seccomp: filters, user notification, SECCOMP_CLONE_FILTER */
static void seccomp_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        struct check_row *r;
        int e;
        long v = 0;
        if (!x->spec || (x->spec->seccomp && strcmp(x->spec->seccomp, "unconfined"))) {
                r = row(rows, n, "seccomp_filter", "seccomp filters", NEED_DEFAULT);
                e = attempt(p_seccomp, NULL, &v);
                errno_evidence(r, "seccomp(SECCOMP_SET_MODE_FILTER)", e);
                put(r->evidence, sizeof r->evidence, "; Seccomp: %ld in /proc/self/status", v);
                set_config(r, "CONFIG_SECCOMP_FILTER", e == 0);
                r->status = !e                           ? CHECK_OK
                            : e == EINVAL || e == ENOSYS ? CHECK_MISSING
                                                         : CHECK_ERROR;
                if (e)
                        snprintf(r->remedy, sizeof r->remedy,
                                 "use a kernel built with CONFIG_SECCOMP_FILTER=y");
        }
        if (!x->spec) {
                attempt_row(rows, n, "seccomp_notify", "seccomp user notification", NEED_OPTIONAL,
                            p_notify, NULL, "SECCOMP_FILTER_FLAG_NEW_LISTENER", CHECK_MISSING,
                            "seccomp user notification needs Linux 5.0");

                attempt_row(rows, n, "seccomp_clone_filter", "SECCOMP_CLONE_FILTER", NEED_OPTIONAL,
                            p_clone_filter, NULL, "seccomp(4, 0, -1)", CHECK_MISSING,
                            "a proposed kernel operation (2025), not in mainline: crib loads its "
                            "ready program instead (crib's tests patch it into a 6.1: "
                            "tests/vm/kernel/)");
        }
}

/* Landlock: no level needs it yet, shown without a spec */
static void landlock_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        struct check_row *r;
        int e;
        long v = 0;
        if (x->spec)
                return;
        r = row(rows, n, "landlock", "Landlock", NEED_OPTIONAL);
        e = attempt(p_landlock, NULL, &v);
        errno_evidence(r, "landlock_create_ruleset(VERSION)", e);
        if (!e)
                put(r->evidence, sizeof r->evidence, "; ABI version %ld", v);
        set_config(r, "CONFIG_SECURITY_LANDLOCK", e == 0);
        r->status = !e ? CHECK_OK : e == EOPNOTSUPP ? CHECK_DISABLED : CHECK_MISSING;
        if (e == EOPNOTSUPP)
                snprintf(r->remedy, sizeof r->remedy,
                         "built in but off: add landlock to the lsm= list on the kernel "
                         "command line%s",
                         bootline_where());
        else if (e)
                snprintf(r->remedy, sizeof r->remedy,
                         "use a kernel built with CONFIG_SECURITY_LANDLOCK=y");
}

/* overlayfs in a user namespace: no level needs it yet, shown without a spec */
static void overlay_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        struct check_row *r;
        int e;
        if (x->spec)
                return;
        r = row(rows, n, "overlayfs_userns", "overlayfs in a user namespace", NEED_OPTIONAL);
        char dir[] = "/tmp/crib-check.XXXXXX", sub[64];
        if (mkdtemp(dir)) {
                for (const char *s = "luwm"; *s; s++) {
                        snprintf(sub, sizeof sub, "%s/%c", dir, *s);
                        mkdir(sub, 0700);
                }
                e = attempt(p_overlay, dir, NULL);
                /* the mount died with the child; remove what it left (work/ first) */
                snprintf(sub, sizeof sub, "%s/w/work", dir);
                rmdir(sub);
                for (const char *s = "luwm"; *s; s++) {
                        snprintf(sub, sizeof sub, "%s/%c", dir, *s);
                        rmdir(sub);
                }
                rmdir(dir);
        } else {
                e = errno;
        }
        errno_evidence(r, "mount overlay", e);
        set_config(r, "CONFIG_OVERLAY_FS", e == 0);
        r->status = !e ? CHECK_OK : e == ENODEV ? CHECK_MISSING : CHECK_RESTRICTED;
        if (e)
                snprintf(r->remedy, sizeof r->remedy,
                         "overlayfs in a user namespace needs Linux 5.11 and "
                         "CONFIG_OVERLAY_FS");
}

/* [network]'s helpers and the device they need: what mode = slirp4netns and pasta use */
static void network_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        if (x->spec && !spec_net_has_helper(x->spec->net_mode))
                return;
        static const struct {
                enum spec_net_mode mode;
                const char *id, *feature, *path, *package;
        } helpers[] = {
                {SPEC_NET_SLIRP4NETNS, "slirp4netns", "network helper slirp4netns",
                 "/usr/bin/slirp4netns", "slirp4netns"},
                {SPEC_NET_PASTA, "pasta", "network helper pasta", "/usr/bin/pasta", "passt"},
                /* either helper's, with host_loopback = no (netns.c) */
                {SPEC_NET_NONE, "nft", "nft, for host_loopback = no", "/usr/sbin/nft", "nftables"},
        };
        for (size_t i = 0; i < sizeof helpers / sizeof helpers[0]; i++) {
                bool nft = helpers[i].mode == SPEC_NET_NONE;
                if (x->spec &&
                    (nft ? x->spec->host_loopback : x->spec->net_mode != helpers[i].mode))
                        continue;
                struct check_row *r = row(rows, n, helpers[i].id, helpers[i].feature,
                                          x->spec ? NEED_ESSENTIAL : NEED_OPTIONAL);
                if (access(helpers[i].path, X_OK) == 0) {
                        r->status = CHECK_OK;
                        if (nft)
                                snprintf(r->evidence, sizeof r->evidence,
                                         "%s: a helper's container gets a rule that drops what "
                                         "it sends for 127.0.0.1 or ::1 by the tap",
                                         helpers[i].path);
                        else
                                snprintf(r->evidence, sizeof r->evidence,
                                         "%s: [network] mode = %s can give a container outbound "
                                         "access and published ports",
                                         helpers[i].path, helpers[i].id);
                } else {
                        r->status = CHECK_MISSING;
                        snprintf(r->evidence, sizeof r->evidence, "%s is not installed",
                                 helpers[i].path);
                        snprintf(r->remedy, sizeof r->remedy, "sudo apt install %s",
                                 helpers[i].package);
                }
        }
        struct check_row *r = row(rows, n, "tun", "/dev/net/tun for the network helpers",
                                  x->spec ? NEED_ESSENTIAL : NEED_OPTIONAL);
        int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
        int e = errno;
        if (fd >= 0) {
                close(fd);
                r->status = CHECK_OK;
                snprintf(r->evidence, sizeof r->evidence, "open(\"/dev/net/tun\", O_RDWR) = 0");
                return;
        }
        errno_evidence(r, "open(\"/dev/net/tun\", O_RDWR)", e);
        set_config(r, "CONFIG_TUN", e != ENOENT && e != ENODEV);
        r->status = e == ENOENT || e == ENODEV ? CHECK_MISSING : CHECK_RESTRICTED;
        snprintf(r->remedy, sizeof r->remedy, "%s",
                 e == ENOENT || e == ENODEV
                         ? "load the tun module (sudo modprobe tun) or use a kernel with CONFIG_TUN"
                         : "Debian makes /dev/net/tun 0666 (crw-rw-rw-); here it is closed to "
                           "you: sudo chmod 0666 /dev/net/tun");
}

/* The rows, in the order crib check prints them: each function adds its rows (none when the
 * spec does not need them). */
static void (*const row_groups[])(struct check_row *, size_t *, const struct check_ctx *) = {
        userns_rows,   /* first: every other attempt by a user runs inside one */
        subids_rows,   /* newuidmap and /etc/subuid: what uidmap = auto maps with */
        ns_rows,       /* each namespace crib unshares, in a user namespace as a user's are */
        pivot_rows,    /* the root switch, on the rootfs asked about */
        nnp_rows,      /* no_new_privs: seccomp needs it from a user */
        ambient_rows,  /* the capability set crib hands a workload */
        seccomp_rows,  /* the filter every level but unconfined loads */
        apparmor_rows, /* the LSM the default level confines with */
        landlock_rows, /* an LSM no level uses yet: informative */
        cgroup_rows,   /* [resources]: where limits would go and which hold */
        overlay_rows,  /* overlayfs in a user namespace: informative */
        network_rows,  /* programs and a device, not the kernel's namespaces: last */
};

size_t check_run(const struct spec *spec, const char *rootfs, struct check_row *rows)
{
        size_t n = 0;
        const struct check_ctx x = {.spec = spec, .rootfs = rootfs};
        for (size_t i = 0; i < sizeof row_groups / sizeof row_groups[0]; i++)
                row_groups[i](rows, &n, &x);
        return n;
}
