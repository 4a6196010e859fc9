/* imgpath.h - the names inside an image's layer archives, checked before anything is made.
 *
 * Pure. A layer is hostile input: its names may be absolute, climb with "..", or be long enough
 * to exhaust memory. imgpath_clean turns a name into the one relative form the extractor walks
 * (components joined by single slashes, no ".", no ".."), or refuses it with the reason.
 */
#ifndef CRIB_IMGPATH_H
#define CRIB_IMGPATH_H

#include <stddef.h>

#define IMGPATH_MAX       4096 /* bytes of a cleaned name, as PATH_MAX */
#define IMGPATH_MAX_DEPTH 128  /* components */

/* Clean `name` into `buf` (IMGPATH_MAX bytes). Returns NULL when it is acceptable, else the
 * reason it is refused ("is absolute", "has a '..' component", ...). The image's root itself
 * ("./", ".") cleans to "". */
const char *imgpath_clean(const char *name, char *buf, size_t len);

enum imgpath_kind {
        IMGPATH_PLAIN,    /* an ordinary entry */
        IMGPATH_WHITEOUT, /* ".wh.NAME": NAME of the lower layers is deleted */
        IMGPATH_OPAQUE,   /* ".wh..wh..opq": the directory hides the lower layers' content */
        IMGPATH_META,     /* other ".wh..wh." names (aufs bookkeeping): ignored */
        IMGPATH_BAD,      /* ".wh.." or ".wh...": a whiteout of "." or "..", refused */
};

/* What the cleaned `path` is. For a whiteout, `*ret_target` points at the deleted name's
 * last component within `path` (the directory part is the same as path's). */
enum imgpath_kind imgpath_kind(const char *path, const char **ret_target);

/* The last component of a cleaned path, and the length of the directory part before it. */
const char *imgpath_base(const char *path, size_t *ret_dirlen);

#endif
