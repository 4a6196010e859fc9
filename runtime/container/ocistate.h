/* ocistate.h - what crib's OCI runtime keeps and tells of a container crib oci create made
 * (ocistate.c): the OCI state object, the `oci` file it is built from, the hooks that read it,
 * the container's own cgroup, the pid file and console socket an engine is given; and the
 * `state` and `list` verbs. The other verbs: ociops.h (create, start, kill, delete),
 * ocicgroup.h (ps, pause, resume, update), ociexec.h (exec).
 */
#ifndef CRIB_OCISTATE_H
#define CRIB_OCISTATE_H

#include <json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "oci/oci.h"
#include "state/store.h"

/* The state directory's file naming the container's own cgroup, as create made it */
#define OCISTATE_CGROUP_FILE "cgroup"

/* What every verb gets from runc's global options and from cmd/ (the only printer). */
struct oci_runtime {
        const char *root;    /* the state root's path (--root, or the default: state.h) */
        bool systemd_cgroup; /* --systemd-cgroup: cgroupsPath is systemd's SLICE:PREFIX:NAME */
        char **self_argv;    /* crib's argv: run again from a sealed copy where a plan needs it */
        /* a warning for the --log file: the plan's, the container's setup's */
        void (*warn)(void *ctx, const char *line);
        /* a poststart or poststop hook failed (a warning, as the runtime spec says): the --log
         * file and stderr */
        void (*hook_warn)(void *ctx, const char *line);
        void *ctx;
};

/* Open container ID (locked too, for a verb that changes it; store.h). A name crib would not
 * take, or one there is no container of, is ENOENT "container "ID" does not exist", the words
 * podman and containerd look for. */
int ocistate_open(const struct oci_runtime *rt, const char *id, bool locked, struct stored *ret,
                  struct error *err);

/* The container's own cgroup into `buf` ("" when it has none): the one create wrote down
 * (OCISTATE_CGROUP_FILE), still one crib makes for its plan, else the plan's. With `top`, for
 * a cgroup at the engine's cgroupsPath, the cgroup crib made it from (else ""). */
void ocistate_leaf(const struct stored *o, const char *id, char *buf, size_t len, char *top,
                   size_t tlen);

/* The OCI state of a container: what `state` prints, `list` lists and hooks read on stdin */
struct ocistate {
        const char *id;
        enum store_status status;
        pid_t pid;          /* 0 unless its process runs */
        int64_t created;    /* seconds since the epoch */
        json_object *saved; /* the `oci` file's object (bundle, rootfs, annotations), or NULL */
};
/* As the runtime spec's JSON (a new object, the caller's). The runtime builds it, not cmd/:
 * hooks read the same text on their stdin, so its shape has one definition, next to them. */
json_object *ocistate_json(const struct ocistate *s);

/* The `oci` file: made from the bundle, its rootfs and the loaded config; written; read back
 * (NULL with `err` when it cannot be). */
json_object *ocistate_saved_new(const char *bundle, const char *rootfs,
                                const struct oci_config *oc);
int ocistate_save(int dir, json_object *saved, struct error *err);
json_object *ocistate_saved(int dir, struct error *err);

/* Run the hooks of `kind` the saved object names, each with `state` on its stdin. A prestart
 * or createRuntime hook's failure is the caller's error; poststart's and poststop's go to
 * rt->hook_warn, as the runtime spec says, and the rest still run. */
int ocistate_hooks(const struct oci_runtime *rt, json_object *saved, enum oci_hook_kind kind,
                   const char *name, const struct ocistate *state, struct error *err);

/* Run this command again from a sealed copy of crib (rt->self_argv) when a container of plan
 * `p` needs it (sealed_needed(), runtime/launch/sealed.h): 0 when there is no need, else -1,
 * returning only on failure. */
int ocistate_seal(const struct oci_runtime *rt, const struct plan *p, struct error *err);

/* Write `pid` to the engine's pid file atomically (a temporary file beside it, renamed), as
 * runc does. */
int ocistate_pid_file(const char *path, pid_t pid, struct error *err);
/* Send the terminal's master side to the engine's console socket (SCM_RIGHTS); it is closed. */
int ocistate_console(const char *socket_path, int master, struct error *err);

/* state ID: its state (NULL with `err` when it has none: no such container, or one crib run
 * made, which has no `oci` file). */
json_object *ocistate_state(const struct oci_runtime *rt, const char *id, struct error *err);
/* list: the states of the containers crib oci create made, as an array. */
json_object *ocistate_list(const struct oci_runtime *rt, struct error *err);

#endif
