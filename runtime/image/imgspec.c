/* imgspec.c - image config to crib spec (imgspec.h).
 *
 * The config is the image's: every byte of it is written by whoever made the image. It reaches
 * crib.ini through one function, imgspec_escape(), in one of three forms:
 *   WORD   args, double-quoted words (words.h: \" \\ escaped; $ and ` are literal there);
 *   VALUE  env and cwd, one double-quoted INI value each (ini.h: \\ \" \n \t);
 *   TEXT   comment lines: exposed ports, volumes, the stop signal, the user's name, the source's
 *          name and platform. Control characters, DEL, C1 controls, bidirectional overrides and
 *          bytes that are not UTF-8 become \xNN, a backslash \\; cut to a bound with "...".
 * WORD and VALUE refuse what a crib.ini value cannot hold (a control character, a NUL, bytes
 * that are not UTF-8, a line over INI_MAX_LINE) with the config's JSON path, never dropping it.
 *
 * Escaping is one layer; the second is structural. The text is made in memory, and before it
 * reaches `out` it is read back with crib's own INI tokenizer (ini.c), which must find exactly
 * the sections and keys written here, in the order written, and with spec_load(), which must
 * accept it. A slip in the escaping then fails the import; it never yields a spec holding a key
 * the image chose (issue 31: a port named "80/tcp\n[namespaces]\nuser = no" ran the image as
 * host root). tests/fuzz/fuzz_imgspec.c checks both with hostile configs.
 */
#define _GNU_SOURCE
#include "imgspec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "base/ini.h"
#include "imghealth.h"
#include "spec/spec.h"

#define TEXT_MAX 160 /* bytes of one image string in a comment, escaped */

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

/* --- escaping -------------------------------------------------------------------------------- */

/* The length of the well-formed UTF-8 sequence at p (n bytes left), 0 when none starts there
 * (overlong forms, surrogates and code points past U+10FFFF are not well-formed). */
