/* notify.h - systemd's readiness protocol (sd_notify(3)): crib run in the foreground as a
 * unit's Type=notify ExecStart tells systemd READY=1 once the workload runs, and with
 * [service] notify = container passes the container's own messages on (notify.c). */
#ifndef CRIB_NOTIFY_H
#define CRIB_NOTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/error.h"

/* the largest message passed on from a container; the rest of a longer one is dropped */
#define NOTIFY_MAX_MESSAGE 4096

/* Send `text` as one datagram to the socket named as $NOTIFY_SOCKET names it: a path, or
 * '@' and an abstract name. */
int notify_send(const char *socket, const char *text, struct error *err);

/* READY=1 and MAINPID=<this process> (crib stays the unit's main process: it forwards the
 * signals and exits with the workload's status) */
int notify_ready(const char *socket, struct error *err);

/* [service] notify = container: a socket of crib's in a directory of its own (mode 0700), for
 * the container's NOTIFY_SOCKET. */
struct notify_proxy {
        int fd;              /* the datagram socket crib reads, or -1 */
        char dir[256];       /* its directory, removed at the end */
        char path[300];      /* DIR/notify.sock, bind-mounted into the container */
        const char *forward; /* systemd's socket ($NOTIFY_SOCKET) */
        bool ready;          /* the container said READY=1 */
        bool warned;         /* a message systemd did not take was said once (follow.c) */
};

void notify_proxy_init(struct notify_proxy *np);
/* Make the socket under `rundir` (crib's state root): DIR/notify.sock, DIR named
 * .notify-PID-XXXXXX (no container's name starts with a dot), mode 0777: the container's users
 * connect to it, whatever ids they have; the directory, 0700, keeps the host's others out. */
int notify_proxy_open(struct notify_proxy *np, const char *rundir, const char *forward,
                      struct error *err);
/* One datagram from the container: read, its fields checked, and what systemd should know
 * sent on with this process as MAINPID. A message that is not text, too long, or that comes
 * with descriptors is dropped (descriptors closed); MAINPID= from the container never goes
 * on. Returns 1 when a message was read, 0 when none was waiting. */
int notify_proxy_read(struct notify_proxy *np, struct error *err);
void notify_proxy_close(struct notify_proxy *np);

/* The filtering alone (pure, unit tested): the lines of `in` (n bytes) systemd may get, with
 * MAINPID=, and anything that is not NAME=VALUE with NAME in A-Z0-9_, left out, into `out`
 * (size len, NUL-terminated); *ret_ready set when a READY=1 line is kept. The number of
 * lines kept. */
size_t notify_filter(const char *in, size_t n, char *out, size_t len, bool *ret_ready);

#endif
