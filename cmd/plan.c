/* plan.c - `crib plan SPEC` and `crib plan [FLAGS] IMAGE [PROGRAM ARGS...]`: the plan `crib run`
 * would follow with the same command line, made without creating anything (issue 37, for
 * people learning how a container is made).
 *
 * The command line is crib run's, read by its parser (run.h), and so is the spec. A store
 * image's container (IMAGE, or a spec's image = REF) gets its directory in the store from
 * crib run; here the image is found in the store read-only, and what crib run would make of
 * it, an overlay of its layers or a copy and why, comes from the same decision, asked of the
 * store without writing (imgrootfs_predict); the planner plans that directory's paths without
 * looking for them (plan_opts.unmade_at). No store.lock is taken, no name given.
 *
 * It reads the spec and the host's facts and builds the plan exactly as crib run does
 * (plan_build: planning only reads), then prints it instead of running it: the namespaces, the
 * id maps, the root filesystem and every mount with its flags, the process, the capabilities of
 * each set, no_new_privs, the seccomp program's size and what it answers for a few system calls
 * a container's escape would need (run on the program itself: bpf_run, as the kernel would),
 * AppArmor, the cgroup and its limits, the network, the rlimits, and crib's warnings. Nothing is
 * made: no namespace, no cgroup, no state directory; root's first range in /etc/subuid, which
 * crib run gives root the first time, is not given here (the plan says so). */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "base/capname.h"
#include "base/cleanup.h"
#include "host/kernel.h"
#include "plan/plan.h"
#include "seccomp/bpf.h"
#include "seccomp/seccomp.h"
#include "spec/spec.h"
#include "output.h"
#include "run.h"
#include "specfile.h"

int cmd_plan(int argc, char **argv);

/* the namespaces of clone(2)'s flags, in the order crib makes them */
static const struct {
        int flag;
        const char *name;
} namespaces[] = {
        {CLONE_NEWUSER, "user"},     {CLONE_NEWNS, "mount"}, {CLONE_NEWPID, "pid"},
        {CLONE_NEWIPC, "ipc"},       {CLONE_NEWUTS, "uts"},  {CLONE_NEWNET, "net"},
        {CLONE_NEWCGROUP, "cgroup"},
};

static void print_namespaces(const struct plan *p)
{
        char made[128] = "", joined[256] = "";
        for (size_t i = 0; i < sizeof namespaces / sizeof namespaces[0]; i++) {
                if (p->clone_flags & namespaces[i].flag)
                        snprintf(made + strlen(made), sizeof made - strlen(made), " %s",
                                 namespaces[i].name);
                if (p->join_flags & namespaces[i].flag)
                        snprintf(joined + strlen(joined), sizeof joined - strlen(joined), " %s",
                                 namespaces[i].name);
        }
        output_line(stdout, "namespaces: new:%s%s%s", made[0] ? made : " none",
                    joined[0] ? "; joined:" : "", joined);
}

static void print_map(const char *what, const struct idmap *m)
{
        char text[512] = "";
        for (size_t i = 0; i < m->n; i++)
                snprintf(text + strlen(text), sizeof text - strlen(text), "%s%u-%u -> host %u-%u",
                         i ? ", " : "", m->r[i].inside, m->r[i].inside + m->r[i].count - 1,
                         m->r[i].outside, m->r[i].outside + m->r[i].count - 1);
        output_line(stdout, "  %s: %s%s", what, m->n ? text : "none (the host's ids)",
                    m->use_helper ? " (written by the setuid helper newuidmap/newgidmap)" : "");
}

static const char *mount_kind(enum mount_op_kind k)
{
        static const char *const names[] = {"bind",   "tmpfs",   "proc",           "sysfs",
                                            "devpts", "mqueue",  "device",         "symlink",
                                            "file",   "cgroup2", "device (config)"};
        return (size_t)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static void mount_flags(unsigned long f, char *buf, size_t len)
{
        static const struct {
                unsigned long flag;
                const char *name;
        } names[] = {{MS_RDONLY, "ro"},         {MS_NOSUID, "nosuid"},
                     {MS_NODEV, "nodev"},       {MS_NOEXEC, "noexec"},
                     {MS_REC, "rec"},           {MS_STRICTATIME, "strictatime"},
                     {MS_RELATIME, "relatime"}, {MS_NOATIME, "noatime"}};
        buf[0] = '\0';
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
                if (f & names[i].flag)
                        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "," : "",
                                 names[i].name);
        if (!buf[0])
                snprintf(buf, len, "-");
}

