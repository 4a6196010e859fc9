/* step.h - the step contract: the state a process of the container's setup carries from step
 * to step (struct child), a table of steps, how a step begins, ends and reports, and every step
 * of steps/.
 *
 * A step is one call of one kernel mechanism (its file in steps/ explains it), run as a row of a
 * table by a process that launch/ starts: the setup process and the workload's (launch/child.c,
 * launch/init.c), and crib exec's (launch/enter.c). Steps read the plan, make system calls, and
 * report through the sync channel (step.c, sync.h); they never print. They keep what they build
 * on their stacks or in static storage, with one exception: on a kernel without close_range(2)
 * (before Linux 5.9) the steps that close descriptors list /proc/self/fd with opendir(3), which
 * allocates. Memory is not shared with crib (a fork), and the workload's process shares the
 * setup's (clone(CLONE_VM)) only while the setup process waits (launch/init.c).
 *
 * Where it sits: steps/ is below launch/. A step includes this contract and lower layers (base,
 * plan, seccomp, cgroup), never launch/: the processes and their tables are declared in
 * launch/child.h, which includes this file.
 */
#ifndef CRIB_STEP_H
#define CRIB_STEP_H

#include <signal.h>

#include "base/error.h"
#include "plan/plan.h"
#include "sync.h"
#include "base/trace.h"

/* What the parent opened for the child: the child may run as a host user that cannot walk to
 * the rootfs or a bind source (root's containers map root's range), and a name looked up once
 * cannot be swapped for another between the parent's checks and the mount. The rootfs is the
 * child's working directory from the clone on (the parent enters it by descriptor, and a new
 * mount namespace carries the working directory over to its own copy of the mount). */
struct launch_fds {
        /* root only (opening a mount tree needs CAP_SYS_ADMIN): a detached copy of each bind's
         * source (open_tree(2) OPEN_TREE_CLONE), which may be attached in another mount
         * namespace; -1: the child binds the source by its name */
        int src[PLAN_MAX_MOUNTS];
        /* plan.wait_start: the exec fifo, O_PATH (start.c) */
        int start_fifo;
        /* `crib run --count N`: the batch's seccomp template, to clone the filter from
         * (seccomp_template.c); NULL: load the program */
        const struct seccomp_template *seccomp_template;
};

struct child {
        const struct plan *plan;
        const struct launch_fds *fds;
        struct sync_chan chan;
        struct trace trace;
        int pty_slave;      /* the terminal's slave side, for the workload, or -1 */
        int rootfd;         /* the rootfs bind's root, from its bind to pivot_root, or -1 */
        sigset_t forwarded; /* signals crib's init passes on to the workload */
        int rootfs_tree;    /* the idmapped rootfs from the parent (SYNC_ROOTFS), an image's
                             * overlay (overlay.c), or -1 */
        /* root's container of a store image in a user namespace: its layers as idmapped mount
         * trees from the parent (SYNC_LAYER), until attached at m/N (idlayers.c); the first
         * nlayer_trees are ours to close */
        int layer_trees[PLAN_MAX_LAYERS];
        unsigned nlayer_trees;
        /* plan.nest_early: the workload's user namespace and the network namespace it owns, from
         * the parent (SYNC_NEST); the setup joins the second (netns.c), the workload's process
         * the first (lockmounts.c); -1 when not sent, or once joined */
        int nest_userns, nest_netns;
        int init_ready; /* the workload's ends of the pipes to crib's init (init.c) */
        int init_go;
        size_t step;         /* the step running (1 to nsteps, across both tables) */
        size_t nsteps;       /* how many steps this container's setup has */
        uint64_t step_start; /* when the step running started (for the trace) */
        bool step_skipped;   /* it said why it had nothing to do (step_skip): no "done" */
        /* a /proc the container cannot have mounted over, for the AppArmor request (`crib
         * exec` opens the host's before it joins: enter.c), or -1 for the container's own */
        int procfd;
        /* plan.wait_start: the exec fifo, open for writing once `crib start` let us go, where a
         * failure is reported (start.c); -1 before */
        int start_fd;
        /* the setup process's pid as crib sees it (SYNC_GO), 0 when it wrote its own maps */
        pid_t host_pid;
};

/* One step of a table: its name as --trace prints it, the function that runs it, why it stands
 * where it does in its table and where its code is, which --trace=explain prints. A table's row:
 * STEP(NAME, FUNCTION, "runtime/DIR/FILE.c", WHY) (tests/make/layout.t checks each FILE defines
 * its FUNCTION). */
struct step {
        const char *name;
        int (*run)(struct child *c, struct error *err);
        const char *why, *where;
};
#define STEP(name, fn, file, why)                                                                  \
        {                                                                                          \
                name, fn, why, file ":" #fn                                                        \
        }
/* A table of steps (launch/child.c, launch/enter.c), run in order by one process (step.c). */
struct table {
        const struct step *steps;
        size_t n;
};

/* Child: run every step of `t` in this process, in order; a step that fails reports its error
 * to the parent and ends the process. Returns after the last step (step.c). */
void steps_run(struct child *c, const struct table *t);
/* Child: a step begins: its number (counted across the tables), its name and our pid in the
 * trace; in a test build, waits first if CRIB_TEST_STOP_AT names it (step.c). */
void step_begin(struct child *c, const struct step *s);
/* Child: trace the end of the step running, with its time. */
void step_done(struct child *c);
/* A step that has nothing to do in this plan: the trace says "skipped: WHY" instead of "done";
 * returns 0. */
int step_skip(struct child *c, const char *fmt, ...) CRIB_PRINTF(2, 3);
/* Child: the step running failed: send `err` to the parent and exit (125, or 126/127 for an
 * exec that failed). */
