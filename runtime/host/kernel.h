/* kernel.h - what the running kernel offers, and where crib runs in it (kernel.c). */
#ifndef CRIB_KERNEL_H
#define CRIB_KERNEL_H

#include <stdbool.h>

/* The kernel's version, major.minor, from uname(2). */
void seccomp_kernel_version(unsigned *major, unsigned *minor);
/* 1: the kernel has seccomp filters; 0: it has not (CONFIG_SECCOMP_FILTER). */
int seccomp_kernel_supported(void);
/* 1: the kernel knows SECCOMP_CLONE_FILTER (seccomp op 4, proposed, not in mainline); 0: not.
 * Asks an operation number upstream has not assigned: for `crib check` and `crib bench` only,
 * in a throw-away process that has set no_new_privs; never on a container's way to its workload. */
int seccomp_kernel_has_clone_filter(void);

/* Whether this kernel has idmapped mounts (mount_setattr(2), Linux 5.12). */
bool userns_idmap_supported(void);

/* Whether we run in the host's user namespace (uid_map is the whole identity map). */
bool userns_is_initial(void);

/* What says which CPU this is, for the image platform it runs (image/platform.c's
 * platform_detect): uname(2)'s machine, the auxiliary vector's AT_PLATFORM ("" when absent)
 * and /proc/cpuinfo's first "CPU part" ("" when absent). */
struct host_machine {
        char machine[65];
        char at_platform[32];
        char cpu_part[32];
};
void host_machine_facts(struct host_machine *ret);

#endif
