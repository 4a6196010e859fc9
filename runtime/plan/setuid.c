/* setuid.c - who else on the host reaches what the container writes. A file the container
 * writes in its rootfs or in a read-write bind is on the host as it is inside: a setuid file it
 * made there would run as its owner (host root, the user, one of their subordinate ids) for
 * any host user who can reach it. A writable rootfs other users can reach is refused; a
 * read-write bind they can reach is warned about, and refused where it would undo
 * readonly_rootfs. Asked of descriptors, walked up by "..", so a symlink on the way hides
 * nothing; base/reach.c says whom a directory shuts out. Reads only. */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "spec/phrase.h"
#include "base/reach.h"

/* Whether a host user other than root and `uid` can walk to the rootfs, whose descriptor is
 * `fd`: no directory above it shuts them out. Walked up by "..", from the directory itself, so
 * a symlink on the way does not matter. The rootfs does not count: the container owns it, and
 * may chmod it. `from` (crib plan of an image, whose rootfs is not made: `fd` is the store's
 * root, which stands in for it) makes the walk start at `fd` itself: the store's root is above
 * the rootfs crib run would make (ROOT/containers/ID/merged), and it counts. */
static bool reach_from(int fd, uid_t uid, bool from)
{
        struct stat st, top;
        struct reach_cache cache = {.asked = false};
        if (stat("/", &top) < 0)
                return true;
        _cleanup_close_ int dir = openat(fd, from ? "." : "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
        for (int depth = 0; dir >= 0 && depth < 256; depth++) {
                if (fstat(dir, &st) < 0)
                        return true;
                if (reach_shuts_out(dir, &st, uid, &cache))
                        return false;
                if (st.st_dev == top.st_dev && st.st_ino == top.st_ino)
                        return true;
                int up = openat(dir, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
                close(dir);
                dir = up;
        }
        return true;
}

static bool reachable_by_others(int fd, uid_t uid)
{
        return reach_from(fd, uid, false);
}

/* Whether the container may write where crib gives it a read-only (`ro`) or writable mount of a
 * host directory: a read-only one it could remount (SYS_ADMIN) counts as writable.
 *
 * What the filesystem's own mount says is not asked: a nosuid mount on the host does not keep a
 * setuid file the container left there from working for others. The file is on the filesystem
 * for good; whether it runs setuid depends on the mount through which someone reaches it, and
 * crib sees one mount table, once. The same directory may be mounted elsewhere without nosuid
 * (a bind mount, the filesystem mounted twice, an overlay's upper directory, an NFS export
 * another host mounts), and a mount table changes after crib looked (a remount, the next boot).
 * Comparing every mount of the device in /proc/self/mountinfo would catch only the first of
 * these, so a directory that shuts others out, or a container that cannot write, is the only
 * exemption. A read-only mount stays so for a workload that keeps SYS_ADMIN in a user
 * namespace: the kernel locks its flags in the copy of the mount namespace the workload gets
 * (steps/lockmounts.c); only host root (user = no) with SYS_ADMIN may remount it read-write. */
static bool may_write(const struct plan *p, const struct spec *s, bool ro)
{
        return !ro || (!p->userns && (s->caps & (1ULL << CAP_SYS_ADMIN)));
}

/* Whom a setuid file the container made on the host would run as, in its root's name, for the
 * messages: the file is the container's root's on disk (a rootfs host root owns and crib shows
 * through an idmapped mount aside: plan_root_rootfs). */
static const char *setuid_owner(const struct plan *p, const struct spec *s, char *buf, size_t n)
{
        int64_t root = idmap_outside(&p->uidmap, 0);
        if (!p->userns || root == 0)
                return "host root";
        if (!p->privileged) {
                bool own = false;
                for (size_t i = 0; i < p->uidmap.n; i++) {
                        const struct idmap_range *r = &p->uidmap.r[i];
                        own |= p->host_uid >= r->outside && p->host_uid - r->outside < r->count;
                }
                return own ? "you" : "one of your subordinate ids";
        }
        if (root < 0)
                return "one of the container's host uids";
        /* root's default map and `auto` are root's own range, the same for each of its
         * containers */
        bool shared = !spec_in_file(s, SPEC_KEY_IDMAP_UID) || s->uidmap.is_auto;
        snprintf(buf, n, "uid %u (the container's root%s)", (unsigned)root,
                 shared ? ", and root in every container root runs with its own range" : "");
        return buf;
}

static int rootfs_reach_hint(const struct plan *p, struct error *err)
{
        char change[256];
        return error_hint(err,
                          "shut other users out of a directory above it (chmod 700 %s/..), or %s",
                          p->rootfs,
                          phrase_change(p->front, SPEC_KEY_CONTAINER_READONLY_ROOTFS, PHRASE_ON,
                                        change, sizeof change));
}

/* The refusal of a writable rootfs other users can reach (root's and a user's), naming whose
 * a setuid file made there would be. */
static int rootfs_reach_error(const struct plan *p, const struct spec *s, unsigned line,
                              struct error *err)
{
        char who[128];
        error_at(err, s->path, line,
                 "other users can reach rootfs '%s', and the container can write it: a setuid "
                 "file the container made there would run as %s for them",
                 p->rootfs, setuid_owner(p, s, who, sizeof who));
        return rootfs_reach_hint(p, err);
}

/* Root's container in a user namespace. A rootfs host root owns is shown through an idmapped
 * mount, where what container root writes is host root's on disk; any other (one given to the
 * container's range, as the hint below says) takes what it writes as its root's, uid N of
 * root's range, which root's other containers run as too. Either way a setuid file it made
 * would run as that uid for any host user who can reach it (another user became the range's
 * first id and killed a root container's workload): refuse a writable rootfs others can reach,
 * whoever owns it. */
int plan_root_rootfs(struct plan *p, const struct spec *s, const struct plan_host *h, int fd,
                     bool unmade, const struct stat *st, unsigned line, struct error *err)
{
        /* an image's overlay is a tree of its own: its layers are idmapped one by one
         * (steps/idlayers.c), and what the container writes goes to upper/, its root's */
        if (st->st_uid == 0 && idmap_outside(&p->uidmap, 0) > 0 && !p->overlay_upper) {
                if (h->idmapped_mounts)
                        p->idmap_rootfs = true;
                else /* nothing host root's to write through: the files show as nobody's */
                        plan_warn(p,
                                  "this kernel has no idmapped mounts (Linux 5.12): the files of "
                                  "rootfs "
                                  "'%s', host root's, show as nobody's inside, and container root "
                                  "cannot change them\ngive the rootfs to the container's range: "
                                  "sudo "
                                  "chown -hR --from=0:0 %u:%u %s",
                                  p->rootfs, (unsigned)idmap_outside(&p->uidmap, 0),
                                  (unsigned)idmap_outside(&p->gidmap, 0), p->rootfs);
        }
        if (!may_write(p, s, s->readonly_rootfs) || !reach_from(fd, 0, unmade))
                return 0;
        if (p->idmap_rootfs) {
                error_at(err, s->path, line,
                         "rootfs '%s' belongs to host root and other users can reach it: a "
                         "setuid file the container made there would be host root's",
                         p->rootfs);
                return rootfs_reach_hint(p, err);
        }
        return rootfs_reach_error(p, s, line, err);
}

/* A user's container: what its root (the user, in a user namespace) or any of its users writes
 * in the rootfs is the user's on disk, or one of the user's subordinate ids'. A setuid file the
 * container made there would let any host user who can reach it run as the user: refuse that,
 * as for root's (plan_root_rootfs), unless no other user can reach the rootfs (a directory
 * above it shut, or reachable by the user's private group alone) or the container cannot write
 * it. */
int plan_user_rootfs(struct plan *p, const struct spec *s, int fd, bool unmade, unsigned line,
                     struct error *err)
{
        if (!may_write(p, s, s->readonly_rootfs) || !reach_from(fd, p->host_uid, unmade))
                return 0;
        return rootfs_reach_error(p, s, line, err);
}

/* Whether directory `dir` (an O_PATH descriptor) is the one of `dev` and `ino`, or below it:
 * walked up by "..", as reachable_by_others walks, and as bounded. A walk that cannot go on
 * says no. */
static bool dir_within(int dir, dev_t dev, ino_t ino)
{
        struct stat st, top;
        if (stat("/", &top) < 0)
                return false;
        _cleanup_close_ int at = openat(dir, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        for (int depth = 0; at >= 0 && depth < 256; depth++) {
                if (fstat(at, &st) < 0)
                        return false;
                if (st.st_dev == dev && st.st_ino == ino)
                        return true;
                if (st.st_dev == top.st_dev && st.st_ino == top.st_ino)
                        return false;
                int up = openat(at, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
                close(at);
                at = up;
        }
        return false;
}

/* The directory regular file `fd` (O_PATH) is in, found by the name /proc gives the file and
 * checked to hold it; -1 when it cannot be found. */
static int parent_of(int fd, const struct stat *st)
{
        char self[64], path[PATH_MAX];
        struct stat in;
        snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(self, path, sizeof path - 1);
        if (n <= 0 || (size_t)n >= sizeof path - 1 || path[0] != '/')
                return -1;
        path[n] = '\0';
        char *slash = strrchr(path, '/');
        *slash = '\0';
        int dir = open(slash == path ? "/" : path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (dir >= 0 && (fstatat(dir, slash + 1, &in, AT_SYMLINK_NOFOLLOW) < 0 ||
                         in.st_dev != st->st_dev || in.st_ino != st->st_ino)) {
                close(dir);
                return -1;
        }
        return dir;
}

/* Whether host uid `uid` is one of the container's (or there is no user namespace): then the
 * container may chmod that uid's files. */
static bool maps_host_uid(const struct plan *p, uid_t uid)
{
        for (size_t i = 0; p->userns && i < p->uidmap.n; i++) {
                const struct idmap_range *r = &p->uidmap.r[i];
                if (uid >= r->outside && uid - r->outside < r->count)
                        return true;
        }
        return !p->userns;
}

/* A bind the container may write: what it writes there is on the host as it is in the rootfs
 * (plan_root_rootfs, plan_user_rootfs), so a setuid file it made would run as its owner for any
 * host user who can reach the source; a nosuid mount inside the container does not change that
 * on the host. The spec names each bind itself, and podman's and Docker's users take the same
 * risk with theirs, so crib warns rather than refuse (plan_bind_warn): for a directory others
 * can reach, and for a file the container may chmod (one of its uids owns it) in a directory
 * others can reach, or with a second link. But a bind of the rootfs, of a directory in it or of one
 * that holds it would undo readonly_rootfs: where the rootfs check would refuse a writable rootfs
 * (in a user namespace, a rootfs others reach), such a bind is refused as that rootfs would be. */
int plan_bind_reach(struct plan *p, const struct spec *s, const struct spec_mount *m,
                    const char *src, struct bind_reach *b, struct error *err)
{
        uid_t me = p->privileged ? 0 : p->host_uid;
        struct stat st, rst;
        struct reach_cache cache = {.asked = false};
        char who[128];
        if (!may_write(p, s, m->opts & SPEC_MNT_RO))
                return 0;
        _cleanup_close_ int fd = open(src, O_PATH | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) < 0)
                return error_at_errno(err, errno, s->path, m->line,
                                      "bind source '%s' cannot be read", src);
        _cleanup_close_ int dir = -1; /* the source, or the directory the source file is in */
        bool reach, holds = false;
        if (S_ISDIR(st.st_mode)) {
                dir = take_fd(&fd);
                reach = reachable_by_others(dir, me);
                holds = b->rootfs >= 0 && dir_within(b->rootfs, st.st_dev, st.st_ino);
        } else if (S_ISREG(st.st_mode) && maps_host_uid(p, st.st_uid)) {
                struct stat dst;
                dir = parent_of(fd, &st);
                /* a second link is a second name, in a directory crib does not see */
                reach = st.st_nlink > 1 || dir < 0 || fstat(dir, &dst) < 0 ||
                        (!reach_shuts_out(dir, &dst, me, &cache) && reachable_by_others(dir, me));
        } else {
                return 0; /* a device, or a file the container cannot make setuid */
        }
        if (!reach)
                return 0;
        bool in = dir >= 0 && b->rootfs >= 0 && fstat(b->rootfs, &rst) == 0 &&
                  dir_within(dir, rst.st_dev, rst.st_ino);
        if (p->userns && (in || holds)) {
                if (b->rootfs_reach < 0)
                        b->rootfs_reach = reachable_by_others(b->rootfs, me);
                if (b->rootfs_reach) {
                        bool same = holds && in;
                        error_at(err, s->path, m->line,
                                 "bind source '%s' %s rootfs '%s', which other users can reach, "
                                 "and the container can write it: a setuid file the "
                                 "container made there would run as %s for them",
                                 src,
                                 same ? "is"
                                 : in ? "is in"
                                      : "holds",
                                 p->rootfs, setuid_owner(p, s, who, sizeof who));
                        return error_hint(err,
                                          "bind it ro, or shut other users out of a directory "
                                          "above the rootfs (chmod 700 %s/..)",
                                          p->rootfs);
                }
        }
        if (b->n++ == 0) {
                b->line = m->line;
                b->src = src;
                /* a directory's parent; a file's own directory, which is not bound */
                if (S_ISDIR(st.st_mode))
                        snprintf(b->above, sizeof b->above, "%s/..", src);
                else
                        snprintf(b->above, sizeof b->above, "%.*s",
                                 (int)(strrchr(src, '/') > src ? strrchr(src, '/') - src : 1), src);
        } else {
                size_t used = strlen(b->lines);
                char one[16];
                snprintf(one, sizeof one, "%s%u", used ? ", " : "", m->line);
                if (used + strlen(one) + 4 < sizeof b->lines)
                        strcat(b->lines, one);
                else if (!strstr(b->lines, "..."))
                        strcat(b->lines, ", ...");
        }
        return 0;
}

/* One warning for the read-write binds other users can reach (plan_bind_reach). */
void plan_bind_warn(struct plan *p, const struct spec *s, const struct bind_reach *b)
{
        char where[PATH_MAX + 16], more[160] = "", who[128];
        if (!b->n)
                return;
        if (b->line)
                snprintf(where, sizeof where, "%s:%u", s->path, b->line);
        else
                snprintf(where, sizeof where, "%s", s->path);
        if (b->n > 1)
                snprintf(more, sizeof more, " (and %u more, at line%s %s)", b->n - 1,
                         b->n > 2 ? "s" : "", b->lines);
        plan_warn(p,
                  "%s: other users can reach bind source '%s'%s, and the container can write it: "
                  "a setuid file the container made there would run as %s for them\nbind %s ro, or "
                  "shut other users out of a directory above %s (chmod 700 %s)",
                  where, b->src, more, setuid_owner(p, s, who, sizeof who),
                  b->n > 1 ? "them" : "it", b->n > 1 ? "each" : "it", b->above);
}
