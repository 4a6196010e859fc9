/* words.c - shell-like word splitting; see words.h. Pure. */
#include "words.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void words_free(char **v)
{
        if (!v)
                return;
        for (char **p = v; *p; p++)
                free(*p);
        free(v);
}

int words_split(const char *s, char ***ret, size_t *ret_n, struct error *err)
{
        size_t n = 0, len = strlen(s);
        char **v = calloc(WORDS_MAX + 1, sizeof *v);
        char *buf = malloc(len + 1);

        if (!v || !buf) {
                free(v);
                free(buf);
                return error_set(err, ENOMEM, "cannot allocate");
        }
        const char *p = s;
        for (;;) {
                while (*p == ' ' || *p == '\t')
                        p++;
                if (!*p)
                        break;
                size_t o = 0;
                while (*p && *p != ' ' && *p != '\t') {
                        if (*p == '\'') {
                                const char *end = strchr(p + 1, '\'');
                                if (!end) {
                                        error_set(err, 0, "unterminated single quote");
                                        goto fail;
                                }
                                memcpy(buf + o, p + 1, (size_t)(end - p - 1));
                                o += (size_t)(end - p - 1);
                                p = end + 1;
                        } else if (*p == '"') {
                                p++;
                                while (*p && *p != '"') {
                                        if (*p == '\\' && strchr("\"\\$`", p[1]) && p[1])
                                                p++;
                                        buf[o++] = *p++;
                                }
                                if (*p != '"') {
                                        error_set(err, 0, "unterminated double quote");
                                        goto fail;
                                }
                                p++;
                        } else if (*p == '\\') {
                                if (!p[1]) {
                                        error_set(err, 0, "backslash at the end of the line");
                                        goto fail;
                                }
                                buf[o++] = p[1];
                                p += 2;
                        } else {
                                buf[o++] = *p++;
                        }
                }
                if (n == WORDS_MAX) {
                        error_set(err, 0, "more than %d words", WORDS_MAX);
                        goto fail;
                }
                v[n] = strndup(buf, o);
                if (!v[n]) {
                        error_set(err, ENOMEM, "cannot allocate");
                        goto fail;
                }
                n++;
        }
        free(buf);
        *ret = v;
        if (ret_n)
                *ret_n = n;
        return 0;
fail:
        free(buf);
        words_free(v);
        return -1;
}
