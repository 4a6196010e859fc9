/* words.c - shell-like word splitting, and the distance of two words; see words.h. Pure. */
#include "words.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
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

/* One word from `p` (at its first character) into `buf`, its quotes and backslashes undone;
 * its length in *ret_len. Returns where the word ends, or NULL when its quoting is broken. */
static const char *scan_word(const char *p, char *buf, size_t *ret_len, struct error *err)
{
        size_t o = 0;
        while (*p && *p != ' ' && *p != '\t') {
                if (*p == '\'') {
                        const char *end = strchr(p + 1, '\'');
                        if (!end) {
                                error_set(err, 0, "unterminated single quote");
                                return NULL;
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
                                return NULL;
                        }
                        p++;
                } else if (*p == '\\') {
                        if (!p[1]) {
                                error_set(err, 0, "backslash at the end of the line");
                                return NULL;
                        }
                        buf[o++] = p[1];
                        p += 2;
                } else {
                        buf[o++] = *p++;
                }
        }
        *ret_len = o;
        return p;
}

int words_split(const char *s, char ***ret, size_t *ret_n, struct error *err)
{
        size_t n = 0, cap = 8, len = strlen(s);
        /* grown as words come: a spec's lists are short, and a WORDS_MAX array zeroed for
         * each of them was a third of a start's spec parsing (make bench: crib bench --own) */
        char **v = calloc(cap, sizeof *v);
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
                size_t o;
                p = scan_word(p, buf, &o, err);
                if (!p)
                        goto fail;
                if (n == WORDS_MAX) {
                        error_set(err, 0, "more than %d words", WORDS_MAX);
                        goto fail;
                }
                if (n + 1 == cap) {
                        char **grown = reallocarray(v, cap * 2, sizeof *v);
                        if (!grown) {
                                error_set(err, ENOMEM, "cannot allocate");
                                goto fail;
                        }
                        v = grown;
                        cap *= 2;
                        memset(v + n, 0, (cap - n) * sizeof *v);
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

/* The optimal string alignment distance (Levenshtein's, with two neighbours swapped counting
 * one edit, as "exce" for "exec"), capped: enough to suggest a fix for a typo. Three rows of the
 * table: the two before the one being filled. */
size_t words_distance(const char *a, const char *b)
{
        size_t la = strlen(a), lb = strlen(b);
        size_t rows[3][65];
        if (la > 64 || lb > 64)
                return SIZE_MAX;
        size_t *older = rows[0], *prev = rows[1], *row = rows[2];
        for (size_t j = 0; j <= lb; j++)
                prev[j] = j;
        for (size_t i = 1; i <= la; i++) {
                row[0] = i;
                for (size_t j = 1; j <= lb; j++) {
                        size_t d = prev[j - 1] + (a[i - 1] != b[j - 1]);
                        if (prev[j] + 1 < d)
                                d = prev[j] + 1;
                        if (row[j - 1] + 1 < d)
                                d = row[j - 1] + 1;
                        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                            older[j - 2] + 1 < d)
                                d = older[j - 2] + 1;
                        row[j] = d;
                }
                size_t *t = older;
                older = prev, prev = row, row = t;
        }
        return prev[lb];
}
