/* spec.c - the spec key table, one parser per kind of value, and the cross-field checks.
 * Pure: reads a FILE *, allocates, makes no other system calls. See spec.h. */
#include "spec.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/capability.h>
#include <sys/resource.h>

#include "capname.h"
#include "cleanup.h"
#include "ini.h"
#include "levels.h"
#include "seccomp_profile.h"
#include "words.h"

struct key;
typedef int (*key_parser)(struct spec *s, const struct key *k, const struct ini_entry *e,
                          struct error *err);

enum { KEY_REPEAT = 1 }; /* may appear more than once */

struct key {
        const char *section;
        const char *name;
        key_parser parse;
        size_t offset; /* of the field in struct spec, for the generic parsers */
        unsigned flags;
};

#define FIELD(s, k, type) ((type *)((char *)(s) + (k)->offset))

/* Every error about a value names the file, the line and the key. */
#define bad_value(err, s, e, ...) error_at(err, (s)->path, (e)->line, __VA_ARGS__)

static int parse_string(struct spec *s, const struct key *k, const struct ini_entry *e,
                        struct error *err)
{
        if (!*e->value)
                return bad_value(err, s, e, "'%s' needs a value", k->name);
        char *v = strdup(e->value);
        if (!v)
                return error_set(err, ENOMEM, "cannot allocate");
        *FIELD(s, k, char *) = v;
        return 0;
}

static int parse_abs_path(struct spec *s, const struct key *k, const struct ini_entry *e,
                          struct error *err)
{
        if (e->value[0] != '/')
                return bad_value(err, s, e, "'%s' must be an absolute path inside the container",
                                 k->name);
        return parse_string(s, k, e, err);
}

static int parse_hostname(struct spec *s, const struct key *k, const struct ini_entry *e,
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

static int bool_word(const char *v, bool *ret)
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

static int parse_bool(struct spec *s, const struct key *k, const struct ini_entry *e,
                      struct error *err)
{
        if (bool_word(e->value, FIELD(s, k, bool)) < 0)
                return bad_value(err, s, e, "'%s' must be yes or no, not '%s'", k->name, e->value);
        return 0;
}

static int parse_terminal(struct spec *s, const struct key *k, const struct ini_entry *e,
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

static int parse_mount_ns(struct spec *s, const struct key *k, const struct ini_entry *e,
                          struct error *err)
{
        bool b;
        (void)k;
        if (bool_word(e->value, &b) < 0 || !b)
                return bad_value(err, s, e,
                                 "the mount namespace is always new; 'mount' can only be yes");
        return 0;
}

/* A decimal number in [0, max]; the whole string must be the number. */
static int parse_u32(const char *v, uint32_t max, uint32_t *ret)
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

static int parse_args(struct spec *s, const struct key *k, const struct ini_entry *e,
                      struct error *err)
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

static int parse_env(struct spec *s, const struct key *k, const struct ini_entry *e,
                     struct error *err)
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

static int parse_user(struct spec *s, const struct key *k, const struct ini_entry *e,
                      struct error *err)
{
        char buf[64];
        (void)k;
        if (strlen(e->value) >= sizeof buf)
                return bad_value(err, s, e, "user must be UID or UID:GID, not '%s'", e->value);
        strcpy(buf, e->value);
        char *colon = strchr(buf, ':');
        if (colon)
                *colon = '\0';
        /* (uid_t)-1 means "unchanged" to setresuid(2), so it cannot be a user */
        if (parse_u32(buf, UINT32_MAX - 1, &s->uid) < 0 ||
            (colon && parse_u32(colon + 1, UINT32_MAX - 1, &s->gid) < 0))
                return bad_value(err, s, e,
                                 "user must be numeric UID or UID:GID (for example 1000:1000), "
                                 "not '%s'",
                                 e->value);
        if (!colon)
                s->gid = s->uid;
        return 0;
}

static int parse_groups(struct spec *s, const struct key *k, const struct ini_entry *e,
                        struct error *err)
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

static int parse_umask(struct spec *s, const struct key *k, const struct ini_entry *e,
                       struct error *err)
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

static int parse_idmap(struct spec *s, const struct key *k, const struct ini_entry *e,
                       struct error *err)
{
        struct spec_idmap *m = FIELD(s, k, struct spec_idmap);
        if (!m->line)
                m->line = e->line;
        if (!strcmp(e->value, "auto")) {
                if (m->n)
                        return bad_value(err, s, e, "'%s = auto' cannot be mixed with ranges",
                                         k->name);
                if (m->is_auto)
                        return bad_value(err, s, e, "'%s = auto' is given twice", k->name);
                m->is_auto = true;
                return 0;
        }
        if (m->is_auto)
                return bad_value(err, s, e, "'%s = auto' cannot be mixed with ranges", k->name);
        char **w = NULL;
        size_t n = 0;
        struct spec_range r = {.line = e->line};
        if (words_split(e->value, &w, &n, err) < 0)
                return error_at(err, s->path, e->line, "%s", err->msg);
        int bad = n != 3 || parse_u32(w[0], UINT32_MAX - 1, &r.inside) < 0 ||
                  parse_u32(w[1], UINT32_MAX - 1, &r.outside) < 0 ||
                  parse_u32(w[2], UINT32_MAX, &r.count) < 0;
        words_free(w);
        if (bad)
                return bad_value(err, s, e,
                                 "'%s' must be 'INSIDE OUTSIDE COUNT' (for example 0 1000 1) or "
                                 "auto, not '%s'",
                                 k->name, e->value);
        if (r.count == 0)
                return bad_value(err, s, e, "%s range has a count of 0", k->name);
        if ((uint64_t)r.inside + r.count > UINT32_MAX || (uint64_t)r.outside + r.count > UINT32_MAX)
                return bad_value(err, s, e, "%s range '%s' runs past id 4294967294", k->name,
                                 e->value);
        for (size_t i = 0; i < m->n; i++) {
                const struct spec_range *o = &m->ranges[i];
                if (r.inside < o->inside + o->count && o->inside < r.inside + r.count)
                        return bad_value(err, s, e,
                                         "%s range overlaps the range on line %u inside the "
                                         "container",
                                         k->name, o->line);
                if (r.outside < o->outside + o->count && o->outside < r.outside + r.count)
                        return bad_value(err, s, e,
                                         "%s range overlaps the range on line %u outside the "
                                         "container",
                                         k->name, o->line);
        }
        if (m->n == SPEC_MAX_RANGES)
                return bad_value(err, s, e, "more than %d %s ranges", SPEC_MAX_RANGES, k->name);
        m->ranges[m->n++] = r;
        return 0;
}

static bool clean_abs_path(const char *p)
{
        if (p[0] != '/')
                return false;
        for (const char *c = p; *c; c++)
                if (c[0] == '/' && c[1] == '.' && c[2] == '.' && (c[3] == '/' || !c[3]))
                        return false;
        return true;
}

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

static int parse_bind(struct spec *s, const struct key *k, const struct ini_entry *e,
                      struct error *err)
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
        if (!clean_abs_path(m->dst))
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

static int parse_tmpfs(struct spec *s, const struct key *k, const struct ini_entry *e,
                       struct error *err)
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
        if (!clean_abs_path(m->dst))
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

/* --- [process] pass_fds ------------------------------------------------------------------ */

static int parse_fds(struct spec *s, const struct key *k, const struct ini_entry *e,
                     struct error *err)
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

/* --- [limits] ---------------------------------------------------------------------------- */

static const char *const limit_names[SPEC_NLIMITS] = {
        [RLIMIT_CPU] = "cpu",           [RLIMIT_FSIZE] = "fsize",
        [RLIMIT_DATA] = "data",         [RLIMIT_STACK] = "stack",
        [RLIMIT_CORE] = "core",         [RLIMIT_RSS] = "rss",
        [RLIMIT_NPROC] = "nproc",       [RLIMIT_NOFILE] = "nofile",
        [RLIMIT_MEMLOCK] = "memlock",   [RLIMIT_AS] = "as",
        [RLIMIT_LOCKS] = "locks",       [RLIMIT_SIGPENDING] = "sigpending",
        [RLIMIT_MSGQUEUE] = "msgqueue", [RLIMIT_NICE] = "nice",
        [RLIMIT_RTPRIO] = "rtprio",     [RLIMIT_RTTIME] = "rttime",
};

const char *spec_limit_name(int resource)
{
        return resource >= 0 && resource < SPEC_NLIMITS ? limit_names[resource] : NULL;
}

/* "unlimited", or a number with an optional k, m or g (powers of 1024). */
static int limit_value(const char *v, uint64_t *ret)
{
        char *end;
        if (!strcmp(v, "unlimited") || !strcmp(v, "infinity")) {
                *ret = RLIM_INFINITY;
                return 0;
        }
        if (!isdigit((unsigned char)*v))
                return -1;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 10);
        unsigned shift = 0;
        if (*end == 'k' || *end == 'K')
                shift = 10;
        else if (*end == 'm' || *end == 'M')
                shift = 20;
        else if (*end == 'g' || *end == 'G')
                shift = 30;
        if (errno || (shift && end[1]) || (!shift && *end) || n > (RLIM_INFINITY - 1) >> shift)
                return -1;
        *ret = (uint64_t)n << shift;
        return 0;
}

static int parse_limit(struct spec *s, const struct key *k, const struct ini_entry *e,
                       struct error *err)
{
        struct spec_limit *l = &s->limits[k->offset];
        char buf[128];
        if (strlen(e->value) >= sizeof buf)
                return bad_value(err, s, e, "limit '%s' is too long", e->value);
        strcpy(buf, e->value);
        char *colon = strchr(buf, ':');
        if (colon)
                *colon = '\0';
        if (limit_value(buf, &l->soft) < 0 || limit_value(colon ? colon + 1 : buf, &l->hard) < 0)
                return bad_value(err, s, e,
                                 "limit '%s' must be a number (k, m, g allowed), 'unlimited', or "
                                 "SOFT:HARD, not '%s'",
                                 k->name, e->value);
        if (l->soft > l->hard)
                return bad_value(err, s, e, "limit '%s': the soft value is above the hard one",
                                 k->name);
        l->set = true;
        return 0;
}

/* --- [resources] ------------------------------------------------------------------------- */

/* Bytes: a number with K, M, G or T (powers of 1024), or max. */
static int bytes_value(const char *v, int64_t *ret)
{
        if (!strcmp(v, "max")) {
                *ret = CGROUP_MAX;
                return 0;
        }
        if (!isdigit((unsigned char)*v))
                return -1;
        char *end;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 10);
        const char *units = "KMGT";
        const char *u = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
        unsigned shift = u ? 10 * (unsigned)(u - units + 1) : 0;
        if (errno || (*end && (!u || end[1])) || n > (unsigned long long)(INT64_MAX >> shift))
                return -1;
        *ret = (int64_t)(n << shift);
        return 0;
}

