/* ini.c - the INI tokenizer; see ini.h for the grammar. Pure: reads a FILE *, allocates,
 * makes no other system calls. */
#include "ini.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"

void ini_free(struct ini_file *ini)
{
        for (size_t i = 0; i < ini->n; i++) {
                free(ini->entries[i].section);
                free(ini->entries[i].key);
                free(ini->entries[i].value);
                free(ini->entries[i].raw);
        }
        free(ini->entries);
        ini->entries = NULL;
        ini->n = 0;
}

static char *trim(char *s)
{
        while (*s == ' ' || *s == '\t')
                s++;
        size_t n = strlen(s);
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
                s[--n] = '\0';
        return s;
}

/* Cut an inline comment off `v` (a '#' or ';' outside quotes, at the start or after white
 * space) and check the quotes balance. */
static int cut_comment(char *v, const char *name, unsigned line, struct error *err)
{
        bool in_quote = false;
        for (char *p = v; *p; p++) {
                if (in_quote) {
                        if (*p == '\\' && p[1])
                                p++;
                        else if (*p == '"')
                                in_quote = false;
                } else if (*p == '"') {
                        in_quote = true;
                } else if (*p == '\'') {
                        /* single quotes: shell-style literal, no escapes inside */
                        char *end = strchr(p + 1, '\'');
                        if (!end)
                                return error_at(err, name, line, "unterminated single quote");
                        p = end;
                } else if ((*p == '#' || *p == ';') && (p == v || p[-1] == ' ' || p[-1] == '\t')) {
                        *p = '\0';
                        break;
                }
        }
        if (in_quote)
                return error_at(err, name, line, "unterminated double quote");
        return 0;
}

/* If `raw` is exactly one double-quoted string, return its unescaped content. */
static int unquote(const char *raw, char **ret, bool *ret_quoted, const char *name, unsigned line,
                   struct error *err)
{
        size_t n = strlen(raw);
        *ret_quoted = false;
        if (n >= 2 && raw[0] == '"') {
                /* find the closing quote */
                const char *p = raw + 1;
                while (*p && *p != '"') {
                        if (*p == '\\' && p[1])
                                p++;
                        p++;
                }
                if (*p == '"' && p[1] == '\0') {
                        _cleanup_free_ char *out = malloc(n);
                        char *o = out;
                        if (!out)
                                return error_set(err, ENOMEM, "cannot allocate");
                        for (p = raw + 1; *p != '"'; p++) {
                                if (*p != '\\') {
                                        *o++ = *p;
                                        continue;
                                }
                                p++;
                                switch (*p) {
                                case '\\':
                                case '"':
                                case '#':
                                case ';':
                                case '$':
                                        *o++ = *p;
                                        break;
                                case 'n':
                                        *o++ = '\n';
                                        break;
                                case 't':
                                        *o++ = '\t';
                                        break;
                                default:
                                        return error_at(err, name, line,
                                                        "unknown escape '\\%c' in quoted value",
                                                        *p);
                                }
                        }
                        *o = '\0';
                        *ret = steal_ptr(&out);
                        *ret_quoted = true;
                        return 0;
                }
        }
        *ret = strdup(raw);
        if (!*ret)
                return error_set(err, ENOMEM, "cannot allocate");
        return 0;
}

/* Where lines come from: ini_parse's stream or ini_parse_text's memory. */
struct source {
        FILE *f;             /* a stream, or */
        const char *p, *end; /* a text in memory */
        int errnum;          /* the stream's read error, 0 when there is none */
};

static int next_char(struct source *src)
{
        if (src->f) {
                int ch = getc_unlocked(src->f);
                if (ch == EOF && ferror_unlocked(src->f) && !src->errnum)
                        src->errnum = errno ? errno : EIO;
                return ch;
        }
        return src->p < src->end ? (unsigned char)*src->p++ : EOF;
}

/* Read one line (newline included) into buf; *ret_len counts every byte, NULs too, and is
 * larger than INI_MAX_LINE when the line was cut. Returns -1 at end of file. */
static int read_line(struct source *src, char *buf, size_t size, size_t *ret_len)
{
        size_t n = 0;
        int ch;
        while ((ch = next_char(src)) != EOF) {
                if (n < size - 1)
                        buf[n] = (char)ch;
                n++;
                if (ch == '\n')
                        break;
        }
        buf[n < size - 1 ? n : size - 1] = '\0';
        *ret_len = n;
        return n == 0 ? -1 : 0;
}

static bool valid_name(const char *s, bool upper_ok)
{
        if (!*s)
                return false;
        for (; *s; s++)
                if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_' ||
                      (upper_ok && isupper((unsigned char)*s))))
                        return false;
        return true;
}

