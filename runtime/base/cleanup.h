/* cleanup.h - scope-bound release of memory, fds and FILEs (GCC/Clang cleanup attribute).
 *
 * Declare with the attribute and an initial "empty" value (NULL, -1); hand ownership on with
 * steal_ptr()/take_fd() so the cleanup sees the empty value and does nothing.
 */
#ifndef CRIB_CLEANUP_H
#define CRIB_CLEANUP_H

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void cleanup_freep(void *p)
{
        free(*(void **)p);
}

static inline void cleanup_closep(int *fd)
{
        if (*fd >= 0) {
                int saved = errno;
                close(*fd);
                errno = saved;
        }
}

static inline void cleanup_fclosep(FILE **f)
{
        if (*f) {
                int saved = errno;
                fclose(*f);
                errno = saved;
        }
}

static inline void cleanup_closedirp(DIR **d)
{
        if (*d) {
                int saved = errno;
                closedir(*d);
                errno = saved;
        }
}

#define _cleanup_free_     __attribute__((cleanup(cleanup_freep)))
#define _cleanup_close_    __attribute__((cleanup(cleanup_closep)))
#define _cleanup_fclose_   __attribute__((cleanup(cleanup_fclosep)))
#define _cleanup_closedir_ __attribute__((cleanup(cleanup_closedirp)))

/* Return *pp and leave NULL behind, so the cleanup attribute on pp does nothing. */
#define steal_ptr(pp)                                                                              \
        ({                                                                                         \
                __typeof__(*(pp)) stolen_ = *(pp);                                                 \
                *(pp) = NULL;                                                                      \
                stolen_;                                                                           \
        })

/* Return *fdp and leave -1 behind. */
static inline int take_fd(int *fdp)
{
        int fd = *fdp;
        *fdp = -1;
        return fd;
}

#endif