static int parse_res_bytes(struct spec *s, const struct key *k, const struct ini_entry *e,
                           struct error *err)
{
        int64_t v;
        if (bytes_value(e->value, &v) < 0)
                return bad_value(err, s, e,
                                 "'%s' must be a size in bytes (K, M, G, T allowed, as in 256M) "
                                 "or max, not '%s'",
                                 k->name, e->value);
        *FIELD(s, k, int64_t) = v;
        s->resources.need |= CGROUP_BIT(CGROUP_MEMORY);
        return 0;
}

static int parse_cpus(struct spec *s, const struct key *k, const struct ini_entry *e,
                      struct error *err)
{
        (void)k;
        char *end;
        errno = 0;
        double v = strtod(e->value, &end);
        if (errno || *end || !isdigit((unsigned char)e->value[0]) || v < 0.01 || v > 1024)
                return bad_value(err, s, e,
                                 "'cpus' must be a number of CPUs from 0.01 to 1024, as in 1.5, "
                                 "not '%s'",
                                 e->value);
        s->resources.cpu_period = 100000;
        s->resources.cpu_quota = (uint32_t)(v * 100000 + 0.5);
        s->resources.need |= CGROUP_BIT(CGROUP_CPU);
        return 0;
}

static int parse_weight(struct spec *s, const struct key *k, const struct ini_entry *e,
                        struct error *err)
{
        uint32_t v;
        if (parse_u32(e->value, 10000, &v) < 0 || v < 1)
                return bad_value(err, s, e, "'%s' must be a number from 1 to 10000, not '%s'",
                                 k->name, e->value);
        *FIELD(s, k, uint32_t) = v;
        s->resources.need |= CGROUP_BIT(!strcmp(k->name, "io_weight") ? CGROUP_IO : CGROUP_CPU);
        return 0;
}

static int parse_pids(struct spec *s, const struct key *k, const struct ini_entry *e,
                      struct error *err)
{
        (void)k;
        uint32_t v;
        if (!strcmp(e->value, "max"))
                s->resources.pids_max = CGROUP_MAX;
        else if (parse_u32(e->value, 4194304, &v) == 0 && v >= 1)
                s->resources.pids_max = v;
        else
                return bad_value(err, s, e,
                                 "'pids' must be a number of processes from 1 up, or max, not "
                                 "'%s'",
                                 e->value);
        s->resources.need |= CGROUP_BIT(CGROUP_PIDS);
        return 0;
}