static void print_fs(const struct plan *p)
{
        if (p->overlay_upper)
                output_line(stdout,
                            "rootfs: %s, overlayfs of %u image layer%s: lowerdir %s, upperdir "
                            "%s, workdir %s%s",
                            p->rootfs, p->overlay_layers, p->overlay_layers == 1 ? "" : "s",
                            p->overlay_lower ? p->overlay_lower : "(one by one, lowerdir+)",
                            p->overlay_upper, p->overlay_work,
                            p->overlay_volatile ? ", volatile (--rm: never synced)" : "");
        else
                output_line(stdout, "rootfs: %s%s%s", p->rootfs,
                            p->readonly_rootfs ? " (read-only)" : "",
                            p->idmap_rootfs ? " (an idmapped copy of its mount: container root "
                                              "owns root's files)"
                                            : "");
        output_line(stdout, "mounts, in order (under the rootfs, before pivot_root):");
        for (size_t i = 0; i < p->nmounts; i++) {
                const struct mount_op *m = &p->mounts[i];
                char flags[128];
                mount_flags(m->flags, flags, sizeof flags);
                const char *how = !m->src ? "" : m->kind == MOP_SYMLINK ? "-> " : "from ";
                char line[1024];
                int n = snprintf(line, sizeof line, "  %2zu. %-8s %-20s %-22s %s%s", i + 1,
                                 mount_kind(m->kind), m->dst, flags, how, m->src ? m->src : "");
                while (n > 0 && (size_t)n < sizeof line && line[n - 1] == ' ')
                        line[--n] = '\0';
                output_line(stdout, "%s", line);
        }
        for (size_t i = 0; i < p->masked->n; i++)
                output_line(stdout, "  masked:    %s", p->masked->items[i]);
        for (size_t i = 0; i < p->readonly->n; i++)
                output_line(stdout, "  read-only: %s", p->readonly->items[i]);
}

static void print_process(const struct plan *p)
{
        char args[1024] = "";
        for (char **a = p->argv; a && *a; a++)
                snprintf(args + strlen(args), sizeof args - strlen(args), "%s%s",
                         a == p->argv ? "" : " ", *a);
        size_t nenv = 0;
        for (char **e = p->envp; e && *e; e++)
                nenv++;
        output_line(stdout, "process: %s", args);
        output_line(stdout,
                    "  as uid %u gid %u (%zu supplementary group%s), in %s, umask %04o, "
                    "%zu environment variable%s%s%s",
                    (unsigned)p->uid, (unsigned)p->gid, p->ngroups, p->ngroups == 1 ? "" : "s",
                    p->cwd ? p->cwd : "/", (unsigned)p->umask, nenv, nenv == 1 ? "" : "s",
                    p->terminal ? ", a terminal" : "", p->init ? ", under crib's init" : "");
        if (p->hostname)
                output_line(stdout, "  hostname: %s", p->hostname);
}

static void print_caps(const struct plan *p)
{
        char list[2048];
        const struct {
                const char *name;
                uint64_t set;
        } sets[] = {{"bounding", p->cap_bounding},   {"permitted", p->cap_permitted},
                    {"effective", p->cap_effective}, {"inheritable", p->cap_inheritable},
                    {"ambient", p->cap_ambient},     {"for a uid but 0", p->cap_user}};
        output_line(stdout, "capabilities (each set, as the workload gets it):");
        for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
                capname_list(sets[i].set, " ", list, sizeof list);
                output_line(stdout, "  %-16s %s", sets[i].name, sets[i].set ? list : "none");
        }
        output_line(stdout, "no_new_privs: %s", p->no_new_privs ? "yes" : "no");
}

