/* procfile.h - read one number from a /proc or /sys file (a sysctl, cap_last_cap), or write
 * one text to such a file (an id map, setgroups) in a single write(2), as the kernel wants; the
 * children of a process, from every process's PPid. */
#ifndef CRIB_PROCFILE_H
#define CRIB_PROCFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The number at the start of the file, or -1 when it cannot be read. */
long procfile_long(const char *path);

/* Write `text` to `path` in one write(2): 0, or the errno (EIO for a short write). */
int procfile_write(const char *path, const char *text);

/* The pids whose parent is `parent` (the 'PPid:' line of /proc/PID/status), at most `max`;
 * how many. */
size_t procfile_children(pid_t parent, pid_t *ret, size_t max);

/* Whether the mount a line of /proc/self/mountinfo names (its first field, `mount_id`) is the
 * one seen at its mount point `path`, not one a later mount over it or above it hides (a
 * cgroup2 at /sys/fs/cgroup/unified under a cgroup2 mounted on /sys/fs/cgroup). statx(2)'s
 * STATX_MNT_ID (Linux 5.8) tells; where the kernel has none, every line counts as seen. */
bool procfile_mount_seen(unsigned long mount_id, const char *path);

#endif
