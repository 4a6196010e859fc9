/* child.c - the container's setup, in order: two tables, one line each, and the line that says
 * which process runs which.
 *
 * The clone(2) child runs the setup table: in the new namespaces, as pid 1 of the new pid
 * namespace when there is one. Then, with crib's init (init = yes, the default), it starts the
 * workload's process, which runs the workload's table and execs, and stays as pid 1 itself
 * (init.c); with init = no it runs the workload's table itself. See child_main at the end.
 *
 * Both processes read the plan the parent built and only make system calls. Each step lives in
 * the file named after its kernel mechanism, which each row names; the last words of each row
 * say why the row sits where it does. `crib run --trace` prints every step, numbered across both
 * tables, with the pid of the process that runs it, the calls it makes and its time;
 * `--trace=explain` prints each row's why and file:function too (tools/check-steps keeps them
 * true).
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
        STEP("close what crib holds of the host", step_close_inherited, "runtime/steps/fds.c",
             "first, before any path is resolved: a descriptor of a host directory (crib's working"
             " directory, the rootfs or the cgroup as the host sees them, one crib inherited) "
             "would lead out through /proc/self/fd (fds.c); the bind sources stay until they are "
             "mounted"),
        STEP("get the id maps", step_id_maps, "runtime/steps/userns.c",
             "until uid_map and gid_map are written we have no usable ids: the parent writes them,"
             " or we do when they map only the caller's own ids"),
        STEP("set the OOM score adjustment", step_oom_score_adj, "runtime/steps/oom.c",
             "with the maps written and the go-ahead read (a failure before it would be lost: "
             "crib's go-ahead unread), while still dumpable, so /proc/self's files are ours (a "
             "user could not write it after); crib's init, the workload and all they start inherit"
             " it. A value below the current one needs the host's CAP_SYS_RESOURCE"),
        STEP("make the setup process not dumpable", step_not_dumpable, "runtime/steps/userns.c",
             "before any code of the workload exists; the files of /proc/self are root's now"),
        STEP("become root in the user namespace", step_become_root, "runtime/steps/creds.c",
             "mapped now: take id 0 of the namespace, so files we create are root's inside"),
        STEP("set the parent-death signal", step_parent_death, "runtime/steps/creds.c",
             "after the id change, which clears it: crib dying (even by SIGKILL) kills us"),
        STEP("join the workload's network namespace", step_join_nest_net, "runtime/steps/netns.c",
             "a workload with CAP_SYS_ADMIN: the parent made its user namespace and the network "
             "namespace that owns, the container's only one; as root of ours (the owner of that "
             "one), before any step touches a network namespace"),
        STEP("let ping work without NET_RAW", step_ping_range, "runtime/steps/netns.c",
             "a network helper's container has no NET_RAW; through the host's /proc, before "
             "pivot_root, as root of the namespace"),
        STEP("open the ports below 1024", step_low_ports, "runtime/steps/netns.c",
             "SYS_ADMIN with a helper: the workload's capabilities count in a user namespace below"
             " this one; binding a port below 1024 is opened to it by the sysctl"),
        STEP("keep the host's loopback out of reach", step_guard_loopback, "runtime/steps/netns.c",
             "with a helper: long before the workload exists; the host's nft is reachable only "
             "before pivot_root"),
        STEP("make all mounts private", step_mounts_private, "runtime/steps/mounts.c",
             "before any mount, so no mount or unmount of ours propagates to the host"),
        STEP("attach the image's idmapped layers", step_attach_layers, "runtime/steps/idlayers.c",
             "root's image container: the layers the parent idmapped, attached read-only once the"
             " mounts are private, for the row below to name in lowerdir="),
        STEP("mount the image's layers as an overlay", step_overlay, "runtime/steps/overlay.c",
             "an image's container: its layers under a writable one, mounted as the namespace's "
             "root once mapped and private, for the row below to attach on the rootfs"),
        STEP("detach the image's idmapped layers", step_detach_layers, "runtime/steps/idlayers.c",
             "at once: the overlay holds its own read-only clones, and a layer's mount left here "
             "could be made writable by the container's root"),
        STEP("bind the rootfs onto itself", step_bind_rootfs, "runtime/steps/mounts.c",
             "pivot_root needs the new root to be a mount point"),
        STEP("mount filesystems under the rootfs", step_mounts, "runtime/steps/mounts.c",
             "/proc, /dev, /sys and [mounts], while host paths (bind sources) are reachable"),
        STEP("run the engine's createContainer hooks", step_hooks_setup,
             "runtime/steps/ocihooks_in.c",
             "after createRuntime (the parent's, before GO) and every mount, before pivot_root, "
             "where the runtime spec puts them: a host program in the container's namespaces, "
             "holding none of our descriptors (ocihooks_in.c)"),
        STEP("pivot_root into the rootfs", step_pivot_root, "runtime/steps/pivot.c",
             "swap roots and detach the host's, so no path leads back out"),
        STEP("set the sysctls", step_sysctl, "runtime/steps/sysctl.c",
             "through the container's own /proc, now at its final path; before the row below makes"
             " /proc/sys read-only"),
        STEP("hide and protect paths", step_hide_paths, "runtime/steps/paths.c",
             "the container's own /proc and /sys are at their final paths only now"),
        STEP("remount the root read-only", step_readonly_root, "runtime/steps/pivot.c",
             "after pivot_root, and after all mountpoints were created in the rootfs"),
        STEP("set the hostname", step_hostname, "runtime/steps/uts.c", "in the new uts namespace"),
        STEP("bring up loopback", step_loopback, "runtime/steps/netns.c",
             "in the new network namespace, where lo starts down"),
        STEP("open the terminal", step_open_terminal, "runtime/steps/pty.c",
             "in the container's own devpts, so the workload's tty is /dev/pts/0 inside"),
        STEP("limit the bounding set to the container's", step_bounding_set_early,
             "runtime/steps/caps.c",
             "the container's, for init and the workload alike: each then drops only its own "
             "remainder (a bounding set matters at execve(2), which none of the setup makes)"),
        STEP("set no_new_privs", step_no_new_privs, "runtime/steps/nnp.c",
             "before the filter, which needs it; it holds for init and the workload alike"),
        STEP("load the seccomp filter", step_seccomp, "runtime/steps/filter.c",
             "last of the setup, so crib's init runs under the filter too; every step of the "
             "workload's table makes only calls the default profile allows"),
};

/* The workload's: run by the workload's process, which execs the workload at the end. With
 * crib's init it is a new process (init.c: clone(CLONE_VM), sharing the setup's memory while
 * init waits); with init = no, the setup process itself. */
