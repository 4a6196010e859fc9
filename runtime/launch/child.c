/* child.c - the container's setup, in order: two tables, one line each, and the line that says
 * which process runs which.
 *
 * The clone(2) child runs the setup table: in the new namespaces, as pid 1 of the new pid
 * namespace when there is one. Then, with crib's init (init = yes, the default), it starts the
 * workload's process, which runs the workload's table and execs, and stays as pid 1 itself
 * (init.c); with init = no it runs the workload's table itself. See child_main at the end.
 *
 * Both processes read the plan the parent built and only make system calls. Each step lives in
 * the file named after its kernel mechanism; the comment on each row says why the row sits
 * where it does. `crib run --trace` prints every step, numbered across both tables, with the
 * pid of the process that runs it, the calls it makes and its time.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "child.h"

/* The setup: run by the clone child, in the new namespaces, as pid 1 of the new pid namespace
 * when there is one. With crib's init (init = yes, the default) this process stays as pid 1
 * once the table is done: it only waits, forwards signals and reaps (init.c). */
static const struct step setup_steps[] = {
        /* first, before any path is resolved: a descriptor of a host directory (crib's working
         * directory, the rootfs or the cgroup as the host sees them, one crib inherited) would
         * lead out through /proc/self/fd (fds.c); the bind sources stay until they are mounted */
        {"close what crib holds of the host", step_close_inherited},
        /* until uid_map and gid_map are written we have no usable ids: the parent writes them,
         * or we do when they map only the caller's own ids */
        {"get the id maps", step_id_maps},
        /* with the maps written and the go-ahead read (a failure before it would be lost:
         * crib's go-ahead unread), while still dumpable, so /proc/self's files are ours (a
         * user could not write it after); crib's init, the workload and all they start inherit
         * it. A value below the current one needs the host's CAP_SYS_RESOURCE */
        {"set the OOM score adjustment", step_oom_score_adj},
        /* before any code of the workload exists; the files of /proc/self are root's now */
        {"make the setup process not dumpable", step_not_dumpable},
        /* mapped now: take id 0 of the namespace, so files we create are root's inside */
        {"become root in the user namespace", step_become_root},
        /* after the id change, which clears it: crib dying (even by SIGKILL) kills us */
        {"set the parent-death signal", step_parent_death},
        /* a network helper's container has no NET_RAW; through the host's /proc, before
         * pivot_root, as root of the namespace */
        {"let ping work without NET_RAW", step_ping_range},
        /* SYS_ADMIN with a helper: the workload's capabilities count in a user namespace
         * below this one; binding a port below 1024 is opened to it by the sysctl */
        {"open the ports below 1024", step_low_ports},
        /* with a helper: long before the workload exists; the host's nft is reachable only
         * before pivot_root */
        {"keep the host's loopback out of reach", step_guard_loopback},
        /* before any mount, so no mount or unmount of ours propagates to the host */
        {"make all mounts private", step_mounts_private},
        /* pivot_root needs the new root to be a mount point */
        {"bind the rootfs onto itself", step_bind_rootfs},
        /* /proc, /dev, /sys and [mounts], while host paths (bind sources) are reachable */
        {"mount filesystems under the rootfs", step_mounts},
        /* after createRuntime (the parent's, before GO) and every mount, before pivot_root,
         * where the runtime spec puts them: a host program in the container's namespaces,
         * holding none of our descriptors (ocihooks_in.c) */
        {"run the engine's createContainer hooks", step_hooks_setup},
        /* swap roots and detach the host's, so no path leads back out */
        {"pivot_root into the rootfs", step_pivot_root},
        /* through the container's own /proc, now at its final path; before the row below
         * makes /proc/sys read-only */
        {"set the sysctls", step_sysctl},
        /* the container's own /proc and /sys are at their final paths only now */
        {"hide and protect paths", step_hide_paths},
        /* after pivot_root, and after all mountpoints were created in the rootfs */
        {"remount the root read-only", step_readonly_root},
        /* in the new uts namespace */
        {"set the hostname", step_hostname},
        /* in the new network namespace, where lo starts down */
        {"bring up loopback", step_loopback},
        /* in the container's own devpts, so the workload's tty is /dev/pts/0 inside */
        {"open the terminal", step_open_terminal},
        /* the container's, for init and the workload alike: each then drops only its own
         * remainder (a bounding set matters at execve(2), which none of the setup makes) */
        {"limit the bounding set to the container's", step_bounding_set_early},
        /* before the filter, which needs it; it holds for init and the workload alike */
        {"set no_new_privs", step_no_new_privs},
        /* last of the setup, so crib's init runs under the filter too; every step of the
         * workload's table makes only calls the default profile allows */
        {"load the seccomp filter", step_seccomp},
};

