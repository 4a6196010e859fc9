/* plan.h - everything the container's setup process needs, computed by the parent.
 *
 * The parent does the thinking: it reads the spec, looks up the host (the invoking user, its
 * subordinate ids, the rootfs and bind sources), and writes down the result here. The child
 * (steps.c) only reads this plan and makes system calls. Nothing in it changes after
 * plan_build() returns.
 */
#ifndef CRIB_PLAN_H
#define CRIB_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "error.h"
#include "idmap.h"
#include "seccomp.h"
#include "spec.h"

/* One mount operation; mounts.c applies them in order with one switch. Destinations are
 * absolute paths inside the container, resolved under the rootfs before pivot_root. */
enum mount_op_kind {
        MOP_BIND,     /* bind a host path (src) onto dst */
        MOP_TMPFS,    /* a fresh tmpfs */
        MOP_PROC,     /* proc of the container's pid namespace */
        MOP_SYSFS,    /* sysfs of the container's net namespace, read-only */
        MOP_DEVPTS,   /* a private devpts instance */
        MOP_MQUEUE,   /* the ipc namespace's POSIX message queues */
        MOP_DEV_NODE, /* a device node: a bind of the host's, or with user = no a copy of it
                       * (mknod, then bound onto itself: /dev itself is nodev) */
        MOP_SYMLINK,  /* dst -> src */
};

struct mount_op {
        enum mount_op_kind kind;
        const char *src;     /* MOP_BIND: host path; MOP_SYMLINK: link target */
        const char *dst;     /* inside the container */
        unsigned long flags; /* MS_* for mount(2) */
        const char *data;    /* mount(2) data, or NULL */
        bool src_is_dir;     /* MOP_BIND: make a directory (not a file) as mountpoint */
        unsigned line;       /* spec line for user mounts, 0 for crib's own */
        dev_t dev;           /* MOP_DEV_NODE */
};

#define PLAN_MAX_MOUNTS (SPEC_MAX_MOUNTS + 32)

struct plan {
        const struct spec *spec;
        bool trace;

        /* host facts */
        uid_t host_uid;
        gid_t host_gid;
        bool privileged; /* euid 0 on the host */

        /* namespaces */
        int clone_flags; /* CLONE_NEW* */
        bool userns;

        /* id maps, written by the parent (userns.c) */
        struct idmap uidmap, gidmap;
        bool deny_setgroups; /* unprivileged single-id gid map: setgroups must be denied */
        /* both maps are one id, the caller's own, and setgroups is denied: the child may write
         * them itself (as unshare -r does), which saves the parent-child round trip */
        bool self_maps;

        /* root filesystem */
        char *rootfs; /* absolute host path, symlinks resolved */
        /* the directory the parent checked: the child opens rootfs once and refuses any other */
        dev_t rootfs_dev;
        ino_t rootfs_ino;
        bool readonly_rootfs;
        /* root's container, rootfs owned by host root: the parent hands the child an idmapped
         * copy of its mount tree (userns.c), so container root owns it inside */
        bool idmap_rootfs;
        struct mount_op mounts[PLAN_MAX_MOUNTS];
        size_t nmounts;

        /* process */
        char **argv; /* NULL-terminated */
        char **envp; /* NULL-terminated */
        const char *cwd;
        uid_t uid;
        gid_t gid;
        const gid_t *groups;
        size_t ngroups;
        bool set_groups; /* call setgroups(2); impossible after "deny" */
        mode_t umask;
        const char *hostname;
        bool terminal;
        bool init;
        bool loopback; /* private net namespace: bring lo up */
        /* the workload keeps CAP_SYS_ADMIN and something is masked or read-only: it gets a user
         * namespace of its own, with these CLONE_NEW* besides, so the kernel locks the mounts
         * (lockmounts.c); 0 when not needed */
        int nest_flags;

        /* security (caps.c, nnp.c, paths.c, fds.c; limits applied by the parent) */
        int cap_last; /* the highest capability this kernel knows */
        uint64_t cap_bounding, cap_permitted, cap_effective, cap_inheritable, cap_ambient;
        bool no_new_privs;
        const struct spec_paths *masked, *readonly;
        struct plan_rlimit {
                int resource;
                struct rlimit lim;
        } rlimits[SPEC_NLIMITS];
        size_t nrlimits;
        const int *pass_fds;
        size_t npass_fds;
        struct seccomp_program seccomp; /* empty: no filter */
        char seccomp_how[768];          /* for the trace: cached load, or compiled, or why none */
        char apparmor[256];             /* the profile for the workload's exec, "" for none */
        bool apparmor_required;         /* fail (not warn) when it cannot be applied */

        /* things cmd/ should tell the user before the container starts; a line after the
         * first is a remedy */
        char warnings[4][768];
        size_t nwarnings;

        void *owned; /* strings the plan made, freed by plan_free() */
};

/* Build the plan for `spec`; `argv_override` (NULL-terminated or NULL) replaces the spec's
 * args. Errors about the spec name its file and line. */
int plan_build(const struct spec *spec, char *const *argv_override, bool trace, struct plan *ret,
               struct error *err);
void plan_free(struct plan *p);

#endif
