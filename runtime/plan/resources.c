/* resources.c - the limits the container gets: [limits] as setrlimit(2) sets them, and
 * [resources] as its cgroup's (cgroups(7): memory, cpu, pids, io, cpuset), where the host's cgroup
 * v2 hierarchy can take them; and where that cgroup goes, crib's own base or an engine's path.
 *
 * Resources: where the container's cgroup goes, and which limits it gets. What cannot be
 * applied fails the spec, or with resources_mode = prefer is dropped with a warning. */
#define _GNU_SOURCE
#include "build.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "spec/phrase.h"

/* A level's bound on processes ([limits] nproc: 2048 at the default level) is RLIMIT_NPROC in a
 * user namespace, where the kernel (Linux 5.14 and later) counts each container uid's processes
 * and threads in that namespace alone, and container root has no host CAP_SYS_RESOURCE to pass
 * it. Without one (user = no) the limit binds no one: real root is exempt, and any other uid's
 * count is of its processes on the whole host. There a level's bound becomes the pids.max of the
 * cgroup crib makes anyway for the device program (plan_default_pids); the spec's own nproc stays
 * what it says, RLIMIT_NPROC. */
static bool plan_nproc_as_pids(const struct plan *p, const struct spec *s, int resource)
{
        return resource == RLIMIT_NPROC && !p->userns &&
               spec_origin(s, SPEC_KEY_LIMITS_NPROC)->kind == SPEC_FROM_LEVEL;
}

/* [limits]: what the child (or for root the parent) sets with setrlimit(2). A level's limit is
 * a ceiling, never above crib's own; the spec's own is a demand, refused when crib cannot raise
 * its hard limit that far. */
int plan_rlimits(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        for (int r = 0; r < SPEC_NLIMITS; r++) {
                const struct spec_limit *l = &s->limits[r];
                const struct rlimit cur = h->rlimits[r];
                if (!l->set || plan_nproc_as_pids(p, s, r))
                        continue;
                uint64_t soft = l->soft, hard = l->hard;
                /* crib's own hard limit is in the way, and it may not raise it */
                bool above = h->rlimit_known[r] && hard > cur.rlim_max && !h->cap_sys_resource;
                if (above && !spec_in_file(s, spec_limit_key(r))) {
                        /* a level's limit is a ceiling, not a demand: never above the caller's */
                        hard = cur.rlim_max;
                        if (soft > hard)
                                soft = hard;
                } else if (above) {
                        char have[32];
                        if (cur.rlim_max == RLIM_INFINITY)
                                snprintf(have, sizeof have, "unlimited");
                        else
                                snprintf(have, sizeof have, "%llu",
                                         (unsigned long long)cur.rlim_max);
                        phrase_error(err, s, spec_limit_key(r),
                                     "limit '%s' asks for a hard limit above your own (%s); only "
                                     "root (with CAP_SYS_RESOURCE) can raise it",
                                     spec_limit_name(r), have);
                        char most[160];
                        return error_hint(err,
                                          "ask for %s, or raise your own hard limit first "
                                          "(/etc/security/limits.conf)",
                                          phrase_at_most(s->front, spec_limit_key(r),
                                                         spec_limit_name(r), have, most,
                                                         sizeof most));
                }
                p->rlimits[p->nrlimits].resource = r;
                p->rlimits[p->nrlimits].lim.rlim_cur = soft;
                p->rlimits[p->nrlimits].lim.rlim_max = hard;
                p->nrlimits++;
        }
        return 0;
}

/* The keys that set each controller's limits, SPEC_NKEYS past the last */
static const enum spec_key ctrl_keys[CGROUP_NCTRL][5] = {
        [CGROUP_MEMORY] = {SPEC_KEY_RESOURCES_MEMORY, SPEC_KEY_RESOURCES_MEMORY_HIGH,
                           SPEC_KEY_RESOURCES_MEMORY_SWAP, SPEC_KEY_RESOURCES_MEMORY_LOW,
                           SPEC_NKEYS},
        [CGROUP_CPU] = {SPEC_KEY_RESOURCES_CPUS, SPEC_KEY_RESOURCES_CPU_WEIGHT, SPEC_NKEYS},
        [CGROUP_PIDS] = {SPEC_KEY_RESOURCES_PIDS, SPEC_NKEYS},
        [CGROUP_IO] = {SPEC_KEY_RESOURCES_IO_WEIGHT, SPEC_NKEYS},
        [CGROUP_CPUSET] = {SPEC_KEY_RESOURCES_CPUSET_CPUS, SPEC_KEY_RESOURCES_CPUSET_MEMS,
                           SPEC_NKEYS},
};

