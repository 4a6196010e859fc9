/* imghealth.h - an image's Healthcheck as crib's [service] keys (imghealth.c). */
#ifndef CRIB_IMGHEALTH_H
#define CRIB_IMGHEALTH_H

#include <json.h>
#include <stdbool.h>

#include "base/error.h"
#include "base/ini.h"

/* The [service] lines for config.Healthcheck, each value escaped (imgspec_escape) or crib's
 * own; a value "" is not written (docker's default). */
struct imghealth {
        char test[INI_MAX_LINE]; /* "" when the image has no check (none, or NONE) */
        char interval[24], timeout[24], start_period[24], retries[16];
        char note[200]; /* what was not carried over, and why (a comment), or "" */
};

/* `cfg` is config.config (NULL: none). Never fails on what the image wrote: a Healthcheck
 * crib cannot hold is left out, with `note` saying so. */
void imghealth_read(struct json_object *cfg, struct imghealth *ret);

#endif