static size_t utf8_len(const unsigned char *p, size_t n)
{
        if (p[0] < 0x80)
                return 1;
        if (p[0] < 0xc2 || p[0] > 0xf4)
                return 0;
        size_t len = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
        if (n < len)
                return 0;
        for (size_t i = 1; i < len; i++)
                if ((p[i] & 0xc0) != 0x80)
                        return 0;
        if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
            (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
                return 0;
        return len;
}

/* The code point of a sequence utf8_len() measured. */
static uint32_t utf8_cp(const unsigned char *p, size_t len)
{
        static const unsigned char first[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
        uint32_t c = p[0] & first[len];
        for (size_t i = 1; i < len; i++)
                c = (c << 6) | (p[i] & 0x3f);
        return c;
}

/* What a terminal or an editor would act on instead of showing: C0 controls, DEL, C1 controls
 * (U+0080..U+009F: U+009B is CSI to some terminals), and the bidirectional embeddings,
 * overrides and isolates, which reorder what is shown ("Trojan Source"). */
static bool hidden(uint32_t c)
{
        return c < 0x20 || (c >= 0x7f && c < 0xa0) || (c >= 0x202a && c <= 0x202e) ||
               (c >= 0x2066 && c <= 0x2069);
}

int imgspec_escape(const char *s, size_t n, enum imgspec_form form, char *buf, size_t len,
                   const char *what, struct error *err)
{
        bool quoted = form != IMGSPEC_TEXT;
        size_t keep = quoted ? 2 : 4; /* the closing quote and NUL, or "..." and NUL */
        size_t o = 0;
        if (len < keep + 1)
                return error_set(err, 0, "%s: no room to write it", what);
        if (quoted)
                buf[o++] = '"';
        const unsigned char *p = (const unsigned char *)s;
        for (size_t i = 0; i < n;) {
                char piece[8];
                size_t plen, k = utf8_len(p + i, n - i);
                uint32_t c = k ? utf8_cp(p + i, k) : 0;
                if (k && (c == '\\' || (quoted && c == '"'))) {
                        piece[0] = '\\', piece[1] = (char)c, plen = 2;
                } else if (k && !hidden(c)) {
                        memcpy(piece, p + i, k), plen = k;
                } else if (k == 1 && form == IMGSPEC_VALUE && (c == '\n' || c == '\t')) {
                        piece[0] = '\\', piece[1] = c == '\n' ? 'n' : 't', plen = 2;
                } else if (form == IMGSPEC_TEXT) {
                        /* one byte at a time: a hidden sequence shows as all its bytes */
                        snprintf(piece, sizeof piece, "\\x%02x", p[i]);
                        plen = 4, k = 1;
                } else if (!k) {
                        return error_set(err, 0,
                                         "%s is not UTF-8 (byte 0x%02x at offset %zu), which a "
                                         "crib.ini line cannot hold",
                                         what, p[i], i);
                } else if (c < 0x80) {
                        return error_set(err, 0,
                                         "%s holds control character 0x%02x, which a crib.ini "
                                         "line cannot hold",
                                         what, (unsigned)c);
                } else {
                        return error_set(err, 0,
                                         "%s holds control character U+%04" PRIX32 ", which a "
                                         "crib.ini line cannot hold",
                                         what, c);
                }
                if (o + plen + keep > len) {
                        if (quoted)
                                return error_set(err, 0,
                                                 "%s is longer than a crib.ini line (%d bytes)",
                                                 what, INI_MAX_LINE);
                        memcpy(buf + o, "...", 3);
                        o += 3;
                        break;
                }
                memcpy(buf + o, piece, plen);
                o += plen;
                i += k;
        }
        if (quoted)
                buf[o++] = '"';
        buf[o] = '\0';
        return 0;
}

const char *imgspec_text(const char *s, char *buf, size_t len)
{
        struct error err;
        if (imgspec_escape(s ? s : "", s ? strlen(s) : 0, IMGSPEC_TEXT, buf, len, "text", &err) < 0)
                snprintf(buf, len, "%s", len > 3 ? "..." : "");
        return buf;
}

/* --- the spec's text, and what it must hold --------------------------------------------------- */

#define SPEC_TEXT_KEYS (SPEC_MAX_ENV + 24) /* sections and keys imgspec_write writes, at most */

struct writer {
        FILE *f; /* the text, in memory until it is checked */
        const char *section;
        struct imgspec_key *keys; /* what was written, in order */
        size_t n;
};

static int put_section(struct writer *w, const char *name, struct error *err)
{
        if (w->n >= SPEC_TEXT_KEYS)
                return error_set(err, 0, "the spec would hold more than %d keys", SPEC_TEXT_KEYS);
        fprintf(w->f, "[%s]\n", name);
        w->keys[w->n++] = (struct imgspec_key){name, NULL};
        w->section = name;
        return 0;
}

/* `value` is crib's own (a number, a fixed word) or made by imgspec_escape */
static int put_key(struct writer *w, const char *key, const char *value, struct error *err)
{
        if (w->n >= SPEC_TEXT_KEYS)
                return error_set(err, 0, "the spec would hold more than %d keys", SPEC_TEXT_KEYS);
        fprintf(w->f, "%s = %s\n", key, value);
        w->keys[w->n++] = (struct imgspec_key){w->section, key};
        return 0;
}

/* a comment line; its arguments are crib's own, or made by imgspec_escape (TEXT) */
static void put_comment(struct writer *w, const char *fmt, ...) CRIB_PRINTF(2, 3);
static void put_comment(struct writer *w, const char *fmt, ...)
{
        va_list ap;
        fputs("# ", w->f);
        va_start(ap, fmt);
        vfprintf(w->f, fmt, ap);
        va_end(ap);
        fputc('\n', w->f);
}

int imgspec_check(const char *text, size_t len, const struct imgspec_key *keys, size_t n,
                  struct error *err)
{
        struct ini_file ini = {0};
        if (ini_parse_text(text, len, "crib.ini", &ini, err) < 0)
                return error_wrap(err, "the spec made from the image does not read back");
        int r = 0;
        for (size_t i = 0; i < ini.n || i < n; i++) {
                const struct ini_entry *e = i < ini.n ? &ini.entries[i] : NULL;
                const struct imgspec_key *k = i < n ? &keys[i] : NULL;
                if (e && k && e->section && !strcmp(e->section, k->section) && !e->key == !k->key &&
                    (!e->key || !strcmp(e->key, k->key)))
                        continue;
                if (e)
                        r = error_set(err, 0,
                                      "crib.ini:%u: '[%s]%s%s' is not what crib wrote there: the "
                                      "image's config reached the spec unescaped; refused",
                                      e->line, e->section ? e->section : "", e->key ? " " : "",
                                      e->key ? e->key : "");
                else
                        r = error_set(err, 0,
                                      "'[%s]%s%s' is missing from the spec crib wrote: the "
                                      "image's config reached the spec unescaped; refused",
                                      k->section, k->key ? " " : "", k->key ? k->key : "");
                break;
        }
        ini_free(&ini);
        if (r < 0)
                return r;
        _cleanup_free_ struct spec *s = calloc(1, sizeof *s);
        FILE *f = s ? fmemopen((void *)text, len, "r") : NULL;
        if (!f)
                return error_set(err, ENOMEM, "out of memory");
        r = spec_load("crib.ini", f, false, s, err);
        fclose(f);
        if (r < 0)
                return error_wrap(err, "the spec made from the image does not read back");
        spec_free(s);
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

/* the string at config.KEY (absent or null: NULL), and its length (a NUL may be inside) */
static int string(struct json_object *cfg, const char *key, const char **ret, size_t *ret_len,
                  struct error *err)
{
        *ret = NULL;
        *ret_len = 0;
        struct json_object *v;
        if (!cfg || !json_object_object_get_ex(cfg, key, &v) ||
            json_object_is_type(v, json_type_null))
                return 0;
        if (!json_object_is_type(v, json_type_string))
                return error_set(err, 0, "config.%s is not a string", key);
        *ret = json_object_get_string(v);
        *ret_len = (size_t)json_object_get_string_len(v);
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

/* the names of an object's keys, escaped, "80/tcp 443/tcp" */
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
                char one[TEXT_MAX];
                imgspec_text(k, one, sizeof one);
                size_t n = strlen(one);
                if (used + 1 + n + 4 > len) {
                        snprintf(buf + used, len - used, "%s...", used ? " " : "");
                        return;
                }
                used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", one);
        }
}

/* an environment variable's name as crib.ini takes it (spec.c: parse_env) */
static bool env_name_ok(const char *s, size_t n)
{
        if (!n)
                return false;
        for (size_t i = 0; i < n; i++)
                if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
                      (i && s[i] >= '0' && s[i] <= '9')))
                        return false;
        return true;
}

