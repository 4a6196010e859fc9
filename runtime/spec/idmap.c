/* idmap.c - id map resolution and formatting; see idmap.h. Pure. */
#include "idmap.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "phrase.h"
#include "base/words.h"

int idmap_read_subids(FILE *f, const char *user, uint32_t id, struct idmap_range *ret,
                      size_t *ret_n, struct error *err)
{
        char line[512], idstr[16];
        size_t n = 0;
        snprintf(idstr, sizeof idstr, "%" PRIu32, id);
        while (fgets(line, sizeof line, f)) {
                char *save, *name = strtok_r(line, ":", &save);
                char *start = strtok_r(NULL, ":", &save);
                char *count = strtok_r(NULL, ":\n", &save);
                if (!name || !start || !count || *name == '#')
                        continue;
                if (strcmp(name, idstr) && (!user || strcmp(name, user)))
                        continue;
                char *e1, *e2;
                errno = 0;
                unsigned long long s = strtoull(start, &e1, 10), c = strtoull(count, &e2, 10);
                /* strtoull takes a sign ("-5536" is 2^64 - 5536): digits only, and the end of
                 * the range checked without wrapping */
                if (errno || *e1 || *e2 || !isdigit((unsigned char)*start) ||
                    !isdigit((unsigned char)*count) || c == 0 || c > UINT32_MAX ||
                    s > UINT32_MAX - c)
                        continue; /* newuidmap ignores such lines too */
                if (n == IDMAP_MAX_SUBIDS)
                        break;
                ret[n].inside = 0;
                ret[n].outside = (uint32_t)s;
                ret[n].count = (uint32_t)c;
                n++;
        }
        if (ferror(f))
                return error_set(err, EIO, "cannot read the subordinate id file");
        *ret_n = n;
        return 0;
}

int idmap_read_own(FILE *f, struct idmap_range *ret, size_t *ret_n, struct error *err)
{
        char line[128];
        size_t n = 0;
        while (fgets(line, sizeof line, f)) {
                unsigned long in, out, count;
                char end;
                if (sscanf(line, "%lu %lu %lu%c", &in, &out, &count, &end) != 4 || end != '\n' ||
                    count == 0 || in > UINT32_MAX || count > UINT32_MAX - in)
                        return error_set(err, EINVAL, "cannot read the id map line '%.40s'", line);
                if (n == IDMAP_MAX_SUBIDS)
                        break;
                ret[n++] = (struct idmap_range){0, (uint32_t)in, (uint32_t)count};
        }
        if (ferror(f))
                return error_set(err, EIO, "cannot read the id map");
        *ret_n = n;
        return 0;
}

int idmap_read_map(FILE *f, struct idmap *ret, struct error *err)
{
        char line[128];
        const size_t max = sizeof ret->r / sizeof ret->r[0];
        ret->n = 0;
        ret->use_helper = false;
        while (fgets(line, sizeof line, f)) {
                unsigned long in, out, count;
                char end;
                if (sscanf(line, "%lu %lu %lu%c", &in, &out, &count, &end) != 4 || end != '\n' ||
                    count == 0 || in > UINT32_MAX || out > UINT32_MAX || count > UINT32_MAX - in ||
                    count > UINT32_MAX - out)
                        return error_set(err, EINVAL, "cannot read the id map line '%.40s'", line);
                if (ret->n == max)
                        return error_set(err, E2BIG, "the id map has more than %zu lines", max);
                ret->r[ret->n++] =
                        (struct idmap_range){(uint32_t)in, (uint32_t)out, (uint32_t)count};
        }
        if (ferror(f))
                return error_set(err, EIO, "cannot read the id map");
        return 0;
}

static bool within(const struct idmap_range *r, const struct idmap_range *sub, size_t nsub)
{
        for (size_t i = 0; i < nsub; i++)
                if (r->outside >= sub[i].outside &&
                    (uint64_t)r->outside + r->count <= (uint64_t)sub[i].outside + sub[i].count)
                        return true;
        return false;
}

static void describe_subids(char *buf, size_t len, const struct idmap_range *sub, size_t nsub)
{
        size_t used = 0;
        buf[0] = '\0';
        for (size_t i = 0; i < nsub && used < len; i++)
                used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu32 "-%" PRIu32,
                                         i ? ", " : "", sub[i].outside,
                                         sub[i].outside + sub[i].count - 1);
        if (!nsub)
                snprintf(buf, len, "none");
}

/* What idmap_resolve() was asked, for its steps. */
struct ask {
        const struct spec *s;
        const struct spec_idmap *m;
        const char *kind, *file; /* "uid", "/etc/subuid" */
        enum spec_key key;
        uint32_t id;
        bool privileged;
        const struct idmap_range *subids;
        size_t nsubids;
};

/* root: its own range alone, never itself (container root is not host root) */
static int resolve_root(const struct ask *a, struct idmap *ret, struct error *err)
{
        if (!a->nsubids) {
                phrase_error_line(err, a->s, a->key, a->m->line,
                                  "root has no range in %s to map the container's %ss to", a->file,
                                  a->kind);
                return error_hint(err,
                                  "give root one, for example: sudo usermod "
                                  "--add-sub%ss 1000000-1065535 root",
                                  a->kind);
        }
        ret->r[0] = (struct idmap_range){0, a->subids[0].outside, a->subids[0].count};
        ret->n = 1;
        return 0;
}

