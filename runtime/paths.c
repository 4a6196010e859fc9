/* paths.c - paths hidden from the workload, and paths it may only read.
 *
 * Kernel feature: bind mounts over single files and directories. A masked file gets /dev/null
 * bound over it, a masked directory an empty read-only tmpfs (one, bound again over every other
 * masked directory: a superblock fewer to build and tear down); a read-only path is bound onto
 * itself and remounted read-only (with its submounts where mount_setattr(2) exists). All of
 * this works in a user namespace, so it protects unprivileged containers too. The lists
 * (Docker's by default) come from the security level and the spec.
 *
 * Where it sits: right after pivot_root, so the paths are the container's own /proc and /sys;
 * a path this kernel does not have (no /proc/acpi on ARM) is skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "child.h"
#include "sys.h"

/* Child: after pivot_root. */
int step_hide_paths(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        const unsigned long hard = MS_NOSUID | MS_NODEV | MS_NOEXEC;
        const char *empty = NULL; /* the first masked directory: an empty read-only tmpfs */
        struct stat st;

        for (size_t i = 0; p->masked && i < p->masked->n; i++) {
                const char *path = p->masked->items[i];
                if (stat(path, &st) < 0) {
                        trace_line(&c->trace, "  (no %s here)", path);
                        continue;
                }
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
                if (stat(path, &st) < 0) {
                        trace_line(&c->trace, "  (no %s here)", path);
                        continue;
                }
                if (sys_mount(&c->trace, path, path, NULL, NULL, MS_BIND | MS_REC, NULL, err) < 0 ||
                    mounts_restrict(c, -1, path, MS_RDONLY, true, err) < 0)
                        return error_wrap(err, "making '%s' read-only", path);
        }
        return 0;
}
