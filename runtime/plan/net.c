/* net.c - [network]: with a user-mode helper (slirp4netns or pasta: launch/nethelper.c), its
 * program and the published ports, resolv.conf and hosts for the container, nft(8) to keep it
 * away from the host's loopback, and the ping group range (net.ipv4.ping_group_range, icmp(7))
 * that lets ping work without NET_RAW. Without a helper, only the mode and the state root. */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "spec/phrase.h"

/* [network]: the helper, the published ports, resolv.conf and hosts, ping without NET_RAW. */
int plan_network(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        struct scratch *sc = &pl->sc;
        p->net_mode = s->net_mode;
        p->net_line = spec_line(s, SPEC_KEY_NETWORK_MODE);
        p->host_loopback = s->host_loopback;
        snprintf(p->run_dir, sizeof p->run_dir, "%s", h->run_dir);
        memcpy(p->ports, s->ports, s->nports * sizeof s->ports[0]);
        p->nports = s->nports;
        if (!spec_net_has_helper(s->net_mode))
                return 0;
        /* ICMP echo sockets for every group the container has: ping needs no NET_RAW */
        uint32_t lo = 0, hi = 2147483646;
        if (p->userns && p->gidmap.n) {
                lo = UINT32_MAX, hi = 0;
                for (size_t i = 0; i < p->gidmap.n; i++) {
                        const struct idmap_range *r = &p->gidmap.r[i];
                        if (r->inside < lo)
                                lo = r->inside;
                        if (r->inside + (r->count - 1) > hi)
                                hi = r->inside + (r->count - 1);
                }
        }
        snprintf(p->ping_range, sizeof p->ping_range, "%u %u", lo, hi);
        bool slirp = s->net_mode == SPEC_NET_SLIRP4NETNS;
        if (plan_find_program(p, s, slirp ? "slirp4netns" : "pasta",
                              slirp ? "slirp4netns" : "passt", "as the network helper",
                              &p->net_helper, sc, err) < 0)
                return -1;
        /* the helpers connect what the container sends for 127.0.0.1 or ::1 to the host's own:
         * a socket bound to the tap (SO_BINDTODEVICE, IP_PKTINFO: no capability needed) sends
         * it there, so a rule in the container's namespace drops it on the way out */
        char change[128];
        if (!s->host_loopback &&
            plan_find_program(p, s, "nft", "nftables",
                              "to keep the container away from the host's loopback", &p->nft, sc,
                              err) < 0)
                return error_hint(err, "or %s if the container may reach the host's local services",
                                  phrase_change(s->front, SPEC_KEY_NETWORK_HOST_LOOPBACK, PHRASE_ON,
                                                change, sizeof change));

        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f)
                return error_set(err, ENOMEM, "cannot allocate");
        fprintf(f, "# made by crib for a container with [network] mode = %s\n",
                spec_net_mode_name(s->net_mode));
        for (size_t i = 0; i < s->ndns; i++)
                fprintf(f, "nameserver %s\n", s->dns[i]);
        if (!s->ndns) /* the helper's own forwarder, which asks the host's resolver */
                fprintf(f, "nameserver %s\n", NET_DNS_ADDR(s->net_mode));
        fclose(f);
        if (plan_file(p, s, "/etc/resolv.conf", text, sc, err) < 0)
                return -1;
        text = NULL;
        f = open_memstream(&text, &len);
        if (!f)
                return error_set(err, ENOMEM, "cannot allocate");
        fprintf(f, "# made by crib\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost "
                   "ip6-loopback\n");
        if (s->hostname)
                fprintf(f, "127.0.1.1\t%s\n", s->hostname);
        fclose(f);
        return plan_file(p, s, "/etc/hosts", text, sc, err);
}
