/* source.c - reading a saved image (source.h).
 *
 * Formats: the OCI image layout (image-spec layout.md: oci-layout, index.json, blobs/ALG/HEX;
 * index.md, manifest.md, config.md), Docker's `docker save` archive (manifest.json listing a
 * config and layer tars, the config's rootfs.diff_ids giving each layer's sha256), and a plain
 * filesystem tarball (`docker export`). Tar, gzip and zstd are libarchive's, JSON is json-c's,
 * sha256 is OpenSSL's libcrypto: nothing here parses those formats by hand.
 *
 * A tarball source is read twice: once to list its entries (keeping the small JSON ones in
 * memory), then each blob is found again by its position. No file of the source is written
 * anywhere. Every blob the chosen manifest names is hashed and compared with its digest before
 * the first layer is applied, and hashed again while it is applied, so a file changed in
 * between is caught too. A blob of an OCI layout must hold the bytes its descriptor says
 * before a byte of it is read, and is read no further, so a blob far larger is not hashed to its
 * end first. Each format has a resolver of its own (ocilayout.c, dockersave.c). In a
 * directory source, blobs are opened with openat2(2) RESOLVE_BENEATH, so a symlink in the
 * layout cannot make crib read a file outside it.
 *
 * Nothing is opened in a way that can block: a tarball source is opened once, O_NONBLOCK, and
 * must be a regular file; every pass reads that descriptor with pread(2) at an offset of its own
 * (archive.c), so the name is not looked up again. A blob of a layout directory is opened
 * O_NONBLOCK too and must be a regular file: a FIFO among the blobs would otherwise hang the
 * import (issue 31).
 */
#define _GNU_SOURCE
#include "source.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif

#include "archive.h"
#include "dockersave.h"
#include "ocilayout.h"

#define BUFSZ (256 << 10)

struct stream {
        int fd;    /* a blob of a directory source, owned, or */
        int srcfd; /* the tarball source itself (a filesystem tarball's one layer), not owned */
        off_t off; /* where srcfd is read */
        struct tarball_fd rd;
        struct archive *outer;
        EVP_MD_CTX *md;
        uint64_t n;
        int64_t size; /* what the descriptor says it holds; -1: nothing says */
        unsigned char *buf;
};

/* a layer's uncompressed tar, hashed as the tar reader takes it (source_layer_open_diff) */
struct unpacked {
        struct archive *raw; /* the layer's bytes decompressed: libarchive's raw format */
        EVP_MD_CTX *md;
        unsigned char *buf;
};

struct source {
        char path[4096];
        bool dir;
        int dirfd;
        int fd; /* a tarball source */
        enum source_kind kind;
        struct tarball list; /* a tarball source's */
        struct stream cur;   /* the layer being read */
        struct unpacked un;  /* and uncompressed, for its diff_id */
};

static void unpacked_close(struct unpacked *u)
{
        if (u->raw)
                archive_read_free(u->raw);
        if (u->md)
                EVP_MD_CTX_free(u->md);
        free(u->buf);
        memset(u, 0, sizeof *u);
}

static void stream_close(struct stream *st)
{
        if (st->outer)
                archive_read_free(st->outer);
        if (st->fd >= 0)
                close(st->fd);
        if (st->md)
                EVP_MD_CTX_free(st->md);
        free(st->buf);
        free(st->rd.buf);
        memset(st, 0, sizeof *st);
        st->fd = st->srcfd = -1;
}

void source_close(struct source *s)
{
        if (!s)
                return;
        tarball_free(&s->list);
        unpacked_close(&s->un);
        stream_close(&s->cur);
        if (s->dirfd >= 0)
                close(s->dirfd);
        if (s->fd >= 0)
                close(s->fd);
        free(s);
}

const char *source_path(const struct source *s)
{
        return s->path;
}

uint64_t source_listed_size(struct source *s, const char *name)
{
        struct tarball_entry *en = s->dir ? NULL : tarball_find(&s->list, name);
        return en ? en->size : 0;
}

static bool has(struct source *s, const char *name)
{
        if (!s->dir)
                return tarball_find(&s->list, name) != NULL;
        struct stat st;
        return fstatat(s->dirfd, name, &st, 0) == 0;
}

