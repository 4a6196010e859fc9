/* Unit tests of the pure parts of `crib image import` (runtime/image/): the machine's platform
 * and the fit of an image's (and the error when none fits), the set of paths a layer made, the
 * limit of what the layers write, layer entry names, and the image config made into a spec that
 * crib reads back unchanged (spec_load); hostile strings in every field of the config that
 * reaches crib.ini (issue 31): none may add a key, nor put a control character in the file. */
#define _GNU_SOURCE
#include <json-c/json.h>
#include <stdlib.h>

#include "image/budget.h"
#include "base/ini.h"
#include "image/imgpath.h"
#include "image/imgspec.h"
#include "image/pathset.h"
#include "image/platform.h"
#include "spec/spec.h"
#include "../lib/tap.h"
#include "imgspec_keys.h"

static const char *detect(const char *machine, const char *aux, const char *part)
{
        static char buf[64];
        struct platform p;
        platform_detect(machine, aux, part, &p);
        platform_format(&p, buf, sizeof buf);
        return buf;
}

static int score(const char *machine, const char *os, const char *arch, const char *variant)
{
        struct platform m;
        struct error err;
        if (platform_parse(machine, &m, &err) < 0)
                return -1;
        return platform_score(&m, os, arch, variant);
}

static void test_platform(void)
{
        is_str(detect("x86_64", "x86_64", NULL), "linux/amd64", "x86_64 is linux/amd64");
        is_str(detect("aarch64", "aarch64", NULL), "linux/arm64/v8", "aarch64 is linux/arm64/v8");
        is_str(detect("armv7l", "v7l", "0xd03"), "linux/arm/v7",
               "armv7l (Cortex-A53, Pi 3 in 32 bits) is linux/arm/v7");
        is_str(detect("armv6l", "v6l", "0xb76"), "linux/arm/v6",
               "armv6l (Pi Zero, Pi 1) is linux/arm/v6");
        /* the trap: those boards' cpuinfo says "CPU architecture: 7"; uname, AT_PLATFORM and the
         * CPU part say 6, and any one of them saying 6 wins */
        is_str(detect("armv7l", NULL, "0xb76"), "linux/arm/v6",
               "an ARM1176 (CPU part 0xb76) is arm/v6 whatever uname says");
        is_str(detect("armv7l", "v6l", NULL), "linux/arm/v6", "AT_PLATFORM v6l makes it arm/v6");
        is_str(detect("armv6l", NULL, NULL), "linux/arm/v6", "uname armv6l alone is arm/v6");
        is_str(detect("armv8l", "v8l", "0xd08"), "linux/arm/v7",
               "armv8l (32-bit on arm64) is arm/v7");
        is_str(detect("armv5tel", NULL, "0x926"), "linux/arm/v5", "armv5tel is arm/v5");
        is_str(detect("riscv64", NULL, NULL), "linux/riscv64", "riscv64 keeps its name");

        ok(score("linux/arm/v6", "linux", "arm", "v7") == 0, "arm/v7 does not run on arm/v6");
        ok(score("linux/arm/v6", "linux", "arm", "v6") > 0, "arm/v6 runs on arm/v6");
        ok(score("linux/arm/v6", "linux", "arm", "v5") > 0, "arm/v5 runs on arm/v6");
        ok(score("linux/arm/v7", "linux", "arm", "v7") >
                   score("linux/arm/v7", "linux", "arm", "v6"),
           "on arm/v7, arm/v7 is preferred to arm/v6");
        ok(score("linux/arm/v6", "linux", "arm", "v6") >
                   score("linux/arm/v6", "linux", "arm", NULL),
           "on arm/v6, an exact variant is preferred to none");
        ok(score("linux/arm64/v8", "linux", "arm64", NULL) > 0,
           "arm64 without a variant runs on arm64/v8");
        ok(score("linux/amd64", "linux", "amd64", "v3") == 0, "amd64/v3 is not assumed on amd64");
        ok(score("linux/amd64", "linux", "arm64", "v8") == 0, "arm64 does not run on amd64");
        ok(score("linux/amd64", "windows", "amd64", NULL) == 0,
           "windows/amd64 does not run on linux");

        struct platform p;
        struct error err;
        ok(platform_parse("linux/arm/v6", &p, &err) == 0 && !strcmp(p.variant, "v6"),
           "parse linux/arm/v6");
        ok(platform_parse("arm", &p, &err) < 0, "'arm' is not a platform");
        ok(platform_parse("linux//v6", &p, &err) < 0, "'linux//v6' is not a platform");
        ok(platform_parse("linux/arm/v6/x", &p, &err) < 0, "'linux/arm/v6/x' is not a platform");
}

static const char *clean(const char *name)
{
        static char buf[IMGPATH_MAX], out[IMGPATH_MAX + 32];
        const char *why = imgpath_clean(name, buf, sizeof buf);
        snprintf(out, sizeof out, "%s", why ? why : buf);
        return out;
}