/* --- [security] -------------------------------------------------------------------------- */

static bool in_default_level; /* guards the recursion of `default` inside the default level */

/* The raw value of section.key in the default level, for the word `default` in lists. */
static char *default_value(const char *section, const char *key)
{
        const char *text = levels_text("default");
        struct ini_file ini = {0};
        struct error err;
        char *v = NULL;
        if (!text)
                return NULL;
        if (ini_parse_text(text, strlen(text), "level default", &ini, &err) == 0)
                for (size_t i = 0; i < ini.n && !v; i++)
                        if (ini.entries[i].key && !strcmp(ini.entries[i].section, section) &&
                            !strcmp(ini.entries[i].key, key))
                                v = strdup(ini.entries[i].value);
        ini_free(&ini);
        return v;
}

/* One capability name: NET_RAW, CAP_NET_RAW or net_raw (capname.c). */
static int cap_word(struct spec *s, const struct ini_entry *e, const char *w, uint64_t *ret,
                    struct error *err)
{
        int v = capname_parse(w);
        if (v >= 0) {
                *ret = 1ULL << v;
                return 0;
        }
        const char *bare = strncasecmp(w, "CAP_", 4) ? w : w + 4;
        if (!isalpha((unsigned char)*bare) || strlen(bare) > 40)
                return bad_value(err, s, e, "'%s' is not a capability name", bare);
        char upper[64];
        size_t i = 0;
        for (; bare[i] && i < sizeof upper - 1; i++)
                upper[i] = (char)toupper((unsigned char)bare[i]);
        upper[i] = '\0';
        const char *best = NULL;
        size_t bestd = 4;
        for (int c = 0; c <= CAP_LAST_CAP; c++) {
                const char *cn = capname_of(c);
                size_t d = cn ? words_distance(upper, cn) : SIZE_MAX;
                if (d < bestd)
                        bestd = d, best = cn;
        }
        if (best)
                return bad_value(err, s, e, "unknown capability '%s'; did you mean '%s'?", bare,
                                 best);
        return bad_value(err, s, e, "unknown capability '%s' (see capabilities(7))", bare);
}

static uint64_t all_caps(void)
{
        return CAP_LAST_CAP >= 63 ? ~0ULL : (1ULL << (CAP_LAST_CAP + 1)) - 1;
}

/* Lists ([security] capabilities, masked_paths, readonly_paths) take one of:
 *   default | none | all (capabilities only), then edits: +ITEM -ITEM
 *   edits alone: +ITEM -ITEM, applied to the level's list
 *   an explicit list: ITEM ITEM ... */
enum list_base { LIST_EDIT, LIST_DEFAULT, LIST_NONE, LIST_ALL, LIST_EXPLICIT };

static int list_base(struct spec *s, const struct ini_entry *e, char **w, size_t n, bool has_all,
                     enum list_base *ret, size_t *ret_first, struct error *err)
{
        if (n == 0)
                return bad_value(err, s, e, "'%s' needs a value", e->key);
        *ret_first = 1;
        if (!strcmp(w[0], "default"))
                *ret = LIST_DEFAULT;
        else if (!strcmp(w[0], "none"))
                *ret = LIST_NONE;
        else if (has_all && !strcmp(w[0], "all"))
                *ret = LIST_ALL;
        else if (w[0][0] == '+' || w[0][0] == '-')
                *ret = LIST_EDIT, *ret_first = 0;
        else
                *ret = LIST_EXPLICIT, *ret_first = 0;
        for (size_t i = *ret_first; i < n; i++) {
                bool edit = w[i][0] == '+' || w[i][0] == '-';
                if (*ret == LIST_EXPLICIT && edit)
                        return bad_value(err, s, e,
                                         "'%s': '%s' edits a list, so the value must start with "
                                         "default, none%s, or only hold edits",
                                         e->key, w[i], has_all ? ", all" : "");
                if (*ret != LIST_EXPLICIT && !edit)
                        return bad_value(err, s, e,
                                         "'%s': after '%s' every item needs + or - in front, not "
                                         "'%s'",
                                         e->key, *ret == LIST_EDIT ? w[0] : w[0], w[i]);
                if (!strcmp(w[i], "default") || !strcmp(w[i], "none") || !strcmp(w[i], "all"))
                        return bad_value(err, s, e, "'%s': '%s' may only come first", e->key, w[i]);
        }
        return 0;
}

static int parse_caps(struct spec *s, const struct key *k, const struct ini_entry *e,
                      struct error *err)
{
        _cleanup_free_ char *dflt = NULL;
        enum list_base base;
        size_t first, n = 0;
        char **w = NULL;
        uint64_t v = 0, bit = 0;
        int r = -1;
        (void)k;
        if (words_split(e->value, &w, &n, err) < 0)
                return error_at(err, s->path, e->line, "%s", err->msg);
        if (list_base(s, e, w, n, true, &base, &first, err) < 0)
                goto out;
        switch (base) {
        case LIST_EDIT:
                v = s->caps;
                break;
        case LIST_NONE:
        case LIST_EXPLICIT:
                v = 0;
                break;
        case LIST_ALL:
                v = all_caps();
                if (s->origins[SPEC_KEY_SECURITY_CAPABILITIES].kind == SPEC_FROM_FILE)
                        s->caps_file |= v;
                break;
        case LIST_DEFAULT: {
                /* on the heap: a 19 KB struct spec in this frame put every call below it (and
                 * this function is called for every capabilities line) 19 KB deeper into
                 * pages crib must fault in */
                _cleanup_free_ struct spec *d = calloc(1, sizeof *d);
                struct ini_entry de = {.line = 0, .section = "security", .key = "capabilities"};
                if (!d) {
                        error_set(err, ENOMEM, "cannot allocate");
                        goto out;
                }
                if (in_default_level || !(dflt = default_value("security", "capabilities"))) {
                        bad_value(err, s, e, "the default level has no capabilities list");
                        goto out;
                }
                d->path = "level default";
                de.value = dflt;
                in_default_level = true;
                int dr = parse_caps(d, k, &de, err);
                in_default_level = false;
                if (dr < 0)
                        goto out;
                v = d->caps;
                break;
        }
        }
        for (size_t i = first; i < n; i++) {
                const char *name = w[i][0] == '+' || w[i][0] == '-' ? w[i] + 1 : w[i];
                if (cap_word(s, e, name, &bit, err) < 0)
                        goto out;
                if (w[i][0] == '-') {
                        v &= ~bit;
                        s->caps_file &= ~bit;
                } else {
                        v |= bit, s->caps_named |= bit;
                        if (s->origins[SPEC_KEY_SECURITY_CAPABILITIES].kind == SPEC_FROM_FILE)
                                s->caps_file |= bit;
                }
        }
        if (base == LIST_DEFAULT)
                s->caps_named |= v;
        s->caps = v;
        r = 0;
out:
        words_free(w);
        return r;
}