int source_open(const char *path, struct source **ret, struct error *err)
{
        struct source *s = calloc(1, sizeof *s);
        if (!s)
                return error_set(err, ENOMEM, "out of memory");
        s->dirfd = s->fd = -1;
        s->cur.fd = s->cur.srcfd = -1;
        snprintf(s->path, sizeof s->path, "%s", path);
        /* opened once, never blocking (a FIFO opens at once), then checked */
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) < 0) {
                error_set(err, errno, "cannot open image '%s'", path);
                if (fd >= 0)
                        close(fd);
                source_close(s);
                return -1;
        }
        if (S_ISDIR(st.st_mode)) {
                s->dir = true;
                s->dirfd = fd;
        } else if (S_ISREG(st.st_mode)) {
                s->fd = fd;
                if (tarball_list(&s->list, s->fd, s->path, err) < 0) {
                        source_close(s);
                        return -1;
                }
        } else {
                close(fd);
                error_set(err, 0, "image '%s' is neither a directory nor a file", path);
                source_close(s);
                return -1;
        }
        if (has(s, "index.json"))
                s->kind = SOURCE_OCI;
        else if (has(s, "manifest.json"))
                s->kind = SOURCE_DOCKER_ARCHIVE;
        else if (!s->dir)
                s->kind = SOURCE_ROOTFS_TAR;
        else {
                error_set(err, 0,
                          "directory '%s' is not an OCI image layout (no index.json) "
                          "nor an unpacked docker save (no manifest.json)",
                          path);
                source_close(s);
                return -1;
        }
        *ret = s;
        return 0;
}

/* --- reading blobs --------------------------------------------------------------------------- */

/* a blob of a directory source, never blocking: a regular file, or -1 with errno (EINVAL: it
 * is something else, a FIFO perhaps) */
static int open_beneath(int dirfd, const char *name)
{
        int fd, flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
#if defined(SYS_openat2) && defined(RESOLVE_BENEATH)
        struct open_how how = {.flags = (uint64_t)flags,
                               .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS};
        fd = (int)syscall(SYS_openat2, dirfd, name, &how, sizeof how);
        if (fd < 0 && errno == ENOSYS)
#endif
                /* without openat2: no symlink at all */
                fd = openat(dirfd, name, flags | O_NOFOLLOW);
        struct stat st;
        if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
                close(fd);
                errno = EINVAL;
                return -1;
        }
        return fd;
}

/* A blob's size against its descriptor's, before it is read; closes `st` when they differ. */
static int stream_size(struct stream *st, const char *name, uint64_t have, struct error *err)
{
        int64_t want = st->size;
        if (want < 0 || have == (uint64_t)want)
                return 0;
        stream_close(st);
        return error_set(err, 0, "'%s' has %" PRIu64 " bytes; its descriptor says %" PRId64, name,
                         have, want);
}

/* Open the blob `name` (NULL: the source file itself) to read and hash. `size` (-1: any) is
 * what its descriptor says it holds: a blob of another size is refused before a byte of it is
 * read, and reading stops after `size` bytes (a blob far larger than its descriptor, or one
 * growing while crib reads it, is not hashed to its end first). */
static int stream_open(struct source *s, const char *name, int64_t size, struct stream *st,
                       struct error *err)
{
        memset(st, 0, sizeof *st);
        st->fd = st->srcfd = -1;
        st->size = size;
        if (!(st->md = EVP_MD_CTX_new()) || !EVP_DigestInit_ex(st->md, EVP_sha256(), NULL) ||
            !(st->buf = malloc(BUFSZ))) {
                stream_close(st);
                return error_set(err, ENOMEM, "out of memory");
        }
        if (s->dir) {
                if ((st->fd = open_beneath(s->dirfd, name)) < 0) {
                        if (errno == EINVAL)
                                error_set(err, 0, "'%s' in '%s' is not a regular file", name,
                                          s->path);
                        else
                                error_set(err, errno, "cannot open '%s' in '%s'", name, s->path);
                        stream_close(st);
                        return -1;
                }
                struct stat sb;
                if (fstat(st->fd, &sb) < 0) {
                        error_set(err, errno, "cannot read '%s' in '%s'", name, s->path);
                        stream_close(st);
                        return -1;
                }
                return stream_size(st, name, (uint64_t)sb.st_size, err);
        }
        if (!name) { /* the source file itself */
                st->srcfd = s->fd;
                return 0;
        }
        struct tarball_entry *en = tarball_find(&s->list, name);
        if (!en) {
                stream_close(st);
                return error_set(err, ENOENT, "'%s' holds no '%s'", s->path, name);
        }
        if (stream_size(st, name, en->size, err) < 0)
                return -1;
        if (!(st->outer = tarball_reader_new()) ||
            tarball_fd_open(st->outer, &st->rd, s->fd) != ARCHIVE_OK) {
                error_set(err, 0, "cannot read '%s': %s", s->path,
                          st->outer ? archive_error_string(st->outer) : "out of memory");
                stream_close(st);
                return -1;
        }
        struct archive_entry *e;
        for (uint64_t ord = 0; ord <= en->ordinal; ord++) {
                if (archive_read_next_header(st->outer, &e) < ARCHIVE_WARN) {
                        error_set(err, 0, "'%s' changed while crib read it: %s", s->path,
                                  archive_error_string(st->outer));
                        stream_close(st);
                        return -1;
                }
        }
        return 0;
}

