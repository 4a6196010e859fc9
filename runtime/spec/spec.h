/* spec.h - the container spec: what a crib.ini(5) file says, checked, with no host lookups.
 *
 * spec_parse() maps each `section.key` of the tokenized INI file through a static key table
 * (spec.c) to a parser and a field, then spec_validate() checks the fields against each other.
 * Everything here is pure: resolving paths and ids against the host is plan.c's job. Each field
 * remembers the line it came from, so later errors can still say FILE:LINE.
 */
#ifndef CRIB_SPEC_H
#define CRIB_SPEC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"

#define SPEC_MAX_ENV    1024
#define SPEC_MAX_MOUNTS 256
#define SPEC_MAX_RANGES 64 /* id-map ranges per map (the kernel takes 340) */
#define SPEC_MAX_GROUPS 64
#define SPEC_MAX_PATHS  64 /* masked or read-only paths */
#define SPEC_MAX_FDS    64 /* pass_fds */
#define SPEC_NLIMITS    16 /* RLIMIT_CPU .. RLIMIT_RTTIME */

enum spec_terminal { TERMINAL_NO, TERMINAL_YES, TERMINAL_AUTO };

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

/* Option flags of a [mounts] line. */
enum {
        SPEC_MNT_RO = 1 << 0,
        SPEC_MNT_NOSUID = 1 << 1,
        SPEC_MNT_NODEV = 1 << 2,
        SPEC_MNT_NOEXEC = 1 << 3,
        SPEC_MNT_RECURSIVE = 1 << 4,
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

/* One [limits] key: soft and hard values (RLIM_INFINITY for unlimited). */
struct spec_limit {
        bool set;
        uint64_t soft, hard;
};

struct spec {
        char *path; /* the spec file as named on the command line */

        /* [container] */
        char *rootfs;
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

        /* [idmap] */
        struct spec_idmap uidmap, gidmap;

        /* [security] (and the level it starts from) */
        char *level;
        uint64_t caps;       /* capability bits: 1 << CAP_* */
        uint64_t caps_named; /* the bits a list named (to warn when the kernel lacks one) */
        bool no_new_privileges;
        struct spec_paths masked, readonly;
        char *seccomp;         /* "unconfined", a built-in profile's name, or a path */
        bool seccomp_require;  /* seccomp_mode = require */
        char *apparmor;        /* "unconfined" or a profile name */
        bool apparmor_require; /* apparmor_mode = require */

        /* [limits], indexed by RLIMIT_* */
        struct spec_limit limits[SPEC_NLIMITS];

        /* [mounts] */
        struct spec_mount mounts[SPEC_MAX_MOUNTS];
        size_t nmounts;

        /* line of each key of the key table in the spec file, 0 = not there */
        unsigned lines[64];
};

/* Read and check a spec. `args_from_cli` tells that the command line replaces [process] args,
 * so a spec without args is fine. */
int spec_load(const char *path, FILE *f, bool args_from_cli, struct spec *ret, struct error *err);
void spec_free(struct spec *s);

/* The line a key was set on, 0 when it was not set. */
unsigned spec_line(const struct spec *s, const char *section, const char *key);

/* A spec holding only the security level NAME applied to crib's defaults (for `crib levels`). */
int spec_from_level(const char *name, struct spec *ret, struct error *err);
/* The names of the levels crib ships (profiles/levels/), NULL past the last. */
const char *spec_level_name(size_t i);
/* The short names of [limits] keys by RLIMIT_* number ("nofile"), NULL when unknown. */
const char *spec_limit_name(int resource);
/* The capability's name without CAP_ ("NET_RAW"), or NULL. */
const char *spec_cap_name(int cap);

/* The key table, for documentation checks: returns false past the last key. */
bool spec_key_at(size_t i, const char **ret_section, const char **ret_key);

#endif
