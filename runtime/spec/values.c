/* values.c - the spec's generic value parsers: strings, absolute paths, yes/no, numbers,
 * require/prefer, that the key table (keys.c) names for many keys, each writing the field at the
 * key's offset. Pure: no system calls. See keys.h. */
#include "keys.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int parse_string(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        if (!*e->value)
                return bad_value(err, s, e, "'%s' needs a value", k->name);
        char *v = strdup(e->value);
        if (!v)
                return error_set(err, ENOMEM, "cannot allocate");
        *FIELD(s, k, char *) = v;
        return 0;
}

int parse_abs_path(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err)
{
        if (e->value[0] != '/')
                return bad_value(err, s, e, "'%s' must be an absolute path inside the container",
                                 k->name);
        return parse_string(s, k, e, err);
}

int bool_word(const char *v, bool *ret)
{
        static const char *const yes[] = {"yes", "true", "on", "1"};
        static const char *const no[] = {"no", "false", "off", "0"};
        for (size_t i = 0; i < 4; i++) {
                if (!strcmp(v, yes[i]))
                        return *ret = true, 0;
                if (!strcmp(v, no[i]))
                        return *ret = false, 0;
        }
        return -1;
}

int parse_bool(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        if (bool_word(e->value, FIELD(s, k, bool)) < 0)
                return bad_value(err, s, e, "'%s' must be yes or no, not '%s'", k->name, e->value);
        return 0;
}

/* A decimal number in [0, max]; the whole string must be the number. */
int parse_u32(const char *v, uint32_t max, uint32_t *ret)
{
        char *end;
        if (!isdigit((unsigned char)*v))
                return -1;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 10);
        if (errno || *end || n > max)
                return -1;
        *ret = (uint32_t)n;
        return 0;
}

int parse_mode(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        if (strcmp(e->value, "require") && strcmp(e->value, "prefer"))
                return bad_value(err, s, e, "'%s' must be require or prefer, not '%s'", k->name,
                                 e->value);
        *FIELD(s, k, bool) = !strcmp(e->value, "require");
        return 0;
}