/* The workload's: run by the workload's process, which execs the workload at the end. With
 * crib's init it is a new process (init.c: clone(CLONE_VM), sharing the setup's memory while
 * init waits); with init = no, the setup process itself. */
static const struct step workload_steps[] = {
        /* with CAP_SYS_ADMIN kept: after every mount, while we hold every capability */
        {"lock the mounts in a user namespace of the workload's own", step_lock_mounts},
        /* a session of its own; the pty as controlling terminal */
        {"attach to the terminal", step_attach_terminal},
        /* while we still hold CAP_SETPCAP; keep-caps for a non-root container user. The
         * setup's row limited it already, unless the row above made a user namespace */
        {"limit the capability bounding set", step_bounding_set},
        /* last change of ids: everything above needed the namespace's root */
        {"switch to the container user", step_switch_user},
        /* the id change cleared the effective set: now every set as the plan says */
        {"set capabilities", step_capabilities},
        /* before the working directory, a path of the container's: nothing of the host is
         * open when it is resolved; only 0, 1, 2 and pass_fds reach the workload (fds.c) */
        {"close every descriptor the workload does not need", step_close_fds},
        /* as the container user, so a cwd it cannot enter is an error now, not later; checked
         * to be inside the container's root */
        {"set umask and working directory", step_umask_cwd},
        /* last, so the workload and nothing before it runs under the profile */
        {"set the AppArmor profile for exec", step_apparmor},
        /* init gives up its capabilities, ids, descriptors and terminal before the workload's
         * first instruction exists (init.c); nothing to wait for with init = no */
        {"wait for crib's init to let go", step_wait_init},
        /* crib create: set up in full, the workload waits for crib start (OCI's created) */
        {"wait for crib start", step_wait_start},
        /* after crib start, before the exec: the image's program, confined as the workload
         * is by every row above, forked with nothing open but its stdio (ocihooks_in.c) */
        {"run the engine's startContainer hooks", step_hooks_start},
        /* on success the sync socket closes (close-on-exec): the parent sees EOF */
        {"exec the workload", step_exec},
};

#define TABLE(rows)                                                                                \
        {                                                                                          \
                rows, sizeof rows / sizeof rows[0]                                                 \
        }
static const struct table setup = TABLE(setup_steps);
static const struct table workload = TABLE(workload_steps);

/* The step between the tables, traced as one of its own: the setup process starts the
 * workload's process, which runs the workload's table (init.c). */
static const char start_init[] = "start crib's init as pid 1";

/* Child: the setup process, after its table: start the workload's process, which runs `t` and
 * reports the end of this step; this process stays as crib's init and never returns. */
static _Noreturn void spawn(struct child *c, const struct table *t)
{
        struct error err;
        error_clear(&err);
        step_begin(c, start_init);
        init_start(c, t, &err); /* returns only on failure */
        step_failed(c, &err);
}

_Noreturn void child_main(const struct plan *plan, int sync_fd, const struct launch_fds *fds)
{
        struct child c = {
                .plan = plan,
                .fds = fds,
                .chan = {.fd = sync_fd},
                .trace = {.on = plan->trace, .emit = child_emit_over_sync},
                .pty_slave = -1,
                .init_ready = -1,
                .rootfs_tree = -1,
                .rootfd = -1,
                .init_go = -1,
                .procfd = -1,
                .start_fd = -1,
                .nsteps = setup.n + (plan->init ? 1 : 0) + workload.n,
        };
        c.trace.ctx = &c;
        forwarded_signals(&c.forwarded);

        steps_run(&c, &setup);
        if (plan->init)
                spawn(&c, &workload); /* the workload's process runs it; this one is pid 1 */
        else
                steps_run(&c, &workload); /* init = no: this process is the workload's */
        _exit(125);                       /* not reached: the last step execs or fails */
}
