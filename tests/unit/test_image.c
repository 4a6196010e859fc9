/* Unit tests of the pure parts of `crib image import` (runtime/image/): the machine's platform
 * and the fit of an image's, layer entry names, and the image config made into a spec that
 * crib reads back unchanged (spec_load). */
#define _GNU_SOURCE
#include <stdlib.h>

#include "imgpath.h"
#include "imgspec.h"
#include "platform.h"
#include "spec.h"
#include "../lib/tap.h"

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

int main(void)
{
        test_platform();
        test_paths();
        test_spec();
        return tap_done();
}
