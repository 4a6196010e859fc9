/* apparmor.c - confine the workload with an AppArmor profile (crib-default by default).
 *
 * Kernel feature: the AppArmor LSM. A process asks to change profile at its next exec by
 * writing "exec NAME" to /proc/self/attr/apparmor/exec (Linux 5.8; /proc/self/attr/exec
 * before), which is what libapparmor's aa_change_onexec() does; the kernel refuses a profile
 * that is not loaded. crib only switches to profiles root has loaded (`sudo make
 * install-apparmor`); it never loads policy.
 *
 * Where it sits: the parent asks libapparmor whether AppArmor is built in and on (plan.c); the
 * child makes the request as the last step before execve, after every other setup step, so
 * the workload and nothing before it starts confined.
 *
 * What goes wrong: not built into the kernel; built in but off at boot (the Raspberry Pi OS
 * state: `apparmor=1 security=apparmor` on the kernel command line turns it on); securityfs
 * not mounted; the profile not loaded. With `apparmor_mode = prefer` crib warns once and runs
 * without; with `require`, or a profile the spec names itself (unless the spec also says
 * `apparmor_mode = prefer`), it is an error.
 */
#define _GNU_SOURCE
#include "apparmor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/apparmor.h>
#include <unistd.h>

#include "bootline.h"
#include "step.h"

bool apparmor_available(char *why, size_t whylen, char *fix, size_t fixlen, int *errnum)
{
        /* a kernel without AppArmor has no /sys/module/apparmor (its parameters live there):
         * one call, where libapparmor's answer for that case, ENOSYS, takes six */
        int e;
        if (access("/sys/module/apparmor", F_OK) < 0 && errno == ENOENT)
                e = ENOSYS;
        else if (aa_is_enabled() == 1)
                return true;
        else
                e = errno;
        if (errnum)
                *errnum = e;
        switch (e) {
        case ECANCELED:
                snprintf(why, whylen, "it is built into this kernel but disabled at boot");
                snprintf(fix, fixlen,
                         "add 'apparmor=1 security=apparmor' (or an lsm= list with apparmor) to "
                         "the kernel command line%s, and reboot",
                         bootline_where());
                break;
        case ENOENT:
                snprintf(why, whylen, "securityfs is not mounted");
                snprintf(fix, fixlen, "sudo mount -t securityfs securityfs /sys/kernel/security");
                break;
        case ENOSYS:
                snprintf(why, whylen, "it is not built into this kernel");
                /* (how to run without it is the spec's to say: plan.c, in its front end's words) */
                snprintf(fix, fixlen,
                         "use a kernel built with CONFIG_SECURITY_APPARMOR=y (Debian's and "
                         "Raspberry Pi OS's are)");
                break;
        default:
                snprintf(why, whylen, "libapparmor says %s", strerror(e));
                snprintf(fix, fixlen, "see 'crib check'");
                break;
        }
        return false;
}

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
