/* idmap.h - user namespace id maps: from the spec's [idmap] to the lines written to
 * /proc/PID/uid_map and gid_map (user_namespaces(7)), and who may write them.
 *
 * An unprivileged process may map exactly one id, its own, and for a gid map only after
 * writing "deny" to /proc/PID/setgroups. Anything more goes through the setuid helpers
 * newuidmap(1)/newgidmap(1) (package uidmap), which allow the ranges /etc/subuid and
 * /etc/subgid (subuid(5)) grant the user. Pure: host files come in as FILE *.
 */
#ifndef CRIB_IDMAP_H
#define CRIB_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "spec.h"

struct idmap_range {
        uint32_t inside, outside, count;
};

struct idmap {
        struct idmap_range r[SPEC_MAX_RANGES + 1];
        size_t n;
        bool use_helper; /* write it with newuidmap/newgidmap */
};

#define IDMAP_MAX_SUBIDS 32

/* Ranges of `user` (or of its numeric id) in a subuid(5)/subgid(5) file. */
int idmap_read_subids(FILE *f, const char *user, uint32_t id, struct idmap_range *ret,
                      size_t *ret_n, struct error *err);

/* A whole map as /proc/PID/uid_map or gid_map shows it: each line's inside, outside and count
 * (a joined user namespace's, runtime/host/nsfiles.c). E2BIG past what struct idmap holds. */
int idmap_read_map(FILE *f, struct idmap *ret, struct error *err);

/* The ids mapped in the caller's own user namespace, from its /proc/self/uid_map or gid_map
 * ("INSIDE OUTSIDE COUNT" lines): each range as `outside` of a nested namespace's map may use
 * it (its inside column), for root of a namespace that is not the host's. At most
 * IDMAP_MAX_SUBIDS; a line that does not parse is an error. */
int idmap_read_own(FILE *f, struct idmap_range *ret, size_t *ret_n, struct error *err);

/* Resolve the spec's map for the invoking id. `kind` is "uid" or "gid" (for messages),
 * `privileged` tells the caller may write any map itself (root). `subids` are the invoking
 * user's ranges, already read. Root's default and `auto` are its first range alone, from
 * container id 0: container root is host root only when the spec maps it so. Errors name the
 * spec's file and line. */
int idmap_resolve(const struct spec *s, const struct spec_idmap *m, const char *kind, uint32_t id,
                  bool privileged, const struct idmap_range *subids, size_t nsubids,
                  struct idmap *ret, struct error *err);

/* The text for /proc/PID/uid_map: one "INSIDE OUTSIDE COUNT\n" line a range. */
int idmap_format(const struct idmap *m, char *buf, size_t len);

/* The start of `count` ids above every range in both files (either may be NULL), aligned to
 * `count`: where crib gives root a range of its own. 0 when none fits below 2^32. */
uint32_t idmap_free_start(FILE *subuid, FILE *subgid, uint32_t count);

/* Whether some id of the container is host root (outside id 0). */
bool idmap_maps_host_root(const struct idmap *m);

/* The outside id of `inside`, or -1 when it is not mapped. */
int64_t idmap_outside(const struct idmap *m, uint32_t inside);

#endif