/* bytes read into st->buf (hashed), 0 at the end, -1 with the error; never past one byte more
 * than st->size, which is an error */
static ssize_t stream_read(struct stream *st, struct error *err)
{
        ssize_t n;
        size_t want = BUFSZ;
        if (st->size >= 0 && (uint64_t)st->size - st->n < want)
                want = (size_t)((uint64_t)st->size - st->n) + 1;
        if (st->outer) {
                n = archive_read_data(st->outer, st->buf, want);
                if (n < 0)
                        return error_set(err, 0, "%s", archive_error_string(st->outer));
        } else if (st->srcfd >= 0) {
                do
                        n = pread(st->srcfd, st->buf, want, st->off);
                while (n < 0 && errno == EINTR);
                if (n < 0)
                        return error_set(err, errno, "cannot read");
                st->off += n;
        } else {
                do
                        n = read(st->fd, st->buf, want);
                while (n < 0 && errno == EINTR);
                if (n < 0)
                        return error_set(err, errno, "cannot read");
        }
        if (n > 0 && st->size >= 0 && st->n + (uint64_t)n > (uint64_t)st->size)
                return error_set(err, 0, "it grew past the %" PRId64 " bytes its descriptor says",
                                 st->size);
        if (n > 0) {
                EVP_DigestUpdate(st->md, st->buf, (size_t)n);
                st->n += (uint64_t)n;
        }
        return n;
}

static void stream_hex(struct stream *st, char hex[65])
{
        unsigned char md[EVP_MAX_MD_SIZE];
        unsigned len = 0;
        EVP_DigestFinal_ex(st->md, md, &len);
        for (unsigned i = 0; i < len && i < 32; i++)
                snprintf(hex + 2 * i, 3, "%02x", md[i]);
        hex[64] = '\0';
}

int source_read_small(struct source *s, const char *name, char **ret, size_t *ret_len,
                      struct error *err)
{
        if (!s->dir) {
                struct tarball_entry *en = tarball_find(&s->list, name);
                if (!en)
                        return error_set(err, ENOENT, "'%s' holds no '%s'", s->path, name);
                if (!en->data)
                        return error_set(err, EFBIG, "'%s' in '%s' is larger than %d bytes", name,
                                         s->path, SOURCE_MAX_JSON);
                if (!(*ret = malloc(en->size + 1)))
                        return error_set(err, ENOMEM, "out of memory");
                memcpy(*ret, en->data, en->size + 1);
                *ret_len = en->size;
                return 0;
        }
        struct stream st;
        if (stream_open(s, name, -1, &st, err) < 0) /* bounded below */
                return -1;
        char *buf = malloc(SOURCE_MAX_JSON + 1);
        size_t len = 0;
        ssize_t n;
        while (buf && (n = stream_read(&st, err)) > 0) {
                if (len + (size_t)n > SOURCE_MAX_JSON) {
                        free(buf);
                        stream_close(&st);
                        return error_set(err, EFBIG, "'%s' in '%s' is larger than %d bytes", name,
                                         s->path, SOURCE_MAX_JSON);
                }
                memcpy(buf + len, st.buf, (size_t)n);
                len += (size_t)n;
        }
        stream_close(&st);
        if (!buf)
                return error_set(err, ENOMEM, "out of memory");
        if (n < 0) {
                free(buf);
                return error_wrap(err, "'%s' in '%s'", name, s->path);
        }
        buf[len] = '\0';
        *ret = buf;
        *ret_len = len;
        return 0;
}

/* --- checking a blob against its digest ------------------------------------------------ */

