/* imgspec.h - an image's configuration (the OCI image config, or Docker's) turned into a crib
 * spec: entrypoint and cmd, env, working directory, user; exposed ports and what crib does not
 * apply (volumes, stop signal, health check) as comments, so no setting disappears unsaid.
 *
 * Pure: the config comes in as parsed JSON, the image's /etc/passwd and /etc/group as text.
 */
#ifndef CRIB_IMGSPEC_H
#define CRIB_IMGSPEC_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

#define IMGSPEC_MAX_WARNINGS 8

struct imgspec_opts {
        const char *source;    /* what was imported, for the header comment */
        const char *platform;  /* "linux/amd64", for the header comment; may be NULL */
        const char *passwd;    /* the image's /etc/passwd, NULL when it has none */
        const char *group;     /* the image's /etc/group, NULL when it has none */
        bool root;             /* imported by root: crib maps root's own range by default */
        bool subids;           /* the importing user has subordinate ranges: uid/gid = auto */
        uint64_t nuids, ngids; /* with subids: the ids uid/gid = auto maps (0: not known) */
};

struct imgspec_result {
        uint32_t uid, gid; /* the image's user, resolved */
        char warnings[IMGSPEC_MAX_WARNINGS][320];
        size_t nwarnings;
};

/* Write the spec for `config` (the whole config document: its "config" object holds the
 * process) to `out`. Errors name the JSON path ("config.Cmd[2]"). */
int imgspec_write(struct json_object *config, const struct imgspec_opts *o, FILE *out,
                  struct imgspec_result *ret, struct error *err);

/* Resolve the image's "User" ("name", "uid", "name:group", "uid:gid") with the image's passwd
 * and group text (either may be NULL). */
int imgspec_user(const char *user, const char *passwd, const char *group, uint32_t *ret_uid,
                 uint32_t *ret_gid, struct error *err);

#endif
