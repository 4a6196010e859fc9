/* network.c - the parsers of [network] (mode, published ports, nameservers, host loopback) and
 * their check against [namespaces] net and the capabilities, which a user-mode network helper
 * (runtime/launch/nethelper.c) would let past it to the host's loopback. Pure. See keys.h. */
#include "keys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/capability.h>

/* [network] */

static const char *const net_modes[] = {
        [SPEC_NET_NONE] = "none",
        [SPEC_NET_HOST] = "host",
        [SPEC_NET_SLIRP4NETNS] = "slirp4netns",
        [SPEC_NET_PASTA] = "pasta",
};

const char *spec_net_mode_name(enum spec_net_mode m)
{
        return (size_t)m < sizeof net_modes / sizeof net_modes[0] ? net_modes[m] : "?";
}

bool spec_net_has_helper(enum spec_net_mode m)
{
        return m == SPEC_NET_SLIRP4NETNS || m == SPEC_NET_PASTA;
}

void spec_port_format(const struct spec_port *p, char *buf, size_t len)
{
        snprintf(buf, len, "%s:%u->%u/%s", p->addr, p->host_port, p->port, p->udp ? "udp" : "tcp");
}

int parse_net_mode(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err)
{
        (void)k;
        for (size_t i = 0; i < sizeof net_modes / sizeof net_modes[0]; i++)
                if (!strcmp(e->value, net_modes[i])) {
                        s->net_mode = (enum spec_net_mode)i;
                        return 0;
                }
        return bad_value(err, s, e,
                         "unknown network mode '%s' (known: none, host, slirp4netns, pasta)",
                         e->value);
}

/* An IPv4 address, dotted; copied into `ret` (16 bytes) in its canonical form. */
static int ipv4_word(const char *v, size_t n, char *ret)
{
        char buf[16];
        struct in_addr a;
        if (n == 0 || n >= sizeof buf)
                return -1;
        memcpy(buf, v, n);
        buf[n] = '\0';
        if (inet_pton(AF_INET, buf, &a) != 1)
                return -1;
        inet_ntop(AF_INET, &a, ret, 16);
        return 0;
}

static int port_word(const char *v, size_t n, uint16_t *ret)
{
        char buf[8];
        uint32_t u;
        if (n == 0 || n >= sizeof buf)
                return -1;
        memcpy(buf, v, n);
        buf[n] = '\0';
        if (parse_u32(buf, 65535, &u) < 0 || u == 0)
                return -1;
        *ret = (uint16_t)u;
        return 0;
}

/* publish = [ADDR:]HOSTPORT:PORT[/tcp|/udp] */
int parse_publish(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        struct spec_port p = {.addr = "0.0.0.0", .line = e->line};
        const char *v = e->value, *slash = strchr(v, '/');
        size_t len = slash ? (size_t)(slash - v) : strlen(v);
        (void)k;
        if (v[0] == '[')
                return bad_value(err, s, e,
                                 "publish: IPv6 host addresses are not supported yet; publish on "
                                 "an IPv4 address (0.0.0.0 for all of the host's)");
        if (slash && !strcmp(slash, "/udp"))
                p.udp = true;
        else if (slash && strcmp(slash, "/tcp"))
                return bad_value(err, s, e, "publish: '%s' is not a protocol (tcp or udp)",
                                 slash + 1);
        const char *c1 = memchr(v, ':', len);
        const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - v)) : NULL;
        const char *hp = v, *cp = c1 ? c1 + 1 : NULL;
        if (c2) {
                if (ipv4_word(v, (size_t)(c1 - v), p.addr) < 0)
                        return bad_value(err, s, e,
                                         "publish: '%.*s' is not an IPv4 address of the host",
                                         (int)(c1 - v), v);
                hp = c1 + 1;
                cp = c2 + 1;
        }
        if (!cp || memchr(cp, ':', len - (size_t)(cp - v)) ||
            port_word(hp, (size_t)(cp - 1 - hp), &p.host_port) < 0 ||
            port_word(cp, len - (size_t)(cp - v), &p.port) < 0)
                return bad_value(err, s, e,
                                 "publish must be [ADDR:]HOSTPORT:PORT[/tcp|/udp] with ports 1 "
                                 "to 65535, as in 127.0.0.1:8080:80, not '%s'",
                                 v);
        for (size_t i = 0; i < s->nports; i++) {
                const struct spec_port *q = &s->ports[i];
                bool any = !strcmp(q->addr, "0.0.0.0") || !strcmp(p.addr, "0.0.0.0");
                if (q->udp == p.udp && q->host_port == p.host_port &&
                    (any || !strcmp(q->addr, p.addr)))
                        return bad_value(err, s, e,
                                         "publish: host port %u/%s is already published on line "
                                         "%u",
                                         p.host_port, p.udp ? "udp" : "tcp", q->line);
        }
        if (s->nports == SPEC_MAX_PORTS)
                return bad_value(err, s, e, "more than %d publish lines", SPEC_MAX_PORTS);
        s->ports[s->nports++] = p;
        return 0;
}