/* what the spec takes of the image's config (config.config) */
struct cfg_fields {
        struct json_object *cfg; /* NULL when the config has none */
        struct json_object *entrypoint, *cmd, *env;
        const char *workdir, *user, *stopsignal;
        size_t workdir_len, user_len, stopsignal_len;
};

static int read_fields(struct json_object *config, struct cfg_fields *f, struct error *err)
{
        f->cfg = NULL;
        if (config && json_object_object_get_ex(config, "config", &f->cfg) &&
            json_object_is_type(f->cfg, json_type_null))
                f->cfg = NULL;
        if (f->cfg && !json_object_is_type(f->cfg, json_type_object))
                return error_set(err, 0, "config is not an object");
        struct json_object *cfg = f->cfg;
        if (strings(cfg, "Entrypoint", &f->entrypoint, err) < 0 ||
            strings(cfg, "Cmd", &f->cmd, err) < 0 || strings(cfg, "Env", &f->env, err) < 0 ||
            string(cfg, "WorkingDir", &f->workdir, &f->workdir_len, err) < 0 ||
            string(cfg, "User", &f->user, &f->user_len, err) < 0 ||
            string(cfg, "StopSignal", &f->stopsignal, &f->stopsignal_len, err) < 0)
                return -1;
        if (f->user && strlen(f->user) != f->user_len)
                return error_set(err, 0, "config.User holds a NUL byte");
        return 0;
}