/* the platform an image says it has, and the error when none of its platforms fits */
static void test_image_platform(void)
{
        char os[16], arch[16], variant[8], buf[64];
        struct json_object *cfg = json_tokener_parse(
                "{\"os\":\"linux\",\"architecture\":\"arm\",\"variant\":\"v7\"}");
        platform_of_config(cfg, os, arch, variant);
        platform_describe(buf, sizeof buf, os, arch, variant);
        is_str(buf, "linux/arm/v7", "a config's os, architecture and variant");
        json_object_put(cfg);
        cfg = json_tokener_parse("{\"os\":\"linux\",\"architecture\":7}");
        platform_of_config(cfg, os, arch, variant);
        platform_describe(buf, sizeof buf, os, arch, variant);
        is_str(buf, "linux/?", "an architecture that is not a string is unknown, no variant");
        json_object_put(cfg);

        struct platform me;
        struct error err;
        platform_parse("linux/arm/v6", &me, &err);
        const char have[3][64] = {"linux/arm64/v8", "linux/amd64", "linux/arm64/v8"};
        error_clear(&err);
        ok(platform_no_match(have, 3, &me, false, &err) < 0, "no platform fits: an error");
        is_str(err.msg, "this image has linux/arm64/v8, linux/amd64; this machine is linux/arm/v6",
               "listing each of the image's platforms once, and the machine's");
        contains(err.hint, "'--platform OS/ARCH[/VARIANT]' imports one of those anyway",
                 "with the remedy");
        error_clear(&err);
        platform_no_match(have + 1, 1, &me, true, &err);
        is_str(err.msg, "this image has linux/amd64 only; --platform asked for linux/arm/v6",
               "one platform, against the one --platform asked for");
        is_str(err.hint, "", "no remedy then");
}

/* the set of the paths a layer made */
static void test_pathset(void)
{
        struct pathset s = {0};
        char p[32];
        ok(!pathset_has(&s, "a"), "an empty set has nothing");
        int r = 0;
        for (int i = 0; i < 5000; i++) {
                snprintf(p, sizeof p, "dir/%d", i);
                r |= pathset_add(&s, p);
        }
        ok(r == 0 && pathset_add(&s, "dir/7") == 0 && s.n == 5000,
           "5000 paths added (the table grown), one again not twice");
        ok(pathset_has(&s, "dir/0") && pathset_has(&s, "dir/4999") &&
                   !pathset_has(&s, "dir/5000") && !pathset_has(&s, "dir"),
           "each is found, nothing else is");
        pathset_free(&s);
}

/* what the layers may write */
static void test_budget(void)
{
        struct layer_ctx c = {.root = -1, .max_bytes = 20u << 20};
        struct error err;
        error_clear(&err);
        ok(budget_charge(&c, 10u << 20, &err) == 0 && budget_charge(&c, 10u << 20, &err) == 0,
           "20 MiB under a 20 MiB limit");
        ok(budget_charge(&c, 1, &err) < 0, "a byte more is over it");
        is_str(err.msg, "the image writes more than 20.0 MiB, the limit of an import",
               "saying the limit");
        contains(err.hint, "crib image import --max-size 40M SOURCE DIR",
                 "and the --max-size that doubles it");
        ok(budget_check_room(&c, &err) == 0, "no room asked for (min_free 0): never short");
}

static void test_paths(void)
{
        is_str(clean("./usr/bin/sh"), "usr/bin/sh", "'./usr/bin/sh' cleans to 'usr/bin/sh'");
        is_str(clean("usr//bin/./sh/"), "usr/bin/sh", "doubled slashes and '.' go");
        is_str(clean("./"), "", "'./' is the root");
        is_str(clean("/etc/passwd"), "is absolute", "an absolute name is refused");
        is_str(clean("../etc/passwd"), "has a '..' component", "'../' is refused");
        is_str(clean("a/../../b"), "has a '..' component", "'..' inside is refused");
        is_str(clean("a/..b/c..d"), "a/..b/c..d", "'..b' is only a name");
        char deep[IMGPATH_MAX * 2] = "";
        for (int i = 0; i < 200; i++)
                strcat(deep, "d/");
        is_str(clean(deep), "is nested too deeply", "200 levels are refused");
        char longname[300];
        memset(longname, 'x', 299);
        longname[299] = '\0';
        is_str(clean(longname), "has a component longer than 255 bytes",
               "a 299-byte name is refused");

        const char *t;
        ok(imgpath_kind("a/.wh.b", &t) == IMGPATH_WHITEOUT && !strcmp(t, "b"), "'.wh.b' deletes b");
        ok(imgpath_kind(".wh..wh..opq", &t) == IMGPATH_OPAQUE, "'.wh..wh..opq' is opaque");
        ok(imgpath_kind("a/.wh..wh.plnk", &t) == IMGPATH_META, "'.wh..wh.plnk' is ignored");
        ok(imgpath_kind("a/.wh...", &t) == IMGPATH_BAD, "a whiteout of '..' is refused");
        ok(imgpath_kind("a/.wh..", &t) == IMGPATH_BAD, "a whiteout of '.' is refused");
        ok(imgpath_kind("a/b.wh.c", &t) == IMGPATH_PLAIN, "'b.wh.c' is a plain name");
}