static int add_entry(struct ini_file *ini, size_t *cap, const char *name, unsigned line,
                     struct error *err, struct ini_entry **ret)
{
        if (ini->n >= INI_MAX_ENTRIES)
                return error_at(err, name, line,
                                "too many entries: a file holds at most %d sections and keys",
                                INI_MAX_ENTRIES);
        if (ini->n == *cap) {
                size_t ncap = *cap ? *cap * 2 : 32;
                struct ini_entry *e = realloc(ini->entries, ncap * sizeof *e);
                if (!e)
                        return error_set(err, ENOMEM, "cannot allocate");
                ini->entries = e;
                *cap = ncap;
        }
        *ret = &ini->entries[ini->n++];
        memset(*ret, 0, sizeof **ret);
        (*ret)->line = line;
        return 0;
}

/* Out of memory: said once (an allocation deeper down may have said it already) */
static int nomem(struct error *err)
{
        if (!err->msg[0] || err->errnum != ENOMEM)
                error_set(err, ENOMEM, "cannot allocate");
        return -1;
}

/* A `[name]` line (trimmed, in `s`): the section the keys below belong to, and its entry */
static int parse_section(struct ini_file *ini, size_t *cap, char **section, char *s,
                         const char *name, unsigned line, struct error *err)
{
        struct ini_entry *e;
        char *end = strchr(s, ']');
        if (!end)
                return error_at(err, name, line, "missing ']' in section header");
        *end = '\0';
        char *rest = trim(end + 1);
        if (*rest && *rest != '#' && *rest != ';')
                return error_at(err, name, line, "unexpected text after ']'");
        char *sname = trim(s + 1);
        if (!valid_name(sname, false))
                return error_at(err, name, line, "invalid section name '%s' (use a-z, 0-9 and _)",
                                sname);
        free(*section);
        *section = strdup(sname);
        if (!*section)
                return nomem(err);
        if (add_entry(ini, cap, name, line, err, &e) < 0)
                return -1;
        e->section = strdup(*section);
        if (!e->section)
                return nomem(err);
        return 0;
}

/* A `key = value` line (trimmed, in `s`) of `section`: its entry, raw and unquoted */
static int parse_key(struct ini_file *ini, size_t *cap, const char *section, char *s,
                     const char *name, unsigned line, struct error *err)
{
        struct ini_entry *e;
        char *eq = strchr(s, '=');
        if (!eq)
                return error_at(err, name, line, "expected 'key = value' or '[section]'");
        *eq = '\0';
        char *key = trim(s);
        char *raw = trim(eq + 1);
        if (!valid_name(key, true))
                return error_at(err, name, line, "invalid key '%s' (use letters, digits and _)",
                                key);
        if (!section)
                return error_at(err, name, line, "key '%s' before any [section]", key);
        if (cut_comment(raw, name, line, err) < 0)
                return -1;
        raw = trim(raw);
        if (add_entry(ini, cap, name, line, err, &e) < 0)
                return -1;
        e->section = strdup(section);
        e->key = strdup(key);
        e->raw = strdup(raw);
        if (!e->section || !e->key || !e->raw)
                return nomem(err);
        return unquote(raw, &e->value, &e->quoted, name, line, err);
}

static int parse(struct source *src, const char *name, struct ini_file *ret, struct error *err)
{
        struct ini_file ini = {0};
        size_t cap = 0, total = 0;
        unsigned line = 0;
        char buf[INI_MAX_LINE + 2];
        _cleanup_free_ char *section = NULL;

        size_t len;
        while (read_line(src, buf, sizeof buf, &len) == 0) {
                line++;
                total += len;
                if (total > INI_MAX_FILE) {
                        error_at(err, name, line, "file is larger than %d bytes", INI_MAX_FILE);
                        goto fail;
                }
                if (len > INI_MAX_LINE) {
                        error_at(err, name, line, "line is longer than %d bytes", INI_MAX_LINE);
                        goto fail;
                }
                if (strlen(buf) != len) {
                        error_at(err, name, line, "line contains a NUL byte");
                        goto fail;
                }
                char *s = trim(buf);
                if (!*s || *s == '#' || *s == ';')
                        continue;
                int r = *s == '[' ? parse_section(&ini, &cap, &section, s, name, line, err)
                                  : parse_key(&ini, &cap, section, s, name, line, err);
                if (r < 0)
                        goto fail;
        }
        if (src->f && ferror(src->f)) {
                /* a directory (EISDIR), a disk's EIO: said with the reason, where it stopped */
                int errnum = src->errnum ? src->errnum : EIO;
                if (line)
                        error_at_errno(err, errnum, name, 0, "cannot read past line %u", line);
                else
                        error_set(err, errnum, "cannot read '%s'", name);
                goto fail;
        }
        *ret = ini;
        return 0;
fail:
        ini_free(&ini);
        return -1;
}

int ini_parse(FILE *f, const char *name, struct ini_file *ret, struct error *err)
{
        struct source src = {.f = f};
        return parse(&src, name, ret, err);
}

int ini_parse_text(const char *text, size_t len, const char *name, struct ini_file *ret,
                   struct error *err)
{
        struct source src = {.p = text, .end = text + len};
        return parse(&src, name, ret, err);
}
