/* ini.h - a strict, line-oriented INI tokenizer with no container knowledge.
 *
 * Grammar, one item a line:
 *   [section]                 section names: a-z 0-9 _
 *   key = value               keys: A-Z a-z 0-9 _; the value runs to the end of the line
 *   # comment  or  ; comment  whole-line comments; inside a value, a '#' or ';' that follows
 *                             white space and is outside double quotes starts a comment
 * A value that is one double-quoted string is unquoted (escapes \\ \" \n \t \# \;); any other
 * value is kept as written (`raw`), so a key whose value is a command line can split it with
 * shell-like quoting itself. Limits keep a hostile file small: see INI_MAX_*.
 */
#ifndef CRIB_INI_H
#define CRIB_INI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"

#define INI_MAX_FILE    (1024 * 1024) /* bytes */
#define INI_MAX_LINE    4096          /* bytes, newline included */
#define INI_MAX_ENTRIES 4096          /* sections and keys */

struct ini_entry {
        unsigned line;
        char *section; /* current section; NULL only for a key before any section */
        char *key;     /* NULL: this entry is a section header */
        char *value;   /* unquoted value */
        char *raw;     /* value as written, comment and outer white space removed */
        bool quoted;   /* the value was one double-quoted string */
};

struct ini_file {
        struct ini_entry *entries;
        size_t n;
};

/* Tokenize `f`; `name` is used in "NAME:LINE: message" errors. */
int ini_parse(FILE *f, const char *name, struct ini_file *ret, struct error *err);
/* The same for `len` bytes of text in memory (crib's embedded levels: no stream, no buffer). */
int ini_parse_text(const char *text, size_t len, const char *name, struct ini_file *ret,
                   struct error *err);
void ini_free(struct ini_file *ini);

#endif
