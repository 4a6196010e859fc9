/* cgroupfacts.h - the cgroup v2 hierarchy as this host offers it to the invoking user: where it
 * is mounted, where a container's cgroup may go, which controllers it may have, and why not
 * (cgroupfacts.c). Only reads; cgroup/ makes the cgroups. */
#ifndef CRIB_CGROUPFACTS_H
#define CRIB_CGROUPFACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "spec/spec.h" /* enum cgroup_ctrl, CGROUP_BIT */

/* "memory", "cpu", "pids", "io", "cpuset" */
const char *cgroup_ctrl_name(enum cgroup_ctrl c);

/* The host, as far as cgroups go, for the invoking user. */
struct cgroup_host {
        bool v2;                 /* a cgroup2 hierarchy is mounted */
        char mount[512];         /* where */
        unsigned top;            /* controllers of the hierarchy's top cgroup (CGROUP_BIT): all a
                                  * delegated subtree could have; none on a hybrid host, where
                                  * they are on cgroup v1 */
        char base[1024];         /* where containers' cgroups go ("" when nowhere: why, fix) */
        unsigned available;      /* controllers crib may enable there (CGROUP_BIT) */
        bool clone_into;         /* the kernel has clone3(2) with CLONE_INTO_CGROUP (Linux 5.7) */
        bool systemd;            /* base is user@UID.service: crib asks systemd for a scope in it */
        bool unit;               /* base is crib's own cgroup, a service's delegated to it
                                  * (Delegate=yes): crib moves to base/supervisor first */
        char own_parent[1024];   /* the parent of crib's own cgroup, where a relative cgroupsPath
                                  * goes ("" when unknown) */
        char helper[512];        /* crib-scope, which asks (systemd.c) */
        char why[256], fix[512]; /* why base is "", and the fix */
        /* for each controller not available: why, and the fix; the most basic cause first (the
         * kernel, the boot command line, cgroup v1, then delegation) */
        char ctrl_why[CGROUP_NCTRL][256], ctrl_fix[CGROUP_NCTRL][512];
        enum cgroup_lack {
                CGROUP_HAS,        /* available */
                CGROUP_NO_KERNEL,  /* the kernel was built without it */
                CGROUP_NO_BOOT,    /* disabled at boot (cgroup_disable=) */
                CGROUP_NO_V1,      /* on a cgroup v1 hierarchy (a hybrid or v1-only host) */
                CGROUP_NO_V2,      /* not in the cgroup v2 hierarchy, or no hierarchy mounted */
                CGROUP_NO_DELEGATE /* the hierarchy has it; the user has no cgroup with it */
        } lack[CGROUP_NCTRL];
};

/* Look at the host: the cgroup2 mount, crib's own cgroup, whose its parent is, which
 * controllers it has, and for each missing one why (disabled at boot, on cgroup v1, not
 * delegated) and the fix. Only reads: cgroup_facts_gather(), then cgroup_host_decide(). */
void cgroup_host_gather(struct cgroup_host *h);

/* What cgroup_host_gather() reads of the host, apart from what it makes of it, so that the
 * decision can be fed a made-up host (tests/unit/test_cgroup.c). */
struct cgroup_facts {
        bool root;            /* euid 0 */
        bool clone_into;      /* Linux 5.7 */
        const char *bootline; /* bootline_where(): " in /boot/firmware/cmdline.txt" on a Pi */
        struct {
                bool known, enabled, v1; /* /proc/cgroups: there, not disabled at boot, on v1 */
        } ctrl[CGROUP_NCTRL];
        bool mounted;                     /* a cgroup2 hierarchy is mounted */
        char mount[512], mount_root[512]; /* where, and the cgroup its root shows */
        unsigned top;                     /* the controllers of its top cgroup */
        char own[1024];                   /* crib's own cgroup (the "0::" line), "" unknown */
        bool parent_delegated;            /* a user: the parent of crib's own is theirs */
        unsigned parent_ctrls;            /* and its controllers */
        char systemd_base[1024];          /* else the user's systemd's (cgroup_systemd_gather) */
        char systemd_helper[512];
        unsigned systemd_ctrls;
        char unit[1024];     /* crib's own cgroup, when it is a service's delegated to crib */
        unsigned unit_ctrls; /* and its controllers */
};
void cgroup_facts_gather(struct cgroup_facts *f);
/* Pure: the host facts into *h (why and fix for what is missing). */
void cgroup_host_decide(struct cgroup_host *h, const struct cgroup_facts *f);

/* What the host facts and the mechanics both read of the hierarchy: the controllers named in
 * DIR/cgroup.controllers (CGROUP_BIT); the cgroup2 mount point and the cgroup its root shows
 * (field 4 of mountinfo); the path of the one "0::" line of a /proc/PID/cgroup file (fd,
 * closed here), or -1 where there is none or more than one; and crib-scope, which asks the
 * user's systemd for a delegated scope (systemd.c): beside crib, or in ../lib/crib/. */
unsigned cgroup_controllers(const char *dir);
bool cgroup_find_mount(char *mnt, size_t len, char *root, size_t rlen);
int cgroup_v2_path(int fd, char *buf, size_t len);
bool cgroup_scope_helper(char *buf, size_t len);
#endif
