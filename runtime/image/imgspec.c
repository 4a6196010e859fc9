/* imgspec.c - image config to crib spec (imgspec.h).
 *
 * The spec's values are written in the forms crib.ini(5) reads back unchanged: args as
 * double-quoted words (words.h: \" \\ \$ \` escaped), env and cwd as one double-quoted INI value
 * (ini.h: \\ \" \n \t). What a crib.ini line cannot hold (other control characters, a line
 * over INI_MAX_LINE) is an error naming the config's JSON path, never dropped.
 */
#include "imgspec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "ini.h"
#include "spec.h"

static void warn(struct imgspec_result *r, const char *fmt, ...) CRIB_PRINTF(2, 3);
static void warn(struct imgspec_result *r, const char *fmt, ...)
{
        if (r->nwarnings >= IMGSPEC_MAX_WARNINGS)
                return;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->warnings[r->nwarnings++], sizeof r->warnings[0], fmt, ap);
        va_end(ap);
}

/* append `s` to the line buffer, as a double-quoted word (args) or INI value (!word) */
static int quote(char *line, size_t len, size_t *used, const char *s, bool word, const char *what,
                 struct error *err)
{
        char *o = line + *used, *end = line + len - 4; /* room for '"', '\\', char, NUL */
        *o++ = '"';
        for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
                if (o >= end)
                        return error_set(err, 0, "%s is longer than a crib.ini line (%d bytes)",
                                         what, INI_MAX_LINE);
                if (*p == '"' || *p == '\\' || (word && (*p == '$' || *p == '`'))) {
                        *o++ = '\\';
                        *o++ = (char)*p;
                } else if (!word && (*p == '\n' || *p == '\t')) {
                        *o++ = '\\';
                        *o++ = *p == '\n' ? 'n' : 't';
                } else if (*p < 0x20 || *p == 0x7f) {
                        return error_set(err, 0,
                                         "%s holds control character 0x%02x, which a crib.ini "
                                         "line cannot hold",
                                         what, *p);
                } else {
                        *o++ = (char)*p;
                }
        }
        if (o + 2 > line + len - 1)
                return error_set(err, 0, "%s is longer than a crib.ini line (%d bytes)", what,
                                 INI_MAX_LINE);
        *o++ = '"';
        *o = '\0';
        *used = (size_t)(o - line);
        return 0;
}

/* the array of strings at config.KEY (absent or null: none) */
static int strings(struct json_object *cfg, const char *key, struct json_object **ret,
                   struct error *err)
{
        *ret = NULL;
        struct json_object *v;
        if (!cfg || !json_object_object_get_ex(cfg, key, &v) ||
            json_object_is_type(v, json_type_null))
                return 0;
        if (!json_object_is_type(v, json_type_array))
                return error_set(err, 0, "config.%s is not an array of strings", key);
        for (size_t i = 0; i < json_object_array_length(v); i++)
                if (!json_object_is_type(json_object_array_get_idx(v, i), json_type_string))
                        return error_set(err, 0, "config.%s[%zu] is not a string", key, i);
        *ret = v;
        return 0;
}

static int string(struct json_object *cfg, const char *key, const char **ret, struct error *err)
{
        *ret = NULL;
        struct json_object *v;
        if (!cfg || !json_object_object_get_ex(cfg, key, &v) ||
            json_object_is_type(v, json_type_null))
                return 0;
        if (!json_object_is_type(v, json_type_string))
                return error_set(err, 0, "config.%s is not a string", key);
        *ret = json_object_get_string(v);
        return 0;
}

/* a decimal id below 2^32 - 1 */
static int parse_id(const char *s, size_t n, uint32_t *ret)
{
        if (!n || n > 10)
                return -1;
        uint64_t v = 0;
        for (size_t i = 0; i < n; i++) {
                if (s[i] < '0' || s[i] > '9')
                        return -1;
                v = v * 10 + (uint64_t)(s[i] - '0');
        }
        if (v >= UINT32_MAX)
                return -1;
        *ret = (uint32_t)v;
        return 0;
}

/* field `want` (0-based) of the passwd/group line whose field `key` is `name` (n bytes) */
static int lookup(const char *text, const char *name, size_t n, int key, int want, uint32_t *ret)
{
        for (const char *l = text; l && *l;) {
                const char *eol = strchr(l, '\n');
                size_t ll = eol ? (size_t)(eol - l) : strlen(l);
                const char *f[4] = {l};
                size_t nf = 1;
                for (size_t i = 0; i < ll && nf < 4; i++)
                        if (l[i] == ':')
                                f[nf++] = l + i + 1;
                if (nf == 4) {
                        size_t klen = (size_t)((key + 1 < 4 ? f[key + 1] - 1 : l + ll) - f[key]);
                        const char *w = f[want];
                        size_t wl = 0;
                        while (w + wl < l + ll && w[wl] != ':')
                                wl++;
                        if (klen == n && !memcmp(f[key], name, n) && parse_id(w, wl, ret) == 0)
                                return 0;
                }
                l = eol ? eol + 1 : NULL;
        }
        return -1;
}

