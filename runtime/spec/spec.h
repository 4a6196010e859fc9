/* spec.h - the container spec: what a crib.ini(5) file says, checked, with no host lookups.
 *
 * spec_load() maps each `section.key` of the tokenized INI file through a static key table
 * (keys.c) to a parser and a field (a file per section: keys.h), then checks the fields against
 * each other (load.c).
 * Everything here is pure: resolving paths and ids against the host is plan.c's job. Each key
 * remembers where its value came from (struct spec_origin): crib's built-in default, a security
 * level, a line of the spec file, or the command line; later errors still say FILE:LINE, and
 * behaviour that depends on who asked (a level's limit is a ceiling, a profile the spec names is
 * required) asks the origin, by key.
 */
#ifndef CRIB_SPEC_H
#define CRIB_SPEC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/error.h"

#define SPEC_MAX_ENV     1024
#define SPEC_MAX_MOUNTS  256
#define SPEC_MAX_RANGES  64 /* id-map ranges per map (the kernel takes 340) */
#define SPEC_MAX_GROUPS  64
#define SPEC_MAX_PATHS   64   /* masked or read-only paths */
#define SPEC_MAX_FDS     64   /* pass_fds */
#define SPEC_NLIMITS     16   /* RLIMIT_CPU .. RLIMIT_RTTIME */
#define SPEC_MAX_PORTS   64   /* [network] publish */
#define SPEC_MAX_DNS     3    /* [network] dns: what resolv.conf(5) reads */
#define SPEC_MAX_SYSCTLS 64   /* an OCI config's .linux.sysctl entries */
#define SPEC_SYSCTL_KEY  128  /* bytes of a sysctl's name, its NUL included */
#define SPEC_SYSCTL_VAL  1024 /* bytes of its value, its NUL included */

enum spec_terminal { TERMINAL_NO, TERMINAL_YES, TERMINAL_AUTO };

/* The spec's keys, one per `section.key` of crib.ini(5), in the order crib.ini(5) documents
 * them. The key table in keys.c names each row by its enum (designated initializers), so the two
 * stay in step; a key is looked up by its enum, never by its name. */
