/* syntax.h - two small syntaxes that more than one front end reads, defined once: a user as
 * UID[:GID] (a spec's `user`, `crib exec -u`, runc's `exec --user`), and a clean absolute path
 * in the container (a spec's mount destinations and paths, config.json's). Pure: no system
 * call, unit tested (tests/unit/test_store.c). */
#ifndef CRIB_SYNTAX_H
#define CRIB_SYNTAX_H

#include <stdbool.h>
#include <stdint.h>

/* The longest path syntax_clean_path() takes, in bytes, as the kernel's PATH_MAX counts them
 * (the terminating NUL included). */
#define SYNTAX_PATH_MAX 4096

/* "UID" or "UID:GID": decimal digits only (no sign, no space), each at most 4294967294
 * ((uid_t)-1 means "unchanged" to setresuid(2), so it is no user). 0 with *ret_uid, *ret_gid and
 * *ret_has_gid (false: no ":GID", *ret_gid untouched; each caller has its own default), or -1.
 * Any of the three may be NULL. */
int syntax_uid_gid(const char *s, uint32_t *ret_uid, uint32_t *ret_gid, bool *ret_has_gid);

/* Whether `p` is absolute, shorter than SYNTAX_PATH_MAX and has no ".." component: a path
 * that stays below the container's root however it is joined to it. */
bool syntax_clean_path(const char *p);

#endif
