/* nethelper_id.c - who the network helper runs as, and the host ports it will publish,
 * checked in the parent before the clone.
 *
 * Kernel features: user namespaces (user_namespaces(7)) and bind(2). Root's container in a user
 * namespace has its helper run as the container's own root, never host root (nethelper_id.h:
 * struct nethelper_identity); this says where that cannot be (container root unmapped, or
 * mapped to host root; the workload able to trace the helper). Then each published host port
 * is bound once, by crib, as the helper would bind it: a port taken (EADDRINUSE), one below
 * net.ipv4.ip_unprivileged_port_start for a helper that is not host root, an address this
 * machine does not have, is an error at the spec's publish line before anything starts, with
 * its remedy. The helper itself: nethelper.c.
 */
#define _GNU_SOURCE
#include "nethelper.h"
#include "nethelper_id.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "spec/phrase.h"
#include "base/procfile.h"

const char *nethelper_proto(const struct spec_port *port)
{
        return port->udp ? "udp" : "tcp";
}

int nethelper_identity(const struct plan *p, struct nethelper_identity *ret, struct error *err)
{
        *ret = (struct nethelper_identity){.drop = p->privileged && p->userns};
        if (!ret->drop)
                return 0;
        int64_t uid = idmap_outside(&p->uidmap, 0), gid = idmap_outside(&p->gidmap, 0);
        /* in sight of the container's processes (its pid namespace is the host's), a workload
         * with CAP_SYS_PTRACE in their user namespace, the helper's too, could take it over */
        /* (a network helper is crib.ini's alone: an engine gives a container its network) */
        char change[128];
        if (uid > 0 && gid > 0 && !(p->clone_flags & CLONE_NEWPID) &&
            (p->cap_bounding & (1ULL << CAP_SYS_PTRACE))) {
                error_at(err, p->spec_path, p->net_line,
                         "with %s and SYS_PTRACE the workload could trace the network helper, "
                         "which runs in its user namespace",
                         phrase_off(p->front, SPEC_KEY_NAMESPACES_PID));
                return error_hint(err,
                                  "give the container a pid namespace of its own (%s), or leave "
                                  "out SYS_PTRACE",
                                  phrase_change(p->front, SPEC_KEY_NAMESPACES_PID, PHRASE_ON,
                                                change, sizeof change));
        }
        if (uid > 0 && gid > 0) {
                ret->uid = (uid_t)uid;
                ret->gid = ret->rgid = (gid_t)gid;
                if (p->net_mode == SPEC_NET_SLIRP4NETNS)
                        ret->rgid = gid == 65534 ? 65533 : 65534;
                return 0;
        }
        error_at(err, p->spec_path, p->net_line,
                 "the network helper runs as the container's root, and [idmap] %s",
                 uid < 0 || gid < 0 ? "does not map id 0 (container root)"
                                    : "maps container root to host root (id 0)");
        return error_hint(
                err,
                "map container root to ids of root's own range ('uid = auto' and 'gid = auto' in "
                "[idmap]), or %s",
                phrase_change(p->front, SPEC_KEY_NETWORK_MODE, PHRASE_OFF, change, sizeof change));
}

int nethelper_check_ports(const struct plan *p, struct error *err)
{
        struct nethelper_identity id = {.drop = false};
        if (p->net_helper && nethelper_identity(p, &id, err) < 0)
                return -1;
        /* the helper of root's container holds no capability over the host's network: below
         * net.ipv4.ip_unprivileged_port_start, bind(2) refuses it, as it refuses a user's */
        long lowest = p->net_helper && id.drop
                              ? procfile_long("/proc/sys/net/ipv4/ip_unprivileged_port_start")
                              : 0;
        for (size_t i = 0; p->net_helper && i < p->nports; i++) {
                const struct spec_port *port = &p->ports[i];
                if (port->host_port < lowest) {
                        error_at(err, p->spec_path, port->line,
                                 "cannot publish host port %s:%u/%s: the network helper runs as "
                                 "the container's root (host uid %u), and ports below %ld need "
                                 "host root",
                                 port->addr, port->host_port, nethelper_proto(port),
                                 (unsigned)id.uid, lowest);
                        return error_hint(err,
                                          "publish a host port from %ld up (8080:80), or 'sudo "
                                          "sysctl net.ipv4.ip_unprivileged_port_start=%u'",
                                          lowest, port->host_port);
                }
                struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port->host_port)};
                inet_pton(AF_INET, port->addr, &a.sin_addr);
                _cleanup_close_ int s =
                        socket(AF_INET, (port->udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
                int one = 1;
                if (s < 0)
                        return error_set(err, errno, "cannot open a socket to check the ports");
                setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one); /* as the helpers do */
                if (bind(s, (struct sockaddr *)&a, sizeof a) == 0)
                        continue;
                int e = errno;
                error_at_errno(err, e, p->spec_path, port->line,
                               "cannot publish host port %s:%u/%s", port->addr, port->host_port,
                               nethelper_proto(port));
                if (e == EADDRINUSE)
                        return error_hint(err,
                                          "another program (or container) uses it: 'ss -lntup "
                                          "sport = :%u' shows which; publish another host port",
                                          port->host_port);
                if (e == EACCES)
                        return error_hint(err,
                                          "ports below %u need root: publish a higher host port "
                                          "(8080:80), or lower net.ipv4.ip_unprivileged_port_start",
                                          1024u);
                if (e == EADDRNOTAVAIL)
                        return error_hint(err, "this machine has no address %s", port->addr);
                return -1;
        }
        return 0;
}
