/* container.c - the parent's half of a container's life: clone, map ids, follow the setup,
 * relay signals and the terminal, wait.
 *
 * Kernel features: clone(2) with CLONE_NEW* flags, called raw so it behaves like fork(2) (no
 * separate stack, as bubblewrap does); the forwarded signals and SIGCHLD blocked before it and
 * taken from a signalfd(2), in the one poll(2) loop that `crib exec` follows its process with
 * too (follow.c), with the sync socket and the terminal.
 *
 * The parent's steps are a table, like the child's (child.c): parent_steps at the end of this
 * file, run in order by container_run, each printed by --trace. Until the clone they prepare
 * what the setup process needs from its first instruction; then they answer what it waits for
 * (its id maps, the idmapped rootfs, GO), and follow it until the container exits: its trace,
 * warnings and error over the sync socket, the terminal, the signals to forward.
 */
#define _GNU_SOURCE
#include "container.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "child.h"
#include "base/cleanup.h"
#include "bindsrc.h"
#include "follow.h"
#include "steps/idlayers.h"
#include "joinns.h"
#include "steps/mountapi.h"
#include "nestns.h"
#include "nethelper.h"
#include "base/procfile.h"
#include "relay.h"
#include "steps/rlimits.h"
#include "sweep.h"
#include "steps/sync.h"
#include "base/sys.h"
#include "steps/userns.h"

/* The parent's state, from its first step to its last. */
struct run {
        const struct plan *plan;
        const struct container_hooks *hooks;
        struct trace trace;
        /* the setup process (crib's init when init = yes: f.pid), its socket, the signals, the
         * terminal; f.workload is the workload's process, from its SYNC_EXEC (0: not known) */
        struct follow f;
        int child_end;          /* the setup process's end of the socket, until the clone, or -1 */
        struct launch_fds fds;  /* what we open for the setup process */
        int here, rootfd;       /* our working directory and the rootfs, until the clone */
        int cgroup;             /* the container's cgroup (O_PATH), until the clone, or -1 */
        pid_t nest_helper;      /* plan.nest_early: the helper (nestns.c), until reaped, or 0 */
        char cgroup_path[1200]; /* and its path, "" for none */
        bool cgroup_made;       /* crib made it (always for its own names; an engine's may be
                                 * one the engine made: then only PATH/container is crib's) */
        struct nethelper net;   /* [network]'s helper, when the mode has one */
        struct sweep_mark mark; /* pid = no: what marks the container's processes (sweep.c) */
};

/* Parent, on SIGCHLD: the network helper, which may exit while the container runs. */
static void reap_net_helper(void *ctx)
{
        struct run *r = ctx;
        if (nethelper_reap(&r->net) && r->hooks->warn) {
                char text[1024];
                nethelper_describe(&r->net, text, sizeof text);
                r->hooks->warn(r->hooks->ctx, text);
        }
}

/* Parent: EOF after the workload's SYNC_EXEC: it runs. */
static void announce_running(void *ctx)
{
        struct run *r = ctx;
        /* pid = no: the mark of what crib exec will start, before crib exec can find it, if
         * the clone could not take it */
        if (!(r->plan->clone_flags & CLONE_NEWPID) && !r->mark.set) {
                /* once reaped, its pid may be another's: then the workload's alone */
                int ret = sweep_mark(r->f.reaped ? 0 : r->f.pid, r->f.workload,
                                     r->plan->clone_flags, &r->mark);
                trace_line(&r->trace,
                           "parent: the container's %s namespace marks its processes "
                           "(pid = no): %s",
                           r->mark.user ? "user" : "mount", ret == 0 ? "taken" : strerror(errno));
        }
        if (r->hooks->running)
                r->hooks->running(r->hooks->ctx, r->f.pid, r->f.workload);
}

/* Root's container, rootfs owned by host root: hand the child an idmapped copy of it. Where
 * the kernel or the filesystem has no idmapped mounts, the container still runs, its rootfs's
 * files owned by nobody inside (container root cannot change them), and crib says so. */