/* The opening comment (where the spec comes from), [container], and [process]'s header. */
static int write_head(struct writer *w, const struct imgspec_opts *o, struct error *err)
{
        char text[TEXT_MAX], text2[TEXT_MAX * 4];
        imgspec_text(o->source, text2, sizeof text2);
        if (o->platform)
                imgspec_text(o->platform, text, sizeof text);
        put_comment(w, "crib spec made by 'crib image import' from %s%s%s%s.", text2,
                    o->platform ? " (" : "", o->platform ? text : "", o->platform ? ")" : "");
        put_comment(w, o->no_rootfs ? "Run the image with 'crib run IMAGE'; see crib.ini(5) for "
                                      "every key."
                                    : "Run it with 'crib run crib.ini'; see crib.ini(5) for every "
                                      "key.");
        fputc('\n', w->f);
        if (put_section(w, "container", err) < 0 || put_key(w, "rootfs", "rootfs", err) < 0)
                return -1;
        fputc('\n', w->f);
        return put_section(w, "process", err);
}

/* args: Entrypoint then Cmd, as Docker runs them, one double-quoted word each */
static int write_args(struct writer *w, const struct cfg_fields *f, struct imgspec_result *ret,
                      struct error *err)
{
        char line[INI_MAX_LINE];
        size_t used = 0, nargs = 0;
        struct json_object *parts[2] = {f->entrypoint, f->cmd};
        const char *names[2] = {"Entrypoint", "Cmd"};
        for (int k = 0; k < 2; k++) {
                for (size_t i = 0; parts[k] && i < json_object_array_length(parts[k]); i++) {
                        struct json_object *a = json_object_array_get_idx(parts[k], i);
                        char what[64];
                        snprintf(what, sizeof what, "config.%s[%zu]", names[k], i);
                        if (nargs >= 1000)
                                return error_set(err, 0, "%s: more than 1000 arguments", what);
                        if (used)
                                line[used++] = ' ';
                        /* the line is "args = WORDS\n": 8 bytes are not the words' */
                        if (used + 8 + 3 > sizeof line)
                                return error_set(err, 0,
                                                 "%s is longer than a crib.ini line (%d bytes)",
                                                 what, INI_MAX_LINE);
                        if (imgspec_escape(json_object_get_string(a),
                                           (size_t)json_object_get_string_len(a), IMGSPEC_WORD,
                                           line + used, sizeof line - 8 - used, what, err) < 0)
                                return -1;
                        used += strlen(line + used);
                        nargs++;
                }
        }
        if (nargs)
                return put_key(w, "args", line, err);
        put_comment(w, "the image names no program (no Entrypoint, no Cmd): a shell");
        if (put_key(w, "args", "/bin/sh", err) < 0)
                return -1;
        warn(ret, "the image names no program to run; the spec runs /bin/sh");
        return 0;
}

/* env: the last of a name wins, as in Docker; crib.ini refuses a name twice */
static int write_env(struct writer *w, struct json_object *env, struct imgspec_result *ret,
                     struct error *err)
{
        char line[INI_MAX_LINE], text[TEXT_MAX];
        size_t nenv = env ? json_object_array_length(env) : 0, skipped = 0;
        if (nenv > SPEC_MAX_ENV)
                return error_set(err, 0, "config.Env has %zu entries; crib takes %d", nenv,
                                 SPEC_MAX_ENV);
        for (size_t i = 0; i < nenv; i++) {
                struct json_object *v = json_object_array_get_idx(env, i);
                const char *e = json_object_get_string(v);
                size_t elen = (size_t)json_object_get_string_len(v);
                const char *eq = memchr(e, '=', elen);
                char what[64];
                snprintf(what, sizeof what, "config.Env[%zu]", i);
                if (!eq)
                        return error_set(err, 0, "%s '%s' is not NAME=VALUE", what, e);
                size_t nlen = (size_t)(eq - e);
                bool later = false;
                for (size_t j = i + 1; j < nenv && !later; j++) {
                        struct json_object *f = json_object_array_get_idx(env, j);
                        later = (size_t)json_object_get_string_len(f) > nlen &&
                                !memcmp(json_object_get_string(f), e, nlen + 1);
                }
                if (later)
                        continue;
                if (!env_name_ok(e, nlen)) {
                        /* a name crib.ini cannot set: said, not dropped unsaid */
                        imgspec_escape(e, nlen, IMGSPEC_TEXT, text, sizeof text, what, err);
                        put_comment(w,
                                    "not applied: the image's env '%s' (crib.ini takes names "
                                    "of letters, digits and _)",
                                    text);
                        if (!skipped++)
                                warn(ret,
                                     "%s: the environment variable '%.*s' is not applied: "
                                     "crib.ini takes names of letters, digits and _ only",
                                     what, (int)(nlen < 64 ? nlen : 64), e);
                        continue;
                }
                /* the line is "env = VALUE\n" */
                if (imgspec_escape(e, elen, IMGSPEC_VALUE, line, sizeof line - 6, what, err) < 0 ||
                    put_key(w, "env", line, err) < 0)
                        return -1;
        }
        return 0;
}