int imgspec_user(const char *user, const char *passwd, const char *group, uint32_t *ret_uid,
                 uint32_t *ret_gid, struct error *err)
{
        *ret_uid = *ret_gid = 0;
        if (!user || !*user)
                return 0;
        const char *colon = strchr(user, ':');
        size_t ulen = colon ? (size_t)(colon - user) : strlen(user);
        bool have_gid = false;
        if (parse_id(user, ulen, ret_uid) < 0) {
                /* a name: its uid (field 2) and primary gid (field 3) in the image's passwd */
                if (lookup(passwd, user, ulen, 0, 2, ret_uid) < 0)
                        return error_set(err, 0,
                                         "config.User '%s': user '%.*s' is not in the image's "
                                         "/etc/passwd",
                                         user, (int)ulen, user);
                have_gid = lookup(passwd, user, ulen, 0, 3, ret_gid) == 0;
        } else {
                char id[16];
                int n = snprintf(id, sizeof id, "%" PRIu32, *ret_uid);
                have_gid = lookup(passwd, id, (size_t)n, 2, 3, ret_gid) == 0;
        }
        if (colon) {
                const char *g = colon + 1;
                if (parse_id(g, strlen(g), ret_gid) < 0 &&
                    lookup(group, g, strlen(g), 0, 2, ret_gid) < 0)
                        return error_set(err, 0,
                                         "config.User '%s': group '%s' is not in the image's "
                                         "/etc/group",
                                         user, g);
        } else if (!have_gid) {
                *ret_gid = 0; /* as Docker: a uid without a passwd entry runs with gid 0 */
        }
        return 0;
}

/* the names of an object's keys, "80/tcp 443/tcp" */
static void keys(struct json_object *cfg, const char *key, char *buf, size_t len)
{
        struct json_object *v;
        buf[0] = '\0';
        if (!cfg || !json_object_object_get_ex(cfg, key, &v) ||
            !json_object_is_type(v, json_type_object))
                return;
        size_t used = 0;
        json_object_object_foreach(v, k, val)
        {
                (void)val;
                int n = snprintf(buf + used, len - used, "%s%s", used ? " " : "", k);
                if (n < 0 || (size_t)n >= len - used) {
                        snprintf(buf + len - 5, 5, "...");
                        return;
                }
                used += (size_t)n;
        }
}

/* an env name as crib.ini accepts it */
static bool env_name_ok(const char *s, size_t n)
{
        if (!n)
                return false;
        for (size_t i = 0; i < n; i++)
                if (s[i] == '=' || (unsigned char)s[i] < 0x21 || s[i] == 0x7f)
                        return false;
        return true;
}

int imgspec_write(struct json_object *config, const struct imgspec_opts *o, FILE *out,
                  struct imgspec_result *ret, struct error *err)
{
        memset(ret, 0, sizeof *ret);
        struct json_object *cfg = NULL;
        if (config && json_object_object_get_ex(config, "config", &cfg) &&
            json_object_is_type(cfg, json_type_null))
                cfg = NULL;
        if (cfg && !json_object_is_type(cfg, json_type_object))
                return error_set(err, 0, "config is not an object");

        struct json_object *entrypoint, *cmd, *env;
        const char *workdir, *user, *stopsignal;
        if (strings(cfg, "Entrypoint", &entrypoint, err) < 0 ||
            strings(cfg, "Cmd", &cmd, err) < 0 || strings(cfg, "Env", &env, err) < 0 ||
            string(cfg, "WorkingDir", &workdir, err) < 0 || string(cfg, "User", &user, err) < 0 ||
            string(cfg, "StopSignal", &stopsignal, err) < 0)
                return -1;
        if (imgspec_user(user, o->passwd, o->group, &ret->uid, &ret->gid, err) < 0)
                return -1;

        char line[INI_MAX_LINE];
        size_t used;
        fprintf(out, "# crib spec made by 'crib image import' from %s%s%s%s.\n", o->source,
                o->platform ? " (" : "", o->platform ? o->platform : "", o->platform ? ")" : "");
        fprintf(out, "# Run it with 'crib run crib.ini'; see crib.ini(5) for every key.\n\n");
        fprintf(out, "[container]\nrootfs = rootfs\n\n[process]\n");

        /* args: Entrypoint then Cmd, as Docker runs them */
        used = (size_t)snprintf(line, sizeof line, "args =");
        size_t nargs = 0;
        struct json_object *parts[2] = {entrypoint, cmd};
        const char *names[2] = {"Entrypoint", "Cmd"};
        for (int k = 0; k < 2; k++) {
                for (size_t i = 0; parts[k] && i < json_object_array_length(parts[k]); i++) {
                        char what[64];
                        snprintf(what, sizeof what, "config.%s[%zu]", names[k], i);
                        if (nargs >= 1000)
                                return error_set(err, 0, "%s: more than 1000 arguments", what);
                        line[used++] = ' ';
                        if (quote(line, sizeof line, &used,
                                  json_object_get_string(json_object_array_get_idx(parts[k], i)),
                                  true, what, err) < 0)
                                return -1;
                        nargs++;
                }
        }
        if (!nargs) {
                fprintf(out, "# the image names no program (no Entrypoint, no Cmd): a shell\n");
                fprintf(out, "args = /bin/sh\n");
                warn(ret, "the image names no program to run; the spec runs /bin/sh");
        } else {
                fprintf(out, "%s\n", line);
        }

