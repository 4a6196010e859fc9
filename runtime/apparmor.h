/* apparmor.h - AppArmor: is it there (parent), switch to a profile on exec (child). */
#ifndef CRIB_APPARMOR_H
#define CRIB_APPARMOR_H

#include <stdbool.h>
#include <stddef.h>

/* Parent: true when AppArmor is built in and enabled; otherwise why not, and the fix. */
bool apparmor_available(char *why, size_t whylen, char *fix, size_t fixlen);

#endif
