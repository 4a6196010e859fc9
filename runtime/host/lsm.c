/* lsm.c - the Linux security modules crib uses, as this host has them: is AppArmor on?
 *
 * Kernel feature: the AppArmor LSM, asked through libapparmor's aa_is_enabled() (which reads
 * /sys/module/apparmor/parameters/enabled and looks for securityfs); steps/apparmor.c makes
 * the workload's profile switch. Asked by the parent for the plan (gather.c) and by `crib
 * check`; only reads.
 *
 * What goes wrong: not built into the kernel; built in but off at boot (the Raspberry Pi OS
 * state: `apparmor=1 security=apparmor` on the kernel command line turns it on); securityfs
 * not mounted. Each gets its why and its fix here, in words any front end can use.
 *
 * securityfs is where policy is loaded and read, not what a profile switch needs: that goes
 * through /proc (steps/apparmor.c). An engine may run crib in a mount namespace without it
 * (podman does for root's container with a user namespace), so where libapparmor says
 * securityfs is missing (ENOENT), the kernel's own parameter decides: AppArmor is on when it
 * says Y, and a profile that is not loaded is refused at the switch, as anywhere.
 */
#define _GNU_SOURCE
#include "lsm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/apparmor.h>
#include <unistd.h>

#include "bootline.h"

/* the kernel's answer, which needs no securityfs: Y when AppArmor is on */
static bool enabled_parameter(void)
{
        char c = 0;
        int fd = open("/sys/module/apparmor/parameters/enabled", O_RDONLY | O_CLOEXEC);
        bool on = fd >= 0 && read(fd, &c, 1) == 1 && c == 'Y';
        if (fd >= 0)
                close(fd);
        return on;
}

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
        if (e == ENOENT && enabled_parameter()) {
                if (errnum)
                        *errnum = ENOENT; /* on, without securityfs: for crib check's evidence */
                return true;
        }
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
