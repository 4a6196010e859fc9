/* imgpath.c - names of layer entries, cleaned or refused (imgpath.h). */
#include "imgpath.h"

#include <string.h>

const char *imgpath_clean(const char *name, char *buf, size_t len)
{
        size_t o = 0, depth = 0;
        if (len == 0)
                return "has no room";
        buf[0] = '\0';
        if (name[0] == '/')
                return "is absolute";
        const char *p = name;
        while (*p) {
                const char *end = strchr(p, '/');
                size_t n = end ? (size_t)(end - p) : strlen(p);
                if (n == 2 && p[0] == '.' && p[1] == '.')
                        return "has a '..' component";
                if (n > 255)
                        return "has a component longer than 255 bytes";
                if (n && !(n == 1 && p[0] == '.')) {
                        if (++depth > IMGPATH_MAX_DEPTH)
                                return "is nested too deeply";
                        if (o + (o ? 1 : 0) + n + 1 > len || o + n + 1 > IMGPATH_MAX)
                                return "is too long";
                        if (o)
                                buf[o++] = '/';
                        memcpy(buf + o, p, n);
                        o += n;
                        buf[o] = '\0';
                }
                p += n;
                while (*p == '/')
                        p++;
        }
        return NULL;
}

const char *imgpath_base(const char *path, size_t *ret_dirlen)
{
        const char *slash = strrchr(path, '/');
        *ret_dirlen = slash ? (size_t)(slash - path) : 0;
        return slash ? slash + 1 : path;
}

enum imgpath_kind imgpath_kind(const char *path, const char **ret_target)
{
        size_t dirlen;
        const char *base = imgpath_base(path, &dirlen);
        *ret_target = NULL;
        if (strncmp(base, ".wh.", 4))
                return IMGPATH_PLAIN;
        if (!strcmp(base, ".wh..wh..opq"))
                return IMGPATH_OPAQUE;
        if (!strncmp(base, ".wh..wh.", 8))
                return IMGPATH_META;
        if (!base[4])
                return IMGPATH_META; /* ".wh." alone names nothing */
        if (!strcmp(base + 4, ".") || !strcmp(base + 4, ".."))
                return IMGPATH_BAD;
        *ret_target = base + 4;
        return IMGPATH_WHITEOUT;
}
