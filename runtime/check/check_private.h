/* check_private.h - what check.c, kconfig.c, attempt.c and the rows_*.c files share: the row
 * builders, the attempt harness and its probes, the kernel config lookup, and each area's rows
 * for check.c's order table. Not for use outside runtime/check. */
#ifndef CRIB_CHECK_PRIVATE_H
#define CRIB_CHECK_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "check.h"
#include "base/error.h"

/* kconfig.c: the kernel config, read the first time a row asks */
struct kconfig {
        bool loaded;
        char *text;    /* NUL-terminated; NULL: none found */
        char src[128]; /* where it was read from */
};

/* what crib check was asked about: a spec (only its rows), and where to try pivot_root; and the
 * kernel config, read once for all rows */
struct check_ctx {
        const struct spec *spec;
        const char *rootfs;
        struct kconfig *kconfig;
};

/* check.c: a new row, and text appended to one of its fields */
struct check_row *row(struct check_row *rows, size_t *n, const char *id, const char *feature,
                      enum check_need need);
void put(char *buf, size_t len, const char *fmt, ...) CRIB_PRINTF(3, 4);

/* kconfig.c: into r->config, "CONFIG_X=y", "CONFIG_X is not set", or how to get a config; and
 * which wins */
void kconfig_set(struct kconfig *kc, struct check_row *r, const char *key, bool works);
void kconfig_free(struct kconfig *kc);
/* kconfig.c: the value of `key` ("y", "m", a number, or "is not set") into buf; returns where
 * the config was read from, or NULL when there is none */
const char *kconfig_value(struct kconfig *kc, const char *key, char *buf, size_t len);

/* attempt.c: run fn in a child; returns its errno (0: it worked), *value what it reported */
int attempt(int (*fn)(const void *, long *), const void *arg, long *value);
void errno_evidence(struct check_row *r, const char *call, int e);
struct check_row *attempt_row(struct check_row *rows, size_t *n, const char *id,
                              const char *feature, enum check_need need,
                              int (*fn)(const void *, long *), const void *arg, const char *call,
                              enum check_status fail, const char *remedy);

/* attempt.c: the probes, each run by attempt() in a child */
struct ns_arg {
        int flags;
        bool as_nobody;
};
int p_unshare(const void *arg, long *v); /* arg: struct ns_arg */
int p_idmap(const void *arg, long *v);   /* map ourselves to 0 in a new userns */
int p_pivot(const void *arg, long *v);   /* arg: the rootfs */
int p_nnp(const void *arg, long *v);
int p_ambient(const void *arg, long *v);
int p_seccomp(const void *arg, long *v); /* *v: Seccomp: in /proc/self/status */
int p_notify(const void *arg, long *v);
int p_clone_filter(const void *arg, long *v);
int p_landlock(const void *arg, long *v);        /* *v: the ABI version */
int p_overlay(const void *arg, long *v);         /* arg: a directory with l, u, w, m */
int p_apparmor_onexec(const void *arg, long *v); /* arg: the profile */

/* the row groups, in the order check.c's table runs them */
void userns_rows(struct check_row *rows, size_t *n, const struct check_ctx *x);   /* rows_ns.c */
void subids_rows(struct check_row *rows, size_t *n, const struct check_ctx *x);   /* rows_ns.c */
void ns_rows(struct check_row *rows, size_t *n, const struct check_ctx *x);       /* rows_ns.c */
void pivot_rows(struct check_row *rows, size_t *n, const struct check_ctx *x);    /* rows_ns.c */
void nnp_rows(struct check_row *rows, size_t *n, const struct check_ctx *x);      /* rows_lsm.c */
void ambient_rows(struct check_row *rows, size_t *n, const struct check_ctx *x);  /* rows_lsm.c */
void seccomp_rows(struct check_row *rows, size_t *n, const struct check_ctx *x);  /* rows_lsm.c */
void apparmor_rows(struct check_row *rows, size_t *n, const struct check_ctx *x); /* rows_lsm.c */
void landlock_rows(struct check_row *rows, size_t *n, const struct check_ctx *x); /* rows_lsm.c */
void cgroup_rows(struct check_row *rows, size_t *n, const struct check_ctx *x);  /* rows_cgroup.c */
void overlay_rows(struct check_row *rows, size_t *n, const struct check_ctx *x); /* rows_ns.c */
void network_rows(struct check_row *rows, size_t *n, const struct check_ctx *x); /* rows_net.c */

#endif
