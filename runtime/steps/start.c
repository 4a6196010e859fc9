/* start.c - `crib create` and `crib start` (the OCI lifecycle): a container set up in full that
 * waits, before its exec, for a separate command to let it go.
 *
 * Kernel feature: fifo(7). `crib create` makes ROOT/ID/exec.fifo (mode 0622, in the 0700
 * directory only its owner can walk) and hands the setup process an O_PATH descriptor of it
 * (launch_fds.start_fifo), as runc does. At the end of its setup the workload's process tells
 * crib it is created, gives up its parent-death signal (crib create exits now; the engine that
 * ran it, a subreaper, adopts the process), and opens the fifo for writing through
 * /proc/self/fd: open(2) blocks until `crib start` opens it for reading. It writes one byte,
 * keeps the descriptor close-on-exec, and goes on to exec: `crib start` reads end-of-file when
 * the exec succeeded, or the error when it failed (step_failed writes it there).
 *
 * Why it cannot be started early: the fifo's only name is in the state directory, which no
 * process of the container can reach (pivot_root left it behind, and nothing of the workload
 * exists yet); the O_PATH descriptor is the setup process's own and closes on exec. What can
 * go wrong: a workload's seccomp profile without open, write or close stops it here (the
 * default profiles allow all three).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "step.h"

/* Child: a program that is not there is create's error, as under runc (engines turn its
 * "not found" into exit status 127); whether it runs is still the exec's to find out */
static int program_exists(struct child *c, struct error *err)
{
        const char *prog = c->plan->argv[0];
        if (strchr(prog, '/')) {
                if (access(prog, F_OK) == 0)
                        return 0;
                error_set(err, ENOENT, "'%s' does not exist in the container", prog);
                return error_kind(err, ERROR_EXEC_NOTFOUND);
        }
        const char *path = container_path(c->plan);
        for (const char *dir = path; dir;) {
                const char *colon = strchr(dir, ':');
                size_t len = colon ? (size_t)(colon - dir) : strlen(dir);
                char cand[4096];
                snprintf(cand, sizeof cand, "%.*s/%s", (int)len, len ? dir : ".", prog);
                dir = colon ? colon + 1 : NULL;
                if (access(cand, F_OK) == 0)
                        return 0;
        }
        error_set(err, ENOENT, "'%s' not found in the container", prog);
        error_hint(err, "crib looked in PATH=%s inside the rootfs '%s'", path, c->plan->rootfs);
        return error_kind(err, ERROR_EXEC_NOTFOUND);
}

/* Child: the workload's process, after every other step but the exec. */
int step_wait_start(struct child *c, struct error *err)
{
        if (!c->plan->wait_start)
                return step_skip(c, "not made by crib create: nothing waits for crib start");
        if (program_exists(c, err) < 0)
                return -1;
        char path[64];
        snprintf(path, sizeof path, "/proc/self/fd/%d", c->fds->start_fifo);
        /* crib create exits once we are created: from here on we outlive it */
        int r = prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0);
        trace_line(&c->trace, "  prctl(PR_SET_PDEATHSIG, 0) = %d", r);
        struct sync_msg m = {.type = SYNC_CREATED};
        if (sync_send(&c->chan, &m, -1, err) < 0)
                return -1;
        close(c->chan.fd); /* nobody reads it from now on: errors go to `crib start` */
        c->chan.fd = -1;
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "cannot open the start fifo");
        c->start_fd = fd;
        close(c->fds->start_fifo); /* its O_PATH: the write end is all we need now */
        if (write(fd, "0", 1) != 1)
                return error_set(err, errno, "cannot write the start fifo");
        return 0;
}

/* Child: a step failed after `crib start` let us go: tell it, as "STATUS MESSAGE\nHINT". */
void start_report(struct child *c, const struct error *err)
{
        char text[sizeof err->msg + sizeof err->hint + 64];
        int n;
        if (err->errnum)
                n = snprintf(text, sizeof text, "%d %s: %s\n%s", error_exit_status(err), err->msg,
                             strerror(err->errnum), err->hint);
        else
                n = snprintf(text, sizeof text, "%d %s\n%s", error_exit_status(err), err->msg,
                             err->hint);
        if (n > 0 && write(c->start_fd, text, strnlen(text, sizeof text)) < 0)
                return; /* nobody to tell */
}
