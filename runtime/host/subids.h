/* subids.h - subordinate ids on this host: the setuid helpers that map them, root's range. */
#ifndef CRIB_SUBIDS_H
#define CRIB_SUBIDS_H

#include <stddef.h>

#include "base/error.h"

/* The path of the setuid helper `name` (newuidmap, newgidmap) in `buf`, from the directories
 * where a distribution installs it, or NULL when none has it: `crib run` runs this one and
 * `crib check` looks at this one. */
const char *userns_find_helper(const char *name, char *buf, size_t len);

/* Root, before planning: make sure root has a range of subordinate ids in /etc/subuid and
 * /etc/subgid for its containers (container root is then not host root). When it has none,
 * crib takes 65536 ids above every range there and records them in both files, as
 * `usermod --add-subuids` would; *ret_note then says which. */
int userns_root_range(char *ret_note, size_t len, struct error *err);

#endif
