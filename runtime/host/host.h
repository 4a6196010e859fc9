/* host.h - what this host and kernel offer crib, read-only and gathered once (gather.c).
 *
 * runtime/host/ is the layer under the plan that asks the host: the process crib runs as and
 * its terminal (gather.c), the kernel (kernel.c), AppArmor (lsm.c), the cgroup hierarchy
 * (cgroupfacts.c), the uidmap helpers and subordinate ids (subids.c), the invoking user's
 * account (account.c), and where the kernel command line is edited (bootline.c). It includes
 * only base/ and spec/; plan/, the mechanisms and `crib check` read their facts from it, and
 * the runtime reads the process environment nowhere else.
 */
#ifndef CRIB_HOST_H
#define CRIB_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "cgroupfacts.h"
#include "spec/idmap.h"
#include "spec/spec.h"

/* What planning needs to know about the process crib runs as and the kernel it runs on:
 * gathered once by cmd/ (plan_host_gather() asks the real host), so that plan_build() reads no
 * process state of its own and a test can plan for any host. */
struct plan_host {
        uid_t uid, euid;
        gid_t gid, egid;
        bool initial_userns; /* crib runs in the initial user namespace (not in unshare -r);
                              * asked for root only: a user's plan does not depend on it */
        /* root of a user namespace that is not the host's (rootless podman's, unshare): the ids
         * mapped in it, which it may map into a nested one itself (its uid_map's and gid_map's
         * inside column); asked only there, for a spec that maps ids */
        struct idmap_range own_uids[IDMAP_MAX_SUBIDS], own_gids[IDMAP_MAX_SUBIDS];
        size_t nown_uids, nown_gids;
        bool setgroups_denied;   /* /proc/self/setgroups says deny (a user namespace above did);
                                  * for a user, asked only when the spec maps gids */
        bool stdin_tty;          /* stdin is a terminal: terminal = auto gives the workload one */
        dev_t stdio_chr[3];      /* the character device on fd 0, 1, 2 (a serial console), or 0 */
        int closed_fd;           /* the first of the spec's pass_fds crib does not have open, or
                                  * -1 (0 also means none: fd 0 is never passed by number) */
        const char *term;        /* $TERM, NULL when unset; copied into the plan */
        int cap_last;            /* the highest capability the kernel knows (cap_last_cap) */
        uint64_t cap_bounding;   /* crib's own bounding set (PR_CAPBSET_READ) */
        bool cap_bounding_known; /* else taken as every capability the kernel knows */
        bool cap_sys_resource;   /* crib holds CAP_SYS_RESOURCE: it may raise hard limits */
        /* crib's own limits (getrlimit), by RLIMIT_*; unknown where getrlimit failed */
        struct rlimit rlimits[SPEC_NLIMITS];
        bool rlimit_known[SPEC_NLIMITS];
        bool idmapped_mounts; /* the kernel has mount_setattr(2) (idmapped mounts, Linux 5.12) */
        bool seccomp_filters; /* the kernel has seccomp filters (CONFIG_SECCOMP_FILTER) */
        bool apparmor;        /* AppArmor is on; else why not, and the remedy */
        char apparmor_why[256], apparmor_fix[512];
        struct cgroup_host cgroup; /* gathered when the spec has [resources] (or without one) */
        /* the namespaces the spec joins by path (spec.ns_path, nsfiles.c): each file's type (a
         * CLONE_NEW* flag, NS_GET_NSTYPE), or -errno (-ENOTTY: no namespace); a joined user
         * namespace's maps as crib's own sees them, and its setgroups(2), or joined_maps -errno */
        int ns_type[SPEC_NNS];
        struct idmap joined_uidmap, joined_gidmap;
        bool joined_setgroups_denied;
        int joined_maps;
        char run_dir[512]; /* crib's state root (cmd/ sets it: --root, or the default) */
};

/* Ask the real host: ids, stdin, $TERM, the kernel's and crib's own capabilities and limits,
 * kernel features. Only reads; called by cmd/ before plan_build(). With a spec, only what
 * planning that spec needs (crib's bounding set for user = no, its limits for the spec's
 * [limits]); NULL asks everything. */
void plan_host_gather(const struct spec *s, struct plan_host *ret);

/* nsfiles.c: the namespace files `s` joins (ns_type, joined_*), for plan_host_gather; and one
 * such file opened (O_RDONLY, close-on-exec), its type in *ret_type, or -errno (-ENOTTY: it
 * is no namespace), for the launch, which checks again what it joins. */
void host_gather_nsfiles(const struct spec *s, struct plan_host *h);
int nsfile_open(const char *path, int *ret_type);

#endif
