/* destdir.c - DIR, the directory an import makes, and the way to it (destdir.h).
 *
 * DIR is where root's import puts the image's setuid-root programs, so it is made and used as a
 * descriptor, never by name (issue 31, hole 4: a user who could write DIR's parent swapped in a
 * directory of their own between crib's mkdir and its open, and got them). The parent is opened
 * once; DIR is made with mkdirat(2) and opened with openat(2) O_NOFOLLOW from it, and what was
 * opened is checked whether crib made it or not: the caller's, empty, out of other users'
 * reach. Before that, every directory on the way to DIR must be one no other user can change
 * (root's or the caller's, not writable by others unless sticky), or the DIR that `crib run
 * DIR/crib.ini` reads later could be theirs whatever the import did. "The way" is every
 * directory the path as typed passes, the targets of its symbolic links included (walked here
 * component by component, each link root's or the caller's), and every directory above DIR's
 * parent. Who may write or search a directory is reach.c's answer: a group's bits count as
 * root's or the caller's only for root's group or the caller's private one, and never behind an
 * ACL, whose named users and groups get up to the group bits. A new DIR is 0700; an existing
 * one that other users can reach is refused, with the remedy, rather than stripped of the
 * image's setuid bits and file capabilities (which breaks su, ping, sudo inside) or silently
 * chmodded (hole 5). Not root, the same holds: a setuid-root program of the image is a setuid
 * program of the caller's on disk.
 */
#define _GNU_SOURCE
#include "destdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "base/cleanup.h"

/* a directory's path for a message: /proc/self/fd's link, or "?" */
static const char *fd_path(int fd, char *buf, size_t len)
{
        char link[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, buf, len - 1);
        if (n < 0)
                n = (ssize_t)snprintf(buf, len, "?");
        buf[n] = '\0';
        return buf;
}

#define WAY_MAX_LINKS 40 /* the kernel's own bound (MAXSYMLINKS) */

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

/* The message for a directory on the way to DIR that others may change, and its remedy. */
static int way_error(struct destdir *w, int fd, const struct stat *st, struct error *err)
{
        char where[PATH_MAX], via[PATH_MAX + 48] = "", why[96] = "";
        fd_path(fd, where, sizeof where);
        if (w->via[0])
                snprintf(via, sizeof via, " (through the symbolic link '%s')", w->via);
        if (st->st_uid != 0 && st->st_uid != w->uid) {
                error_set(err, 0,
                          "user %u owns '%s', a directory on the way%s to '%s': they could put a "
                          "directory of their own in its place",
                          (unsigned)st->st_uid, where, via, w->dir);
        } else {
                if (!(st->st_mode & S_IWOTH) && reach_has_acl(fd))
                        snprintf(why, sizeof why,
                                 " and an ACL, whose entries get up to the group bits");
                else if (!(st->st_mode & S_IWOTH))
                        snprintf(why, sizeof why, ", group %u, not %s alone", (unsigned)st->st_gid,
                                 w->uid ? "yours" : "root's");
                error_set(err, 0,
                          "other users may write '%s' (mode %04o%s), a directory on the way%s to "
                          "'%s': they could put a directory of their own in its place",
                          where, (unsigned)(st->st_mode & 07777), why, via, w->dir);
        }
        return error_hint(err, "import below directories only you and root can change, such as "
                               "your home directory (a sticky one such as /tmp is fine)");
}

/* Check a directory the walk enters: it is one, and no one but root and the caller can change
 * what it holds. */
static int way_dir(struct destdir *w, int fd, struct error *err)
{
        struct stat st;
        char where[PATH_MAX];
        if (fstat(fd, &st) < 0)
                return error_set(err, errno, "cannot read '%s' on the way to '%s'",
                                 fd_path(fd, where, sizeof where), w->dir);
        if (!S_ISDIR(st.st_mode))
                return error_set(err, ENOTDIR, "'%s' on the way to '%s'",
                                 fd_path(fd, where, sizeof where), w->dir);
        if (reach_others_may_change(fd, &st, w->uid, &w->cache))
                return way_error(w, fd, &st, err);
        return 0;
}

static int way_walk(struct destdir *w, int start, const char *path, struct error *err);

/* The symbolic link `name` (its O_PATH descriptor `link`, its lstat `lst`) in the directory
 * `at`, met on the way: root's or the caller's, not a link of /proc; its target is walked from
 * `at` (or from / when absolute). Returns the descriptor of the directory it leads to. */
