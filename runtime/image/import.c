/* import.c - `crib image import` from start to end (import.h).
 *
 * Kernel features: user namespaces (user_namespaces(7)) for a rootless import, as in userns.c:
 * unshare(CLONE_NEWUSER) in this process, then newuidmap(1)/newgidmap(1), forked before the
 * unshare (a setuid helper started inside the new namespace would have no privilege), write
 * the maps crib's `uid = auto` uses: 0 is the user, 1..N the ranges of /etc/subuid and
 * /etc/subgid. Inside, this process is root over those ids: it chowns files to the image's
 * owners and they land on the user's subordinate ids on disk, exactly where a container with
 * `uid = auto` sees them as the image's. Without ranges the map is the user's id alone and
 * files of other owners are flattened to the user (counted; cmd/ says what that breaks).
 *
 * Order: everything is read and checked (manifest, platform, every digest) before DIR is made,
 * so a bad image changes nothing; a failure later removes DIR again. DIR itself, and the way
 * to it, are made and checked through descriptors so no other user can swap them (destdir.c).
 *
 * The layers stop at --max-size and before the filesystem fills (import_reserve below, layer.c).
 */
#define _GNU_SOURCE
#include "import.h"

#include <archive.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif

#include "host/account.h"
#include "base/cleanup.h"
#include "destdir.h"
#include "spec/idmap.h"
#include "imgpath.h"
#include "base/procfile.h"
#include "source.h"
#include "host/kernel.h"
#include "host/subids.h"
#include "steps/sync.h"
#include "steps/userns.h"

void import_machine(struct platform *ret)
{
        struct host_machine m;
        host_machine_facts(&m);
        platform_detect(m.machine, m.at_platform[0] ? m.at_platform : NULL,
                        m.cpu_part[0] ? m.cpu_part : NULL, ret);
}

/* --- the user namespace ---------------------------------------------------------------------- */

static int read_subids(const char *file, const char *user, uint32_t id, struct idmap_range *r,
                       size_t *n, struct error *err)
{
        *n = 0;
        _cleanup_fclose_ FILE *f = fopen(file, "re");
        if (!f)
                return 0;
        return idmap_read_subids(f, user, id, r, n, err);
}

/* argv for newuidmap/newgidmap: PID 0 ID 1 then 1.. over the ranges */
static int map_with_helper(const char *helper, pid_t pid, uint32_t id, const struct idmap_range *r,
                           size_t n, struct error *err)
{
        char path[256];
        if (!userns_find_helper(helper, path, sizeof path))
                return error_set(err, ENOENT, "%s is not installed", helper);
        char args[3 + 3 * (IDMAP_MAX_SUBIDS + 1)][16];
        char *argv[3 + 3 * (IDMAP_MAX_SUBIDS + 1) + 1];
        size_t k = 0;
        argv[k++] = path;
        snprintf(args[0], sizeof args[0], "%d", (int)pid);
        argv[k++] = args[0];
        uint64_t next = 1;
        size_t a = 1;
        snprintf(args[a], 16, "0"), snprintf(args[a + 1], 16, "%u", id),
                snprintf(args[a + 2], 16, "1");
        argv[k++] = args[a], argv[k++] = args[a + 1], argv[k++] = args[a + 2];
        a += 3;
        for (size_t i = 0; i < n && next + r[i].count <= UINT32_MAX; i++) {
                snprintf(args[a], 16, "%llu", (unsigned long long)next);
                snprintf(args[a + 1], 16, "%u", r[i].outside);
                snprintf(args[a + 2], 16, "%u", r[i].count);
                argv[k++] = args[a], argv[k++] = args[a + 1], argv[k++] = args[a + 2];
                a += 3;
                next += r[i].count;
        }
        argv[k] = NULL;
        pid_t c = fork();
        if (c < 0)
                return error_set(err, errno, "cannot fork for %s", helper);
        if (c == 0) {
                int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
                if (devnull >= 0)
                        dup2(devnull, STDOUT_FILENO);
                execv(path, argv);
                _exit(127);
        }
        int status;
        while (waitpid(c, &status, 0) < 0 && errno == EINTR)
                ;
        if (!WIFEXITED(status) || WEXITSTATUS(status))
                return error_set(err, 0, "%s refused the ranges of /etc/sub%cid", helper,
                                 helper[3] == 'u' ? 'u' : 'g');
        return 0;
}

