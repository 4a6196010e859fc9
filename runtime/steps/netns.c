/* netns.c - the container's private network: just the loopback interface, up.
 *
 * Kernel feature: network namespaces (network_namespaces(7)). A new one holds only `lo`, and it
 * starts down; SIOCSIFFLAGS (netdevice(7)) brings it up so 127.0.0.1 works inside. Needs
 * CAP_NET_ADMIN in the user namespace owning the network namespace, which the setup process has.
 */
#define _GNU_SOURCE
#include <errno.h>
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
