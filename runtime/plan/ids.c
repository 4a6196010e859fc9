/* ids.c - the container's namespaces, and its user namespace's id maps (user_namespaces(7)):
 * which host ids it gets (the caller's own, its ranges in /etc/subuid and /etc/subgid, root's
 * range, or what a nested root has mapped in its own), whether setgroups(2) must be denied,
 * whether the container's user and groups are mapped at all, and who writes the maps: the
 * child itself, when they map only the caller's own ids, or the parent. Reads only. */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "host/account.h"
#include "base/cleanup.h"
#include "spec/phrase.h"

/* The ranges the id maps may take ids from (idmap_resolve), as the spec's maps need them. */
struct subids {
        struct idmap_range uids[IDMAP_MAX_SUBIDS], gids[IDMAP_MAX_SUBIDS];
        size_t nuids, ngids;
        /* root of a nested user namespace maps what is mapped in its own, itself */
        bool own_uids, own_gids;
};

static int plan_subids(const struct plan *p, const struct spec *s, const struct plan_host *h,
                       struct subids *ret, struct error *err)
{
        const char *user = NULL;
        struct account acct;

        /* the user's name, to find its lines in /etc/subuid; only when a map may need them
         * (reading /etc/passwd is not free) */
        /* root maps its own range, by default and for `auto` */
        bool uid_map = spec_in_file(s, SPEC_KEY_IDMAP_UID);
        bool gid_map = spec_in_file(s, SPEC_KEY_IDMAP_GID);
        bool root_range =
                p->privileged && (!uid_map || s->uidmap.is_auto || !gid_map || s->gidmap.is_auto);
        if (uid_map || gid_map || root_range) {
                account_of(p->host_uid, &acct);
                user = acct.name[0] ? acct.name : NULL;
        }
        /* root of a user namespace that is not the host's (rootless podman runs crib so): it
         * may map what is mapped in its own, writing the maps itself (the kernel's rule for a
         * writer with CAP_SETUID and CAP_SETGID there), not the host's /etc/subuid ranges */
        bool nested_root = h->euid == 0 && !h->initial_userns;
        ret->own_uids = nested_root && uid_map && !s->uidmap.is_auto;
        ret->own_gids = nested_root && gid_map && !s->gidmap.is_auto;
        if (ret->own_uids) {
                memcpy(ret->uids, h->own_uids, h->nown_uids * sizeof ret->uids[0]);
                ret->nuids = h->nown_uids;
                uid_map = false;
        }
        if (ret->own_gids) {
                memcpy(ret->gids, h->own_gids, h->nown_gids * sizeof ret->gids[0]);
                ret->ngids = h->nown_gids;
                gid_map = false;
        }
        /* only read /etc/subuid when the map may need it */
        if (uid_map && !p->privileged) {
                _cleanup_fclose_ FILE *f = fopen("/etc/subuid", "re");
                if (f && idmap_read_subids(f, user, p->host_uid, ret->uids, &ret->nuids, err) < 0)
                        return error_wrap(err, "/etc/subuid");
        }
        if (gid_map && !p->privileged) {
                _cleanup_fclose_ FILE *f = fopen("/etc/subgid", "re");
                if (f && idmap_read_subids(f, user, p->host_uid, ret->gids, &ret->ngids, err) < 0)
                        return error_wrap(err, "/etc/subgid");
        }
        if (root_range) {
                /* root's own ranges (crib gives it one when it has none: cmd/main.c) */
                _cleanup_fclose_ FILE *fu = fopen("/etc/subuid", "re");
                _cleanup_fclose_ FILE *fg = fopen("/etc/subgid", "re");
                if (fu)
                        idmap_read_subids(fu, user, p->host_uid, ret->uids, &ret->nuids, err);
                if (fg)
                        idmap_read_subids(fg, user, p->host_uid, ret->gids, &ret->ngids, err);
        }
        return 0;
}

