/* plan.h - everything the container's setup process needs, computed by the parent.
 *
 * The parent does the thinking: plan_build() reads the spec and the host's facts (struct
 * plan_host, gathered by cmd/ with plan_host_gather()), looks up the filesystem (the rootfs,
 * bind sources, the host's device nodes, /etc/subuid and /etc/passwd), and writes down the
 * result here. Planning changes nothing anywhere: it only reads. plan_build() is the plan's one
 * writer: what a front end needs of the launch besides the spec (crib create's wait for crib
 * start, the OCI hooks, the container's name) it is given as struct plan_opts, and everything
 * after it takes a const struct plan *. The child (runtime/launch/) only reads this plan and
 * makes system calls.
 *
 * The plan stands alone: it owns all its memory, one block (`arena`) freed by plan_free(), and
 * points into nothing else: not into the spec (which may be freed right after planning), not
 * into crib's binary (string constants are copied in too). So it can be written to a file and
 * read back by another process (a state directory for `crib create`/`start`/`exec`;
 * file.c): the struct with each pointer turned into its offset in the arena (NULL stays
 * NULL), then the arena's `arena_size` bytes; reading loads both, checks every offset (and
 * every string's NUL) lies inside the arena, and adds the arena's new address back. plan_walk()
 * (file.c) is the one list of the pointers, used both to pack and to write. Nothing else holds
 * an address: file descriptors are not part of the plan (the parent opens what it needs).
 */
#ifndef CRIB_PLAN_H
#define CRIB_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "cgroup/cgroup.h"
#include "base/error.h"
#include "host/host.h"
#include "spec/idmap.h"
#include "seccomp/seccomp.h"
#include "spec/spec.h"

/* The workload's PATH when the spec sets none (the plan puts it in the environment; exec.c
 * searches it when the environment has none at all) */
#define PLAN_DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* One mount operation; mounts.c applies them in order with one switch. Destinations are
 * absolute paths inside the container, resolved under the rootfs before pivot_root. */
enum mount_op_kind {
        MOP_BIND,     /* bind a host path (src) onto dst */
        MOP_TMPFS,    /* a fresh tmpfs */
        MOP_PROC,     /* proc of the container's pid namespace */
        MOP_SYSFS,    /* sysfs of the container's net namespace, read-only */
        MOP_DEVPTS,   /* a private devpts instance */
        MOP_MQUEUE,   /* the ipc namespace's POSIX message queues */
        MOP_DEV_NODE, /* a device node: a bind of the host's, or with user = no as real root a
                       * copy of it (mknod, then bound onto itself: /dev itself is nodev) */
        MOP_SYMLINK,  /* dst -> src */
        MOP_FILE,     /* a read-only file holding `data`, on a tmpfs of its own, mounted on dst
                       * (over a symlink there too: a dangling /etc/resolv.conf is common) */
        MOP_CGROUP,   /* /sys/fs/cgroup: the container's own cgroup v2 and nothing above it, or an
                       * empty read-only tmpfs where it has none (mounts.c says which, and why) */
        MOP_DEVICE,   /* a node an OCI config asks for (.linux.devices), on crib's /dev: as real
                       * root made (mknod, `mode` with its type, `dev`, uid, gid, bound onto
                       * itself); in a user namespace the host's node `src` bound there */
};

struct mount_op {
        enum mount_op_kind kind;
        const char *src;     /* MOP_BIND: host path; MOP_SYMLINK: link target */
        const char *dst;     /* inside the container */
        unsigned long flags; /* MS_* for mount(2) */
        const char *data;    /* mount(2) data, MOP_FILE's content, or NULL */
        bool src_is_dir;     /* MOP_BIND: make a directory (not a file) as mountpoint */
        unsigned line;       /* spec line for user mounts, 0 for crib's own */
        bool cgroup_v1;      /* MOP_CGROUP: the host's controllers are on cgroup v1 (a hybrid or v1
                              * host): a read-only tmpfs on dst, the cgroup v2 in its unified/ */
        dev_t dev;           /* MOP_DEV_NODE, MOP_DEVICE */
        /* MOP_BIND of the spec's [mounts]: the source as planning found it; the setup binds it
         * or nothing (mounts.c): a file put in its place since, say between two runs of a
         * restart policy, is refused (0: not pinned, crib's own binds) */
        dev_t src_dev;
        ino_t src_ino;
        mode_t mode; /* MOP_DEVICE: S_IFCHR, S_IFBLK or S_IFIFO, and the permissions */
        uid_t uid;   /* MOP_DEVICE: the node's owner */
        gid_t gid;
};

