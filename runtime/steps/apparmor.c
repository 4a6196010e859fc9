/* apparmor.c - confine the workload with an AppArmor profile (crib-default by default).
 *
 * Kernel feature: the AppArmor LSM. A process asks to change profile at its next exec by
 * writing "exec NAME" to /proc/self/attr/apparmor/exec (Linux 5.8; /proc/self/attr/exec
 * before), which is what libapparmor's aa_change_onexec() does; the kernel refuses a profile
 * that is not loaded. crib only switches to profiles root has loaded (`sudo make
 * install-apparmor`); it never loads policy.
 *
 * Where it sits: the parent asks whether AppArmor is built in and on (host/lsm.c, for the
 * plan); the child makes the request as the last step before execve, after every other setup
 * step, so the workload and nothing before it starts confined.
 *
 * What goes wrong: not built into the kernel; built in but off at boot (the Raspberry Pi OS
 * state: `apparmor=1 security=apparmor` on the kernel command line turns it on); securityfs
 * not mounted; the profile not loaded. With `apparmor_mode = prefer` crib warns once and runs
 * without; with `require`, or a profile the spec names itself (unless the spec also says
 * `apparmor_mode = prefer`), it is an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "step.h"

/* Child: the workload's process, the last step before exec. */
int step_apparmor(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        char req[300];
        if (!p->apparmor[0])
                return step_skip(c, "no AppArmor profile: the workload runs as crib does");
        snprintf(req, sizeof req, "exec %s", p->apparmor);
        /* the thread's own files, under the /proc we were given (enter.c) or the container's */
        int dir = c->procfd >= 0 ? c->procfd : AT_FDCWD;
        const char *path =
                c->procfd >= 0 ? "thread-self/attr/apparmor/exec" : "/proc/self/attr/apparmor/exec";
        int fd = openat(dir, path, O_WRONLY | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT) {
                path = c->procfd >= 0 ? "thread-self/attr/exec" : "/proc/self/attr/exec";
                fd = openat(dir, path, O_WRONLY | O_CLOEXEC);
        }
        ssize_t n = fd < 0 ? -1 : write(fd, req, strlen(req));
        int e = errno;
        if (fd >= 0)
                close(fd);
        trace_line(&c->trace, "  write(\"%s\", \"%s\") = %zd: the workload will run as '%s'", path,
                   req, n, p->apparmor);
        if (n == (ssize_t)strlen(req))
                return 0;
        if (!p->apparmor_required) {
                child_warn(c,
                           "cannot switch to AppArmor profile '%s' (%s); running without it\n"
                           "load crib's profiles with: sudo make install-apparmor",
                           p->apparmor, strerror(e));
                return 0;
        }
        error_set(err, e, "cannot switch to AppArmor profile '%s'", p->apparmor);
        return error_hint(err, "is it loaded? crib's profiles load with: sudo make "
                               "install-apparmor");
}