enum spec_key {
        SPEC_KEY_CONTAINER_ROOTFS,
        SPEC_KEY_CONTAINER_IMAGE,
        SPEC_KEY_CONTAINER_HOSTNAME,
        SPEC_KEY_CONTAINER_READONLY_ROOTFS,
        SPEC_KEY_PROCESS_ARGS,
        SPEC_KEY_PROCESS_ENV,
        SPEC_KEY_PROCESS_CWD,
        SPEC_KEY_PROCESS_USER,
        SPEC_KEY_PROCESS_GROUPS,
        SPEC_KEY_PROCESS_UMASK,
        SPEC_KEY_PROCESS_TERMINAL,
        SPEC_KEY_PROCESS_INIT,
        SPEC_KEY_PROCESS_PASS_FDS,
        SPEC_KEY_NAMESPACES_USER,
        SPEC_KEY_NAMESPACES_MOUNT,
        SPEC_KEY_NAMESPACES_PID,
        SPEC_KEY_NAMESPACES_IPC,
        SPEC_KEY_NAMESPACES_UTS,
        SPEC_KEY_NAMESPACES_NET,
        SPEC_KEY_NAMESPACES_CGROUP,
        SPEC_KEY_IDMAP_UID,
        SPEC_KEY_IDMAP_GID,
        SPEC_KEY_MOUNTS_BIND,
        SPEC_KEY_MOUNTS_TMPFS,
        SPEC_KEY_MOUNTS_CGROUP,
        SPEC_KEY_SECURITY_LEVEL,
        SPEC_KEY_SECURITY_CAPABILITIES,
        SPEC_KEY_SECURITY_NO_NEW_PRIVILEGES,
        SPEC_KEY_SECURITY_MASKED_PATHS,
        SPEC_KEY_SECURITY_READONLY_PATHS,
        SPEC_KEY_SECURITY_SECCOMP,
        SPEC_KEY_SECURITY_SECCOMP_MODE,
        SPEC_KEY_SECURITY_APPARMOR,
        SPEC_KEY_SECURITY_APPARMOR_MODE,
        /* [limits]: SPEC_KEY_LIMITS_CPU + RLIMIT_* (spec_limit_key()) */
        SPEC_KEY_LIMITS_CPU,
        SPEC_KEY_LIMITS_FSIZE,
        SPEC_KEY_LIMITS_DATA,
        SPEC_KEY_LIMITS_STACK,
        SPEC_KEY_LIMITS_CORE,
        SPEC_KEY_LIMITS_RSS,
        SPEC_KEY_LIMITS_NPROC,
        SPEC_KEY_LIMITS_NOFILE,
        SPEC_KEY_LIMITS_MEMLOCK,
        SPEC_KEY_LIMITS_AS,
        SPEC_KEY_LIMITS_LOCKS,
        SPEC_KEY_LIMITS_SIGPENDING,
        SPEC_KEY_LIMITS_MSGQUEUE,
        SPEC_KEY_LIMITS_NICE,
        SPEC_KEY_LIMITS_RTPRIO,
        SPEC_KEY_LIMITS_RTTIME,
        /* [resources]: cgroup v2 (runtime/cgroup) */
        SPEC_KEY_RESOURCES_MEMORY,
        SPEC_KEY_RESOURCES_MEMORY_HIGH,
        SPEC_KEY_RESOURCES_MEMORY_SWAP,
        SPEC_KEY_RESOURCES_MEMORY_LOW,
        SPEC_KEY_RESOURCES_CPUS,
        SPEC_KEY_RESOURCES_CPU_WEIGHT,
        SPEC_KEY_RESOURCES_PIDS,
        SPEC_KEY_RESOURCES_IO_WEIGHT,
        SPEC_KEY_RESOURCES_CPUSET_CPUS,
        SPEC_KEY_RESOURCES_CPUSET_MEMS,
        SPEC_KEY_RESOURCES_MODE,
        /* [network]: runtime/launch/nethelper.c */
        SPEC_KEY_NETWORK_MODE,
        SPEC_KEY_NETWORK_PUBLISH,
        SPEC_KEY_NETWORK_DNS,
        SPEC_KEY_NETWORK_HOST_LOOPBACK,
        /* [service]: runtime/launch/monitor.c */
        SPEC_KEY_SERVICE_RESTART,
        SPEC_KEY_SERVICE_HEALTHCHECK,
        SPEC_KEY_SERVICE_HEALTHCHECK_INTERVAL,
        SPEC_KEY_SERVICE_HEALTHCHECK_TIMEOUT,
        SPEC_KEY_SERVICE_HEALTHCHECK_RETRIES,
        SPEC_KEY_SERVICE_HEALTHCHECK_START_PERIOD,
        SPEC_KEY_SERVICE_ON_UNHEALTHY,
        SPEC_KEY_SERVICE_NOTIFY,
        SPEC_NKEYS
};

/* Where a key's value came from. */
enum spec_origin_kind {
        SPEC_FROM_DEFAULT, /* crib's built-in default (or nothing: the key is unset) */
        SPEC_FROM_LEVEL,   /* a security level, profiles/levels/NAME, built into crib */
        SPEC_FROM_FILE,    /* the spec file */
        SPEC_FROM_CLI,     /* the command line (crib run SPEC -- PROGRAM ARGS...) */
};

struct spec_origin {
        enum spec_origin_kind kind;
        unsigned level; /* SPEC_FROM_LEVEL: the level, as spec_level_name(level) */
        unsigned line;  /* SPEC_FROM_LEVEL, SPEC_FROM_FILE: the key's first line there */
};

/* Which front end made the spec: whose words its remedies use (phrase.h). A crib.ini(5) user
 * edits the file; an engine's user (podman, containerd) cannot, and changes config.json
 * through the engine's flags. */
enum spec_front {
        SPEC_FRONT_INI, /* crib.ini(5): crib run, crib check, an imported image's */
        SPEC_FRONT_OCI, /* an engine's config.json (oci.c): crib oci, runc's command line */
};

struct spec_range {
        uint32_t inside, outside, count;
        unsigned line;
};

struct spec_idmap {
        bool is_auto; /* "auto": 0 = the invoking id, 1..N = its /etc/subuid or /etc/subgid ranges
                       */
        struct spec_range ranges[SPEC_MAX_RANGES];
        size_t n;
        unsigned line; /* first line of the map, 0 when the spec has none */
};