/* the longest value fsconfig(2) FSCONFIG_SET_STRING takes (strndup_user's 256, NUL included) */
#define PLAN_FSCONFIG_MAX 255
/* an image's layers at most (the store's STORE_MAX_LAYERS, image/imgstore.h) */
#define PLAN_MAX_LAYERS 128
#define PLAN_MAX_MOUNTS (SPEC_MAX_MOUNTS + SPEC_MAX_DEVICES + 32)

/* The helpers' addresses inside the container: slirp4netns's built-in DNS forwarder and the
 * address pasta is told to forward to the host's resolver (--dns-forward). */
#define NET_SLIRP_DNS      "10.0.2.3"
#define NET_PASTA_DNS      "169.254.1.1"
#define NET_DNS_ADDR(mode) ((mode) == SPEC_NET_PASTA ? NET_PASTA_DNS : NET_SLIRP_DNS)

/* A program the engine asks the container's own processes to run (an OCI config's
 * createContainer and startContainer hooks; steps/ocihooks_in.c runs them), with the state on
 * its stdin. When: */
enum plan_hook_when {
        PLAN_HOOK_SETUP, /* the setup process, in the container's namespaces, before pivot_root:
                          * a host program (createContainer) */
        PLAN_HOOK_START, /* the workload's process, after crib start, before the exec, confined
                          * as the workload: a program of the container's (startContainer) */
        PLAN_HOOK_WHENS
};
#define PLAN_MAX_HOOKS 16 /* of each */
struct plan_hook {
        const char *path; /* absolute: the host's (SETUP), the container's (START) */
        char **argv;      /* NULL-terminated, at least one */
        char **envp;      /* NULL-terminated, maybe empty: the hook's own, nothing of crib's */
        int timeout;      /* seconds, 0: none */
};

struct plan {
        bool trace;            /* plan_opts.trace */
        bool explain;          /* plan_opts.explain */
        bool step_mode;        /* plan_opts.step: each step from the third waits for crib */
        bool wait_start;       /* crib create: the workload waits for crib start (steps/start.c) */
        const char *spec_path; /* the spec file, for FILE:LINE in the child's errors */
        enum spec_front front; /* whose words a remedy uses: crib.ini's or an engine's (phrase.h) */

        /* host facts */
        uid_t host_uid;
        gid_t host_gid;
        bool privileged; /* euid 0 on the host */

        /* namespaces */
        int clone_flags; /* CLONE_NEW* */
        /* the namespaces joined by path (an OCI config's), none of them in clone_flags: their
         * CLONE_NEW* flags, and each file, by enum spec_ns (NULL for none); the launch joins
         * them before the clone (runtime/launch/joinns.c), crib exec as it joins the others */
        int join_flags;
        char *join_path[SPEC_NNS];
        bool userns; /* the container has a user namespace: one of its own, or a joined one */

        /* id maps, written by the parent (userns.c) */
        struct idmap uidmap, gidmap;
        bool deny_setgroups; /* unprivileged single-id gid map: setgroups must be denied */
        /* both maps are one id, the caller's own, and setgroups is denied: the child may write
         * them itself (as unshare -r does), which saves the parent-child round trip; not when
         * something must run before the setup goes on (a network helper, the front end's
         * hooks), which the setup waits for: then the parent writes them */
        bool self_maps;

