/* output.h - everything crib prints about itself goes through here. */
#ifndef CRIB_OUTPUT_H
#define CRIB_OUTPUT_H

#include "error.h"

/* Print an error (message, errno text, hints) and return the exit status for it. */
int output_error(const struct error *err);
void output_warning(const char *fmt, ...) CRIB_PRINTF(1, 2);
void output_trace_line(void *ctx, const char *line);
void output_warning_line(void *ctx, const char *line);

#endif
