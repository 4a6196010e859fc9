/* tunables.c - the kernel settings the setup writes for the container: its sysctls (each of a
 * namespace of its own: spec/sysctlkey.c) and its processes' OOM score adjustment (proc(5)
 * /proc/PID/oom_score_adj). Reads only: the network namespace crib runs in, which no sysctl may
 * be written in, and the namespace file a config joins.
 *
 * A network namespace joined by path may be the host's own (a config can name /proc/1/ns/net,
 * or runc's "current" one: the namespace crib itself is in); a net.* sysctl there would change
 * the host, so it is refused here, as runc refuses it. The path is looked up again when it is
 * joined, so the setup checks once more, on the namespace it is in (steps/sysctl.c).
 */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        bool net_checked = false;
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
                if (ns == SPEC_NS_NET && !net_checked) {
                        struct stat host, joined;
                        if (stat("/proc/self/ns/net", &host) < 0)
                                return error_set(err, errno,
                                                 "cannot look up crib's network namespace "
                                                 "'/proc/self/ns/net'");
                        p->host_netns_dev = host.st_dev;
                        p->host_netns_ino = host.st_ino;
                        const char *path = p->join_path[SPEC_NS_NET];
                        if (path && stat(path, &joined) == 0 && joined.st_dev == host.st_dev &&
                            joined.st_ino == host.st_ino) {
                                char why_host[512];
                                snprintf(why_host, sizeof why_host,
                                         "the network namespace the container joins ('%.300s') "
                                         "is the host's: the sysctl would change the host",
                                         path);
                                return sysctl_error(s, e->key, err, why_host);
                        }
                        net_checked = true;
                }
                v[i] = at;
                at += sprintf(at, "%s=%s", e->key, e->value) + 1;
        }
        p->sysctl = v;
        return 0;
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
