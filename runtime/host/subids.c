/* subids.c - subordinate ids on this host: the setuid helpers that map them, and root's range.
 *
 * Kernel feature: none of its own; user namespaces' id maps (user_namespaces(7)) as
 * steps/userns.c writes them. An unprivileged user maps more than its own id only through the
 * setuid helpers newuidmap(1) and newgidmap(1) (the uidmap package), which check the ranges
 * /etc/subuid and /etc/subgid give it (subuid(5)). Found here for `crib run` (steps/userns.c
 * runs the one found), `crib check` and `crib image import`.
 *
 * As root, a container's root is not host root: root's default map is its own range of
 * subordinate ids. When root has none, userns_root_range() takes 65536 ids above every range
 * there and records them in both files, under the lock the shadow tools take (/etc/subuid.lock),
 * as `usermod --add-subuids` would: the one function of host/ that changes the host, called by
 * cmd/ before planning and never by the plan.
 */
#define _GNU_SOURCE
#include "subids.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "spec/idmap.h"

const char *userns_find_helper(const char *name, char *buf, size_t len)
{
        static const char *const dirs[] = {"/usr/bin", "/bin", "/usr/sbin", "/sbin",
                                           "/usr/local/bin"};
        for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
                snprintf(buf, len, "%s/%s", dirs[i], name);
                if (access(buf, X_OK) == 0)
                        return buf;
        }
        return NULL;
}

/* Append `line` to `path` atomically: a copy with the line, fsynced, renamed over it. */
static int append_line(const char *path, const char *line, struct error *err)
{
        char tmp[64];
        struct stat st;
        snprintf(tmp, sizeof tmp, "%s.crib-XXXXXX", path);
        _cleanup_fclose_ FILE *in = fopen(path, "re");
        if (!in && errno != ENOENT)
                return error_set(err, errno, "cannot read '%s'", path);
        int fd = mkostemp(tmp, O_CLOEXEC);
        if (fd < 0)
                return error_set(err, errno, "cannot write next to '%s'", path);
        _cleanup_fclose_ FILE *out = fdopen(fd, "w");
        if (!out) {
                close(fd);
                unlink(tmp);
                return error_set(err, errno, "cannot write '%s'", tmp);
        }
        char buf[4096];
        size_t n;
        bool newline = true;
        while (in && (n = fread(buf, 1, sizeof buf, in)) > 0) {
                fwrite(buf, 1, n, out);
                newline = buf[n - 1] == '\n';
        }
        fprintf(out, "%s%s\n", newline ? "" : "\n", line);
        mode_t mode = in && fstat(fileno(in), &st) == 0 ? st.st_mode & 07777 : 0644;
        if (fflush(out) != 0 || fchmod(fileno(out), mode) < 0 || fsync(fileno(out)) < 0 ||
            rename(tmp, path) < 0) {
                int e = errno;
                unlink(tmp);
                return error_set(err, e, "cannot update '%s'", path);
        }
        return 0;
}

static bool has_root_range(const char *path)
{
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        struct idmap_range r[1];
        size_t n = 0;
        struct error ignored;
        return f && idmap_read_subids(f, "root", 0, r, &n, &ignored) == 0 && n > 0;
}

int userns_root_range(char *ret_note, size_t len, struct error *err)
{
        static const char *const files[2] = {"/etc/subuid", "/etc/subgid"};
        const uint32_t count = 65536;
        ret_note[0] = '\0';
        if (has_root_range(files[0]) && has_root_range(files[1]))
                return 0;
        /* the lock the shadow tools (usermod, useradd) take on these files */
        int lock = open("/etc/subuid.lock", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (lock < 0) {
                error_set(err, errno, "cannot lock '/etc/subuid' to give root a range of ids");
                return error_hint(err, "another program is changing it; if none is, remove "
                                       "/etc/subuid.lock");
        }
        dprintf(lock, "%d", (int)getpid());
        close(lock);
        int r = 0;
        if (!has_root_range(files[0]) || !has_root_range(files[1])) {
                _cleanup_fclose_ FILE *fu = fopen(files[0], "re");
                _cleanup_fclose_ FILE *fg = fopen(files[1], "re");
                uint32_t start = idmap_free_start(fu, fg, count);
                char line[64];
                snprintf(line, sizeof line, "root:%u:%u", start, count);
                if (!start)
                        r = error_set(err, ENOSPC,
                                      "no room above the ranges in /etc/subuid "
                                      "and /etc/subgid for root's");
                for (int i = 0; i < 2 && r == 0; i++)
                        if (!has_root_range(files[i]))
                                r = append_line(files[i], line, err);
                if (r == 0)
                        snprintf(ret_note, len,
                                 "gave root the subordinate ids %u-%u for its containers "
                                 "(recorded in /etc/subuid and /etc/subgid): container root is "
                                 "host uid %u",
                                 start, start + count - 1, start);
        }
        unlink("/etc/subuid.lock");
        return r;
}
