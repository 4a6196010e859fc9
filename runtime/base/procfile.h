/* procfile.h - read one number from a /proc or /sys file (a sysctl, cap_last_cap), or write
 * one text to such a file (an id map, setgroups) in a single write(2), as the kernel wants; the
 * children of a process, from every process's PPid. */
#ifndef CRIB_PROCFILE_H
#define CRIB_PROCFILE_H

#include <stddef.h>
#include <sys/types.h>

/* The number at the start of the file, or -1 when it cannot be read. */
long procfile_long(const char *path);

/* Write `text` to `path` in one write(2): 0, or the errno (EIO for a short write). */
int procfile_write(const char *path, const char *text);

/* The pids whose parent is `parent` (the 'PPid:' line of /proc/PID/status), at most `max`;
 * how many. */
size_t procfile_children(pid_t parent, pid_t *ret, size_t max);

#endif
