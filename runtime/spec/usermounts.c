/* usermounts.c - the parsers of [mounts]: each bind and tmpfs line becomes one struct
 * spec_mount, checked (an absolute destination without '..', known options), in the order the
 * spec gives them; cgroup says whether the container's cgroup is mounted. Pure. See keys.h. */
#include "keys.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "base/words.h"
#include "base/syntax.h"

static int add_mount(struct spec *s, const struct ini_entry *e, struct spec_mount **ret,
                     struct error *err)
{
        if (s->nmounts == SPEC_MAX_MOUNTS)
                return bad_value(err, s, e, "more than %d mounts", SPEC_MAX_MOUNTS);
        *ret = &s->mounts[s->nmounts++];
        memset(*ret, 0, sizeof **ret);
        (*ret)->line = e->line;
        return 0;
}

/* Options common to bind and tmpfs; returns 1 when `o` is not one of them. */
static int mount_flag(const char *o, unsigned *opts)
{
        static const struct {
                const char *name;
                unsigned set, clear;
        } names[] = {
                {"ro", SPEC_MNT_RO, 0},         {"rw", 0, SPEC_MNT_RO},
                {"nosuid", SPEC_MNT_NOSUID, 0}, {"nodev", SPEC_MNT_NODEV, 0},
                {"noexec", SPEC_MNT_NOEXEC, 0},
        };
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
                if (!strcmp(o, names[i].name)) {
                        *opts = (*opts | names[i].set) & ~names[i].clear;
                        return 0;
                }
        return 1;
}

int parse_bind(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        _cleanup_free_ char *opts = NULL;
        struct spec_mount *m = NULL;
        char **w = NULL;
        size_t n = 0;
        (void)k;
        if (words_split(e->raw, &w, &n, err) < 0)
                return error_at(err, s->path, e->line, "bind: %s", err->msg);
        if (n < 2 || n > 3) {
                words_free(w);
                return bad_value(err, s, e, "bind must be 'SOURCE DESTINATION [OPTIONS]'");
        }
        if (add_mount(s, e, &m, err) < 0) {
                words_free(w);
                return -1;
        }
        m->kind = SPEC_MOUNT_BIND;
        m->src = w[0];
        m->dst = w[1];
        opts = n == 3 ? w[2] : NULL;
        free(w);
        if (!syntax_clean_path(m->dst))
                return bad_value(err, s, e,
                                 "bind destination '%s' must be an absolute path without '..'",
                                 m->dst);
        if (!opts)
                return 0;
        for (char *save, *o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
                if (!strcmp(o, "recursive") || !strcmp(o, "rec"))
                        m->opts |= SPEC_MNT_RECURSIVE;
                else if (mount_flag(o, &m->opts))
                        return bad_value(err, s, e,
                                         "unknown bind option '%s' (known: ro, rw, nosuid, nodev, "
                                         "noexec, recursive)",
                                         o);
        }
        return 0;
}

int parse_tmpfs(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        struct spec_mount *m = NULL;
        char **w = NULL;
        size_t n = 0;
        char data[256] = "";
        (void)k;
        if (words_split(e->raw, &w, &n, err) < 0)
                return error_at(err, s->path, e->line, "tmpfs: %s", err->msg);
        if (n < 1 || n > 2 || add_mount(s, e, &m, err) < 0) {
                words_free(w);
                if (n < 1 || n > 2)
                        return bad_value(err, s, e, "tmpfs must be 'DESTINATION [OPTIONS]'");
                return -1;
        }
        m->kind = SPEC_MOUNT_TMPFS;
        m->dst = w[0];
        _cleanup_free_ char *opts = n == 2 ? w[1] : NULL;
        free(w);
        if (!syntax_clean_path(m->dst))
                return bad_value(err, s, e,
                                 "tmpfs destination '%s' must be an absolute path without '..'",
                                 m->dst);
        m->opts = SPEC_MNT_NOSUID | SPEC_MNT_NODEV;
        for (char *save, *o = opts ? strtok_r(opts, ",", &save) : NULL; o;
             o = strtok_r(NULL, ",", &save)) {
                char *eq = strchr(o, '=');
                if (!eq) {
                        if (mount_flag(o, &m->opts))
                                return bad_value(err, s, e,
                                                 "unknown tmpfs option '%s' (known: size=, mode=, "
                                                 "nr_inodes=, ro, rw, nosuid, nodev, noexec)",
                                                 o);
                        continue;
                }
                *eq = '\0';
                const char *v = eq + 1;
                char *end;
                if (!strcmp(o, "size") || !strcmp(o, "nr_inodes")) {
                        unsigned long long num = strtoull(v, &end, 10);
                        if (!isdigit((unsigned char)*v) || num == 0 ||
                            (*end && (strchr("kKmMgG%", *end) == NULL || end[1])))
                                return bad_value(
                                        err, s, e,
                                        "tmpfs %s must be a number with an optional k, m, g or %% "
                                        "suffix, not '%s'",
                                        o, v);
                } else if (!strcmp(o, "mode")) {
                        unsigned long mode = strtoul(v, &end, 8);
                        if (!*v || *end || mode > 07777)
                                return bad_value(err, s, e,
                                                 "tmpfs mode must be octal, such as 1777, not '%s'",
                                                 v);
                } else {
                        return bad_value(err, s, e,
                                         "unknown tmpfs option '%s' (known: size=, mode=, "
                                         "nr_inodes=, ro, rw, nosuid, nodev, noexec)",
                                         o);
                }
                size_t used = strlen(data);
                snprintf(data + used, sizeof data - used, "%s%s=%s", used ? "," : "", o, v);
        }
        if (*data && !(m->data = strdup(data)))
                return error_set(err, ENOMEM, "cannot allocate");
        return 0;
}

/* cgroup = no | ro | rw: the container's own cgroup at /sys/fs/cgroup (plan/fs.c, and
 * steps/mounts.c for what it is on each kind of host) */
int parse_cgroup_mount(struct spec *s, const struct key *k, const struct ini_entry *e,
                       struct error *err)
{
        bool b;
        (void)k;
        if (!strcmp(e->value, "ro"))
                s->cgroup_mount = SPEC_CGROUP_MOUNT_RO;
        else if (!strcmp(e->value, "rw"))
                s->cgroup_mount = SPEC_CGROUP_MOUNT_RW;
        else if (bool_word(e->value, &b) == 0 && !b)
                s->cgroup_mount = SPEC_CGROUP_MOUNT_NO;
        else
                return bad_value(err, s, e, "cgroup must be no, ro or rw, not '%s'", e->value);
        return 0;
}