/* the spec for `config`, read back by crib's own spec reader */
static int roundtrip(const char *config, const struct imgspec_opts *o, struct spec *s, char *text,
                     size_t len, struct imgspec_result *r, struct error *err)
{
        struct json_object *j = json_tokener_parse(config);
        FILE *f = fmemopen(text, len, "w");
        int ret = imgspec_write(j, o, f, r, err);
        fclose(f);
        json_object_put(j);
        if (ret < 0)
                return -1;
        f = fmemopen(text, strlen(text), "r");
        ret = spec_load("crib.ini", f, false, s, err);
        fclose(f);
        return ret;
}

static void test_spec(void)
{
        static char text[16384];
        struct spec s;
        struct error err;
        struct imgspec_result r;
        struct imgspec_opts o = {
                .source = "'img.tar'",
                .platform = "linux/amd64",
                .subids = true,
                .passwd = "root:x:0:0::/root:/bin/sh\nwww-data:x:33:34::/var/www:/bin/false\n",
                .group = "root:x:0:\nstaff:x:50:\n"};
        const char *cfg =
                "{\"architecture\":\"amd64\",\"config\":{"
                "\"Entrypoint\":[\"/bin/sh\",\"-c\"],"
                "\"Cmd\":[\"echo \\\"$HOME\\\" `id` # not a comment; \\\\ 'q'\"],"
                "\"Env\":[\"PATH=/bin\",\"A=x # y\",\"A=last\",\"Q=\\\"quoted\\\" \\\\ "
                "tab\\there\"],"
                "\"WorkingDir\":\"srv\",\"User\":\"www-data\","
                "\"ExposedPorts\":{\"80/tcp\":{},\"53/udp\":{}},\"Volumes\":{\"/data\":{}},"
                "\"StopSignal\":\"SIGQUIT\"}}";
        int rc = roundtrip(cfg, &o, &s, text, sizeof text, &r, &err);
        ok(rc == 0, "the spec of a full config reads back (%s)", rc ? err.msg : "ok");
        if (rc == 0) {
                is_str(s.args[0], "/bin/sh", "args[0]");
                is_str(s.args[1], "-c", "args[1]");
                is_str(s.args[2], "echo \"$HOME\" `id` # not a comment; \\ 'q'",
                       "args[2] keeps quotes, $, backquotes, '#' and backslashes");
                ok(s.args[3] == NULL, "three args");
                ok(s.nenv == 3, "three env entries (A twice in the image: the last wins)");
                is_str(s.env[1], "A=last", "the last A wins");
                is_str(s.env[2], "Q=\"quoted\" \\ tab\there", "quotes, backslash and tab kept");
                is_str(s.cwd, "/srv", "a relative WorkingDir is made absolute");
                ok(s.uid == 33 && s.gid == 34, "User www-data is 33:34 from the image's passwd");
                spec_free(&s);
        }
        contains(text, "# the image exposes 80/tcp 53/udp", "exposed ports are a comment");
        contains(text, "# not applied: the image's volumes /data", "volumes are said");
        contains(text, "# not applied: the image's StopSignal SIGQUIT", "the stop signal is said");
        contains(text, "uid = auto", "with subordinate ids: uid = auto");

        o.subids = false;
        rc = roundtrip(cfg, &o, &s, text, sizeof text, &r, &err);
        ok(rc == 0 && s.uid == 0 && r.nwarnings == 1,
           "without subordinate ids: user 0:0, with a warning");
        if (rc == 0)
                spec_free(&s);
        contains(r.warnings[0], "the image runs as 33:34 ('www-data')",
                 "the warning names the image's user");
        o.subids = true;

        o.nuids = o.ngids = 30;
        rc = roundtrip(cfg, &o, &s, text, sizeof text, &r, &err);
        ok(rc == 0 && r.nwarnings == 1, "a user beyond the mapped ids: a warning");
        if (rc == 0)
                spec_free(&s);
        contains(r.warnings[0], "beyond the ids your /etc/subuid", "saying so");
        o.nuids = o.ngids = 0;

        /* the Healthcheck (imghealth.c): into [service], read back by the spec reader */
        rc = roundtrip("{\"config\":{\"Cmd\":[\"x\"],\"Healthcheck\":{\"Test\":[\"CMD-SHELL\","
                       "\"curl -f \\\"http://x/\\\" || exit 1\"],\"Interval\":1500000000,"
                       "\"Timeout\":0,\"Retries\":4}}}",
                       &o, &s, text, sizeof text, &r, &err);
        ok(rc == 0 && s.health.argv && !strcmp(s.health.argv[0], "/bin/sh") &&
                   !strcmp(s.health.argv[1], "-c") &&
                   !strcmp(s.health.argv[2], "curl -f \"http://x/\" || exit 1") &&
                   !s.health.argv[3] && s.health.interval_ms == 1500 &&
                   s.health.timeout_ms == 30000 && s.health.retries == 4,
           "Healthcheck CMD-SHELL: /bin/sh -c COMMAND, 1.5 s, the default timeout, 4 retries");
        if (rc == 0)
                spec_free(&s);
        rc = roundtrip("{\"config\":{\"Cmd\":[\"x\"],\"Healthcheck\":{\"Test\":[\"CMD\",\"/c\","
                       "\"a b\"],\"StartPeriod\":-1,\"Retries\":5000}}}",
                       &o, &s, text, sizeof text, &r, &err);
        ok(rc == 0 && s.health.argv && !strcmp(s.health.argv[1], "a b") &&
                   s.health.start_period_ms == 0 && s.health.retries == 3,
           "Healthcheck CMD: its words; a negative start period, 5000 retries: left out");
        if (rc == 0)
                spec_free(&s);
        rc = roundtrip("{\"config\":{\"Cmd\":[\"x\"],\"Healthcheck\":{\"Test\":[\"CMD\","
                       "\"/bin/true\\n[security]\\nlevel = unconfined\"]}}}",
                       &o, &s, text, sizeof text, &r, &err);
        ok(rc == 0 && !s.health.argv && !strstr(text, "[security]"),
           "Healthcheck with a newline in a word: no check, no key of the image's");
        contains(text, "# not applied: the image's Healthcheck", "and a comment says so");
        if (rc == 0)
                spec_free(&s);

        rc = roundtrip("{\"config\":{\"Cmd\":[\"a\\nb\"]}}", &o, &s, text, sizeof text, &r, &err);
        ok(rc < 0, "a newline in an argument is refused");
        contains(err.msg, "config.Cmd[0] holds control character 0x0a", "naming the JSON path");
        rc = roundtrip("{\"config\":{\"Env\":[\"NOEQUALS\"]}}", &o, &s, text, sizeof text, &r,
                       &err);
        ok(rc < 0 && strstr(err.msg, "config.Env[0] 'NOEQUALS' is not NAME=VALUE"),
           "an env without '=' is refused");
        rc = roundtrip("{\"config\":{\"Cmd\":\"sh\"}}", &o, &s, text, sizeof text, &r, &err);
        ok(rc < 0 && strstr(err.msg, "config.Cmd is not an array of strings"),
           "a Cmd that is a string is refused");
        rc = roundtrip("{\"config\":{\"User\":\"nobody\"}}", &o, &s, text, sizeof text, &r, &err);
        ok(rc < 0 && strstr(err.msg, "user 'nobody' is not in the image's /etc/passwd"),
           "an unknown user name is refused");
        rc = roundtrip("{}", &o, &s, text, sizeof text, &r, &err);
        ok(rc == 0 && !strcmp(s.args[0], "/bin/sh"), "no config: /bin/sh");
        if (rc == 0)
                spec_free(&s);

        uint32_t u, g;
        ok(imgspec_user("1000", NULL, NULL, &u, &g, &err) == 0 && u == 1000 && g == 0,
           "uid alone: gid 0");
        ok(imgspec_user("33:staff", o.passwd, o.group, &u, &g, &err) == 0 && u == 33 && g == 50,
           "uid:group name");
        ok(imgspec_user("4294967295", NULL, NULL, &u, &g, &err) < 0, "uid 2^32-1 is refused");
}

