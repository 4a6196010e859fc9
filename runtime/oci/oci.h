/* oci.h - the OCI front end: a bundle's config.json (the OCI runtime spec, what podman and
 * containerd hand runc) made into crib's spec, from which plan_build() makes the same plan as
 * from a crib.ini(5) file. Nothing below the plan knows which front end it came from.
 *
 * Pure: reads a FILE * with json-c and makes no other call, so it is unit tested through
 * fmemopen(). The config is treated as hostile input: it is at most OCI_MAX_CONFIG bytes, every
 * list has a limit, every value is checked for its type and range. Fields the OCI spec defines
 * but crib does not know are ignored, as the spec says of unknown fields; a field crib knows
 * but cannot honour (a hook, a namespace to join, a seccomp action it has no rule for) is an
 * error naming its JSON path, never silently dropped:
 *
 *   BUNDLE/config.json: .process.user.uid: must be a number
 */
#ifndef CRIB_OCI_H
#define CRIB_OCI_H

#include <stdio.h>

#include "base/error.h"
#include "spec/spec.h"

#define OCI_MAX_CONFIG           (4 << 20) /* bytes of config.json */
#define OCI_MAX_ARGS             4096
#define OCI_MAX_ANNOTATIONS_JSON (64 << 10)
#define OCI_MAX_HOOKS_JSON       (256 << 10)

struct oci_config {
        struct spec spec;
        char *annotations; /* .annotations as compact JSON ("{}" when none), for `state` */
        char *hooks;       /* .hooks as compact JSON, checked, or NULL: for start and delete */
};

/* Hooks (the runtime spec's config.md "POSIX-platform Hooks"), each with the container's state
 * JSON on stdin, in the order of the lifecycle: prestart and createRuntime in the runtime's
 * namespaces when the container's exist, before its setup goes on (crib create, from the
 * parent); createContainer in the container's namespaces before pivot_root, a host program
 * (the setup process); startContainer in the container after crib start, before the program's
 * exec, confined as the program (the workload's process: steps/ocihooks_in.c); poststart once
 * the program runs (crib start); poststop when it is deleted (crib delete). */
enum oci_hook_kind {
        OCI_HOOK_PRESTART,
        OCI_HOOK_CREATE_RUNTIME,
        OCI_HOOK_CREATE_CONTAINER,
        OCI_HOOK_START_CONTAINER,
        OCI_HOOK_POSTSTART,
        OCI_HOOK_POSTSTOP,
        OCI_HOOK_KINDS
};
#define OCI_MAX_HOOKS     16  /* of each kind */
#define OCI_MAX_HOOK_ARGS 256 /* args, and env entries */
struct oci_hook {
        char *path;
        char **args; /* NULL-terminated, at least the path */
        char **env;  /* NULL-terminated, maybe empty */
        int timeout; /* seconds, 0: none */
};
/* The hooks of one kind from a config's checked .hooks JSON (oci_config.hooks, or as kept in
 * the state directory), into `hooks` (OCI_MAX_HOOKS of them); the count, or -1. */
int oci_hooks_of(const char *json, enum oci_hook_kind kind, struct oci_hook *hooks,
                 struct error *err);
void oci_hooks_free(struct oci_hook *hooks, size_t n);
/* A kind's name in config.json ("prestart", ...), or NULL */
const char *oci_hook_name(enum oci_hook_kind kind);

/* The namespace types crib makes (.linux.namespaces[].type), in config.json's words */
#define OCI_NAMESPACE_TYPES 7
extern const char *const oci_namespace_types[OCI_NAMESPACE_TYPES];

/* The mount options crib honours in .mounts[].options (ocimounts.c), one table for the parser
 * and for `features`: what each does to a mount. Besides these, a tmpfs takes size=, mode= and
 * nr_inodes= (its data, which `features` does not list, as the runtime spec says). */
enum oci_mount_option_kind {
        OCI_MOPT_NOOP,   /* crib's mounts are so already (rw, private, suid, dev, exec, ...) */
        OCI_MOPT_BIND,   /* bind */
        OCI_MOPT_RBIND,  /* rbind: a bind with its submounts */
        OCI_MOPT_FLAG,   /* a SPEC_MNT_* flag (ro, nosuid, nodev, noexec) */
        OCI_MOPT_TMPFS,  /* a SPEC_MNT_* flag a tmpfs only takes (strictatime) */
        OCI_MOPT_ENGINE, /* the engine's own mark (podman's SELinux relabel z, Z): no mount
                          * option, taken and not listed by `features` */
};
struct oci_mount_option {
        const char *name;
        enum oci_mount_option_kind kind;
        unsigned flag; /* SPEC_MNT_*, for OCI_MOPT_FLAG and OCI_MOPT_TMPFS */
};
extern const struct oci_mount_option oci_mount_options[];
extern const size_t oci_nmount_options;

/* What crib's OCI front end implements, as `runc features` prints it (the runtime spec's
 * features.md): the spec versions, the hooks it runs, the mount options it honours, the
 * namespaces it makes, the capabilities it knows, the cgroup drivers; a property crib cannot state
 * exactly is left out, which the spec reads as "unknown". The JSON text, to free; NULL when out of
 * memory. */
char *oci_features(void);

/* Read config.json; `path` names it in errors and anchors relative paths (root.path) at its
 * directory, the bundle. */
int oci_load(const char *path, FILE *f, struct oci_config *ret, struct error *err);
void oci_free(struct oci_config *c);

/* A process.json (`runc exec --process FILE`): the object config.json has at .process, read
 * by the same code; errors name paths from its top (".args"). has_caps and has_rlimits tell
 * whether those were given at all (absent: the container's). Free the spec with spec_free. */
struct oci_process {
        struct spec spec;
        bool has_caps, has_rlimits;
};
int oci_load_process(const char *path, FILE *f, struct oci_process *ret, struct error *err);

/* An update's resources (`runc update --resources FILE`): the object config.json has at
 * .linux.resources, read and checked by the same code, errors naming paths from its top
 * (".memory.limit"). Only what it names is set in *ret; -1 lifts a limit (CGROUP_MAX). */
int oci_load_resources(const char *path, FILE *f, struct cgroup_limits *ret, struct error *err);

/* An OCI config's linux.cgroupsPath as a path of the cgroup v2 hierarchy: "/a/b" below its
 * mount, "a/b" below the parent of the runtime's own cgroup (runc's reading). With
 * --systemd-cgroup it is systemd's "SLICE:PREFIX:NAME", placed as systemd would place it: the
 * scope PREFIX-NAME.scope (NAME itself when it is a .slice) in SLICE, whose dashes nest
 * ("a-b.slice" is in "a.slice"; an empty SLICE is system.slice for root, user.slice for a
 * user). crib makes the cgroups itself; it does not ask systemd. A path with "." or ".."
 * components, or naming the hierarchy's root, is refused (-1, with why in err). */
int cgroup_oci_path(const char *cgroups_path, bool systemd, bool root, char *buf, size_t len,
                    struct error *err);

#endif
