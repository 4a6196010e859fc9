/* Unit tests of the INI tokenizer (runtime/base/ini.c): each case through fmemopen(3) and
 * ini_parse, and from memory through ini_parse_text. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/ini.h"
#include "../lib/tap.h"

static int differ;

/* A stream that gives two lines, then fails as a disk does (EIO) */
static ssize_t failing_read(void *cookie, char *buf, size_t size)
{
        const char **rest = cookie;
        size_t n = strlen(*rest);
        if (!n) {
                errno = EIO;
                return -1;
        }
        if (n > size)
                n = size;
        memcpy(buf, *rest, n);
        *rest += n;
        return (ssize_t)n;
} /* cases where ini_parse_text did not give what ini_parse gave */

static bool same_str(const char *a, const char *b)
{
        return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Every case through a stream (ini_parse) and from memory (ini_parse_text): the same entries,
 * or the same error. */
static int parse(const char *text, struct ini_file *ini, struct error *err)
{
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        int r = ini_parse(f, "t.ini", ini, err);
        fclose(f);
        struct ini_file mem = {0};
        struct error merr;
        error_clear(&merr);
        int rm = ini_parse_text(text, strlen(text), "t.ini", &mem, &merr);
        bool same = r == rm && (r < 0 ? !strcmp(err->msg, merr.msg) : ini->n == mem.n);
        for (size_t i = 0; same && r == 0 && i < mem.n; i++) {
                const struct ini_entry *a = &ini->entries[i], *b = &mem.entries[i];
                same = a->line == b->line && a->quoted == b->quoted &&
                       same_str(a->section, b->section) && same_str(a->key, b->key) &&
                       same_str(a->value, b->value) && same_str(a->raw, b->raw);
        }
        if (!same)
                differ++;
        if (rm == 0)
                ini_free(&mem);
        return r;
}

int main(void)
{
        struct ini_file ini;
        struct error err;

        ok(parse("# comment\n; another\n\n[a]\nk = v\n  key_2=  spaced value  \n", &ini, &err) == 0,
           "parses sections, keys and comments");
        ok(ini.n == 3, "one section header and two keys (%zu entries)", ini.n);
        ok(ini.entries[0].key == NULL && !strcmp(ini.entries[0].section, "a"), "section entry");
        is_str(ini.entries[1].value, "v", "simple value");
        ok(ini.entries[1].line == 5, "line number kept");
        is_str(ini.entries[2].value, "spaced value", "outer white space trimmed");
        ini_free(&ini);

        ok(parse("[a]\nk = value # comment\nj = a#b\nl = x ; c\n", &ini, &err) == 0,
           "inline comments");
        is_str(ini.entries[1].value, "value", "'#' after white space starts a comment");
        is_str(ini.entries[2].value, "a#b", "'#' inside a word does not");
        is_str(ini.entries[3].value, "x", "';' after white space starts a comment");
        ini_free(&ini);

        ok(parse("[a]\nk = \"a # b \\\" \\\\ \\n\"\n", &ini, &err) == 0, "quoted value");
        is_str(ini.entries[1].value, "a # b \" \\ \n", "quoted value unescaped, '#' kept");
        ok(ini.entries[1].quoted, "marked as quoted");
        ini_free(&ini);

        ok(parse("[a]\nk = sh -c \"echo # x\" # real comment\n", &ini, &err) == 0, "partly quoted");
        is_str(ini.entries[1].raw, "sh -c \"echo # x\"", "raw keeps quotes, drops the comment");
        is_str(ini.entries[1].value, "sh -c \"echo # x\"", "value is raw when not one string");
        ini_free(&ini);

        ok(parse("[a]\nk = 'it # is'\n", &ini, &err) == 0, "single quotes protect '#'");
        is_str(ini.entries[1].raw, "'it # is'", "single-quoted raw value");
        ini_free(&ini);

        ok(parse("[a]\nk = \"open\n", &ini, &err) < 0, "unterminated quote fails");
        is_str(err.msg, "t.ini:2: unterminated double quote", "with FILE:LINE");
        ok(parse("k = v\n", &ini, &err) < 0, "key before section fails");
        ok(parse("[a]\nnovalue\n", &ini, &err) < 0, "line without '=' fails");
        is_str(err.msg, "t.ini:2: expected 'key = value' or '[section]'", "message");
        ok(parse("[A b]\n", &ini, &err) < 0, "bad section name fails");
        ok(parse("[a] x\n", &ini, &err) < 0, "text after ']' fails");
        ok(parse("[a]\nk-y = 1\n", &ini, &err) < 0, "bad key name fails");
        ok(parse("[a]\nk = \"\\q\"\n", &ini, &err) < 0, "unknown escape fails");

        /* limits */
        char *longline = malloc(INI_MAX_LINE + 100);
        strcpy(longline, "[a]\nk = ");
        memset(longline + 8, 'x', INI_MAX_LINE + 50);
        strcpy(longline + 8 + INI_MAX_LINE + 50, "\n");
        ok(parse(longline, &ini, &err) < 0, "a line over the limit fails");
        contains(err.msg, "t.ini:2: line is longer than", "message names the line");
        free(longline);

        size_t big = INI_MAX_FILE + 4096;
        char *huge = malloc(big + 1);
        size_t o = (size_t)sprintf(huge, "[a]\n");
        while (o + 20 < big)
                o += (size_t)sprintf(huge + o, "# filler comment\n");
        ok(parse(huge, &ini, &err) < 0, "a file over the size limit fails");
        contains(err.msg, "file is larger than", "message");
        free(huge);

        char *many = malloc(INI_MAX_ENTRIES * 8 + 64);
        o = (size_t)sprintf(many, "[a]\n");
        for (int i = 0; i < INI_MAX_ENTRIES + 1; i++)
                o += (size_t)sprintf(many + o, "k = 1\n");
        ok(parse(many, &ini, &err) < 0, "too many entries fail");
        contains(err.msg, "too many entries", "message");
        free(many);

        /* section headers count too, and their limit is named, not "cannot allocate" */
        char *sections = malloc(INI_MAX_ENTRIES * 8 + 64);
        o = 0;
        for (int i = 0; i < INI_MAX_ENTRIES + 1; i++)
                o += (size_t)sprintf(sections + o, "[a]\n");
        ok(parse(sections, &ini, &err) < 0, "too many section headers fail");
        is_str(err.msg, "t.ini:4097: too many entries: a file holds at most 4096 sections and keys",
               "with FILE:LINE and the limit");
        free(sections);

        const char nul[] = "[a]\nk = a\0b\n";
        FILE *f = fmemopen((void *)nul, sizeof nul - 1, "r");
        ok(ini_parse(f, "t.ini", &ini, &err) < 0, "a NUL byte fails");
        fclose(f);
        ok(ini_parse_text(nul, sizeof nul - 1, "t.ini", &ini, &err) < 0 &&
                   strstr(err.msg, "t.ini:2: line contains a NUL byte"),
           "from memory too: %s", err.msg);
        ok(ini_parse_text("[a]\nk = v", 9, "t.ini", &ini, &err) == 0 && ini.n == 2 &&
                   !strcmp(ini.entries[1].value, "v"),
           "from memory, a last line without its newline");
        ini_free(&ini);

        /* a read error says why, and where it stopped */
        const char *rest = "[a]\nk = v\n";
        f = fopencookie(&rest, "r", (cookie_io_functions_t){.read = failing_read});
        ok(ini_parse(f, "t.ini", &ini, &err) < 0 && err.errnum == EIO &&
                   !strcmp(err.msg, "t.ini: cannot read past line 2"),
           "a read error after two lines: EIO, and where (%s)", err.msg);
        fclose(f);
        /* a directory opens for reading, and fails at the first read: crib run DIR (main.c
         * reads DIR/crib.ini; this is for every other caller) */
        f = fopen(".", "re");
        ok(f && ini_parse(f, "dir", &ini, &err) < 0 && err.errnum == EISDIR &&
                   !strcmp(err.msg, "cannot read 'dir'"),
           "a directory: EISDIR, and its name (%s)", err.msg);
        if (f)
                fclose(f);
        ok(differ == 0, "ini_parse_text gave what ini_parse gave in every case above (%d differ)",
           differ);
        return tap_done();
}
