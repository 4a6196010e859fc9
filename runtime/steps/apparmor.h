/* apparmor.h - AppArmor: is it there (parent), switch to a profile on exec (child). */
#ifndef CRIB_APPARMOR_H
#define CRIB_APPARMOR_H

#include <stdbool.h>
#include <stddef.h>

/* Parent: true when AppArmor is built in and enabled; otherwise why not, the fix, and the
 * errno of libapparmor's aa_is_enabled() (ENOSYS not built in, ECANCELED off at boot, ENOENT
 * no securityfs; errnum may be NULL). */
bool apparmor_available(char *why, size_t whylen, char *fix, size_t fixlen, int *errnum);

#endif