/* The caller's ids and subordinate ranges: what the import's user namespace maps. */
struct import_ids {
        uid_t uid;
        gid_t gid;
        struct idmap_range su[IDMAP_MAX_SUBIDS], sg[IDMAP_MAX_SUBIDS];
        size_t nsu, nsg;
};

/* The caller's ids and ranges into `ids`; into `res`, whether newuidmap and newgidmap can map
 * the ranges (subids) and how many ids the namespace will have. */
static int read_ids(struct import_ids *ids, struct import_result *res, struct error *err)
{
        ids->uid = geteuid();
        ids->gid = getegid();
        /* the name from /etc/passwd (account.h): a static crib-image asks no NSS module */
        struct account acct;
        account_of(ids->uid, &acct);
        const char *name = acct.name[0] ? acct.name : NULL;
        ids->nsu = ids->nsg = 0;
        if (read_subids("/etc/subuid", name, ids->uid, ids->su, &ids->nsu, err) < 0 ||
            read_subids("/etc/subgid", name, ids->gid, ids->sg, &ids->nsg, err) < 0)
                return -1;
        char p1[256], p2[256];
        res->subids = ids->nsu && ids->nsg && userns_find_helper("newuidmap", p1, sizeof p1) &&
                      userns_find_helper("newgidmap", p2, sizeof p2);
        res->no_helper = ids->nsu && ids->nsg && !res->subids;
        res->nuids = res->ngids = 1;
        for (size_t i = 0; res->subids && i < ids->nsu; i++)
                res->nuids += ids->su[i].count;
        for (size_t i = 0; res->subids && i < ids->nsg; i++)
                res->ngids += ids->sg[i].count;
        return 0;
}

/* Child: the id-map helper, forked before the unshare, so still in the host's user namespace,
 * where the setuid newuidmap and newgidmap have their privilege. Once `parent` is in its new
 * namespace (SYNC_GO on `c`), it maps the parent's ids; a failure goes back to the parent as
 * SYNC_ERROR, for it to return (only cmd/ prints). Never returns. */
static void map_helper(struct sync_chan *c, pid_t parent, const struct import_ids *ids)
{
        struct sync_msg m;
        struct error e;
        if (sync_recv(c, &m, NULL, &e) != 1 || m.type != SYNC_GO)
                _exit(1); /* the parent gave up, and says why */
        if (map_with_helper("newuidmap", parent, ids->uid, ids->su, ids->nsu, &e) < 0 ||
            map_with_helper("newgidmap", parent, ids->gid, ids->sg, ids->nsg, &e) < 0) {
                memset(&m, 0, sizeof m);
                m.type = SYNC_ERROR;
                m.u.err = e;
                sync_send(c, &m, -1, &e);
                _exit(1);
        }
        _exit(0);
}

/* After the unshare: let the id-map helper map this process's ids (SYNC_GO), and wait for it.
 * Its error comes back as SYNC_ERROR; EOF and a clean exit mean the ids are mapped. Closes
 * c->fd. */