static const struct step workload_steps[] = {
        STEP("lock the mounts in a user namespace of the workload's own", step_lock_mounts,
             "runtime/steps/lockmounts.c",
             "with CAP_SYS_ADMIN kept: after every mount, while we hold every capability"),
        STEP("attach to the terminal", step_attach_terminal, "runtime/steps/pty.c",
             "a session of its own; the pty as controlling terminal"),
        STEP("limit the capability bounding set", step_bounding_set, "runtime/steps/caps.c",
             "while we still hold CAP_SETPCAP; keep-caps for a non-root container user. The "
             "setup's row limited it already, unless the row above made a user namespace"),
        STEP("switch to the container user", step_switch_user, "runtime/steps/creds.c",
             "last change of ids: everything above needed the namespace's root"),
        STEP("set capabilities", step_capabilities, "runtime/steps/caps.c",
             "the id change cleared the effective set: now every set as the plan says"),
        STEP("close every descriptor the workload does not need", step_close_fds,
             "runtime/steps/fds.c",
             "before the working directory, a path of the container's: nothing of the host is open"
             " when it is resolved; only 0, 1, 2 and pass_fds reach the workload (fds.c)"),
        STEP("set umask and working directory", step_umask_cwd, "runtime/steps/creds.c",
             "as the container user, so a cwd it cannot enter is an error now, not later; checked "
             "to be inside the container's root"),
        STEP("set the AppArmor profile for exec", step_apparmor, "runtime/steps/apparmor.c",
             "last, so the workload and nothing before it runs under the profile"),
        STEP("wait for crib's init to let go", step_wait_init, "runtime/launch/init.c",
             "init gives up its capabilities, ids, descriptors and terminal before the workload's "
             "first instruction exists (init.c); nothing to wait for with init = no"),
        STEP("wait for crib start", step_wait_start, "runtime/steps/start.c",
             "crib create: set up in full, the workload waits for crib start (OCI's created)"),
        STEP("run the engine's startContainer hooks", step_hooks_start,
             "runtime/steps/ocihooks_in.c",
             "after crib start, before the exec: the image's program, confined as the workload is "
             "by every row above, forked with nothing open but its stdio (ocihooks_in.c)"),
        STEP("exec the workload", step_exec, "runtime/steps/exec.c",
             "on success the sync socket closes (close-on-exec): the parent sees EOF"),
};

#define TABLE(rows)                                                                                \
        {                                                                                          \
                rows, sizeof rows / sizeof rows[0]                                                 \
        }
static const struct table setup = TABLE(setup_steps);
static const struct table workload = TABLE(workload_steps);

/* The step between the tables, traced as one of its own: the setup process starts the
 * workload's process, which runs the workload's table (init.c). */
static const struct step start_init = {
        "start crib's init as pid 1", NULL /* spawn() calls init_start itself */,
        "after the setup's table, before the workload's: the workload's process is cloned, "
        "sharing this one's memory (CLONE_VM) while it runs that table, and this process stays "
        "as pid 1 to forward signals and reap",
        "runtime/launch/init.c:init_start"};

/* Child: the setup process, after its table: start the workload's process, which runs `t` and
 * reports the end of this step; this process stays as crib's init and never returns. */
static _Noreturn void spawn(struct child *c, const struct table *t)
{
        struct error err;
        error_clear(&err);
        step_begin(c, &start_init);
        init_start(c, t, &err); /* returns only on failure */
        step_failed(c, &err);
}

_Noreturn void child_main(const struct plan *plan, int sync_fd, const struct launch_fds *fds)
{
        struct child c = {
                .plan = plan,
                .fds = fds,
                .chan = {.fd = sync_fd},
                .trace = {.on = plan->trace,
                          .explain = plan->explain,
                          .emit = child_emit_over_sync},
                .pty_slave = -1,
                .init_ready = -1,
                .rootfs_tree = -1,
                .nest_userns = -1,
                .nest_netns = -1,
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
