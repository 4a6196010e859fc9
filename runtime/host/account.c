/* account.c - the invoking user's account without NSS; see account.h. */
#define _GNU_SOURCE
#include "account.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"

bool account_read(FILE *f, uid_t uid, struct account *ret)
{
        struct passwd pw, *found;
        char buf[4096]; /* fgetpwent_r stops at a longer line (ERANGE) */
        memset(ret, 0, sizeof *ret);
        while (fgetpwent_r(f, &pw, buf, sizeof buf, &found) == 0) {
                if (pw.pw_uid != uid)
                        continue;
                snprintf(ret->name, sizeof ret->name, "%s", pw.pw_name);
                snprintf(ret->home, sizeof ret->home, "%s", pw.pw_dir);
                return true;
        }
        return false;
}

void account_of(uid_t uid, struct account *ret)
{
        _cleanup_fclose_ FILE *f = fopen("/etc/passwd", "re");
        if (f && account_read(f, uid, ret))
                return;
        memset(ret, 0, sizeof *ret);
        const char *name = getenv("LOGNAME"), *home = getenv("HOME");
        if (!name || !*name)
                name = getenv("USER");
        if (name)
                snprintf(ret->name, sizeof ret->name, "%s", name);
        if (home && home[0] == '/')
                snprintf(ret->home, sizeof ret->home, "%s", home);
}

void account_data_dirs(struct data_dirs *ret)
{
        ret->crib_store = getenv("CRIB_STORE");
        ret->xdg_data_home = getenv("XDG_DATA_HOME");
        ret->home = getenv("HOME");
}