static int paths_add(struct spec *s, const struct ini_entry *e, struct spec_paths *l, const char *p,
                     struct error *err)
{
        for (size_t i = 0; i < l->n; i++)
                if (!strcmp(l->items[i], p))
                        return 0;
        if (l->n == SPEC_MAX_PATHS)
                return bad_value(err, s, e, "more than %d paths in '%s'", SPEC_MAX_PATHS, e->key);
        if (!(l->items[l->n] = strdup(p)))
                return error_set(err, ENOMEM, "cannot allocate");
        l->n++;
        return 0;
}

static void paths_remove(struct spec_paths *l, const char *p)
{
        for (size_t i = 0; i < l->n; i++)
                if (!strcmp(l->items[i], p)) {
                        free(l->items[i]);
                        memmove(&l->items[i], &l->items[i + 1],
                                (l->n - i - 1) * sizeof l->items[0]);
                        l->n--;
                        return;
                }
}

static void paths_clear(struct spec_paths *l)
{
        for (size_t i = 0; i < l->n; i++)
                free(l->items[i]);
        l->n = 0;
}

static bool clean_abs_path(const char *p);

static int parse_paths(struct spec *s, const struct key *k, const struct ini_entry *e,
                       struct error *err)
{
        struct spec_paths *l = FIELD(s, k, struct spec_paths);
        enum list_base base;
        size_t first, n = 0;
        char **w = NULL;
        int r = -1;
        if (words_split(e->value, &w, &n, err) < 0)
                return error_at(err, s->path, e->line, "%s", err->msg);
        if (list_base(s, e, w, n, false, &base, &first, err) < 0)
                goto out;
        if (base != LIST_EDIT)
                paths_clear(l);
        if (base == LIST_DEFAULT) {
                _cleanup_free_ char *dflt =
                        in_default_level ? NULL : default_value("security", k->name);
                struct ini_entry de = {
                        .section = "security", .key = (char *)k->name, .value = dflt};
                if (!dflt) {
                        bad_value(err, s, e, "the default level has no '%s' list", k->name);
                        goto out;
                }
                in_default_level = true;
                int dr = parse_paths(s, k, &de, err);
                in_default_level = false;
                if (dr < 0)
                        goto out;
        }
        for (size_t i = first; i < n; i++) {
                bool edit = w[i][0] == '+' || w[i][0] == '-';
                const char *p = edit ? w[i] + 1 : w[i];
                if (!clean_abs_path(p)) {
                        bad_value(err, s, e,
                                  "'%s': '%s' must be an absolute path inside the container, "
                                  "without '..'",
                                  k->name, p);
                        goto out;
                }
                if (w[i][0] == '-')
                        paths_remove(l, p);
                else if (paths_add(s, e, l, p, err) < 0)
                        goto out;
        }
        r = 0;
out:
        words_free(w);
        return r;
}

static int parse_seccomp(struct spec *s, const struct key *k, const struct ini_entry *e,
                         struct error *err)
{
        (void)k;
        if (strcmp(e->value, "unconfined") && !profile_builtin_text(e->value) &&
            !strchr(e->value, '/'))
                return bad_value(err, s, e,
                                 "unknown seccomp profile '%s' (built in: default, strict; "
                                 "'unconfined'; or a path such as ./my.profile)",
                                 e->value);
        free(s->seccomp);
        free(s->seccomp_text);
        s->seccomp_text = NULL;
        if (!(s->seccomp = strdup(e->value)))
                return error_set(err, ENOMEM, "cannot allocate");
        return 0;
}

static int parse_mode(struct spec *s, const struct key *k, const struct ini_entry *e,
                      struct error *err)
{
        if (strcmp(e->value, "require") && strcmp(e->value, "prefer"))
                return bad_value(err, s, e, "'%s' must be require or prefer, not '%s'", k->name,
                                 e->value);
        *FIELD(s, k, bool) = !strcmp(e->value, "require");
        return 0;
}

static int parse_apparmor(struct spec *s, const struct key *k, const struct ini_entry *e,
                          struct error *err)
{
        (void)k;
        for (const char *c = e->value; *c; c++)
                if (!isalnum((unsigned char)*c) && !strchr("-_./", *c))
                        return bad_value(err, s, e,
                                         "AppArmor profile name '%s' may hold only letters, digits "
                                         "and - _ . /",
                                         e->value);
        if (!*e->value || strlen(e->value) > 200)
                return bad_value(err, s, e, "'apparmor' needs a profile name or unconfined");
        free(s->apparmor);
        if (!(s->apparmor = strdup(e->value)))
                return error_set(err, ENOMEM, "cannot allocate");
        return 0;
}

/* [security] level is applied before every other key (spec_load); here it is only checked. */
static int parse_level(struct spec *s, const struct key *k, const struct ini_entry *e,
                       struct error *err)
{
        (void)k;
        if (!levels_text(e->value)) {
                char known[256] = "";
                for (size_t i = 0; spec_level_name(i); i++)
                        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                                 i ? ", " : "", spec_level_name(i));
                return bad_value(err, s, e, "unknown security level '%s' (known: %s)", e->value,
                                 known);
        }
        return 0;
}

/* [network] */

static const char *const net_modes[] = {
        [SPEC_NET_NONE] = "none",
        [SPEC_NET_HOST] = "host",
        [SPEC_NET_SLIRP4NETNS] = "slirp4netns",
        [SPEC_NET_PASTA] = "pasta",
};

const char *spec_net_mode_name(enum spec_net_mode m)
{
        return (size_t)m < sizeof net_modes / sizeof net_modes[0] ? net_modes[m] : "?";
}

bool spec_net_has_helper(enum spec_net_mode m)
{
        return m == SPEC_NET_SLIRP4NETNS || m == SPEC_NET_PASTA;
}

void spec_port_format(const struct spec_port *p, char *buf, size_t len)
{
        snprintf(buf, len, "%s:%u->%u/%s", p->addr, p->host_port, p->port, p->udp ? "udp" : "tcp");
}

static int parse_net_mode(struct spec *s, const struct key *k, const struct ini_entry *e,
                          struct error *err)
{
        (void)k;
        for (size_t i = 0; i < sizeof net_modes / sizeof net_modes[0]; i++)
                if (!strcmp(e->value, net_modes[i])) {
                        s->net_mode = (enum spec_net_mode)i;
                        return 0;
                }
        return bad_value(err, s, e,
                         "unknown network mode '%s' (known: none, host, slirp4netns, pasta)",
                         e->value);
}