static int wait_map_helper(pid_t helper, struct sync_chan *c, struct error *err)
{
        struct sync_msg m = {.type = SYNC_GO};
        int got = -1, status;
        if (sync_send(c, &m, -1, err) < 0)
                error_set(err, err->errnum, "cannot start the id-map helper");
        else
                got = sync_recv(c, &m, NULL, err);
        close(c->fd);
        while (waitpid(helper, &status, 0) < 0 && errno == EINTR)
                ;
        if (got == 0 && WIFEXITED(status) && !WEXITSTATUS(status))
                return 0;
        if (got == 1 && m.type == SYNC_ERROR)
                sync_error_of(&m, err); /* the helper's own error, newuidmap's or newgidmap's */
        else if (got >= 0)
                error_set(err, 0, "the id-map helper ended without a word");
        error_wrap(err, "cannot map your subordinate ids with newuidmap and newgidmap");
        return error_hint(err, "check your ranges in /etc/subuid and /etc/subgid (subuid(5)) and "
                               "that package uidmap is installed");
}

/* Without ranges or the helpers: this process maps the user's own ids, as a user may. */
static int map_own_ids(uid_t uid, gid_t gid, struct error *err)
{
        char line[64];
        snprintf(line, sizeof line, "0 %u 1\n", uid);
        int e = procfile_write("/proc/self/uid_map", line);
        if (!e)
                e = procfile_write("/proc/self/setgroups", "deny");
        snprintf(line, sizeof line, "0 %u 1\n", gid);
        if (!e)
                e = procfile_write("/proc/self/gid_map", line);
        if (e)
                return error_set(err, e, "cannot map your own id in a user namespace");
        return 0;
}

int import_userns(struct import_result *res, struct error *err)
{
        struct import_ids ids;
        if (read_ids(&ids, res, err) < 0)
                return -1;
        /* parent and helper: one sync channel (sync.h), the error travelling as data */
        int sv[2] = {-1, -1};
        if (res->subids && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return error_set(err, errno, "cannot make a socket pair for the id-map helper");
        struct sync_chan chan = {.fd = sv[0]};
        pid_t helper = -1;
        pid_t self = getpid();
        if (res->subids) {
                /* the helper's child runs the setuid tools from the host's namespace */
                helper = fork();
                if (helper < 0) {
                        error_set(err, errno, "cannot fork");
                        close(sv[0]);
                        close(sv[1]);
                        return -1;
                }
                if (helper == 0) {
                        struct sync_chan hc = {.fd = sv[1]};
                        close(sv[0]);
                        map_helper(&hc, self, &ids);
                }
                close(sv[1]);
        }
        if (unshare(CLONE_NEWUSER) < 0) {
                int e = errno;
                if (helper > 0) {
                        close(sv[0]);
                        waitpid(helper, NULL, 0);
                }
                userns_clone_error(CLONE_NEWUSER, e, SPEC_FRONT_INI, err);
                return error_wrap(err, "a rootless import needs a user namespace");
        }
        if ((helper > 0 ? wait_map_helper(helper, &chan, err)
                        : map_own_ids(ids.uid, ids.gid, err)) < 0)
                return -1;
        res->userns = true;
        return 0;
}

/* --- small files of the result ---------------------------------------------------------------- */

/* A file of the rootfs (the image's /etc/passwd), resolved inside it (symlinks stay below it),
 * at most 1 MiB, into *ret; NULL when it is not there. Never blocks: the image may have put a
 * FIFO there (issue 31: the import hung for ever, DIR half made), so it is opened O_NONBLOCK
 * and only a regular file is read. */
int import_read_file(int root, const char *path, char **ret, struct error *err)
{
        *ret = NULL;
        int fd = -1, flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
#if defined(SYS_openat2) && defined(RESOLVE_IN_ROOT)
        struct open_how how = {.flags = (uint64_t)flags,
                               .resolve =
                                       RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV};
        fd = (int)syscall(SYS_openat2, root, path, &how, sizeof how);
        if (fd < 0 && errno == ENOSYS)
#endif
        {
                int dfd;
                struct error e;
                size_t dl;
                const char *base = imgpath_base(path, &dl);
                char dir[256];
                snprintf(dir, sizeof dir, "%.*s", (int)dl, path);
                errno = ENOENT;
                if (layer_walk(root, dir, false, &dfd, &e) == 0) {
                        fd = openat(dfd, base, flags | O_NOFOLLOW);
                        close(dfd);
                }
        }
        if (fd < 0)
                return errno == ENOENT || errno == ENOTDIR || errno == ELOOP
                               ? 0
                               : error_set(err, errno, "cannot open the image's '/%s'", path);
        _cleanup_close_ int f = fd;
        struct stat st;
        if (fstat(f, &st) < 0)
                return error_set(err, errno, "cannot read the image's '/%s'", path);
        if (!S_ISREG(st.st_mode))
                return error_set(err, 0, "the image's '/%s' is not a regular file (%s)", path,
                                 S_ISFIFO(st.st_mode)  ? "a FIFO"
                                 : S_ISDIR(st.st_mode) ? "a directory"
                                                       : "a special file");
        if (st.st_size >= (1 << 20))
                return error_set(err, EFBIG, "the image's '/%s' is larger than 1 MiB", path);
        _cleanup_free_ char *buf = malloc((size_t)st.st_size + 1);
        size_t n = 0;
        if (!buf)
                return error_set(err, ENOMEM, "out of memory");
        while (n < (size_t)st.st_size) {
                ssize_t r = read(f, buf + n, (size_t)st.st_size - n);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0)
                        return error_set(err, errno, "cannot read the image's '/%s'", path);
                if (r == 0)
                        break;
                n += (size_t)r;
        }
        buf[n] = '\0';
        *ret = steal_ptr(&buf);
        return 0;
}