        /* root filesystem */
        /* an absolute host path. Root's is resolved (the name /proc gives the descriptor
         * planning opened), and so is a relative one; a user's absolute one stays as the spec
         * wrote it, symlinks and all (fs.c: plan_rootfs). Either way the child opens it once
         * and refuses any directory but the one planning checked: */
        char *rootfs;
        dev_t rootfs_dev;
        ino_t rootfs_ino;
        bool readonly_rootfs;
        /* root's container, rootfs owned by host root: the parent hands the child an idmapped
         * copy of its mount tree (userns.c), so container root owns it inside */
        bool idmap_rootfs;
        /* a container of a store image: overlayfs's options (paths with no ',', ':' or '\\',
         * absolute, or relative to the rootfs, its mountpoint, where longer than fsconfig(2)
         * takes), mounted in the container's namespaces (steps/overlay.c); lower NULL with
         * overlay_layers: each layer as "lowerdir+" "../l/N" (Linux 6.8). NULL and 0 for a
         * plain directory */
        char *overlay_lower, *overlay_upper, *overlay_work;
        unsigned overlay_layers;
        /* root's container of a store image in a user namespace: the parent hands the child
         * each layer as an idmapped mount (steps/idlayers.c), attached at m/0..m/N-1 while the
         * overlay is made; every overlay path is relative to the rootfs's mountpoint, since
         * container root cannot walk root's 0700 store from / */
        bool overlay_idmapped;
        /* --rm: the container's directory is removed when it ends, so overlayfs need not sync
         * upper/ to disk, as it does on every unmount otherwise (its `volatile` option) */
        bool overlay_volatile;
        /* a container of a store image: ROOT/containers/ID, which `crib rm` and --rm remove
         * (runtime/container/imgrootfs.c); NULL otherwise */
        char *image_dir;
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
        /* [service] restart: what crib's monitor does when a detached container's workload
         * ends (runtime/launch/monitor.c); restart_max: on-failure's most restarts, 0: none */
        enum spec_restart restart;
        unsigned restart_max;
        /* [service] healthcheck: run by crib's monitor as crib exec runs a program
         * (runtime/launch/health.c); health.argv NULL: none */
        struct spec_health health;
        bool loopback; /* private net namespace: bring lo up */
        /* network (runtime/launch/nethelper.c): with a helper, the parent starts it for the
         * container's network namespace and waits until it is ready before GO */
        enum spec_net_mode net_mode;
        const char *net_helper; /* the helper program's absolute path, or NULL */
        /* nft(8), when the container must be kept away from the host's loopback: a rule in its
         * network namespace drops what leaves by any interface but lo for 127.0.0.0/8 or ::1
         * (netns.c); NULL otherwise */
        const char *nft;
        unsigned net_line;  /* the spec's [network] mode line (FILE:LINE), 0 if none */
        bool host_loopback; /* the helper lets the container reach the host's loopback */
        char run_dir[512];  /* the state root (a directory only we use): slirp4netns's API
                             * socket goes in a directory there while ports are added */
        struct spec_port ports[SPEC_MAX_PORTS];
        size_t nports;
        /* "LOW HIGH" for the container's net.ipv4.ping_group_range, or "": with NET_RAW
         * dropped, ping still works (ICMP sockets) */
        char ping_range[32];
        /* the spec's sysctls (steps/sysctl.c), each "KEY=VALUE" with KEY as spec_sysctl_ns()
         * took it, NULL-terminated; NULL for none */
        char **sysctl;
        /* crib's own namespace of each kind the setup writes a setting in (a sysctl of that
         * kind, the hostname), by enum spec_ns: its nsfs device and inode (dev 0: none). The
         * setup checks it is not in that one, the host's (plan/tunables.c) */
        struct plan_ns_id {
                dev_t dev;
                ino_t ino;
        } crib_ns[SPEC_NNS];
        /* /proc/self/oom_score_adj for the container's processes and its execs (steps/oom.c) */
        bool oom_score_adj_set;
        int oom_score_adj;
        /* net.ipv4.ip_unprivileged_port_start = 0 in the container's network namespace: its
         * workload keeps NET_BIND_SERVICE, but in a user namespace of its own (nest_flags)
         * that does not own the network namespace, where the capability cannot count */
        bool low_ports_open;
        /* the workload keeps CAP_SYS_ADMIN and something is masked or read-only: it gets a user
         * namespace of its own, with these CLONE_NEW* besides, so the kernel locks the mounts
         * (lockmounts.c); 0 when not needed */
        int nest_flags;
        /* nest_flags has CLONE_NEWNET and nothing is joined or hooked: the parent makes that
         * user namespace and its network namespace, the only one (launch/nestns.c); the setup
         * is cloned without CLONE_NEWNET and joins it, the workload joins the user namespace */
        bool nest_early;
        /* the sets below are an engine's config's own (oci/ociprocess.c): an exec that asks for
         * none gets them, whatever its uid, as under runc */
        bool caps_sets;

        /* security (caps.c, nnp.c, paths.c, fds.c; limits applied by the parent) */
        int cap_last; /* the highest capability this kernel knows */
        uint64_t cap_bounding, cap_permitted, cap_effective, cap_inheritable, cap_ambient;
        /* what a process whose uid is not 0 gets (permitted, effective, inheritable and ambient):
         * only the capabilities the spec names, Docker's rule; plan_caps_for_uid() */
        uint64_t cap_user;
        bool no_new_privs;
        const struct spec_paths *masked, *readonly; /* never NULL after plan_build() */
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

        /* resources: the container's cgroup (runtime/cgroup), made by the parent before the
         * clone, the setup process cloned into it; limits.need 0: none */
        struct cgroup_limits limits;
        char cgroup_base[1024];
        char cgroup_name[80]; /* the container's name (plan_opts.name), or "" for run-PID */
        /* or where an engine wants it (an OCI config's cgroupsPath): the container's cgroup is
         * made there, its processes in .../container; crib makes the cgroups on the way below
         * cgroup_top (the hierarchy's root for root, the parent of crib's own for a user) */
        char cgroup_path[1024];
        char cgroup_top[1024];
        bool cgroup_systemd; /* base is user@UID.service: a scope from systemd first */
        bool cgroup_unit;    /* base is crib's own, a unit's (Delegate=yes): crib moves to
                              * base/supervisor first (cgroup/systemd.c) */
        bool cgroup;         /* the container gets a cgroup: for limits, or for devices */
        /* user = no, or an OCI config run by root: the device program on its cgroup
         * (runtime/cgroup/devices.c, struct cgroup_device_policy): the first ndevices_own of
         * devices always open, the rest where the config's rules (dev_rules_on) allow them
         * too; devices_why says why there is none, for the trace */
        bool device_program;
        struct cgroup_device devices[CGROUP_MAX_DEVICES];
        size_t ndevices, ndevices_own;
        bool dev_rules_on;
        struct cgroup_device_rule dev_rules[SPEC_MAX_DEVICE_RULES];
        size_t ndev_rules;
        char devices_why[320];

