/* nethelper_id.h - between nethelper.c and nethelper_id.c: who the network helper runs as. */
#ifndef CRIB_NETHELPER_ID_H
#define CRIB_NETHELPER_ID_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/error.h"
#include "plan/plan.h"

/* Who the helper runs as. A user's runs as the user, who owns the container's user namespace.
 * Root's container in a user namespace: as the container's own root (id 0 of its maps, root's
 * subordinate range start), never host root. It joins the container's user namespace before
 * it execs (the namespace is host root's: no other uid could join it), takes id 0 there, and is
 * handed the network namespace as a descriptor; so it has every capability over the
 * container's namespaces and none over the host's, and the host's files see an id that owns
 * nothing of theirs. With user = no there is no namespace of the container's to hold those
 * capabilities: the tap needs CAP_NET_ADMIN over a network namespace the host's user namespace
 * owns, so the helper stays host root, as the container itself is (its own isolation keeps
 * only NET_BIND_SERVICE). */
struct nethelper_identity {
        bool drop; /* root's container in a user namespace: run as uid:gid, not as crib */
        uid_t uid;
        gid_t gid;
        /* the real gid. slirp4netns: another (the overflow gid), so that the kernel execs it not
         * dumpable (real and effective gid differ) and no process of the container, whose ids
         * are its, can ptrace it or read its memory, with the container's processes in sight
         * (pid = no) too; it keeps no capability the container lacks, which would refuse that
         * too. The exec also clears its parent-death signal: its --exit-fd ends it with crib.
         * pasta: gid (it holds CAP_SYS_ADMIN, which the container never has, and makes itself
         * not dumpable; its parent-death signal must stay) */
        gid_t rgid;
};

/* Who the helper of `p` runs as; an error where root's helper cannot be the container's root */
int nethelper_identity(const struct plan *p, struct nethelper_identity *ret, struct error *err);

/* "udp" or "tcp" */
const char *nethelper_proto(const struct spec_port *port);

#endif
