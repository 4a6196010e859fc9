/* budget.c - what the layers may write, and the room they leave (budget.h).
 *
 * Kernel features: fstatat(2) st_blocks, fstatvfs(3). A layer is a decompression bomb until
 * shown otherwise: a megabyte of gzip can hold gigabytes of zeros, a tar millions of
 * directories. What the layers write is charged against max_bytes (data, LAYER_ENTRY_COST an
 * entry, xattrs and link targets, then what each file, directory and link made takes on disk
 * beyond that: its blocks), and statvfs(3) of the root's filesystem must keep min_free bytes
 * and min_free_inodes inodes for users (f_bavail and f_favail: on ext4 the blocks reserved for
 * root are never counted, even for root's import).
 */
#define _GNU_SOURCE
#include "budget.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

/* "1.5 GiB": for messages */
static const char *human(uint64_t n, char *buf, size_t len)
{
        static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
        double v = (double)n;
        size_t u = 0;
        while (v >= 1024 && u + 1 < sizeof unit / sizeof unit[0])
                v /= 1024, u++;
        snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
        return buf;
}

int budget_over(struct layer_ctx *c, struct error *err)
{
        char lim[32];
        error_set(err, 0, "the image writes more than %s, the limit of an import",
                  human(c->max_bytes, lim, sizeof lim));
        /* twice the limit, in a unit --max-size takes */
        uint64_t twice = c->max_bytes * 2;
        bool g = twice >= (1ULL << 30);
        return error_hint(err,
                          "if you trust the image and have the room, give it a higher limit: "
                          "crib image import --max-size %llu%c SOURCE DIR",
                          (unsigned long long)((twice + (g ? (1ULL << 30) : (1ULL << 20)) - 1) >>
                                               (g ? 30 : 20)),
                          g ? 'G' : 'M');
}

int budget_charge(struct layer_ctx *c, uint64_t n, struct error *err)
{
        c->used += n;
        return c->used <= c->max_bytes ? 0 : budget_over(c, err);
}

int budget_check_room(struct layer_ctx *c, struct error *err)
{
        struct statvfs sv;
        char have[32], keep[32];
        if (!c->min_free || fstatvfs(c->root, &sv) < 0)
                return 0;
        uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
        if (avail < c->min_free) {
                error_set(err, 0,
                          "the filesystem of '%s' has %s left, and crib keeps %s of it free for "
                          "the rest of the system",
                          c->dir ? c->dir : ".", human(avail, have, sizeof have),
                          human(c->min_free, keep, sizeof keep));
                return error_hint(err, "free space there (df -h shows what is left), or import "
                                       "into a directory on a larger filesystem");
        }
        if (sv.f_files && sv.f_favail < c->min_free_inodes) {
                error_set(err, 0,
                          "the filesystem of '%s' has %llu inodes left, and crib keeps %llu of "
                          "them for the rest of the system",
                          c->dir ? c->dir : ".", (unsigned long long)sv.f_favail,
                          (unsigned long long)c->min_free_inodes);
                return error_hint(err, "free inodes there (df -i shows what is left), or import "
                                       "into a directory on another filesystem");
        }
        return 0;
}

/* What the entry `name` in `dfd` (or `dfd` itself for "") takes on disk beyond the `charged`
 * bytes already charged for it: its blocks, which are what du(1) counts and what the
 * filesystem's free space loses. An empty directory or a 1-byte file is a block of 4 KiB on
 * ext4 (a long symlink target too), where LAYER_ENTRY_COST alone let 40000 empty directories
 * of a 188 KB image write 158 MB under --max-size 20M. Asked of the filesystem, not guessed from
 * its block size: ext4 stores small data inline, tmpfs spends no block on a directory, ZFS's
 * f_bsize is a 128 KiB record. */
int budget_charge_made(struct layer_ctx *c, int dfd, const char *name, uint64_t charged,
                       struct error *err)
{
        struct stat st;
        if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW | (*name ? 0 : AT_EMPTY_PATH)) < 0)
                return 0; /* what cannot be asked was charged its bytes */
        uint64_t disk = (uint64_t)st.st_blocks * 512;
        return disk > charged ? budget_charge(c, disk - charged, err) : 0;
}
