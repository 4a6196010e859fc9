/* layer.c - one image layer applied to a root directory (layer.h).
 *
 * Kernel features: the *at(2) family on directory descriptors, O_NOFOLLOW and O_EXCL
 * (open(2)), linkat(2) without AT_SYMLINK_FOLLOW. The layer is hostile input. Every name is
 * cleaned first (imgpath.c: no absolute name, no ".."), then its directory is opened one
 * component at a time with O_NOFOLLOW | O_DIRECTORY from the root's descriptor, so a symbolic
 * link planted by an earlier entry or layer, pointing inside the root or outside it, is never
 * followed: an entry that would go through one is refused. A file is created only with
 * O_CREAT | O_EXCL | O_NOFOLLOW after whatever held its name was unlinked, so no write lands on
 * an earlier link's target. Hard links name their target inside the root by the same rules and
 * are made with linkat(2), which does not follow a symlink. Device nodes are never made: a
 * world-writable block device of the host's disk would be a way out for any host user; crib
 * gives a container its own /dev.
 *
 * A layer is also a decompression bomb until shown otherwise: what it writes is charged and the
 * filesystem's room checked as it goes (budget.c).
 *
 * Whiteouts (OCI image-spec, layer.md): ".wh.NAME" deletes NAME of the lower layers, and
 * ".wh..wh..opq" hides everything the lower layers had in its directory. "Lower" is told apart
 * by the set of paths this layer made, so the order of entries inside a layer does not matter.
 */
#define _GNU_SOURCE
#include "layer.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "budget.h"
#include "layerwalk.h"
#include "base/cleanup.h"
#include "imgpath.h"
#include "pathset.h"
#include "base/sys.h"

#define REMOVE_MAX_DEPTH 512

/* --- one layer ------------------------------------------------------------------------------- */

struct apply {
        struct layer_ctx *c;
        struct archive *a;
        struct pathset made;
        char cached[IMGPATH_MAX]; /* the directory `cached_fd` is, "" when none */
        int cached_fd;
        uint64_t reported;
        uint64_t written; /* the data of the file being written, charged as it came */
};

static void forget_cache(struct apply *ap)
{
        if (ap->cached_fd >= 0)
                close(ap->cached_fd);
        ap->cached_fd = -1;
        ap->cached[0] = '\0';
}

/* the directory of `path` (its first dirlen bytes), opened; owned by the cache */
static int parent_of(struct apply *ap, const char *path, size_t dirlen, bool create, int *ret_fd,
                     struct error *err)
{
        char dir[IMGPATH_MAX];
        memcpy(dir, path, dirlen);
        dir[dirlen] = '\0';
        if (ap->cached_fd >= 0 && !strcmp(ap->cached, dir)) {
                *ret_fd = ap->cached_fd;
                return 0;
        }
        forget_cache(ap);
        int fd;
        if (layer_walk_charged(ap->c->root, dir, create, ap->c, &fd, err) < 0)
                return -1;
        if (create) {
                /* the directories made on the way are this layer's */
                for (size_t i = 1; i <= dirlen; i++) {
                        if (i == dirlen || dir[i] == '/') {
                                char c = dir[i];
                                dir[i] = '\0';
                                if (pathset_add(&ap->made, dir) < 0) {
                                        close(fd);
                                        return pathset_error(err);
                                }
                                dir[i] = c;
                        }
                }
        }
        ap->cached_fd = fd;
        snprintf(ap->cached, sizeof ap->cached, "%s", dir);
        *ret_fd = fd;
        return 0;
}