/* hash a (large) blob from the source; compare with `hex` and `size` (-1: any) */
static int check_blob(struct source *s, const char *name, const char *hex, int64_t size,
                      const char *where, uint64_t *done, void (*progress)(void *, uint64_t),
                      void *ctx, struct error *err)
{
        struct stream st;
        if (stream_open(s, name, size, &st, err) < 0)
                return error_wrap(err, "%s", where);
        ssize_t n;
        uint64_t last = *done;
        while ((n = stream_read(&st, err)) > 0) {
                *done += (uint64_t)n;
                if (progress && *done - last >= (4u << 20)) {
                        progress(ctx, *done);
                        last = *done;
                }
        }
        if (n < 0) {
                stream_close(&st);
                return error_wrap(err, "%s: '%s'", where, name);
        }
        char got[65];
        stream_hex(&st, got);
        uint64_t len = st.n;
        stream_close(&st);
        if (strcmp(got, hex) || (size >= 0 && (uint64_t)size != len))
                return error_set(err, 0,
                                 "%s: '%s' has sha256:%s and %" PRIu64 " bytes; the manifest "
                                 "says sha256:%s%s",
                                 where, name, got, len, hex,
                                 size >= 0 && (uint64_t)size != len ? " and another size" : "");
        return 0;
}

int source_resolve(struct source *s, const struct platform *machine, bool forced,
                   struct source_image *img, void (*progress)(void *, uint64_t), void *ctx,
                   struct error *err)
{
        memset(img, 0, sizeof *img);
        img->kind = s->kind;
        int r;
        switch (s->kind) {
        case SOURCE_OCI:
                r = ocilayout_resolve(s, machine, forced, img, err);
                break;
        case SOURCE_DOCKER_ARCHIVE:
                r = dockersave_resolve(s, machine, forced, img, err);
                break;
        default: {
                struct stat st;
                img->nlayers = 1;
                snprintf(img->layers[0].name, sizeof img->layers[0].name, "%s", s->path);
                img->total = img->layers[0].size =
                        fstat(s->fd, &st) == 0 ? (uint64_t)st.st_size : 0;
                return 0; /* a filesystem tarball has no digest to check */
        }
        }
        if (r < 0)
                return error_wrap(err, "image '%s'", s->path);
        /* every layer's digest, before anything is applied */
        uint64_t done = 0;
        for (size_t i = 0; i < img->nlayers; i++) {
                char where[64];
                snprintf(where, sizeof where, "layer %zu", i + 1);
                const char *hex = img->layers[i].digest + 7;
                int64_t size = s->kind == SOURCE_OCI ? (int64_t)img->layers[i].size : -1;
                if (check_blob(s, img->layers[i].name, hex, size, where, &done, progress, ctx,
                               err) < 0)
                        return error_wrap(err, "image '%s'", s->path);
        }
        return 0;
}

void source_image_free(struct source_image *img)
{
        json_object_put(img->config);
        img->config = NULL;
        free(img->config_text);
        free(img->manifest_text);
        img->config_text = img->manifest_text = NULL;
}

static la_ssize_t layer_read(struct archive *a, void *ctx, const void **buf)
{
        struct stream *st = ctx;
        struct error err;
        ssize_t n = stream_read(st, &err);
        if (n < 0) {
                archive_set_error(a, err.errnum ? err.errnum : EIO, "%s", err.msg);
                return -1;
        }
        *buf = st->buf;
        return n;
}

int source_layer_open(struct source *s, const struct source_image *img, size_t i,
                      struct archive **ret, struct error *err)
{
        stream_close(&s->cur);
        const char *name = img->kind == SOURCE_ROOTFS_TAR ? NULL : img->layers[i].name;
        int64_t size = img->kind == SOURCE_OCI ? (int64_t)img->layers[i].size : -1;
        if (stream_open(s, name, size, &s->cur, err) < 0)
                return -1;
        struct archive *a = tarball_reader_new();
        if (!a) {
                stream_close(&s->cur);
                return error_set(err, ENOMEM, "out of memory");
        }
        if (archive_read_open(a, &s->cur, NULL, layer_read, NULL) != ARCHIVE_OK) {
                error_set(err, 0, "layer %zu ('%s') is not a tar archive: %s", i + 1,
                          img->layers[i].name, archive_error_string(a));
                archive_read_free(a);
                stream_close(&s->cur);
                return -1;
        }
        *ret = a;
        return 0;
}

/* After a layer's tar: the rest of its bytes read, and their digest checked again */
static int layer_digest_done(struct source *s, const struct source_image *img, size_t i,
                             struct error *err)
{
        int ret = 0;
        if (img->kind != SOURCE_ROOTFS_TAR) {
                ssize_t n;
                while ((n = stream_read(&s->cur, err)) > 0)
                        ; /* the padding after the tar's end: part of the digest */
                char hex[65];
                stream_hex(&s->cur, hex);
                if (n < 0)
                        ret = error_wrap(err, "layer %zu", i + 1);
                else if (strcmp(hex, img->layers[i].digest + 7))
                        ret = error_set(err, 0,
                                        "layer %zu ('%s') changed while crib read it: "
                                        "it now has sha256:%s",
                                        i + 1, img->layers[i].name, hex);
        }
        stream_close(&s->cur);
        return ret;
}

