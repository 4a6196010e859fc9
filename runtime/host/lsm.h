/* lsm.h - the Linux security modules crib uses, as this host has them (lsm.c). */
#ifndef CRIB_LSM_H
#define CRIB_LSM_H

#include <stdbool.h>
#include <stddef.h>

/* Parent: true when AppArmor is built in and enabled; otherwise why not, the fix, and the
 * errno of libapparmor's aa_is_enabled() (ENOSYS not built in, ECANCELED off at boot, ENOENT
 * no securityfs; errnum may be NULL). True with *errnum ENOENT: on, but no securityfs here
 * (the kernel's parameter says Y): a profile switch, through /proc, still works. */
bool apparmor_available(char *why, size_t whylen, char *fix, size_t fixlen, int *errnum);

#endif