        /* the engine's hooks that run inside the container (steps/ocihooks_in.c), by when, and
         * the state they read: a JSON object to which the child adds "status", "pid" (its own,
         * as crib sees it: SYNC_GO) and "rootfs" (above); NULL when there are none */
        struct plan_hook hooks[PLAN_HOOK_WHENS][PLAN_MAX_HOOKS];
        size_t nhooks[PLAN_HOOK_WHENS];
        const char *hook_state;

        /* things cmd/ should tell the user before the container starts; a line after the
         * first is a remedy */
        char warnings[4][768];
        size_t nwarnings;
        /* 1 + the index in warnings of "AppArmor is not available", which cmd/ says once per
         * boot and user (it would be the same two lines before every container on a Raspberry
         * Pi, where AppArmor is off out of the box); 0 when there is none */
        size_t apparmor_warning;

        /* every pointer above points in here (see the top of this file) */
        void *arena;
        size_t arena_size;
};

/* What a front end asks of the launch besides the spec: plan_build() writes it into the plan
 * with the rest, since nothing writes a plan after it. NULL asks for none of it. */
struct plan_opts {
        bool trace;       /* --trace: the setup says what it does, and what it costs */
        bool explain;     /* --trace=explain: and why each step stands where it does */
        bool step;        /* --step: the setup waits before each step (step.c), once the id
                           * maps are written, for crib's go-ahead (SYNC_STEP_GO) */
        bool wait_start;  /* crib create: the workload waits for crib start (steps/start.c) */
        bool hooks;       /* the front end runs something between the clone and the setup going
                           * on (the OCI hooks): the setup waits for it (self_maps) */
        const char *name; /* the container's name, which its cgroup takes (and `crib exec` finds
                           * it by); NULL or "" for none */
        /* crib plan of a store image: its container's directory (the spec's image_dir) is not
         * made. Its paths are planned as crib run would plan them, without looking for them, and
         * this directory, the store's root it would be made in (the same owner, the same
         * reach), stands in for the rootfs where its owner and who else can reach it are asked */
        const char *unmade_at;
        /* the hooks the container's processes run (the plan copies them: struct plan's
         * hooks), and the state they read, without "status", "pid" and "rootfs"; with any,
         * `hooks` must be set too (the setup learns its pid from SYNC_GO) */
        const struct plan_hook *in_hooks[PLAN_HOOK_WHENS];
        size_t nin_hooks[PLAN_HOOK_WHENS];
        const char *hook_state;
};

/* Build the plan for `spec` on `host`. Errors about the spec name its file and line. The plan
 * keeps nothing of `spec`, `host` or `opts`: they may be freed as soon as this returns. */
int plan_build(const struct spec *spec, const struct plan_host *host, const struct plan_opts *opts,
               struct plan *ret, struct error *err);
void plan_free(struct plan *p);

/* The capability sets of a process of the plan `p` running as `uid` (crib run's workload, or
 * crib exec -u UID): root gets the bounding set when it execs and nothing to inherit; any other
 * uid gets only p->cap_user, through the ambient set (so also permitted and inheritable). */
void plan_caps_for_uid(struct plan *p, uid_t uid);

/* Every pointer of the plan, each handed to the walker's function for its kind, which returns
 * the pointer to store in its place: file.c packs the plan into its arena with it, and turns
 * the pointers into offsets and back. The one list of the plan's pointers. */
struct plan_walker {
        char *(*str)(void *ctx, const char *s);
        char **(*strv)(void *ctx, char **v);
        const struct spec_paths *(*paths)(void *ctx, const struct spec_paths *l);
        void *(*blob)(void *ctx, const void *p, size_t n);
        void *ctx;
};
void plan_walk(struct plan *p, const struct plan_walker *w);

/* file.c: the plan as bytes for a file (malloc'd, in *ret), and back; reading checks every
 * count, offset and string against the block it read, and refuses another crib's format. */
int plan_to_bytes(const struct plan *p, void **ret, size_t *ret_len, struct error *err);
int plan_from_bytes(const void *buf, size_t len, struct plan *ret, struct error *err);

#endif