/* --- hostile strings ------------------------------------------------------------------------ */

/* What a spec made from an image may hold, whatever the image: the importer's own keys. Returns
 * NULL, or why `text` is not such a spec. Written apart from imgspec.c, so it checks it. */
/* spec_text_problem: [service]'s health keys are crib's too (test_hostile_health) */
static bool allow_health;

static const char *spec_text_problem(const char *text, size_t len)
{
        static char why[256];
        const unsigned char *p = (const unsigned char *)text;
        size_t col = 0;
        for (size_t i = 0; i < len; i++, col++) {
                if (p[i] == '\n') {
                        col = 0;
                        continue;
                }
                if (col >= INI_MAX_LINE - 1)
                        return "a line longer than INI_MAX_LINE";
                if (p[i] < 0x20 || p[i] == 0x7f || p[i] == 0xc0 || p[i] == 0xc1 || p[i] >= 0xf5 ||
                    (p[i] == 0xc2 && i + 1 < len && p[i + 1] < 0xa0) ||
                    (p[i] == 0xe2 && i + 2 < len && p[i + 1] == 0x80 && p[i + 2] >= 0xaa &&
                     p[i + 2] <= 0xae)) {
                        snprintf(why, sizeof why, "byte 0x%02x at offset %zu", p[i], i);
                        return why;
                }
        }
        struct ini_file ini;
        struct error err;
        if (ini_parse_text(text, len, "crib.ini", &ini, &err) < 0) {
                snprintf(why, sizeof why, "it does not parse: %.200s", err.msg);
                return why;
        }
        const char *const(*allowed)[2] = imgspec_allowed_keys;
        const char *bad = NULL;
        unsigned seen = 0;
        for (size_t i = 0; i < ini.n && !bad; i++) {
                const struct ini_entry *e = &ini.entries[i];
                size_t k = 0;
                for (; k < sizeof imgspec_allowed_keys / sizeof imgspec_allowed_keys[0]; k++)
                        if ((allow_health || strcmp(allowed[k][0], "service")) &&
                            !strcmp(e->section, allowed[k][0]) &&
                            (!e->key || !strcmp(e->key, allowed[k][1])))
                                break;
                if (k == sizeof imgspec_allowed_keys / sizeof imgspec_allowed_keys[0] ||
                    (e->key && strcmp(e->key, "env") && (seen & (1u << k)))) {
                        snprintf(why, sizeof why, "line %u holds '[%.60s] %.60s'", e->line,
                                 e->section, e->key ? e->key : "");
                        bad = why;
                }
                if (e->key)
                        seen |= 1u << k;
        }
        ini_free(&ini);
        return bad;
}

