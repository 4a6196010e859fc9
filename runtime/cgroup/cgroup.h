/* cgroup.h - a container's cgroup (cgroup v2): where crib may make it, its limits, its end.
 *
 *   where                           who      made by crib
 *   CGROUP2/crib/NAME               root     crib/ once, NAME for each container
 *   PARENT/crib-NAME                a user   PARENT: the parent of crib's own cgroup, when it is
 *                                            the user's (a delegated subtree: systemd's
 *                                            Delegate=yes, or an administrator's chown), or a
 *                                            scope the user's systemd made for it (systemd.c)
 *   .../NAME/container              both     where the container runs
 *
 * The limits are written to NAME, and a copy to NAME/container for programs that read them
 * from inside. The container's setup process is cloned straight into NAME/container (clone3's
 * CLONE_INTO_CGROUP), so every process of the container is in it from its first instruction
 * and its cgroup namespace is rooted there: inside, /proc/self/cgroup says 0::/. Limits are
 * written before that clone, so nothing of the workload ever runs unlimited. Why two levels: a
 * rootless container's cgroups are made by its user, who is its root, so a workload allowed to
 * mount cgroup2 may write the files of its namespace's root; NAME, where the limits hold, is
 * outside its namespace.
 */
#ifndef CRIB_CGROUP_H
#define CRIB_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "host/cgroupfacts.h"
#include "base/error.h"
#include "spec/spec.h" /* struct cgroup_limits, enum cgroup_ctrl, CGROUP_* */
#include "base/trace.h"

/* systemd.c: ask the user's systemd for a delegated scope (crib-scope), move this process
 * into SCOPE/supervisor; SCOPE in ret_base, for cgroup_make. Whether it can give one is a host
 * fact (cgroupfacts.c). */
int cgroup_systemd_scope(const char *name, struct trace *t, char *ret_base, size_t len,
                         struct error *err);
/* systemd.c: crib runs as a unit's main process, its cgroup `unit` delegated to it
 * (Delegate=yes): move this process into UNIT/supervisor, so that UNIT may give its
 * controllers to the container's cgroup beside it. */
int cgroup_unit_enter(const char *unit, struct trace *t, struct error *err);

/* Make NAME's cgroup under base (for root, base's directory too), enable in each parent the
 * controllers the limits need, write the limits. Its path in ret_path; an O_PATH descriptor of
 * it for clone3, or -1. */
int cgroup_make(const char *base, const char *name, const struct cgroup_limits *l, struct trace *t,
                char *ret_path, size_t len, struct error *err);

/* cgroup_make at a path an engine chose (an OCI config's cgroupsPath, resolved below top: the
 * hierarchy's root for root, the cgroup delegated to a user): the cgroups between top and it
 * are made where missing, and top and they are given the controllers the limits need. The
 * cgroup itself is made, or used as it is when it exists without processes; one with processes
 * is refused (another container's). Returns as cgroup_make; *ret_made says whether the cgroup
 * at path is new (crib removes it again) or was there (the engine's: crib removes only what it
 * made in it, PATH/container, when the container does not start). */
int cgroup_make_at(const char *top, const char *path, const struct cgroup_limits *l,
                   struct trace *t, char *ret_path, size_t len, bool *ret_made, struct error *err);

/* How deep the cgroups below a container's may go (cgroup.max.depth of NAME: container, and
 * what a workload allowed to make cgroups makes in it) */
#define CGROUP_NEST_DEPTH 8

/* fork(2), or with flags (CLONE_NEW*) clone(2), into the cgroup of cgroup_fd (an O_PATH
 * descriptor is enough): clone3(2) with CLONE_INTO_CGROUP, Linux 5.7. The child returns 0, as
 * from fork; it shares nothing with its parent but what fork shares. */
pid_t cgroup_clone_into(int cgroup_fd, uint64_t flags);

/* NAME's cgroup under base, as cgroup_make makes it: BASE/NAME for root, BASE/crib-NAME for a
 * user. */
void cgroup_leaf(const char *base, const char *name, char *buf, size_t len);

/* The cgroup v2 directory, on this host, of the process whose /proc/PID directory is procdir;
 * -1 when there is none (no cgroup v2, or the process is gone). */
int cgroup_of(int procdir, char *buf, size_t len);

/* What a cgroup uses now: memory.current (bytes), cpu.stat's usage_usec, pids.current; -1 for
 * what it does not count (its controller is off). */
struct cgroup_usage {
        int64_t memory, cpu_usec, pids;
};
void cgroup_usage_read(const char *path, struct cgroup_usage *u);

/* The controllers a container's cgroup (cgroup_make's ret_path) can be given: those of the
 * hierarchy's root as root, of the delegated base as a user (CGROUP_BIT); for an engine's path
 * (cgroup_make_at's), those of the top crib made it from */
unsigned cgroup_available_to(const char *leaf, const char *top);

