/* error.h - crib's one error type.
 *
 * Fixed size and pointer-free, so the container's setup process can send it to the parent over
 * the sync socket unchanged. Fallible functions return -1 (or NULL) and fill the `struct error *`
 * they take last; callers add context with error_wrap(). Only cmd/ prints errors: the message
 * first, then the errno text once, then the remedy (hint) on lines of its own.
 */
#ifndef CRIB_ERROR_H
#define CRIB_ERROR_H

#include <stdarg.h>

/* What kind of failure, which decides crib's exit status (error_exit_status). */
enum error_kind {
        ERROR_SETUP = 0,     /* crib's own: spec, command line or container setup */
        ERROR_EXEC_NOTFOUND, /* the workload's program is not in the container */
        ERROR_EXEC_FAILED,   /* the program exists but could not be executed */
};

/* crib's own exit statuses, as runc and Docker use them (the workload's passes through). */
enum {
        EXIT_CRIB_ERROR = 125,     /* crib failed: spec, command line or container setup */
        EXIT_CANNOT_EXECUTE = 126, /* the program exists but could not be executed */
        EXIT_NOT_FOUND = 127,      /* the program is not in the container */
        /* crib run under a unit: on_unhealthy = kill killed the workload; the unit crib
         * generate systemd writes says RestartPreventExitStatus= for it, so kill is not undone */
        EXIT_UNHEALTHY_KILLED = 124,
};

struct error {
        int errnum; /* errno of the failed call, 0 when there is none */
        int kind;   /* enum error_kind */
        char msg[1024];
        char hint[768]; /* remedy, possibly several lines, empty when none */
};

#define CRIB_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Set the error (replacing any earlier one), of kind ERROR_SETUP; returns -1. */
int error_set(struct error *err, int errnum, const char *fmt, ...) CRIB_PRINTF(3, 4);
int error_setv(struct error *err, int errnum, const char *fmt, va_list ap) CRIB_PRINTF(3, 0);
/* Put "context: " in front of the message; returns -1. */
int error_wrap(struct error *err, const char *fmt, ...) CRIB_PRINTF(2, 3);
/* Add a line of remedy; returns -1. */
int error_hint(struct error *err, const char *fmt, ...) CRIB_PRINTF(2, 3);
/* A spec or input file error: "FILE:LINE: message", no errno; returns -1. */
int error_at(struct error *err, const char *file, unsigned line, const char *fmt, ...)
        CRIB_PRINTF(4, 5);
/* The same, for a failed call about what FILE:LINE names (a rootfs that cannot be opened):
 * the errno's text follows the message. */
int error_at_errno(struct error *err, int errnum, const char *file, unsigned line, const char *fmt,
                   ...) CRIB_PRINTF(5, 6);
/* Make it an error of `kind` (its message stays); returns -1. */
int error_kind(struct error *err, enum error_kind kind);
void error_clear(struct error *err);
/* The exit status for it: 125, 126 or 127. */
int error_exit_status(const struct error *err);

#endif
