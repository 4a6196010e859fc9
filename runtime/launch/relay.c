/* relay.c - the parent's side of a container's terminal: crib's own terminal (raw while the
 * container has it) relayed to and from the container's pty master (relay.h).
 */
#define _GNU_SOURCE
#include "relay.h"

#include <errno.h>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include "pty.h"
#include "sys.h"

void relay_start(struct relay *r, int master)
{
        r->master = master;
        r->stdin_open = true;
        if (isatty(STDIN_FILENO)) {
                r->raw = pty_raw(STDIN_FILENO, &r->saved) == 0;
                pty_copy_size(STDIN_FILENO, master);
        } else if (isatty(STDOUT_FILENO)) {
                pty_copy_size(STDOUT_FILENO, master);
        }
}

bool relay_out(struct relay *r)
{
        char buf[4096];
        ssize_t n = read(r->master, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
                return true;
        if (n <= 0)
                return false;
        sys_write_all(STDOUT_FILENO, buf, (size_t)n);
        return true;
}

void relay_in(struct relay *r)
{
        char buf[4096];
        ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
                return;
        if (n <= 0) {
                /* end of a non-terminal stdin: pass the terminal's end-of-file character on */
                struct termios t;
                if (tcgetattr(r->master, &t) == 0)
                        sys_write_all(r->master, (const char *)&t.c_cc[VEOF], 1);
                r->stdin_open = false;
                return;
        }
        sys_write_all(r->master, buf, (size_t)n);
}

void relay_end(struct relay *r)
{
        if (r->master < 0)
                return;
        fcntl(r->master, F_SETFL, O_NONBLOCK);
        while (relay_out(r))
                ;
        if (r->raw)
                pty_restore(STDIN_FILENO, &r->saved);
        close(r->master);
        r->master = -1;
}
