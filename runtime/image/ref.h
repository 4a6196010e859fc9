/* ref.h - an image reference as users type it and registries take it (the distribution
 * spec's grammar, docker's normalisation): [REGISTRY/]REPOSITORY[:TAG][@sha256:HEX].
 * Pure: no I/O. */
#ifndef CRIB_REF_H
#define CRIB_REF_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

struct image_ref {
        char registry[256];   /* "docker.io", "ghcr.io", "127.0.0.1:5000" */
        char repository[256]; /* "library/busybox": lowercase components, no "..", no "//" */
        char tag[129];   /* "latest" when neither tag nor digest was given; "" with digest only */
        char digest[72]; /* "sha256:HEX" or "" */
};

/* Parse `s` into `ret`, completing a short name as docker does (busybox ->
 * docker.io/library/busybox:latest). Refuses, saying why: empty or over 255 bytes, a
 * component with "..", a character a reference may not hold, a digest that is not sha256
 * with 64 lowercase hex digits. */
int image_ref_parse(const char *s, struct image_ref *ret, struct error *err);

/* The full form, "REGISTRY/REPOSITORY:TAG", "...@sha256:HEX" or both */
int image_ref_format(const struct image_ref *r, char *ret, size_t len);

/* The registry's host for HTTP: docker.io is served at registry-1.docker.io */
const char *image_ref_host(const struct image_ref *r);

#endif