/* cwd: the working directory, made absolute */
static int write_cwd(struct writer *w, const char *workdir, size_t workdir_len, struct error *err)
{
        if (!workdir || !workdir_len)
                return 0;
        char abs[4096], line[INI_MAX_LINE];
        if (workdir_len + 2 > sizeof abs)
                return error_set(err, 0, "config.WorkingDir is too long");
        size_t used = workdir[0] == '/' ? 0 : 1;
        abs[0] = '/';
        memcpy(abs + used, workdir, workdir_len);
        if (imgspec_escape(abs, used + workdir_len, IMGSPEC_VALUE, line, sizeof line - 8,
                           "config.WorkingDir", err) < 0)
                return -1;
        return put_key(w, "cwd", line, err);
}

/* user: the image's, when this import's ids can hold it; else 0:0, said why */
static int write_user(struct writer *w, const struct imgspec_opts *o, const char *user,
                      struct imgspec_result *ret, struct error *err)
{
        char text[TEXT_MAX];
        bool mapped = o->root || o->subids || (ret->uid == 0 && ret->gid == 0);
        if (o->subids && !o->root &&
            ((o->nuids && ret->uid >= o->nuids) || (o->ngids && ret->gid >= o->ngids))) {
                put_comment(w,
                            "the image's user %" PRIu32 ":%" PRIu32 " is beyond the %" PRIu64
                            " uids and %" PRIu64 " gids your ranges map: crib run refuses it",
                            ret->uid, ret->gid, o->nuids, o->ngids);
                warn(ret,
                     "the image runs as %" PRIu32 ":%" PRIu32 ", beyond the ids your "
                     "/etc/subuid and /etc/subgid ranges map (%" PRIu64 " and %" PRIu64 "); "
                     "give yourself larger ranges, or run it with another user",
                     ret->uid, ret->gid, o->nuids, o->ngids);
        }
        char ids[32];
        if (mapped) {
                snprintf(ids, sizeof ids, "%" PRIu32 ":%" PRIu32, ret->uid, ret->gid);
        } else {
                put_comment(w,
                            "the image runs as %" PRIu32 ":%" PRIu32 " ('%s'), which needs a "
                            "subordinate range (uid = auto);",
                            ret->uid, ret->gid, imgspec_text(user, text, sizeof text));
                put_comment(w, "without one it runs as 0:0, you");
                snprintf(ids, sizeof ids, "0:0");
                warn(ret,
                     "the image runs as %" PRIu32 ":%" PRIu32 " ('%.64s'); you have no range in "
                     "/etc/subuid and /etc/subgid, so the spec runs it as 0:0 (you)",
                     ret->uid, ret->gid, user);
        }
        return put_key(w, "user", ids, err);
}

/* What the config asks that crib does not do, as comments: ports, volumes, the stop signal, a
 * health check. */
static void write_notes(struct writer *w, const struct cfg_fields *f, struct error *err)
{
        char buf[1024], text[TEXT_MAX];
        keys(f->cfg, "ExposedPorts", buf, sizeof buf);
        if (buf[0]) {
                put_comment(w,
                            "the image exposes %s: with net = yes (below) the container has "
                            "only loopback;",
                            buf);
                put_comment(w, "net = no shares the host's network");
        }
        keys(f->cfg, "Volumes", buf, sizeof buf);
        if (buf[0]) {
                put_comment(w,
                            "not applied: the image's volumes %s (they are plain directories "
                            "of rootfs;",
                            buf);
                put_comment(w, "bind a host directory there under [mounts] to keep their data "
                               "apart)");
        }
        if (f->stopsignal && f->stopsignal_len) {
                imgspec_escape(f->stopsignal, f->stopsignal_len, IMGSPEC_TEXT, text, 72,
                               "StopSignal", err);
                put_comment(w,
                            "not applied: the image's StopSignal %s ('crib stop' sends SIGTERM; "
                            "'crib kill NAME %s' sends it)",
                            text, text);
        }
}

