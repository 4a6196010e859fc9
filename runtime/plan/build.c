/* build.c - the parent's thinking: from a checked spec and the host's facts (struct plan_host)
 * to the plan the container's setup process follows (see plan.h). plan_build() runs the passes
 * of planning in the order of one table, each pass in the file of its job: the namespaces and
 * id maps (ids.c), the process (workload.c), the rootfs and the mounts (fs.c; who else can
 * reach what the container writes: setuid.c), capabilities, seccomp and AppArmor (confine.c),
 * the device nodes and the device program (devices.c), limits and the cgroup (resources.c), the
 * network (net.c).
 *
 * No kernel feature: planning looks up the invoking user, its subordinate ids, the rootfs, the
 * bind sources and the host's device nodes; it reads only, and changes nothing anywhere
 * (seccomp_prepare() too: it takes a program built into crib or compiles one in memory). The
 * plan is built with ordinary allocations, then packed into one block of its own (plan_pack(),
 * file.c). */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One pass: reads the spec and the host, writes its part of the plan. */
struct pass {
        const char *name;
        int (*run)(struct planning *pl, struct error *err);
};

static void scratch_free(struct scratch *sc);

/* The order of planning. Each pass writes its part of the plan; a pass reads only what the rows
 * above it wrote. */
static const struct pass passes[] = {
        /* first: only root may go without a user namespace, and every pass asks which there are */
        {"the namespaces", plan_namespaces},
        /* the spec's command, ids and terminal, as asked: checked and completed below */
        {"the process", plan_process},
        /* before anything that asks whose a file is: the container's ids on the host */
        {"the id maps", plan_ids},
        /* opened once, and checked against the maps: who owns it, who else can reach it */
        {"the rootfs", plan_rootfs},
        /* /proc, /dev and /sys first: the spec's mounts go over them */
        {"crib's own mounts", plan_default_mounts},
        /* the binds checked against the rootfs opened above */
        {"the spec's mounts", plan_spec_mounts},
        /* on crib's /dev, after every mount on it: an OCI config's device nodes */
        {"the device nodes", plan_device_nodes},
        /* HOME by the container's uid, TERM when it has a terminal */
        {"the environment", plan_env},
        /* the bounding set before seccomp: the profile's rules depend on it */
        {"the capabilities", plan_caps},
        /* a level's limits never above crib's own; the spec's refused if crib cannot raise them */
        {"the resource limits", plan_rlimits},
        /* each open in crib now, or the spec fails before anything exists */
        {"the descriptors passed on", plan_pass_fds},
        /* built into crib, or compiled now: the child only loads it */
        {"the seccomp program", plan_seccomp},
        /* the child applies it at exec; here, whether this host has AppArmor at all */
        {"the AppArmor profile", plan_apparmor},
        /* what the host's cgroups can take, or the spec fails (or warns, with prefer) */
        {"the cgroup's limits", plan_limits},
        /* after every mount: the devices the mounts give it are the ones it may open */
        {"the device program", plan_devices},
        /* on the cgroup the device program needs anyway */
        {"a level's bound on processes", plan_default_pids},
        /* where the cgroup goes, if the limits or the device program need one */
        {"the container's cgroup", plan_cgroup},
        /* after the spec's mounts: resolv.conf and hosts unless the spec mounts its own */
        {"the network", plan_network},
        /* after the namespaces: each sysctl's must be the container's own */
        {"the sysctls", plan_sysctls},
        /* after the namespaces too: a UTS namespace joined by path must not be the host's */
        {"the hostname", plan_hostname},
        {"the OOM score adjustment", plan_oom_score_adj},
        /* last: the maps, the limits, a network helper and the front end's hooks decide */
        {"who writes the id maps", plan_self_maps},
};

int plan_build(const struct spec *s, const struct plan_host *h, const struct plan_opts *opts,
               struct plan *ret, struct error *err)
{
        static const struct plan_opts none = {.trace = false};
        const struct plan_opts *o = opts ? opts : &none;
        struct planning pl = {.p = ret, .s = s, .h = h, .o = o, .sc = {.n = 0}, .rootfs = -1};
        struct plan *p = ret;
        int r = 0;
        memset(p, 0, sizeof *p);
        /* what the front end asks */
        p->trace = o->trace || o->explain;
        p->explain = o->explain;
        p->step_mode = o->step;
        p->wait_start = o->wait_start;
        snprintf(p->cgroup_name, sizeof p->cgroup_name, "%s", o->name ? o->name : "");
        p->spec_path = s->path;
        p->front = s->front;
        p->host_uid = h->uid;
        p->host_gid = h->gid;
        /* root of the host: root in a user namespace of its own (unshare -r) is not */
        p->privileged = h->euid == 0 && h->initial_userns;
        /* the hooks the container's processes run: packed below, with everything else */
        for (size_t w = 0; r == 0 && w < PLAN_HOOK_WHENS; w++) {
                if (o->nin_hooks[w] > PLAN_MAX_HOOKS || (o->nin_hooks[w] && !o->hooks)) {
                        r = error_set(err, EINVAL,
                                      "%zu hooks in the container: at most %d, and only with "
                                      "plan_opts.hooks",
                                      o->nin_hooks[w], PLAN_MAX_HOOKS);
                        break;
                }
                for (size_t i = 0; i < o->nin_hooks[w]; i++)
                        p->hooks[w][i] = o->in_hooks[w][i];
                p->nhooks[w] = o->nin_hooks[w];
        }
        p->hook_state = p->nhooks[PLAN_HOOK_SETUP] || p->nhooks[PLAN_HOOK_START]
                                ? (o->hook_state ? o->hook_state : "{}")
                                : NULL;

        for (size_t i = 0; r == 0 && i < sizeof passes / sizeof passes[0]; i++)
                r = passes[i].run(&pl, err);
        struct sock_filter *insns = p->seccomp.insns;
        if (r == 0)
                r = plan_pack(p, err); /* the plan's own copy of the program too */
        free(insns);
        scratch_free(&pl.sc);
        if (pl.rootfs >= 0)
                close(pl.rootfs);
        if (r < 0)
                memset(p, 0, sizeof *p);
        return r;
}

/* What a pass keeps until plan_build() returns, freed then. */
void *plan_keep(struct scratch *sc, void *s)
{
        if (!s || sc->n == sizeof sc->s / sizeof sc->s[0]) {
                free(s);
                return NULL;
        }
        return sc->s[sc->n++] = s;
}

static void scratch_free(struct scratch *sc)
{
        for (size_t i = 0; i < sc->n; i++)
                free(sc->s[i]);
        sc->n = 0;
}

/* A warning for the user, in the plan: cmd/ says it before the container starts. */
void plan_warn(struct plan *p, const char *fmt, ...)
{
        va_list ap;
        if (p->nwarnings == sizeof p->warnings / sizeof p->warnings[0])
                return;
        va_start(ap, fmt);
        vsnprintf(p->warnings[p->nwarnings++], sizeof p->warnings[0], fmt, ap);
        va_end(ap);
}