/* The container's user, groups and supplementary groups are mapped, and can be set. */
static int plan_ids_mapped(struct plan *p, const struct spec *s, struct error *err)
{
        char where[PATH_MAX + 64];
        if (p->privileged && idmap_maps_host_root(&p->uidmap))
                plan_warn(p,
                          "the spec maps host uid 0 into the container (%s): a process there that "
                          "is host root can change the host's files, devices and kernel settings "
                          "it can reach",
                          phrase_where(s, SPEC_KEY_IDMAP_UID, s->uidmap.line, where, sizeof where));
        char change[512];
        if (idmap_outside(&p->uidmap, s->uid) < 0) {
                phrase_error(err, s, SPEC_KEY_PROCESS_USER,
                             "uid %u is not mapped into the container", s->uid);
                return error_hint(err, "%s, or run as a mapped user such as 0",
                                  phrase_change(s->front, SPEC_KEY_IDMAP_UID, PHRASE_ON, change,
                                                sizeof change));
        }
        if (idmap_outside(&p->gidmap, s->gid) < 0) {
                phrase_error(err, s, SPEC_KEY_PROCESS_USER,
                             "gid %u is not mapped into the container", s->gid);
                return error_hint(err, "%s",
                                  phrase_change(s->front, SPEC_KEY_IDMAP_GID, PHRASE_ON, change,
                                                sizeof change));
        }
        for (size_t i = 0; i < s->ngroups; i++)
                if (idmap_outside(&p->gidmap, s->groups[i]) < 0)
                        return phrase_error(err, s, SPEC_KEY_PROCESS_GROUPS,
                                            "group %u is not mapped into the container",
                                            s->groups[i]);
        if (s->groups_set && p->deny_setgroups) {
                phrase_error(err, s, SPEC_KEY_PROCESS_GROUPS,
                             "supplementary groups need setgroups(2), which the kernel denies "
                             "with an unprivileged single-gid map");
                return error_hint(err, "%s",
                                  phrase_change(s->front, SPEC_KEY_PROCESS_GROUPS, PHRASE_ON,
                                                change, sizeof change));
        }
        return 0;
}

/* The id maps of the container's user namespace, and whether setgroups(2) must be denied. */
static int plan_maps(struct plan *p, const struct spec *s, const struct plan_host *h,
                     struct error *err)
{
        struct subids sub = {.nuids = 0};

        if (plan_subids(p, s, h, &sub, err) < 0)
                return -1;
        if (idmap_resolve(s, &s->uidmap, "uid", p->host_uid, p->privileged, sub.uids, sub.nuids,
                          &p->uidmap, err) < 0 ||
            idmap_resolve(s, &s->gidmap, "gid", p->host_gid, p->privileged, sub.gids, sub.ngids,
                          &p->gidmap, err) < 0)
                return -1;
        if (sub.own_uids)
                p->uidmap.use_helper = false;
        if (sub.own_gids)
                p->gidmap.use_helper = false;
        /* unprivileged single-id maps need "deny" (root of a nested namespace writes its own
         * ranges with CAP_SETGID, and need not); and under a user namespace that already
         * denies setgroups (crib run inside `unshare -r`), every nested one denies it too */
        p->deny_setgroups =
                (!p->privileged && !sub.own_gids && !p->gidmap.use_helper) || h->setgroups_denied;
        return plan_ids_mapped(p, s, err);
}

/* A joined user namespace's maps are what they are (nsfiles.c read them); the config's, if it
 * gives any, must say the same (runc's rule). */
static int plan_joined_maps(struct plan *p, const struct spec *s, const struct plan_host *h,
                            struct error *err)
{
        const char *path = s->ns_path[SPEC_NS_USER];
        if (h->joined_maps < 0) {
                phrase_error(err, s, SPEC_KEY_NAMESPACES_USER,
                             "cannot read the id maps of the user namespace '%s': %s", path,
                             strerror(-h->joined_maps));
                return error_hint(err, "joining a user namespace needs CAP_SYS_ADMIN in it: run "
                                       "the runtime as root of its parent namespace");
        }
        p->uidmap = h->joined_uidmap;
        p->gidmap = h->joined_gidmap;
        const struct spec_idmap *given[2] = {&s->uidmap, &s->gidmap};
        const struct idmap *found[2] = {&p->uidmap, &p->gidmap};
        const enum spec_key keys[2] = {SPEC_KEY_IDMAP_UID, SPEC_KEY_IDMAP_GID};
        for (int m = 0; m < 2; m++) {
                bool same = given[m]->n == found[m]->n;
                for (size_t i = 0; same && i < given[m]->n; i++)
                        same = given[m]->ranges[i].inside == found[m]->r[i].inside &&
                               given[m]->ranges[i].outside == found[m]->r[i].outside &&
                               given[m]->ranges[i].count == found[m]->r[i].count;
                if (given[m]->n && !same)
                        return phrase_error(err, s, keys[m],
                                            "does not match the maps of the joined user "
                                            "namespace '%s' (leave it out to take them)",
                                            path);
        }
        p->deny_setgroups = h->joined_setgroups_denied;
        return plan_ids_mapped(p, s, err);
}

int plan_ids(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        if (p->join_flags & CLONE_NEWUSER) {
                if (plan_joined_maps(p, pl->s, pl->h, err) < 0)
                        return -1;
        } else if (p->userns && plan_maps(p, pl->s, pl->h, err) < 0) {
                return -1;
        }
        /* clear the host's supplementary groups, unless the kernel forbids setgroups(2) */
        p->set_groups = !p->deny_setgroups;
        return 0;
}

/* May the child write its own id maps (and limits)? The kernel lets a process in the new user
 * namespace map its own euid and egid alone, the gid only with setgroups denied. Root's child
 * has no capability left in the parent namespace, so root's limits stay with the parent. */
