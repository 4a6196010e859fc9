/* rows_cgroup.c - `crib check`'s rows for cgroups: which hierarchy is mounted, where crib would
 * make a container's cgroup and which controllers its limits can use there, and (as root) the
 * device program for user = no. runtime/cgroup decides; these rows say what crib run will do.
 */
#define _GNU_SOURCE
#include "check_private.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/bootline.h"
#include "cgroup/cgroup.h"
#include "base/error.h"
#include "base/procfile.h"

/* what each cgroup_host lack says in a row's status */
static const enum check_status status_of[] = {
        [CGROUP_HAS] = CHECK_OK,           [CGROUP_NO_KERNEL] = CHECK_MISSING,
        [CGROUP_NO_BOOT] = CHECK_DISABLED, [CGROUP_NO_V1] = CHECK_DISABLED,
        [CGROUP_NO_V2] = CHECK_MISSING,    [CGROUP_NO_DELEGATE] = CHECK_RESTRICTED,
};

/* the hierarchies mounted: v1, v2 or both, and where v2 is */
static void hierarchy_row(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        struct check_row *r = row(rows, n, "cgroups", "cgroups", NEED_OPTIONAL);
        char line[1024], v2mount[512] = "";
        bool v1 = false, v2 = false;
        FILE *f = fopen("/proc/self/mountinfo", "re");
        while (f && fgets(line, sizeof line, f)) {
                char mnt[512], fstype[64];
                unsigned long id;
                const char *dash = strstr(line, " - ");
                if (!dash || sscanf(dash + 3, "%63s", fstype) != 1 ||
                    sscanf(line, "%lu %*s %*s %*s %511s", &id, mnt) != 2)
                        continue;
                if (!strcmp(fstype, "cgroup"))
                        v1 = true;
                if (!strcmp(fstype, "cgroup2") && procfile_mount_seen(id, mnt)) {
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
        kconfig_set(x->kconfig, r, "CONFIG_CGROUPS", v1 || v2);
        if (v1 && !v2)
                snprintf(r->remedy, sizeof r->remedy,
                         "for cgroup v2 boot with systemd.unified_cgroup_hierarchy=1%s",
                         bootline_where());
}

/* where crib would make a container's cgroup, and which controllers its limits can have
 * there; or the most basic reason none would hold */
static void delegation_row(struct check_row *rows, size_t *n, const struct cgroup_host *h)
{
        struct check_row *r;
        /* which controllers a container's limits can have, and whether those it cannot have
         * lack them for one reason */
        char usable[64] = "", unusable[64] = "";
        int first = -1;
        bool one_reason = true;
        for (int c = 0; c < CGROUP_NCTRL; c++) {
                bool ok = h->available & CGROUP_BIT(c);
                char *list = ok ? usable : unusable;
                put(list, sizeof usable, "%s%s", list[0] ? ", " : "", cgroup_ctrl_name(c));
                if (ok)
                        continue;
                if (first < 0)
                        first = c;
                else if (h->lack[c] != h->lack[first] || strcmp(h->ctrl_fix[c], h->ctrl_fix[first]))
                        one_reason = false;
        }
        r = row(rows, n, "cgroup_delegation",
                geteuid() ? "cgroup v2 subtree delegated to you" : "cgroup v2 for containers",
                NEED_OPTIONAL);
        if (h->base[0])
                snprintf(r->evidence, sizeof r->evidence,
                         h->systemd
                                 ? "your systemd gives each container a delegated scope in %.300s"
                                 : "containers' cgroups go under %.300s",
                         h->base);
        else
                snprintf(r->evidence, sizeof r->evidence, "%s", h->why);
        if (usable[0] && h->base[0]) {
                r->status = CHECK_OK;
                put(r->evidence, sizeof r->evidence, " (limits: %s%s%s)", usable,
                    unusable[0] ? "; not: " : "", unusable);
        } else if (!h->base[0] && h->lack[first] == CGROUP_NO_DELEGATE) {
                /* the hierarchy has the controllers: a cgroup of the user's own would get them */
                r->status = h->v2 ? CHECK_RESTRICTED : CHECK_MISSING;
                snprintf(r->remedy, sizeof r->remedy, "%s", h->fix);
        } else {
                /* no limit would hold there, delegated or not: the most basic cause
                 * (host/cgroupfacts.c's order) is what to fix first, not the delegation */
                static const char *const they[] = {
                        [CGROUP_NO_KERNEL] = "not in this kernel",
                        [CGROUP_NO_BOOT] = "disabled at boot",
                        [CGROUP_NO_V1] = "on cgroup v1 hierarchies",
                        [CGROUP_NO_V2] = "not in the cgroup v2 hierarchy",
                };
                r->status = status_of[h->lack[first]];
                if (one_reason && h->lack[first] != CGROUP_NO_DELEGATE)
                        put(r->evidence, sizeof r->evidence,
                            "; no limit would hold there: %s %s %s%s", unusable,
                            strchr(unusable, ',') ? "are" : "is", they[h->lack[first]],
                            h->lack[first] != CGROUP_NO_V1 ? ""
                            : h->v2 ? " (a hybrid setup: cgroup v2 is mounted without them)"
                                    : "");
                else
                        put(r->evidence, sizeof r->evidence,
                            "; no limit would hold there: none of %s is usable (see below)",
                            unusable);
                snprintf(r->remedy, sizeof r->remedy, "%s",
                         one_reason ? h->ctrl_fix[first] : "see each controller below");
        }
}

/* each controller [resources] uses: there, or why not and the fix */
static void controller_rows(struct check_row *rows, size_t *n, const struct cgroup_host *h)
{
        struct check_row *r;
        for (int c = 0; c < CGROUP_NCTRL; c++) {
                char id[32], feature[64];
                snprintf(id, sizeof id, "cgroup_%s", cgroup_ctrl_name(c));
                snprintf(feature, sizeof feature, "cgroup v2 %s controller", cgroup_ctrl_name(c));
                r = row(rows, n, id, feature, NEED_OPTIONAL);
                r->status = status_of[h->lack[c]];
                if (h->lack[c] == CGROUP_HAS) {
                        snprintf(r->evidence, sizeof r->evidence, "available%s%.400s",
                                 geteuid() ? " (delegated) in " : " in ", h->base);
                        continue;
                }
                snprintf(r->evidence, sizeof r->evidence, "%s", h->ctrl_why[c]);
                snprintf(r->remedy, sizeof r->remedy, "%s", h->ctrl_fix[c]);
        }
}

/* as root: the device program user = no containers get */
static void devices_row(struct check_row *rows, size_t *n, const struct cgroup_host *h)
{
        struct check_row *r;
        r = row(rows, n, "cgroup_devices", "device program for user = no", NEED_OPTIONAL);
        struct error err;
        error_clear(&err);
        if (!h->base[0]) {
                r->status = h->v2 ? CHECK_RESTRICTED : CHECK_MISSING;
                snprintf(r->evidence, sizeof r->evidence,
                         "%s: real-root containers rely on nodev mounts alone", h->why);
                snprintf(r->remedy, sizeof r->remedy, "%s", h->fix);
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

/* cgroups: the hierarchy, where a container's cgroup would go, each controller; no level
 * needs them yet, shown without a spec */
void cgroup_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        if (x->spec)
                return;
        hierarchy_row(rows, n, x);
        /* runtime/cgroup decides, so these rows say what crib run will do */
        struct cgroup_host h;
        cgroup_host_gather(&h);
        delegation_row(rows, n, &h);
        controller_rows(rows, n, &h);
        if (geteuid() != 0)
                return; /* user = no, which gets the device program, is root's only */
        devices_row(rows, n, &h);
}
