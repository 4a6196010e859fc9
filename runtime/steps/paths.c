/* paths.c - paths hidden from the workload, and paths it may only read.
 *
 * Kernel feature: bind mounts over single files and directories. A masked file gets /dev/null
 * bound over it, a masked directory an empty read-only tmpfs (one, bound again over every other
 * masked directory: a superblock fewer to build and tear down); a read-only path is bound onto
 * itself and remounted read-only (with its submounts where mount_setattr(2) exists). All of
 * this works in a user namespace, so it protects unprivileged containers too. The lists
 * (Docker's by default) come from the security level and the spec.
 *
 * Where it sits: right after pivot_root, so the paths are the container's own /proc and /sys.
 * /proc must be a proc filesystem by then, or nothing here would hide anything: that is an
 * error. A path this kernel does not have (no /proc/acpi on ARM) is skipped, and the trace
 * says so; any other path that cannot be hidden or protected is an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "step.h"
#include "base/sys.h"

#define PROC_SUPER_MAGIC_ 0x9fa0 /* <linux/magic.h> */

/* stat `path`; 1 when this kernel does not have it (traced: it is skipped), -1 on an error. */
static int find(struct child *c, const char *path, struct stat *st, struct error *err)
{
        if (stat(path, st) == 0)
                return 0;
        if (errno != ENOENT && errno != ENOTDIR)
                return error_set(err, errno, "cannot look up '%s'", path);
        trace_line(&c->trace, "  (no %s on this kernel: skipped)", path);
        return 1;
}

/* Child: after pivot_root. */
int step_hide_paths(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        const unsigned long hard = MS_NOSUID | MS_NODEV | MS_NOEXEC;
        const char *empty = NULL; /* the first masked directory: an empty read-only tmpfs */
        struct stat st;
        struct statfs sf;

        int e = statfs("/proc", &sf) < 0 ? errno : 0;
        if (e || sf.f_type != PROC_SUPER_MAGIC_) {
                error_set(err, e, "'/proc' in the container is not a proc filesystem");
                return error_hint(err, "its mount failed or was lost; the paths under it "
                                       "cannot be hidden without it");
        }
        for (size_t i = 0; p->masked && i < p->masked->n; i++) {
                const char *path = p->masked->items[i];
                int found = find(c, path, &st, err);
                if (found < 0)
                        return error_wrap(err, "hiding '%s'", path);
                if (found)
                        continue;
                int r;
                if (!S_ISDIR(st.st_mode))
                        r = sys_mount(&c->trace, "/dev/null", path, NULL, NULL, MS_BIND, NULL, err);
                else if (!empty)
                        r = sys_mount(&c->trace, "tmpfs", path, NULL, "tmpfs", MS_RDONLY | hard,
                                      "size=0k,nr_inodes=1,mode=0555", err);
                else /* the same empty tmpfs again: a bind costs less than a new one */
                        r = sys_mount(&c->trace, empty, path, NULL, NULL, MS_BIND, NULL, err);
                if (r < 0)
                        return error_wrap(err, "hiding '%s'", path);
                if (S_ISDIR(st.st_mode) && !empty)
                        empty = path;
        }
        for (size_t i = 0; p->readonly && i < p->readonly->n; i++) {
                const char *path = p->readonly->items[i];
                int found = find(c, path, &st, err);
                if (found < 0)
                        return error_wrap(err, "making '%s' read-only", path);
                if (found)
                        continue;
                if (sys_mount(&c->trace, path, path, NULL, NULL, MS_BIND | MS_REC, NULL, err) < 0 ||
                    mounts_restrict(c, -1, path, MS_RDONLY, true, err) < 0)
                        return error_wrap(err, "making '%s' read-only", path);
        }
        return 0;
}