/* fields of the config, and of the import, an image's maker chooses */
enum field {
        F_PORT,
        F_VOLUME,
        F_STOPSIGNAL,
        F_SOURCE,
        F_PLATFORM,
        F_USER,
        F_ENV_VALUE,
        F_ENV_NAME,
        F_CMD,
        F_ENTRYPOINT,
        F_WORKDIR,
        F_NFIELDS
};
static const char *const field_name[F_NFIELDS] = {
        "ExposedPorts key", "Volumes key", "StopSignal", "source name", "platform",   "User name",
        "Env value",        "Env name",    "Cmd[0]",     "Entrypoint",  "WorkingDir",
};
/* the JSON path a refusal names (NULL: a comment's field, never refused) */
static const char *const field_path[F_NFIELDS] = {
        NULL,
        NULL,
        NULL,
        NULL,
        NULL,
        "config.User",
        "config.Env[0]",
        NULL,
        "config.Cmd[0]",
        "config.Entrypoint[0]",
        "config.WorkingDir",
};

/* Make the spec of a config with `s` (n bytes) in field `f`; 0 when it was written. */
static int hostile_spec(enum field f, const char *s, size_t n, char *text, size_t len,
                        size_t *ret_len, struct imgspec_result *r, struct error *err)
{
        struct json_object *top = json_object_new_object(), *cfg = json_object_new_object();
        json_object_object_add(top, "config", cfg);
        char *z = strndup(s, n); /* as C strings: the source, platform, object keys */
        char *passwd = NULL;
        struct imgspec_opts o = {.source = "'img.tar'", .platform = "linux/amd64"};
        struct json_object *arr = json_object_new_array();
        switch (f) {
        case F_PORT:
        case F_VOLUME:
                json_object_object_add(cfg, f == F_PORT ? "ExposedPorts" : "Volumes",
                                       json_object_new_object());
                json_object_object_add(
                        json_object_object_get(cfg, f == F_PORT ? "ExposedPorts" : "Volumes"), z,
                        json_object_new_object());
                break;
        case F_STOPSIGNAL:
                json_object_object_add(cfg, "StopSignal", json_object_new_string_len(s, (int)n));
                break;
        case F_SOURCE:
                o.source = z;
                break;
        case F_PLATFORM:
                o.platform = z;
                break;
        case F_USER:
                /* a name the image's own passwd has, so it is resolved and said in a comment */
                if (asprintf(&passwd, "%s:x:1000:1000::/:/bin/sh\n", z) < 0)
                        passwd = NULL;
                o.passwd = passwd;
                json_object_object_add(cfg, "User", json_object_new_string_len(s, (int)n));
                break;
        case F_ENV_VALUE:
        case F_ENV_NAME: {
                char *e = malloc(n + 8);
                size_t el = f == F_ENV_VALUE ? (size_t)sprintf(e, "A=") : 0;
                memcpy(e + el, s, n);
                el += n;
                if (f == F_ENV_NAME)
                        memcpy(e + el, "=1", 2), el += 2;
                json_object_array_add(arr, json_object_new_string_len(e, (int)el));
                json_object_object_add(cfg, "Env", json_object_get(arr));
                free(e);
                break;
        }
        case F_CMD:
        case F_ENTRYPOINT:
                json_object_array_add(arr, json_object_new_string_len(s, (int)n));
                json_object_object_add(cfg, f == F_CMD ? "Cmd" : "Entrypoint",
                                       json_object_get(arr));
                break;
        case F_WORKDIR:
                json_object_object_add(cfg, "WorkingDir", json_object_new_string_len(s, (int)n));
                break;
        case F_NFIELDS:
                break;
        }
        FILE *out = fmemopen(text, len, "w");
        int rc = imgspec_write(top, &o, out, r, err);
        *ret_len = (size_t)ftell(out);
        fclose(out);
        text[*ret_len < len ? *ret_len : len - 1] = '\0';
        json_object_put(arr);
        json_object_put(top);
        free(passwd);
        free(z);
        return rc;
}

