/* pty.c - the container's terminal (`terminal = yes`).
 *
 * Kernel features: a private devpts instance (mounted with newinstance by mounts.c), /dev/ptmx
 * (pty(7)), TIOCGPTPEER (Linux 4.13) to open the slave side from the master, SCM_RIGHTS
 * (unix(7)) to hand the master to the parent, setsid(2) and TIOCSCTTY to make the slave the
 * workload's controlling terminal.
 *
 * Where it sits: the pty is opened after pivot_root, so it belongs to the container's devpts and
 * the workload sees /dev/pts/0; the parent relays between its own terminal (in raw mode) and the
 * master, and passes window size changes on with TIOCSWINSZ.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif

#include "step.h"
#include "base/cleanup.h"
#include "pty.h"

/* Open `path` of the container's /dev read-write, as a terminal, refusing a link of /proc on
 * the way (ELOOP): the container may have replaced /dev/ptmx, and crib exec's joiner opens it
 * still holding every capability (with pid = no the container's /proc is the host's, so
 * /proc/PID/root/... names a host file: the open alone can act, a watchdog or a FIFO). Before
 * Linux 5.6 (no openat2) a plain open. */
static int open_in_container(const char *path)
{
        int fd = -1;
#if defined(SYS_openat2) && defined(RESOLVE_NO_MAGICLINKS)
        struct open_how how = {.flags = O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK,
                               .resolve = RESOLVE_NO_MAGICLINKS};
        fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
        if (fd < 0 && errno == ENOSYS)
#endif
                fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
        /* (non-blocking only for the open: a FIFO or a line there never holds crib) */
        if (fd >= 0)
                fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        return fd;
}

/* Child: after pivot_root, in the container's devpts. */
int step_open_terminal(struct child *c, struct error *err)
{
        int unlock = 0, n;
        if (!c->plan->terminal)
                return step_skip(c, "no terminal asked for (-t, or terminal = yes)");
        _cleanup_close_ int master = open_in_container("/dev/ptmx");
        trace_line(&c->trace, "  openat2(\"/dev/ptmx\", RESOLVE_NO_MAGICLINKS) = %d", master);
        if (master < 0)
                return error_set(err, errno, "cannot open '/dev/ptmx' in the container");
        /* the container's /dev is the workload's to change (crib exec opens it there later): a
         * pty master of a devpts, or nothing is done with it */
        struct stat st;
        struct statfs sfs;
        if (fstat(master, &st) < 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != 5 ||
            minor(st.st_rdev) != 2 || fstatfs(master, &sfs) < 0 || sfs.f_type != DEVPTS_SUPER_MAGIC)
                return error_set(err, EPERM,
                                 "the container's /dev/ptmx is not a devpts pty master");
        if (ioctl(master, TIOCSPTLCK, &unlock) < 0)
                return error_set(err, errno, "cannot unlock the pty");
        int slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (slave < 0 && ioctl(master, TIOCGPTN, &n) == 0) {
                char path[64];
                snprintf(path, sizeof path, "/dev/pts/%d", n);
                slave = open_in_container(path);
        }
        trace_line(&c->trace, "  ioctl(TIOCGPTPEER) = %d", slave);
        if (slave < 0)
                return error_set(err, errno, "cannot open the pty's slave side");
        c->pty_slave = slave;
        struct sync_msg m = {.type = SYNC_PTY};
        return sync_send(&c->chan, &m, master, err);
}

/* Child: the workload's process. A session of its own, so a ^C on crib's terminal reaches only
 * crib (which forwards it), and the pty as controlling terminal when there is one. */
int step_attach_terminal(struct child *c, struct error *err)
{
        pid_t sid = setsid();
        trace_line(&c->trace, "  setsid() = %d", (int)sid);
        if (c->pty_slave < 0)
                return step_skip(c, "no terminal");
        int s = c->pty_slave;
        if (ioctl(s, TIOCSCTTY, 0) < 0)
                return error_set(err, errno, "cannot make the pty the controlling terminal");
        for (int fd = 0; fd < 3; fd++)
                if (dup2(s, fd) < 0)
                        return error_set(err, errno, "cannot attach the pty to fd %d", fd);
        trace_line(&c->trace, "  ioctl(TIOCSCTTY); dup2(pty, 0..2)");
        if (s > 2)
                close(s);
        c->pty_slave = -1;
        return 0;
}

/* Parent: put the user's terminal in raw mode, so keys (^C, ^Z) go to the container. */
int pty_raw(int fd, struct termios *saved)
{
        struct termios t;
        if (tcgetattr(fd, saved) < 0)
                return -1;
        t = *saved;
        cfmakeraw(&t);
        return tcsetattr(fd, TCSADRAIN, &t);
}

void pty_restore(int fd, const struct termios *saved)
{
        tcsetattr(fd, TCSADRAIN, saved);
}

void pty_copy_size(int from, int to)
{
        struct winsize ws;
        if (ioctl(from, TIOCGWINSZ, &ws) == 0)
                ioctl(to, TIOCSWINSZ, &ws);
}
