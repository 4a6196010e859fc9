/* syntax.c - UID[:GID] and clean container paths; see syntax.h. */
#include "syntax.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* decimal digits, at most UINT32_MAX - 1: where the number ends, or NULL */
static const char *u32(const char *s, uint32_t *ret)
{
        char *end;
        if (!isdigit((unsigned char)*s))
                return NULL;
        errno = 0;
        unsigned long long n = strtoull(s, &end, 10);
        if (errno || n > UINT32_MAX - 1)
                return NULL;
        *ret = (uint32_t)n;
        return end;
}

int syntax_uid_gid(const char *s, uint32_t *ret_uid, uint32_t *ret_gid, bool *ret_has_gid)
{
        uint32_t uid, gid = 0;
        const char *end = u32(s, &uid);
        if (!end || (*end && *end != ':'))
                return -1;
        bool has_gid = *end == ':';
        if (has_gid && (!(end = u32(end + 1, &gid)) || *end))
                return -1;
        if (ret_uid)
                *ret_uid = uid;
        if (has_gid && ret_gid)
                *ret_gid = gid;
        if (ret_has_gid)
                *ret_has_gid = has_gid;
        return 0;
}

bool syntax_clean_path(const char *p)
{
        if (p[0] != '/' || strnlen(p, SYNTAX_PATH_MAX) >= SYNTAX_PATH_MAX)
                return false;
        for (const char *q = p; (q = strstr(q, "/..")); q += 3)
                if (q[3] == '/' || q[3] == '\0')
                        return false;
        return true;
}
