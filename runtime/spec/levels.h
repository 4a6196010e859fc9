/* levels.h - the security levels of profiles/levels/, built into crib as data. */
#ifndef CRIB_LEVELS_H
#define CRIB_LEVELS_H

#include <stddef.h>

/* The text of level NAME, NULL when there is none. */
const char *levels_text(const char *name);
/* The name of the i-th level, NULL past the last. */
const char *levels_name(size_t i);

#endif
