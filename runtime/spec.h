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

enum spec_terminal { TERMINAL_NO, TERMINAL_YES, TERMINAL_AUTO };

struct spec_range {
        uint32_t inside, outside, count;
        unsigned line;
};

struct spec_idmap {
        bool
            is_auto; /* "auto": 0 = the invoking id, 1..N = its /etc/subuid or /etc/subgid ranges */
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

        /* [namespaces] */
        bool ns_user, ns_pid, ns_ipc, ns_uts, ns_net, ns_cgroup;

        /* [idmap] */
        struct spec_idmap uidmap, gidmap;

        /* [mounts] */
        struct spec_mount mounts[SPEC_MAX_MOUNTS];
        size_t nmounts;

        /* line of each key of the key table, 0 = not in the file (index: spec_key_index) */
        unsigned lines[64];
};

/* Read and check a spec. `args_from_cli` tells that the command line replaces [process] args,
 * so a spec without args is fine. */
int spec_load(const char *path, FILE *f, bool args_from_cli, struct spec *ret, struct error *err);
void spec_free(struct spec *s);

/* The line a key was set on, 0 when it was not set. */
unsigned spec_line(const struct spec *s, const char *section, const char *key);

/* The key table, for documentation checks: returns false past the last key. */
bool spec_key_at(size_t i, const char **ret_section, const char **ret_key);

#endif