/* Opaque directory `dir`: remove what the lower layers put below it, keep this layer's. */
static int opaque(struct apply *ap, int pfd, const char *dir, int depth, struct error *err)
{
        if (depth > REMOVE_MAX_DEPTH)
                return error_set(err, ELOOP, "'%s' is nested too deeply", dir);
        int fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "cannot read directory '%s'", dir);
        _cleanup_closedir_ DIR *d = fdopendir(fd);
        if (!d) {
                close(fd);
                return error_set(err, errno, "cannot read directory '%s'", dir);
        }
        /* names first: removing while reading may skip entries */
        char **names = NULL;
        size_t n = 0, cap = 0;
        struct dirent *de;
        int ret = 0;
        while ((de = readdir(d))) {
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                if (n == cap) {
                        cap = cap ? cap * 2 : 64;
                        char **nn = realloc(names, cap * sizeof *names);
                        if (!nn) {
                                ret = pathset_error(err);
                                goto out;
                        }
                        names = nn;
                }
                if (!(names[n] = strdup(de->d_name))) {
                        ret = pathset_error(err);
                        goto out;
                }
                n++;
        }
        for (size_t i = 0; i < n && !ret; i++) {
                char child[IMGPATH_MAX];
                if (snprintf(child, sizeof child, "%s%s%s", dir, *dir ? "/" : "", names[i]) >=
                    (int)sizeof child) {
                        ret = error_set(err, ENAMETOOLONG, "'%s/%s'", dir, names[i]);
                        break;
                }
                if (!pathset_has(&ap->made, child)) {
                        ret = layer_remove(dirfd(d), names[i], err);
                        continue;
                }
                int sub = openat(dirfd(d), names[i], O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (sub >= 0) {
                        ret = opaque(ap, sub, child, depth + 1, err);
                        close(sub);
                }
        }
out:
        for (size_t i = 0; i < n; i++)
                free(names[i]);
        free(names);
        return ret;
}

static void note_unowned(struct layer_ctx *c, const char *path, int64_t uid)
{
        if (!c->stats.unowned++) {
                c->stats.unowned_uid = (uint32_t)uid;
                snprintf(c->stats.unowned_example, sizeof c->stats.unowned_example, "%s", path);
        }
}

/* the entry's owner, or the caller's (0 here) when this user namespace cannot hold it */
static void own(struct apply *ap, int pfd, const char *name, int fd, struct archive_entry *e,
                const char *path)
{
        int64_t uid = archive_entry_uid(e), gid = archive_entry_gid(e);
        if (uid == 0 && gid == 0 && ap->c->as_root)
                return; /* made so already */
        int r = -1;
        if (uid >= 0 && gid >= 0 && uid < UINT32_MAX && gid < UINT32_MAX)
                r = fd >= 0 ? fchown(fd, (uid_t)uid, (gid_t)gid)
                            : fchownat(pfd, name, (uid_t)uid, (gid_t)gid, AT_SYMLINK_NOFOLLOW);
        if (r < 0)
                note_unowned(ap->c, path, uid != 0 ? uid : gid);
}

static void set_xattrs(struct apply *ap, int fd, struct archive_entry *e, const char *path)
{
        const char *name;
        const void *value;
        size_t size;
        archive_entry_xattr_reset(e);
        while (archive_entry_xattr_next(e, &name, &value, &size) == ARCHIVE_OK) {
                /* in the store, overlayfs reads its user.overlay.* xattrs (userxattr): an
                 * image's own would redirect or hide files of other layers */
                bool theirs = ap->c->overlay && (!strncmp(name, "user.overlay.", 13) ||
                                                 !strncmp(name, "trusted.overlay.", 16));
                if (!theirs && fd >= 0 && fsetxattr(fd, name, value, size, 0) == 0)
                        continue;
                if (!ap->c->stats.xattrs++)
                        snprintf(ap->c->stats.xattr_example, sizeof ap->c->stats.xattr_example,
                                 "%s on '%s'", name, path);
        }
}

struct layer_dirtime {
        char *path;
        struct timespec mtime;
};

#define DIRTIMES_MAX_BYTES (64u << 20)

/* a directory's time, for layer_finish; past the limit, directories keep the import's time */
static void keep_dirtime(struct layer_ctx *c, const char *path, struct archive_entry *e)
{
        size_t len = strlen(path) + 1;
        if (c->dirbytes + len > DIRTIMES_MAX_BYTES)
                return;
        if (c->ndirs == c->capdirs) {
                size_t cap = c->capdirs ? c->capdirs * 2 : 256;
                struct layer_dirtime *d = realloc(c->dirs, cap * sizeof *d);
                if (!d)
                        return;
                c->dirs = d;
                c->capdirs = cap;
        }
        char *p = strdup(path);
        if (!p)
                return;
        c->dirs[c->ndirs++] =
                (struct layer_dirtime){p, {archive_entry_mtime(e), archive_entry_mtime_nsec(e)}};
        c->dirbytes += len;
}

