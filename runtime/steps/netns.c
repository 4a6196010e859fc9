/* netns.c - the container's private network: the loopback interface, up; ping without
 * NET_RAW where a helper gives the container a way out.
 *
 * Kernel feature: network namespaces (network_namespaces(7)). A new one holds only `lo`, and it
 * starts down; SIOCSIFFLAGS (netdevice(7)) brings it up so 127.0.0.1 works inside. Needs
 * CAP_NET_ADMIN in the user namespace owning the network namespace, which the setup process has.
 * The tap device of a network helper (slirp4netns, pasta) is the helper's to make and configure
 * (runtime/launch/nethelper.c). With a helper the workload has no NET_RAW (network.c says why), so
 * net.ipv4.ping_group_range (icmp(7)) lets its groups open ICMP echo sockets: the sysctl is the
 * writer's network namespace's, written through the host's /proc before pivot_root (the
 * container's /proc/sys is read-only).
 *
 * The host's loopback: a helper turns what leaves by the tap into connections of its own on
 * the host, and one for 127.0.0.1 or ::1 would reach the host's loopback services. The kernel
 * sends such a packet out of the tap for any process that binds its socket to the device
 * (SO_BINDTODEVICE, unprivileged since Linux 5.7) or names it per datagram (IP_PKTINFO): no
 * capability is needed, and routes cannot stop it. So, unless the spec says host_loopback =
 * yes, an nftables rule (nft(8), run here before pivot_root, as the namespace's root) drops
 * whatever leaves by an interface other than lo for 127.0.0.0/8 or ::1. The workload has no
 * NET_ADMIN to remove it.
 *
 * A workload that keeps CAP_SYS_ADMIN lives in a user namespace below the container's
 * (lockmounts.c), and its capabilities count only in a network namespace that one owns. Without
 * a helper the parent makes both before the setup's first step (launch/nestns.c), and the setup,
 * cloned without CLONE_NEWNET, joins that network namespace first thing (step_join_nest_net): it
 * is the container's only one, crib's init and the workload share it, and the setup's CAP_NET_ADMIN
 * counts there too (its euid owns the namespace below, from the one above).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "step.h"
#include "base/cleanup.h"
#include "spec/phrase.h"

/* Child: the setup process, as root of the container's user namespace (the owner of the one
 * below, so with every capability there), before anything touches a network namespace: join
 * the workload's, which the parent made (plan.nest_early). setns(2) checks the type. */
int step_join_nest_net(struct child *c, struct error *err)
{
        if (!c->plan->nest_early)
                return step_skip(c, "%s",
                                 c->plan->nest_flags & CLONE_NEWNET
                                         ? "the workload makes its own, below (lockmounts.c)"
                                         : "the clone made the container's network "
                                           "namespace, if it has one");
        if (c->nest_netns < 0 || c->nest_userns < 0)
                return error_set(err, EPROTO,
                                 "crib sent no namespace for the workload (expected before GO)");
        int r = setns(c->nest_netns, CLONE_NEWNET);
        int e = errno;
        trace_line(&c->trace, "  setns(fd %d, CLONE_NEWNET) = %d", c->nest_netns, r);
        close(c->nest_netns);
        c->nest_netns = -1;
        if (r < 0)
                return error_set(err, e,
                                 "cannot join the network namespace crib made for the "
                                 "workload");
        return 0;
}

/* Child: the setup process, in the new network namespace. */
int step_loopback(struct child *c, struct error *err)
{
        if (!c->plan->loopback)
                return step_skip(c, "net = no: the container is on the host's network");
        return netns_loopback_up(c, err);
}

/* Child: in the new network namespace, root in its user namespace, before pivot_root. */
int step_ping_range(struct child *c, struct error *err)
{
        (void)err;
        if (!c->plan->ping_range[0])
                return step_skip(c, "no network helper: ping's range is set for slirp4netns "
                                    "and pasta");
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

/* Child: as above. A workload that keeps SYS_ADMIN with a helper lives in a user namespace of
 * its own (lockmounts.c) that does not own this network namespace, so its NET_BIND_SERVICE
 * cannot count here: the sysctl lets every process of the container bind the ports below 1024,
 * which is what that capability gave them (Docker sets it for every container). */
int step_low_ports(struct child *c, struct error *err)
{
        (void)err;
        if (!c->plan->low_ports_open)
                return step_skip(c, "the workload's capabilities count in this network "
                                    "namespace (or it has no NET_BIND_SERVICE)");
        const char *path = "/proc/sys/net/ipv4/ip_unprivileged_port_start";
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? write(fd, "0", 1) : -1;
        int e = errno;
        if (fd >= 0)
                close(fd);
        /* not fatal, as ping's: only a port below 1024 needs it */
        trace_line(&c->trace, "  write(\"%s\", \"0\") = %s%s%s", path, n >= 0 ? "0" : "-1 ",
                   n >= 0 ? "" : strerrorname_np(e),
                   n >= 0 ? "" : " (ports below 1024 stay closed to the workload)");
        return 0;
}

/* Child: as above; the rule goes in before the workload or the helper sends anything. */
int step_guard_loopback(struct child *c, struct error *err)
{
        static const char rules[] =
                "add table inet crib; "
                "add chain inet crib out { type filter hook output priority 0; policy accept; }; "
                "add rule inet crib out oifname != \"lo\" ip daddr 127.0.0.0/8 drop; "
                "add rule inet crib out oifname != \"lo\" ip6 daddr ::1 drop";
        const char *nft = c->plan->nft;
        if (!nft)
                return step_skip(c, "%s",
                                 c->plan->host_loopback ? "host_loopback = yes: the host's local "
                                                          "services are the container's to reach"
                                                        : "no network helper: nothing connects the "
                                                          "container to the host's loopback");
        int out[2];
        if (pipe2(out, O_CLOEXEC) < 0)
                return error_set(err, errno, "cannot make a pipe");
        pid_t pid = fork();
        if (pid == 0) {
                char *const argv[] = {(char *)nft, (char *)rules, NULL};
                char *const envp[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL};
                int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
                if (null < 0 || dup2(null, 0) < 0 || dup2(out[1], 1) < 0 || dup2(out[1], 2) < 0)
                        _exit(127);
                execve(nft, argv, envp);
                _exit(127);
        }
        close(out[1]);
        char said[512];
        size_t got = 0;
        ssize_t n;
        while (pid > 0 && got < sizeof said - 1 &&
               (n = read(out[0], said + got, sizeof said - 1 - got)) != 0) {
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        break;
                got += (size_t)n;
        }
        said[got] = '\0';
        close(out[0]);
        int status = -1;
        while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        trace_line(&c->trace, "  fork(); execve(\"%s\", \"%s\") = status %d", nft, rules, status);
        if (pid < 0)
                return error_set(err, errno, "cannot start nft");
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
                return 0;
        while (got && (said[got - 1] == '\n'))
                said[--got] = '\0';
        error_set(err, 0, "cannot keep the container away from the host's loopback: nft %s%s%s",
                  WIFEXITED(status) ? "failed" : "was killed", got ? ": " : "", said);
        char change[128];
        return error_hint(err,
                          "the kernel's nf_tables must be there: 'sudo modprobe nf_tables' (as a "
                          "user crib cannot load it); or %s if the container may reach the host's "
                          "local services",
                          phrase_change(c->plan->front, SPEC_KEY_NETWORK_HOST_LOOPBACK, PHRASE_ON,
                                        change, sizeof change));
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
