/* notify.c - systemd's readiness protocol, sd_notify(3), from crib's side.
 *
 * Kernel features: AF_UNIX datagram sockets (unix(7)), a path or an abstract name ('@' in
 * $NOTIFY_SOCKET, a NUL in sun_path); SCM_RIGHTS and SCM_CREDENTIALS (recvmsg(2), cmsg(3)).
 * systemd reads its socket with SO_PASSCRED and, with NotifyAccess=main, takes messages from
 * the unit's main process only: crib, the unit's ExecStart, which stays in the foreground.
 * crib is linked statically and Debian ships no static libsystemd: the protocol is one
 * datagram of NAME=VALUE lines, sent here with sendto(2).
 *
 * Where it sits: `crib run` in the foreground (cmd/run.c) says READY=1 with MAINPID=crib's
 * pid when the workload runs, the point `crib run -d` returns at. With [service] notify =
 * container it instead makes a socket of its own (notify_proxy_open), which the container gets
 * bind-mounted at /run/notify/notify.sock with NOTIFY_SOCKET naming it; what the container
 * sends is read in crib's loop (follow.c) and passed on.
 *
 * What can go wrong: the container is not trusted. It may send anything: a message longer
 * than NOTIFY_MAX_MESSAGE is dropped whole (MSG_TRUNC), descriptors are closed (SCM_RIGHTS
 * never reaches systemd: FDSTORE is not passed on), MAINPID= is never passed on (systemd
 * would watch, and at stop kill, a pid of the container's choosing: crib sets MAINPID, to
 * itself), and only the fields of an allow list go on, in lines of printable text.
 */
#define _GNU_SOURCE
#include "notify.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/cleanup.h"

/* where: a path, or '@' and an abstract name, in sa; its length in *ret_len */
static int notify_address(const char *where, struct sockaddr_un *sa, socklen_t *ret_len,
                          struct error *err)
{
        size_t n = strlen(where);
        *sa = (struct sockaddr_un){.sun_family = AF_UNIX};
        if ((where[0] != '/' && where[0] != '@') || n < 2 || n >= sizeof sa->sun_path)
                return error_set(err, EINVAL,
                                 "NOTIFY_SOCKET '%.100s' is neither a socket's path nor '@' and "
                                 "an abstract name",
                                 where);
        memcpy(sa->sun_path, where, n);
        if (where[0] == '@')
                sa->sun_path[0] = '\0'; /* abstract: no NUL at the end, the length says */
        *ret_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (where[0] == '/'));
        return 0;
}

int notify_send(const char *where, const char *text, struct error *err)
{
        struct sockaddr_un sa;
        socklen_t len = 0;
        if (notify_address(where, &sa, &len, err) < 0)
                return -1;
        _cleanup_close_ int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return error_set(err, errno, "cannot make a socket for systemd's notifications");
        if (sendto(fd, text, strlen(text), MSG_NOSIGNAL, (struct sockaddr *)&sa, len) < 0)
                return error_set(err, errno, "cannot notify systemd at '%s'", where);
        return 0;
}

int notify_ready(const char *where, struct error *err)
{
        char text[64];
        snprintf(text, sizeof text, "READY=1\nMAINPID=%d", (int)getpid());
        return notify_send(where, text, err);
}

/* The fields a container may tell systemd (sd_notify(3)); MAINPID and the descriptor store's
 * are not among them. */
static const char *const allowed[] = {"READY",         "RELOADING",     "STOPPING",
                                      "STATUS",        "ERRNO",         "BUSERROR",
                                      "WATCHDOG",      "WATCHDOG_USEC", "EXTEND_TIMEOUT_USEC",
                                      "MONOTONIC_USEC"};

static bool field_allowed(const char *line, size_t n)
{
        const char *eq = memchr(line, '=', n);
        if (!eq || eq == line)
                return false;
        size_t k = (size_t)(eq - line);
        for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
                if (strlen(allowed[i]) == k && !memcmp(line, allowed[i], k))
                        goto value;
        return false;
value:
        for (const char *c = eq + 1; c < line + n; c++)
                if ((unsigned char)*c < 0x20 && *c != '\t')
                        return false; /* no control characters (NUL included) in a value */
        return true;
}

