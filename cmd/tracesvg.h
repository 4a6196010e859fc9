/* tracesvg.h - crib run --trace=svg FILE: the trace drawn as a picture (tracesvg.c). */
#ifndef CRIB_TRACESVG_H
#define CRIB_TRACESVG_H

#include "base/error.h"

/* container_hooks.trace while the picture is made: keep the line, print nothing */
void tracesvg_line(void *ctx, const char *line);
/* Whether `path` may take the picture: none there yet, or a regular file (not a symbolic link,
 * which the picture would replace, nor a device: /dev/stdout is a link) */
int tracesvg_check(const char *path, struct error *err);
/* Draw what was kept into `path`, with the container's exit status */
int tracesvg_write(const char *path, int status, struct error *err);

#endif
