/* load.c - read a spec: crib's defaults, then the security level, then the spec file's keys
 * through the key table (keys.c), then the checks of the fields against each other; an unknown
 * section or key gets a suggestion. Pure: reads a FILE *, allocates, makes no other system
 * calls. See spec.h. */
#include "keys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/ini.h"
#include "levels.h"
#include "phrase.h"
#include "base/words.h"

const char *spec_level_name(size_t i)
{
        return levels_name(i);
}

static int unknown_section(const struct spec *s, const struct ini_entry *e, struct error *err)
{
        const char *best = NULL;
        size_t bestd = 3;
        for (size_t i = 0; i < NSECTIONS; i++) {
                size_t d = words_distance(e->section, spec_sections[i]);
                if (d < bestd)
                        bestd = d, best = spec_sections[i];
        }
        if (best)
                return error_at(err, s->path, e->line, "unknown section [%s]; did you mean [%s]?",
                                e->section, best);
        return error_at(err, s->path, e->line,
                        "unknown section [%s] (known: container, process, namespaces, idmap, "
                        "mounts, security, limits, resources, network, service)",
                        e->section);
}

static int unknown_key(const struct spec *s, const struct ini_entry *e, struct error *err)
{
        const struct key *best = NULL;
        size_t bestd = 3;
        for (size_t i = 0; i < NKEYS; i++) {
                /* the right name in the wrong section is the likeliest mistake */
                if (!strcmp(spec_keys[i].name, e->key))
                        return error_at(err, s->path, e->line,
                                        "unknown key '%s' in [%s]; '%s' belongs in [%s]", e->key,
                                        e->section, e->key, spec_keys[i].section);
        }
        for (size_t i = 0; i < NKEYS; i++) {
                if (strcmp(spec_keys[i].section, e->section))
                        continue;
                size_t d = words_distance(e->key, spec_keys[i].name);
                if (d < bestd)
                        bestd = d, best = &spec_keys[i];
        }
        /* an abbreviation: most of the name agrees from the start (no_new_privs) */
        for (size_t i = 0; !best && i < NKEYS; i++) {
                size_t common = 0, shorter = strlen(e->key);
                if (strcmp(spec_keys[i].section, e->section))
                        continue;
                while (e->key[common] && e->key[common] == spec_keys[i].name[common])
                        common++;
                if (strlen(spec_keys[i].name) < shorter)
                        shorter = strlen(spec_keys[i].name);
                if (common >= 4 && common * 3 >= shorter * 2)
                        best = &spec_keys[i];
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
        s->health = (struct spec_health){
                .interval_ms = 30000, .timeout_ms = 30000, .retries = 3}; /* docker's */
        s->resources.memory_max = s->resources.memory_high = s->resources.memory_swap =
                s->resources.memory_low = s->resources.pids_max = CGROUP_UNSET;
}

static int spec_validate(struct spec *s, bool args_from_cli, struct error *err)
{
        if (s->rootfs && s->image && !s->image_dir)
                return error_at(err, s->path, spec_line(s, SPEC_KEY_CONTAINER_IMAGE),
                                "both 'rootfs' and 'image' in [container]: give one");
        if (!s->rootfs && !s->image)
                return error_at(err, s->path, 0,
                                "no rootfs: add 'rootfs = DIR' or 'image = REF' to [container]");
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
        char who[32];
        if ((s->uidmap.line != 0) != (s->gidmap.line != 0))
                return phrase_error_line(
                        err, s, s->uidmap.line ? SPEC_KEY_IDMAP_GID : SPEC_KEY_IDMAP_UID,
                        s->uidmap.line ? s->uidmap.line : s->gidmap.line,
                        "%s gives a %s map but no %s map; give both",
                        phrase_section(s->front, SPEC_KEY_IDMAP_UID, who, sizeof who),
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
                        known |= !strcmp(e->section, spec_sections[j]);
                if (!known)
                        return unknown_section(s, e, err);
                if (!e->key)
                        continue;
                size_t k;
                for (k = 0; k < NKEYS; k++)
                        if (!strcmp(spec_keys[k].section, e->section) &&
                            !strcmp(spec_keys[k].name, e->key))
                                break;
                if (k == NKEYS)
                        return unknown_key(s, e, err);
                if (is_level && spec_keys[k].parse == parse_level)
                        return error_at(err, s->path, e->line, "a level cannot name a level");
                /* a level's value may be set again by the next level or the spec, once */
                struct spec_origin *o = &s->origins[k];
                bool same = o->kind == from.kind && o->level == from.level;
                if (same && !(spec_keys[k].flags & KEY_REPEAT))
                        return error_at(err, s->path, e->line, "'%s' is already set on line %u",
                                        e->key, o->line);
                if (!same) {
                        *o = from;
                        o->line = e->line;
                }
                if (spec_keys[k].parse(s, &spec_keys[k], e, err) < 0)
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
        free(s->image);
        free(s->image_dir);
        free(s->hostname);
        free(s->cwd);
        for (size_t i = 0; i < SPEC_NNS; i++)
                free(s->ns_path[i]);
        words_free(s->args);
        words_free(s->env);
        words_free(s->health.argv);
        for (size_t i = 0; i < s->nmounts; i++) {
                free(s->mounts[i].src);
                free(s->mounts[i].dst);
                free(s->mounts[i].data);
        }
        for (size_t i = 0; i < s->nsysctls; i++) {
                free(s->sysctls[i].key);
                free(s->sysctls[i].value);
        }
        for (size_t i = 0; i < s->ndevices; i++)
                free(s->devices[i].path);
        memset(s, 0, sizeof *s);
}
