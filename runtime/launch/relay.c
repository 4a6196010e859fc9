/* relay.c - the parent's side of a container process's standard streams: a pty's master, or
 * pipes (relay.h).
 *
 * Kernel features: poll(2) on non-blocking descriptors; a pty master reads EIO once every slave
 * descriptor is closed; a pipe's write end gets EPIPE once its reader is gone (crib exec blocks
 * SIGPIPE for that: follow.c's block_sigpipe).
 */
#define _GNU_SOURCE
#include "relay.h"

#include <errno.h>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include "steps/pty.h"
#include "base/sys.h"

/* at most this many reads of what the container wrote once it is gone: a process it left
 * running that writes without end must not keep crib from exiting */
#define RELAY_DRAIN_READS 256

static void nonblocking(int fd)
{
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0)
                fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

void relay_init(struct relay *r)
{
        r->master = r->in = r->out[0] = r->out[1] = -1;
        r->stdin_open = r->hung_up = r->raw = false;
        r->len = r->off = 0;
}

void relay_start(struct relay *r, int master)
{
        r->master = master;
        r->stdin_open = true;
        nonblocking(master);
        if (isatty(STDIN_FILENO)) {
                r->raw = pty_raw(STDIN_FILENO, &r->saved) == 0;
                pty_copy_size(STDIN_FILENO, master);
        } else if (isatty(STDOUT_FILENO)) {
                pty_copy_size(STDOUT_FILENO, master);
        }
}

void relay_start_pipes(struct relay *r, int in, int out, int err)
{
        r->in = in;
        r->out[0] = out;
        r->out[1] = err;
        r->stdin_open = in >= 0;
        for (int i = 0; i < 3; i++) {
                int fd = i == 0 ? in : r->out[i - 1];
                if (fd >= 0)
                        nonblocking(fd);
        }
}

bool relay_active(const struct relay *r)
{
        return r->master >= 0 || r->in >= 0 || r->out[0] >= 0 || r->out[1] >= 0;
}

/* where our stdin goes: the pty, or the stdin pipe; -1 for nowhere */
static int target(const struct relay *r)
{
        if (r->master >= 0)
                return r->hung_up ? -1 : r->master;
        return r->in;
}

int relay_poll(struct relay *r, struct pollfd *pfd)
{
        int n = 0;
        if (r->master >= 0 && !r->hung_up)
                pfd[n++] = (struct pollfd){.fd = r->master,
                                           .events = (short)(POLLIN | (r->len ? POLLOUT : 0))};
        if (r->stdin_open && r->len == 0 && target(r) >= 0)
                pfd[n++] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
        if (r->in >= 0 && r->len)
                pfd[n++] = (struct pollfd){.fd = r->in, .events = POLLOUT};
        for (int k = 0; k < 2; k++)
                if (r->out[k] >= 0)
                        pfd[n++] = (struct pollfd){.fd = r->out[k], .events = POLLIN};
        return n;
}

/* Our stdin goes no further: the pipe is closed (the process reads end-of-file). */
static void stop_input(struct relay *r)
{
        r->stdin_open = false;
        r->len = r->off = 0;
        if (r->in >= 0) {
                close(r->in);
                r->in = -1;
        }
}

/* Write what the buffer holds to the container, as far as it takes it now. */
static void flush(struct relay *r)
{
        int fd = target(r);
        while (fd >= 0 && r->off < r->len) {
                ssize_t w = write(fd, r->buf + r->off, r->len - r->off);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w < 0 && errno == EAGAIN)
                        return; /* it does not read: poll says when it does */
                if (w <= 0) {
                        stop_input(r); /* gone (EPIPE, EIO): what it did not read is dropped */
                        return;
                }
                r->off += (size_t)w;
        }
        r->len = r->off = 0;
}

static void read_stdin(struct relay *r)
{
        ssize_t n = read(STDIN_FILENO, r->buf, sizeof r->buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
                return;
        if (n <= 0) {
                r->stdin_open = false;
                if (r->master >= 0) {
                        /* end of a non-terminal stdin: the terminal's end-of-file character */
                        struct termios t;
                        if (tcgetattr(r->master, &t) == 0) {
                                r->buf[0] = (char)t.c_cc[VEOF];
                                r->len = 1;
                                r->off = 0;
                                flush(r);
                        }
                } else {
                        stop_input(r);
                }
                return;
        }
        r->len = (size_t)n;
        r->off = 0;
        flush(r);
}

/* Copy what `from` has ready to `to`; false at its end (or the pty's EIO). */
static bool copy_out(int from, int to)
{
        char buf[4096];
        ssize_t n = read(from, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
                return true;
        if (n <= 0)
                return false;
        sys_write_all(to, buf, (size_t)n);
        return true;
}

void relay_handle(struct relay *r, const struct pollfd *pfd, int n)
{
        for (int i = 0; i < n; i++) {
                int fd = pfd[i].fd;
                short re = pfd[i].revents;
                if (!re)
                        continue;
                if (fd == r->master) {
                        if ((re & (POLLIN | POLLHUP | POLLERR)) &&
                            !copy_out(r->master, STDOUT_FILENO)) {
                                /* every slave side is closed: stop polling, drain at the end */
                                r->hung_up = true;
                                r->stdin_open = false;
                                r->len = r->off = 0;
                                continue;
                        }
                        if (re & POLLOUT)
                                flush(r);
                } else if (fd == STDIN_FILENO) {
                        read_stdin(r);
                } else if (fd == r->in) {
                        flush(r);
                } else {
                        for (int k = 0; k < 2; k++)
                                if (fd == r->out[k] && !copy_out(fd, STDOUT_FILENO + k)) {
                                        close(fd);
                                        r->out[k] = -1;
                                }
                }
        }
}

/* What `fd` has ready now, and no more (bounded): the container is gone, or left something. */
static void drain(int fd, int to)
{
        for (int i = 0; i < RELAY_DRAIN_READS; i++) {
                char buf[4096];
                ssize_t n = read(fd, buf, sizeof buf);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        return;
                sys_write_all(to, buf, (size_t)n);
        }
}

void relay_end(struct relay *r)
{
        if (r->master >= 0) {
                drain(r->master, STDOUT_FILENO);
                close(r->master);
        }
        if (r->raw)
                pty_restore(STDIN_FILENO, &r->saved);
        r->raw = false;
        for (int k = 0; k < 2; k++)
                if (r->out[k] >= 0) {
                        drain(r->out[k], STDOUT_FILENO + k);
                        close(r->out[k]);
                }
        if (r->in >= 0)
                close(r->in);
        relay_init(r);
}
