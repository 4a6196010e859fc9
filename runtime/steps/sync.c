/* sync.c - fixed-size, numbered messages over a SOCK_SEQPACKET socketpair; see sync.h (and why
 * it sits in steps/). */
#define _GNU_SOURCE
#include "sync.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

int sync_send(struct sync_chan *c, struct sync_msg *m, int pass_fd, struct error *err)
{
        union {
                char buf[CMSG_SPACE(sizeof(int))];
                struct cmsghdr align;
        } cbuf;
        struct iovec iov = {.iov_base = m, .iov_len = sizeof *m};
        struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};

        m->seq = c->send_seq++;
        if (pass_fd >= 0) {
                memset(&cbuf, 0, sizeof cbuf);
                mh.msg_control = cbuf.buf;
                mh.msg_controllen = sizeof cbuf.buf;
                struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
                cm->cmsg_level = SOL_SOCKET;
                cm->cmsg_type = SCM_RIGHTS;
                cm->cmsg_len = CMSG_LEN(sizeof(int));
                memcpy(CMSG_DATA(cm), &pass_fd, sizeof(int));
        }
        ssize_t n;
        do
                n = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        if (n < 0)
                return error_set(err, errno, "cannot send sync message %u", m->type);
        if ((size_t)n != sizeof *m)
                return error_set(err, EPROTO, "short sync message %u", m->type);
        return 0;
}

int sync_recv(struct sync_chan *c, struct sync_msg *m, int *ret_fd, struct error *err)
{
        union {
                char buf[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct ucred))];
                struct cmsghdr align;
        } cbuf;
        struct iovec iov = {.iov_base = m, .iov_len = sizeof *m};
        struct msghdr mh = {.msg_iov = &iov,
                            .msg_iovlen = 1,
                            .msg_control = cbuf.buf,
                            .msg_controllen = sizeof cbuf.buf};
        ssize_t n;

        if (ret_fd)
                *ret_fd = -1;
        c->sender = 0;
        do
                n = recvmsg(c->fd, &mh, MSG_CMSG_CLOEXEC);
        while (n < 0 && errno == EINTR);
        if (n < 0)
                return error_set(err, errno, "cannot receive sync message");
        if (n == 0)
                return 0;
        for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
                if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
                        int fd;
                        memcpy(&fd, CMSG_DATA(cm), sizeof fd);
                        if (ret_fd)
                                *ret_fd = fd;
                } else if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_CREDENTIALS &&
                           cm->cmsg_len >= CMSG_LEN(sizeof(struct ucred))) {
                        struct ucred cred;
                        memcpy(&cred, CMSG_DATA(cm), sizeof cred);
                        c->sender = cred.pid;
                }
        }
        if (mh.msg_flags & MSG_CTRUNC)
                error_set(err, EPROTO, "sync message %u came with more than a descriptor", m->type);
        else if ((size_t)n != sizeof *m || (mh.msg_flags & MSG_TRUNC))
                error_set(err, EPROTO, "sync message of %zd bytes, expected %zu", n, sizeof *m);
        else if (m->seq != c->recv_seq)
                error_set(err, EPROTO, "sync message %u out of order (got #%u, expected #%u)",
                          m->type, m->seq, c->recv_seq);
        else if (m->type < SYNC_GO || m->type > SYNC_NEST)
                error_set(err, EPROTO, "unknown sync message type %u", m->type);
        else {
                c->recv_seq++;
                return 1;
        }
        /* a descriptor that came with a bad message is not the caller's to close */
        if (ret_fd && *ret_fd >= 0) {
                close(*ret_fd);
                *ret_fd = -1;
        }
        return -1;
}

void sync_error_of(const struct sync_msg *m, struct error *ret)
{
        *ret = m->u.err;
        ret->msg[sizeof ret->msg - 1] = '\0';
        ret->hint[sizeof ret->hint - 1] = '\0';
}

int sync_pass_credentials(struct sync_chan *c, struct error *err)
{
        int one = 1;
        if (setsockopt(c->fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof one) < 0)
                return error_set(err, errno, "cannot ask for the sync messages' senders");
        return 0;
}
