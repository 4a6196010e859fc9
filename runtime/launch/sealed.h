/* sealed.h - crib from a sealed in-memory copy of itself (see sealed.c). */
#ifndef CRIB_SEALED_H
#define CRIB_SEALED_H

#include <stdbool.h>

#include "base/error.h"
#include "plan/plan.h"

/* Whether this process runs from a sealed copy already. */
bool sealed_running(void);

/* A container without a user namespace whose bounding set holds SYS_PTRACE is host root with
 * ptrace(2): it could open /proc/PID/exe of crib's processes in it (crib's init, crib exec's
 * entered process) and rewrite crib's binary once nothing runs it (CVE-2019-5736). Whether a
 * command about to start or enter a container of plan `p` must first run again from a sealed
 * copy (it does not already). */
bool sealed_needed(const struct plan *p);

/* Execute argv again from a sealed memfd copy of /proc/self/exe; returns only on failure. */
int sealed_reexec(char **argv, char **envp, struct error *err);

#endif