/* What the seccomp program answers for the calls an escape would want, and two it allows */
static void print_seccomp(const struct plan *p)
{
        static const char *const calls[] = {"read",
                                            "mount",
                                            "unshare",
                                            "setns",
                                            "keyctl",
                                            "ptrace",
                                            "bpf",
                                            "reboot",
                                            "clone3",
                                            "init_module",
                                            "open_by_handle_at",
                                            "userfaultfd",
                                            "perf_event_open",
                                            "chroot"};
        if (!p->seccomp.n) {
                output_line(stdout, "seccomp: no filter (%s)", p->seccomp_how);
                return;
        }
        output_line(stdout, "seccomp: %zu instructions (%zu before crib folded them): %s",
                    p->seccomp.n, p->seccomp.unfolded, p->seccomp_how);
        uint32_t token = seccomp_arch_resolve_name(seccomp_native_arch());
        for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
                int nr = seccomp_syscall_resolve_name_arch(token, calls[i]);
                if (nr == __NR_SCMP_ERROR)
                        continue;
                struct seccomp_data d = {.nr = nr, .arch = token};
                char buf[64];
                output_line(stdout, "  %-18s %s", calls[i],
                            bpf_action_text(bpf_run(p->seccomp.insns, p->seccomp.n, &d), buf,
                                            sizeof buf));
        }
        output_line(stdout, "  (with arguments 0; crib seccomp explain SYSCALL ARGS... tells "
                            "which rule decides)");
}

static void print_limits(const struct plan *p)
{
        const struct cgroup_limits *l = &p->limits;
        output_line(stdout, "AppArmor: %s%s", p->apparmor[0] ? p->apparmor : "none",
                    p->apparmor[0] && !p->apparmor_required ? " (where the kernel has it)" : "");
        if (!p->cgroup) {
                output_line(stdout, "cgroup: none of its own (it stays in crib's)");
        } else {
                output_line(stdout, "cgroup: %s%s%s",
                            p->cgroup_path[0] ? p->cgroup_path
                                              : "a "
                                                "new one under ",
                            p->cgroup_path[0] ? "" : p->cgroup_base,
                            p->cgroup_systemd ? " (a scope systemd delegates first)" : "");
                if (l->memory_max != CGROUP_UNSET)
                        output_line(stdout, "  memory.max %lld", (long long)l->memory_max);
                if (l->pids_max != CGROUP_UNSET)
                        output_line(stdout, "  pids.max %lld", (long long)l->pids_max);
                if (l->cpu_quota)
                        output_line(stdout, "  cpu.max %u %u", l->cpu_quota, l->cpu_period);
                if (p->device_program)
                        output_line(stdout, "  a device program: %zu devices", p->ndevices);
        }
        static const char *const rlimits[] = {
                "cpu",     "fsize", "data",  "stack",      "core",     "rss",  "nproc",  "nofile",
                "memlock", "as",    "locks", "sigpending", "msgqueue", "nice", "rtprio", "rttime"};
        for (size_t i = 0; i < p->nrlimits; i++) {
                int r = p->rlimits[i].resource;
                output_line(stdout, "rlimit %s: soft %llu, hard %llu",
                            r >= 0 && r < 16 ? rlimits[r] : "?",
                            (unsigned long long)p->rlimits[i].lim.rlim_cur,
                            (unsigned long long)p->rlimits[i].lim.rlim_max);
        }
}

static void print_network(const struct plan *p)
{
        output_line(stdout, "network: %s%s%s",
                    p->clone_flags & CLONE_NEWNET ? "its own" : "the host's",
                    p->net_helper ? ", through " : "", p->net_helper ? p->net_helper : "");
        for (size_t i = 0; i < p->nports; i++)
                output_line(stdout, "  publish %s:%u -> %u/%s", p->ports[i].addr,
                            p->ports[i].host_port, p->ports[i].port,
                            p->ports[i].udp ? "udp" : "tcp");
}

/* A store image's part: which image, its layers, and the rootfs crib run would make of them
 * (imgrootfs_predict, the choice crib run makes, asked of the store without writing) */
