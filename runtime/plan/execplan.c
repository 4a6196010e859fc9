/* execplan.c - the plan of `crib exec`: the request checked against the container's plan.
 *
 * Pure: no system call. The container's plan is the one written when it started (file.c);
 * the request says what the exec asks for (crib exec's options, or an OCI process.json), and
 * gets at most what the container's workload has: ids its maps name, a subset of its
 * capabilities, its AppArmor profile, an absolute working directory. enter.c runs the result.
 */
#define _GNU_SOURCE
#include "execplan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/capname.h"
#include "spec/idmap.h"

/* The plan's environment with the request's K=V added or put in place of the same K: in
 * *ret_envp (malloc'd, its strings the plan's and the request's), which stays NULL on an
 * error. */
static int merge_env(const struct plan *p, const struct enter_request *rq, char ***ret_envp,
                     struct error *err)
{
        static char *none[] = {NULL};
        char **base = rq->env_replace ? none : p->envp, **add = rq->env;
        size_t nb = 0, na = 0;
        while (base[nb])
                nb++;
        while (add && add[na])
                na++;
        char **envp = calloc(nb + na + 1, sizeof *envp);
        if (!envp)
                return error_set(err, ENOMEM, "cannot build the environment");
        memcpy(envp, base, nb * sizeof *base);
        size_t n = nb;
        for (size_t i = 0; i < na; i++) {
                const char *eq = strchr(add[i], '=');
                if (!eq || eq == add[i]) {
                        free(envp);
                        error_set(err, 0, "environment entry '%s' is not NAME=VALUE", add[i]);
                        return error_hint(err, "write it as -e NAME=VALUE");
                }
                size_t k = (size_t)(eq - add[i]) + 1;
                size_t j = 0;
                while (j < n && strncmp(envp[j], add[i], k))
                        j++;
                envp[j] = add[i];
                if (j == n)
                        n++;
        }
        *ret_envp = envp;
        return 0;
}

/* The request's ids: each mapped in the container's user namespace (when it has one), and
 * supplementary groups only where the container may set them. */
static int check_ids(const struct plan *p, const struct enter_request *rq, struct error *err)
{
        if (rq->user_set && p->userns) {
                if (idmap_outside(&p->uidmap, rq->uid) < 0 ||
                    idmap_outside(&p->gidmap, rq->gid) < 0) {
                        error_set(err, 0, "%s %u is not mapped in the container",
                                  idmap_outside(&p->uidmap, rq->uid) < 0 ? "uid" : "gid",
                                  idmap_outside(&p->uidmap, rq->uid) < 0 ? (unsigned)rq->uid
                                                                         : (unsigned)rq->gid);
                        return error_hint(err, "the container's ids are those its uid and gid "
                                               "maps name ('crib run --trace' shows them)");
                }
        }
        for (size_t i = 0; rq->groups_set && i < rq->ngroups; i++)
                if (p->userns && idmap_outside(&p->gidmap, rq->groups[i]) < 0) {
                        error_set(err, 0, "supplementary group %u is not mapped in the container",
                                  (unsigned)rq->groups[i]);
                        return error_hint(err, "the container's ids are those its gid map names");
                }
        if (rq->groups_set && rq->ngroups && !p->set_groups) {
                error_set(err, 0,
                          "the container cannot set supplementary groups (its user "
                          "namespace denies setgroups)");
                return error_hint(err, "ask for none (additionalGids)");
        }
        return 0;
}

/* The request against the plan: a program, ids the container has (check_ids), a subset of
 * its capabilities, its AppArmor profile, an absolute working directory. */
