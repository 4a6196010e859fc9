/* mountapi.h - the new mount API's flags (open_tree(2), move_mount(2), mount_setattr(2);
 * Linux 5.2 and 5.12), for C libraries older than the kernel: glibc 2.36 has them. */
#ifndef CRIB_MOUNTAPI_H
#define CRIB_MOUNTAPI_H

#include <fcntl.h>
#include <sys/mount.h>

#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef MOVE_MOUNT_T_EMPTY_PATH
#define MOVE_MOUNT_T_EMPTY_PATH 0x00000040
#endif
#ifndef MOUNT_ATTR_IDMAP
#define MOUNT_ATTR_IDMAP 0x00100000
#endif

#endif
