/* fuzz_imgspec - libFuzzer target: an image's config made into a crib spec (runtime/image/
 * imgspec.c), the file `crib image import` writes and `crib run DIR/crib.ini` obeys.
 *
 * The input is the image: a JSON config document when it starts with '{'; otherwise a flags
 * byte, then fields separated by 0xff put as they are (any other byte: controls, NUL, what is
 * not UTF-8) into the strings an image's maker chooses: field i goes to slot i % 12, the
 * source's name, platform, User, StopSignal, WorkingDir (the last one wins), a port, a volume,
 * an Env entry, an Entrypoint or a Cmd word (each one more), the image's /etc/passwd and
 * /etc/group.
 *
 * Invariants, checked here apart from imgspec.c's own read-back (issue 31, hole 2):
 *  - a refusal never comes from imgspec_check(): that net firing means an image string got
 *    past the escaping;
 *  - a written spec, read with crib's INI tokenizer, holds only the importer's sections and
 *    keys ([container] rootfs; [process] args, env, cwd, user; [namespaces] net; [idmap] uid,
 *    gid), each once but env: never one the image chose;
 *  - no byte of it is a control character but the newlines, nor a C1 control or a byte that is
 *    not UTF-8, and no line is longer than INI_MAX_LINE;
 *  - spec_load() accepts it, and its args, env and cwd are the image's, byte for byte.
 * The fuzz build runs under ASan and UBSan: a crash, leak or bad read is a finding too.
 * Seeds: tests/fuzz/run writes them (configs of real images and hostile ones).
 */
#define _GNU_SOURCE
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/imgspec.h"
#include "base/ini.h"
#include "spec/spec.h"
#include "../unit/imgspec_keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *text, size_t len)
{
        fprintf(stderr, "fuzz_imgspec: %s\n--- the spec ---\n", what);
        fwrite(text, 1, len, stderr);
        fprintf(stderr, "\n---\n");
        abort();
}

/* the bytes of the spec: no control character but '\n', only UTF-8 without C1 controls, no
 * line longer than INI_MAX_LINE */
static void check_bytes(const char *text, size_t len)
{
        const unsigned char *p = (const unsigned char *)text;
        size_t col = 0;
        for (size_t i = 0; i < len; i++) {
                if (p[i] == '\n') {
                        col = 0;
                        continue;
                }
                if (++col >= INI_MAX_LINE)
                        fail("a line longer than INI_MAX_LINE", text, len);
                if (p[i] < 0x20 || p[i] == 0x7f)
                        fail("a control character in the spec", text, len);
                if (p[i] < 0x80)
                        continue;
                size_t n = p[i] >= 0xf0 ? 4 : p[i] >= 0xe0 ? 3 : 2;
                if (p[i] < 0xc2 || p[i] > 0xf4 || i + n > len)
                        fail("a byte that is not UTF-8 in the spec", text, len);
                for (size_t k = 1; k < n; k++)
                        if ((p[i + k] & 0xc0) != 0x80)
                                fail("a byte that is not UTF-8 in the spec", text, len);
                if (p[i] == 0xc2 && p[i + 1] < 0xa0)
                        fail("a C1 control character in the spec", text, len);
                i += n - 1;
                col += n - 1;
        }
}

/* the sections and keys: the importer's own only */
static void check_keys(const char *text, size_t len)
{
        const char *const(*allowed)[2] = imgspec_allowed_keys;
        const size_t nallowed = sizeof imgspec_allowed_keys / sizeof imgspec_allowed_keys[0];
        struct ini_file ini;
        struct error err;
        if (ini_parse_text(text, len, "crib.ini", &ini, &err) < 0)
                fail("the spec is not INI", text, len);
        unsigned seen = 0;
        for (size_t i = 0; i < ini.n; i++) {
                const struct ini_entry *e = &ini.entries[i];
                size_t k = 0;
                while (k < nallowed && !(e->section && !strcmp(e->section, allowed[k][0]) &&
                                         (!e->key || !strcmp(e->key, allowed[k][1]))))
                        k++;
                if (k == nallowed)
                        fail("a section or key the importer does not write", text, len);
                if (e->key && strcmp(e->key, "env") && (seen & (1u << k)))
                        fail("a key twice", text, len);
                if (e->key)
                        seen |= 1u << k;
        }
        ini_free(&ini);
}

