/* imgrootfs.c - the directory of a container made from a store image (docs/store.md, "A
 * container's rootfs"): made in ROOT/tmp/ctr-ID and renamed to ROOT/containers/ID, named by 32
 * random hex digits, never by anything of the image's; removed with the container.
 *
 * The overlay itself is mounted in the container's namespaces by its setup
 * (runtime/steps/overlay.c); this file makes its directories: l/0..l/N-1 (symlinks to the
 * layers' trees, l/0 the topmost, short so that lowerdir= fits in a page), upper/, work/ and
 * merged/. Root's container in a user namespace also gets m/0..m/N-1, where its setup attaches
 * the layers' idmapped mounts (runtime/steps/idlayers.c), ID/ and m/ open to its root (0711),
 * and upper/ and work/ given to it once planned (imgrootfs_fill). Where overlayfs cannot be used
 * it makes rootfs/ and copies the layers into it (imgcopy.c), as root of the container's user
 * namespace for a user, so the files have the ids the layers have, and then removes it in that
 * namespace as well. Which of the two is one decision (copy_reason, then fs_reason), made for
 * crib run on the new directory and for crib plan, which makes nothing, on the store itself
 * (imgrootfs_predict). */
#define _GNU_SOURCE
#include "imgrootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "host/kernel.h"
#include "imgcopy.h"
#include "steps/idlayers.h"
#include "steps/userns.h"

/* The length of "../l/0:../l/1:...", the shortest lowerdir= of `n` layers (plan/fs.c) */
static size_t short_lowerdir(size_t n)
{
        size_t len = 0;
        for (size_t i = 0; i < n; i++)
                len += (i ? 1 : 0) + 5 + (i < 10 ? 1 : i < 100 ? 2 : 3);
        return len;
}

/* Why this container gets a copy of the layers rather than an overlay; "" for an overlay */
static void copy_reason(const struct imgrootfs_opts *o, size_t nlayers, char *why, size_t len)
{
        unsigned major = 0, minor = 0;
        seccomp_kernel_version(&major, &minor);
        why[0] = '\0';
#ifdef CRIB_TEST_HOOKS
        /* test builds only (the Makefile's CRIB_TEST_HOOKS): tests/e2e/35-run-image.t proves
         * that a copy isolates containers as an overlay does */
        if (getenv("CRIB_TEST_IMAGE_COPY")) {
                snprintf(why, len, "CRIB_TEST_IMAGE_COPY is set");
                return;
        }
#endif
        if (geteuid() == 0 && o->userns && (major < 5 || (major == 5 && minor < 19)))
                snprintf(why, len,
                         "this kernel (%u.%u) mounts no overlayfs over idmapped layers, which "
                         "root's containers in a user namespace need (Linux 5.19)",
                         major, minor);
        else if (major < 5 || (major == 5 && minor < 11))
                snprintf(why, len,
                         "this kernel (%u.%u) mounts no overlayfs with userxattr in a "
                         "user namespace (Linux 5.11)",
                         major, minor);
        else if (short_lowerdir(nlayers) > PLAN_FSCONFIG_MAX &&
                 (major < 6 || (major == 6 && minor < 8)))
                snprintf(why, len,
                         "the image's %zu layers are more than this kernel (%u.%u) "
                         "takes in one overlayfs option; Linux 6.8 takes each on its own",
                         nlayers, major, minor);
}

