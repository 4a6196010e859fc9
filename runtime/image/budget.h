/* budget.h - what the layers of an import may write (max_bytes) and the room they must leave on
 * the filesystem (min_free, min_free_inodes): the limits of struct layer_ctx, charged and
 * checked as layer.c applies the layers. */
#ifndef CRIB_BUDGET_H
#define CRIB_BUDGET_H

#include <stdint.h>

#include "base/error.h"
#include "layer.h"

/* Charge `n` bytes against max_bytes. */
int budget_charge(struct layer_ctx *c, uint64_t n, struct error *err);
/* What the entry `name` in `dfd` (or `dfd` itself for "") takes on disk beyond the `charged`
 * bytes already charged for it: its blocks (below). */
int budget_charge_made(struct layer_ctx *c, int dfd, const char *name, uint64_t charged,
                       struct error *err);
/* The error of an image past its limit, with the remedy; returns -1. */
int budget_over(struct layer_ctx *c, struct error *err);
/* Stop while the filesystem still has min_free left for everyone else. */
int budget_check_room(struct layer_ctx *c, struct error *err);

#endif