size_t notify_filter(const char *in, size_t n, char *out, size_t len, bool *ret_ready)
{
        size_t kept = 0, at = 0;
        if (len)
                out[0] = '\0';
        for (size_t i = 0; i < n;) {
                const char *nl = memchr(in + i, '\n', n - i);
                size_t l = nl ? (size_t)(nl - (in + i)) : n - i;
                const char *line = in + i;
                i += l + 1;
                if (!l || !field_allowed(line, l) || at + l + 2 > len)
                        continue;
                memcpy(out + at, line, l);
                at += l;
                out[at++] = '\n';
                out[at] = '\0';
                kept++;
                if (l == 7 && !memcmp(line, "READY=1", 7))
                        *ret_ready = true;
        }
        return kept;
}

void notify_proxy_init(struct notify_proxy *np)
{
        *np = (struct notify_proxy){.fd = -1};
}

int notify_proxy_open(struct notify_proxy *np, const char *rundir, const char *forward,
                      struct error *err)
{
        np->forward = forward;
        int n = snprintf(np->dir, sizeof np->dir, "%s/.notify-%d-XXXXXX", rundir, (int)getpid());
        if (n < 0 || (size_t)n >= sizeof np->dir)
                return error_set(err, ENAMETOOLONG, "the directory '%s' is too long", rundir);
        if (!mkdtemp(np->dir)) {
                np->dir[0] = '\0';
                return error_set(err, errno, "cannot make a directory in '%s'", rundir);
        }
        snprintf(np->path, sizeof np->path, "%s/notify.sock", np->dir);
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        if (strlen(np->path) >= sizeof sa.sun_path)
                return error_set(err, ENAMETOOLONG, "the socket path '%s' is too long", np->path);
        memcpy(sa.sun_path, np->path, strlen(np->path) + 1);
        np->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (np->fd < 0)
                return error_set(err, errno, "cannot make the container's notify socket");
        if (bind(np->fd, (struct sockaddr *)&sa, sizeof sa) < 0)
                return error_set(err, errno, "cannot bind the socket '%s'", np->path);
        /* the container's users connect to it: any of them may say READY, as systemd's
         * NotifyAccess=all would let any process of the unit */
        if (chmod(np->path, 0777) < 0)
                return error_set(err, errno, "cannot give the socket '%s' to the container",
                                 np->path);
        return 0;
}

int notify_proxy_read(struct notify_proxy *np, struct error *err)
{
        char buf[NOTIFY_MAX_MESSAGE + 1];
        union {
                struct cmsghdr h;
                char space[CMSG_SPACE(sizeof(int) * 16) + CMSG_SPACE(sizeof(struct ucred))];
        } ctl;
        struct iovec iov = {.iov_base = buf, .iov_len = NOTIFY_MAX_MESSAGE};
        struct msghdr mh = {.msg_iov = &iov,
                            .msg_iovlen = 1,
                            .msg_control = &ctl,
                            .msg_controllen = sizeof ctl};
        ssize_t n = recvmsg(np->fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC | MSG_TRUNC);
        if (n < 0)
                return errno == EAGAIN || errno == EINTR ? 0 : error_set(err, errno, "recvmsg");
        bool drop = (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || n > NOTIFY_MAX_MESSAGE;
        /* descriptors sent along are closed, never passed on */
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
                if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
                        continue;
                size_t nfd = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                for (size_t i = 0; i < nfd; i++) {
                        int fd;
                        memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                        close(fd);
                }
                drop = true;
        }
        if (drop || !np->forward)
                return 1;
        char out[NOTIFY_MAX_MESSAGE + 64];
        if (!notify_filter(buf, (size_t)n, out, NOTIFY_MAX_MESSAGE, &np->ready))
                return 1;
        size_t at = strlen(out);
        snprintf(out + at, sizeof out - at, "MAINPID=%d", (int)getpid());
        if (notify_send(np->forward, out, err) < 0)
                return -1;
        return 1;
}

void notify_proxy_close(struct notify_proxy *np)
{
        /* what the container sent that the run's loop had not read yet (a container that says
         * READY and ends at once, a crib slowed by a loaded machine): passed on still, bounded */
        struct error ignored;
        for (int i = 0; i < 256 && np->fd >= 0 && notify_proxy_read(np, &ignored) != 0; i++)
                ;
        if (np->fd >= 0)
                close(np->fd);
        np->fd = -1;
        if (np->path[0])
                unlink(np->path);
        if (np->dir[0])
                rmdir(np->dir);
        np->path[0] = np->dir[0] = '\0';
}