static void test_hostile(void)
{
        static char big[12000];
        memset(big, 'A', 10000);
        strcpy(big + 10000, "\n[namespaces]\nuser = no");
        static const struct {
                const char *name, *s;
                size_t n;
        } payloads[] = {
#define P(name, lit) {name, lit, sizeof lit - 1}
                P("newline", "80/tcp\n[namespaces]\nuser = no\n[mounts]\nbind = / /host rw"),
                P("CR", "x\r[namespaces]\ruser = no\r"),
                P("ESC sequences", "\x1b]0;pwned\x07\x1b[2J\x1b[31mred"),
                P("controls, DEL, C1 CSI, RLO", "a\x01z\x08\x7f\xc2\x9b"
                                                "31m\xe2\x80\xae"
                                                "f"),
                P("bytes not UTF-8", "\xff\xfe\xc0\xaf"),
                P("NUL then a key", "a\0\n[namespaces]\nuser = no"),
#undef P
                {"10000 bytes, then a key", big, 10023},
        };
        static char text[65536];
        size_t len;
        for (size_t p = 0; p < sizeof payloads / sizeof payloads[0]; p++) {
                for (int f = 0; f < F_NFIELDS; f++) {
                        struct imgspec_result r;
                        struct error err;
                        int rc = hostile_spec((enum field)f, payloads[p].s, payloads[p].n, text,
                                              sizeof text, &len, &r, &err);
                        const char *why = rc == 0 ? spec_text_problem(text, len) : NULL;
                        if (rc == 0)
                                ok(!why,
                                   "%s in the %s: the spec holds only crib's keys, no "
                                   "control character (%s)",
                                   payloads[p].name, field_name[f], why ? why : "ok");
                        char msg[128];
                        if (rc < 0)
                                ok(field_path[f] && strstr(err.msg, field_path[f]),
                                   "%s in the %s: refused, naming %s (%s)", payloads[p].name,
                                   field_name[f], field_path[f] ? field_path[f] : "(a comment)",
                                   imgspec_text(err.msg, msg, sizeof msg));
                        if (why) {
                                char show[700];
                                printf("#   spec: %s\n", imgspec_text(text, show, sizeof show));
                        }
                }
        }

        /* the escaped text says what was there */
        struct imgspec_result r;
        struct error err;
        static const char port[] = "80/tcp\n[namespaces]\nuser = no\x1b[2J";
        ok(hostile_spec(F_PORT, port, sizeof port - 1, text, sizeof text, &len, &r, &err) == 0,
           "a port with a newline and ESC is written");
        contains(text, "# the image exposes 80/tcp\\x0a[namespaces]\\x0auser = no\\x1b[2J",
                 "as one comment line, \\xNN for each control byte");
        static const char src[] = "'evil\n[namespaces]\nuser = no.tar'";
        ok(hostile_spec(F_SOURCE, src, sizeof src - 1, text, sizeof text, &len, &r, &err) == 0 &&
                   !spec_text_problem(text, len),
           "a source name with newlines stays in the header comment");
        contains(text, "from 'evil\\x0a[namespaces]\\x0auser = no.tar'", "escaped");

        /* what a value may hold, it keeps, byte for byte */
        static const char benign[] = "q \"x\" \\ # ; $HOME `id` 'y' \xc3\xa9";
        for (int f = F_ENV_VALUE; f <= F_WORKDIR; f++) {
                if (f == F_ENV_NAME)
                        continue;
                int rc = hostile_spec((enum field)f, benign, sizeof benign - 1, text, sizeof text,
                                      &len, &r, &err);
                struct spec s;
                FILE *in = rc == 0 ? fmemopen(text, len, "r") : NULL;
                rc = in ? spec_load("crib.ini", in, false, &s, &err) : -1;
                if (in)
                        fclose(in);
                const char *got = rc < 0             ? NULL
                                  : f == F_ENV_VALUE ? s.env[0] + 2
                                  : f == F_WORKDIR   ? s.cwd + 1
                                                     : s.args[0];
                is_str(got, benign,
                       "quotes, backslash, '#', ';', '$', backquote, UTF-8 in the "
                       "%s: read back unchanged",
                       field_name[f]);
                if (rc == 0)
                        spec_free(&s);
        }
        /* a lone backquote: the one word of args is also one quoted INI value */
        int rc;
        rc = hostile_spec(F_CMD, "`", 1, text, sizeof text, &len, &r, &err);
        ok(rc == 0, "an argument that is one backquote is written (%s)", rc ? err.msg : "ok");
        static const char newline_env[] = "line1\nline2\ttab";
        rc = hostile_spec(F_ENV_VALUE, newline_env, sizeof newline_env - 1, text, sizeof text, &len,
                          &r, &err);
        contains(text, "env = \"A=line1\\nline2\\ttab\"",
                 "a newline and a tab in an env value are \\n and \\t (%d)", rc);
        rc = hostile_spec(F_ENV_NAME, "a.b", 3, text, sizeof text, &len, &r, &err);
        ok(rc == 0 && strstr(text, "# not applied: the image's env 'a.b'") && r.nwarnings == 2 &&
                   strstr(r.warnings[1], "the environment variable 'a.b' is not applied"),
           "an env name crib.ini cannot set is a comment and a warning, not a refused import");

        /* the read-back net: a text holding a key the writer did not write is refused */
        static const char injected[] = "[container]\nrootfs = rootfs\n[process]\nargs = x\n"
                                       "# the image exposes 80\n[namespaces]\nuser = no\n";
        const struct imgspec_key written[] = {{"container", NULL},
                                              {"container", "rootfs"},
                                              {"process", NULL},
                                              {"process", "args"}};
        ok(imgspec_check(injected, sizeof injected - 1, written, 4, &err) < 0 &&
                   strstr(err.msg, "crib.ini:6: '[namespaces]' is not what crib wrote there"),
           "imgspec_check refuses a section the writer did not write (%s)", err.msg);
        ok(imgspec_check(injected, 50, written, 4, &err) == 0, "and accepts the text up to it");

        char buf[64];
        is_str(imgspec_text("a\x1b[31m\\b\xc2\x9b\xc3\xa9\xff", buf, sizeof buf),
               "a\\x1b[31m\\\\b\\xc2\\x9b\xc3\xa9\\xff",
               "imgspec_text: ESC, C1 and stray bytes as \\xNN, a backslash doubled, UTF-8 kept");
        is_str(imgspec_text("0123456789abcdef", buf, 12), "01234567...", "and cut with '...'");
}

