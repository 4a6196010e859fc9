/* phrase.h - a setting in the words of the user who can change it, for errors and remedies.
 *
 * A spec comes from crib.ini(5), or from an engine's config.json (runtime/oci/), and its errors are
 * read by whoever wrote it. crib's own user edits crib.ini: a remedy names the key
 * (`set resources_mode = prefer`). An engine's user (podman, containerd) cannot: for them it
 * names the config.json path and, where one obviously sets it, the engine's flag (`leave out
 * .linux.resources.memory.limit (set by podman run --memory)`), never a crib.ini key. One table
 * (phrase.c), by spec key, holds both; runtime code that names a setting asks it, with the
 * spec's front end (spec.front, or the plan's copy of it), and never writes either form
 * itself. Pure: formatting only.
 */
#ifndef CRIB_PHRASE_H
#define CRIB_PHRASE_H

#include <stddef.h>

#include "base/error.h"
#include "spec.h"

/* Which way a remedy changes a setting */
enum phrase_way {
        PHRASE_OFF, /* drop what was asked: a limit, a profile, a namespace */
        PHRASE_ON,  /* ask for more: a read-only root, a user namespace, mapped ids */
        PHRASE_OWN, /* an id map: only what is the caller's to map */
};

/* The change of setting k, as a remedy says it to the user of front end f:
 *   crib.ini      "set resources_mode = prefer"
 *   config.json   "leave out .linux.resources.memory.limit (set by podman run --memory)"
 * Into buf, which is returned. */
const char *phrase_change(enum spec_front f, enum spec_key k, enum phrase_way way, char *buf,
                          size_t len);

/* The same change for the n settings of keys[] at once (the limits of one controller): the
 * crib.ini words once; for config.json each path, and each engine flag. */
const char *phrase_change_all(enum spec_front f, const enum spec_key *keys, size_t n,
                              enum phrase_way way, char *buf, size_t len);

/* A smaller [limits] value: "at most VALUE" (crib.ini), "at most VALUE in .process.rlimits
 * (podman run --ulimit NAME=VALUE:VALUE)" (config.json), for limit key k named `name`. */
const char *phrase_at_most(enum spec_front f, enum spec_key k, const char *name, const char *value,
                           char *buf, size_t len);

/* Who says key k, as a message names it: "[SECTION]" (crib.ini), "the config" (config.json). */
const char *phrase_section(enum spec_front f, enum spec_key k, char *buf, size_t len);

/* A namespace setting that is off, as a message names it: "user = no" (crib.ini), "no user
 * namespace" (config.json). */
const char *phrase_off(enum spec_front f, enum spec_key k);

/* An error about setting k of spec s, where its user looks for it: "FILE:LINE: TEXT" (crib.ini:
 * the key's line, as error_at() says it) or "FILE: JSONPATH: TEXT" (config.json: the key's
 * path, as oci/'s own errors say it). Returns -1. */
int phrase_error(struct error *err, const struct spec *s, enum spec_key k, const char *fmt, ...)
        CRIB_PRINTF(4, 5);
/* The same at line `line` of a crib.ini (one entry of a key that takes several, as [idmap]'s
 * ranges); 0 is the key's line. */
int phrase_error_line(struct error *err, const struct spec *s, enum spec_key k, unsigned line,
                      const char *fmt, ...) CRIB_PRINTF(5, 6);
/* Where setting k is, for a message's text: "FILE:LINE" or "FILE: JSONPATH". */
const char *phrase_where(const struct spec *s, enum spec_key k, unsigned line, char *buf,
                         size_t len);

/* The config.json path of key k, NULL where config.json has no such setting. */
const char *phrase_json(enum spec_key k);

#endif