static int way_link(struct destdir *w, int at, const char *name, int link, const struct stat *lst,
                    struct error *err)
{
        char shown[PATH_MAX];
        _cleanup_free_ char *target = malloc(PATH_MAX);
        if (!target)
                return error_set(err, ENOMEM, "out of memory");
        fd_path(at, shown, sizeof shown);
        size_t n = strlen(shown);
        snprintf(shown + n, sizeof shown - n, "%s%s", n > 1 ? "/" : "", name);
        if (lst->st_uid != 0 && lst->st_uid != w->uid) {
                error_set(err, 0,
                          "user %u owns the symbolic link '%s' on the way to '%s': they could "
                          "point it at a directory of their own",
                          (unsigned)lst->st_uid, shown, w->dir);
                return error_hint(err, "give crib a path without it");
        }
        struct statfs fs;
        if (fstatfs(link, &fs) < 0 || fs.f_type == PROC_SUPER_MAGIC) {
                /* /proc/self, /proc/PID/cwd, /proc/self/fd/N: each names another place in
                 * another process, and the kernel follows most without reading their text */
                error_set(err, 0,
                          "'%s' on the way to '%s' is a link of /proc: it leads elsewhere for "
                          "every process, and crib cannot check where",
                          shown, w->dir);
                return error_hint(err, "give crib the directory's own path (realpath shows it)");
        }
        if (++w->links > WAY_MAX_LINKS)
                return error_set(err, ELOOP, "'%s' on the way to '%s': more than %d symbolic links",
                                 shown, w->dir, WAY_MAX_LINKS);
        ssize_t len = readlinkat(link, "", target, PATH_MAX);
        if (len < 0)
                return error_set(err, errno, "cannot read the symbolic link '%s'", shown);
        if (len >= PATH_MAX)
                return error_set(err, ENAMETOOLONG, "the symbolic link '%s'", shown);
        target[len] = '\0';
        if (!w->via[0])
                snprintf(w->via, sizeof w->via, "%s", shown);
        int from = target[0] == '/' ? open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)
                                    : fcntl(at, F_DUPFD_CLOEXEC, 3);
        if (from < 0)
                return error_set(err, errno, "cannot follow the symbolic link '%s'", shown);
        return way_walk(w, from, target, err);
}

/* Walk `path` from the directory `start` (taken over) one component at a time, as the kernel
 * would, checking every directory entered and every symbolic link met. Returns the descriptor
 * (O_PATH) of the directory reached. */