/* A directory just made or met again: its owner, mode, xattrs and (later) its time. */
static int dir_metadata(struct apply *ap, int pfd, const char *base, struct archive_entry *e,
                        const char *path, mode_t mode, struct error *err)
{
        _cleanup_close_ int fd = openat(pfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "cannot open directory '%s'", path);
        own(ap, pfd, base, fd, e, path);
        if (fchmod(fd, mode) < 0)
                return error_set(err, errno, "cannot chmod '%s'", path);
        set_xattrs(ap, fd, e, path);
        keep_dirtime(ap->c, path, e);
        return 0;
}

void layer_finish(struct layer_ctx *c)
{
        /* in order: a directory given twice gets the later layer's time */
        for (size_t i = 0; i < c->ndirs; i++) {
                size_t dirlen;
                const char *base = imgpath_base(c->dirs[i].path, &dirlen);
                char dir[IMGPATH_MAX];
                snprintf(dir, sizeof dir, "%.*s", (int)dirlen, c->dirs[i].path);
                int fd;
                struct error err;
                if (layer_walk(c->root, dir, false, &fd, &err) == 0) {
                        struct timespec t[2] = {{.tv_nsec = UTIME_OMIT}, c->dirs[i].mtime};
                        utimensat(fd, base, t, AT_SYMLINK_NOFOLLOW);
                        close(fd);
                }
                free(c->dirs[i].path);
        }
        free(c->dirs);
        c->dirs = NULL;
        c->ndirs = c->capdirs = c->dirbytes = 0;
}

static int write_data(struct apply *ap, int fd, struct archive_entry *e, const char *path,
                      struct error *err)
{
        const void *buf;
        size_t size;
        la_int64_t offset, end = 0;
        struct layer_ctx *c = ap->c;
        ap->written = 0;
        for (;;) {
                int r = archive_read_data_block(ap->a, &buf, &size, &offset);
                if (r == ARCHIVE_EOF)
                        break;
                if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
                        return error_set(err, archive_errno(ap->a), "cannot read '%s': %s", path,
                                         archive_error_string(ap->a));
                if (budget_charge(c, size, err) < 0)
                        return -1;
                ap->written += size;
                const char *p = buf;
                while (size) {
                        ssize_t w = pwrite(fd, p, size, offset);
                        if (w < 0 && errno == EINTR)
                                continue;
                        if (w <= 0)
                                return error_set(err, w < 0 ? errno : EIO, "cannot write '%s'",
                                                 path);
                        p += w;
                        size -= (size_t)w;
                        offset += w;
                        c->stats.bytes += (uint64_t)w;
                }
                if (offset > end)
                        end = offset;
                if (c->stats.bytes - ap->reported >= (1u << 20)) {
                        ap->reported = c->stats.bytes;
                        if (budget_check_room(c, err) < 0)
                                return -1;
                        if (c->progress)
                                c->progress(c->progress_ctx, c->stats.bytes);
                }
        }
        la_int64_t want = archive_entry_size(e);
        if (want <= end)
                return 0;
        if (ftruncate(fd, want) < 0) /* a sparse file's last hole */
                return error_set(err, errno, "cannot size '%s'", path);
        /* a filesystem without holes (vfat, exfat: a Pi's USB stick) just wrote them */
        return budget_check_room(c, err);
}

/* the entry being applied */
struct entry {
        struct archive_entry *e;
        const char *name;       /* as the layer names it, for messages */
        char path[IMGPATH_MAX]; /* cleaned */
        const char *base;       /* its last component, in path */
        size_t dirlen;          /* the bytes of path before it */
        int pfd;                /* its directory, owned by the cache */
        mode_t mode;            /* its permission bits */
};

/* In the store's form: the whiteout of `target` as overlayfs reads it, a character device 0:0
 * (mknod(2) allows one in a user namespace since Linux 5.8). Made in place of nothing: the
 * layer is applied alone, so what holds the name is this layer's own, and stays. */
static int overlay_whiteout(struct apply *ap, struct entry *en, const char *target,
                            struct error *err)
{
        if (parent_of(ap, en->path, en->dirlen, true, &en->pfd, err) < 0)
                return error_wrap(err, "whiteout '%s'", en->name);
        if (mknodat(en->pfd, target, S_IFCHR | 0, makedev(0, 0)) < 0 && errno != EEXIST)
                return error_set(err, errno,
                                 "cannot record the whiteout '%s' as a character "
                                 "device 0:0",
                                 en->name);
        return 0;
}

