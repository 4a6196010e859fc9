/* imgspec.h - an image's configuration (the OCI image config, or Docker's) turned into a crib
 * spec: entrypoint and cmd, env, working directory, user; exposed ports and what crib does not
 * apply (volumes, stop signal, health check) as comments, so no setting disappears unsaid.
 *
 * Pure: the config comes in as parsed JSON, the image's /etc/passwd and /etc/group as text.
 * Every string of the image is hostile: it reaches crib.ini only through imgspec_escape(), and
 * the spec is read back with crib's own parser before it is written (imgspec.c).
 */
#ifndef CRIB_IMGSPEC_H
#define CRIB_IMGSPEC_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

#define IMGSPEC_MAX_WARNINGS 8

struct imgspec_opts {
        const char *source;    /* what was imported, for the header comment */
        const char *platform;  /* "linux/amd64", for the header comment; may be NULL */
        const char *passwd;    /* the image's /etc/passwd, NULL when it has none */
        const char *group;     /* the image's /etc/group, NULL when it has none */
        bool root;             /* imported by root: crib maps root's own range by default */
        bool subids;           /* the importing user has subordinate ranges: uid/gid = auto */
        uint64_t nuids, ngids; /* with subids: the ids uid/gid = auto maps (0: not known) */
        bool no_rootfs;        /* the store's: no [container] rootfs (crib run IMAGE gives it) */
};

struct imgspec_result {
        uint32_t uid, gid; /* the image's user, resolved */
        /* they may quote the image's strings as they are: print them through imgspec_text() */
        char warnings[IMGSPEC_MAX_WARNINGS][320];
        size_t nwarnings;
};

/* The forms an image's string takes in crib.ini, or on the user's terminal. */
enum imgspec_form {
        IMGSPEC_WORD,  /* a double-quoted word of `args` (words.h) */
        IMGSPEC_VALUE, /* one double-quoted INI value (ini.h): env, cwd */
        IMGSPEC_TEXT,  /* text: a comment line of crib.ini, a message; never fails */
};

/* The one way an image's bytes (s, n of them: a NUL among them too) reach crib.ini. WORD and
 * VALUE write "...", escaped so crib reads back exactly s, and refuse what a crib.ini value
 * cannot hold (control characters, NUL, bytes that are not UTF-8, C1 controls, bidirectional
 * overrides; a result longer than `len`) with an error naming `what` (the JSON path). TEXT
 * writes every such byte as \xNN and a backslash as \\, and cuts what does not fit in `len`
 * with "...". */
int imgspec_escape(const char *s, size_t n, enum imgspec_form form, char *buf, size_t len,
                   const char *what, struct error *err);
/* imgspec_escape of the string s in the form TEXT; returns buf. */
const char *imgspec_text(const char *s, char *buf, size_t len);

/* Write the spec for `config` (the whole config document: its "config" object holds the
 * process) to `out`. Errors name the JSON path ("config.Cmd[2]"). Nothing reaches `out` unless
 * the text, read back with ini.c and spec.c, holds exactly the sections and keys written here
 * and is a spec crib runs. */
int imgspec_write(struct json_object *config, const struct imgspec_opts *o, FILE *out,
                  struct imgspec_result *ret, struct error *err);

/* A section ([section], key NULL) or a key the spec's writer wrote. */
struct imgspec_key {
        const char *section, *key;
};

/* Read `text` back as `crib run` will: crib's INI tokenizer must find exactly `keys`, in order
 * (a comment or a value that escaped its line shows as one more), and spec_load() must accept
 * it. imgspec_write's last step, before anything reaches its `out`. */
int imgspec_check(const char *text, size_t len, const struct imgspec_key *keys, size_t n,
                  struct error *err);

/* Resolve the image's "User" ("name", "uid", "name:group", "uid:gid") with the image's passwd
 * and group text (either may be NULL). */
int imgspec_user(const char *user, const char *passwd, const char *group, uint32_t *ret_uid,
                 uint32_t *ret_gid, struct error *err);

#endif