static int check_request(const struct plan *p, const struct enter_request *rq, struct error *err)
{
        if (!rq->argv || !rq->argv[0] || !rq->argv[0][0])
                return error_set(err, 0, "'crib exec' needs a program to run");
        if (check_ids(p, rq, err) < 0)
                return -1;
        if (rq->caps_set && (rq->caps & ~p->cap_bounding)) {
                uint64_t more = rq->caps & ~p->cap_bounding;
                int cap = __builtin_ctzll(more);
                error_set(err, 0,
                          "capability %d (%s) is not in the container's bounding set: an exec "
                          "gets at most what a process of the container can have",
                          cap, capname_of(cap));
                return error_hint(err, "ask for a subset of the container's set, or create the "
                                       "container with it");
        }
        if (rq->apparmor && rq->apparmor[0] && strcmp(rq->apparmor, p->apparmor)) {
                error_set(err, 0, "AppArmor profile '%s' is not the container's ('%s')",
                          rq->apparmor, p->apparmor[0] ? p->apparmor : "none");
                return error_hint(err, "an exec runs under the container's profile");
        }
        if (rq->cwd && rq->cwd[0] != '/') {
                error_set(err, 0, "working directory '%s' is not an absolute path", rq->cwd);
                return error_hint(err, "give the directory inside the container from its root, "
                                       "such as /tmp");
        }
        return 0;
}

/* The exec's capability sets: the request's (checked to be a subset of the container's), or
 * the container's rule for the exec's uid. */
static void exec_caps(const struct enter_request *rq, struct plan *q)
{
        if (rq->caps_set) {
                q->cap_bounding = q->cap_permitted = q->cap_effective = rq->caps;
                bool none = q->uid != 0 && rq->caps_no_ambient;
                q->cap_inheritable = q->cap_ambient = q->uid == 0 || none ? 0 : rq->caps;
                if (none)
                        q->cap_permitted = q->cap_effective = 0;
                if (rq->caps_sets) {
                        /* a process.json's own sets, each within its bounding set, checked
                         * against the container's above (oci/ociprocess.c) */
                        q->cap_effective = rq->caps_effective;
                        q->cap_permitted = rq->caps_permitted;
                        q->cap_inheritable = rq->caps_inheritable;
                        q->cap_ambient = rq->caps_ambient;
                }
        } else if (!q->caps_sets) {
                /* the workload's rule for the exec's uid: -u 1000 gets only what the spec
                 * named, -u 0 the bounding set, whatever the workload's own uid is */
                plan_caps_for_uid(q, q->uid);
        }
        /* else an engine's config: the workload's own five sets, kept from the plan (runc
         * exec without --cap); the kernel makes of them what it does for the exec's uid */
}

/* The request, checked, in place in the exec's plan `q` (a copy of the container's `p`). */
static void apply_request(const struct plan *p, const struct enter_request *rq, struct plan *q)
{
        q->argv = rq->argv;
        if (rq->cwd)
                q->cwd = rq->cwd;
        if (rq->user_set) {
                q->uid = rq->uid;
                q->gid = rq->gid;
                q->groups = NULL; /* no supplementary groups, where they can be set */
                q->ngroups = 0;
        }
        if (rq->groups_set) {
                q->groups = rq->groups;
                q->ngroups = rq->ngroups;
        }
        exec_caps(rq, q);
        q->no_new_privs = p->no_new_privs || rq->no_new_privs;
        if (rq->limits_set) {
                size_t n = rq->nlimits < SPEC_NLIMITS ? rq->nlimits : SPEC_NLIMITS;
                memcpy(q->rlimits, rq->limits, n * sizeof *rq->limits);
                q->nrlimits = n;
        }
        q->terminal = rq->tty;
        q->init = false;
        q->pass_fds = NULL;
        q->npass_fds = 0;
}

/* The exec's plan: the container's, with the request's program, environment, working
 * directory and ids, a terminal when asked, no init and none of `crib run`'s pass_fds. *ret is
 * `p` with those in place; its environment is *ret_envp (malloc'd, the caller's to free), NULL
 * on an error. */
int plan_exec(const struct plan *p, const struct enter_request *rq, struct plan *ret,
              char ***ret_envp, struct error *err)
{
        *ret_envp = NULL;
        if (check_request(p, rq, err) < 0 || merge_env(p, rq, ret_envp, err) < 0)
                return -1;
        *ret = *p;
        ret->envp = *ret_envp;
        apply_request(p, rq, ret);
        return 0;
}
