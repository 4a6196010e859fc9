/* error.c - building crib's error values; see error.h. Safe in the container's setup process:
 * only vsnprintf and memory copies, no allocation. */
#include "error.h"

#include <stdio.h>
#include <string.h>

void error_clear(struct error *err)
{
        err->errnum = 0;
        err->kind = ERROR_SETUP;
        err->msg[0] = '\0';
        err->hint[0] = '\0';
}

int error_setv(struct error *err, int errnum, const char *fmt, va_list ap)
{
        error_clear(err);
        err->errnum = errnum;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        return -1;
}

int error_set(struct error *err, int errnum, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        error_setv(err, errnum, fmt, ap);
        va_end(ap);
        return -1;
}

int error_wrap(struct error *err, const char *fmt, ...)
{
        char ctx[sizeof err->msg];
        char old[sizeof err->msg];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(ctx, sizeof ctx, fmt, ap);
        va_end(ap);
        memcpy(old, err->msg, sizeof old);
        size_t n = strlen(ctx);
        if (n > sizeof err->msg - 3)
                n = sizeof err->msg - 3;
        memcpy(err->msg, ctx, n);
        memcpy(err->msg + n, ": ", 2);
        size_t room = sizeof err->msg - n - 2;
        size_t olen = strnlen(old, room - 1);
        memcpy(err->msg + n + 2, old, olen);
        err->msg[n + 2 + olen] = '\0';
        return -1;
}

int error_hint(struct error *err, const char *fmt, ...)
{
        size_t used = strlen(err->hint);
        char text[sizeof err->hint];
        va_list ap;

        if (used && used + 1 < sizeof err->hint)
                err->hint[used++] = '\n';
        va_start(ap, fmt);
        vsnprintf(text, sizeof text, fmt, ap);
        va_end(ap);
        /* a newline separates one hint from the next, and only crib's own: one inside the text
         * (a container's PATH, an image's string) is written \x0a, so it cannot make a line
         * of its own that reads as crib's */
        for (const char *t = text; *t && used + 1 < sizeof err->hint; t++) {
                if (*t != '\n') {
                        err->hint[used++] = *t;
                        continue;
                }
                if (used + 5 >= sizeof err->hint)
                        break;
                memcpy(err->hint + used, "\\x0a", 4);
                used += 4;
        }
        err->hint[used] = '\0';
        return -1;
}

static int error_atv(struct error *err, int errnum, const char *file, unsigned line,
                     const char *fmt, va_list ap)
{
        char text[sizeof err->msg];
        vsnprintf(text, sizeof text, fmt, ap);
        if (line)
                return error_set(err, errnum, "%s:%u: %s", file, line, text);
        return error_set(err, errnum, "%s: %s", file, text);
}

int error_at(struct error *err, const char *file, unsigned line, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        error_atv(err, 0, file, line, fmt, ap);
        va_end(ap);
        return -1;
}

int error_at_errno(struct error *err, int errnum, const char *file, unsigned line, const char *fmt,
                   ...)
{
        va_list ap;
        va_start(ap, fmt);
        error_atv(err, errnum, file, line, fmt, ap);
        va_end(ap);
        return -1;
}

int error_kind(struct error *err, enum error_kind kind)
{
        err->kind = kind;
        return -1;
}

int error_exit_status(const struct error *err)
{
        switch (err->kind) {
        case ERROR_EXEC_NOTFOUND:
                return EXIT_NOT_FOUND;
        case ERROR_EXEC_FAILED:
                return EXIT_CANNOT_EXECUTE;
        default:
                return EXIT_CRIB_ERROR;
        }
}