_Noreturn void step_failed(struct child *c, const struct error *err);

/* Child: apply ro/nosuid/nodev/noexec (MS_* in `flags`) to the mount on `path` (inside the
 * rootfs when rootfd >= 0, else an absolute path), to its submounts too when `recursive`. */
int mounts_restrict(struct child *c, int rootfd, const char *path, unsigned long flags,
                    bool recursive, struct error *err);

/* The error for a rootfs that is no longer the directory the plan checked (another process
 * renamed it meanwhile): the parent's check before the clone, and the child's by name. */
int mounts_rootfs_replaced(const char *rootfs, struct error *err);

/* Child: a --trace line to the parent, over the sync socket (the trace's emit function). */
void child_emit_over_sync(void *ctx, const char *line);
/* Child: send a warning for the parent to print. */
void child_warn(struct child *c, const char *fmt, ...) CRIB_PRINTF(2, 3);

/* The steps, one mechanism per file (see the tables in launch/child.c): the setup's, then the
 * workload's. */
int step_id_maps(struct child *c, struct error *err);        /* userns.c */
int step_not_dumpable(struct child *c, struct error *err);   /* userns.c */
int step_become_root(struct child *c, struct error *err);    /* creds.c */
int step_parent_death(struct child *c, struct error *err);   /* creds.c */
int step_mounts_private(struct child *c, struct error *err); /* mounts.c */
int step_attach_layers(struct child *c, struct error *err);  /* idlayers.c */
int step_overlay(struct child *c, struct error *err);        /* overlay.c */
int step_detach_layers(struct child *c, struct error *err);  /* idlayers.c */
int step_bind_rootfs(struct child *c, struct error *err);    /* mounts.c */
int step_mounts(struct child *c, struct error *err);         /* mounts.c */
int step_pivot_root(struct child *c, struct error *err);     /* pivot.c */
int step_hide_paths(struct child *c, struct error *err);     /* paths.c */
int step_sysctl(struct child *c, struct error *err);         /* sysctl.c */
/* Child: whether this process is in crib's own namespace of `kind` (enum spec_ns), the host's,
 * which the plan recorded (plan.crib_ns), as `proc` (the container's /proc) shows it: 1 when it
 * is, 0 when not, -1 with errno when it cannot be read (sysctl.c). */
int step_in_crib_ns(const struct child *c, int kind, int proc);
int step_oom_score_adj(struct child *c, struct error *err);  /* oom.c */
int step_readonly_root(struct child *c, struct error *err);  /* pivot.c */
int step_hostname(struct child *c, struct error *err);       /* uts.c */
int step_loopback(struct child *c, struct error *err);       /* netns.c */
int step_join_nest_net(struct child *c, struct error *err);  /* netns.c */
int step_ping_range(struct child *c, struct error *err);     /* netns.c */
int step_low_ports(struct child *c, struct error *err);      /* netns.c */
int step_guard_loopback(struct child *c, struct error *err); /* netns.c */
/* Child: bring up `lo` in the network namespace we are in (the step above, and the workload's
 * own namespace in lockmounts.c). */
int netns_loopback_up(struct child *c, struct error *err);       /* netns.c */
int step_open_terminal(struct child *c, struct error *err);      /* pty.c */
int step_seccomp(struct child *c, struct error *err);            /* filter.c */
int step_lock_mounts(struct child *c, struct error *err);        /* lockmounts.c */
int step_attach_terminal(struct child *c, struct error *err);    /* pty.c */
int step_bounding_set(struct child *c, struct error *err);       /* caps.c */
int step_bounding_set_early(struct child *c, struct error *err); /* caps.c */
/* caps.c: drop every capability up to `last` that `keep` lacks from the bounding set */
int caps_bounding_drop_all_but(uint64_t keep, int last, struct error *err);
int step_switch_user(struct child *c, struct error *err);     /* creds.c */
int step_capabilities(struct child *c, struct error *err);    /* caps.c */
int step_umask_cwd(struct child *c, struct error *err);       /* creds.c */
int step_no_new_privs(struct child *c, struct error *err);    /* nnp.c */
int step_close_fds(struct child *c, struct error *err);       /* fds.c */
int step_close_inherited(struct child *c, struct error *err); /* fds.c */
/* The most descriptors a process of the container keeps at once (fds.c): the setup's bind
 * sources, the spec's pass_fds, and a few of crib's own. */
#define FDS_MAX_KEEP (PLAN_MAX_MOUNTS + SPEC_MAX_FDS + 8)
/* Close every descriptor from 3 up but the `n` in `keep` (any order; negative ones ignored):
 * close_range(2), or one at a time from /proc/self/fd before Linux 5.9 (fds.c). */
int fds_close_all_but(const int *keep, size_t n, struct error *err);
/* Refuse a directory as fd 0, 1 or 2 (fds.c). */
int fds_check_stdio(struct error *err);
int step_apparmor(struct child *c, struct error *err);    /* apparmor.c */
int step_wait_start(struct child *c, struct error *err);  /* start.c */
int step_hooks_setup(struct child *c, struct error *err); /* ocihooks_in.c */
int step_hooks_start(struct child *c, struct error *err); /* ocihooks_in.c */
/* The program at `path` is reached only through a link of /proc (exec.c) */
bool exec_through_magic_link(const char *path);
int step_exec(struct child *c, struct error *err); /* exec.c */
/* The workload's PATH: its environment's, or PLAN_DEFAULT_PATH (exec.c). */
const char *container_path(const struct plan *p);
/* Child: report a failure after the start to `crib start` (start.c). */
void start_report(struct child *c, const struct error *err);

#endif