/* In the store's form: an opaque directory marked for overlayfs (mounted with userxattr) */
static int overlay_opaque(const struct entry *en, int dfd, struct error *err)
{
        _cleanup_close_ int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0 || fsetxattr(fd, "user.overlay.opaque", "y", 1, 0) < 0) {
                error_set(err, errno,
                          "cannot mark the opaque directory of '%s' with the xattr "
                          "user.overlay.opaque",
                          en->name);
                return error_hint(err, "the image store's filesystem must take user xattrs "
                                       "(ext4, xfs, btrfs; tmpfs since Linux 6.6): set "
                                       "CRIB_STORE=DIR to one that does");
        }
        return 0;
}

/* ".wh.NAME": remove NAME of the lower layers, if it is there. */
static int whiteout(struct apply *ap, struct entry *en, const char *target, struct error *err)
{
        char victim[IMGPATH_MAX];
        snprintf(victim, sizeof victim, "%.*s%s%s", (int)en->dirlen, en->path,
                 en->dirlen ? "/" : "", target);
        if (pathset_has(&ap->made, victim))
                return 0; /* this layer's own: whiteouts hide the lower layers only */
        if (ap->c->overlay)
                return overlay_whiteout(ap, en, target, err);
        forget_cache(ap);
        char dir[IMGPATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)en->dirlen, en->path);
        _cleanup_close_ int dfd = -1;
        if (layer_walk(ap->c->root, dir, false, &dfd, err) < 0) {
                if (err->errnum == ENOENT)
                        return 0; /* nothing there to hide */
                return error_wrap(err, "whiteout '%s'", en->name);
        }
        return layer_remove(dfd, target, err) < 0 ? error_wrap(err, "whiteout '%s'", en->name) : 0;
}

/* ".wh..wh..opq": the directory, made if need be, without what the lower layers put there. */
static int opaque_dir(struct apply *ap, const struct entry *en, struct error *err)
{
        char dir[IMGPATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)en->dirlen, en->path);
        forget_cache(ap);
        _cleanup_close_ int dfd = -1;
        if (layer_walk_charged(ap->c->root, dir, true, ap->c, &dfd, err) < 0)
                return error_wrap(err, "opaque directory '%s'", en->name);
        if (pathset_add(&ap->made, dir) < 0)
                return pathset_error(err);
        if (ap->c->overlay)
                return overlay_opaque(en, dfd, err);
        return opaque(ap, dfd, dir, 0, err) < 0 ? error_wrap(err, "opaque directory '%s'", en->name)
                                                : 0;
}

/* A hard link to `hardlink`, a name inside the root by the same rules as the entry's. */
static int make_hardlink(const struct apply *ap, const struct entry *en, const char *hardlink,
                         struct error *err)
{
        char to[IMGPATH_MAX];
        const char *why = imgpath_clean(hardlink, to, sizeof to);
        if (why)
                return error_set(err, 0,
                                 "hard link '%s' to '%s': the target %s: it "
                                 "would leave the image's root",
                                 en->name, hardlink, why);
        if (!to[0])
                return error_set(err, 0, "hard link '%s' names the root", en->name);
        size_t tdirlen;
        const char *tbase = imgpath_base(to, &tdirlen);
        char tdir[IMGPATH_MAX];
        snprintf(tdir, sizeof tdir, "%.*s", (int)tdirlen, to);
        _cleanup_close_ int tfd = -1;
        if (layer_walk(ap->c->root, tdir, false, &tfd, err) < 0)
                return error_wrap(err, "hard link '%s' to '%s'", en->name, hardlink);
        if (linkat(tfd, tbase, en->pfd, en->base, 0) < 0)
                return error_set(err, errno, "cannot link '%s' to '%s'", en->name, hardlink);
        return 0;
}

