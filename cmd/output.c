/* output.c - crib's messages: "crib: what failed: errno text", then "crib: hint: remedy". */
#define _GNU_SOURCE
#include "output.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int output_error(const struct error *err)
{
        if (err->errnum)
                fprintf(stderr, "crib: %s: %s\n", err->msg, strerror(err->errnum));
        else
                fprintf(stderr, "crib: %s\n", err->msg);
        const char *h = err->hint;
        while (*h) {
                size_t n = strcspn(h, "\n");
                fprintf(stderr, "crib: hint: %.*s\n", (int)n, h);
                h += n;
                if (*h)
                        h++;
        }
        return error_exit_status(err);
}

void output_warning(const char *fmt, ...)
{
        va_list ap;
        fputs("crib: warning: ", stderr);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
}

void output_trace_line(void *ctx, const char *line)
{
        (void)ctx;
        fprintf(stderr, "crib: trace: %s\n", line);
}

/* A warning; the lines after its first are remedies. */
void output_warning_line(void *ctx, const char *text)
{
        (void)ctx;
        size_t n = strcspn(text, "\n");
        output_warning("%.*s", (int)n, text);
        while (text[n]) {
                text += n + 1;
                n = strcspn(text, "\n");
                fprintf(stderr, "crib: hint: %.*s\n", (int)n, text);
        }
}
