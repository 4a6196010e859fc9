/* rows_ns.c - `crib check`'s rows for user namespaces, subordinate ids, the other namespaces,
 * pivot_root and overlayfs in a user namespace: what the first steps of a container's setup do.
 */
#define _GNU_SOURCE
#include "check_private.h"

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/account.h"
#include "base/error.h"
#include "spec/idmap.h"
#include "base/procfile.h"
#include "host/subids.h"
#include "steps/userns.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

static void userns_row(struct check_row *r, int e, bool unprivileged, const struct check_ctx *x)
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
        kconfig_set(x->kconfig, r, "CONFIG_USER_NS", e == 0);
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

void ns_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
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
                kconfig_set(x->kconfig, r, nss[i].config, e == 0);
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

/* user namespaces, for the invoking user and (as root) for an unprivileged one; writing maps */
void userns_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        struct check_row *r;
        if (!x->spec || x->spec->ns_user) {
                struct ns_arg a = {.flags = CLONE_NEWUSER};
                r = row(rows, n, "user_namespace",
                        geteuid() ? "user namespace (you)" : "user namespace (root)",
                        geteuid() ? NEED_ESSENTIAL : NEED_DEFAULT);
                userns_row(r, attempt(p_unshare, &a, NULL), geteuid() != 0, x);
                if (geteuid() == 0 && !x->spec) {
                        a.as_nobody = true;
                        r = row(rows, n, "user_namespace_unprivileged",
                                "user namespace (unprivileged user)", NEED_OPTIONAL);
                        userns_row(r, attempt(p_unshare, &a, NULL), true, x);
                }
                attempt_row(rows, n, "id_map", "writing uid_map and gid_map", NEED_DEFAULT, p_idmap,
                            NULL, "write /proc/self/{setgroups,gid_map,uid_map}", CHECK_ERROR,
                            "the kernel refused the map; an unprivileged user may map only its "
                            "own id");
        }
}

/* newuidmap/newgidmap and the user's subordinate ids */
void subids_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
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
void pivot_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
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

/* overlayfs in a user namespace: no level needs it yet, shown without a spec */
void overlay_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
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
        kconfig_set(x->kconfig, r, "CONFIG_OVERLAY_FS", e == 0);
        r->status = !e ? CHECK_OK : e == ENODEV ? CHECK_MISSING : CHECK_RESTRICTED;
        if (e)
                snprintf(r->remedy, sizeof r->remedy,
                         "overlayfs in a user namespace needs Linux 5.11 and "
                         "CONFIG_OVERLAY_FS");
}