/* An image's Healthcheck as its maker may write it (the attacker's review of issue 36): a
 * config with Healthcheck.Test `test` (a JSON array built here, so a word may hold a NUL) and
 * `extra` members; the spec crib.ini holds, read back. 0 when written and read. */
static int health_spec(struct json_object *test, const char *extra, struct spec *s, char *text,
                       size_t len, struct error *err)
{
        char cfg[512];
        snprintf(cfg, sizeof cfg, "{\"config\":{\"Cmd\":[\"x\"],\"Healthcheck\":{%s}}}",
                 extra ? extra : "");
        struct json_object *top = json_tokener_parse(cfg);
        struct json_object *c = json_object_object_get(top, "config");
        struct json_object *hc = json_object_object_get(c, "Healthcheck");
        if (test)
                json_object_object_add(hc, "Test", test);
        struct imgspec_opts o = {.source = "'img.tar'", .platform = "linux/amd64"};
        struct imgspec_result r;
        FILE *f = fmemopen(text, len, "w");
        int ret = imgspec_write(top, &o, f, &r, err);
        long n = ftell(f);
        fclose(f);
        json_object_put(top);
        if (ret < 0)
                return -1;
        text[n] = '\0';
        f = fmemopen(text, (size_t)n, "r");
        ret = spec_load("crib.ini", f, false, s, err);
        fclose(f);
        return ret;
}

static struct json_object *words_of(size_t n, const char *const *w, const size_t *len)
{
        struct json_object *a = json_object_new_array();
        for (size_t i = 0; i < n; i++)
                json_object_array_add(a,
                                      w[i] ? json_object_new_string_len(w[i], (int)len[i]) : NULL);
        return a;
}

