/* fetch.c - manifests into memory, blobs into the store's cache (fetch.h).
 *
 * Every byte a registry sends is counted against what it may be: a manifest stops at 4 MiB
 * (a Content-Length over it ends the transfer before its body), a blob at its descriptor's
 * size (an endless body ends there). A blob is hashed while it streams and renamed into
 * blobs/sha256/ only when its sha256 is the one its descriptor names: blobs/ never holds a
 * byte crib did not check. What is fetched so far stays in tmp/pull-HEX.partial, so a pull
 * killed with SIGKILL resumes there (its bytes hashed again first); a server that ignores the
 * Range request sends it all again, and the partial file starts over. A resumed blob whose
 * digest is wrong starts over once from its first byte: the partial file may hold another
 * registry's bytes, and this one is not to blame for them.
 */
#define _GNU_SOURCE
#include "fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"

static void hex_of(const unsigned char *md, char hex[65])
{
        for (int i = 0; i < 32; i++)
                snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

static bool is_hex64(const char *s)
{
        return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

/* --- manifests ------------------------------------------------------------------------------ */

struct docbuf {
        char *data;
        size_t len, cap, limit;
        const char *ref;
};

static int doc_head(void *ctx, const struct registry_head *h, struct error *err)
{
        struct docbuf *b = ctx;
        if (h->length > (int64_t)b->limit)
                return error_set(err, 0,
                                 "the registry's manifest '%s' is %lld bytes long, more than the "
                                 "%zu crib reads",
                                 b->ref, (long long)h->length, b->limit);
        return 0;
}

static int doc_data(void *ctx, const void *p, size_t n, struct error *err)
{
        struct docbuf *b = ctx;
        if (n > b->limit - b->len)
                return error_set(err, 0, "the registry's manifest '%s' is longer than %zu bytes",
                                 b->ref, b->limit);
        if (b->len + n + 1 > b->cap) {
                size_t cap = b->cap ? b->cap : 16384;
                while (cap < b->len + n + 1)
                        cap *= 2;
                char *d = realloc(b->data, cap);
                if (!d)
                        return error_set(err, ENOMEM, "manifest");
                b->data = d, b->cap = cap;
        }
        memcpy(b->data + b->len, p, n);
        b->len += n;
        b->data[b->len] = '\0';
        return 0;
}

int fetch_manifest(struct registry *r, const char *ref, const char *accept, const char *want,
                   int64_t want_size, struct fetch_doc *ret, struct error *err)
{
        char path[300];
        memset(ret, 0, sizeof *ret);
        struct docbuf b = {.limit = FETCH_DOC_MAX, .ref = ref};
        if (want_size >= 0 && want_size < FETCH_DOC_MAX)
                b.limit = (size_t)want_size;
        snprintf(path, sizeof path, "manifests/%s", ref);
        struct registry_head h;
        struct registry_sink sink = {doc_head, doc_data, &b};
        if (registry_get(r, path, accept, 0, &sink, &h, err) < 0) {
                free(b.data);
                return -1;
        }
        if (!b.data && doc_data(&b, "", 0, err) < 0)
                return -1;
        unsigned char md[32];
        char hex[65];
        EVP_Digest(b.data, b.len, md, NULL, EVP_sha256(), NULL);
        hex_of(md, hex);
        snprintf(ret->digest, sizeof ret->digest, "sha256:%s", hex);
        snprintf(ret->media, sizeof ret->media, "%s", h.content_type);
        ret->data = b.data;
        ret->len = b.len;
        if (want && strcmp(want, ret->digest)) {
                error_set(err, 0, "the registry's manifest '%s' has the digest %s, not %s", ref,
                          ret->digest, want);
                fetch_doc_free(ret);
                return -1;
        }
        if (!strncmp(h.digest, "sha256:", 7) && strcmp(h.digest, ret->digest)) {
                error_set(err, 0,
                          "the registry's manifest '%s' has the digest %s, not the %s "
                          "it says (Docker-Content-Digest)",
                          ref, ret->digest, h.digest);
                fetch_doc_free(ret);
                return -1;
        }
        return 0;
}

void fetch_doc_free(struct fetch_doc *d)
{
        free(d->data);
        d->data = NULL;
}

/* --- blobs ---------------------------------------------------------------------------------- */

struct blobsink {
        int fd;
        EVP_MD_CTX *md;
        int64_t have, size;
        bool bad; /* what came is not the blob's: the partial file goes */
        const char *digest, *hex;
        fetch_progress_fn fn;
        void *ctx;
};

static int blob_head(void *ctx, const struct registry_head *h, struct error *err)
{
        struct blobsink *b = ctx;
        if (h->status == 200 && b->have > 0) {
                /* the server ignored the Range: it sends all of it, and we start over */
                if (ftruncate(b->fd, 0) < 0 || lseek(b->fd, 0, SEEK_SET) < 0)
                        return error_set(err, errno, "blob %s: start over", b->digest);
                EVP_DigestInit_ex(b->md, EVP_sha256(), NULL);
                b->have = 0;
        } else if (h->status == 206 && h->range_start != b->have) {
                b->bad = true;
                return error_set(err, 0,
                                 "blob %s: the registry answered a request from byte "
                                 "%lld with bytes from %lld",
                                 b->digest, (long long)b->have, (long long)h->range_start);
        }
        if (h->length > b->size - b->have)
                return b->bad = true,
                       error_set(err, 0,
                                 "blob %s: the registry sends %lld bytes, more than the "
                                 "%lld its descriptor says",
                                 b->digest, (long long)(h->length + b->have), (long long)b->size);
        return 0;
}

static int blob_data(void *ctx, const void *p, size_t n, struct error *err)
{
        struct blobsink *b = ctx;
        if ((int64_t)n > b->size - b->have)
                return b->bad = true,
                       error_set(err, 0,
                                 "blob %s: the registry sends more than the %lld bytes "
                                 "its descriptor says",
                                 b->digest, (long long)b->size);
        for (size_t off = 0; off < n;) {
                ssize_t w = write(b->fd, (const char *)p + off, n - off);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w < 0)
                        return error_set(err, errno, "blob %s: write", b->digest);
                off += (size_t)w;
        }
        EVP_DigestUpdate(b->md, p, n);
        b->have += (int64_t)n;
        if (b->fn)
                b->fn(b->ctx, b->hex, (uint64_t)b->have, (uint64_t)b->size, false);
        return 0;
}

/* The partial file's bytes hashed again, so the digest covers them when it resumes */
static int rehash(struct blobsink *b, struct error *err)
{
        char buf[65536];
        struct stat st;
        if (fstat(b->fd, &st) < 0)
                return error_set(err, errno, "blob %s: partial file", b->digest);
        if (st.st_size > b->size && ftruncate(b->fd, 0) < 0)
                return error_set(err, errno, "blob %s: partial file", b->digest);
        b->have = 0;
        EVP_DigestInit_ex(b->md, EVP_sha256(), NULL);
        for (;;) {
                ssize_t n = read(b->fd, buf, sizeof buf);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return error_set(err, errno, "blob %s: read the partial file", b->digest);
                if (n == 0)
                        break;
                EVP_DigestUpdate(b->md, buf, (size_t)n);
                b->have += n;
        }
        return 0;
}

static int mkdirs(int root, struct error *err)
{
        const char *dirs[] = {"blobs", "blobs/sha256", "tmp"};
        for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
                if (mkdirat(root, dirs[i], 0700) < 0 && errno != EEXIST)
                        return error_set(err, errno, "store: mkdir '%s'", dirs[i]);
        return 0;
}

static bool have_blob(int root, const char *hex, int64_t size)
{
        char p[128];
        struct stat st;
        snprintf(p, sizeof p, "blobs/sha256/%s", hex);
        return fstatat(root, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
               st.st_size == size;
}

/* The transfer into the locked partial file `fd`, then the check and the rename */
static int fetch_locked(struct registry *r, int root, struct blobsink *b, const char *partial,
                        struct error *err)
{
        char path[160], dst[128];
        if (rehash(b, err) < 0)
                return -1;
        /* what an earlier pull left may be another registry's bytes: when the whole is not the
         * blob, it goes, and this registry is asked for all of it once */
        bool resumed = b->have > 0;
again:
        if (b->have < b->size) {
                snprintf(path, sizeof path, "blobs/%s", b->digest);
                struct registry_head h;
                struct registry_sink sink = {blob_head, blob_data, b};
                if (registry_get(r, path, NULL, b->have, &sink, &h, err) < 0) {
                        /* a transfer cut off is resumed by the next pull; a hostile one not */
                        if (b->bad)
                                unlinkat(root, partial, 0);
                        return -1;
                }
        }
        if (b->have != b->size)
                return error_set(err, 0,
                                 "blob %s: the registry ended it after %lld of its %lld "
                                 "bytes",
                                 b->digest, (long long)b->have, (long long)b->size);
        unsigned char md[32];
        char hex[65];
        EVP_DigestFinal_ex(b->md, md, NULL);
        hex_of(md, hex);
        if (strcmp(hex, b->hex) && resumed) {
                resumed = false;
                if (ftruncate(b->fd, 0) < 0 || lseek(b->fd, 0, SEEK_SET) < 0)
                        return error_set(err, errno, "blob %s: start over", b->digest);
                EVP_DigestInit_ex(b->md, EVP_sha256(), NULL);
                b->have = 0;
                goto again;
        }
        if (strcmp(hex, b->hex)) {
                unlinkat(root, partial, 0);
                return error_set(err, 0,
                                 "blob %s: the registry sent bytes whose digest is "
                                 "sha256:%s; nothing of it was kept",
                                 b->digest, hex);
        }
        if (fdatasync(b->fd) < 0)
                return error_set(err, errno, "blob %s: sync", b->digest);
        snprintf(dst, sizeof dst, "blobs/sha256/%s", b->hex);
        if (renameat(root, partial, root, dst) < 0)
                return error_set(err, errno, "blob %s: rename into blobs/", b->digest);
        return 0;
}

int fetch_blob(struct registry *r, int root, const char *digest, int64_t size, fetch_progress_fn fn,
               void *ctx, struct error *err)
{
        char partial[128], lockname[140];
        const char *hex = digest + 7;
        if (strncmp(digest, "sha256:", 7) || !is_hex64(hex))
                return error_set(err, 0, "blob '%s': not a sha256 digest", digest);
        if (size < 0 || size > FETCH_BLOB_MAX)
                return error_set(err, 0, "blob %s: its size %lld is out of range", digest,
                                 (long long)size);
        if (mkdirs(root, err) < 0)
                return -1;
        if (have_blob(root, hex, size)) {
                if (fn)
                        fn(ctx, hex, (uint64_t)size, (uint64_t)size, true);
                return 0;
        }
        snprintf(partial, sizeof partial, "tmp/pull-%s.partial", hex);
        snprintf(lockname, sizeof lockname, "%s.lock", partial);
        _cleanup_close_ int lk =
                openat(root, lockname, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (lk < 0 || flock(lk, LOCK_EX) < 0)
                return error_set(err, errno, "blob %s: lock '%s'", digest, lockname);
        /* another pull fetched it while we waited for its lock */
        if (have_blob(root, hex, size)) {
                if (fn)
                        fn(ctx, hex, (uint64_t)size, (uint64_t)size, true);
                return 0;
        }
        _cleanup_close_ int fd =
                openat(root, partial, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0)
                return error_set(err, errno, "blob %s: '%s'", digest, partial);
        struct blobsink b = {.fd = fd,
                             .md = EVP_MD_CTX_new(),
                             .size = size,
                             .digest = digest,
                             .hex = hex,
                             .fn = fn,
                             .ctx = ctx};
        if (!b.md)
                return error_set(err, ENOMEM, "sha256");
        int rc = fetch_locked(r, root, &b, partial, err);
        EVP_MD_CTX_free(b.md);
        if (rc == 0)
                unlinkat(root, lockname, 0);
        return rc;
}

int fetch_store_bytes(int root, const char *hex, const void *data, size_t len, struct error *err)
{
        char tmp[128], dst[128];
        if (!is_hex64(hex))
                return error_set(err, 0, "'%s' is not a sha256 digest", hex);
        if (mkdirs(root, err) < 0)
                return -1;
        /* there already (another pull's): not replaced, since a rename over it would unlink the
         * inode another pull may be linking into its layout (link(2) then fails, ENOENT) */
        if (have_blob(root, hex, (int64_t)len))
                return 0;
        snprintf(dst, sizeof dst, "blobs/sha256/%s", hex);
        snprintf(tmp, sizeof tmp, "tmp/pull-%s.%d", hex, (int)getpid());
        _cleanup_close_ int fd =
                openat(root, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0)
                return error_set(err, errno, "store: '%s'", tmp);
        for (size_t off = 0; off < len;) {
                ssize_t w = write(fd, (const char *)data + off, len - off);
                if (w < 0 && errno == EINTR)
                        continue;
                if (w < 0) {
                        unlinkat(root, tmp, 0);
                        return error_set(err, errno, "store: write '%s'", tmp);
                }
                off += (size_t)w;
        }
        if (fdatasync(fd) < 0 || renameat(root, tmp, root, dst) < 0) {
                unlinkat(root, tmp, 0);
                return error_set(err, errno, "store: '%s'", dst);
        }
        return 0;
}
