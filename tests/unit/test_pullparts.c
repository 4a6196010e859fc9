/* Unit tests of the pure parts of `crib pull`: a registry's WWW-Authenticate challenge
 * (runtime/image/auth.c), credentials files as podman and docker write them, base64, and the
 * manifests (runtime/image/manifest.c): which kind a document is, schema 1 refused, the
 * platform's entry of an index (a Pi Zero's arm/v6, a v7-only index refused with the reason),
 * a manifest's descriptors checked. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "image/auth.h"
#include "image/manifest.h"
#include "../lib/tap.h"

static void test_challenge(void)
{
        struct auth_challenge c;
        struct error err;
        ok(auth_parse_challenge("Bearer realm=\"https://auth.docker.io/token\",service=\"registry."
                                "docker.io\",scope=\"repository:library/busybox:pull\"",
                                &c, &err) == 0,
           "Docker Hub's challenge parses");
        is_str(c.scheme, "Bearer", "scheme");
        is_str(c.realm, "https://auth.docker.io/token", "realm");
        is_str(c.service, "registry.docker.io", "service");
        is_str(c.scope, "repository:library/busybox:pull", "scope");
        ok(auth_parse_challenge("bearer  realm=\"r\" , Service=s,error=\"insufficient_scope\"", &c,
                                &err) == 0 &&
                   !strcmp(c.realm, "r") && !strcmp(c.service, "s"),
           "case, blanks, a token value and an unknown parameter");
        ok(auth_parse_challenge("Bearer realm=\"a\\\"b\"", &c, &err) == 0 &&
                   !strcmp(c.realm, "a\"b"),
           "a quoted value's escape");
        ok(auth_parse_challenge("Basic realm=\"crib-test\"", &c, &err) == 0 &&
                   !strcmp(c.scheme, "Basic"),
           "Basic");
        ok(auth_parse_challenge("Bearer service=\"x\"", &c, &err) < 0, "a Bearer without a realm");
        contains(err.msg, "no realm", "... says so");
        ok(auth_parse_challenge("Negotiate abc", &c, &err) < 0, "an unknown scheme is refused");
        ok(auth_parse_challenge("Bearer realm=\"a\r\nX: y\"", &c, &err) < 0,
           "a control character is refused");
        char big[3000];
        snprintf(big, sizeof big, "Bearer realm=\"%02000d\"", 1);
        ok(auth_parse_challenge(big, &c, &err) < 0, "a realm over its bound is refused");
        ok(auth_parse_challenge("Bearer realm=\"unended", &c, &err) < 0,
           "an unended quoted value is refused");
}

static int lookup(const char *json, const char *reg, struct auth_cred *c, bool *found)
{
        struct error err;
        return auth_json_lookup(json, strlen(json), "auth.json", reg, c, found, &err);
}

static void test_credentials(void)
{
        char b[64];
        size_t n;
        ok(auth_base64("crib:s3cret-pass", 16, b, sizeof b) == 0 &&
                   !strcmp(b, "Y3JpYjpzM2NyZXQtcGFzcw=="),
           "base64");
        ok(auth_unbase64("Y3JpYjpzM2NyZXQtcGFzcw==", b, sizeof b, &n) == 0 &&
                   !strcmp(b, "crib:s3cret-pass") && n == 16,
           "and back");
        ok(auth_unbase64("Y3J*", b, sizeof b, &n) < 0, "not base64 is refused");
        struct auth_cred c;
        bool found;
        const char *doc = "{\"auths\":{\"ghcr.io\":{\"auth\":\"dTpw\"},"
                          "\"https://index.docker.io/v1/\":{\"auth\":\"aHViOnB3\"},"
                          "\"127.0.0.1:5000\":{\"auth\":\"bG9jYWw6cDpx\"}}}";
        ok(lookup(doc, "ghcr.io", &c, &found) == 0 && found && !strcmp(c.user, "u") &&
                   !strcmp(c.pass, "p"),
           "podman's auth.json: a host's entry");
        ok(lookup(doc, "docker.io", &c, &found) == 0 && found && !strcmp(c.user, "hub"),
           "docker.io under docker's https://index.docker.io/v1/");
        ok(lookup(doc, "127.0.0.1:5000", &c, &found) == 0 && found && !strcmp(c.user, "local") &&
                   !strcmp(c.pass, "p:q"),
           "host:port, and a password with ':'");
        ok(lookup(doc, "127.0.0.1", &c, &found) == 0 && !found,
           "a host without its port is another");
        ok(lookup(doc, "quay.io", &c, &found) == 0 && !found, "none for another registry");
        ok(lookup("{\"auths\":{\"ghcr.io/owner\":{\"auth\":\"dTpw\"}}}", "ghcr.io", &c, &found) ==
                           0 &&
                   found,
           "a key with a path names its host");
        ok(lookup("{\"credsStore\":\"desktop\"}", "ghcr.io", &c, &found) == 0 && !found,
           "a file without auths: none");
        ok(lookup("{\"auths\":{\"ghcr.io\":{\"auth\":\"bm9jb2xvbg==\"}}}", "ghcr.io", &c, &found) <
                   0,
           "an auth without ':' is an error");
        ok(lookup("{\"auths\":", "ghcr.io", &c, &found) < 0, "not JSON is an error");
}

static const char *kind_of(const char *doc, const char *ctype)
{
        static char buf[1100];
        enum manifest_kind k;
        char media[128];
        struct error err;
        if (manifest_kind(doc, strlen(doc), ctype, &k, media, &err) < 0)
                snprintf(buf, sizeof buf, "ERR: %s", err.msg);
        else
                snprintf(buf, sizeof buf, "%s %s", k == MANIFEST_INDEX ? "index" : "image", media);
        return buf;
}

#define D(c)                                                                                       \
        "\"sha256:" c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c  \
                c c c c c c c c c c c c c c c c c c c c c c c c c "\""

static const char index_doc[] =
        "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.index.v1+json\","
        "\"manifests\":["
        "{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":" D(
                "1") ",\"size\":10,\"platform\":{\"os\":\"linux\",\"architecture\":\"amd64\"}},"
                     "{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":" D(
                             "2") ",\"size\":10,\"platform\":{\"os\":\"linux\",\"architecture\":"
                                  "\"arm64\",\"variant\":"
                                  "\"v8\"}},"
                                  "{\"mediaType\":\"application/"
                                  "vnd.oci.image.manifest.v1+json\",\"digest\":" D(
                                          "3") ",\"size\":10,\"platform\":{\"os\":\"linux\","
                                               "\"architecture\":\"arm\",\"variant\":\"v7\"}},"
                                               "{\"mediaType\":\"application/"
                                               "vnd.oci.image.manifest.v1+json\",\"digest\":" D(
                                                       "4") ",\"size\":10,\"platform\":{\"os\":"
                                                            "\"linux\",\"architecture\":\"arm\","
                                                            "\"variant\":\"v6\"}},"
                                                            "{\"mediaType\":\"application/"
                                                            "vnd.oci.image.manifest.v1+json\","
                                                            "\"digest\":" D(
                                                                    "5") ",\"size\":10,"
                                                                         "\"platform\":{\"os\":"
                                                                         "\"unknown\","
                                                                         "\"architecture\":"
                                                                         "\"unknown\"}}]}";

static const char *choose(const char *doc, const char *machine, bool forced)
{
        static char buf[1100];
        struct platform m;
        struct manifest_desc d;
        struct error err;
        platform_parse(machine, &m, &err);
        if (manifest_choose(doc, strlen(doc), &m, forced, &d, &err) < 0)
                snprintf(buf, sizeof buf, "ERR: %s", err.msg);
        else
                snprintf(buf, sizeof buf, "%s %c", d.platform, d.digest[7]);
        return buf;
}

static void test_manifests(void)
{
        is_str(kind_of(index_doc, ""), "index application/vnd.oci.image.index.v1+json",
               "an OCI index");
        is_str(kind_of("{\"schemaVersion\":2,\"config\":{},\"layers\":[]}",
                       "application/vnd.docker.distribution.manifest.v2+json"),
               "image application/vnd.docker.distribution.manifest.v2+json",
               "Docker's schema 2 by its Content-Type");
        is_str(kind_of("{\"schemaVersion\":2,\"manifests\":[]}", "application/json"),
               "index application/vnd.oci.image.index.v1+json",
               "an OCI index without a mediaType, by its shape");
        contains(kind_of("{\"schemaVersion\":1,\"fsLayers\":[]}",
                         "application/vnd.docker.distribution.manifest.v1+prettyjws"),
                 "schema 1, which crib does not read", "schema 1 is refused, saying so");
        contains(kind_of("{\"schemaVersion\":2,\"mediaType\":\"text/html\"}", ""),
                 "'text/html', which is no image", "an unknown media type is refused");
        contains(kind_of("[1]", ""), "not a JSON object", "not an object");
        contains(kind_of("{} x", ""), "not a JSON object", "trailing garbage");

        is_str(choose(index_doc, "linux/amd64", false), "linux/amd64 1", "amd64 gets amd64");
        is_str(choose(index_doc, "linux/arm64/v8", false), "linux/arm64/v8 2", "arm64 gets arm64");
        is_str(choose(index_doc, "linux/arm/v7", false), "linux/arm/v7 3", "arm/v7 gets v7");
        is_str(choose(index_doc, "linux/arm/v6", false), "linux/arm/v6 4",
               "a Pi Zero (arm/v6) gets v6, not v7");
        const char v7only[] =
                "{\"schemaVersion\":2,\"manifests\":[{\"mediaType\":\"application/vnd.oci.image."
                "manifest.v1+json\",\"digest\":" D(
                        "3") ",\"size\":10,\"platform\":{\"os\":"
                             "\"linux\",\"architecture\":\"arm\",\"variant\":\"v7\"}}]}";
        is_str(choose(v7only, "linux/arm/v6", false),
               "ERR: this image has linux/arm/v7 only; this machine is linux/arm/v6",
               "a v7-only index on a Pi Zero: refused with the reason");
        contains(choose(v7only, "linux/arm/v6", true), "--platform asked for linux/arm/v6",
                 "... or the --platform's");
        contains(choose(index_doc, "linux/riscv64", false),
                 "linux/amd64, linux/arm64/v8, linux/arm/v7, linux/arm/v6",
                 "none fits: every platform it has is listed (not the attestation's)");
        const char baddigest[] = "{\"schemaVersion\":2,\"manifests\":[{\"digest\":\"sha256:../x\","
                                 "\"size\":1,\"platform\":{\"os\":\"linux\",\"architecture\":"
                                 "\"amd64\"}}]}";
        contains(choose(baddigest, "linux/amd64", false),
                 "not sha256:", "an entry with a digest that is no digest is refused");

        struct manifest_image *img = calloc(1, sizeof *img);
        struct error err;
        const char m[] = "{\"schemaVersion\":2,\"config\":{\"digest\":" D(
                "a") ",\"size\":5},"
                     "\"layers\":[{\"digest\":" D("b") ",\"size\":7},{\"digest\":" D(
                             "c") ",\"size\":9}]}";
        ok(manifest_parse(m, strlen(m), img, &err) == 0 && img->nlayers == 2 &&
                   img->config.size == 5 && img->layers[1].size == 9 &&
                   img->layers[0].digest[7] == 'b',
           "a manifest's config and layers");
        const char neg[] = "{\"config\":{\"digest\":" D("a") ",\"size\":-1},\"layers\":[]}";
        ok(manifest_parse(neg, strlen(neg), img, &err) < 0, "a negative size is refused");
        const char nolayers[] = "{\"config\":{\"digest\":" D("a") ",\"size\":1}}";
        ok(manifest_parse(nolayers, strlen(nolayers), img, &err) < 0, "no layers is refused");
        char *many = malloc(200 * 100 + 200);
        strcpy(many, "{\"config\":{\"digest\":" D("a") ",\"size\":1},\"layers\":[");
        for (int i = 0; i < 129; i++)
                strcat(many, i ? ",{\"digest\":" D("b") ",\"size\":1}"
                               : "{\"digest\":" D("b") ",\"size\":1}");
        strcat(many, "]}");
        ok(manifest_parse(many, strlen(many), img, &err) < 0, "129 layers are refused");
        contains(err.msg, "more than the 128", "... saying the limit");
        free(many);
        free(img);
}

int main(void)
{
        test_challenge();
        test_credentials();
        test_manifests();
        return tap_done();
}
