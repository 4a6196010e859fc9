/* archive.c - a tarball source read with libarchive (archive.h).
 *
 * A tarball source is read twice: once to list its entries (keeping the small JSON ones in
 * memory), then each blob is found again by its position. Every pass reads the one descriptor
 * the source was opened as with pread(2) at an offset of its own (struct tarball_fd), so the
 * name is not looked up again. Names in the listing are cleaned like layer entries (imgpath.c),
 * and a link's target is resolved lexically, inside the source.
 */
#define _GNU_SOURCE
#include "archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "imgpath.h"
#include "source.h"

#define MAX_ENTRIES   100000     /* entries of a tarball source listed */
#define MAX_KEPT      (64 << 20) /* bytes of small files kept in memory */
#define MAX_LINK_HOPS 8
#define BUFSZ         (256 << 10)

static la_ssize_t tarball_fd_read(struct archive *a, void *ctx, const void **buf)
{
        struct tarball_fd *r = ctx;
        ssize_t n;
        do
                n = pread(r->fd, r->buf, BUFSZ, r->off);
        while (n < 0 && errno == EINTR);
        if (n < 0) {
                archive_set_error(a, errno, "cannot read");
                return -1;
        }
        r->off += n;
        *buf = r->buf;
        return n;
}

static la_int64_t tarball_fd_skip(struct archive *a, void *ctx, la_int64_t n)
{
        (void)a;
        ((struct tarball_fd *)ctx)->off += n;
        return n;
}

int tarball_fd_open(struct archive *a, struct tarball_fd *r, int fd)
{
        r->fd = fd;
        r->off = 0;
        if (!r->buf && !(r->buf = malloc(BUFSZ))) {
                archive_set_error(a, ENOMEM, "out of memory");
                return ARCHIVE_FATAL;
        }
        archive_read_set_read_callback(a, tarball_fd_read);
        archive_read_set_skip_callback(a, tarball_fd_skip);
        archive_read_set_callback_data(a, r);
        return archive_read_open1(a);
}

struct archive *tarball_reader_new(void)
{
        struct archive *a = archive_read_new();
        if (!a)
                return NULL;
        archive_read_support_format_tar(a);
        archive_read_support_filter_gzip(a);
        archive_read_support_filter_zstd(a);
        archive_read_support_filter_xz(a);
        return a;
}

/* --- listing a tarball ----------------------------------------------------------------------- */

/* what is worth keeping in memory: the JSON files at the top, small blobs */
static bool metadata_name(const char *p, uint64_t size)
{
        if (size > SOURCE_MAX_JSON)
                return false;
        if (!strchr(p, '/'))
                return true; /* manifest.json, index.json, oci-layout, CONFIG.json, repositories */
        return !strncmp(p, "blobs/", 6) && strchr(p + 6, '/') &&
               !strchr(strchr(p + 6, '/') + 1, '/');
}

/* The target of the link entry `path` (hard when `hl`, else symbolic to `sl`), from the top of
 * the source, into `to`: "" when it leaves the source at once (an absolute symlink). */
static void link_target(const char *path, const char *hl, const char *sl, char to[IMGPATH_MAX])
{
        char joined[IMGPATH_MAX];
        size_t dirlen;
        imgpath_base(path, &dirlen);
        /* a hard link names its target from the top, a symlink from its dir */
        if (hl)
                snprintf(joined, sizeof joined, "%s", hl);
        else if (sl[0] == '/')
                joined[0] = '\0';
        else
                snprintf(joined, sizeof joined, "%.*s%s%s", (int)dirlen, path, dirlen ? "/" : "",
                         sl);
        /* "a/../b": resolve ".." lexically, only inside the source */
        char *parts[IMGPATH_MAX_DEPTH * 2];
        size_t np = 0;
        for (char *save, *tok = strtok_r(joined, "/", &save); tok;
             tok = strtok_r(NULL, "/", &save)) {
                if (!strcmp(tok, "."))
                        continue;
                if (!strcmp(tok, "..")) {
                        if (np)
                                np--;
                        continue;
                }
                if (np < sizeof parts / sizeof parts[0])
                        parts[np++] = tok;
        }
        size_t o = 0;
        to[0] = '\0';
        for (size_t i = 0; i < np && o < IMGPATH_MAX; i++)
                o += (size_t)snprintf(to + o, IMGPATH_MAX - o, "%s%s", i ? "/" : "", parts[i]);
}

/* The next entry of `t`, zeroed, not counted yet; NULL when out of memory. */
static struct tarball_entry *next_entry(struct tarball *t)
{
        if (t->n == t->cap) {
                size_t cap = t->cap ? t->cap * 2 : 64;
                struct tarball_entry *ne = realloc(t->e, cap * sizeof *ne);
                if (!ne)
                        return NULL;
                t->e = ne;
                t->cap = cap;
        }
        struct tarball_entry *en = &t->e[t->n];
        memset(en, 0, sizeof *en);
        return en;
}