/* An IPv4 address, dotted; copied into `ret` (16 bytes) in its canonical form. */
static int ipv4_word(const char *v, size_t n, char *ret)
{
        char buf[16];
        struct in_addr a;
        if (n == 0 || n >= sizeof buf)
                return -1;
        memcpy(buf, v, n);
        buf[n] = '\0';
        if (inet_pton(AF_INET, buf, &a) != 1)
                return -1;
        inet_ntop(AF_INET, &a, ret, 16);
        return 0;
}

static int port_word(const char *v, size_t n, uint16_t *ret)
{
        char buf[8];
        uint32_t u;
        if (n == 0 || n >= sizeof buf)
                return -1;
        memcpy(buf, v, n);
        buf[n] = '\0';
        if (parse_u32(buf, 65535, &u) < 0 || u == 0)
                return -1;
        *ret = (uint16_t)u;
        return 0;
}

/* publish = [ADDR:]HOSTPORT:PORT[/tcp|/udp] */
static int parse_publish(struct spec *s, const struct key *k, const struct ini_entry *e,
                         struct error *err)
{
        struct spec_port p = {.addr = "0.0.0.0", .line = e->line};
        const char *v = e->value, *slash = strchr(v, '/');
        size_t len = slash ? (size_t)(slash - v) : strlen(v);
        (void)k;
        if (v[0] == '[')
                return bad_value(err, s, e,
                                 "publish: IPv6 host addresses are not supported yet; publish on "
                                 "an IPv4 address (0.0.0.0 for all of the host's)");
        if (slash && !strcmp(slash, "/udp"))
                p.udp = true;
        else if (slash && strcmp(slash, "/tcp"))
                return bad_value(err, s, e, "publish: '%s' is not a protocol (tcp or udp)",
                                 slash + 1);
        const char *c1 = memchr(v, ':', len);
        const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - v)) : NULL;
        const char *hp = v, *cp = c1 ? c1 + 1 : NULL;
        if (c2) {
                if (ipv4_word(v, (size_t)(c1 - v), p.addr) < 0)
                        return bad_value(err, s, e,
                                         "publish: '%.*s' is not an IPv4 address of the host",
                                         (int)(c1 - v), v);
                hp = c1 + 1;
                cp = c2 + 1;
        }
        if (!cp || memchr(cp, ':', len - (size_t)(cp - v)) ||
            port_word(hp, (size_t)(cp - 1 - hp), &p.host_port) < 0 ||
            port_word(cp, len - (size_t)(cp - v), &p.port) < 0)
                return bad_value(err, s, e,
                                 "publish must be [ADDR:]HOSTPORT:PORT[/tcp|/udp] with ports 1 "
                                 "to 65535, as in 127.0.0.1:8080:80, not '%s'",
                                 v);
        for (size_t i = 0; i < s->nports; i++) {
                const struct spec_port *q = &s->ports[i];
                bool any = !strcmp(q->addr, "0.0.0.0") || !strcmp(p.addr, "0.0.0.0");
                if (q->udp == p.udp && q->host_port == p.host_port &&
                    (any || !strcmp(q->addr, p.addr)))
                        return bad_value(err, s, e,
                                         "publish: host port %u/%s is already published on line "
                                         "%u",
                                         p.host_port, p.udp ? "udp" : "tcp", q->line);
        }
        if (s->nports == SPEC_MAX_PORTS)
                return bad_value(err, s, e, "more than %d publish lines", SPEC_MAX_PORTS);
        s->ports[s->nports++] = p;
        return 0;
}

static int parse_dns(struct spec *s, const struct key *k, const struct ini_entry *e,
                     struct error *err)
{
        (void)k;
        if (s->ndns == SPEC_MAX_DNS)
                return bad_value(err, s, e, "more than %d dns lines (resolv.conf(5) reads only %d)",
                                 SPEC_MAX_DNS, SPEC_MAX_DNS);
        if (ipv4_word(e->value, strlen(e->value), s->dns[s->ndns]) < 0)
                return bad_value(err, s, e, "dns: '%s' is not an IPv4 address", e->value);
        s->ndns++;
        return 0;
}

const char *spec_level_name(size_t i)
{
        return levels_name(i);
}

#define F(field) offsetof(struct spec, field)

/* The spec's keys, in the order crib.ini(5) documents them; each row named by its enum
 * spec_key (spec.h). */
