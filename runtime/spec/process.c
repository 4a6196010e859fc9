/* process.c - the parsers of [container] hostname, [namespaces] mount and [process]: what runs,
 * as whom, with what environment, terminal and file descriptors. Pure. See keys.h. */
#include "keys.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/words.h"
#include "base/syntax.h"

int parse_hostname(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err)
{
        size_t n = strlen(e->value);
        if (n == 0 || n > 64)
                return bad_value(err, s, e, "hostname must be 1 to 64 characters long");
        for (const char *p = e->value; *p; p++)
                if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.')
                        return bad_value(err, s, e,
                                         "hostname '%s' may hold only letters, digits, '-' and "
                                         "'.'",
                                         e->value);
        return parse_string(s, k, e, err);
}

int parse_terminal(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err)
{
        bool b;
        if (!strcmp(e->value, "auto"))
                s->terminal = TERMINAL_AUTO;
        else if (bool_word(e->value, &b) == 0)
                s->terminal = b ? TERMINAL_YES : TERMINAL_NO;
        else
                return bad_value(err, s, e, "'%s' must be yes, no or auto, not '%s'", k->name,
                                 e->value);
        return 0;
}

int parse_mount_ns(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err)
{
        bool b;
        (void)k;
        if (bool_word(e->value, &b) < 0 || !b)
                return bad_value(err, s, e,
                                 "the mount namespace is always new; 'mount' can only be yes");
        return 0;
}

int parse_args(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        char **v = NULL;
        size_t n = 0;
        (void)k;
        if (words_split(e->raw, &v, &n, err) < 0)
                return error_at(err, s->path, e->line, "args: %s", err->msg);
        if (n == 0) {
                words_free(v);
                return bad_value(err, s, e, "'args' needs at least the program to run");
        }
        s->args = v;
        return 0;
}

int parse_env(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        const char *eq = strchr(e->value, '=');
        (void)k;
        if (!eq || eq == e->value)
                return bad_value(err, s, e, "env must be NAME=VALUE, not '%s'", e->value);
        size_t namelen = (size_t)(eq - e->value);
        for (size_t i = 0; i < namelen; i++) {
                char c = e->value[i];
                if (!(c == '_' || isalpha((unsigned char)c) || (i && isdigit((unsigned char)c))))
                        return bad_value(err, s, e, "invalid environment variable name '%.*s'",
                                         (int)namelen, e->value);
        }
        for (size_t i = 0; i < s->nenv; i++)
                if (!strncmp(s->env[i], e->value, namelen + 1))
                        return bad_value(err, s, e, "environment variable '%.*s' is set twice",
                                         (int)namelen, e->value);
        if (s->nenv >= SPEC_MAX_ENV)
                return bad_value(err, s, e, "more than %d env entries", SPEC_MAX_ENV);
        char **nv = realloc(s->env, (s->nenv + 2) * sizeof *nv);
        if (!nv)
                return error_set(err, ENOMEM, "cannot allocate");
        s->env = nv;
        if (!(nv[s->nenv] = strdup(e->value)))
                return error_set(err, ENOMEM, "cannot allocate");
        nv[++s->nenv] = NULL;
        return 0;
}

int parse_user(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        bool has_gid = false;
        (void)k;
        /* (uid_t)-1 means "unchanged" to setresuid(2), so it cannot be a user (syntax.h) */
        if (syntax_uid_gid(e->value, &s->uid, &s->gid, &has_gid) < 0)
                return bad_value(err, s, e,
                                 "user must be numeric UID or UID:GID (for example 1000:1000), "
                                 "not '%s'",
                                 e->value);
        if (!has_gid)
                s->gid = s->uid;
        return 0;
}

int parse_groups(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        char buf[1024];
        (void)k;
        if (strlen(e->value) >= sizeof buf)
                return bad_value(err, s, e, "groups list is too long");
        strcpy(buf, e->value);
        s->ngroups = 0;
        s->groups_set = true;
        for (char *save, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
                uint32_t g;
                if (parse_u32(t, UINT32_MAX - 1, &g) < 0)
                        return bad_value(err, s, e, "group '%s' is not a numeric gid", t);
                if (s->ngroups == SPEC_MAX_GROUPS)
                        return bad_value(err, s, e, "more than %d groups", SPEC_MAX_GROUPS);
                s->groups[s->ngroups++] = g;
        }
        return 0;
}

int parse_umask(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        char *end;
        (void)k;
        unsigned long m = strtoul(e->value, &end, 8);
        if (!*e->value || *end || m > 0777)
                return bad_value(err, s, e, "umask must be octal from 0000 to 0777, not '%s'",
                                 e->value);
        s->umask = (mode_t)m;
        return 0;
}

/* --- [process] pass_fds ------------------------------------------------------------------ */

int parse_fds(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        char buf[1024];
        (void)k;
        if (strlen(e->value) >= sizeof buf)
                return bad_value(err, s, e, "pass_fds list is too long");
        strcpy(buf, e->value);
        s->npass_fds = 0;
        for (char *save, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
                uint32_t fd;
                if (parse_u32(t, 1u << 20, &fd) < 0)
                        return bad_value(err, s, e, "pass_fds: '%s' is not a file descriptor", t);
                if (fd <= 2)
                        return bad_value(err, s, e,
                                         "pass_fds: fds 0, 1 and 2 always reach the workload");
                if (s->npass_fds == SPEC_MAX_FDS)
                        return bad_value(err, s, e, "more than %d pass_fds", SPEC_MAX_FDS);
                s->pass_fds[s->npass_fds++] = (int)fd;
        }
        return 0;
}