static int send_idmapped_rootfs(struct run *r, struct error *err)
{
        struct error why;
        error_clear(&why);
        _cleanup_close_ int tree = userns_idmapped_rootfs(r->plan, r->f.pid, &r->trace, &why);
        if (tree < 0) {
                if (why.errnum != EINVAL && why.errnum != ENOSYS && why.errnum != EOPNOTSUPP) {
                        *err = why;
                        return -1;
                }
                if (r->hooks->warn) {
                        char text[4096];
                        snprintf(text, sizeof text,
                                 "%s (%s): its files show as nobody's inside, and container root "
                                 "cannot change them\n%s",
                                 why.msg, strerror(why.errnum), why.hint);
                        r->hooks->warn(r->hooks->ctx, text);
                }
                return 0;
        }
        struct sync_msg m = {.type = SYNC_ROOTFS};
        return sync_send(&r->f.chan, &m, tree, err);
}

/* Without a pid namespace, nothing kills what the workload left running when crib's init exits
 * (with one, the kernel does). We are its subreaper: kill and reap each process that came back
 * to us, and theirs, until none is left. Bounded: a process that forks faster than this loop
 * kills would keep it going, so after 64 rounds it stops and says so. */
static void kill_leftovers(struct run *r)
{
        if (r->plan->clone_flags & CLONE_NEWPID)
                return;
        size_t killed = 0;
        for (int round = 0; round < 64; round++) {
                pid_t pids[256];
                size_t n = procfile_children(getpid(), pids, 256);
                /* the batch's seccomp template is ours, not the workload's */
                const struct seccomp_template *t = r->hooks->seccomp_template;
                for (size_t i = 0; i < n; i++)
                        if (t && pids[i] == t->pid)
                                pids[i--] = pids[--n];
                if (!n) {
                        if (killed)
                                trace_line(&r->trace,
                                           "parent: killed %zu processes the workload left "
                                           "running (pid = no)",
                                           killed);
                        return;
                }
                for (size_t i = 0; i < n; i++)
                        kill(pids[i], SIGKILL);
                for (size_t i = 0; i < n; i++)
                        while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
                                ;
                killed += n;
        }
        if (r->hooks->warn)
                r->hooks->warn(r->hooks->ctx, "processes the workload left running (pid = no) "
                                              "kept forking; some may still be running");
}

/* Without a pid namespace, what crib exec started is not ours to reap: it is crib exec's, and
 * a process it left running is no one's we follow. Kill what is left in the container's
 * namespaces (sweep.c). With a cgroup of the container's own, its removal does the same. */
static void kill_strays(struct run *r)
{
        bool more;
        size_t n = sweep_kill(&r->mark, &more);
        if (n)
                trace_line(&r->trace,
                           "parent: killed %zu processes left in the container's %s "
                           "namespace (crib exec's, pid = no)",
                           n, r->mark.user ? "user" : "mount");
        if (more && r->hooks->warn)
                r->hooks->warn(r->hooks->ctx, "processes left in the container's namespaces "
                                              "(pid = no) kept forking; some may still be running");
}

/* Parent: the sync channel; the setup process's end goes along with the clone. */
static int open_sync(struct run *r, struct error *err)
{
        if (follow_open(&r->f, &r->child_end, err) < 0)
                return -1;
        trace_line(&r->trace, "  socketpair(AF_UNIX, SOCK_SEQPACKET) = [%d, %d]", r->f.chan.fd,
                   r->child_end);
        /* the workload's pid comes with its SYNC_EXEC (or SYNC_CREATED), from the kernel */
        return sync_pass_credentials(&r->f.chan, err);
}

/* Parent: the forwarded signals and SIGCHLD, blocked and read from a signalfd. */
static int block_signals(struct run *r, struct error *err)
{
        int ret = follow_block_signals(&r->f, err);
        trace_line(&r->trace, "  sigprocmask(SIG_BLOCK); signalfd() = %d", r->f.sigfd);
        return ret;
}

/* Parent: without a pid namespace, what the workload leaves running comes back to us. */
static int become_subreaper(struct run *r, struct error *err)
{
        if (r->plan->clone_flags & CLONE_NEWPID)
                return trace_skip(&r->trace, "crib's init is pid 1 of the container's pid "
                                             "namespace: orphans go to it");
        int ret = prctl(PR_SET_CHILD_SUBREAPER, 1);
        trace_line(&r->trace, "  prctl(PR_SET_CHILD_SUBREAPER, 1) = %d", ret);
        if (ret < 0)
                return error_set(err, errno, "cannot become a child subreaper");
        return 0;
}

