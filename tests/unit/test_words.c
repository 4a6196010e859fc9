/* Unit tests of shell-like word splitting (runtime/base/words.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/words.h"
#include "../lib/tap.h"

static char **split(const char *s, size_t *n)
{
        struct error err;
        char **v = NULL;
        if (words_split(s, &v, n, &err) < 0)
                return NULL;
        return v;
}

int main(void)
{
        size_t n;
        char **v = split("/bin/sh -c \"echo hello from $(hostname)\"", &n);
        ok(v && n == 3, "three words");
        is_str(v[0], "/bin/sh", "program");
        is_str(v[2], "echo hello from $(hostname)", "no expansion, quotes removed");
        ok(v[3] == NULL, "NULL-terminated");
        words_free(v);

        v = split("  a\\ b 'c \"d\"' \"e\\\"f\" g''h ", &n);
        ok(v && n == 4, "escapes and mixed quotes (%zu words)", n);
        is_str(v[0], "a b", "backslash-escaped space");
        is_str(v[1], "c \"d\"", "double quotes literal inside single quotes");
        is_str(v[2], "e\"f", "escaped quote inside double quotes");
        is_str(v[3], "gh", "adjacent quoted parts join");
        words_free(v);

        v = split("", &n);
        ok(v && n == 0, "empty string: no words");
        words_free(v);

        struct error err;
        ok(words_split("a 'b", &v, &n, &err) < 0, "unterminated single quote fails");
        is_str(err.msg, "unterminated single quote", "message");
        ok(words_split("a \"b", &v, &n, &err) < 0, "unterminated double quote fails");
        ok(words_split("a\\", &v, &n, &err) < 0, "trailing backslash fails");

        char *many = malloc(WORDS_MAX * 2 + 10);
        for (int i = 0; i < WORDS_MAX + 1; i++)
                many[2 * i] = 'x', many[2 * i + 1] = ' ';
        many[2 * (WORDS_MAX + 1)] = '\0';
        ok(words_split(many, &v, &n, &err) < 0, "more than WORDS_MAX words fail");
        free(many);

        ok(words_distance("exec", "exec") == 0, "distance: the same word, 0");
        ok(words_distance("exce", "exec") == 1, "distance: two neighbours swapped, 1");
        ok(words_distance("pull", "kill") == 2, "distance: two letters changed, 2");
        ok(words_distance("kitten", "sitting") == 3, "distance: Levenshtein's example, 3");
        ok(words_distance("ca", "abc") == 3, "distance: no byte is edited twice, 3");
        ok(words_distance("stat", "start") == 1, "distance: a letter missing, 1");
        ok(words_distance("", "rm") == 2, "distance: from nothing, the length");
        char long_word[66];
        memset(long_word, 'a', 65);
        long_word[65] = '\0';
        ok(words_distance(long_word, "a") == SIZE_MAX, "distance: a word of 65 bytes, SIZE_MAX");
        return tap_done();
}
