/* sys.h - the system calls of the container setup, each traced with its arguments and result.
 *
 * Each wrapper makes one call, prints `name(args) = result` to the trace, and on failure fills
 * `err` with "what failed" and the errno; the step that called it adds the context and hints.
 * `shown` is the path to print (the path inside the container), when it differs from the path
 * handed to the kernel.
 */
#ifndef CRIB_SYS_H
#define CRIB_SYS_H

#include <sys/types.h>

#include "error.h"
#include "trace.h"

int sys_mount(const struct trace *t, const char *src, const char *target, const char *shown,
              const char *fstype, unsigned long flags, const char *data, struct error *err);
int sys_umount2(const struct trace *t, const char *target, int flags, struct error *err);
int sys_chdir(const struct trace *t, const char *path, struct error *err);
int sys_pivot_root(const struct trace *t, const char *new_root, const char *put_old,
                   struct error *err);
int sys_chroot(const struct trace *t, const char *path, struct error *err);
/* mkdirat(2): 0 when made, 1 when the name was there already, -1 with `err` set. */
int sys_mkdirat(const struct trace *t, int dirfd, const char *name, const char *shown, mode_t mode,
                struct error *err);
int sys_symlinkat(const struct trace *t, const char *target, int dirfd, const char *name,
                  const char *shown, struct error *err);
int sys_mknodat(const struct trace *t, int dirfd, const char *name, const char *shown, mode_t mode,
                dev_t dev, struct error *err);

/* Not traced: write all `n` bytes of `buf`, again after EINTR and short writes. 0, or -1 with
 * errno (EIO when the file took nothing more). The one loop for a terminal relay, a log, a
 * state file. */
int sys_write_all(int fd, const void *buf, size_t n);

/* Not traced: wait at most `ms` milliseconds (-1: no limit) for `fd` to be readable, again
 * after EINTR for what is left of the time: a pidfd, readable once its process has exited. 1
 * when it is, 0 when the time ran out, -1 with errno. */
int sys_wait_readable(int fd, int ms);

/* Not traced: fault in the `bytes` of stack below the caller's frame in one madvise(2)
 * (MADV_POPULATE_WRITE, Linux 5.14), where crib's parent would otherwise fault in each page as
 * it first touches it; on a virtual machine each fault is a trip to the hypervisor. Nothing
 * is said when the kernel cannot: the pages then fault in as before. */
void sys_prefault_stack(size_t bytes);

#endif