enum spec_mount_kind { SPEC_MOUNT_BIND, SPEC_MOUNT_TMPFS };

/* [mounts] cgroup: the container's own cgroup at /sys/fs/cgroup, and how (an OCI config's
 * cgroup mount there: its "ro" option) */
enum spec_cgroup_mount { SPEC_CGROUP_MOUNT_NO, SPEC_CGROUP_MOUNT_RO, SPEC_CGROUP_MOUNT_RW };

/* Option flags of a [mounts] line. */
enum {
        SPEC_MNT_RO = 1 << 0,
        SPEC_MNT_NOSUID = 1 << 1,
        SPEC_MNT_NODEV = 1 << 2,
        SPEC_MNT_NOEXEC = 1 << 3,
        SPEC_MNT_RECURSIVE = 1 << 4,
        SPEC_MNT_STRICTATIME = 1 << 5, /* tmpfs only (config.json: containerd's /dev, /run) */
};

struct spec_mount {
        enum spec_mount_kind kind;
        char *src;     /* bind: host path as written (relative to the spec's directory) */
        char *dst;     /* absolute path inside the container */
        unsigned opts; /* SPEC_MNT_* */
        char *data;    /* tmpfs: "size=...,mode=...,nr_inodes=..." for mount(2), or NULL */
        unsigned line;
};

/* A list of absolute paths inside the container ([security] masked_paths, readonly_paths). */
struct spec_paths {
        char *items[SPEC_MAX_PATHS];
        size_t n;
};

/* A sysctl of the container's own namespaces (sysctlkey.c says which), set in it by the setup
 * (runtime/steps/sysctl.c): an OCI config's .linux.sysctl entry. */
struct spec_sysctl {
        char *key;   /* "net.ipv4.ip_forward": checked by spec_sysctl_ns() */
        char *value; /* as written to /proc/sys/net/ipv4/ip_forward */
};

/* [network] mode: loopback only, the host's network, or a user-mode helper's */
/* [service] restart: what crib's monitor does when a detached container's workload ends
 * (runtime/launch/monitor.c), docker's and podman's policies */
enum spec_restart {
        SPEC_RESTART_NO,             /* never (the default) */
        SPEC_RESTART_ON_FAILURE,     /* when it exits with a status other than 0 */
        SPEC_RESTART_ALWAYS,         /* whatever the status, until crib stop */
        SPEC_RESTART_UNLESS_STOPPED, /* as always: the two differ only at boot (crib.ini(5)) */
};

/* [service] on_unhealthy: what crib's monitor does once a health check made it unhealthy */
enum spec_on_unhealthy {
        SPEC_UNHEALTHY_NONE,    /* only reported (the default, as docker's) */
        SPEC_UNHEALTHY_KILL,    /* killed, and no restart policy starts it again */
        SPEC_UNHEALTHY_RESTART, /* killed and started again, a restart counted */
};

/* [service] healthcheck and its timing (runtime/launch/health.c): docker's HEALTHCHECK */
struct spec_health {
        char **argv; /* NULL: none */
        uint32_t interval_ms, timeout_ms, start_period_ms;
        uint32_t retries;
        enum spec_on_unhealthy on_unhealthy;
};
/* [service] notify: crib says READY=1 when the workload runs, or the container says it itself
 * through crib's socket (runtime/launch/notify.c) */
enum spec_notify { SPEC_NOTIFY_CRIB, SPEC_NOTIFY_CONTAINER };

enum spec_net_mode { SPEC_NET_NONE, SPEC_NET_HOST, SPEC_NET_SLIRP4NETNS, SPEC_NET_PASTA };

/* One [network] publish line: host ADDR:HOSTPORT to the container's PORT. */
struct spec_port {
        char addr[16]; /* IPv4, dotted ("0.0.0.0": every address of the host) */
        uint16_t host_port, port;
        bool udp;
        unsigned line;
};

/* [resources]: cgroup v2's controllers and limits, as data (runtime/cgroup writes them; its
 * names, as every front end fills them) */
enum cgroup_ctrl { CGROUP_MEMORY, CGROUP_CPU, CGROUP_PIDS, CGROUP_IO, CGROUP_CPUSET, CGROUP_NCTRL };
#define CGROUP_BIT(c) (1u << (c))

