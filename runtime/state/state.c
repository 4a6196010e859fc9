/* state.c - the state directory; see state.h.
 *
 * Kernel features: openat(2) family relative to a directory descriptor with O_NOFOLLOW (no
 * symlink in the state tree is ever followed), renameat2(2) with RENAME_NOREPLACE (Linux
 * 3.15) as the atomic "create or fail" of a directory made and locked under another name
 * (mkdirat(2) where that flag is missing), flock(2) for the per-container lock, renameat(2) over
 * the old file for atomic updates, so a crib killed at any point leaves the old or the new
 * content. No fsync(2): everything a state file says is about processes, which a crash of the
 * machine ends too. After a power cut a file may be empty or gone; a record's readers
 * (record.c) take that as "stopped", and every process record carries the boot it was written
 * in, so one from before a restart never names a process of this boot. runc syncs none of its
 * state either; fsync made `crib oci create` wait on the disk twelve times (issue 38: 84-128 ms
 * under disk contention against 33 ms on tmpfs). The image store (runtime/image/), whose files
 * outlive a restart, is what syncs.
 */
#define _GNU_SOURCE
#include "state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/sys.h"

int state_root_path(const char *override, uid_t euid, const char *runtime_dir, char *buf,
                    size_t len, struct error *err)
{
        int n;
        if (override && *override)
                n = snprintf(buf, len, "%s", override);
        else if (euid == 0)
                n = snprintf(buf, len, "/run/crib");
        else if (runtime_dir && runtime_dir[0] == '/')
                n = snprintf(buf, len, "%s/crib", runtime_dir);
        else {
                error_set(err, 0, "no place for the containers' state: XDG_RUNTIME_DIR is not set");
                return error_hint(err,
                                  "log in through a session that sets it (systemd's "
                                  "/run/user/%u), or give --root DIR",
                                  (unsigned)euid);
        }
        if (n < 0 || (size_t)n >= len)
                return error_set(err, ENAMETOOLONG, "the state directory's path is too long");
        return 0;
}

int state_open_root(const char *path, uid_t uid, struct error *err)
{
        if (mkdir(path, 0700) < 0 && errno != EEXIST) {
                int e = errno;
                error_set(err, e, "cannot make the state directory '%s'", path);
                if (e == ENOENT)
                        return error_hint(err, "its parent does not exist (crib keeps state in "
                                               "$XDG_RUNTIME_DIR/crib, as root in /run/crib): "
                                               "--root DIR chooses another place");
                if (e == EACCES)
                        return error_hint(err, "its parent is not writable by you: --root DIR "
                                               "chooses another place");
                return -1;
        }
        int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "cannot open the state directory '%s'", path);
        struct stat st;
        if (fstat(fd, &st) < 0) {
                int e = errno;
                close(fd);
                return error_set(err, e, "cannot read the state directory '%s'", path);
        }
        if (st.st_uid != uid || (st.st_mode & 0022)) {
                close(fd);
                error_set(err, EPERM,
                          "the state directory '%s' is not yours alone (owner %u, mode %03o)", path,
                          (unsigned)st.st_uid, (unsigned)(st.st_mode & 0777));
                return error_hint(err, "another user could change what crib reads there; "
                                       "remove it, or give --root a directory of your own");
        }
        return fd;
}

