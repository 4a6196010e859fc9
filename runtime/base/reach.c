/* reach.c - see reach.h. */
#define _GNU_SOURCE
#include "reach.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "cleanup.h"

bool reach_group_private(FILE *passwd, FILE *group, uid_t uid, gid_t gid)
{
        char line[4096], name[256] = "";
        bool own = false, listed = false;
        while (fgets(line, sizeof line, passwd)) {
                char *f[4], *at = line;
                size_t n = 0;
                if ((!strchr(line, '\n') && !feof(passwd)) || line[0] == '+' || line[0] == '-')
                        return false;
                /* name:password:uid:gid:... ; strsep keeps empty fields */
                while (n < 4 && (f[n] = strsep(&at, ":\n")))
                        n++;
                if (n < 4)
                        continue;
                char *end;
                unsigned long u = strtoul(f[2], &end, 10), g;
                if (*end || !*f[2])
                        continue;
                g = strtoul(f[3], &end, 10);
                if (*end || !*f[3])
                        continue;
                if (u == uid && g == gid && !own) {
                        own = true;
                        snprintf(name, sizeof name, "%s", f[0]);
                } else if (g == gid) {
                        return false; /* another account's primary group too */
                }
        }
        if (!own || !name[0])
                return false;
        /* every line of that gid (a group may have two names) */
        while (fgets(line, sizeof line, group)) {
                char *f[4], *at = line;
                size_t n = 0;
                if ((!strchr(line, '\n') && !feof(group)) || line[0] == '+' || line[0] == '-')
                        return false;
                while (n < 4 && (f[n] = strsep(&at, ":\n")))
                        n++;
                char *end;
                if (n < 4 || strtoul(f[2], &end, 10) != gid || *end || !*f[2])
                        continue;
                for (char *m; (m = strsep(&f[3], ","));)
                        if (*m && strcmp(m, name))
                                return false;
                listed = true;
        }
        return listed;
}

/* whether the group `gid` speaks for root and `uid` alone */
static bool group_only(gid_t gid, uid_t uid, struct reach_cache *c)
{
        if (gid == 0)
                return true;
        if (uid == 0)
                return false;
        if (!c->asked || c->gid != gid) {
                _cleanup_fclose_ FILE *pw = fopen("/etc/passwd", "re");
                _cleanup_fclose_ FILE *gr = fopen("/etc/group", "re");
                c->asked = true;
                c->gid = gid;
                c->yes = pw && gr && reach_group_private(pw, gr, uid, gid);
        }
        return c->yes;
}

bool reach_has_acl(int fd)
{
        char self[64];
        snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
        return !(getxattr(self, "system.posix_acl_access", NULL, 0) < 0 &&
                 (errno == ENODATA || errno == ENOTSUP));
}

bool reach_shuts_out(int fd, const struct stat *st, uid_t uid, struct reach_cache *c)
{
        if ((st->st_uid != 0 && st->st_uid != uid) || (st->st_mode & S_IXOTH))
                return false;
        if (!(st->st_mode & S_IXGRP))
                return true; /* with an ACL too: the mask gives no named entry search */
        return group_only(st->st_gid, uid, c) && !reach_has_acl(fd);
}

bool reach_others_may_change(int fd, const struct stat *st, uid_t uid, struct reach_cache *c)
{
        if (st->st_uid != 0 && st->st_uid != uid)
                return true;
        if (st->st_mode & S_ISVTX)
                return false; /* others' own entries only: not root's, not the user's */
        if (st->st_mode & S_IWOTH)
                return true;
        if (!(st->st_mode & S_IWGRP))
                return false; /* with an ACL too: the mask gives no named entry write */
        return !group_only(st->st_gid, uid, c) || reach_has_acl(fd);
}