/* Layer `i` of `img` (0 the topmost) in the store: layers/HEX/root, checked to be a directory */
static int layer_root(int root, const struct store_image *img, size_t i, char *ret, size_t len,
                      struct error *err)
{
        const char *hex = img->layers[img->nlayers - 1 - i] + 7; /* after "sha256:" */
        struct stat st;
        snprintf(ret, len, "layers/%s/root", hex);
        if (fstatat(root, ret, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
                return error_set(err, errno ? errno : ENOTDIR,
                                 "the image's layer %s is not in the store", hex);
        return 0;
}

/* The layers of `img`, topmost first, as l/0..l/N-1 in `dir`; each checked to be there */
static int make_links(int root, int dir, const struct store_image *img, struct error *err)
{
        if (mkdirat(dir, "l", 0700) < 0)
                return error_set(err, errno, "cannot make the container's l/");
        for (size_t i = 0; i < img->nlayers; i++) {
                char layer[128], link[160], name[32];
                if (layer_root(root, img, i, layer, sizeof layer, err) < 0)
                        return -1;
                snprintf(link, sizeof link, "../../../%s", layer);
                snprintf(name, sizeof name, "l/%zu", i);
                if (symlinkat(link, dir, name) < 0)
                        return error_set(err, errno, "cannot make the container's %s", name);
        }
        return 0;
}

/* Whether the store's filesystem takes user.* extended attributes, which overlayfs with
 * userxattr keeps in upper/ (tmpfs before Linux 6.6 does not), asked of `dir`, a directory on
 * it open for reading. Reading one that is not there says so without writing: ENODATA where the
 * filesystem has them, EOPNOTSUPP where it has none (xattr(7)); any other answer, and an
 * attribute is set and removed to see, when `may_write` (crib plan may not: NOT_KNOWN). */
enum answer { YES, NO, NOT_KNOWN };
static enum answer takes_user_xattrs(int dir, bool may_write)
{
        char v;
        if (dir < 0)
                return NO;
        ssize_t n = fgetxattr(dir, "user.crib.probe", &v, sizeof v);
        if (n < 0 && errno == ENODATA)
                return YES;
        if (n < 0 && errno == EOPNOTSUPP)
                return NO;
        if (!may_write)
                return NOT_KNOWN;
        if (fsetxattr(dir, "user.crib.probe", "y", 1, 0) < 0)
                return NO;
        fremovexattr(dir, "user.crib.probe");
        return YES;
}

/* Root's container in a user namespace: m/0..m/N-1, where its setup attaches the layers'
 * idmapped mounts (steps/idlayers.c), and the way to them and to upper/ and work/ open to its
 * root, who is not host root (0711: other users cannot reach ROOT, 0700, anyway) */
static int make_mountpoints(int dir, unsigned n, struct error *err)
{
        if (mkdirat(dir, "m", 0711) < 0 || fchmodat(dir, "m", 0711, 0) < 0 || fchmod(dir, 0711) < 0)
                return error_set(err, errno, "cannot make the container's m/");
        for (unsigned i = 0; i < n; i++) {
                char name[32];
                snprintf(name, sizeof name, "m/%u", i);
                if (mkdirat(dir, name, 0700) < 0)
                        return error_set(err, errno, "cannot make the container's %s", name);
        }
        return 0;
}

static int make_overlay_dirs(int dir, unsigned n, bool idmapped, struct error *err)
{
        if (idmapped && make_mountpoints(dir, n, err) < 0)
                return -1;
        if (mkdirat(dir, "upper", 0755) < 0 || mkdirat(dir, "work", 0700) < 0 ||
            mkdirat(dir, "merged", 0755) < 0)
                return error_set(err, errno, "cannot make the container's overlay directories");
        return 0;
}

/* Root's container in a user namespace: whether its layers can be idmapped mounts, tried on the
 * topmost (`top` below `dir`: l/0, or its layer in the store); else why not, in `why` */
static bool takes_idmapped_layers(int dir, const char *top, char *why, size_t len)
{
        struct error e;
        if (idlayers_probe(dir, top, &e) == 0)
                return true;
        snprintf(why, len,
                 "the image store's filesystem takes no idmapped mounts (%s), which root's "
                 "containers in a user namespace need for an overlay",
                 strerror(e.errnum));
        return false;
}

/* The store's filesystem's part of the choice between an overlay and a copy, after the
 * kernel's (copy_reason): `why` stays "" for an overlay. Overlayfs keeps its own attributes in
 * user extended attributes, asked of `xdir` (a directory of the store's filesystem, open for
 * reading); root's container in a user namespace (`idmapped`) needs its layers as idmapped
 * mounts, tried on the topmost, `top` below `topdir`. Where the filesystem does not say
 * without a write and `may_write` is false (crib plan), an overlay, with *ret_unsure set. */
static void fs_reason(int xdir, int topdir, const char *top, bool idmapped, bool may_write,
                      char *why, size_t len, bool *ret_unsure)
{
        enum answer x = takes_user_xattrs(xdir, may_write);
        if (ret_unsure)
                *ret_unsure = x == NOT_KNOWN;
        if (x == NO)
                snprintf(why, len,
                         "the image store's filesystem takes no user extended attributes, "
                         "which overlayfs needs");
        else if (idmapped)
                takes_idmapped_layers(topdir, top, why, len);
}

static int write_json(int dir, const struct imgrootfs *r, const struct store_image *img,
                      const struct imgrootfs_opts *o, const char *id, struct error *err)
{
        char text[512];
        int n = snprintf(text, sizeof text,
                         "{\"id\":\"%s\",\"image\":\"%s\",\"name\":\"%s\",\"created\":%lld,"
                         "\"rootfs\":\"%s\"}\n",
                         id, img->id, o->name, (long long)time(NULL),
                         r->nlayers ? "overlay" : "copy");
        _cleanup_close_ int fd = openat(dir, "container.json",
                                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 || n < 0 || (size_t)n >= sizeof text || write(fd, text, (size_t)n) != n)
                return error_set(err, errno, "cannot write the container's container.json");
        return 0;
}

/* The directories in `dir` (tmp/ctr-ID), the overlay's or a copy's */
static int make_in(int root, int dir, const struct store_image *img, const struct imgrootfs_opts *o,
                   struct imgrootfs *r, struct error *err)
{
        struct error ignored;
        bool idmapped = geteuid() == 0 && o->userns;
        /* the layers' links first: the overlay's lowerdir, or what a copy copies */
        if (make_links(root, dir, img, err) < 0)
                return -1;
        r->links = (unsigned)img->nlayers;
        if (!r->why[0]) {
                if (make_overlay_dirs(dir, (unsigned)img->nlayers, idmapped, err) < 0)
                        return -1;
                _cleanup_close_ int up =
                        openat(dir, "upper", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                fs_reason(up, dir, "l/0", idmapped, true, r->why, sizeof r->why, NULL);
                if (!r->why[0]) {
                        r->nlayers = (unsigned)img->nlayers;
                        r->idmapped = idmapped;
                        return 0;
                }
                const char *made[] = {"m", "upper", "work", "merged"}; /* l/ stays */
                for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
                        imgcopy_remove(dir, made[i], 0, &ignored);
                fchmod(dir, 0700);
        }
        if (mkdirat(dir, "rootfs", 0700) < 0)
                return error_set(err, errno, "cannot make the container's rootfs/");
        return 0;
}

int imgrootfs_make(int root, const char *root_path, const struct store_image *img,
                   const struct imgrootfs_opts *o, struct imgrootfs *ret, struct error *err)
{
        unsigned char rnd[16];
        char id[33], tmp[64], final[64];
        memset(ret, 0, sizeof *ret);
        if (!img->nlayers)
                return error_set(err, EINVAL, "image %s has no layers", img->id);
        if (getrandom(rnd, sizeof rnd, 0) != sizeof rnd)
                return error_set(err, errno, "cannot name the container's directory");
        for (size_t i = 0; i < sizeof rnd; i++)
                snprintf(id + 2 * i, 3, "%02x", rnd[i]);
        copy_reason(o, img->nlayers, ret->why, sizeof ret->why);
        ret->size = img->size;
        /* an adder: store.lock shared until containers/ID is there (docs/store.md), so no
         * remover (rmi, prune) takes tmp/ctr-ID or the image's layers meanwhile; one that ran
         * before leaves make_links without the layers, an error */
        _cleanup_close_ int lock =
                openat(root, "store.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (lock < 0)
                return error_set(err, errno, "cannot open store.lock in the image store '%s'",
                                 root_path);
        while (flock(lock, LOCK_SH) < 0)
                if (errno != EINTR)
                        return error_set(err, errno, "cannot lock the image store '%s'", root_path);
        snprintf(tmp, sizeof tmp, "tmp/ctr-%s", id);
        snprintf(final, sizeof final, "containers/%s", id);
        if ((mkdirat(root, "tmp", 0700) < 0 && errno != EEXIST) ||
            (mkdirat(root, "containers", 0700) < 0 && errno != EEXIST) ||
            mkdirat(root, tmp, 0700) < 0)
                return error_set(err, errno, "cannot make '%s' in the image store '%s'", tmp,
                                 root_path);
        _cleanup_close_ int dir =
                openat(root, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct error ignored;
        if (dir < 0) {
                error_set(err, errno, "cannot open '%s' in the image store", tmp);
        } else if (make_in(root, dir, img, o, ret, err) == 0 &&
                   write_json(dir, ret, img, o, id, err) == 0) {
                if (renameat(root, tmp, root, final) == 0) {
                        snprintf(ret->dir, sizeof ret->dir, "%s/%s", root_path, final);
                        snprintf(ret->rootfs, sizeof ret->rootfs, "%s/%s", ret->dir,
                                 ret->nlayers ? "merged" : "rootfs");
                        return 0;
                }
                error_set(err, errno, "cannot rename '%s' to '%s' in the image store", tmp, final);
        }
        imgcopy_remove(root, tmp, 0, &ignored);
        return -1;
}

int imgrootfs_predict(int root, const char *root_path, const struct store_image *img,
                      const struct imgrootfs_opts *o, struct imgrootfs *ret, struct error *err)
{
        char top[128], layer[128];
        memset(ret, 0, sizeof *ret);
        if (!img->nlayers)
                return error_set(err, EINVAL, "image %s has no layers", img->id);
        for (size_t i = img->nlayers; i-- > 0;) /* each there, as make_links checks: l/0 last */
                if (layer_root(root, img, i, i ? layer : top, sizeof top, err) < 0)
                        return -1;
        bool idmapped = geteuid() == 0 && o->userns;
        copy_reason(o, img->nlayers, ret->why, sizeof ret->why);
        if (!ret->why[0]) { /* the store's root stands for upper/, on the same filesystem */
                _cleanup_close_ int rd = openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                fs_reason(rd, root, top, idmapped, false, ret->why, sizeof ret->why, &ret->unsure);
        }
        ret->size = img->size;
        ret->links = (unsigned)img->nlayers;
        if (!ret->why[0]) {
                ret->nlayers = (unsigned)img->nlayers;
                ret->idmapped = idmapped;
        }
        snprintf(ret->dir, sizeof ret->dir, "%s/containers/%s", root_path, IMGROOTFS_UNMADE_ID);
        snprintf(ret->rootfs, sizeof ret->rootfs, "%s/%s", ret->dir,
                 ret->nlayers ? "merged" : "rootfs");
        return 0;
}

/* ---- in the container's user namespace ---- */

/* Run `fn(ctx)`: here as root; for a user, in a child in a new user namespace mapped as the
 * container's (userns.c writes the maps, with newuidmap where the plan says), as its root. */
static int as_container_root(const struct plan *p, int (*fn)(void *ctx, struct error *err),
                             void *ctx, struct error *err)
{
        if (geteuid() == 0 || !p->userns)
                return fn(ctx, err);
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return error_set(err, errno, "cannot make a socket pair");
        pid_t pid = fork();
        if (pid < 0) {
                close(sv[0]), close(sv[1]);
                return error_set(err, errno, "cannot fork");
        }
        struct trace quiet = {0};
        char b = 0;
        if (pid == 0) {
                /* Child: a user namespace of its own, mapped as the container's */
                struct error e;
                error_clear(&e);
                close(sv[0]);
                if (unshare(CLONE_NEWUSER) < 0)
                        error_set(&e, errno, "cannot make a user namespace");
                else if (write(sv[1], &b, 1) != 1 || read(sv[1], &b, 1) != 1)
                        error_set(&e, EPIPE, "crib went away");
                else if (p->self_maps && userns_write_maps(p, 0, &quiet, &e) < 0)
                        ;
                else if (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)
                        error_set(&e, errno, "cannot become root in the user namespace");
                else
                        fn(ctx, &e);
                (void)!write(sv[1], &e, sizeof e);
                _exit(e.errnum || e.msg[0] ? 1 : 0);
        }
        close(sv[1]);
        struct error got;
        error_clear(&got);
        int r = -1;
        if (read(sv[0], &b, 1) != 1)
                error_set(err, EPIPE, "the helper in the user namespace died");
        else if (!p->self_maps && userns_write_maps(p, pid, &quiet, err) < 0)
                ;
        else if (write(sv[0], &b, 1) != 1 || read(sv[0], &got, sizeof got) != sizeof got)
                error_set(err, EPIPE, "the helper in the user namespace died");
        else if (got.errnum || got.msg[0])
                *err = got;
        else
                r = 0;
        close(sv[0]);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
        return r;
}

struct fill {
        const char *dir;
        unsigned nlayers;
};

/* As the container's root: l/N-1 (the lowest layer) to l/0 into rootfs/ */
static int fill_copy(void *ctx, struct error *err)
{
        const struct fill *f = ctx;
        _cleanup_close_ int dir = open(f->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        _cleanup_close_ int dst =
                dir < 0 ? -1
                        : openat(dir, "rootfs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dst < 0)
                return error_set(err, errno, "cannot open '%s/rootfs'", f->dir);
        for (unsigned i = f->nlayers; i-- > 0;) {
                char name[32];
                snprintf(name, sizeof name, "l/%u", i);
                _cleanup_close_ int src = openat(dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (src < 0)
                        return error_set(err, errno, "cannot open the layer '%s/%s'", f->dir, name);
                if (imgcopy_layer(src, dst, err) < 0)
                        return error_wrap(err, "cannot copy the layer '%s/%s'", f->dir, name);
        }
        return 0;
}

/* Root's overlay in a user namespace: upper/ and work/ its root's, who writes them (overlayfs
 * acts with the credentials of the namespace's root); not idmapped, so what the container
 * writes is that id's on disk, never host root's (steps/idlayers.c) */
static int give_upper(const struct imgrootfs *r, const struct plan *p, struct error *err)
{
        uid_t uid = (uid_t)idmap_outside(&p->uidmap, 0);
        gid_t gid = (gid_t)idmap_outside(&p->gidmap, 0);
        if (!p->overlay_idmapped || idmap_outside(&p->uidmap, 0) <= 0 ||
            idmap_outside(&p->gidmap, 0) <= 0)
                return error_set(err, EINVAL,
                                 "the container's plan has no user namespace for its idmapped "
                                 "layers");
        _cleanup_close_ int dir = open(r->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dir < 0)
                return error_set(err, errno, "cannot open '%s'", r->dir);
        const char *names[] = {"upper", "work"};
        for (size_t i = 0; i < 2; i++)
                if (fchownat(dir, names[i], uid, gid, AT_SYMLINK_NOFOLLOW) < 0)
                        return error_set(err, errno, "cannot give '%s/%s' to the container's root",
                                         r->dir, names[i]);
        return 0;
}

int imgrootfs_fill(const struct imgrootfs *r, const struct plan *p, struct error *err)
{
        if (r->nlayers)
                return r->idmapped ? give_upper(r, p, err) : 0;
        struct fill f = {.dir = r->dir, .nlayers = r->links};
        return as_container_root(p, fill_copy, &f, err);
}

/* As the container's root: DIR, everything in it; container.json last, so that a removal that
 * stops halfway (a mount on work/, a file it may not remove) leaves a directory that is still a
 * container's (is_container_dir), for a second crib rm */
static int remove_dir(void *ctx, struct error *err)
{
        const char *parts[] = {"merged", "upper", "work", "rootfs", "m", "l"};
        _cleanup_close_ int dir = open(ctx, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        for (size_t i = 0; dir >= 0 && i < sizeof parts / sizeof parts[0]; i++)
                if (imgcopy_remove(dir, parts[i], 0, err) < 0)
                        return -1;
        return imgcopy_remove(AT_FDCWD, ctx, 0, err);
}

/* Whether `dir` is ROOT/containers/ID: the plan came from the state directory, and only such
 * a directory is ever removed */
static bool is_container_dir(const char *dir)
{
        const char *slash = strrchr(dir, '/');
        if (!slash || slash - dir < 11 || strncmp(slash - 11, "/containers", 11) ||
            strlen(slash + 1) != 32 || strspn(slash + 1, "0123456789abcdef") != 32)
                return false;
        char json[PATH_MAX + 32];
        struct stat st;
        snprintf(json, sizeof json, "%s/container.json", dir);
        return lstat(json, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
}

int imgrootfs_remove(const struct plan *p, struct error *err)
{
        struct stat st;
        if (!p->image_dir || (lstat(p->image_dir, &st) < 0 && errno == ENOENT))
                return 0; /* (gone already: a crib rm that stopped after it, retried) */
        if (!is_container_dir(p->image_dir))
                return error_set(err, EINVAL,
                                 "'%s' is not a container's directory in an image store",
                                 p->image_dir);
        /* the rm of a container is a remover: exclusive on store.lock (docs/store.md) */
        char lock[PATH_MAX + 32];
        snprintf(lock, sizeof lock, "%s/../../store.lock", p->image_dir);
        _cleanup_close_ int lk = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (lk >= 0)
                flock(lk, LOCK_EX);
        /* as a user, first as the user: what an overlay container writes as its root is the
         * user's own, and a second user namespace costs newuidmap and newgidmap again (20-25
         * ms, most of a --rm run: tests/bench/image-store). A file of another of the
         * container's ids stops it, and the container's root removes the rest. */
        struct error plain;
        error_clear(&plain);
        if (geteuid() != 0 && p->userns && remove_dir(p->image_dir, &plain) == 0)
                return 0;
        if (as_container_root(p, remove_dir, p->image_dir, err) < 0)
                return error_wrap(err, "cannot remove the container's directory '%s'",
                                  p->image_dir);
        return 0;
}