static int write_spec(int dirfd, struct json_object *config, const struct imgspec_opts *so,
                      struct imgspec_result *res, struct error *err)
{
        _cleanup_close_ int fd = openat(dirfd, "crib.ini",
                                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
                return error_set(err, errno, "cannot create crib.ini");
        FILE *f = fdopen(fd, "w");
        if (!f)
                return error_set(err, errno, "cannot write crib.ini");
        take_fd(&fd);
        int r = imgspec_write(config, so, f, res, err);
        if (fclose(f) != 0 && r == 0)
                r = error_set(err, errno, "cannot write crib.ini");
        return r;
}

/* --- the import ------------------------------------------------------------------------------ */

struct prog {
        const struct import_opts *o;
        enum import_phase phase;
        size_t layer, n;
        uint64_t total;
};

static void on_progress(void *ctx, uint64_t bytes)
{
        struct prog *p = ctx;
        if (p->o->progress)
                p->o->progress(p->o->ctx, p->phase, p->layer, p->n, bytes, p->total);
}

/* What the import leaves free on DIR's filesystem: 2% of it, at least 16 MiB, at most 1 GiB,
 * and 2% of its inodes, at least 1000. The machine goes on while and after the import: logs,
 * apt, the user's shell and editor need room, and a full filesystem breaks them in ways that
 * look unrelated. The filesystem's own reserve does not count (layer.c reads f_bavail, what
 * users may take: ext4's 5% for root stays too, even for root's import); tmpfs and btrfs keep
 * none, and on a 200 MB tmpfs /tmp 16 MiB is what keeps the rest of it usable. */
void import_reserve(int fd, uint64_t *ret_bytes, uint64_t *ret_inodes)
{
        struct statvfs sv;
        *ret_bytes = 16ULL << 20;
        *ret_inodes = 1000;
        if (fstatvfs(fd, &sv) < 0)
                return;
        uint64_t two = (uint64_t)sv.f_blocks * sv.f_frsize / 50;
        *ret_bytes = two < (16ULL << 20) ? 16ULL << 20 : two > (1ULL << 30) ? 1ULL << 30 : two;
        if ((uint64_t)sv.f_files / 50 > 1000)
                *ret_inodes = (uint64_t)sv.f_files / 50;
}

/* Every layer of `img` in order into `root`; their stats into res->stats. */
static int apply_layers(struct source *src, struct source_image *img, int root,
                        struct import_result *res, struct prog *pg, struct error *err)
{
        struct layer_ctx lc = {.root = root,
                               .max_bytes = pg->o->max_bytes ? pg->o->max_bytes
                                                             : IMPORT_DEFAULT_MAX_BYTES,
                               .dir = pg->o->dir,
                               .as_root = geteuid() == 0 && getegid() == 0,
                               .progress = on_progress,
                               .progress_ctx = pg};
        import_reserve(root, &lc.min_free, &lc.min_free_inodes);
        pg->phase = IMPORT_APPLYING;
        for (size_t i = 0; i < img->nlayers; i++) {
                struct archive *a;
                char what[320];
                pg->layer = i + 1;
                on_progress(pg, lc.stats.bytes);
                if (img->kind == SOURCE_ROOTFS_TAR)
                        snprintf(what, sizeof what, "'%s'", img->layers[i].name);
                else
                        snprintf(what, sizeof what, "layer %zu (%.20s)", i + 1,
                                 img->layers[i].digest);
                if (source_layer_open(src, img, i, &a, err) < 0) {
                        layer_finish(&lc);
                        return -1;
                }
                if (layer_apply(&lc, a, what, err) < 0) {
                        archive_read_free(a);
                        layer_finish(&lc);
                        return -1;
                }
                if (source_layer_done(src, img, i, a, err) < 0) {
                        layer_finish(&lc);
                        return -1;
                }
        }
        layer_finish(&lc);
        res->stats = lc.stats;
        return 0;
}

/* DIR/crib.ini from the image's config, with the image's own passwd and group for its User
 * (read only for one). */
static int make_spec(int dirfd, int root, struct source_image *img, struct import_result *res,
                     const struct prog *pg, struct error *err)
{
        _cleanup_free_ char *passwd = NULL, *group = NULL;
        struct json_object *cfg, *user;
        if (img->config && json_object_object_get_ex(img->config, "config", &cfg) &&
            json_object_object_get_ex(cfg, "User", &user) &&
            json_object_is_type(user, json_type_string) && json_object_get_string_len(user) &&
            (import_read_file(root, "etc/passwd", &passwd, err) < 0 ||
             import_read_file(root, "etc/group", &group, err) < 0))
                return error_wrap(err, "config.User '%s'", json_object_get_string(user));
        char source[4200];
        snprintf(source, sizeof source, "'%s'", pg->o->source);
        struct imgspec_opts so = {.source = source,
                                  .platform = img->platform[0] ? img->platform : NULL,
                                  .passwd = passwd,
                                  .group = group,
                                  .root = !res->userns,
                                  .subids = res->subids,
                                  .nuids = res->nuids,
                                  .ngids = res->ngids};
        return write_spec(dirfd, img->config, &so, &res->spec, err);
}

/* The image's working directory, made in `root` if missing: crib must be able to enter it. Best
 * effort: a name the cleaner refuses is left out. */
static void make_workdir(int root, const struct source_image *img)
{
        struct json_object *cfg, *wd;
        if (img->config && json_object_object_get_ex(img->config, "config", &cfg) &&
            json_object_object_get_ex(cfg, "WorkingDir", &wd) &&
            json_object_is_type(wd, json_type_string)) {
                char clean[IMGPATH_MAX];
                int fd;
                struct error e;
                const char *w = json_object_get_string(wd);
                while (*w == '/')
                        w++; /* inside the rootfs: the cleaner refuses absolute names */
                if (!imgpath_clean(w, clean, sizeof clean) &&
                    layer_walk(root, clean, true, &fd, &e) == 0)
                        close(fd);
        }
}

/* DIR's content: rootfs/ with every layer applied, then crib.ini. */
static int apply_all(struct source *src, struct source_image *img, int dirfd,
                     struct import_result *res, struct prog *pg, struct error *err)
{
        if (mkdirat(dirfd, "rootfs", 0755) < 0)
                return error_set(err, errno, "cannot make 'rootfs'");
        _cleanup_close_ int root =
                openat(dirfd, "rootfs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (root < 0)
                return error_set(err, errno, "cannot open 'rootfs'");
        if (apply_layers(src, img, root, res, pg, err) < 0 ||
            make_spec(dirfd, root, img, res, pg, err) < 0)
                return -1;
        make_workdir(root, img);
        return 0;
}

int image_import(const struct import_opts *o, struct import_result *ret, struct error *err)
{
        memset(ret, 0, sizeof *ret);
        struct platform machine;
        import_machine(&machine);
        platform_format(&machine, ret->machine, sizeof ret->machine);
        char base[NAME_MAX + 1];
        bool shut = false;
        _cleanup_free_ struct destdir *w = calloc(1, sizeof *w);
        if (!w)
                return error_set(err, ENOMEM, "out of memory");
        w->dir = o->dir;
        w->uid = geteuid();
        _cleanup_close_ int parent = destdir_open_parent(w, base, err);
        if (parent < 0 || destdir_check_way(w, parent, &shut, err) < 0)
                return -1;
        struct source *src = NULL;
        struct source_image *img = calloc(1, sizeof *img);
        if (!img)
                return error_set(err, ENOMEM, "out of memory");
        struct prog pg = {.o = o, .phase = IMPORT_CHECKING};
        int r = -1, dirfd = -1;
        bool made = false;
        if (source_open(o->source, &src, err) < 0 ||
            source_resolve(src, o->platform ? o->platform : &machine, o->platform != NULL, img,
                           on_progress, &pg, err) < 0)
                goto out;
        static const char *const kinds[] = {"docker-archive", "OCI layout", "filesystem tarball"};
        snprintf(ret->kind, sizeof ret->kind, "%s", kinds[img->kind]);
        snprintf(ret->platform, sizeof ret->platform, "%s", img->platform);
        snprintf(ret->manifest, sizeof ret->manifest, "%s", img->manifest);
        ret->nlayers = img->nlayers;
        ret->total = pg.total = img->total;
        pg.n = img->nlayers;

        /* DIR: new, or empty; everything from here on through its descriptor */
        if ((dirfd = destdir_open(w, parent, base, shut, &made, err)) < 0) {
                if (made) /* made, but what the name opened was not it */
                        unlinkat(parent, base, AT_REMOVEDIR);
                goto out;
        }
        if (geteuid() != 0 && import_userns(ret, err) < 0)
                goto fail;
        if (apply_all(src, img, dirfd, ret, &pg, err) < 0)
                goto fail;
        r = 0;
        goto out;
fail : {
        /* nothing of a failed import stays */
        struct error e;
        layer_remove(dirfd, "rootfs", &e);
        unlinkat(dirfd, "crib.ini", 0);
        if (made)
                destdir_remove_made(parent, base, dirfd);
}
out:
        if (dirfd >= 0)
                close(dirfd);
        if (img)
                source_image_free(img);
        free(img);
        source_close(src);
        return r;
}

int image_remove(const char *dir, struct error *err)
{
        struct stat st;
        _cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "cannot open '%s'", dir);
        if (fstatat(fd, "crib.ini", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
            fstatat(fd, "rootfs", &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
                return error_set(err, 0,
                                 "'%s' is not an import (it has no crib.ini and rootfs/); "
                                 "crib removes only those",
                                 dir);
        struct import_result res;
        memset(&res, 0, sizeof res);
        if (geteuid() != 0 && import_userns(&res, err) < 0)
                return -1;
        if (layer_remove(fd, "rootfs", err) < 0)
                return error_wrap(err, "cannot remove '%s'", dir);
        if (unlinkat(fd, "crib.ini", 0) < 0)
                return error_set(err, errno, "cannot remove '%s/crib.ini'", dir);
        if (rmdir(dir) < 0)
                return error_set(err, errno, "cannot remove '%s'", dir);
        return 0;
}