static int way_walk(struct destdir *w, int start, const char *path, struct error *err)
{
        _cleanup_close_ int cur = start;
        if (way_dir(w, cur, err) < 0)
                return -1;
        /* on the heap: a walk through 40 links nests 40 deep */
        _cleanup_free_ char *buf = strdup(path);
        if (!buf)
                return error_set(err, ENOMEM, "out of memory");
        for (char *at = buf, *name; (name = strsep(&at, "/"));) {
                if (!*name || !strcmp(name, "."))
                        continue;
                /* a directory first (O_DIRECTORY: an automount is mounted, as by the kernel's
                 * own walk); a symbolic link is not one, and is opened itself next */
                int next = openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (next < 0 && errno == ENOTDIR && strcmp(name, ".."))
                        next = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
                struct stat st;
                if (next < 0 || fstatat(next, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0) {
                        int e = errno;
                        if (next >= 0)
                                close(next);
                        return error_set(err, e, "cannot open the directory '%s' is to be made in",
                                         w->dir);
                }
                if (S_ISLNK(st.st_mode)) {
                        int to = way_link(w, cur, name, next, &st, err);
                        close(next);
                        if (to < 0)
                                return -1;
                        close(cur);
                        cur = to;
                        continue;
                }
                close(cur);
                cur = next;
                if (way_dir(w, cur, err) < 0)
                        return -1;
        }
        return take_fd(&cur);
}

int destdir_check_way(struct destdir *w, int parent, bool *ret_shut, struct error *err)
{
        _cleanup_close_ int fd = fcntl(parent, F_DUPFD_CLOEXEC, 3);
        struct stat st, up;
        *ret_shut = false;
        if (fd < 0 || fstat(fd, &st) < 0)
                return error_set(err, errno, "cannot read the directory of '%s'", w->dir);
        w->via[0] = '\0'; /* these are DIR's own ancestors, whatever path led to them */
        for (int depth = 0; depth < 4096; depth++) {
                if (reach_others_may_change(fd, &st, w->uid, &w->cache))
                        return way_error(w, fd, &st, err);
                if (reach_shuts_out(fd, &st, w->uid, &w->cache))
                        *ret_shut = true;
                int next = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (next < 0 || fstat(next, &up) < 0) {
                        if (next >= 0)
                                close(next);
                        return error_set(err, errno, "cannot read a directory above '%s'", w->dir);
                }
                close(fd);
                fd = next;
                if (up.st_dev == st.st_dev && up.st_ino == st.st_ino)
                        return 0; /* the root: its ".." is itself */
                st = up;
        }
        return error_set(err, ELOOP, "'%s' is nested too deeply", w->dir);
}

int destdir_open_parent(struct destdir *w, char base[NAME_MAX + 1], struct error *err)
{
        const char *dir = w->dir;
        char path[PATH_MAX];
        size_t n = strlen(dir);
        if (n >= sizeof path)
                return error_set(err, ENAMETOOLONG, "'%s'", dir);
        memcpy(path, dir, n + 1);
        while (n > 1 && path[n - 1] == '/')
                path[--n] = '\0'; /* a trailing slash would follow a symlink, O_NOFOLLOW or not */
        char *slash = strrchr(path, '/');
        const char *b = slash ? slash + 1 : path;
        if (!*b || !strcmp(b, ".") || !strcmp(b, "..") || strlen(b) > NAME_MAX)
                return error_set(err, 0, "'%s' does not name a directory to make", dir);
        snprintf(base, NAME_MAX + 1, "%s", b);
        if (slash == path)
                slash[1] = '\0'; /* "/DIR": the parent is "/" */
        else if (slash)
                *slash = '\0';
        else
                snprintf(path, sizeof path, ".");
        int start = open(path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (start < 0)
                return error_set(err, errno, "cannot open the directory '%s' is to be made in",
                                 dir);
        _cleanup_close_ int fd = way_walk(w, start, path, err);
        if (fd < 0)
                return -1;
        struct stat a, b2;
        _cleanup_close_ int again = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (again < 0 || fstat(again, &a) < 0 || fstat(fd, &b2) < 0 || a.st_dev != b2.st_dev ||
            a.st_ino != b2.st_ino)
                return error_set(err, again < 0 ? errno : 0,
                                 "the directory '%s' is to be made in changed while crib checked "
                                 "the way to it",
                                 dir);
        return take_fd(&fd);
}

int destdir_open(struct destdir *w, int parent, const char *base, bool shut, bool *ret_made,
                 struct error *err)
{
        const char *dir = w->dir;
        *ret_made = mkdirat(parent, base, 0700) == 0;
        if (!*ret_made && errno != EEXIST)
                return error_set(err, errno, "cannot make directory '%s'", dir);
        _cleanup_close_ int fd =
                openat(parent, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) < 0)
                return error_set(err, errno, "cannot open directory '%s'", dir);
        if (st.st_uid != geteuid() || (st.st_mode & 022)) {
                /* another user could swap what crib writes there, or the spec, later */
                error_set(err, 0, "'%s' exists and is not yours alone (owner %u, mode %04o)", dir,
                          (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
                return error_hint(err, "import into a new directory; crib makes it 0700");
        }
        _cleanup_closedir_ DIR *d = fdopendir(fcntl(fd, F_DUPFD_CLOEXEC, 3));
        struct dirent *de;
        if (!d)
                return error_set(err, errno, "cannot read directory '%s'", dir);
        while ((de = readdir(d)))
                if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
                        error_set(err, 0, "'%s' exists and is not empty", dir);
                        return error_hint(err, "import into a new directory; crib does not "
                                               "overwrite one");
                }
        if (*ret_made) {
                /* exactly 0700 whatever the umask: the one made, through its descriptor */
                if (fchmod(fd, 0700) < 0)
                        return error_set(err, errno, "cannot chmod '%s'", dir);
        } else if (!shut && !reach_shuts_out(fd, &st, w->uid, &w->cache)) {
                /* the image's setuid programs and file capabilities would be theirs to run */
                error_set(err, 0,
                          "'%s' exists and other users can reach it (mode %04o%s, and no "
                          "directory above it shuts them out): the image's setuid programs would "
                          "run as %s for them",
                          dir, (unsigned)(st.st_mode & 07777),
                          reach_has_acl(fd) ? " and an ACL, whose entries get up to the group bits"
                                            : "",
                          geteuid() == 0 ? "root" : "you");
                return error_hint(err,
                                  "chmod 700 %s, or import into a new directory (crib makes it "
                                  "0700)",
                                  dir);
        }
        return take_fd(&fd);
}

void destdir_remove_made(int parent, const char *base, int fd)
{
        struct stat a, b;
        if (fstat(fd, &a) == 0 && fstatat(parent, base, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
            a.st_dev == b.st_dev && a.st_ino == b.st_ino)
                unlinkat(parent, base, AT_REMOVEDIR);
}
