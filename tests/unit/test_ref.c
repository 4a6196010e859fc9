/* Unit tests of image references (runtime/image/ref.c): docker's short names, where a registry
 * is named, tags and digests, and every refusal: uppercase, "..", lengths, bad characters. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "image/ref.h"
#include "../lib/tap.h"

/* the full form of `s`, or "ERR: message" */
static const char *full(const char *s)
{
        static char buf[1400];
        struct image_ref r;
        struct error err;
        if (image_ref_parse(s, &r, &err) < 0) {
                snprintf(buf, sizeof buf, "ERR: %s", err.msg);
                return buf;
        }
        if (image_ref_format(&r, buf, sizeof buf) < 0)
                return "ERR: format";
        return buf;
}

static void test_short_names(void)
{
        is_str(full("busybox"), "docker.io/library/busybox:latest",
               "a short name is docker's library");
        is_str(full("busybox:1.36"), "docker.io/library/busybox:1.36", "a short name with a tag");
        is_str(full("user/app"), "docker.io/user/app:latest",
               "user/app is on docker.io, not library/");
        is_str(full("docker.io/busybox"), "docker.io/library/busybox:latest",
               "docker.io/NAME is library/NAME");
        is_str(full("index.docker.io/library/busybox"), "docker.io/library/busybox:latest",
               "index.docker.io is docker.io");
        is_str(full("a/b/c/d"), "docker.io/a/b/c/d:latest", "deep repositories");
        is_str(full("my_app.x__y-z---w"), "docker.io/library/my_app.x__y-z---w:latest",
               "separators: '.', '_', '__', dashes");
}

static void test_registries(void)
{
        is_str(full("ghcr.io/owner/img:v1"), "ghcr.io/owner/img:v1", "a '.' names a registry");
        is_str(full("127.0.0.1:5000/app"), "127.0.0.1:5000/app:latest", "host:port is a registry");
        is_str(full("localhost/app"), "localhost/app:latest", "localhost is a registry");
        is_str(full("localhost:5000/a/b:t"), "localhost:5000/a/b:t", "localhost:port with a tag");
        is_str(full("myhost/app"), "docker.io/myhost/app:latest",
               "a first component without '.' or ':' is a docker.io user");
        is_str(full("[::1]:5000/app"), "[::1]:5000/app:latest", "an IPv6 registry");
        contains(full("host:99999/app"), "out of range", "a port over 65535 is refused");
        contains(full("host:/app"), "no port number", "an empty port is refused");
        contains(full("ho_st.io/app"), "not a host name", "'_' in a host is refused");
        contains(full(".io/app"), "not a host name", "a host label may not be empty");
        contains(full("ghcr.io/"), "no repository", "a registry alone is refused");
        struct image_ref r;
        struct error err;
        ok(image_ref_parse("busybox", &r, &err) == 0 &&
                   !strcmp(image_ref_host(&r), "registry-1.docker.io"),
           "docker.io is served at registry-1.docker.io");
        ok(image_ref_parse("ghcr.io/a/b", &r, &err) == 0 && !strcmp(image_ref_host(&r), "ghcr.io"),
           "another registry is its own host");
        ok(image_ref_parse("127.0.0.1:5000/a", &r, &err) == 0 &&
                   !strcmp(r.registry, "127.0.0.1:5000") && !strcmp(r.repository, "a"),
           "the parts: registry and repository");
}

#define HEX "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static void test_tags_digests(void)
{
        is_str(full("busybox@sha256:" HEX), "docker.io/library/busybox@sha256:" HEX,
               "a digest alone: no tag");
        is_str(full("busybox:1@sha256:" HEX), "docker.io/library/busybox:1@sha256:" HEX,
               "a tag and a digest");
        struct image_ref r;
        struct error err;
        ok(image_ref_parse("busybox@sha256:" HEX, &r, &err) == 0 && r.tag[0] == '\0' &&
                   !strcmp(r.digest, "sha256:" HEX),
           "digest-only: tag is empty");
        contains(full("busybox@sha512:" HEX), "not sha256", "only sha256 digests");
        contains(full("busybox@sha256:"
                      "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef"),
                 "lowercase hex", "an uppercase hex digest is refused");
        contains(full("busybox@sha256:abc"), "64 lowercase hex", "a short digest is refused");
        contains(full("busybox:"), "tag", "an empty tag is refused");
        contains(full("busybox:.x"), "tag", "a tag may not begin with '.'");
        contains(full("busybox:-x"), "tag", "a tag may not begin with '-'");
        is_str(full("busybox:V1_x.y-z"), "docker.io/library/busybox:V1_x.y-z",
               "a tag may have uppercase, '_', '.', '-'");
        char tag[200];
        memset(tag, 'a', 129);
        tag[129] = '\0';
        char ref[300];
        snprintf(ref, sizeof ref, "b:%s", tag);
        contains(full(ref), "1 to 128", "a tag of 129 characters is refused");
        tag[128] = '\0';
        snprintf(ref, sizeof ref, "b:%s", tag);
        contains(full(ref), "docker.io/library/b:", "a tag of 128 characters is taken");
}

static void test_refusals(void)
{
        contains(full(""), "empty", "an empty reference");
        contains(full("BusyBox"), "must be lowercase", "uppercase repositories are refused");
        contains(full("ghcr.io/Owner/x"), "must be lowercase", "uppercase after a registry too");
        contains(full("a/../b"), "'..'", "'..' is refused");
        contains(full("localhost/.."), "'..'", "'..' at the end is refused");
        contains(full("a//b"), "empty component", "'//' is refused");
        contains(full("a/b/"), "empty component", "a trailing '/' is refused");
        contains(full("/a"), "ERR", "a leading '/' is refused");
        contains(full("a/.b"), "begin and end", "a component starting with '.' is refused");
        contains(full("a/b-"), "begin and end", "a component ending with '-' is refused");
        contains(full("a/b...c"), "which a reference may not", "'...' is no separator");
        contains(full("a/b_._c"), "which a reference may not", "'_._' is no separator");
        contains(full("a/b+c"), "which a reference may not", "'+' is refused (the store's '/')");
        contains(full("a/b c"), "blank", "a blank is refused");
        contains(full("a/b\x1b[2J"), "control", "an escape is refused");
        contains(full("a/b\xc3\xa9"), "not ASCII", "non-ASCII is refused");
        contains(full("a/b%2e%2e"), "which a reference may not", "'%%' is refused");
        contains(full("a/b?x=1"), "which a reference may not", "'?' is refused");
        char ref[400];
        memset(ref, 'a', sizeof ref);
        ref[256] = '\0';
        contains(full(ref), "longer than 255", "256 bytes are refused");
        ref[255] = '\0';
        contains(full(ref), "longer than 255", "255 bytes with library/ in front are too long");
        char host[300];
        snprintf(host, sizeof host, "r.io/%.250s", ref);
        contains(full(host), "r.io/aaa", "a reference of exactly 255 bytes is taken");
}

int main(void)
{
        test_short_names();
        test_registries();
        test_tags_digests();
        test_refusals();
        return tap_done();
}
