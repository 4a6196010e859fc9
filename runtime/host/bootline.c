/* bootline.c - where the kernel command line is edited, for remedies such as
 * `apparmor=1 security=apparmor` or `cgroup_enable=memory`.
 *
 * Kernel feature: the kernel command line (/proc/cmdline). On a Raspberry Pi the firmware
 * reads it from the one line of /boot/firmware/cmdline.txt (/boot/cmdline.txt before Raspberry
 * Pi OS bookworm); elsewhere it comes from the boot loader's configuration, which crib does
 * not guess at.
 */
#include "bootline.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"

bool bootline_raspberry_pi(void)
{
        char model[128] = "";
        _cleanup_fclose_ FILE *f = fopen("/proc/device-tree/model", "re");
        return f && fgets(model, sizeof model, f) && strstr(model, "Raspberry Pi");
}

const char *bootline_where(void)
{
        if (!bootline_raspberry_pi())
                return "";
        return access("/boot/firmware/cmdline.txt", F_OK) == 0 ? " in /boot/firmware/cmdline.txt"
                                                               : " in /boot/cmdline.txt";
}
