/* rows_lsm.c - `crib check`'s rows for what confines a container's process: no_new_privs, the
 * ambient capability set, seccomp (filters, user notification, SECCOMP_CLONE_FILTER), AppArmor
 * (the LSM, crib's profiles, change_onexec) and Landlock.
 */
#define _GNU_SOURCE
#include "check_private.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "host/bootline.h"
#include "host/lsm.h"
#include "spec/phrase.h"

/* no_new_privs */
void nnp_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        (void)x;
        attempt_row(rows, n, "no_new_privs", "no_new_privs", NEED_DEFAULT, p_nnp, NULL,
                    "prctl(PR_SET_NO_NEW_PRIVS)", CHECK_MISSING, NULL);
}

/* the ambient capability set */
void ambient_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
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
void seccomp_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        struct check_row *r;
        int e;
        long v = 0;
        if (!x->spec || (x->spec->seccomp && strcmp(x->spec->seccomp, "unconfined"))) {
                r = row(rows, n, "seccomp_filter", "seccomp filters", NEED_DEFAULT);
                e = attempt(p_seccomp, NULL, &v);
                errno_evidence(r, "seccomp(SECCOMP_SET_MODE_FILTER)", e);
                put(r->evidence, sizeof r->evidence, "; Seccomp: %ld in /proc/self/status", v);
                kconfig_set(x->kconfig, r, "CONFIG_SECCOMP_FILTER", e == 0);
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

void apparmor_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        (void)x;
        struct check_row *r = row(rows, n, "apparmor", "AppArmor", NEED_DEFAULT);
        char why[256], fix[512];
        int e = 0;
        bool enabled = apparmor_available(why, sizeof why, fix, sizeof fix, &e);
        kconfig_set(x->kconfig, r, "CONFIG_SECURITY_APPARMOR", enabled);
        if (enabled) {
                r->status = CHECK_OK;
                snprintf(r->evidence, sizeof r->evidence, "%s",
                         e == ENOENT ? "/sys/module/apparmor/parameters/enabled = Y (securityfs "
                                       "is not mounted here: profiles switch through /proc)"
                                     : "aa_is_enabled() = 1");
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

/* Landlock: no level needs it yet, shown without a spec */
void landlock_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
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
        kconfig_set(x->kconfig, r, "CONFIG_SECURITY_LANDLOCK", e == 0);
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
