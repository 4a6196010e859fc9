/* netns.c - the container's private network: the loopback interface, up; ping without
 * NET_RAW where a helper gives the container a way out.
 *
 * Kernel feature: network namespaces (network_namespaces(7)). A new one holds only `lo`, and it
 * starts down; SIOCSIFFLAGS (netdevice(7)) brings it up so 127.0.0.1 works inside. Needs
 * CAP_NET_ADMIN in the user namespace owning the network namespace, which the setup process has.
 * The tap device of a network helper (slirp4netns, pasta) is the helper's to make and configure
 * (runtime/launch/nethelper.c). With a helper the workload has no NET_RAW (spec.c says why), so
 * net.ipv4.ping_group_range (icmp(7)) lets its groups open ICMP echo sockets: the sysctl is the
 * writer's network namespace's, written through the host's /proc before pivot_root (the
 * container's /proc/sys is read-only).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "child.h"
#include "cleanup.h"

/* Child: the setup process, in the new network namespace. */
int step_loopback(struct child *c, struct error *err)
{
        if (!c->plan->loopback)
                return 0;
        return netns_loopback_up(c, err);
}

/* Child: in the new network namespace, root in its user namespace, before pivot_root. */
int step_ping_range(struct child *c, struct error *err)
{
        (void)err;
        if (!c->plan->ping_range[0])
                return 0;
        int fd = open("/proc/sys/net/ipv4/ping_group_range", O_WRONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? write(fd, c->plan->ping_range, strlen(c->plan->ping_range)) : -1;
        int e = errno;
        if (fd >= 0)
                close(fd);
        /* not fatal: only ping needs it */
        trace_line(&c->trace, "  write(\"/proc/sys/net/ipv4/ping_group_range\", \"%s\") = %s%s%s",
                   c->plan->ping_range, n >= 0 ? "0" : "-1 ", n >= 0 ? "" : strerrorname_np(e),
                   n >= 0 ? "" : " (ping needs NET_RAW inside)");
        return 0;
}

int netns_loopback_up(struct child *c, struct error *err)
{
        struct ifreq ifr;
        _cleanup_close_ int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (s < 0)
                return error_set(err, errno, "cannot open a socket to configure 'lo'");
        memset(&ifr, 0, sizeof ifr);
        strcpy(ifr.ifr_name, "lo");
        if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
                return error_set(err, errno, "cannot read the flags of 'lo'");
        ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
        int r = ioctl(s, SIOCSIFFLAGS, &ifr);
        trace_line(&c->trace, "  ioctl(SIOCSIFFLAGS, \"lo\", IFF_UP|IFF_RUNNING) = %d", r);
        if (r < 0)
                return error_set(err, errno, "cannot bring up 'lo'");
        return 0;
}