/* [service]: the image's Healthcheck (imghealth.c), when it has one */
static int write_health(struct writer *w, const struct cfg_fields *f, struct error *err)
{
        struct imghealth h;
        imghealth_read(f->cfg, &h);
        const char *keys[] = {"healthcheck", "healthcheck_interval", "healthcheck_timeout",
                              "healthcheck_start_period", "healthcheck_retries"};
        const char *values[] = {h.test, h.interval, h.timeout, h.start_period, h.retries};
        if (h.note[0])
                put_comment(w, "%s", h.note);
        if (!h.test[0])
                return 0;
        fputc('\n', w->f);
        if (put_section(w, "service", err) < 0)
                return -1;
        put_comment(w, "the image's Healthcheck: run by crib's monitor with 'crib run -d'");
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
                if (values[i][0] && put_key(w, keys[i], values[i], err) < 0)
                        return -1;
        return 0;
}

/* [namespaces], and [idmap] when the import mapped the user's ranges */
static int write_namespaces(struct writer *w, const struct imgspec_opts *o, struct error *err)
{
        fputc('\n', w->f);
        if (put_section(w, "namespaces", err) < 0 || put_key(w, "net", "yes", err) < 0)
                return -1;
        if (o->subids && !o->root) {
                fputc('\n', w->f);
                if (put_section(w, "idmap", err) < 0)
                        return -1;
                put_comment(w, "the image's ids: 0 is you, 1..N your /etc/subuid and "
                               "/etc/subgid ranges");
                if (put_key(w, "uid", "auto", err) < 0 || put_key(w, "gid", "auto", err) < 0)
                        return -1;
        }
        return 0;
}

/* The spec: where it comes from, [container], [process] (args, env, cwd, user, what is not
 * applied), then [namespaces] and [idmap]. */
static int write_spec(struct json_object *config, const struct imgspec_opts *o, struct writer *w,
                      struct imgspec_result *ret, struct error *err)
{
        struct cfg_fields f;
        if (read_fields(config, &f, err) < 0 ||
            imgspec_user(f.user, o->passwd, o->group, &ret->uid, &ret->gid, err) < 0)
                return -1;
        if (write_head(w, o, err) < 0 || write_args(w, &f, ret, err) < 0 ||
            write_env(w, f.env, ret, err) < 0 || write_cwd(w, f.workdir, f.workdir_len, err) < 0 ||
            write_user(w, o, f.user, ret, err) < 0)
                return -1;
        write_notes(w, &f, err);
        if (write_health(w, &f, err) < 0)
                return -1;
        return write_namespaces(w, o, err);
}

int imgspec_write(struct json_object *config, const struct imgspec_opts *o, FILE *out,
                  struct imgspec_result *ret, struct error *err)
{
        memset(ret, 0, sizeof *ret);
        _cleanup_free_ char *text = NULL;
        size_t len = 0;
        _cleanup_free_ struct imgspec_key *keys = calloc(SPEC_TEXT_KEYS, sizeof *keys);
        struct writer w = {.keys = keys};
        if (!keys || !(w.f = open_memstream(&text, &len)))
                return error_set(err, ENOMEM, "out of memory");
        int r = write_spec(config, o, &w, ret, err);
        if (fclose(w.f) != 0 && r == 0)
                r = error_set(err, ENOMEM, "out of memory");
        if (r < 0 || imgspec_check(text, len, w.keys, w.n, err) < 0)
                return -1;
        if (o->no_rootfs) {
                /* checked with it (spec_load wants a rootfs); the store's spec goes without */
                static const char line[] = "[container]\nrootfs = rootfs\n\n";
                char *at = strstr(text, line);
                if (!at)
                        return error_set(err, 0, "the spec has no rootfs line to leave out");
                memmove(at, at + sizeof line - 1, len - (size_t)(at - text) - (sizeof line - 1));
                len -= sizeof line - 1;
        }
        errno = 0;
        if (fwrite(text, 1, len, out) != len || fflush(out) != 0)
                return error_set(err, errno ? errno : EIO, "cannot write the spec");
        return 0;
}
