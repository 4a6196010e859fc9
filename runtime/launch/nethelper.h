/* nethelper.h - the container's user-mode network helper (slirp4netns or pasta): started by the
 * parent for the container's network namespace, stopped with the container. See nethelper.c. */
#ifndef CRIB_NETHELPER_H
#define CRIB_NETHELPER_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/error.h"
#include "plan/plan.h"
#include "base/trace.h"

struct nethelper {
        pid_t pid;  /* the helper, our child; -1: none (or reaped) */
        int exit_w; /* slirp4netns --exit-fd: when this end closes, it exits; -1 */
        int log;    /* the helper's stdout and stderr (a memfd, bounded once it runs); -1 */
        /* slirp4netns's API socket's private directory while ports are added; DIR/api.sock must
         * fit in sun_path (108 bytes) */
        char dir[99];
        bool died;  /* it exited while the container ran */
        int status; /* its wait status, once reaped */
};

void nethelper_init(struct nethelper *h);

/* Parent, before the clone: each published host port can be bound now (by no one else), so a
 * port taken is an error at the spec's publish line before anything starts; and root's helper
 * can run as the container's root, not as host root (nethelper_id.h: struct nethelper_identity),
 * and bind each of them as that. */
int nethelper_check_ports(const struct plan *p, struct error *err);

/* Parent, after the clone and the id maps, before GO: start the helper for the namespaces of
 * `pid` (in the cgroup `cgroup_fd`, unless -1), wait until it is ready (bounded; a signal on
 * `sigfd` other than SIGCHLD aborts), and publish the ports. Nothing to do without a helper. */
int nethelper_start(const struct plan *p, pid_t pid, int cgroup_fd, int sigfd, struct nethelper *h,
                    struct trace *t, struct error *err);

/* Parent, on SIGCHLD: reap the helper if it has exited; true when it just did. */
bool nethelper_reap(struct nethelper *h);

/* Why the helper exited, and its last words, for a warning. */
void nethelper_describe(const struct nethelper *h, char *buf, size_t len);

/* Parent: stop the helper (however the container ended) and wait for it. */
void nethelper_stop(struct nethelper *h, struct trace *t);

#endif
