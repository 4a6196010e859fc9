/* idlayers.h - root's container of a store image in a user namespace: the image's layers as
 * idmapped mounts, made by the parent, attached by the child while it makes the overlay
 * (idlayers.c explains the kernel's rules). */
#ifndef CRIB_IDLAYERS_H
#define CRIB_IDLAYERS_H

#include <sys/types.h>

#include "base/error.h"
#include "base/trace.h"
#include "plan/plan.h"
#include "step.h"

/* Whether the filesystem of `path` (relative to `dirfd`) takes idmapped mounts: known for ext4,
 * xfs, btrfs and tmpfs (6.3), else tried on a detached copy of it and a user namespace made for
 * the question: 0, or -1 with the kernel's errno (EINVAL: the filesystem has none; ENOSYS: the
 * kernel has none, before 5.12). Run as host root (crib run, before planning:
 * runtime/container/imgrootfs.c). */
int idlayers_probe(int dirfd, const char *path, struct error *err);

/* Parent, once the maps of the setup process `pid` are written: each layer of the plan's image
 * (image_dir/l/N, l/0 the topmost) as a detached, read-only mount tree idmapped with `pid`'s
 * user namespace, sent over `chan` as SYNC_LAYER N. */
int idlayers_send(const struct plan *p, pid_t pid, struct sync_chan *chan, const struct trace *t,
                  struct error *err);

/* Child, while it waits for SYNC_GO (userns.c): keep the tree `fd` of SYNC_LAYER `layer`, which
 * must come in order, l/0 first; else `fd` is closed and the message is an error. */
int idlayers_take(struct child *c, uint32_t layer, int fd, struct error *err);

#endif
