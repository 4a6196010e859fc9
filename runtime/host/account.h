/* account.h - the invoking user's host account (name and home), read from /etc/passwd.
 *
 * crib is linked statically, so it asks no NSS module (passwd(5) through nsswitch.conf): the
 * name and home of an account that only a directory service (LDAP, sssd) knows come from the
 * environment instead. The name serves only to find the user's lines in /etc/subuid, which
 * newuidmap(1) checks again on its own.
 */
#ifndef CRIB_ACCOUNT_H
#define CRIB_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct account {
        char name[64];
        char home[256];
};

/* The entry of `uid` in a passwd(5) file; false when it has none. Pure. */
bool account_read(FILE *f, uid_t uid, struct account *ret);

/* The account of `uid`: /etc/passwd, else $LOGNAME (or $USER) and $HOME; a field nothing
 * gives is left empty. */
void account_of(uid_t uid, struct account *ret);

/* Where the image store is, as the environment says (docs/store.md): $CRIB_STORE,
 * $XDG_DATA_HOME and $HOME, NULL when unset. */
struct data_dirs {
        const char *crib_store, *xdg_data_home, *home;
};
void account_data_dirs(struct data_dirs *ret);

#endif