/* Why controller k cannot take the limits here (NULL: it can), and the fix. */
static const char *limits_why(const struct cgroup_host *c, int k, const char **ret_fix)
{
        if (!(c->available & CGROUP_BIT(k))) {
                *ret_fix = c->ctrl_fix[k];
                return c->ctrl_why[k];
        }
        if (!c->clone_into) {
                *ret_fix = "use a newer kernel (Debian bullseye's 5.10 and later have it)";
                return "crib needs clone3(2) with CLONE_INTO_CGROUP for them (Linux 5.7)";
        }
        return NULL;
}

/* The limits of the controllers in `ctrls` that cannot be applied for one reason, `why`: the
 * spec's error naming the keys that set them, or with resources_mode = prefer, a warning and
 * the limits dropped. */
static int limits_fail(struct plan *p, const struct spec *s, unsigned ctrls, const char *why,
                       const char *fix, struct error *err)
{
        enum spec_key keys[16];
        size_t n = 0;
        char names[64] = "", change[512];
        unsigned left = ctrls;
        for (int k = 0; k < CGROUP_NCTRL; k++) {
                if (!(ctrls & CGROUP_BIT(k)))
                        continue;
                left &= ~CGROUP_BIT(k);
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                         !names[0] ? ""
                         : left    ? ", "
                                   : " and ",
                         cgroup_ctrl_name(k));
                for (const enum spec_key *key = ctrl_keys[k]; *key != SPEC_NKEYS; key++)
                        if (spec_in_file(s, *key) && n < sizeof keys / sizeof keys[0])
                                keys[n++] = *key;
        }
        if (!n) /* asked for by no key of the spec's own (it has none): the section */
                keys[n++] = SPEC_KEY_RESOURCES_MODE;
        if (s->resources_require) {
                phrase_error(err, s, keys[0], "the %s limits cannot be applied: %s", names, why);
                return error_hint(
                        err, "%s; or run without the %s limits: %s", fix, names,
                        phrase_change_all(s->front, keys, n, PHRASE_OFF, change, sizeof change));
        }
        plan_warn(p, "the %s limits are skipped: %s\n%s", names, why, fix);
        p->limits.need &= ~ctrls;
        if (ctrls & CGROUP_BIT(CGROUP_MEMORY))
                p->limits.memory_max = p->limits.memory_high = p->limits.memory_swap =
                        p->limits.memory_low = CGROUP_UNSET;
        if (ctrls & CGROUP_BIT(CGROUP_PIDS))
                p->limits.pids_max = CGROUP_UNSET;
        if (ctrls & CGROUP_BIT(CGROUP_IO))
                p->limits.io_weight = 0;
        if (ctrls & CGROUP_BIT(CGROUP_CPU))
                p->limits.cpu_quota = p->limits.cpu_weight = 0;
        if (ctrls & CGROUP_BIT(CGROUP_CPUSET))
                p->limits.cpuset_cpus[0] = p->limits.cpuset_mems[0] = '\0';
        return 0;
}

/* Each limit the host cannot take, the controllers that share a reason together: the reason
 * most basic first (host/cgroupfacts.c: the kernel, the boot command line, cgroup v1,
 * delegation). */
int plan_limits(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        const struct cgroup_host *c = &h->cgroup;
        p->limits = s->resources;
        unsigned left = p->limits.need; /* the controllers not yet said */
        for (int k = 0; k < CGROUP_NCTRL; k++) {
                const char *fix, *other_fix, *why;
                if (!(left & CGROUP_BIT(k)) || !(why = limits_why(c, k, &fix)))
                        continue;
                unsigned same = 0;
                for (int j = k; j < CGROUP_NCTRL; j++) {
                        const char *w =
                                (left & CGROUP_BIT(j)) ? limits_why(c, j, &other_fix) : NULL;
                        if (w && !strcmp(w, why))
                                same |= CGROUP_BIT(j);
                }
                left &= ~same;
                if (limits_fail(p, s, same, why, fix, err) < 0)
                        return -1;
        }
        return 0;
}