/* the strings of config.KEY, NULL when not an array of strings */
static struct json_object *array(struct json_object *cfg, const char *key)
{
        struct json_object *v;
        if (!cfg || !json_object_object_get_ex(cfg, key, &v) ||
            !json_object_is_type(v, json_type_array))
                return NULL;
        return v;
}

static bool same(struct json_object *s, const char *c)
{
        size_t n = (size_t)json_object_get_string_len(s);
        return c && strlen(c) == n && !memcmp(json_object_get_string(s), c, n);
}

static bool name_ok(const char *s, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
                      (i && s[i] >= '0' && s[i] <= '9')))
                        return false;
        return n > 0;
}

/* what spec_load read is the image's: args, env (the last of a name), cwd */
static void check_values(struct json_object *config, const char *text, size_t len)
{
        struct spec *s = calloc(1, sizeof *s);
        struct error err;
        FILE *f = fmemopen((void *)text, len, "r");
        if (!s || !f)
                abort();
        if (spec_load("crib.ini", f, false, s, &err) < 0)
                fail("spec_load refuses the spec", text, len);
        fclose(f);
        struct json_object *cfg = NULL;
        json_object_object_get_ex(config, "config", &cfg);
        struct json_object *parts[2] = {array(cfg, "Entrypoint"), array(cfg, "Cmd")};
        size_t a = 0;
        for (int k = 0; k < 2; k++)
                for (size_t i = 0; parts[k] && i < json_object_array_length(parts[k]); i++)
                        if (!same(json_object_array_get_idx(parts[k], i), s->args[a++]))
                                fail("an argument is not the image's", text, len);
        if (a ? s->args[a] != NULL : strcmp(s->args[0], "/bin/sh") || s->args[1])
                fail("the arguments are not the image's", text, len);

        struct json_object *env = array(cfg, "Env");
        size_t nenv = env ? json_object_array_length(env) : 0, k = 0;
        for (size_t i = 0; i < nenv; i++) {
                struct json_object *e = json_object_array_get_idx(env, i);
                const char *es = json_object_get_string(e);
                const char *eq = memchr(es, '=', (size_t)json_object_get_string_len(e));
                bool later = false;
                for (size_t j = i + 1; j < nenv && !later; j++) {
                        struct json_object *g = json_object_array_get_idx(env, j);
                        later = json_object_get_string_len(g) > eq - es &&
                                !memcmp(json_object_get_string(g), es, (size_t)(eq - es) + 1);
                }
                if (later || !name_ok(es, (size_t)(eq - es)))
                        continue;
                if (k >= s->nenv || !same(e, s->env[k++]))
                        fail("an env entry is not the image's", text, len);
        }
        if (k != s->nenv)
                fail("an env entry the image did not set", text, len);

        struct json_object *wd;
        if (cfg && json_object_object_get_ex(cfg, "WorkingDir", &wd) &&
            json_object_is_type(wd, json_type_string) && json_object_get_string_len(wd)) {
                const char *w = json_object_get_string(wd);
                size_t n = (size_t)json_object_get_string_len(wd);
                size_t off = w[0] == '/' ? 0 : 1;
                if (!s->cwd || strlen(s->cwd) != n + off || memcmp(s->cwd + off, w, n))
                        fail("cwd is not the image's WorkingDir", text, len);
        }
        spec_free(s);
        free(s);
}