        /* env: the last of a name wins, as in Docker; crib.ini refuses a name twice */
        size_t nenv = env ? json_object_array_length(env) : 0;
        if (nenv > SPEC_MAX_ENV)
                return error_set(err, 0, "config.Env has %zu entries; crib takes %d", nenv,
                                 SPEC_MAX_ENV);
        for (size_t i = 0; i < nenv; i++) {
                const char *e = json_object_get_string(json_object_array_get_idx(env, i));
                const char *eq = strchr(e, '=');
                char what[64];
                snprintf(what, sizeof what, "config.Env[%zu]", i);
                if (!eq || !env_name_ok(e, (size_t)(eq - e)))
                        return error_set(err, 0, "%s '%s' is not NAME=VALUE", what, e);
                bool later = false;
                for (size_t j = i + 1; j < nenv && !later; j++) {
                        const char *f = json_object_get_string(json_object_array_get_idx(env, j));
                        later = !strncmp(f, e, (size_t)(eq - e) + 1);
                }
                if (later)
                        continue;
                used = (size_t)snprintf(line, sizeof line, "env = ");
                if (quote(line, sizeof line, &used, e, false, what, err) < 0)
                        return -1;
                fprintf(out, "%s\n", line);
        }

        if (workdir && *workdir) {
                char abs[4096];
                if (snprintf(abs, sizeof abs, "%s%s", workdir[0] == '/' ? "" : "/", workdir) >=
                    (int)sizeof abs)
                        return error_set(err, 0, "config.WorkingDir is too long");
                used = (size_t)snprintf(line, sizeof line, "cwd = ");
                if (quote(line, sizeof line, &used, abs, false, "config.WorkingDir", err) < 0)
                        return -1;
                fprintf(out, "%s\n", line);
        }

        bool mapped = o->root || o->subids || (ret->uid == 0 && ret->gid == 0);
        if (o->subids && !o->root &&
            ((o->nuids && ret->uid >= o->nuids) || (o->ngids && ret->gid >= o->ngids))) {
                fprintf(out,
                        "# the image's user %" PRIu32 ":%" PRIu32 " is beyond the %" PRIu64
                        " uids and %" PRIu64 " gids your ranges map: crib run refuses it\n",
                        ret->uid, ret->gid, o->nuids, o->ngids);
                warn(ret,
                     "the image runs as %" PRIu32 ":%" PRIu32 ", beyond the ids your "
                     "/etc/subuid and /etc/subgid ranges map (%" PRIu64 " and %" PRIu64 "); "
                     "give yourself larger ranges, or run it with another user",
                     ret->uid, ret->gid, o->nuids, o->ngids);
        }
        if (mapped) {
                fprintf(out, "user = %" PRIu32 ":%" PRIu32 "\n", ret->uid, ret->gid);
        } else {
                fprintf(out,
                        "# the image runs as %" PRIu32 ":%" PRIu32 " ('%s'), which needs a "
                        "subordinate range (uid = auto);\n# without one it runs as 0:0, you\n",
                        ret->uid, ret->gid, user);
                fprintf(out, "user = 0:0\n");
                warn(ret,
                     "the image runs as %" PRIu32 ":%" PRIu32 " ('%s'); you have no range in "
                     "/etc/subuid and /etc/subgid, so the spec runs it as 0:0 (you)",
                     ret->uid, ret->gid, user);
        }

        char buf[1024];
        keys(cfg, "ExposedPorts", buf, sizeof buf);
        if (buf[0])
                fprintf(out,
                        "# the image exposes %s: with net = yes (below) the container has only "
                        "loopback;\n# net = no shares the host's network\n",
                        buf);
        keys(cfg, "Volumes", buf, sizeof buf);
        if (buf[0])
                fprintf(out,
                        "# not applied: the image's volumes %s (they are plain directories of "
                        "rootfs;\n# bind a host directory there under [mounts] to keep their "
                        "data apart)\n",
                        buf);
        if (stopsignal && *stopsignal)
                fprintf(out,
                        "# not applied: the image's StopSignal %.64s ('crib stop' sends "
                        "SIGTERM; 'crib kill NAME %.64s' sends it)\n",
                        stopsignal, stopsignal);
        struct json_object *hc;
        if (cfg && json_object_object_get_ex(cfg, "Healthcheck", &hc) &&
            !json_object_is_type(hc, json_type_null))
                fprintf(out, "# not applied: the image's Healthcheck (crib runs no health "
                             "checks)\n");

        fprintf(out, "\n[namespaces]\nnet = yes\n");
        if (o->subids && !o->root)
                fprintf(out, "\n[idmap]\n# the image's ids: 0 is you, 1..N your /etc/subuid and "
                             "/etc/subgid ranges\nuid = auto\ngid = auto\n");
        return ferror(out) ? error_set(err, EIO, "cannot write the spec") : 0;
}