int plan_self_maps(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct plan_host *h = pl->h;
        const struct idmap *u = &p->uidmap, *g = &p->gidmap;
        (void)err;
        p->self_maps = p->userns && !(p->join_flags & CLONE_NEWUSER) && u->n == 1 &&
                       !u->use_helper && u->r[0].count == 1 && u->r[0].outside == h->euid &&
                       g->n == 1 && !g->use_helper && g->r[0].count == 1 &&
                       g->r[0].outside == h->egid && p->deny_setgroups &&
                       !(p->privileged && p->nrlimits) &&
                       /* a helper joins the namespaces, or the front end's hooks run, before
                        * the setup goes on: the parent says when (GO), and writes the maps */
                       !p->net_helper && !pl->o->hooks &&
                       /* the parent makes the workload's user namespace in this one, once
                        * it is mapped (nestns.c) */
                       !p->nest_early;
        return 0;
}

/* By enum spec_ns: the flag of each namespace, its key, and its name in messages. */
static const struct {
        int flag;
        enum spec_key key;
        const char *name;
} joinable[SPEC_NNS] = {
        [SPEC_NS_USER] = {CLONE_NEWUSER, SPEC_KEY_NAMESPACES_USER, "user"},
        [SPEC_NS_PID] = {CLONE_NEWPID, SPEC_KEY_NAMESPACES_PID, "pid"},
        [SPEC_NS_IPC] = {CLONE_NEWIPC, SPEC_KEY_NAMESPACES_IPC, "ipc"},
        [SPEC_NS_UTS] = {CLONE_NEWUTS, SPEC_KEY_NAMESPACES_UTS, "uts"},
        [SPEC_NS_NET] = {CLONE_NEWNET, SPEC_KEY_NAMESPACES_NET, "network"},
        [SPEC_NS_CGROUP] = {CLONE_NEWCGROUP, SPEC_KEY_NAMESPACES_CGROUP, "cgroup"},
};

/* The namespaces joined by path: each file is a namespace of its entry's type (the launch
 * checks again the one it opens), and none is made new. */
static int plan_joined(struct plan *p, const struct spec *s, const struct plan_host *h,
                       struct error *err)
{
        for (int i = 0; i < SPEC_NNS; i++) {
                const char *path = s->ns_path[i];
                if (!path)
                        continue;
                if (h->ns_type[i] == -ENOTTY)
                        return phrase_error(err, s, joinable[i].key,
                                            "'%s' is not a namespace file (a /proc/PID/ns/ file, "
                                            "or a bind mount of one)",
                                            path);
                if (h->ns_type[i] < 0)
                        return phrase_error(err, s, joinable[i].key, "cannot open '%s': %s", path,
                                            strerror(-h->ns_type[i]));
                if (h->ns_type[i] != joinable[i].flag)
                        return phrase_error(err, s, joinable[i].key, "'%s' is not a %s namespace",
                                            path, joinable[i].name);
                p->join_path[i] = s->ns_path[i];
                p->join_flags |= joinable[i].flag;
                p->clone_flags &= ~joinable[i].flag;
        }
        /* a new user namespace owns nothing that exists: the /proc of a joined pid namespace
         * could not be mounted from it (the kernel wants CAP_SYS_ADMIN where that namespace
         * belongs) */
        if ((p->join_flags & CLONE_NEWPID) && (p->clone_flags & CLONE_NEWUSER)) {
                phrase_error(err, s, SPEC_KEY_NAMESPACES_PID,
                             "the pid namespace '%s' is joined, but the user namespace is a new "
                             "one, which cannot mount its /proc",
                             s->ns_path[SPEC_NS_PID]);
                return error_hint(err, "join the user namespace that owns it too (its path in "
                                       ".linux.namespaces), or make the pid namespace new");
        }
        return 0;
}

/* Which namespaces the container gets: outside a user namespace, only root may make them. */
int plan_namespaces(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        p->userns = s->ns_user;
        if (!p->userns && pl->h->euid != 0) {
                char change[256];
                phrase_error(err, s, SPEC_KEY_NAMESPACES_USER,
                             "%s needs root: only root may create namespaces outside a user "
                             "namespace",
                             phrase_off(s->front, SPEC_KEY_NAMESPACES_USER));
                return error_hint(err, "%s",
                                  phrase_change(s->front, SPEC_KEY_NAMESPACES_USER, PHRASE_ON,
                                                change, sizeof change));
        }
        p->clone_flags = CLONE_NEWNS | (s->ns_user ? CLONE_NEWUSER : 0) |
                         (s->ns_pid ? CLONE_NEWPID : 0) | (s->ns_ipc ? CLONE_NEWIPC : 0) |
                         (s->ns_uts ? CLONE_NEWUTS : 0) | (s->ns_net ? CLONE_NEWNET : 0) |
                         (s->ns_cgroup ? CLONE_NEWCGROUP : 0);
        return plan_joined(p, s, pl->h, err);
}
