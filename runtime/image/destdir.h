/* destdir.h - DIR, the directory `crib image import` makes, and the way to it: opened and
 * checked through descriptors, never by name, so no other user can swap it or any directory
 * on the way. */
#ifndef CRIB_DESTDIR_H
#define CRIB_DESTDIR_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "base/error.h"
#include "base/reach.h"

/* The walk to DIR's parent, as the kernel resolves the path and as `crib run DIR/crib.ini` will
 * resolve it again: every directory it enters, on the path as typed and on the target of every
 * symbolic link met on the way, must be one no one but root and the caller can change, and
 * every symbolic link root's or the caller's (issue 31: a root-owned link whose target passed
 * through another user's link was taken, and that user pointed DIR at a crib.ini of theirs).
 * The walk opens one component at a time from the directory before it (O_PATH, O_NOFOLLOW), so
 * what is checked is what it goes on from, and DIR is made in the very directory checked. */
struct destdir {
        const char *dir;    /* DIR as typed, for messages */
        uid_t uid;          /* the caller */
        int links;          /* symbolic links followed so far */
        char via[PATH_MAX]; /* the first link followed, for messages; "" when none */
        struct reach_cache cache;
};

/* Open DIR's parent through the walk above; `base` gets DIR's last component, which must be a
 * name. The kernel's own lookup of the parent must find the same directory: a second layer
 * over the walk, for anything it might read otherwise. */
int destdir_open_parent(struct destdir *w, char base[NAME_MAX + 1], struct error *err);
/* Walk up from `parent` (DIR's parent) to the root through "..": every directory must be one
 * only root and the caller can change. *ret_shut: one of them shuts other users out. */
int destdir_check_way(struct destdir *w, int parent, bool *ret_shut, struct error *err);
/* Make DIR (0700), or take an existing one, from `parent`; what is opened is checked either
 * way. Returns its descriptor; *ret_made when crib made it. */
int destdir_open(struct destdir *w, int parent, const char *base, bool shut, bool *ret_made,
                 struct error *err);
/* Remove DIR if its name still is the directory `fd` crib made (and emptied). */
void destdir_remove_made(int parent, const char *base, int fd);

#endif