/* The data of `en` (at `path`), read from `a` into memory when it is metadata worth keeping
 * and the bytes kept stay under MAX_KEPT. */
static int keep_data(struct tarball *t, struct archive *a, struct tarball_entry *en,
                     const char *path, const char *file, struct error *err)
{
        if (!metadata_name(path, en->size) || t->kept + en->size > MAX_KEPT)
                return 0;
        if (!(en->data = malloc(en->size + 1)))
                return error_set(err, ENOMEM, "out of memory");
        la_ssize_t got = en->size ? archive_read_data(a, en->data, en->size) : 0;
        if (got < 0 || (uint64_t)got != en->size)
                return error_set(err, 0, "cannot read '%s' in '%s': %s", path, file,
                                 got < 0 ? archive_error_string(a) : "short");
        en->data[en->size] = '\0';
        t->kept += en->size;
        return 0;
}

/* The entry `e`, the `ord`th of the archive `a`, into the listing when it may be looked up: a
 * regular file or a link, at most two directories deep. */
static int list_entry(struct tarball *t, struct archive *a, struct archive_entry *e, uint64_t ord,
                      const char *file, struct error *err)
{
        char path[IMGPATH_MAX];
        const char *name = archive_entry_pathname(e);
        if (!name || imgpath_clean(name, path, sizeof path) || !path[0])
                return 0; /* never looked up: a layer entry of a filesystem tarball */
        unsigned depth = 0;
        for (const char *p = path; *p; p++)
                depth += *p == '/';
        if (depth > 2 || t->n >= MAX_ENTRIES)
                return 0;
        mode_t type = archive_entry_filetype(e);
        const char *hl = archive_entry_hardlink(e), *sl = archive_entry_symlink(e);
        if (!hl && type != AE_IFREG && type != AE_IFLNK)
                return 0;
        struct tarball_entry *en = next_entry(t);
        if (!en)
                return error_set(err, ENOMEM, "out of memory");
        en->ordinal = ord;
        en->size = (uint64_t)(archive_entry_size(e) > 0 ? archive_entry_size(e) : 0);
        if (!(en->name = strdup(path)))
                return error_set(err, ENOMEM, "out of memory");
        t->n++;
        if (hl || (type == AE_IFLNK && sl)) {
                char to[IMGPATH_MAX];
                link_target(path, hl, sl, to);
                if (!(en->link = strdup(to)))
                        return error_set(err, ENOMEM, "out of memory");
                return 0;
        }
        return keep_data(t, a, en, path, file, err);
}

int tarball_list(struct tarball *t, int fd, const char *file, struct error *err)
{
        struct archive *a = tarball_reader_new();
        _cleanup_free_ void *rdbuf = NULL;
        struct tarball_fd rd = {0};
        if (!a)
                return error_set(err, ENOMEM, "out of memory");
        int opened = tarball_fd_open(a, &rd, fd);
        rdbuf = rd.buf;
        if (opened != ARCHIVE_OK) {
                if (archive_errno(a) == EILSEQ /* ARCHIVE_ERRNO_FILE_FORMAT */)
                        error_set(err, 0,
                                  "'%s' is not a tar archive (docker save, OCI layout or "
                                  "docker export), nor a compressed one",
                                  file);
                else
                        error_set(err, archive_errno(a) > 0 ? archive_errno(a) : 0,
                                  "cannot read '%s': %s", file, archive_error_string(a));
                archive_read_free(a);
                return -1;
        }
        struct archive_entry *e;
        int ret = 0;
        for (uint64_t ord = 0;; ord++) {
                int r = archive_read_next_header(a, &e);
                if (r == ARCHIVE_EOF)
                        break;
                if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
                        ret = error_set(err, 0,
                                        "'%s' is not a tar archive (docker save, OCI "
                                        "layout or docker export): %s",
                                        file, archive_error_string(a));
                        break;
                }
                if ((ret = list_entry(t, a, e, ord, file, err)) < 0)
                        break;
        }
        archive_read_free(a);
        return ret;
}

struct tarball_entry *tarball_find(struct tarball *t, const char *name)
{
        char cur[IMGPATH_MAX];
        snprintf(cur, sizeof cur, "%s", name);
        for (int hop = 0; hop <= MAX_LINK_HOPS; hop++) {
                struct tarball_entry *hit = NULL;
                for (size_t i = t->n; i-- > 0;) /* the last of a name wins, as tar extracts */
                        if (!strcmp(t->e[i].name, cur)) {
                                hit = &t->e[i];
                                break;
                        }
                if (!hit || !hit->link)
                        return hit;
                snprintf(cur, sizeof cur, "%s", hit->link);
        }
        return NULL;
}

void tarball_free(struct tarball *t)
{
        for (size_t i = 0; i < t->n; i++) {
                free(t->e[i].name);
                free(t->e[i].data);
                free(t->e[i].link);
        }
        free(t->e);
        memset(t, 0, sizeof *t);
}
