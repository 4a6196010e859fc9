/* trace.h - the `--trace` sink and the names of flags it prints.
 *
 * Runtime code never prints: it hands each trace line to `emit`. In the parent that is cmd/'s
 * printer; in the container's setup process it sends the line over the sync socket, so the
 * parent prints it (one writer, lines in order).
 */
#ifndef CRIB_TRACE_H
#define CRIB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct trace {
        bool on;
        bool explain; /* --trace=explain: each step's why and where too */
        void (*emit)(void *ctx, const char *line);
        void *ctx;
};

void trace_line(const struct trace *t, const char *fmt, ...) CRIB_PRINTF(2, 3);

/* A step that had nothing to do says why, as "  skipped: WHY" (never "done"); returns 0, the
 * step's success: `return trace_skip(t, "readonly_rootfs = no");`. */
int trace_skip(const struct trace *t, const char *fmt, ...) CRIB_PRINTF(2, 3);

/* Microseconds on the monotonic clock. */
uint64_t trace_now_us(void);

/* "MS_RDONLY|MS_NOSUID", "CLONE_NEWUSER|CLONE_NEWNS|SIGCHLD": names for the trace. */
const char *trace_mount_flags(unsigned long flags, char *buf, size_t len);
const char *trace_clone_flags(unsigned long flags, char *buf, size_t len);
/* The errno's symbolic name ("EPERM"), or its number. */
const char *trace_errno_name(int e, char *buf, size_t len);

#endif
