/* specfile.c - the SPEC of crib run, crib check --spec and crib bench --own: a crib.ini(5) file,
 * or the directory `crib image import SOURCE DIR` made, which holds one as DIR/crib.ini.
 *
 * A newcomer types what other tools take: an image's name (`crib run debian:12`), the directory
 * an import printed. The first gets the way from an image to a spec; the second runs its
 * crib.ini, or is told it has none. The directory is opened once and its crib.ini read through
 * that descriptor (openat), so the spec read is the one in the directory that was checked. */
#define _GNU_SOURCE
#include "specfile.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"

/* Whether `s`, which names no file, reads as an image reference (NAME:TAG, NAME@sha256:DIGEST,
 * REGISTRY/NAME) rather than a spec's path: a digest, a tag after the last '/', or a first
 * component that is a registry (it has a '.' or a ':', or is localhost). A path that starts
 * with '/', '.' or '~', or ends in .ini, is a spec's. Only the characters a reference holds, so
 * the hint can show it in a command line as it is. */
static bool looks_like_image(const char *s)
{
        size_t n = strlen(s);
        if (!n || n > 255 || strchr("/.~", s[0]) || (n >= 4 && !strcmp(s + n - 4, ".ini")))
                return false;
        if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/:@") != n)
                return false;
        if (strstr(s, "@sha256:"))
                return true;
        const char *last = strrchr(s, '/') ? strrchr(s, '/') + 1 : s;
        const char *colon = strchr(last, ':');
        if (colon && colon > last && colon[1])
                return true;
        const char *slash = strchr(s, '/');
        if (!slash)
                return false;
        size_t k = (size_t)(slash - s);
        return memchr(s, '.', k) || memchr(s, ':', k) || (k == 9 && !strncmp(s, "localhost", 9));
}

/* Whether the relative path `arg` is the caller's own from the working directory on: each
 * component root's or the caller's, no symlink, writable by no one else, and the working
 * directory one where no one else may put or replace a name (not writable by others, or
 * sticky). Another user's file of an image's name in /tmp is not. */
static bool own_path(const char *arg)
{
        uid_t me = geteuid();
        struct stat st;
        char part[PATH_MAX];
        if (stat(".", &st) < 0 || ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)))
                return false;
        if (strlen(arg) >= sizeof part)
                return false;
        for (const char *p = arg; p;) {
                p = strchr(p + 1, '/');
                snprintf(part, sizeof part, "%.*s", p ? (int)(p - arg) : (int)strlen(arg), arg);
                if (lstat(part, &st) < 0 || S_ISLNK(st.st_mode) ||
                    (st.st_uid != me && st.st_uid != 0) || (st.st_mode & 022))
                        return false;
        }
        return true;
}

bool specfile_is_image(const char *arg)
{
        struct stat st;
        /* a file or directory of that name wins where it is a path ('/', '.', '~'), or the
         * caller's own: root's `crib run debian:12` in /tmp runs no other user's spec */
        if (stat(arg, &st) == 0 && (strchr("/.~", arg[0]) || own_path(arg)))
                return false;
        size_t n = strlen(arg);
        if (!n || strchr("/.~", arg[0]) || (n >= 4 && !strcmp(arg + n - 4, ".ini")))
                return false;
        return strspn(arg,
                      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/:@") == n;
}

FILE *specfile_open(const char *arg, char *ret_path, size_t len, struct error *err)
{
        if ((size_t)snprintf(ret_path, len, "%s", arg) >= len) {
                error_set(err, ENAMETOOLONG, "cannot open spec '%s'", arg);
                return NULL;
        }
        _cleanup_fclose_ FILE *f = fopen(arg, "re");
        if (!f) {
                int e = errno;
                error_set(err, e, "cannot open spec '%s'", arg);
                if (e == ENOENT && looks_like_image(arg)) {
                        error_hint(err,
                                   "'%s' looks like an image: crib runs a spec (crib.ini(5)), "
                                   "and 'crib image import' makes one from a saved image",
                                   arg);
                        error_hint(err,
                                   "podman save -o image.tar %s (or docker save), then crib image "
                                   "import image.tar DIR and crib run DIR",
                                   arg);
                } else if (e == ENOENT) {
                        error_hint(err, "'crib spec > %s' writes an example to start from", arg);
                }
                return NULL;
        }
        struct stat st;
        if (fstat(fileno(f), &st) < 0) {
                error_set(err, errno, "cannot open spec '%s'", arg);
                return NULL;
        }
        if (!S_ISDIR(st.st_mode))
                return steal_ptr(&f);

        /* a directory: its crib.ini, as crib image import wrote it */
        size_t n = strlen(arg);
        bool slash = n && arg[n - 1] == '/';
        if ((size_t)snprintf(ret_path, len, "%s%scrib.ini", arg, slash ? "" : "/") >= len) {
                error_set(err, ENAMETOOLONG, "cannot open spec '%s'", arg);
                return NULL;
        }
        _cleanup_close_ int fd = openat(fileno(f), "crib.ini", O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0 && errno == ENOENT) {
                error_set(err, 0, "'%s' is a directory with no crib.ini in it", arg);
                error_hint(err, "a spec is a crib.ini(5) file, or a directory holding one, as "
                                "'crib image import SOURCE DIR' makes");
                error_hint(err, "'crib spec > %s' writes an example to start from", ret_path);
                return NULL;
        }
        FILE *spec = fd < 0 ? NULL : fdopen(fd, "re");
        if (!spec) {
                error_set(err, errno, "cannot open spec '%s'", ret_path);
                return NULL;
        }
        (void)take_fd(&fd); /* the stream owns it now */
        return spec;
}