bool state_name_valid(const char *name)
{
        size_t n = strlen(name);
        if (n == 0 || n > STATE_NAME_MAX)
                return false;
        if (!((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') ||
              (name[0] >= '0' && name[0] <= '9')))
                return false;
        return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
               n;
}

int state_name_generate(int root, uint32_t seed, char *buf, size_t len, struct error *err)
{
        static const char *const adjectives[] = {
                "brave", "calm",  "eager",  "fancy", "gentle", "happy", "jolly", "keen",
                "lucky", "merry", "nimble", "proud", "quiet",  "rapid", "shy",   "tidy",
        };
        static const char *const nouns[] = {
                "badger", "crane", "dingo",  "eagle", "ferret", "gecko", "heron", "ibis",
                "koala",  "lemur", "marten", "newt",  "otter",  "panda", "quail", "robin",
        };
        const size_t na = sizeof adjectives / sizeof adjectives[0];
        const size_t nn = sizeof nouns / sizeof nouns[0];
        for (uint32_t i = 0; i < 4096; i++) {
                uint32_t x = (seed + i) * 2654435761u; /* spread the seeds (Knuth) */
                const char *a = adjectives[(x >> 8) % na], *b = nouns[(x >> 16) % nn];
                if (i < na * nn)
                        snprintf(buf, len, "%s_%s", a, b);
                else
                        snprintf(buf, len, "%s_%s_%u", a, b, (unsigned)(i / (na * nn)));
                struct stat st;
                if (fstatat(root, buf, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
                        return 0;
        }
        return error_set(err, EEXIST, "cannot find a free container name");
}

/* The maker of `.new-NAME-PID` is gone: PID is no longer a process. A free lock alone is not
 * enough, since a maker holds no lock between its mkdir and its flock, and a racing create
 * that removed the directory in that moment made the maker fail for a name nobody had. */
static bool new_maker_gone(const char *entry)
{
        const char *dash = strrchr(entry, '-');
        char *end;
        long pid = dash ? strtol(dash + 1, &end, 10) : 0;
        if (!dash || end == dash + 1 || *end || pid <= 0)
                return true; /* not a name state_create makes: nobody's */
        return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* Left by a crib killed between its mkdir and its rename (below): `.new-` directories whose
 * lock nobody holds and whose maker is gone, empty (nothing is written before the rename). */
static void remove_stale_new(int root)
{
        _cleanup_close_ int fd = openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *d = fd < 0 ? NULL : fdopendir(fd);
        if (!d)
                return;
        fd = -1; /* the DIR has it */
        struct dirent *e;
        while ((e = readdir(d))) {
                if (strncmp(e->d_name, ".new-", 5))
                        continue;
                int dir = openat(root, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                /* the maker first: a sweeper's lock, however brief, would fail a living
                 * maker's own flock below */
                if (dir >= 0 && new_maker_gone(e->d_name) && flock(dir, LOCK_EX | LOCK_NB) == 0)
                        unlinkat(root, e->d_name, AT_REMOVEDIR);
                if (dir >= 0)
                        close(dir);
        }
        closedir(d);
}

int state_create(int root, const char *name, struct error *err)
{
        if (!state_name_valid(name))
                return error_set(err, EINVAL,
                                 "'%s' is not a container name (1 to %d letters, digits, '_', "
                                 "'.' or '-', starting with a letter or digit)",
                                 name, STATE_NAME_MAX);
        /* made under a name no crib command takes for a container's, locked, then renamed to
         * NAME only if NAME is free: the directory appears already locked, so no other crib
         * command can find it in between and take it for a stopped container */
        char tmp[STATE_NAME_MAX + 32];
        snprintf(tmp, sizeof tmp, ".new-%s-%d", name, (int)getpid());
        remove_stale_new(root);
        if (mkdirat(root, tmp, 0700) < 0)
                return error_set(err, errno, "cannot make the state of '%s'", name);
        int fd = openat(root, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        /* waits only for a sweeper that took this directory for a dead maker's (a reused
         * pid), and let go at once */
        int r = fd < 0 ? -1 : flock(fd, LOCK_EX);
        if (r == 0)
                r = (int)syscall(SYS_renameat2, root, tmp, root, name, RENAME_NOREPLACE);
        if (r < 0 && (errno == EINVAL || errno == ENOSYS)) {
                /* a filesystem or kernel without RENAME_NOREPLACE (before Linux 3.15): mkdir
                 * is atomic too, and the lock follows at once */
                unlinkat(root, tmp, AT_REMOVEDIR);
                if (fd >= 0)
                        close(fd);
                fd = -1;
                r = mkdirat(root, name, 0700);
                if (r == 0) {
                        fd = state_open(root, name, err);
                        if (fd < 0)
                                return -1;
                        r = flock(fd, LOCK_EX | LOCK_NB);
                }
        }
        if (r < 0) {
                int e = errno;
                unlinkat(root, tmp, AT_REMOVEDIR);
                if (fd >= 0)
                        close(fd);
                if (e == EEXIST) {
                        error_set(err, EEXIST, "the name '%s' is taken", name);
                        return error_hint(err, "choose another, or 'crib rm %s' first", name);
                }
                return error_set(err, e, "cannot make the state of '%s'", name);
        }
        return fd;
}

int state_open(int root, const char *name, struct error *err)
{
        if (!state_name_valid(name))
                return error_set(err, EINVAL, "'%s' is not a container name", name);
        int fd = openat(root, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
                if (errno == ENOENT)
                        return error_set(err, ENOENT, "no container named '%s'", name);
                return error_set(err, errno, "cannot open the state of '%s'", name);
        }
        return fd;
}

int state_open_path(const char *root_path, uid_t uid, const char *name, struct error *err)
{
        _cleanup_close_ int root = state_open_root(root_path, uid, err);
        return root < 0 ? -1 : state_open(root, name, err);
}

int state_lock(int dir, bool wait, struct error *err)
{
        int r;
        while ((r = flock(dir, LOCK_EX | (wait ? 0 : LOCK_NB))) < 0 && errno == EINTR)
                ;
        if (r < 0)
                return error_set(err, errno,
                                 "the container is busy (another crib command holds "
                                 "its lock)");
        return 0;
}

/* one component, not a dot file (temporary files are) */
static bool file_name_ok(const char *file)
{
        return file[0] && file[0] != '.' && !strchr(file, '/') && strlen(file) < 64;
}

int state_write(int dir, const char *file, const void *data, size_t len, struct error *err)
{
        if (!file_name_ok(file))
                return error_set(err, EINVAL, "bad state file name '%s'", file);
        char tmp[96];
        snprintf(tmp, sizeof tmp, ".%s.%d.tmp", file, (int)getpid());
        unlinkat(dir, tmp, 0);
        int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
                return error_set(err, errno, "cannot write the state file '%s'", file);
        int e = sys_write_all(fd, data, len) < 0 ? errno : 0;
        if (close(fd) < 0 && !e)
                e = errno;
        if (!e && renameat(dir, tmp, dir, file) < 0)
                e = errno;
        if (e) {
                unlinkat(dir, tmp, 0);
                return error_set(err, e, "cannot write the state file '%s'", file);
        }
        return 0;
}

int state_fifo_make(int dir, const char *file, struct error *err)
{
        if (!file_name_ok(file))
                return error_set(err, EINVAL, "bad state file name '%s'", file);
        if (mkfifoat(dir, file, 0600) < 0 || fchmodat(dir, file, 0622, 0) < 0)
                return error_set(err, errno, "cannot make the fifo '%s'", file);
        return 0;
}

int state_fifo_open(int dir, const char *file, int flags, struct error *err)
{
        if (!file_name_ok(file))
                return error_set(err, EINVAL, "bad state file name '%s'", file);
        int fd = openat(dir, file, flags | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0)
                return error_set(err, errno, "cannot open the fifo '%s'", file);
        if (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode)) {
                close(fd);
                return error_set(err, EINVAL, "'%s' is not a fifo", file);
        }
        return fd;
}

ssize_t state_read(int dir, const char *file, char *buf, size_t len, struct error *err)
{
        if (!file_name_ok(file))
                return error_set(err, EINVAL, "bad state file name '%s'", file);
        /* O_NONBLOCK: a FIFO planted there must not hang every crib command; then refused */
        _cleanup_close_ int fd = openat(dir, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "cannot read the state file '%s'", file);
        struct stat st;
        if (fstat(fd, &st) < 0)
                return error_set(err, errno, "cannot read the state file '%s'", file);
        if (!S_ISREG(st.st_mode))
                return error_set(err, EINVAL, "the state file '%s' is not a regular file", file);
        size_t used = 0;
        while (used < len - 1) {
                ssize_t n = read(fd, buf + used, len - 1 - used);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return error_set(err, errno, "cannot read the state file '%s'", file);
                if (n == 0)
                        break;
                used += (size_t)n;
        }
        buf[used] = '\0';
        return (ssize_t)used;
}

int state_remove(int root, const char *name, struct error *err)
{
        int fd = state_open(root, name, err);
        if (fd < 0)
                return -1;
        DIR *d = fdopendir(fd);
        if (!d) {
                int e = errno;
                close(fd);
                return error_set(err, e, "cannot list the state of '%s'", name);
        }
        struct dirent *de;
        int e = 0;
        while ((de = readdir(d))) {
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                /* files only: a directory someone made there is not followed, and stays */
                if (unlinkat(dirfd(d), de->d_name, 0) < 0 && !e)
                        e = errno;
        }
        closedir(d);
        if (!e && unlinkat(root, name, AT_REMOVEDIR) < 0)
                e = errno;
        if (e)
                return error_set(err, e, "cannot remove the state of '%s'", name);
        return 0;
}

/* The start time of `pid` and its state letter (field 3 of /proc/PID/stat: R, S, Z, ...) */
static uint64_t proc_stat(pid_t pid, char *ret_state)
{
        char path[64], line[1024];
        *ret_state = '\0';
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return 0;
        ssize_t n = read(fd, line, sizeof line - 1);
        if (n <= 0)
                return 0;
        line[n] = '\0';
        /* the name may hold spaces and ')': the fields start after the last ')' */
        char *p = strrchr(line, ')');
        if (!p || p[1] != ' ')
                return 0;
        p++;
        *ret_state = p[1];
        /* field 3 (state) is the first after it; the start time is field 22 */
        for (int field = 3; field < 22 && p; field++)
                p = strchr(p + 1, ' ');
        return p ? strtoull(p + 1, NULL, 10) : 0;
}

uint64_t state_proc_start(pid_t pid)
{
        char state;
        return proc_stat(pid, &state);
}

bool state_proc_alive(pid_t pid, uint64_t start)
{
        char state;
        return pid > 0 && start && proc_stat(pid, &state) == start && state != 'Z' && state != 'X';
}