/* `path` is `dir` or below it */
static bool below(const char *path, const char *dir)
{
        size_t n = strlen(dir);
        return n && !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/* An engine's cgroupsPath (an OCI config's, as cgroup_oci_path() read it: no "." or ".."
 * components): the container's cgroup goes there. Where crib cannot put it there (no cgroup v2,
 * no clone3 into a cgroup, a path outside what is delegated to a user) the container runs as it
 * would without one, and crib says so: it is a placement, and the limits fail closed on their
 * own (plan_limits). Root may use any path of the hierarchy, as runc does; a user only one
 * below the parent of crib's own cgroup, where it may make cgroups. */
static void plan_cgroup_path(struct plan *p, const struct spec *s, const struct plan_host *h)
{
        const struct cgroup_host *c = &h->cgroup;
        char full[1024];
        const char *why = NULL;
        int n = -1;
        if (!c->v2 || !c->mount[0])
                why = c->why[0] ? c->why : "no cgroup v2 hierarchy is mounted";
        else if (!c->clone_into)
                why = "crib needs clone3(2) with CLONE_INTO_CGROUP for it (Linux 5.7)";
        else if (s->cgroups_path[0] != '/' && !c->own_parent[0])
                why = "it is relative to crib's own cgroup, which is unknown";
        else if (s->cgroups_path[0] == '/')
                n = snprintf(full, sizeof full, "%s%s", c->mount, s->cgroups_path);
        else
                n = snprintf(full, sizeof full, "%s/%s", c->own_parent, s->cgroups_path);
        if (!why && (n < 0 || (size_t)n >= sizeof full))
                why = "the path is too long";
        else if (!why && p->privileged && below(full, c->base))
                why = "it is the cgroup crib keeps for its own containers' names";
        else if (!why && !p->privileged &&
                 (!below(full, c->own_parent) || !strcmp(full, c->own_parent) ||
                  faccessat(AT_FDCWD, c->own_parent, W_OK, AT_EACCESS) < 0))
                why = "it is not below the cgroup this user may make cgroups in (the parent of "
                      "crib's own)";
        if (why) {
                plan_warn(p,
                          "the container's cgroup is not where the engine asked (cgroupsPath "
                          "'%s'): %s",
                          s->cgroups_path, why);
                return;
        }
        snprintf(p->cgroup_path, sizeof p->cgroup_path, "%s", full);
        snprintf(p->cgroup_top, sizeof p->cgroup_top, "%s",
                 p->privileged ? c->mount : c->own_parent);
        p->cgroup = true;
        p->cgroup_systemd = false;
        p->cgroup_unit = false;
}

/* user = no: a level's bound on processes (nproc_as_pids) as the pids.max of the cgroup the
 * device program needs anyway, unless the spec's [resources] says pids itself. No cgroup is
 * made for it alone (a start would cost a cgroup more): without a device program, or without
 * the pids controller, there is no bound, as crib.ini(5) says. */
int plan_default_pids(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        (void)err;
        const struct spec_limit *l = &s->limits[RLIMIT_NPROC];
        const struct rlimit *own = &h->rlimits[RLIMIT_NPROC];
        if (!l->set || !plan_nproc_as_pids(p, s, RLIMIT_NPROC) || l->hard == RLIM_INFINITY ||
            !p->device_program || (p->limits.need & CGROUP_BIT(CGROUP_PIDS)) ||
            !(h->cgroup.available & CGROUP_BIT(CGROUP_PIDS)))
                return 0;
        uint64_t max = l->hard;
        /* a level's limit is a ceiling, as for the other limits (plan_rlimits) */
        if (h->rlimit_known[RLIMIT_NPROC] && !h->cap_sys_resource && max > own->rlim_max)
                max = own->rlim_max;
        if (max == RLIM_INFINITY || max > INT64_MAX)
                return 0;
        p->limits.pids_max = (int64_t)max;
        p->limits.need |= CGROUP_BIT(CGROUP_PIDS);
        return 0;
}

/* The container's cgroup: for its limits, for a real-root container's device program, and
 * where an engine asks for one. */
int plan_cgroup(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        const struct cgroup_host *c = &h->cgroup;
        (void)err;
        p->cgroup = p->limits.need || p->device_program;
        if (p->cgroup) {
                snprintf(p->cgroup_base, sizeof p->cgroup_base, "%s", c->base);
                p->cgroup_systemd = c->systemd;
                p->cgroup_unit = c->unit;
        }
        if (s->cgroups_path)
                plan_cgroup_path(p, s, h);
        return 0;
}