/* the structured form: a flags byte, then fields separated by 0xff */
static struct json_object *from_fields(const uint8_t *data, size_t size, struct imgspec_opts *o,
                                       char **strs)
{
        struct json_object *top = json_object_new_object(), *cfg = json_object_new_object();
        struct json_object *ports = json_object_new_object(), *vols = json_object_new_object();
        struct json_object *env = json_object_new_array(), *ep = json_object_new_array();
        struct json_object *cmd = json_object_new_array();
        json_object_object_add(top, "config", cfg);
        json_object_object_add(cfg, "ExposedPorts", ports);
        json_object_object_add(cfg, "Volumes", vols);
        json_object_object_add(cfg, "Env", env);
        json_object_object_add(cfg, "Entrypoint", ep);
        json_object_object_add(cfg, "Cmd", cmd);
        /* a Healthcheck: empty, or a test of the Cmd's strings (CMD, or CMD-SHELL with the
         * first), its timing from the flags (imghealth.c) */
        struct json_object *test = NULL;
        if (data[0] & 8) {
                struct json_object *hc = json_object_new_object();
                json_object_object_add(cfg, "Healthcheck", hc);
                if (data[0] & 16) {
                        test = json_object_new_array();
                        json_object_array_add(
                                test, json_object_new_string(data[0] & 32 ? "CMD-SHELL" : "CMD"));
                        json_object_object_add(hc, "Test", test);
                        json_object_object_add(
                                hc, "Interval",
                                json_object_new_int64(data[0] & 64 ? -1 : 250000000));
                        json_object_object_add(hc, "Retries",
                                               json_object_new_int64(data[0] & 128 ? 99999 : 2));
                }
        }
        size_t i = 1, field = 0;
        while (i <= size && field < 64) {
                const uint8_t *end = memchr(data + i, 0xff, size - i);
                size_t n = end ? (size_t)(end - (data + i)) : size - i;
                const char *s = (const char *)data + i;
                struct json_object *str = json_object_new_string_len(s, (int)n);
                char *z = strndup(s, n); /* C strings: the options, object keys, passwd */
                switch (field % 12) {
                case 0: /* the source's name and platform: from the user, or the image */
                case 1:
                        free(strs[field % 12]);
                        strs[field % 12] = z, z = NULL;
                        break;
                case 2:
                        json_object_object_add(cfg, "User", json_object_get(str));
                        break;
                case 3:
                        json_object_object_add(cfg, "StopSignal", json_object_get(str));
                        break;
                case 4:
                        json_object_object_add(cfg, "WorkingDir", json_object_get(str));
                        break;
                case 5:
                        json_object_object_add(ports, z, json_object_new_object());
                        break;
                case 6:
                        json_object_object_add(vols, z, json_object_new_object());
                        break;
                case 7:
                        json_object_array_add(env, json_object_get(str));
                        break;
                case 8:
                        json_object_array_add(ep, json_object_get(str));
                        break;
                case 9:
                        json_object_array_add(cmd, json_object_get(str));
                        if (test && (json_object_array_length(test) < 2 || !(data[0] & 32)))
                                json_object_array_add(test, json_object_get(str));
                        break;
                case 10:
                case 11:
                        free(strs[field % 12]);
                        strs[field % 12] = z, z = NULL;
                        break;
                }
                free(z);
                json_object_put(str);
                i += n + 1;
                field++;
        }
        o->source = strs[0] ? strs[0] : "'image.tar'";
        o->platform = strs[1];
        o->passwd = strs[10];
        o->group = strs[11];
        return top;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size == 0)
                return 0;
        struct imgspec_opts o = {.source = "'image.tar'", .platform = "linux/arm/v6"};
        char *strs[12] = {0};
        struct json_object *config;
        if (data[0] == '{') {
                char *copy = strndup((const char *)data, size); /* the input has no NUL */
                config = copy ? json_tokener_parse(copy) : NULL;
                free(copy);
                if (!config)
                        return 0;
                o.passwd = "root:x:0:0::/root:/bin/sh\nweb:x:33:33::/:/bin/false\n";
                o.group = "root:x:0:\nweb:x:33:\n";
        } else {
                config = from_fields(data, size, &o, strs);
        }
        uint8_t flags = data[0] == '{' ? data[size - 1] : data[0];
        o.root = flags & 1;
        o.subids = flags & 2;
        o.nuids = o.ngids = flags & 4 ? 30 : 0;

        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        struct imgspec_result r;
        struct error err;
        if (!out)
                abort();
        int rc = imgspec_write(config, &o, out, &r, &err);
        fclose(out);
        if (rc < 0) {
                /* imgspec_check's refusals, which begin so; the others name the config first */
                if (!strncmp(err.msg, "crib.ini:", 9) || err.msg[0] == '\'' ||
                    !strncmp(err.msg, "the spec made from the image", 28))
                        fail(err.msg, text, len); /* the read-back net caught what got through */
                if (len)
                        fail("a refused spec was written all the same", text, len);
        } else {
                check_bytes(text, len);
                check_keys(text, len);
                check_values(config, text, len);
        }
        free(text);
        json_object_put(config);
        for (size_t i = 0; i < 12; i++)
                free(strs[i]);
        return 0;
}
