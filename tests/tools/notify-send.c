/* notify-send MODE - a container's side of sd_notify(3) for the systemd guest's tests
 * (tests/vm/systemd-tests.sh), static, bind-mounted into the container: one or more datagrams
 * to $NOTIFY_SOCKET (a path, as crib's proxy gives it).
 *   ready    READY=1 and a STATUS= line
 *   attack   what a hostile container may send crib's proxy, none of which systemd must get:
 *            MAINPID=1 with READY=1, a datagram with a descriptor (SCM_RIGHTS) and READY=1,
 *            a datagram of 64 KiB with READY=1, binary garbage; then STATUS=attacked, alone
 * Exit 0 when every datagram was sent. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int fd = -1;
static struct sockaddr_un sa = {.sun_family = AF_UNIX};

static int send_one(const void *buf, size_t n, int pass_fd)
{
        struct iovec iov = {.iov_base = (void *)buf, .iov_len = n};
        union {
                struct cmsghdr h;
                char space[CMSG_SPACE(sizeof(int))];
        } ctl;
        struct msghdr mh = {
                .msg_name = &sa, .msg_namelen = sizeof sa, .msg_iov = &iov, .msg_iovlen = 1};
        if (pass_fd >= 0) {
                memset(&ctl, 0, sizeof ctl);
                mh.msg_control = &ctl;
                mh.msg_controllen = sizeof ctl;
                struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
                c->cmsg_level = SOL_SOCKET;
                c->cmsg_type = SCM_RIGHTS;
                c->cmsg_len = CMSG_LEN(sizeof(int));
                memcpy(CMSG_DATA(c), &pass_fd, sizeof pass_fd);
        }
        if (sendmsg(fd, &mh, 0) < 0) {
                perror("notify-send: sendmsg");
                return -1;
        }
        return 0;
}

int main(int argc, char **argv)
{
        const char *where = getenv("NOTIFY_SOCKET");
        if (argc != 2 || !where || where[0] != '/' || strlen(where) >= sizeof sa.sun_path) {
                fprintf(stderr, "usage: NOTIFY_SOCKET=/PATH notify-send ready|attack\n");
                return 2;
        }
        memcpy(sa.sun_path, where, strlen(where) + 1);
        fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return 1;
        if (!strcmp(argv[1], "ready")) {
                const char m[] = "READY=1\nSTATUS=ready, said the container";
                return send_one(m, sizeof m - 1, -1) < 0;
        }
        int bad = 0;
        const char pid1[] = "MAINPID=1\nREADY=1";
        bad |= send_one(pid1, sizeof pid1 - 1, -1);
        const char withfd[] = "READY=1\nFDSTORE=1";
        bad |= send_one(withfd, sizeof withfd - 1, open("/", O_RDONLY | O_DIRECTORY));
        static char huge[65536];
        memset(huge, 'A', sizeof huge);
        memcpy(huge, "READY=1\nSTATUS=", 15);
        bad |= send_one(huge, sizeof huge, -1);
        const char garbage[] = "\x01\x02READY=1\0MAINPID=1\n=\n\xff\xfe";
        bad |= send_one(garbage, sizeof garbage - 1, -1);
        const char alone[] = "MAINPID=1";
        bad |= send_one(alone, sizeof alone - 1, -1);
        const char status[] = "STATUS=attacked";
        bad |= send_one(status, sizeof status - 1, -1);
        return bad ? 1 : 0;
}
