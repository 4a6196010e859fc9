/* test_sync.c - runtime/steps/sync.c: the numbered, fixed-size messages between crib and the
 * container's setup process, over a real SOCK_SEQPACKET socketpair: order, descriptors, EOF,
 * and each malformed message refused (with any descriptor it carried closed). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "steps/sync.h"

/* descriptors open in this process */
static int open_fds(void)
{
        int n = 0;
        for (int fd = 0; fd < 1024; fd++)
                n += fcntl(fd, F_GETFD) >= 0;
        return n;
}

static void pair(struct sync_chan *a, struct sync_chan *b)
{
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                sv[0] = sv[1] = -1;
        *a = (struct sync_chan){.fd = sv[0]};
        *b = (struct sync_chan){.fd = sv[1]};
}

int main(void)
{
        struct sync_chan parent, child;
        struct sync_msg m, got;
        struct error err;
        int fd;

        pair(&parent, &child);
        ok(parent.fd >= 0, "a socketpair");
        m = (struct sync_msg){.type = SYNC_TRACE};
        strcpy(m.u.text, "hello");
        ok(sync_send(&child, &m, -1, &err) == 0, "send a trace line");
        m = (struct sync_msg){.type = SYNC_EXEC};
        ok(sync_send(&child, &m, -1, &err) == 0, "send exec");
        ok(sync_recv(&parent, &got, &fd, &err) == 1 && got.type == SYNC_TRACE && got.seq == 0 &&
                   fd == -1,
           "the first arrives first, numbered 0, without a descriptor");
        is_str(got.u.text, "hello", "with its text");
        ok(sync_recv(&parent, &got, &fd, &err) == 1 && got.type == SYNC_EXEC && got.seq == 1,
           "the second, numbered 1");

        /* a descriptor rides along, close-on-exec on arrival */
        int p[2];
        ok(pipe(p) == 0, "a pipe to pass");
        m = (struct sync_msg){.type = SYNC_PTY};
        ok(sync_send(&child, &m, p[1], &err) == 0, "send a descriptor");
        ok(sync_recv(&parent, &got, &fd, &err) == 1 && fd >= 0, "it arrives");
        ok(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC), "close-on-exec");
        ok(fd >= 0 && write(fd, "x", 1) == 1, "and it is the pipe's write end");
        char b = 0;
        ok(read(p[0], &b, 1) == 1 && b == 'x', "what was written through it comes out");
        if (fd >= 0)
                close(fd);

        /* out of order: a message the receiver did not expect next */
        child.send_seq += 5;
        m = (struct sync_msg){.type = SYNC_WARN};
        sync_send(&child, &m, p[1], &err);
        int before = open_fds();
        ok(sync_recv(&parent, &got, &fd, &err) == -1 && err.errnum == EPROTO,
           "a message out of order is an error (EPROTO)");
        ok(strstr(err.msg, "out of order (got #8, expected #3)") != NULL, "that says so: %s",
           err.msg);
        ok(fd == -1 && open_fds() == before,
           "the descriptor it carried was closed, not handed over (%d open before, %d after)",
           before, open_fds());
        close(parent.fd);
        close(child.fd);

        /* a short message, and an unknown type */
        pair(&parent, &child);
        ok(write(child.fd, "short", 5) == 5, "send 5 bytes");
        ok(sync_recv(&parent, &got, &fd, &err) == -1 && err.errnum == EPROTO &&
                   strstr(err.msg, "sync message of 5 bytes") != NULL,
           "a short message is an error: %s", err.msg);
        memset(&m, 0, sizeof m);
        m.type = 99;
        m.seq = parent.recv_seq;
        ok(write(child.fd, &m, sizeof m) == (ssize_t)sizeof m, "send a message of type 99");
        ok(sync_recv(&parent, &got, &fd, &err) == -1 &&
                   strstr(err.msg, "unknown sync message type 99") != NULL,
           "an unknown type is an error: %s", err.msg);

        /* EOF: the other end closed (the child's end closes at the workload's execve) */
        close(child.fd);
        ok(sync_recv(&parent, &got, &fd, &err) == 0, "EOF reads as 0");
        m = (struct sync_msg){.type = SYNC_GO};
        ok(sync_send(&parent, &m, -1, &err) == -1 && err.errnum == EPIPE,
           "sending to a closed end fails with EPIPE, without SIGPIPE");
        close(parent.fd);
        close(p[0]);
        close(p[1]);
        return tap_done();
}