int parse_dns(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        (void)k;
        if (s->ndns == SPEC_MAX_DNS)
                return bad_value(err, s, e, "more than %d dns lines (resolv.conf(5) reads only %d)",
                                 SPEC_MAX_DNS, SPEC_MAX_DNS);
        if (ipv4_word(e->value, strlen(e->value), s->dns[s->ndns]) < 0)
                return bad_value(err, s, e, "dns: '%s' is not an IPv4 address", e->value);
        s->ndns++;
        return 0;
}

/* The network keys against each other and [namespaces] net; the capabilities that would let a
 * workload past the helper to the host's loopback. */
int validate_network(struct spec *s, struct error *err)
{
        unsigned mode_line = spec_line(s, SPEC_KEY_NETWORK_MODE);
        if (mode_line && s->net_mode == SPEC_NET_HOST) {
                if (spec_in_file(s, SPEC_KEY_NAMESPACES_NET) && s->ns_net)
                        return error_at(err, s->path, mode_line,
                                        "mode = host shares the host's network, but [namespaces] "
                                        "says net = yes");
                s->ns_net = false;
        } else if (mode_line && !s->ns_net) {
                return error_at(err, s->path, mode_line,
                                "mode = %s needs a network namespace of its own, but "
                                "[namespaces] says net = no (which is mode = host)",
                                spec_net_mode_name(s->net_mode));
        } else if (!s->ns_net) {
                s->net_mode = SPEC_NET_HOST;
        }
        static const enum spec_key helper_only[] = {SPEC_KEY_NETWORK_PUBLISH, SPEC_KEY_NETWORK_DNS,
                                                    SPEC_KEY_NETWORK_HOST_LOOPBACK};
        for (size_t i = 0; i < sizeof helper_only / sizeof helper_only[0]; i++)
                if (spec_in_file(s, helper_only[i]) && !spec_net_has_helper(s->net_mode))
                        return error_at(err, s->path, spec_line(s, helper_only[i]),
                                        "'%s' needs a network helper: mode = slirp4netns or "
                                        "pasta in [network] (this spec's mode is %s)",
                                        spec_keys[helper_only[i]].name,
                                        spec_net_mode_name(s->net_mode));
        /* lockmounts.c: such a workload gets namespaces of its own, a network one among them,
         * which has no tap: the helper would serve nobody */
        if (spec_net_has_helper(s->net_mode) && (s->caps & (1ULL << CAP_SYS_ADMIN)) &&
            (s->masked.n || s->readonly.n)) {
                unsigned line = spec_line(s, SPEC_KEY_SECURITY_CAPABILITIES);
                return error_at(err, s->path, line ? line : mode_line,
                                "a workload that keeps SYS_ADMIN runs in a network namespace of "
                                "its own (so that it cannot undo its masked and read-only "
                                "paths), which the network helper does not reach; drop "
                                "SYS_ADMIN, or use mode = host or none");
        }
        if (!spec_net_has_helper(s->net_mode) || s->host_loopback)
                return 0;
        /* Raw packets (NET_RAW) or routes to 127.0.0.0/8 through the tap (NET_ADMIN, with
         * route_localnet) reach the helper as frames for 127.0.0.1, and the helper, a process
         * on the host, connects them to the host's own loopback services. */
        const uint64_t risky = (1ULL << CAP_NET_RAW) | (1ULL << CAP_NET_ADMIN);
        if (s->caps & s->caps_file & risky)
                return error_at(err, s->path, spec_line(s, SPEC_KEY_SECURITY_CAPABILITIES),
                                "%s lets the workload send packets the network helper delivers "
                                "to the host's loopback (127.0.0.1); drop it, or set "
                                "host_loopback = yes in [network] if the container may reach "
                                "the host's local services",
                                s->caps & s->caps_file & (1ULL << CAP_NET_ADMIN) ? "NET_ADMIN"
                                                                                 : "NET_RAW");
        s->caps &= ~risky; /* a level's: dropped (ping works through ping_group_range) */
        return 0;
}