#define CGROUP_UNSET    (-1)
#define CGROUP_MAX      INT64_MAX  /* "max": no limit */
#define CGROUP_CPU_MAX  UINT32_MAX /* cpu_quota: "max", no quota */
#define CGROUP_LIST_LEN 128        /* a cpuset list, as "0-3,6" */

/* A spec's [resources], as cgroup v2 file values. */
struct cgroup_limits {
        unsigned need;       /* CGROUP_BIT of each controller the limits below need; 0: none */
        int64_t memory_max;  /* memory.max, bytes, or CGROUP_UNSET or CGROUP_MAX */
        int64_t memory_high; /* memory.high */
        int64_t memory_low;  /* memory.low: kept from reclaim (an OCI config's reservation) */
        int64_t memory_swap; /* memory.swap.max */
        int64_t pids_max;    /* pids.max */
        uint32_t cpu_quota;  /* cpu.max: microseconds per period, 0: unset, CGROUP_CPU_MAX */
        uint32_t cpu_period; /* microseconds */
        uint32_t cpu_weight; /* cpu.weight, 1 to 10000, 0: unset */
        uint32_t io_weight;  /* io.weight, 1 to 10000, 0: unset */
        char cpuset_cpus[CGROUP_LIST_LEN]; /* cpuset.cpus, a list ("0-1,3"); "": unset */
        char cpuset_mems[CGROUP_LIST_LEN]; /* cpuset.mems, the memory nodes; "": unset */
};

/* One rule of an OCI config's device list (.linux.resources.devices), as runc reads it: the
 * rules in order, the last one that matches a device and an access wins, none matching denies.
 * cgroup/devices.c turns them into the device program. */
#define CGROUP_DEV_READ  1u
#define CGROUP_DEV_WRITE 2u
#define CGROUP_DEV_MKNOD 4u
struct cgroup_device_rule {
        bool allow;
        char type;            /* 'a' (any), 'c' or 'b' */
        int64_t major, minor; /* -1: any */
        unsigned access;      /* CGROUP_DEV_* bits */
};
#define SPEC_MAX_DEVICE_RULES 256

/* One device node an OCI config asks for (.linux.devices[index]): made at `path` in the
 * container's /dev (plan/devnodes.c, steps/mounts.c). */
struct spec_device {
        char *path;
        char type; /* 'c', 'b' or 'p' ('u' is read as 'c') */
        uint32_t major, minor;
        mode_t mode; /* permission bits */
        uint32_t uid, gid;
        unsigned index; /* its place in .linux.devices, for errors */
};
#define SPEC_MAX_DEVICES 256

/* One [limits] key: soft and hard values (RLIM_INFINITY for unlimited). */
struct spec_limit {
        bool set;
        uint64_t soft, hard;
};

/* The namespaces a container may join by path (spec.ns_path), in an OCI config's order; the
 * mount namespace is always crib's own. */
enum spec_ns {
        SPEC_NS_USER,
        SPEC_NS_PID,
        SPEC_NS_IPC,
        SPEC_NS_UTS,
        SPEC_NS_NET,
        SPEC_NS_CGROUP,
        SPEC_NNS
};

struct spec {
        char *path;            /* the spec file as named on the command line */
        enum spec_front front; /* crib.ini, or an engine's config.json */

        /* [container] */
        char *rootfs;
        char *image; /* image = REF: crib run makes the rootfs from the store's image */
        /* Not keys: a container of a store image (crib run IMAGE, or image = REF), filled by
         * cmd/ after loading (runtime/container/imgrootfs.c): ROOT/containers/ID, removed
         * with the container. With overlay_layers, its l/0..l/N-1 (l/0 the topmost layer),
         * upper/ and work/ make an overlay on merged/, the rootfs; with 0, rootfs/ is a copy.
         * overlay_idmapped: root's container in a user namespace, its layers shown through
         * idmapped mounts at m/0..m/N-1 */
        char *image_dir;
        unsigned overlay_layers;
        bool overlay_idmapped;
        bool overlay_volatile; /* --rm: the directory goes with the container, unsynced */
        char *hostname;
        bool readonly_rootfs;

