/* output.h - everything crib prints about itself goes through here: each string made safe for
 * the terminal on the way (control characters as \xNN; output.c). */
#ifndef CRIB_OUTPUT_H
#define CRIB_OUTPUT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"

/* Print an error (message, errno text, hints) and return the exit status for it. */
int output_error(const struct error *err);
void output_warning(const char *fmt, ...) CRIB_PRINTF(1, 2);
void output_trace_line(void *ctx, const char *line);
void output_warning_line(void *ctx, const char *line);
/* "crib: MESSAGE" (fmt with one string argument, from the command line) and the usage hint. */
void output_usage_error(const char *fmt, const char *arg);

/* One line to `f`: printf's text with every control character (the newline too) as \xNN, then
 * the newline. For a table's row, a key's value, a trace line. */
void output_line(FILE *f, const char *fmt, ...) CRIB_PRINTF(2, 3);
void output_linev(FILE *f, const char *fmt, va_list ap) CRIB_PRINTF(2, 0);
/* `n` bytes of `s`, so escaped, with no newline added. */
void output_text(FILE *f, const char *s, size_t n);
/* JSON text from json-c, then a newline: what json-c leaves raw (DEL, C1, bytes not UTF-8)
 * escaped as JSON escapes, so the document reads the same and holds no control character. */
void output_json(FILE *f, const char *json);

/* Whether a progress line for `step` (a layer's number) is due: at the first report of each
 * step, else a few times a second at most (a Raspberry Pi's serial console is slow) */
bool output_progress_due(size_t step);

#endif