static void print_image(const char *name, const struct run_request *rq)
{
        const struct store_image *img = rq->found;
        const struct imgrootfs *r = &rq->img;
        output_line(stdout, "image: %s, %s, in the store %s", name, img->id, rq->store_path);
        output_line(stdout, "  %zu layer%s, lowest first:", img->nlayers,
                    img->nlayers == 1 ? "" : "s");
        for (size_t i = 0; i < img->nlayers; i++)
                output_line(stdout, "    %s", img->layers[i]);
        output_line(stdout,
                    "  its container's directory: %s (%s: 32 random hex digits, made by "
                    "crib run, not here)",
                    r->dir, IMGROOTFS_UNMADE_ID);
        unsigned major = 0, minor = 0;
        seccomp_kernel_version(&major, &minor);
        if (r->nlayers)
                output_line(stdout,
                            "  rootfs: an overlay (overlayfs) of the %u layers under an upper "
                            "directory of the container's own, upper/ and work/ there: this "
                            "kernel (%u.%u) and the store's filesystem take it%s",
                            r->nlayers, major, minor,
                            r->idmapped ? "; the layers idmapped, for root's container in a "
                                          "user namespace"
                                        : "");
        else
                output_line(stdout, "  rootfs: a copy of the layers, %.1f MB written, because %s",
                            (double)r->size / 1e6, r->why);
        if (r->unsure)
                output_line(stdout, "  (the store's filesystem did not say without a write "
                                    "whether it takes user extended attributes: crib run tries "
                                    "one, and copies where it does not)");
}

/* Each variable of the environment, for an image's (whose config gives them) */
static void print_env(const struct plan *p)
{
        for (char **e = p->envp; e && *e; e++)
                output_line(stdout, "  env %s", *e);
}

static void print_plan(const char *path, const char *image, const struct run_request *rq,
                       const struct plan *p)
{
        output_line(stdout, "crib plan %s: what crib run would do (nothing was made)", path);
        if (image)
                print_image(image, rq);
        print_namespaces(p);
        if (p->userns) {
                output_line(stdout, "id maps:");
                print_map("uid", &p->uidmap);
                print_map("gid", &p->gidmap);
        }
        print_fs(p);
        print_process(p);
        if (image)
                print_env(p);
        print_caps(p);
        print_seccomp(p);
        print_limits(p);
        print_network(p);
        for (size_t i = 0; i < p->nwarnings; i++) { /* a line after the first: a remedy */
                const char *w = p->warnings[i];
                size_t first = strcspn(w, "\n");
                output_line(stdout, "warning: %.*s", (int)first, w);
                for (const char *l = w + first; *l; l += strcspn(l, "\n")) {
                        l++;
                        output_line(stdout, "  hint: %.*s", (int)strcspn(l, "\n"), l);
                }
        }
}

/* `crib plan` takes crib run's command line (run.c's parser: SPEC [-- PROGRAM ARGS...], or
 * [FLAGS] IMAGE [PROGRAM ARGS...]) and reads the spec as crib run does; an image's directory
 * is what crib run would make, made nowhere (run_image_dir in plan mode). */
int cmd_plan(int argc, char **argv)
{
        struct run_request rq;
        struct error err;
        struct spec spec;
        struct plan_host host;
        struct plan p;
        char image[STORE_REF_MAX + 1] = "";
        error_clear(&err);
        int code = run_parse(argc, argv, true, &rq);
        if (code)
                return code;
        int r = run_read_spec(&rq, &spec, &err);
        if (r != 0) {
                run_release(&rq);
                return r > 0 ? 0 : output_error(&err); /* 1: --print-spec printed it */
        }
        if (spec.image)
                snprintf(image, sizeof image, "%s", spec.image);
        if (run_check_restart(&rq, &spec, &err) < 0 || run_image_dir(&rq, &spec, &err) < 0) {
                run_release(&rq);
                return output_error(&err);
        }
        plan_host_gather(&spec, &host);
        if (rq.detach)
                host.stdin_tty = false; /* crib run -d: its stdin is /dev/null */
        struct plan_opts opts = {.name = rq.name, .unmade_at = image[0] ? rq.store_path : NULL};
        r = plan_build(&spec, &host, &opts, &p, &err);
        spec_free(&spec);
        if (r < 0) {
                run_blame(&rq, &err);
                run_release(&rq);
                return output_error(&err);
        }
        print_plan(rq.path, image[0] ? image : NULL, &rq, &p);
        plan_free(&p);
        run_release(&rq);
        return 0;
}