        /* [process] */
        char **args; /* NULL-terminated */
        char **env;  /* NULL-terminated, NAME=VALUE */
        size_t nenv;
        char *cwd;
        uint32_t uid, gid;
        gid_t groups[SPEC_MAX_GROUPS];
        size_t ngroups;
        bool groups_set;
        mode_t umask;
        enum spec_terminal terminal;
        bool init;
        int pass_fds[SPEC_MAX_FDS];
        size_t npass_fds;

        /* [namespaces] */
        bool ns_user, ns_pid, ns_ipc, ns_uts, ns_net, ns_cgroup;
        /* one joined, not made (its ns_* is set too): the path of a namespace file, by enum
         * spec_ns; NULL for a new one. An OCI config's .linux.namespaces[].path; crib.ini has
         * none */
        char *ns_path[SPEC_NNS];

        /* [idmap] */
        struct spec_idmap uidmap, gidmap;

        /* [security] (and the level it starts from) */
        char *level;
        uint64_t caps;       /* capability bits: 1 << CAP_* */
        uint64_t caps_named; /* the bits a list named (to warn when the kernel lacks one) */
        /* config.json for a user other than root with no inheritable or ambient set: the
         * bounding set only, so the program has no capabilities after its exec (runc's result) */
        bool caps_no_ambient;
        /* config.json's own sets beside its bounding set (caps), each within it: the process
         * gets them as runc gives them (oci/ociprocess.c, plan/confine.c) */
        bool caps_sets;
        uint64_t caps_effective, caps_permitted, caps_inheritable, caps_ambient;
        /* ambient capabilities a config named outside permitted and inheritable: the kernel
         * refuses to raise them; left out with a warning, as runc does (buildah names them) */
        uint64_t caps_ambient_dropped;
        bool no_new_privileges;
        struct spec_paths masked, readonly;
        char *seccomp;         /* "unconfined", a built-in profile's name, or a path */
        char *seccomp_text;    /* or the profile itself, in crib's format (an OCI config's) */
        char *cgroups_path;    /* an OCI config's linux.cgroupsPath, as cgroup_oci_path() reads
                                * it (container/ociops.c): where the engine wants its cgroup */
        bool seccomp_require;  /* seccomp_mode = require */
        char *apparmor;        /* "unconfined" or a profile name */
        bool apparmor_require; /* apparmor_mode = require */

        /* [limits], indexed by RLIMIT_* */
        struct spec_limit limits[SPEC_NLIMITS];

        /* [resources]: the cgroup's limits (need 0: none asked for) */
        struct cgroup_limits resources;
        bool resources_require; /* resources_mode = require (the default); prefer skips, saying so,
                                 * what cannot be applied */
        /* an OCI config's device rules, which apply (dev_rules_set) to every OCI container, a
         * list given or not: runc denies what no rule allows, besides its standard nodes and the
         * config's own (.linux.devices); and its device nodes. crib.ini has neither */
        struct cgroup_device_rule dev_rules[SPEC_MAX_DEVICE_RULES];
        size_t ndev_rules;
        bool dev_rules_set;
        struct spec_device devices[SPEC_MAX_DEVICES];
        size_t ndevices;

        /* [network] (mode host is [namespaces] net = no) */
        enum spec_net_mode net_mode;
        struct spec_port ports[SPEC_MAX_PORTS];
        size_t nports;
        char dns[SPEC_MAX_DNS][16]; /* IPv4 nameservers */
        size_t ndns;
        bool host_loopback; /* the container may reach the host's loopback through the helper */
        /* capabilities the spec file itself names (`+NET_BIND_SERVICE`, a list of names, `all`;
         * not `default` nor a level's list), or an OCI config's set: the only ones a container
         * user other than root keeps (plan.c), and the ones a network helper's check asks about */
        uint64_t caps_file;

        /* sysctls of the container's own namespaces, in the order given; and the workload's
         * /proc/self/oom_score_adj (proc(5)), -1000 to 1000, when oom_score_adj_set: an OCI
         * config's .linux.sysctl and .process.oomScoreAdj */
        struct spec_sysctl sysctls[SPEC_MAX_SYSCTLS];
        size_t nsysctls;
        bool oom_score_adj_set;
        int oom_score_adj;

