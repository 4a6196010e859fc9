/* sealed.h - crib from a sealed in-memory copy of itself (see sealed.c). */
#ifndef CRIB_SEALED_H
#define CRIB_SEALED_H

#include <stdbool.h>

#include "error.h"

/* Whether this process runs from a sealed copy already. */
bool sealed_running(void);

/* Execute argv again from a sealed memfd copy of /proc/self/exe; returns only on failure. */
int sealed_reexec(char **argv, char **envp, struct error *err);

#endif