static int open_bind_sources(struct run *r, struct error *err)
{
        const struct plan *p = r->plan;
        size_t n = 0;
        for (size_t i = 0; i < p->nmounts; i++)
                n += p->mounts[i].kind == MOP_BIND ||
                     (p->mounts[i].kind == MOP_DEV_NODE && p->userns);
        if (!p->privileged || !n)
                return trace_skip(&r->trace, "%s",
                                  !p->privileged ? "crib is not host root: the setup binds what "
                                                   "the user may reach, by name"
                                                 : "no bind in [mounts], no device to bind");
        return launch_open(p, &r->fds, err);
}

/* Parent: the child starts in the rootfs: opened once, here, checked to be the directory the
 * plan checked, and entered by descriptor. Our 0, 1 and 2, the container's, are no directory. */
static int open_rootfs(struct run *r, struct error *err)
{
        const struct plan *p = r->plan;
        if (fds_check_stdio(err) < 0)
                return -1;
        r->here = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        r->rootfd = open(p->rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
        struct stat st;
        if (r->rootfd < 0 || fstat(r->rootfd, &st) < 0)
                return error_set(err, errno, "cannot open the rootfs '%s'", p->rootfs);
        if (st.st_dev != p->rootfs_dev || st.st_ino != p->rootfs_ino)
                return mounts_rootfs_replaced(p->rootfs, err);
        if (fchdir(r->rootfd) < 0)
                return error_set(err, errno, "cannot enter the rootfs '%s'", p->rootfs);
        trace_line(&r->trace, "  open(\"%s\") = %d; fchdir() = 0", p->rootfs, r->rootfd);
        return 0;
}

/* Parent: the container's cgroup, with its limits, before anything of it exists. */
static int make_cgroup(struct run *r, struct error *err)
{
        const struct plan *p = r->plan;
        if (p->devices_why[0])
                trace_line(&r->trace, "  %s", p->devices_why);
        if (!p->cgroup)
                return trace_skip(&r->trace, "no [resources]: the container stays in crib's "
                                             "cgroup");
        char name[96];
        if (p->cgroup_name[0])
                snprintf(name, sizeof name, "%s", p->cgroup_name);
        else
                snprintf(name, sizeof name, "run-%d", (int)getpid());
        char base[1200];
        snprintf(base, sizeof base, "%s", p->cgroup_base);
        if (p->cgroup_path[0]) /* the engine's (an OCI config's cgroupsPath) */
                r->cgroup =
                        cgroup_make_at(p->cgroup_top, p->cgroup_path, &p->limits, &r->trace,
                                       r->cgroup_path, sizeof r->cgroup_path, &r->cgroup_made, err);
        else if ((p->cgroup_systemd &&
                  cgroup_systemd_scope(name, &r->trace, base, sizeof base, err) < 0) ||
                 (p->cgroup_unit && cgroup_unit_enter(base, &r->trace, err) < 0))
                return -1;
        else
                r->cgroup = cgroup_make(base, name, &p->limits, &r->trace, r->cgroup_path,
                                        sizeof r->cgroup_path, err);
        if (r->cgroup < 0)
                return -1;
        if (r->hooks->cgroup)
                r->hooks->cgroup(r->hooks->ctx, r->cgroup_path);
        /* before anything of the container is in it: its first open already goes through it */
        const struct cgroup_device_policy pol = {.own = p->devices,
                                                 .nown = p->ndevices_own,
                                                 .extra = p->devices + p->ndevices_own,
                                                 .nextra = p->ndevices - p->ndevices_own,
                                                 .rules = p->dev_rules,
                                                 .nrules = p->ndev_rules,
                                                 .rules_on = p->dev_rules_on};
        if (p->device_program && cgroup_devices_apply(r->cgroup_path, &pol, &r->trace, err) < 0)
                return -1;
        return 0;
}

/* Parent: the setup process, in the new namespaces; it runs child_main (child.c). Then back
 * to our own working directory, and the descriptors that were for the child closed. With a
 * cgroup, clone3(2) puts it there from its first instruction, its cgroup namespace rooted
 * there. */
static void setup_process(void *ctx)
{
        struct run *r = ctx;
        /* the child: only the sync socket's own end comes along */
        close(r->f.chan.fd);
        close(r->f.sigfd);
        child_main(r->plan, r->child_end, &r->fds);
}

static int clone_child(struct run *r, struct error *err)
{
        const struct plan *p = r->plan;
        char flagbuf[256];
        uint64_t t0 = trace_now_us();
        /* plan.nest_early: the network namespace is the workload's, made after the clone by
         * the parent (nestns.c), and the setup joins it */
        int ns = p->clone_flags & ~(p->nest_early ? CLONE_NEWNET : 0);
        unsigned long flags = (unsigned long)ns | SIGCHLD;
        struct error join_err;
        error_clear(&join_err);
        if (p->join_flags) {
                /* namespaces that exist: a process of its own joins them, then clones */
                r->f.pid = joinns_clone(p, r->cgroup, setup_process, r, &r->trace, &join_err);
        } else if (r->cgroup >= 0) {
                r->f.pid = cgroup_clone_into(r->cgroup, (uint64_t)(unsigned)ns);
        } else {
                r->f.pid = (pid_t)syscall(SYS_clone, flags, NULL, NULL, NULL, NULL);
        }
        if (r->f.pid == 0)
                setup_process(r);
        int clone_errno = errno;
        close(r->child_end);
        r->child_end = -1;
        launch_close(p, &r->fds);
        if (r->here < 0 || fchdir(r->here) < 0) {
                if (chdir("/") < 0) /* the working directory we had is gone */
                        trace_line(&r->trace, "  cannot return to a working directory");
        }
        close(r->here);
        close(r->rootfd);
        r->here = r->rootfd = -1;
        trace_line(&r->trace, "  %s(%s%s) = %d  %llu us", r->cgroup >= 0 ? "clone3" : "clone",
                   trace_clone_flags(flags, flagbuf, sizeof flagbuf),
                   r->cgroup >= 0 ? "|CLONE_INTO_CGROUP" : "", (int)r->f.pid,
                   (unsigned long long)(trace_now_us() - t0));
        /* kept for the network helper, which goes into the same cgroup */
        if (r->cgroup >= 0 && !p->net_helper) {
                close(r->cgroup);
                r->cgroup = -1;
        }
        if (r->f.pid < 0 && p->join_flags) {
                *err = join_err;
                return -1;
        }
        if (r->f.pid < 0)
                return userns_clone_error(p->clone_flags, clone_errno, p->front, err);
        /* pid = no: what marks the container's processes, from the setup process while it is
         * still dumpable (it waits for its maps; with maps of its own it may be past that, and
         * the mark is taken when the workload runs) */
        if (!(p->clone_flags & CLONE_NEWPID) &&
            sweep_mark(r->f.pid, 0, p->clone_flags, &r->mark) == 0)
                trace_line(&r->trace,
                           "  the container's %s namespace marks its processes (pid = "
                           "no)",
                           r->mark.user ? "user" : "mount");
        return 0;
}

/* Parent: the setup process waits for its maps, unless they are our own ids alone, which it
 * writes itself. */
static int write_maps(struct run *r, struct error *err)
{
        if (r->plan->join_flags & CLONE_NEWUSER) {
                /* a joined user namespace has its maps: the ones planned, or it was swapped */
                if (userns_check_joined_maps(r->plan, r->f.pid, &r->trace, err) < 0)
                        return -1;
                return rlimits_apply(r->plan, r->f.pid, &r->trace, err);
        }
        if (r->plan->self_maps) {
                trace_line(&r->trace, "  the id maps are our own ids: %d writes them",
                           (int)r->f.pid);
                return 0;
        }
        if (userns_write_maps(r->plan, r->f.pid, &r->trace, err) < 0 ||
            rlimits_apply(r->plan, r->f.pid, &r->trace, err) < 0)
                return -1;
        return 0;
}

/* Parent: the helper of make_nest, which exits on its own once it has sent its namespaces */
static void reap_nest_helper(struct run *r)
{
        while (r->nest_helper > 0 && waitpid(r->nest_helper, NULL, 0) < 0 && errno == EINTR)
                ;
        r->nest_helper = 0;
}

/* Parent: a workload that keeps CAP_SYS_ADMIN gets a user namespace below the container's,
 * made now with the network namespace it owns, the container's only one (nestns.c) */
static int make_nest(struct run *r, struct error *err)
{
        r->nest_helper = nestns_make(r->plan, r->f.pid, &r->f.chan, &r->trace, err);
        return r->nest_helper < 0 ? -1 : 0;
}

static int send_rootfs(struct run *r, struct error *err)
{
        if (!r->plan->idmap_rootfs || r->plan->self_maps)
                return trace_skip(&r->trace, "the container's root owns the rootfs as it is: no "
                                             "idmapped mount");
        return send_idmapped_rootfs(r, err);
}

/* Parent: root's container of a store image in a user namespace: each layer as an idmapped
 * mount of the setup process's user namespace, once its maps are written (idlayers.c) */
static int send_layers(struct run *r, struct error *err)
{
        if (!r->plan->overlay_idmapped)
                return trace_skip(&r->trace, "no layers of an image to idmap");
        if (r->plan->self_maps)
                return error_set(err, EINVAL, "the setup does not wait: no idmapped layers");
        return idlayers_send(r->plan, r->f.pid, &r->f.chan, &r->trace, err);
}

/* Parent: the caller's work while the setup waits for GO (OCI prestart, createRuntime hooks) */
static int before_go(struct run *r, struct error *err)
{
        if (!r->hooks->before_go)
                return trace_skip(&r->trace, "no engine, no hooks");
        if (r->plan->self_maps)
                return error_set(err, EINVAL, "the setup does not wait: no hooks before it");
        trace_line(&r->trace, "  the engine's hooks, in the runtime's namespaces (pid %d)",
                   (int)r->f.pid);
        return r->hooks->before_go(r->hooks->ctx, r->f.pid, err);
}

/* Parent: the setup process goes on from its first step (SYNC_GO), unless it writes its own
 * maps and waits for nothing. */
static int send_go(struct run *r, struct error *err)
{
        if (r->plan->self_maps)
                return 0;
        /* with its pid as we see it, which the hooks it runs read (steps/ocihooks_in.c) */
        struct sync_msg go = {.type = SYNC_GO, .u.pid = (int32_t)r->f.pid};
        /* make_nest's helper: with pid = no a container's process could find it in the host's
         * /proc, so it goes first; with a pid namespace none can, and it exits meanwhile */
        if (!(r->plan->clone_flags & CLONE_NEWPID))
                reap_nest_helper(r);
        if (sync_send(&r->f.chan, &go, -1, err) < 0)
                return -1;
        trace_line(&r->trace, "  sendmsg(sync, GO) = 0");
        reap_nest_helper(r);
        return 0;
}

/* Parent: the setup's trace, warnings and error, the terminal, the signals to forward, until
 * the container exits; then the terminal as it was. */
static int follow(struct run *r, struct error *err)
{
        return follow_run(&r->f, err);
}

/* Parent: the published ports are free, before anything of the container exists. */
static int check_ports(struct run *r, struct error *err)
{
        if (!r->plan->nports)
                return trace_skip(&r->trace, "no publish in [network]");
        return nethelper_check_ports(r->plan, err);
}

/* Parent: the helper joins the namespaces the clone made, as root of the user namespace now
 * that it is mapped; the setup process waits for GO meanwhile. */
static int start_net_helper(struct run *r, struct error *err)
{
        if (!r->plan->net_helper)
                return trace_skip(&r->trace, "no network helper in [network]");
        /* in the container's cgroup, so its memory and socket buffers count against the
         * container's [resources]; not where a device program would refuse it /dev/net/tun */
        int cg = r->plan->device_program ? -1 : r->cgroup;
        int ret = nethelper_start(r->plan, r->f.pid, cg, r->f.sigfd, &r->net, &r->trace, err);
        if (r->cgroup >= 0)
                close(r->cgroup);
        r->cgroup = -1;
        /* our wait read the signalfd: a SIGCHLD of the setup process's may be among it */
        if (!r->f.reaped && waitpid(r->f.pid, &r->f.status, WNOHANG) == r->f.pid)
                r->f.reaped = true;
        return ret;
}

static int stop_net_helper(struct run *r, struct error *err)
{
        (void)err;
        if (!r->plan->net_helper)
                return trace_skip(&r->trace, "no network helper");
        nethelper_stop(&r->net, &r->trace);
        return 0;
}

static int kill_left(struct run *r, struct error *err)
{
        (void)err;
        if (r->plan->clone_flags & CLONE_NEWPID)
                return trace_skip(&r->trace, "the kernel ended them with crib's init, pid 1 of "
                                             "the container's pid namespace");
        kill_leftovers(r);
        kill_strays(r);
        return 0;
}

/* A row of the parent's table: as struct step (steps/step.h), for the parent's own process */
struct parent_step {
        const char *name;
        int (*run)(struct run *r, struct error *err);
        const char *why, *where;
};

/* The parent's steps, in order. Until the clone, what the setup process needs before it
 * exists; from the clone on, one step for each thing the setup process waits for, then
 * following it to its end. */
static const struct parent_step parent_steps[] = {
        STEP("create the sync socket", open_sync, "runtime/launch/container.c",
             "the channel of the setup's messages (sync.h)"),
        STEP("block the forwarded signals", block_signals, "runtime/launch/container.c",
             "before the clone: the setup process starts with them blocked, so none sent early is "
             "lost; we take them from a signalfd, in one poll(2) with the socket and the terminal"),
        STEP("become a child subreaper", become_subreaper, "runtime/launch/container.c",
             "before the clone: pid = no leaves the workload's orphans to us"),
        STEP("open the bind sources", open_bind_sources, "runtime/launch/container.c",
             "root only: a copy of each bind source, while we can still reach them all"),
        STEP("open the rootfs", open_rootfs, "runtime/launch/container.c",
             "the setup process starts in it: the directory the plan checked, by descriptor"),
        STEP("check the published ports are free", check_ports, "runtime/launch/container.c",
             "[network] publish: a port taken is an error before anything starts"),
        STEP("make the cgroup", make_cgroup, "runtime/launch/container.c",
             "[resources]: the setup process is cloned into it, its limits already set"),
        STEP("clone the setup process", clone_child, "runtime/launch/container.c",
             "the setup process, in the new namespaces: it runs the tables of child.c"),
        STEP("write the id maps and limits", write_maps, "runtime/launch/container.c",
             "from outside its user namespace, where the maps can name more than our own ids"),
        STEP("make the workload's user and network namespace", make_nest,
             "runtime/launch/container.c",
             "a workload with CAP_SYS_ADMIN, no helper: below the container's user namespace, once "
             "mapped; before GO, so the setup joins that network namespace before any other use"),
        STEP("send the idmapped rootfs", send_rootfs, "runtime/launch/container.c",
             "root's container on a rootfs that root owns: an idmapped mount of it, once mapped"),
        STEP("send the image's idmapped layers", send_layers, "runtime/launch/container.c",
             "root's container of a store image in a user namespace: its layers, idmapped the same"
             " way, once mapped"),
        STEP("start the network helper", start_net_helper, "runtime/launch/container.c",
             "[network]: the workload's first instruction already has its network"),
        STEP("run the engine's hooks", before_go, "runtime/launch/container.c",
             "the namespaces exist, nothing is mounted yet: OCI prestart and createRuntime"),
        STEP("send GO", send_go, "runtime/launch/container.c",
             "the setup process's first step waits for this"),
        STEP("follow the container", follow, "runtime/launch/container.c",
             "until the setup process (crib's init, or the workload) exits"),
        STEP("stop the network helper", stop_net_helper, "runtime/launch/container.c",
             "the container is gone: so is its way out (before the leftovers: it is our child)"),
        STEP("kill what the workload left running", kill_left, "runtime/launch/container.c",
             "pid = no: nothing else kills what the workload left running"),
};

/* crib run --step: from the clone on (before it there is nothing to look at), each step of
 * ours up to following the container, whose own steps then wait in turn (step.c) */
static int parent_step_wait(struct run *r, size_t i, size_t n, struct error *err)
{
        char what[160];
        if (!r->plan->step_mode || !r->hooks->step || r->f.pid <= 0 ||
            parent_steps[i].run == follow || parent_steps[i].run == stop_net_helper ||
            parent_steps[i].run == kill_left)
                return 0;
        snprintf(what, sizeof what, "parent: %zu/%zu  %s", i + 1, n, parent_steps[i].name);
        if (r->hooks->step(r->hooks->ctx, what, r->f.pid) < 0)
                return error_set(err, 0, "stopped before step %s, as asked", what);
        return 0;
}

/* Parent: the table, in order, until the container exits (or, crib create, waits for crib
 * start); a step that fails after the clone ends the container. */
static int run_steps(struct run *r, struct error *err)
{
        const size_t n = sizeof parent_steps / sizeof parent_steps[0];
        for (size_t i = 0; i < n; i++) {
                trace_line(&r->trace, "parent: step %2zu/%zu  %s", i + 1, n, parent_steps[i].name);
                if (r->trace.explain)
                        trace_line(&r->trace, "  why: %s  [%s]", parent_steps[i].why,
                                   parent_steps[i].where);
                int ok = parent_step_wait(r, i, n, err);
                if (ok < 0 || parent_steps[i].run(r, err) < 0) {
                        if (r->f.pid > 0) { /* a step after the clone: end the container */
                                reap_nest_helper(r);
                                follow_kill(&r->f);
                                relay_end(&r->f.relay);
                                nethelper_stop(&r->net, &r->trace);
                                kill_leftovers(r);
                        }
                        return -1;
                }
                if (r->f.created) /* crib create: it waits for crib start, without us */
                        return 0;
        }
        return 0;
}

/* Parent: the container ran out of memory: the kernel killed it, and the user should know. */
static void warn_oom(struct run *r)
{
        const struct container_hooks *h = r->hooks;
        if (!r->cgroup_path[0] || !cgroup_oom_killed(r->cgroup_path) || !h->warn)
                return;
        char max[32], line[160];
        cgroup_format_bytes(r->plan->limits.memory_max, max, sizeof max);
        snprintf(line, sizeof line,
                 "the container was killed by the kernel: out of memory, memory.max = %s", max);
        h->warn(h->ctx, line);
}

/* Parent: how the container ended: the workload's wait status, or the setup's error. */
static int result(struct run *r, int *ret_status, struct error *err)
{
        const struct follow *f = &r->f;
        if (f->created) {
                *ret_status = 0;
                return 0;
        }
        if (f->have_error) {
                *err = f->child_err;
                return -1;
        }
        if (!f->exec_seen) {
                if (WIFSIGNALED(f->status))
                        return error_set(err, 0,
                                         "the container's setup process was killed by signal %d "
                                         "(%s) before it started the workload",
                                         WTERMSIG(f->status), sigabbrev_np(WTERMSIG(f->status)));
                return error_set(err, 0,
                                 "the container's setup process exited with status %d before it "
                                 "started the workload",
                                 WEXITSTATUS(f->status));
        }
        *ret_status = f->status;
        warn_oom(r);
        return 0;
}

/* Parent: whatever the end, nothing of ours stays: the helper, the cgroup (unless the
 * container waits for crib start: crib delete removes it), every descriptor, the mask. */
static void run_close(struct run *r)
{
        nethelper_stop(&r->net, &r->trace);
        if (r->cgroup >= 0)
                close(r->cgroup);
        if (!r->f.created && r->cgroup_path[0]) {
                if (r->cgroup_made) {
                        cgroup_remove(r->cgroup_path);
                } else {
                        /* the engine's cgroup, found empty: only what crib made in it goes */
                        char inner[1300];
                        snprintf(inner, sizeof inner, "%s/container", r->cgroup_path);
                        cgroup_remove(inner);
                }
        }
        launch_close(r->plan, &r->fds);
        if (r->here >= 0)
                close(r->here);
        if (r->rootfd >= 0)
                close(r->rootfd);
        if (r->child_end >= 0)
                close(r->child_end);
        follow_close(&r->f);
}

int container_run(const struct plan *p, const struct container_hooks *h, int *ret_status,
                  struct error *err)
{
        struct run r = {
                .plan = p,
                .hooks = h,
                .trace = {.on = p->trace,
                          .explain = p->explain,
                          .emit = follow_trace_hook,
                          .ctx = (void *)h},
                .child_end = -1,
                .here = -1,
                .rootfd = -1,
                .cgroup = -1,
                .cgroup_made = true,
        };
        follow_init(&r.f, h, &r.trace);
        r.f.wait_start = p->wait_start;
        r.f.running = announce_running;
        r.f.reap_others = reap_net_helper;
        r.f.notify = h->notify;
        r.f.ctx = &r;
        for (size_t i = 0; i < PLAN_MAX_MOUNTS; i++)
                r.fds.src[i] = -1;
        r.fds.start_fifo = p->wait_start ? h->start_fifo : -1;
        r.fds.seccomp_template = h->seccomp_template;
        nethelper_init(&r.net);
        int ret = run_steps(&r, err);
        if (ret == 0)
                ret = result(&r, ret_status, err);
        run_close(&r);
        return ret;
}
