/* words.h - split a command line into words with shell-like quoting, and nothing more: 'single'
 * quotes are literal, "double" quotes allow \" \\ \$ \`, a backslash outside quotes takes the next
 * character literally. No variable, command or glob expansion: crib never runs a shell for you.
 * And how far apart two words are, for a "did you mean" (a spec's key, a command's name). */
#ifndef CRIB_WORDS_H
#define CRIB_WORDS_H

#include <stddef.h>

#include "error.h"

#define WORDS_MAX 1024

/* On success *ret is a NULL-terminated vector; free it with words_free(). Errors have no
 * location: the caller wraps them with its own. */
int words_split(const char *s, char ***ret, size_t *ret_n, struct error *err);
void words_free(char **v);
/* How many edits (a byte inserted, deleted or changed, two neighbours swapped) make a of b;
 * SIZE_MAX when either is longer than 64 bytes. */
size_t words_distance(const char *a, const char *b);

#endif
