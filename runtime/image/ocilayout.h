/* ocilayout.h - the OCI image layout (a directory or a tarball of one): its manifest for this
 * machine chosen through index.json, its config read, its layers listed. */
#ifndef CRIB_OCILAYOUT_H
#define CRIB_OCILAYOUT_H

#include <stdbool.h>

#include "base/error.h"
#include "platform.h"
#include "source.h"

/* Choose the manifest for `machine` (exactly `forced` one) through index.json and the indexes
 * it names; fill `img` with its config and layers, every JSON blob's digest checked. */
int ocilayout_resolve(struct source *s, const struct platform *machine, bool forced,
                      struct source_image *img, struct error *err);

#endif
