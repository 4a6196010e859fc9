/* check.c - `crib check`: does this kernel really support what crib uses?
 *
 * Each feature is tried for real in a throw-away child process (fork, attempt, report the
 * errno, exit: attempt.c), and separately looked up in the kernel config (/proc/config.gz, or
 * /boot/config-RELEASE: kconfig.c). The attempt is the truth; the config only explains it: on a
 * Raspberry Pi the config can say a feature is built while a sysctl or the boot command line
 * switches it off, and /proc/config.gz only exists after `modprobe configs`. The rows, by area,
 * are in rows_*.c; this file keeps their order.
 */
#define _GNU_SOURCE
#include "check_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *check_status_name(enum check_status s)
{
        static const char *const names[] = {"ok",         "missing", "disabled",
                                            "restricted", "error",   "not tried"};
        return names[s];
}

const char *check_need_name(enum check_need n)
{
        return n == NEED_ESSENTIAL ? "essential" : n == NEED_DEFAULT ? "default" : "optional";
}

const char *check_meaning(const struct check_row *r)
{
        if (r->status == CHECK_OK)
                return "works: crib uses it where a spec asks for it";
        if (r->status == CHECK_NOT_TRIED)
                return "not tried: nothing to try it on, or not needed for this spec";
        switch (r->need) {
        case NEED_ESSENTIAL:
                return "crib cannot run a container here without it";
        case NEED_DEFAULT:
                return "the default level uses it: a container that needs it fails to "
                       "start, with the reason (seccomp and AppArmor with `prefer` in "
                       "crib.ini(5): it runs without them and says so)";
        default:
                return "informative: no security level needs it";
        }
}

struct check_row *row(struct check_row *rows, size_t *n, const char *id, const char *feature,
                      enum check_need need)
{
        struct check_row *r = &rows[(*n)++];
        memset(r, 0, sizeof *r);
        snprintf(r->id, sizeof r->id, "%s", id);
        snprintf(r->feature, sizeof r->feature, "%s", feature);
        r->need = need;
        return r;
}

void put(char *buf, size_t len, const char *fmt, ...)
{
        va_list ap;
        size_t used = strlen(buf);
        va_start(ap, fmt);
        vsnprintf(buf + used, len > used ? len - used : 0, fmt, ap);
        va_end(ap);
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
        struct kconfig kc = {0};
        const struct check_ctx x = {.spec = spec, .rootfs = rootfs, .kconfig = &kc};
        for (size_t i = 0; i < sizeof row_groups / sizeof row_groups[0]; i++)
                row_groups[i](rows, &n, &x);
        kconfig_free(&kc);
        return n;
}