#define KEY(id, section, name, parse, offset, flags)                                               \
        [SPEC_KEY_##id] = {section, name, parse, offset, flags}
static const struct key keys[] = {
        KEY(CONTAINER_ROOTFS, "container", "rootfs", parse_string, F(rootfs), 0),
        KEY(CONTAINER_HOSTNAME, "container", "hostname", parse_hostname, F(hostname), 0),
        KEY(CONTAINER_READONLY_ROOTFS, "container", "readonly_rootfs", parse_bool,
            F(readonly_rootfs), 0),
        KEY(PROCESS_ARGS, "process", "args", parse_args, 0, 0),
        KEY(PROCESS_ENV, "process", "env", parse_env, 0, KEY_REPEAT),
        KEY(PROCESS_CWD, "process", "cwd", parse_abs_path, F(cwd), 0),
        KEY(PROCESS_USER, "process", "user", parse_user, 0, 0),
        KEY(PROCESS_GROUPS, "process", "groups", parse_groups, 0, 0),
        KEY(PROCESS_UMASK, "process", "umask", parse_umask, 0, 0),
        KEY(PROCESS_TERMINAL, "process", "terminal", parse_terminal, 0, 0),
        KEY(PROCESS_INIT, "process", "init", parse_bool, F(init), 0),
        KEY(PROCESS_PASS_FDS, "process", "pass_fds", parse_fds, 0, 0),
        KEY(NAMESPACES_USER, "namespaces", "user", parse_bool, F(ns_user), 0),
        KEY(NAMESPACES_MOUNT, "namespaces", "mount", parse_mount_ns, 0, 0),
        KEY(NAMESPACES_PID, "namespaces", "pid", parse_bool, F(ns_pid), 0),
        KEY(NAMESPACES_IPC, "namespaces", "ipc", parse_bool, F(ns_ipc), 0),
        KEY(NAMESPACES_UTS, "namespaces", "uts", parse_bool, F(ns_uts), 0),
        KEY(NAMESPACES_NET, "namespaces", "net", parse_bool, F(ns_net), 0),
        KEY(NAMESPACES_CGROUP, "namespaces", "cgroup", parse_bool, F(ns_cgroup), 0),
        KEY(IDMAP_UID, "idmap", "uid", parse_idmap, F(uidmap), KEY_REPEAT),
        KEY(IDMAP_GID, "idmap", "gid", parse_idmap, F(gidmap), KEY_REPEAT),
        KEY(MOUNTS_BIND, "mounts", "bind", parse_bind, 0, KEY_REPEAT),
        KEY(MOUNTS_TMPFS, "mounts", "tmpfs", parse_tmpfs, 0, KEY_REPEAT),
        KEY(SECURITY_LEVEL, "security", "level", parse_level, 0, 0),
        KEY(SECURITY_CAPABILITIES, "security", "capabilities", parse_caps, 0, 0),
        KEY(SECURITY_NO_NEW_PRIVILEGES, "security", "no_new_privileges", parse_bool,
            F(no_new_privileges), 0),
        KEY(SECURITY_MASKED_PATHS, "security", "masked_paths", parse_paths, F(masked), 0),
        KEY(SECURITY_READONLY_PATHS, "security", "readonly_paths", parse_paths, F(readonly), 0),
        KEY(SECURITY_SECCOMP, "security", "seccomp", parse_seccomp, 0, 0),
        KEY(SECURITY_SECCOMP_MODE, "security", "seccomp_mode", parse_mode, F(seccomp_require), 0),
        KEY(SECURITY_APPARMOR, "security", "apparmor", parse_apparmor, 0, 0),
        KEY(SECURITY_APPARMOR_MODE, "security", "apparmor_mode", parse_mode, F(apparmor_require),
            0),
/* [limits]: the field is the RLIMIT_* number, and the enum follows RLIMIT_* (spec_limit_key) */
#define LIMIT(ID, name) KEY(LIMITS_##ID, "limits", name, parse_limit, RLIMIT_##ID, 0)
        LIMIT(CPU, "cpu"),
        LIMIT(FSIZE, "fsize"),
        LIMIT(DATA, "data"),
        LIMIT(STACK, "stack"),
        LIMIT(CORE, "core"),
        LIMIT(RSS, "rss"),
        LIMIT(NPROC, "nproc"),
        LIMIT(NOFILE, "nofile"),
        LIMIT(MEMLOCK, "memlock"),
        LIMIT(AS, "as"),
        LIMIT(LOCKS, "locks"),
        LIMIT(SIGPENDING, "sigpending"),
        LIMIT(MSGQUEUE, "msgqueue"),
        LIMIT(NICE, "nice"),
        LIMIT(RTPRIO, "rtprio"),
        LIMIT(RTTIME, "rttime"),
#undef LIMIT
        KEY(RESOURCES_MEMORY, "resources", "memory", parse_res_bytes, F(resources.memory_max), 0),
        KEY(RESOURCES_MEMORY_HIGH, "resources", "memory_high", parse_res_bytes,
            F(resources.memory_high), 0),
        KEY(RESOURCES_MEMORY_SWAP, "resources", "memory_swap", parse_res_bytes,
            F(resources.memory_swap), 0),
        KEY(RESOURCES_CPUS, "resources", "cpus", parse_cpus, 0, 0),
        KEY(RESOURCES_CPU_WEIGHT, "resources", "cpu_weight", parse_weight, F(resources.cpu_weight),
            0),
        KEY(RESOURCES_PIDS, "resources", "pids", parse_pids, 0, 0),
        KEY(RESOURCES_IO_WEIGHT, "resources", "io_weight", parse_weight, F(resources.io_weight), 0),
        KEY(RESOURCES_MODE, "resources", "resources_mode", parse_mode, F(resources_require), 0),
        KEY(NETWORK_MODE, "network", "mode", parse_net_mode, 0, 0),
        KEY(NETWORK_PUBLISH, "network", "publish", parse_publish, 0, KEY_REPEAT),
        KEY(NETWORK_DNS, "network", "dns", parse_dns, 0, KEY_REPEAT),
        KEY(NETWORK_HOST_LOOPBACK, "network", "host_loopback", parse_bool, F(host_loopback), 0),
};
#undef KEY
#define NKEYS (sizeof keys / sizeof keys[0])
_Static_assert(NKEYS == SPEC_NKEYS, "the key table and enum spec_key disagree");
#define SAME_ORDER(ID)                                                                             \
        _Static_assert(SPEC_KEY_LIMITS_##ID - SPEC_KEY_LIMITS_CPU == RLIMIT_##ID,                  \
                       "enum spec_key's [limits] follow RLIMIT_*")
SAME_ORDER(FSIZE);
SAME_ORDER(DATA);
SAME_ORDER(STACK);
SAME_ORDER(CORE);
SAME_ORDER(RSS);
SAME_ORDER(NPROC);
SAME_ORDER(NOFILE);
SAME_ORDER(MEMLOCK);
SAME_ORDER(AS);
SAME_ORDER(LOCKS);
SAME_ORDER(SIGPENDING);
SAME_ORDER(MSGQUEUE);
SAME_ORDER(NICE);
SAME_ORDER(RTPRIO);
SAME_ORDER(RTTIME);
#undef SAME_ORDER
_Static_assert(SPEC_KEY_LIMITS_RTTIME - SPEC_KEY_LIMITS_CPU == SPEC_NLIMITS - 1,
               "one [limits] key per RLIMIT_*");

static const char *const sections[] = {"container", "process", "namespaces", "idmap",  "mounts",
                                       "security",  "limits",  "resources",  "network"};
#define NSECTIONS (sizeof sections / sizeof sections[0])

bool spec_key_at(size_t i, const char **ret_section, const char **ret_key)
{
        if (i >= NKEYS || !keys[i].section)
                return false;
        *ret_section = keys[i].section;
        *ret_key = keys[i].name;
        return true;
}

enum spec_key spec_limit_key(int resource)
{
        return (enum spec_key)(SPEC_KEY_LIMITS_CPU + resource);
}

const struct spec_origin *spec_origin(const struct spec *s, enum spec_key k)
{
        return &s->origins[k];
}

bool spec_in_file(const struct spec *s, enum spec_key k)
{
        return s->origins[k].kind == SPEC_FROM_FILE;
}

unsigned spec_line(const struct spec *s, enum spec_key k)
{
        return spec_in_file(s, k) ? s->origins[k].line : 0;
}

void spec_origin_text(const struct spec *s, enum spec_key k, char *buf, size_t len)
{
        const struct spec_origin *o = &s->origins[k];
        const char *level = levels_name(o->level);
        switch (o->kind) {
        case SPEC_FROM_DEFAULT:
                snprintf(buf, len, "built-in default");
                break;
        case SPEC_FROM_LEVEL:
                snprintf(buf, len, "level %s (profiles/levels/%s:%u)", level ? level : "?",
                         level ? level : "?", o->line);
                break;
        case SPEC_FROM_FILE:
                snprintf(buf, len, "%s:%u", s->path, o->line);
                break;
        case SPEC_FROM_CLI:
                snprintf(buf, len, "command line");
                break;
        }
}

static int unknown_section(const struct spec *s, const struct ini_entry *e, struct error *err)
{
        const char *best = NULL;
        size_t bestd = 3;
        for (size_t i = 0; i < NSECTIONS; i++) {
                size_t d = words_distance(e->section, sections[i]);
                if (d < bestd)
                        bestd = d, best = sections[i];
        }
        if (best)
                return error_at(err, s->path, e->line, "unknown section [%s]; did you mean [%s]?",
                                e->section, best);
        return error_at(err, s->path, e->line,
                        "unknown section [%s] (known: container, process, namespaces, idmap, "
                        "mounts, security, limits, resources, network)",
                        e->section);
}

static int unknown_key(const struct spec *s, const struct ini_entry *e, struct error *err)
{
        const struct key *best = NULL;
        size_t bestd = 3;
        for (size_t i = 0; i < NKEYS; i++) {
                /* the right name in the wrong section is the likeliest mistake */
                if (!strcmp(keys[i].name, e->key))
                        return error_at(err, s->path, e->line,
                                        "unknown key '%s' in [%s]; '%s' belongs in [%s]", e->key,
                                        e->section, e->key, keys[i].section);
        }
        for (size_t i = 0; i < NKEYS; i++) {
                if (strcmp(keys[i].section, e->section))
                        continue;
                size_t d = words_distance(e->key, keys[i].name);
                if (d < bestd)
                        bestd = d, best = &keys[i];
        }
        /* an abbreviation: most of the name agrees from the start (no_new_privs) */
        for (size_t i = 0; !best && i < NKEYS; i++) {
                size_t common = 0, shorter = strlen(e->key);
                if (strcmp(keys[i].section, e->section))
                        continue;
                while (e->key[common] && e->key[common] == keys[i].name[common])
                        common++;
                if (strlen(keys[i].name) < shorter)
                        shorter = strlen(keys[i].name);
                if (common >= 4 && common * 3 >= shorter * 2)
                        best = &keys[i];
        }
        if (best)
                return error_at(err, s->path, e->line,
                                "unknown key '%s' in [%s]; did you mean '%s'?", e->key, e->section,
                                best->name);
        return error_at(err, s->path, e->line, "unknown key '%s' in [%s] (see crib.ini(5))", e->key,
                        e->section);
}

void spec_init(struct spec *s)
{
        memset(s, 0, sizeof *s);
        s->umask = 022;
        s->terminal = TERMINAL_AUTO;
        s->init = true;
        s->no_new_privileges = true;
        s->ns_user = s->ns_pid = s->ns_ipc = s->ns_uts = s->ns_net = s->ns_cgroup = true;
        s->resources_require = true;
        s->resources.memory_max = s->resources.memory_high = s->resources.memory_swap =
                s->resources.pids_max = CGROUP_UNSET;
}

/* The network keys against each other and [namespaces] net; the capabilities that would let a
 * workload past the helper to the host's loopback. */
static int validate_network(struct spec *s, struct error *err)
{
        unsigned mode_line = spec_line(s, SPEC_KEY_NETWORK_MODE);
        if (mode_line && s->net_mode == SPEC_NET_HOST) {
                if (spec_in_file(s, SPEC_KEY_NAMESPACES_NET) && s->ns_net)
                        return error_at(err, s->path, mode_line,
                                        "mode = host shares the host's network, but [namespaces] "
                                        "says net = yes");
                s->ns_net = false;
        } else if (mode_line && !s->ns_net) {
                return error_at(err, s->path, mode_line,
                                "mode = %s needs a network namespace of its own, but "
                                "[namespaces] says net = no (which is mode = host)",
                                spec_net_mode_name(s->net_mode));
        } else if (!s->ns_net) {
                s->net_mode = SPEC_NET_HOST;
        }
        static const enum spec_key helper_only[] = {SPEC_KEY_NETWORK_PUBLISH, SPEC_KEY_NETWORK_DNS,
                                                    SPEC_KEY_NETWORK_HOST_LOOPBACK};
        for (size_t i = 0; i < sizeof helper_only / sizeof helper_only[0]; i++)
                if (spec_in_file(s, helper_only[i]) && !spec_net_has_helper(s->net_mode))
                        return error_at(err, s->path, spec_line(s, helper_only[i]),
                                        "'%s' needs a network helper: mode = slirp4netns or "
                                        "pasta in [network] (this spec's mode is %s)",
                                        keys[helper_only[i]].name, spec_net_mode_name(s->net_mode));
        /* lockmounts.c: such a workload gets namespaces of its own, a network one among them,
         * which has no tap: the helper would serve nobody */
        if (spec_net_has_helper(s->net_mode) && (s->caps & (1ULL << CAP_SYS_ADMIN)) &&
            (s->masked.n || s->readonly.n)) {
                unsigned line = spec_line(s, SPEC_KEY_SECURITY_CAPABILITIES);
                return error_at(err, s->path, line ? line : mode_line,
                                "a workload that keeps SYS_ADMIN runs in a network namespace of "
                                "its own (so that it cannot undo its masked and read-only "
                                "paths), which the network helper does not reach; drop "
                                "SYS_ADMIN, or use mode = host or none");
        }
        if (!spec_net_has_helper(s->net_mode) || s->host_loopback)
                return 0;
        /* Raw packets (NET_RAW) or routes to 127.0.0.0/8 through the tap (NET_ADMIN, with
         * route_localnet) reach the helper as frames for 127.0.0.1, and the helper, a process
         * on the host, connects them to the host's own loopback services. */
        const uint64_t risky = (1ULL << CAP_NET_RAW) | (1ULL << CAP_NET_ADMIN);
        if (s->caps & s->caps_file & risky)
                return error_at(err, s->path, spec_line(s, SPEC_KEY_SECURITY_CAPABILITIES),
                                "%s lets the workload send packets the network helper delivers "
                                "to the host's loopback (127.0.0.1); drop it, or set "
                                "host_loopback = yes in [network] if the container may reach "
                                "the host's local services",
                                s->caps & s->caps_file & (1ULL << CAP_NET_ADMIN) ? "NET_ADMIN"
                                                                                 : "NET_RAW");
        s->caps &= ~risky; /* a level's: dropped (ping works through ping_group_range) */
        return 0;
}

static int spec_validate(struct spec *s, bool args_from_cli, struct error *err)
{
        if (!s->rootfs)
                return error_at(err, s->path, 0, "no rootfs: add 'rootfs = DIR' to [container]");
        if (!s->args && !args_from_cli)
                return error_at(err, s->path, 0,
                                "no program to run: add 'args = PROGRAM ARGS...' to [process] or "
                                "give it after '--'");
        if (!s->ns_user && (s->uidmap.line || s->gidmap.line))
                return error_at(err, s->path, s->uidmap.line ? s->uidmap.line : s->gidmap.line,
                                "[idmap] needs a user namespace, but [namespaces] says user = no");
        if (s->hostname && !s->ns_uts)
                return error_at(err, s->path, spec_line(s, SPEC_KEY_CONTAINER_HOSTNAME),
                                "setting hostname needs a private uts namespace, but "
                                "[namespaces] says uts = no");
        if ((s->uidmap.line != 0) != (s->gidmap.line != 0))
                return error_at(err, s->path, s->uidmap.line ? s->uidmap.line : s->gidmap.line,
                                "[idmap] gives a %s map but no %s map; give both",
                                s->uidmap.line ? "uid" : "gid", s->uidmap.line ? "gid" : "uid");
        return validate_network(s, err);
}

int spec_check(struct spec *s, struct error *err)
{
        return spec_validate(s, false, err);
}

/* Apply tokenized entries to the spec through the key table; `from` says where they come from
 * (a level or the spec file; its line is each entry's). Errors name s->path. */
static int apply_entries(struct spec *s, const struct ini_file *ini, struct spec_origin from,
                         struct error *err)
{
        bool is_level = from.kind == SPEC_FROM_LEVEL;
        for (size_t i = 0; i < ini->n; i++) {
                const struct ini_entry *e = &ini->entries[i];
                bool known = false;
                for (size_t j = 0; j < NSECTIONS; j++)
                        known |= !strcmp(e->section, sections[j]);
                if (!known)
                        return unknown_section(s, e, err);
                if (!e->key)
                        continue;
                size_t k;
                for (k = 0; k < NKEYS; k++)
                        if (!strcmp(keys[k].section, e->section) && !strcmp(keys[k].name, e->key))
                                break;
                if (k == NKEYS)
                        return unknown_key(s, e, err);
                if (is_level && keys[k].parse == parse_level)
                        return error_at(err, s->path, e->line, "a level cannot name a level");
                /* a level's value may be set again by the next level or the spec, once */
                struct spec_origin *o = &s->origins[k];
                bool same = o->kind == from.kind && o->level == from.level;
                if (same && !(keys[k].flags & KEY_REPEAT))
                        return error_at(err, s->path, e->line, "'%s' is already set on line %u",
                                        e->key, o->line);
                if (!same) {
                        *o = from;
                        o->line = e->line;
                }
                if (keys[k].parse(s, &keys[k], e, err) < 0)
                        return -1;
        }
        return 0;
}

/* Apply the security level `name` (profiles/levels/NAME, built into crib). */
static int apply_level(struct spec *s, const char *name, struct error *err)
{
        const char *text = levels_text(name);
        struct ini_file ini = {0};
        char label[64];
        char *saved = s->path;
        int r;
        struct spec_origin from = {.kind = SPEC_FROM_LEVEL};
        while (levels_name(from.level) && strcmp(levels_name(from.level), name))
                from.level++;
        snprintf(label, sizeof label, "profiles/levels/%s", name);
        r = ini_parse_text(text, strlen(text), label, &ini, err);
        if (r == 0) {
                s->path = label;
                r = apply_entries(s, &ini, from, err);
                s->path = saved;
        }
        ini_free(&ini);
        return r;
}

int spec_from_level(const char *name, struct spec *ret, struct error *err)
{
        struct spec s;
        spec_init(&s);
        if (!levels_text(name))
                return error_set(err, 0, "unknown security level '%s'", name);
        if (!(s.path = strdup(name)) || !(s.level = strdup(name)))
                return spec_free(&s), error_set(err, ENOMEM, "cannot allocate");
        if (apply_level(&s, "default", err) < 0 ||
            (strcmp(name, "default") && apply_level(&s, name, err) < 0)) {
                spec_free(&s);
                return -1;
        }
        *ret = s;
        return 0;
}

int spec_load(const char *path, FILE *f, bool args_from_cli, struct spec *ret, struct error *err)
{
        struct ini_file ini = {0};
        /* built in place: a copy on this stack would put everything below 19 KB deeper */
        struct spec *s = ret;
        const char *level = "default";

        spec_init(s);
        if (!(s->path = strdup(path)))
                return error_set(err, ENOMEM, "cannot allocate");
        if (ini_parse(f, path, &ini, err) < 0)
                goto fail;
        /* the level comes first, wherever the spec names it; the spec's keys override it */
        for (size_t i = 0; i < ini.n; i++) {
                const struct ini_entry *e = &ini.entries[i];
                if (e->key && !strcmp(e->section, "security") && !strcmp(e->key, "level")) {
                        if (parse_level(s, NULL, e, err) < 0)
                                goto fail;
                        level = e->value;
                        break;
                }
        }
        if (!(s->level = strdup(level)))
                goto fail;
        if (apply_level(s, "default", err) < 0 ||
            (strcmp(level, "default") && apply_level(s, level, err) < 0))
                goto fail;
        if (apply_entries(s, &ini, (struct spec_origin){.kind = SPEC_FROM_FILE}, err) < 0)
                goto fail;
        if (spec_validate(s, args_from_cli, err) < 0)
                goto fail;
        ini_free(&ini);
        return 0;
fail:
        ini_free(&ini);
        spec_free(s);
        return -1;
}

int spec_override_args(struct spec *s, char *const *argv, struct error *err)
{
        size_t n = 0;
        while (argv[n])
                n++;
        if (n == 0)
                return error_set(err, EINVAL, "no program to run");
        char **v = calloc(n + 1, sizeof *v);
        if (!v)
                return error_set(err, ENOMEM, "cannot allocate");
        for (size_t i = 0; i < n; i++)
                if (!(v[i] = strdup(argv[i]))) {
                        words_free(v);
                        return error_set(err, ENOMEM, "cannot allocate");
                }
        words_free(s->args);
        s->args = v;
        s->origins[SPEC_KEY_PROCESS_ARGS] = (struct spec_origin){.kind = SPEC_FROM_CLI};
        return 0;
}

void spec_free(struct spec *s)
{
        free(s->path);
        free(s->level);
        free(s->seccomp);
        free(s->seccomp_text);
        free(s->cgroups_path);
        free(s->apparmor);
        paths_clear(&s->masked);
        paths_clear(&s->readonly);
        free(s->rootfs);
        free(s->hostname);
        free(s->cwd);
        words_free(s->args);
        words_free(s->env);
        for (size_t i = 0; i < s->nmounts; i++) {
                free(s->mounts[i].src);
                free(s->mounts[i].dst);
                free(s->mounts[i].data);
        }
        memset(s, 0, sizeof *s);
}
