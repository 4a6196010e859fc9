/* reach.h - who besides root and one user can enter or change a directory, from its owner, its
 * mode bits, its group and its POSIX ACL (acl(5)).
 *
 * A group's bits speak for root and the user alone only when the group is root's, or (for a
 * user) their private group: their primary group, no other account's, with no other member in
 * /etc/passwd and /etc/group. On a distribution where every user's primary group is `users`,
 * that group is everyone's. An access ACL (the xattr system.posix_acl_access) puts its named
 * entries (`u:nobody:rwx`, `g:devs:r-x`) behind the group bits, which then show the mask: the
 * most any of them gets. So with an ACL, a w or x in the group bits is someone else's, whatever
 * the group. crib run's rootfs check (plan.c) and crib image import's checks of DIR and the
 * directories on the way to it (import.c) both ask here.
 */
#ifndef CRIB_REACH_H
#define CRIB_REACH_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The answer for the last gid asked: a walk up a path asks of the same groups again and again,
 * and /etc is read once per gid. Start it zeroed. */
struct reach_cache {
        bool asked, yes;
        gid_t gid;
};

/* Whether `gid` is the private group of `uid` in these passwd(5) and group(5) files: its
 * primary group, no other account's, and with no member but itself. Pure; a line too long to
 * read, a NIS compat line (+ or -: another service may add accounts or members), or a group the
 * file does not list says no. */
bool reach_group_private(FILE *passwd, FILE *group, uid_t uid, gid_t gid);

/* Whether the file `fd` (an O_PATH descriptor will do) has an access ACL, asked through
 * /proc/self/fd. Fails closed: any answer but "none" or "not supported here" says yes. */
bool reach_has_acl(int fd);

/* Whether the directory `fd` (its fstat `st`) shuts out every host user but root and `uid`:
 * its owner is one of them, others may not search it, nor its group unless that is root's or
 * (uid not 0) the private group of `uid`, with no ACL behind the group bits. */
bool reach_shuts_out(int fd, const struct stat *st, uid_t uid, struct reach_cache *c);

/* Whether a host user other than root and `uid` can change what the directory `fd` (its fstat
 * `st`) holds: they own it, or may write it (others' bits; the group's, unless it is root's or
 * the private group of `uid` with no ACL), and no sticky bit keeps them to their own entries. */
bool reach_others_may_change(int fd, const struct stat *st, uid_t uid, struct reach_cache *c);

#endif
