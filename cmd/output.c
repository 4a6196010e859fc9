/* output.c - crib's messages: "crib: what failed: errno text", then "crib: hint: remedy".
 *
 * Every string in them may come from somewhere the user did not write (a spec, a config.json,
 * an image, a container's own files, state and setup process), so each goes to the terminal
 * through termsafe (runtime/base/termsafe.h): control characters and bytes that are not UTF-8
 * as visible \xNN, the newline too; the only line breaks are the printer's own. A container's
 * own output (crib logs, the terminal relay) does not come through here: it is shown raw. */
#define _GNU_SOURCE
#include "output.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/termsafe.h"

void output_text(FILE *f, const char *s, size_t n)
{
        char *buf = malloc(TERMSAFE_SIZE(n));
        if (!buf) {
                fputs("?", f);
                return;
        }
        size_t len = termsafe_escape(buf, TERMSAFE_SIZE(n), s, n);
        fwrite(buf, 1, len, f);
        free(buf);
}

void output_linev(FILE *f, const char *fmt, va_list ap)
{
        char *line = NULL;
        int n = vasprintf(&line, fmt, ap);
        if (n < 0) {
                fputs("crib: (cannot allocate)\n", f);
                return;
        }
        output_text(f, line, (size_t)n);
        fputc('\n', f);
        free(line);
}

void output_line(FILE *f, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        output_linev(f, fmt, ap);
        va_end(ap);
}

void output_json(FILE *f, const char *json)
{
        size_t n = strlen(json);
        char *buf = malloc(TERMSAFE_JSON_SIZE(n));
        if (!buf) {
                fputs("null\n", f);
                return;
        }
        size_t len = termsafe_json(buf, TERMSAFE_JSON_SIZE(n), json, n);
        fwrite(buf, 1, len, f);
        fputc('\n', f);
        free(buf);
}

/* "crib: hint: LINE" for each line of `text` */
static void hints(const char *text)
{
        while (*text) {
                size_t n = strcspn(text, "\n");
                output_line(stderr, "crib: hint: %.*s", (int)n, text);
                text += n;
                if (*text)
                        text++;
        }
}

int output_error(const struct error *err)
{
        if (err->errnum)
                output_line(stderr, "crib: %s: %s", err->msg, strerror(err->errnum));
        else
                output_line(stderr, "crib: %s", err->msg);
        hints(err->hint);
        return error_exit_status(err);
}

void output_warning(const char *fmt, ...)
{
        va_list ap;
        char *text = NULL;
        va_start(ap, fmt);
        int n = vasprintf(&text, fmt, ap);
        va_end(ap);
        if (n < 0)
                return;
        output_line(stderr, "crib: warning: %s", text);
        free(text);
}

void output_trace_line(void *ctx, const char *line)
{
        (void)ctx;
        output_line(stderr, "crib: trace: %s", line);
}

/* A warning; the lines after its first are remedies. */
void output_warning_line(void *ctx, const char *text)
{
        (void)ctx;
        size_t n = strcspn(text, "\n");
        output_warning("%.*s", (int)n, text);
        if (text[n])
                hints(text + n + 1);
}

void output_usage_error(const char *fmt, const char *arg)
{
        char *text = NULL;
        if (asprintf(&text, fmt, arg) < 0)
                return;
        output_line(stderr, "crib: %s", text);
        output_line(stderr, "crib: hint: run 'crib help' for the usage");
        free(text);
}

bool output_progress_due(size_t step)
{
        static size_t last_step = (size_t)-1;
        static uint64_t last_us;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t us = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
        if (step == last_step && us - last_us < 200000)
                return false;
        last_step = step;
        last_us = us;
        return true;
}
