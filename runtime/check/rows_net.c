/* rows_net.c - `crib check`'s rows for [network]: the helpers (slirp4netns, pasta), nft for
 * host_loopback = no, and /dev/net/tun, which the helpers open.
 */
#define _GNU_SOURCE
#include "check_private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

/* [network]'s helpers and the device they need: what mode = slirp4netns and pasta use */
void network_rows(struct check_row *rows, size_t *n, const struct check_ctx *x)
{
        if (x->spec && !spec_net_has_helper(x->spec->net_mode))
                return;
        static const struct {
                enum spec_net_mode mode;
                const char *id, *feature, *path, *package;
        } helpers[] = {
                {SPEC_NET_SLIRP4NETNS, "slirp4netns", "network helper slirp4netns",
                 "/usr/bin/slirp4netns", "slirp4netns"},
                {SPEC_NET_PASTA, "pasta", "network helper pasta", "/usr/bin/pasta", "passt"},
                /* either helper's, with host_loopback = no (netns.c) */
                {SPEC_NET_NONE, "nft", "nft, for host_loopback = no", "/usr/sbin/nft", "nftables"},
        };
        for (size_t i = 0; i < sizeof helpers / sizeof helpers[0]; i++) {
                bool nft = helpers[i].mode == SPEC_NET_NONE;
                if (x->spec &&
                    (nft ? x->spec->host_loopback : x->spec->net_mode != helpers[i].mode))
                        continue;
                struct check_row *r = row(rows, n, helpers[i].id, helpers[i].feature,
                                          x->spec ? NEED_ESSENTIAL : NEED_OPTIONAL);
                if (access(helpers[i].path, X_OK) == 0) {
                        r->status = CHECK_OK;
                        if (nft)
                                snprintf(r->evidence, sizeof r->evidence,
                                         "%s: a helper's container gets a rule that drops what "
                                         "it sends for 127.0.0.1 or ::1 by the tap",
                                         helpers[i].path);
                        else
                                snprintf(r->evidence, sizeof r->evidence,
                                         "%s: [network] mode = %s can give a container outbound "
                                         "access and published ports",
                                         helpers[i].path, helpers[i].id);
                } else {
                        r->status = CHECK_MISSING;
                        snprintf(r->evidence, sizeof r->evidence, "%s is not installed",
                                 helpers[i].path);
                        snprintf(r->remedy, sizeof r->remedy, "sudo apt install %s",
                                 helpers[i].package);
                }
        }
        struct check_row *r = row(rows, n, "tun", "/dev/net/tun for the network helpers",
                                  x->spec ? NEED_ESSENTIAL : NEED_OPTIONAL);
        int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
        int e = errno;
        if (fd >= 0) {
                close(fd);
                r->status = CHECK_OK;
                snprintf(r->evidence, sizeof r->evidence, "open(\"/dev/net/tun\", O_RDWR) = 0");
                return;
        }
        errno_evidence(r, "open(\"/dev/net/tun\", O_RDWR)", e);
        kconfig_set(x->kconfig, r, "CONFIG_TUN", e != ENOENT && e != ENODEV);
        r->status = e == ENOENT || e == ENODEV ? CHECK_MISSING : CHECK_RESTRICTED;
        snprintf(r->remedy, sizeof r->remedy, "%s",
                 e == ENOENT || e == ENODEV
                         ? "load the tun module (sudo modprobe tun) or use a kernel with CONFIG_TUN"
                         : "Debian makes /dev/net/tun 0666 (crw-rw-rw-); here it is closed to "
                           "you: sudo chmod 0666 /dev/net/tun");
}