        /* [service] restart, and on-failure's most restarts (0: no limit, as docker's) */
        enum spec_restart restart;
        unsigned restart_max;
        /* [service] healthcheck, its timing and on_unhealthy */
        struct spec_health health;
        /* [service] notify: who tells systemd READY under a Type=notify unit (cmd/run.c) */
        enum spec_notify notify;

        /* [mounts] */
        struct spec_mount mounts[SPEC_MAX_MOUNTS];
        size_t nmounts;
        enum spec_cgroup_mount cgroup_mount;

        /* where each key's value came from, by enum spec_key */
        struct spec_origin origins[SPEC_NKEYS];
};

/* Read and check a spec into *ret. `args_from_cli` tells that the command line replaces
 * [process] args, so a spec without args is fine. On failure *ret is left empty (freed). */
int spec_load(const char *path, FILE *f, bool args_from_cli, struct spec *ret, struct error *err);
void spec_free(struct spec *s);

/* For other front ends (oci.c): crib's defaults with no level applied, and the checks of the
 * fields against each other that spec_load() makes at the end. */
void spec_init(struct spec *s);
int spec_check(struct spec *s, struct error *err);

/* The command line's program and arguments (NULL-terminated, at least one) replace the spec's
 * [process] args; their origin becomes the command line. */
int spec_override_args(struct spec *s, char *const *argv, struct error *err);

/* Where key `k` got its value. */
const struct spec_origin *spec_origin(const struct spec *s, enum spec_key k);
/* Whether the spec file itself set key `k` (not crib, a level or the command line). */
bool spec_in_file(const struct spec *s, enum spec_key k);
/* The spec file's line of key `k`, for FILE:LINE in errors; 0 when the file did not set it. */
unsigned spec_line(const struct spec *s, enum spec_key k);
/* The origin as words: "built-in default", "level strict (profiles/levels/strict:12)",
 * "my.ini:7", "command line". */
void spec_origin_text(const struct spec *s, enum spec_key k, char *buf, size_t len);

/* A spec holding only the security level NAME applied to crib's defaults (for `crib levels`). */
int spec_from_level(const char *name, struct spec *ret, struct error *err);
/* The names of the levels crib ships (profiles/levels/), NULL past the last. */
const char *spec_level_name(size_t i);
/* The short names of [limits] keys by RLIMIT_* number ("nofile"), NULL when unknown. */
const char *spec_limit_name(int resource);
/* The [limits] key of RLIMIT_* `resource` (0 <= resource < SPEC_NLIMITS). */
enum spec_key spec_limit_key(int resource);

/* The policy's name as crib.ini(5) spells it ("on-failure"). */
const char *spec_restart_name(enum spec_restart r);
const char *spec_on_unhealthy_name(enum spec_on_unhealthy u);

/* The mode's name as crib.ini(5) spells it. */
const char *spec_net_mode_name(enum spec_net_mode m);
/* The mode starts a user-mode network helper (slirp4netns or pasta). */
bool spec_net_has_helper(enum spec_net_mode m);
/* "127.0.0.1:8080->80/tcp", as crib ps shows a published port. */
void spec_port_format(const struct spec_port *p, char *buf, size_t len);

/* Namespace kind k's file name in /proc/PID/ns ("net") and its name in messages ("network"). */
const char *spec_ns_file(enum spec_ns k);
const char *spec_ns_title(enum spec_ns k);

/* The namespace sysctl `key` belongs to (SPEC_NS_IPC, SPEC_NS_NET or SPEC_NS_UTS), checked
 * with its `value` as runc checks them: only a namespaced sysctl, by a name that stays below
 * /proc/sys once its dots are slashes (lowercase letters, digits, '_' and '-' between single
 * dots), with a value of one line shorter than SPEC_SYSCTL_VAL. Otherwise -1, and why in err
 * (the key is the caller's to name: err says what is wrong with it). Pure (sysctlkey.c). */
int spec_sysctl_ns(const char *key, const char *value, struct error *err);

/* v is a cpuset list as cpuset.cpus and cpuset.mems take it: numbers and ranges (N-M, N <= M)
 * joined by commas, as "0-3,6", shorter than CGROUP_LIST_LEN. */
bool spec_cpuset_list_valid(const char *v);

/* The key table, for documentation checks: the section and name of key `i` (an enum spec_key);
 * returns false past the last key. */
bool spec_key_at(size_t i, const char **ret_section, const char **ret_key);

#endif