/* New limits for a running container's cgroup (cgroup_make's ret_path): only those `l` sets,
 * on the leaf and on the copy its processes' cgroup holds, the controllers they need enabled
 * down to it first (from top, for an engine's path: cgroup_make_at's; else NULL). */
int cgroup_update(const char *leaf, const char *top, const struct cgroup_limits *l, struct trace *t,
                  struct error *err);

/* Kill what is left in it (cgroup.kill, Linux 5.14; else each pid of cgroup.procs) and remove
 * it; a second call, or one for a cgroup that is gone, does nothing. */
void cgroup_remove(const char *path);

/* Remove a stopped container's cgroup, and the cgroups below it, where they are empty; no
 * process is killed. */
void cgroup_remove_empty(const char *path);

/* The v2 freezer (Linux 5.2): every process of the cgroup stopped (freeze) or let go, waiting
 * until cgroup.events says so (at most 2 s); cgroup_frozen() reads it. */
int cgroup_freeze(const char *path, bool freeze, struct error *err);
bool cgroup_frozen(const char *path);

/* The memory controller killed a process of it for lack of memory (memory.events oom_kill). */
bool cgroup_oom_killed(const char *path);

/* devices.c: a device the program lets a container open: type 'c' or 'b', major from major_lo
 * to major_hi, minor or -1 for any. */
struct cgroup_device {
        char type;
        uint32_t major_lo, major_hi;
        int32_t minor;
};
/* the standard nodes and ptys, a device file per mount, a node per config entry, stdio */
#define CGROUP_MAX_DEVICES (16 + SPEC_MAX_MOUNTS + SPEC_MAX_DEVICES)

/* What the device program lets the container open:
 *   own     always (crib's own nodes, the ptys, the nodes an OCI config asks crib to make:
 *           runc allows its standard nodes and the config's after the config's rules)
 *   rules   when on (an OCI config), the config's list, runc's way (spec.h): a device not
 *           in own opens only where the rules allow it AND
 *   extra   it is one of these (the device files the mounts bind, crib's stdio): crib's own
 *           bound on what a container may open, whatever the rules allow
 * and mknod(2) of any node (runc's "c *:* m" and "b *:* m"), which then does not open unless
 * the above allow it. */
struct cgroup_device_policy {
        const struct cgroup_device *own, *extra;
        size_t nown, nextra;
        const struct cgroup_device_rule *rules;
        size_t nrules;
        bool rules_on;
};

/* Load the program that lets the cgroup at path, and every cgroup below it, open only what
 * the policy allows, and attach it there. */
int cgroup_devices_apply(const char *path, const struct cgroup_device_policy *pol, struct trace *t,
                         struct error *err);
/* Can this kernel load the program (CONFIG_CGROUP_BPF, and the caller's privilege)? */
int cgroup_devices_probe(struct error *err);
/* "c 1:3", "c 136-143:*", for the trace and crib check */
void cgroup_device_format(const struct cgroup_device *d, char *buf, size_t len);

/* The program for a policy (malloc'd, *ret_n instructions of struct bpf_insn), for the unit
 * tests to run; NULL when out of memory. */
void *cgroup_devices_program(const struct cgroup_device_policy *pol, size_t *ret_n);
/* Pure: the rules' answer (runc's: the last rule matching the device with each access bit
 * asked wins; none denies) for one access of type 'c' or 'b'. */
bool cgroup_rules_allow(const struct cgroup_device_rule *rules, size_t n, char type, uint32_t major,
                        uint32_t minor, unsigned access);
/* Pure: whether the rules deny a read or a write of some device (false only when they end by
 * allowing every device both: "a *:* rw" after any deny). Where a rule is shadowed by later
 * ones it may say true when nothing is denied: its callers refuse then, which is safe. */
bool cgroup_rules_deny_some(const struct cgroup_device_rule *rules, size_t n);

/* "256M", "1.5G", for messages. */
void cgroup_format_bytes(int64_t v, char *buf, size_t len);

/* Between the files of cgroup/ (tree.c, limits.c, remove.c, state.c), not for other folders:
 * write value to DIR/FILE (traced); give dir's children the controllers `need`; write the
 * limits `l` sets to dir's files; check and give controllers from top down to path's parent
 * (tree.c says how); rmdir a cgroup and every empty one below it (true when it is gone); remove
 * crashed runs' cgroups PREFIXPID under base; cgroup.events says a process is in it or below. */
int cgroup_write_file(const char *dir, const char *file, const char *value, struct trace *t,
                      struct error *err);
int cgroup_enable(const char *dir, unsigned need, struct trace *t, struct error *err);
int cgroup_write_limits(const char *dir, const struct cgroup_limits *l, struct trace *t,
                        struct error *err);
int cgroup_walk_down(const char *top, const char *path, unsigned need, bool make, struct trace *t,
                     struct error *err);
bool cgroup_rmdir_tree(const char *path);
void cgroup_remove_stale(const char *base, const char *prefix);
bool cgroup_populated(const char *path);

#endif