static int make_file(struct apply *ap, const struct entry *en, struct error *err)
{
        struct archive_entry *e = en->e;
        /* a sparse file's size is not what it writes: bounded apart */
        if (archive_entry_size(e) < 0)
                return error_set(err, 0, "entry '%s' claims %lld bytes", en->name,
                                 (long long)archive_entry_size(e));
        if ((uint64_t)archive_entry_size(e) > ap->c->max_bytes) {
                budget_over(ap->c, err);
                return error_wrap(err, "entry '%s' claims %lld bytes", en->name,
                                  (long long)archive_entry_size(e));
        }
        _cleanup_close_ int fd = openat(en->pfd, en->base,
                                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
                return error_set(err, errno, "cannot create '%s'", en->path);
        if (write_data(ap, fd, e, en->path, err) < 0 ||
            budget_charge_made(ap->c, fd, "", LAYER_ENTRY_COST + ap->written, err) < 0)
                return -1;
        own(ap, en->pfd, en->base, fd, e, en->path);
        if (fchmod(fd, en->mode) < 0) /* after the chown, which clears set-id bits */
                return error_set(err, errno, "cannot chmod '%s'", en->path);
        set_xattrs(ap, fd, e, en->path);
        struct timespec t[2] = {{.tv_nsec = UTIME_OMIT},
                                {archive_entry_mtime(e), archive_entry_mtime_nsec(e)}};
        futimens(fd, t);
        return 0;
}

static int make_dir(struct apply *ap, const struct entry *en, struct error *err)
{
        if (mkdirat(en->pfd, en->base, 0700) < 0)
                return error_set(err, errno, "cannot make directory '%s'", en->path);
        if (budget_charge_made(ap->c, en->pfd, en->base, LAYER_ENTRY_COST, err) < 0)
                return -1;
        return dir_metadata(ap, en->pfd, en->base, en->e, en->path, en->mode, err);
}

static int make_symlink(struct apply *ap, const struct entry *en, struct error *err)
{
        struct archive_entry *e = en->e;
        const char *to = archive_entry_symlink(e);
        if (!to || !*to)
                return error_set(err, 0, "symbolic link '%s' has no target", en->name);
        if (strlen(to) >= IMGPATH_MAX)
                return error_set(err, ENAMETOOLONG, "symbolic link '%s'", en->name);
        if (symlinkat(to, en->pfd, en->base) < 0)
                return error_set(err, errno, "cannot make symbolic link '%s'", en->path);
        if (budget_charge_made(ap->c, en->pfd, en->base, LAYER_ENTRY_COST + strlen(to), err) < 0)
                return -1;
        own(ap, en->pfd, en->base, -1, e, en->path);
        struct timespec t[2] = {{.tv_nsec = UTIME_OMIT},
                                {archive_entry_mtime(e), archive_entry_mtime_nsec(e)}};
        utimensat(en->pfd, en->base, t, AT_SYMLINK_NOFOLLOW);
        return 0;
}

static int make_fifo(struct apply *ap, const struct entry *en, struct error *err)
{
        if (mknodat(en->pfd, en->base, S_IFIFO | 0600, 0) < 0)
                return error_set(err, errno, "cannot make fifo '%s'", en->path);
        own(ap, en->pfd, en->base, -1, en->e, en->path);
        if (fchmodat(en->pfd, en->base, en->mode, 0) < 0)
                return error_set(err, errno, "cannot chmod '%s'", en->path);
        return 0;
}

/* A plain entry: made in its directory (made too if need be) in place of whatever held its
 * name; a directory met again keeps what it holds. Device nodes and sockets are only counted. */
static int make_entry(struct apply *ap, struct entry *en, struct error *err)
{
        struct archive_entry *e = en->e;
        if (parent_of(ap, en->path, en->dirlen, true, &en->pfd, err) < 0)
                return error_wrap(err, "entry '%s'", en->name);
        mode_t type = archive_entry_filetype(e);
        en->mode = archive_entry_perm(e) & 07777;
        const char *hardlink = archive_entry_hardlink(e);
        struct stat st;
        bool exists = fstatat(en->pfd, en->base, &st, AT_SYMLINK_NOFOLLOW) == 0;

        if (!hardlink && (type == AE_IFCHR || type == AE_IFBLK || type == AE_IFSOCK)) {
                if (!ap->c->stats.devices++)
                        snprintf(ap->c->stats.device_example, sizeof ap->c->stats.device_example,
                                 "%.120s", en->path);
                return 0;
        }
        if (pathset_add(&ap->made, en->path) < 0)
                return pathset_error(err);
        if (!hardlink && type == AE_IFDIR && exists && S_ISDIR(st.st_mode)) {
                /* a directory again: its metadata changes, what it holds stays */
                return dir_metadata(ap, en->pfd, en->base, e, en->path, en->mode, err);
        }
        if (exists) {
                forget_cache(ap); /* the cached directory may be below what goes */
                if (parent_of(ap, en->path, en->dirlen, true, &en->pfd, err) < 0)
                        return error_wrap(err, "entry '%s'", en->name);
                if (layer_remove(en->pfd, en->base, err) < 0)
                        return error_wrap(err, "entry '%s' replaces '%s'", en->name, en->path);
        }

        if (hardlink)
                return make_hardlink(ap, en, hardlink, err);
        switch (type) {
        case AE_IFREG:
                return make_file(ap, en, err);
        case AE_IFDIR:
                return make_dir(ap, en, err);
        case AE_IFLNK:
                return make_symlink(ap, en, err);
        case AE_IFIFO:
                return make_fifo(ap, en, err);
        default:
                return error_set(err, 0, "entry '%s' is of unknown type 0%o", en->name,
                                 (unsigned)type);
        }
}

/* One entry of the layer: its name cleaned, then a whiteout, an opaque directory's mark, or a
 * plain entry. */
static int apply_entry(struct apply *ap, struct archive_entry *e, struct error *err)
{
        struct entry en = {.e = e, .name = archive_entry_pathname(e), .pfd = -1};
        if (!en.name)
                return error_set(err, 0, "an entry has no name");
        const char *why = imgpath_clean(en.name, en.path, sizeof en.path);
        if (why)
                return error_set(err, 0, "entry '%s' %s: it would leave the image's root", en.name,
                                 why);
        if (!en.path[0])
                return 0; /* the root itself: crib keeps its own */

        const char *target = NULL;
        en.base = imgpath_base(en.path, &en.dirlen);
        switch (imgpath_kind(en.path, &target)) {
        case IMGPATH_META:
                return 0;
        case IMGPATH_BAD:
                return error_set(err, 0, "entry '%s' is a whiteout of '.' or '..'", en.name);
        case IMGPATH_WHITEOUT:
                return whiteout(ap, &en, target, err);
        case IMGPATH_OPAQUE:
                return opaque_dir(ap, &en, err);
        case IMGPATH_PLAIN:
                break;
        }
        return make_entry(ap, &en, err);
}

/* the bytes of an entry's extended attributes, names and values */
static uint64_t xattr_bytes(struct archive_entry *e)
{
        const char *name;
        const void *value;
        size_t size;
        uint64_t n = 0;
        archive_entry_xattr_reset(e);
        while (archive_entry_xattr_next(e, &name, &value, &size) == ARCHIVE_OK)
                n += strlen(name) + size;
        return n;
}

int layer_apply(struct layer_ctx *c, struct archive *a, const char *what, struct error *err)
{
        struct apply ap = {.c = c, .a = a, .cached_fd = -1};
        struct archive_entry *e;
        int ret = 0;
        uint64_t n = 0;
        if (budget_check_room(c, err) < 0)
                return error_wrap(err, "%s", what);
        for (;;) {
                int r = archive_read_next_header(a, &e);
                if (r == ARCHIVE_EOF)
                        break;
                if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
                        ret = error_set(err, archive_errno(a) > 0 ? archive_errno(a) : 0,
                                        "%s is not a readable tar archive: %s", what,
                                        archive_error_string(a));
                        break;
                }
                if (++n > LAYER_MAX_ENTRIES) {
                        ret = error_set(err, 0, "%s has more than %d entries", what,
                                        LAYER_MAX_ENTRIES);
                        break;
                }
                c->stats.entries++;
                if ((n % 256 == 0 && budget_check_room(c, err) < 0) ||
                    budget_charge(c,
                                  LAYER_ENTRY_COST + xattr_bytes(e) +
                                          strlen(archive_entry_symlink(e) ? archive_entry_symlink(e)
                                                                          : ""),
                                  err) < 0 ||
                    apply_entry(&ap, e, err) < 0) {
                        ret = error_wrap(err, "%s", what);
                        break;
                }
        }
        forget_cache(&ap);
        pathset_free(&ap.made);
        return ret;
}