/* auto: the invoking id becomes 0, its ranges follow from 1 */
static int resolve_auto(const struct ask *a, struct idmap *ret, struct error *err)
{
        ret->r[0] = (struct idmap_range){0, a->id, 1};
        ret->n = 1;
        uint64_t next = 1;
        for (size_t i = 0; i < a->nsubids && ret->n < SPEC_MAX_RANGES + 1; i++) {
                if (next + a->subids[i].count > UINT32_MAX)
                        break;
                ret->r[ret->n++] = (struct idmap_range){(uint32_t)next, a->subids[i].outside,
                                                        a->subids[i].count};
                next += a->subids[i].count;
        }
        if (ret->n == 1) {
                error_at(err, a->s->path, a->m->line,
                         "'%s = auto' needs a range in %s for %s %" PRIu32 ", and there is none",
                         a->kind, a->file, a->kind, a->id);
                return error_hint(err,
                                  "give the user a range, for example: sudo usermod "
                                  "--add-sub%ss 100000-165535 $(id -un)",
                                  a->kind);
        }
        ret->use_helper = !a->privileged;
        return 0;
}

/* the spec's ranges as written; a user may map its own id and its subordinate ranges */
static int resolve_ranges(const struct ask *a, struct idmap *ret, struct error *err)
{
        bool only_own = true;
        for (size_t i = 0; i < a->m->n; i++) {
                const struct spec_range *sr = &a->m->ranges[i];
                struct idmap_range r = {sr->inside, sr->outside, sr->count};
                ret->r[ret->n++] = r;
                if (a->privileged)
                        continue;
                if (r.count == 1 && r.outside == a->id)
                        continue;
                only_own = false;
                if (!within(&r, a->subids, a->nsubids)) {
                        char have[256];
                        describe_subids(have, sizeof have, a->subids, a->nsubids);
                        char change[256];
                        phrase_error_line(err, a->s, a->key, sr->line,
                                          "%s range '%" PRIu32 " %" PRIu32 " %" PRIu32
                                          "' is not yours to map: %s %" PRIu32
                                          " may map itself and its %s ranges (%s)",
                                          a->kind, r.inside, r.outside, r.count, a->kind, a->id,
                                          a->file, have);
                        return error_hint(err, "%s",
                                          phrase_change(a->s->front, a->key, PHRASE_OWN, change,
                                                        sizeof change));
                }
        }
        ret->use_helper = !a->privileged && !only_own;
        return 0;
}

int idmap_resolve(const struct spec *s, const struct spec_idmap *m, const char *kind, uint32_t id,
                  bool privileged, const struct idmap_range *subids, size_t nsubids,
                  struct idmap *ret, struct error *err)
{
        bool uid = !strcmp(kind, "uid");
        const struct ask a = {
                .s = s,
                .m = m,
                .kind = kind,
                .file = uid ? "/etc/subuid" : "/etc/subgid",
                .key = uid ? SPEC_KEY_IDMAP_UID : SPEC_KEY_IDMAP_GID,
                .id = id,
                .privileged = privileged,
                .subids = subids,
                .nsubids = nsubids,
        };
        memset(ret, 0, sizeof *ret);

        if (!m->line && !privileged) {
                /* default: the invoking id becomes 0, as `unshare -r` does */
                ret->r[0] = (struct idmap_range){0, id, 1};
                ret->n = 1;
                return 0;
        }
        if (privileged && (!m->line || m->is_auto))
                return resolve_root(&a, ret, err);
        if (m->is_auto)
                return resolve_auto(&a, ret, err);
        return resolve_ranges(&a, ret, err);
}

int idmap_format(const struct idmap *m, char *buf, size_t len)
{
        size_t used = 0;
        buf[0] = '\0';
        for (size_t i = 0; i < m->n; i++) {
                int w = snprintf(buf + used, len - used, "%" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
                                 m->r[i].inside, m->r[i].outside, m->r[i].count);
                if (w < 0 || (size_t)w >= len - used)
                        return -1;
                used += (size_t)w;
        }
        return 0;
}

int64_t idmap_outside(const struct idmap *m, uint32_t inside)
{
        for (size_t i = 0; i < m->n; i++)
                if (inside >= m->r[i].inside && inside - m->r[i].inside < m->r[i].count)
                        return (int64_t)m->r[i].outside + (inside - m->r[i].inside);
        return -1;
}

uint32_t idmap_free_start(FILE *subuid, FILE *subgid, uint32_t count)
{
        uint64_t end = 100000; /* below: the ids of real accounts (login.defs SUB_UID_MIN) */
        FILE *files[2] = {subuid, subgid};
        char line[512];
        for (int i = 0; i < 2; i++) {
                while (files[i] && fgets(line, sizeof line, files[i])) {
                        char *save, *name = strtok_r(line, ":", &save);
                        char *start = strtok_r(NULL, ":", &save);
                        char *n = strtok_r(NULL, ":\n", &save);
                        if (!name || !start || !n || *name == '#')
                                continue;
                        uint64_t e = strtoull(start, NULL, 10) + strtoull(n, NULL, 10);
                        if (e > end)
                                end = e;
                }
        }
        end = (end + count - 1) / count * count; /* aligned, as podman's and LXC's are */
        if (end + count > UINT32_MAX - 1)
                return 0;
        return (uint32_t)end;
}

bool idmap_maps_host_root(const struct idmap *m)
{
        for (size_t i = 0; i < m->n; i++)
                if (m->r[i].outside == 0)
                        return true;
        return false;
}

int parse_idmap(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
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
