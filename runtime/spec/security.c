/* security.c - the parsers of [security]: the level (only checked here: load.c applies it),
 * capabilities, masked and read-only paths (lists that start from the level's and take edits),
 * the seccomp and AppArmor profiles and their modes. Pure. See keys.h. */
#include "keys.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>

#include "base/capname.h"
#include "base/cleanup.h"
#include "base/ini.h"
#include "levels.h"
#include "base/syntax.h"
#include "base/words.h"

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

/* The default level's capabilities, for the word `default` in a capabilities list: its list,
 * parsed as a spec of its own. */
static int default_caps(struct spec *s, const struct key *k, const struct ini_entry *e,
                        uint64_t *ret, struct error *err)
{
        /* on the heap: a 19 KB struct spec in this frame put every call below it (and
         * this function is called for every capabilities line) 19 KB deeper into
         * pages crib must fault in */
        _cleanup_free_ struct spec *d = calloc(1, sizeof *d);
        _cleanup_free_ char *dflt = NULL;
        struct ini_entry de = {.line = 0, .section = "security", .key = "capabilities"};
        if (!d)
                return error_set(err, ENOMEM, "cannot allocate");
        if (in_default_level || !(dflt = default_value("security", "capabilities")))
                return bad_value(err, s, e, "the default level has no capabilities list");
        d->path = "level default";
        de.value = dflt;
        in_default_level = true;
        int r = parse_caps(d, k, &de, err);
        in_default_level = false;
        if (r < 0)
                return -1;
        *ret = d->caps;
        return 0;
}

int parse_caps(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
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
        case LIST_DEFAULT:
                if (default_caps(s, k, e, &v, err) < 0)
                        goto out;
                break;
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

void paths_clear(struct spec_paths *l)
{
        for (size_t i = 0; i < l->n; i++)
                free(l->items[i]);
        l->n = 0;
}

int parse_paths(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
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
                if (!syntax_clean_path(p)) {
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

/* The names of the built-in seccomp profiles (profiles/seccomp/), generated by the Makefile. The
 * profiles themselves are seccomp/'s, above the spec in the layers: a spec knows their names. */
static const char *const seccomp_builtins[] = {
#include "seccomp-names.h"
};

static bool seccomp_builtin(const char *name)
{
        for (size_t i = 0; i < sizeof seccomp_builtins / sizeof seccomp_builtins[0]; i++)
                if (!strcmp(seccomp_builtins[i], name))
                        return true;
        return false;
}

int parse_seccomp(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        (void)k;
        if (strcmp(e->value, "unconfined") && !seccomp_builtin(e->value) &&
            !strchr(e->value, '/')) {
                char known[256] = "";
                for (size_t i = 0; i < sizeof seccomp_builtins / sizeof seccomp_builtins[0]; i++)
                        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                                 i ? ", " : "", seccomp_builtins[i]);
                return bad_value(err, s, e,
                                 "unknown seccomp profile '%s' (built in: %s; 'unconfined'; or a "
                                 "path such as ./my.profile)",
                                 e->value, known);
        }
        free(s->seccomp);
        free(s->seccomp_text);
        s->seccomp_text = NULL;
        if (!(s->seccomp = strdup(e->value)))
                return error_set(err, ENOMEM, "cannot allocate");
        return 0;
}

int parse_apparmor(struct spec *s, const struct key *k, const struct ini_entry *e,
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
int parse_level(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
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