int source_layer_done(struct source *s, const struct source_image *img, size_t i, struct archive *a,
                      struct error *err)
{
        archive_read_free(a);
        return layer_digest_done(s, img, i, err);
}

/* the tar reader's input: the decompressed bytes, hashed on the way */
static la_ssize_t unpacked_read(struct archive *a, void *ctx, const void **buf)
{
        struct unpacked *u = ctx;
        la_ssize_t n = archive_read_data(u->raw, u->buf, BUFSZ);
        if (n < 0) {
                archive_set_error(a, archive_errno(u->raw) > 0 ? archive_errno(u->raw) : EIO, "%s",
                                  archive_error_string(u->raw));
                return -1;
        }
        EVP_DigestUpdate(u->md, u->buf, (size_t)n);
        *buf = u->buf;
        return n;
}

int source_layer_open_diff(struct source *s, const struct source_image *img, size_t i,
                           struct archive **ret, struct error *err)
{
        stream_close(&s->cur);
        unpacked_close(&s->un);
        struct unpacked *u = &s->un;
        int64_t size = img->kind == SOURCE_OCI ? (int64_t)img->layers[i].size : -1;
        if (img->kind == SOURCE_ROOTFS_TAR)
                return error_set(err, EINVAL, "a filesystem tarball has no layers to store");
        if (stream_open(s, img->layers[i].name, size, &s->cur, err) < 0)
                return -1;
        struct archive_entry *e;
        struct archive *a = NULL;
        if (!(u->raw = archive_read_new()) || !(u->md = EVP_MD_CTX_new()) ||
            !EVP_DigestInit_ex(u->md, EVP_sha256(), NULL) || !(u->buf = malloc(BUFSZ)) ||
            !(a = archive_read_new())) {
                unpacked_close(u);
                stream_close(&s->cur);
                return error_set(err, ENOMEM, "out of memory");
        }
        archive_read_support_filter_gzip(u->raw);
        archive_read_support_filter_zstd(u->raw);
        archive_read_support_filter_xz(u->raw);
        archive_read_support_format_raw(u->raw);
        archive_read_support_format_tar(a);
        if (archive_read_open(u->raw, &s->cur, NULL, layer_read, NULL) != ARCHIVE_OK ||
            archive_read_next_header(u->raw, &e) != ARCHIVE_OK ||
            archive_read_open(a, u, NULL, unpacked_read, NULL) != ARCHIVE_OK) {
                error_set(err, 0, "layer %zu ('%s') is not a tar archive: %s", i + 1,
                          img->layers[i].name,
                          archive_error_string(a) ? archive_error_string(a)
                                                  : archive_error_string(u->raw));
                archive_read_free(a);
                unpacked_close(u);
                stream_close(&s->cur);
                return -1;
        }
        *ret = a;
        return 0;
}

int source_layer_diff_done(struct source *s, const struct source_image *img, size_t i,
                           struct archive *a, const char *diff_id, struct error *err)
{
        archive_read_free(a);
        struct unpacked *u = &s->un;
        la_ssize_t n;
        while ((n = archive_read_data(u->raw, u->buf, BUFSZ)) > 0)
                EVP_DigestUpdate(u->md, u->buf, (size_t)n); /* after the tar's end */
        unsigned char md[EVP_MAX_MD_SIZE];
        unsigned len = 0;
        char hex[65] = "";
        EVP_DigestFinal_ex(u->md, md, &len);
        for (unsigned k = 0; k < len && k < 32; k++)
                snprintf(hex + 2 * k, 3, "%02x", md[k]);
        int ret = 0;
        if (n < 0)
                ret = error_set(err, archive_errno(u->raw) > 0 ? archive_errno(u->raw) : 0,
                                "layer %zu: %s", i + 1, archive_error_string(u->raw));
        else if (strncmp(diff_id, "sha256:", 7) || strcmp(hex, diff_id + 7))
                ret = error_set(err, 0,
                                "layer %zu ('%s') unpacks to sha256:%s, not the diff_id '%.80s' "
                                "the image's config gives it",
                                i + 1, img->layers[i].name, hex, diff_id);
        unpacked_close(u);
        if (layer_digest_done(s, img, i, err) < 0)
                return -1;
        return ret;
}