static void test_hostile_health(void)
{
        static char text[65536], big[20001];
        struct spec s;
        struct error err;
        allow_health = true;
        memset(big, 'A', sizeof big - 1);
        /* a Test left out whole, with a comment: never a part of it, never a key of its own */
        /* (the first word's second string holds a NUL: its length is given below) */
        static const char nul[] = "a\0\n[namespaces]\nuser = no";
        static const struct {
                const char *name;
                size_t n;
                const char *w[3];
        } refused[] = {
                {"a NUL in a word, then a section", 2, {"CMD", nul}},
                {"bytes not UTF-8", 2, {"CMD", "/bin/\xff\xfe"}},
                {"ESC ] 0 ; BEL and CSI", 2, {"CMD", "/x\x1b]0;pwn\x07\x1b[2J"}},
                {"a CR", 2, {"CMD", "/x\r[security]\rlevel = unconfined"}},
                {"a CMD-SHELL command with a newline",
                 2,
                 {"CMD-SHELL", "true\n[mounts]\nbind = / /host rw"}},
                {"CMD without a program", 1, {"CMD"}},
                {"CMD-SHELL with two strings", 3, {"CMD-SHELL", "a", "b"}},
                {"lowercase cmd", 2, {"cmd", "/bin/true"}},
                {"a kind of its own", 2, {"EXEC", "/bin/true"}},
                {"a null word", 2, {"CMD", NULL}},
        };
        for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
                size_t len[3];
                for (size_t k = 0; k < refused[i].n; k++)
                        len[k] = refused[i].w[k] == nul ? sizeof nul - 1
                                 : refused[i].w[k]      ? strlen(refused[i].w[k])
                                                        : 0;
                int rc = health_spec(words_of(refused[i].n, refused[i].w, len), NULL, &s, text,
                                     sizeof text, &err);
                const char *why = rc == 0 ? spec_text_problem(text, strlen(text)) : err.msg;
                ok(rc == 0 && !s.health.argv && !why &&
                           strstr(text, "# not applied: the image's Healthcheck"),
                   "Healthcheck.Test with %s: imported, no check, a comment, only crib's keys (%s)",
                   refused[i].name, why ? why : "ok");
                if (rc == 0)
                        spec_free(&s);
        }
        /* numbers and shapes JSON allows: never a check of the image's half-made */
        struct json_object *many = json_object_new_array();
        json_object_array_add(many, json_object_new_string("CMD"));
        for (int i = 0; i < 100000; i++)
                json_object_array_add(many, json_object_new_string("x"));
        int rc = health_spec(many, NULL, &s, text, sizeof text, &err);
        ok(rc == 0 && !s.health.argv && !spec_text_problem(text, strlen(text)),
           "a Test of 100000 words: left out whole (%s)", rc ? err.msg : "ok");
        if (rc == 0)
                spec_free(&s);
        const char *w[2] = {"CMD", big};
        size_t wl[2] = {3, sizeof big - 1};
        rc = health_spec(words_of(2, w, wl), NULL, &s, text, sizeof text, &err);
        ok(rc == 0 && !s.health.argv && !spec_text_problem(text, strlen(text)),
           "a word of 20000 bytes: left out whole (%s)", rc ? err.msg : "ok");
        if (rc == 0)
                spec_free(&s);
        static const char *const none[] = {"\"Test\":[\"NONE\",\"/bin/true\"]",
                                           "\"Test\":\"CMD /bin/true\"", "\"Test\":[]",
                                           "\"Test\":[7,\"/bin/true\"]", "\"Test\":{}"};
        for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
                rc = health_spec(NULL, none[i], &s, text, sizeof text, &err);
                ok(rc == 0 && !s.health.argv && !spec_text_problem(text, strlen(text)),
                   "Healthcheck {%s}: no check (%s)", none[i], rc ? err.msg : "ok");
                if (rc == 0)
                        spec_free(&s);
        }
        /* words crib.ini quotes, kept byte for byte: '=', '[', quotes, backslash, '#', ';' */
        const char *kept[] = {"CMD",       "/bin/x",  "a=b", "[namespaces]",
                              "user = no", "q\"x\\y", "#;",  "$HOME `id`"};
        size_t kl[8];
        for (int i = 0; i < 8; i++)
                kl[i] = strlen(kept[i]);
        rc = health_spec(words_of(8, kept, kl), NULL, &s, text, sizeof text, &err);
        bool same = rc == 0 && s.health.argv;
        for (int i = 1; same && i < 8; i++)
                same = s.health.argv[i - 1] && !strcmp(s.health.argv[i - 1], kept[i]);
        ok(same && !s.health.argv[7] && !spec_text_problem(text, strlen(text)),
           "'=', '[', quotes, backslash, '#', ';', '$', backquote in Test's words: the check's "
           "argv, byte for byte, and no section of the image's (%s)",
           rc ? err.msg : "ok");
        if (rc == 0)
                spec_free(&s);
        /* durations and retries out of range, or of another JSON type: the defaults, said */
        static const char *const nums[] = {
                "\"Interval\":-1,\"Timeout\":-9223372036854775807,\"Retries\":-1",
                "\"Interval\":1,\"Timeout\":999999,\"Retries\":1001",
                "\"Interval\":9223372036854775807,\"Timeout\":86400001000000,"
                "\"Retries\":1099511627776",
                "\"Interval\":1.5e9,\"Timeout\":\"30s\",\"Retries\":\"2\"",
                "\"Interval\":18446744073709551615,\"Timeout\":true,\"Retries\":[1]",
        };
        for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
                char extra[256];
                snprintf(extra, sizeof extra, "\"Test\":[\"CMD\",\"/bin/true\"],%s", nums[i]);
                rc = health_spec(NULL, extra, &s, text, sizeof text, &err);
                ok(rc == 0 && s.health.argv && s.health.interval_ms == 30000 &&
                           s.health.timeout_ms == 30000 && s.health.retries == 3 &&
                           !spec_text_problem(text, strlen(text)),
                   "Healthcheck {%s}: the check, with the default interval, timeout and retries "
                   "(%s)",
                   nums[i], rc ? err.msg : "ok");
                if (rc == 0)
                        spec_free(&s);
        }
        allow_health = false;
}

int main(void)
{
        test_platform();
        test_image_platform();
        test_pathset();
        test_budget();
        test_paths();
        test_spec();
        test_hostile();
        test_hostile_health();
        return tap_done();
}
