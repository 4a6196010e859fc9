/* tunables.c - the kernel settings the setup writes for the container: its sysctls (each of a
 * namespace of its own: spec/sysctlkey.c), its hostname, and its processes' OOM score
 * adjustment (proc(5) /proc/PID/oom_score_adj). Reads only: the namespaces crib runs in, which
 * nothing may be written in, and the namespace files a config joins.
 *
 * A namespace joined by path may be the host's own (a config can name /proc/1/ns/net, or runc's
 * "current" one: the namespace crib itself is in; podman's --ipc=container:X or
 * --uts=container:X where X runs in the host's); a sysctl of its kind there, or the hostname in
 * the host's UTS namespace, would change the host, so it is refused here. runc refuses it for
 * the network namespace only; an IPC or UTS one changed the host's kernel.shm*, msg*,
 * domainname and hostname (the attacker's review). The path is looked up again when it is
 * joined, so the setup checks once more, on the namespace it is in (steps/sysctl.c, uts.c).
 */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/phrase.h"

/* crib's own namespace of `kind` into p->crib_ns[kind] (the setup checks it is not in that one),
 * and whether the container joins that very one by path: 1 when it does, 0 when not, -1 */
static int joins_crib_ns(struct plan *p, enum spec_ns kind, struct error *err)
{
        char self[32];
        struct stat mine, joined;
        snprintf(self, sizeof self, "/proc/self/ns/%s", spec_ns_file(kind));
        if (stat(self, &mine) < 0)
                return error_set(err, errno, "cannot look up crib's namespace '%s'", self);
        p->crib_ns[kind] = (struct plan_ns_id){mine.st_dev, mine.st_ino};
        const char *path = p->join_path[kind];
        return path && stat(path, &joined) == 0 && joined.st_dev == mine.st_dev &&
               joined.st_ino == mine.st_ino;
}

/* An error about the spec's sysctl `key`, where its user finds it: config.json's path, or
 * the spec file's. */
static int sysctl_error(const struct spec *s, const char *key, struct error *err, const char *why)
{
        if (s->front == SPEC_FRONT_OCI)
                return error_at(err, s->path, 0, ".linux.sysctl[\"%s\"]: %s", key, why);
        return error_at(err, s->path, 0, "sysctl '%s': %s", key, why);
}

int plan_sysctls(struct planning *pl, struct error *err)
{
        const struct spec *s = pl->s;
        struct plan *p = pl->p;
        if (!s->nsysctls)
                return 0;
        if (s->nsysctls > SPEC_MAX_SYSCTLS)
                return error_set(err, EINVAL, "more than %d sysctls", SPEC_MAX_SYSCTLS);
        /* the list and its strings in one block: plan_pack() copies it into the arena */
        size_t size = (s->nsysctls + 1) * sizeof(char *);
        for (size_t i = 0; i < s->nsysctls; i++)
                size += strlen(s->sysctls[i].key) + strlen(s->sysctls[i].value) + 2;
        char **v = plan_keep(&pl->sc, calloc(1, size));
        if (!v)
                return error_set(err, ENOMEM, "cannot allocate");
        char *at = (char *)(v + s->nsysctls + 1);
        int own = p->clone_flags | p->join_flags;
        bool checked[SPEC_NNS] = {false};
        for (size_t i = 0; i < s->nsysctls; i++) {
                const struct spec_sysctl *e = &s->sysctls[i];
                struct error why;
                int ns = spec_sysctl_ns(e->key, e->value, &why);
                if (ns < 0)
                        return sysctl_error(s, e->key, err, why.msg);
                int flag = ns == SPEC_NS_NET   ? CLONE_NEWNET
                           : ns == SPEC_NS_IPC ? CLONE_NEWIPC
                                               : CLONE_NEWUTS;
                if (!(own & flag))
                        return sysctl_error(s, e->key, err,
                                            "the container has no namespace of its own for it: "
                                            "it would change the host's");
                if (!checked[ns]) {
                        int r = joins_crib_ns(p, (enum spec_ns)ns, err);
                        if (r < 0)
                                return -1;
                        if (r) {
                                char why_host[512];
                                snprintf(why_host, sizeof why_host,
                                         "the %s namespace the container joins ('%.300s') is "
                                         "the host's: the sysctl would change the host",
                                         spec_ns_title((enum spec_ns)ns), p->join_path[ns]);
                                return sysctl_error(s, e->key, err, why_host);
                        }
                        checked[ns] = true;
                }
                v[i] = at;
                at += sprintf(at, "%s=%s", e->key, e->value) + 1;
        }
        p->sysctl = v;
        return 0;
}

int plan_hostname(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        if (!p->hostname || !p->join_path[SPEC_NS_UTS])
                return 0; /* a new UTS namespace, or none (the spec refuses a hostname then) */
        int r = joins_crib_ns(p, SPEC_NS_UTS, err);
        if (r <= 0)
                return r;
        char why[512];
        snprintf(why, sizeof why,
                 "the UTS namespace the container joins ('%.300s') is the host's: setting the "
                 "hostname there would change the host's",
                 p->join_path[SPEC_NS_UTS]);
        if (pl->s->front == SPEC_FRONT_OCI)
                return error_at(err, pl->s->path, 0, ".hostname: %s", why);
        return phrase_error(err, pl->s, SPEC_KEY_CONTAINER_HOSTNAME, "%s", why);
}

int plan_oom_score_adj(struct planning *pl, struct error *err)
{
        const struct spec *s = pl->s;
        if (!s->oom_score_adj_set)
                return 0;
        if (s->oom_score_adj < -1000 || s->oom_score_adj > 1000)
                return error_set(err, EINVAL, "the OOM score adjustment %d is not in -1000..1000",
                                 s->oom_score_adj);
        pl->p->oom_score_adj_set = true;
        pl->p->oom_score_adj = s->oom_score_adj;
        return 0;
}
