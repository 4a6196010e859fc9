/* dockersave.h - a `docker save` / `podman save` archive (docker-archive): its one image's
 * config read and checked, its layers listed with the digests the config gives them. */
#ifndef CRIB_DOCKERSAVE_H
#define CRIB_DOCKERSAVE_H

#include <stdbool.h>

#include "base/error.h"
#include "platform.h"
#include "source.h"

/* Read manifest.json and the config it names; fill `img` with the config and the layers, each
 * with its rootfs.diff_ids digest. The config's platform must fit `machine` (or be `forced`). */
int dockersave_resolve(struct source *s, const struct platform *machine, bool forced,
                       struct source_image *img, struct error *err);

#endif
