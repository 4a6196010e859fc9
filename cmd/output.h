/* output.h - everything crib prints about itself goes through here. */
#ifndef CRIB_OUTPUT_H
#define CRIB_OUTPUT_H

#include "error.h"

/* Exit statuses of crib's own (the workload's own status passes through unchanged). */
enum {
        EXIT_CRIB_ERROR = 125,     /* crib failed: spec, command line or container setup */
        EXIT_CANNOT_EXECUTE = 126, /* the program exists but could not be executed */
        EXIT_NOT_FOUND = 127,      /* the program is not in the container */
};

/* Print an error (message, errno text, hints) and return the exit status for it. */
int output_error(const struct error *err);
void output_warning(const char *fmt, ...) CRIB_PRINTF(1, 2);
void output_trace_line(void *ctx, const char *line);
void output_warning_line(void *ctx, const char *line);

#endif
