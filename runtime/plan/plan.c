/* plan.c - the parent's thinking: from a checked spec and the host's facts (struct plan_host)
 * to the plan the container's setup process follows (see plan.h). Looks up the invoking user,
 * its subordinate ids, the rootfs, the bind sources and the host's device nodes; reads only,
 * and changes nothing anywhere (seccomp_prepare() too: it takes a program built into crib or
 * compiles one in memory). The plan is built with ordinary allocations, then packed into one
 * block of its own (plan_pack()). */
#define _GNU_SOURCE
#include "plan.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "account.h"
#include "capname.h"
#include "cleanup.h"
#include "phrase.h"
#include "reach.h"
#include "seccomp_profile.h"

static void plan_warn(struct plan *p, const char *fmt, ...) CRIB_PRINTF(2, 3);

/* What planning allocates on the way; plan_pack() copies what the plan keeps into its arena,
 * then plan_build() frees all of this. */
struct scratch {
        void *s[SPEC_MAX_MOUNTS + 8];
        size_t n;
};

/* What the passes of planning share (the rows of plan_build's table): the plan being built,
 * what they read it from, and what they hold on the way. */
struct planning {
        struct plan *p;            /* the plan being built */
        const struct spec *s;      /* what was asked */
        const struct plan_host *h; /* what this host offers */
        struct scratch sc;         /* what the passes allocate; plan_build frees it */
        int rootfs;                /* the rootfs (O_PATH, plan_rootfs), for the binds' check */
};

/* One pass: reads the spec and the host, writes its part of the plan. */
struct pass {
        const char *name;
        int (*run)(struct planning *pl, struct error *err);
};

static void *plan_keep(struct scratch *sc, void *s)
{
        if (!s || sc->n == sizeof sc->s / sizeof sc->s[0]) {
                free(s);
                return NULL;
        }
        return sc->s[sc->n++] = s;
}

static void scratch_free(struct scratch *sc)
{
        for (size_t i = 0; i < sc->n; i++)
                free(sc->s[i]);
        sc->n = 0;
}

static char *null_str(void *ctx, const char *s)
{
        (void)ctx, (void)s;
        return NULL;
}
static char **null_strv(void *ctx, char **v)
{
        (void)ctx, (void)v;
        return NULL;
}
static const struct spec_paths *null_paths(void *ctx, const struct spec_paths *l)
{
        (void)ctx, (void)l;
        return NULL;
}
static void *null_blob(void *ctx, const void *b, size_t n)
{
        (void)ctx, (void)b, (void)n;
        return NULL;
}

/* Every pointer into the arena is set to NULL and the counts of what they pointed to to 0, so a
 * use after free fails at once; the rest of the plan (27 KB, mostly fixed arrays) is left as it
 * is: it holds nothing that needs erasing, and writing all of it again made `crib run` fault in
 * 7 pages after the container exited. */
void plan_free(struct plan *p)
{
        const struct plan_walker w = {null_str, null_strv, null_paths, null_blob, NULL};
        free(p->arena);
        plan_walk(p, &w);
        p->nmounts = p->ngroups = p->npass_fds = p->seccomp.n = 0;
        p->arena = NULL;
        p->arena_size = 0;
}

/* Packing the plan into its arena: each call reserves room for `n` bytes at the next 16-byte
 * boundary. Counting (base NULL) only adds up, and returns `src` unchanged, so that the same
 * walk first measures, then copies. */
struct packer {
        char *base;
        size_t used;
};

static void *pack(struct packer *k, const void *src, size_t n)
{
        size_t at = (k->used + 15) & ~(size_t)15;
        if (!src)
                return NULL;
        k->used = at + n;
        return k->base ? memcpy(k->base + at, src, n) : (void *)src;
}

static char *pack_str(struct packer *k, const char *str)
{
        return str ? pack(k, str, strlen(str) + 1) : NULL;
}

static char **pack_strv(struct packer *k, char *const *v)
{
        size_t n = 0;
        if (!v)
                return NULL;
        while (v[n])
                n++;
        char **out = pack(k, v, (n + 1) * sizeof *v);
        for (size_t i = 0; i < n; i++) {
                char *str = pack_str(k, v[i]);
                if (k->base)
                        out[i] = str;
        }
        return out;
}

static const struct spec_paths *pack_paths(struct packer *k, const struct spec_paths *l)
{
        struct spec_paths *out = pack(k, l, sizeof *l);
        for (size_t i = 0; l && i < l->n; i++) {
                char *str = pack_str(k, l->items[i]);
                if (k->base)
                        out->items[i] = str;
        }
        return out;
}

void plan_walk(struct plan *p, const struct plan_walker *w)
{
        p->rootfs = w->str(w->ctx, p->rootfs);
        p->spec_path = w->str(w->ctx, p->spec_path);
        p->cwd = w->str(w->ctx, p->cwd);
        p->hostname = w->str(w->ctx, p->hostname);
        p->net_helper = w->str(w->ctx, p->net_helper);
        p->nft = w->str(w->ctx, p->nft);
        for (size_t i = 0; i < p->nmounts; i++) {
                p->mounts[i].src = w->str(w->ctx, p->mounts[i].src);
                p->mounts[i].dst = w->str(w->ctx, p->mounts[i].dst);
                p->mounts[i].data = w->str(w->ctx, p->mounts[i].data);
        }
        p->argv = w->strv(w->ctx, p->argv);
        p->envp = w->strv(w->ctx, p->envp);
        p->groups = w->blob(w->ctx, p->groups, p->ngroups * sizeof *p->groups);
        p->masked = w->paths(w->ctx, p->masked);
        p->readonly = w->paths(w->ctx, p->readonly);
        p->pass_fds = w->blob(w->ctx, p->pass_fds, p->npass_fds * sizeof *p->pass_fds);
        p->seccomp.insns =
                w->blob(w->ctx, p->seccomp.insns, p->seccomp.n * sizeof *p->seccomp.insns);
}

static char *packer_str(void *k, const char *s)
{
        return pack_str(k, s);
}
static char **packer_strv(void *k, char **v)
{
        return pack_strv(k, v);
}
static const struct spec_paths *packer_paths(void *k, const struct spec_paths *l)
{
        return pack_paths(k, l);
}
static void *packer_blob(void *k, const void *p, size_t n)
{
        return pack(k, p, n);
}

static void pack_walk(struct plan *p, struct packer *k)
{
        const struct plan_walker w = {packer_str, packer_strv, packer_paths, packer_blob, k};
        plan_walk(p, &w);
}

/* Copy everything the plan points to into one block of its own: afterwards it points into
 * nothing else (not the spec, the scratch, or crib's string constants). */
static int plan_pack(struct plan *p, struct error *err)
{
        struct packer k = {0};
        /* counting changes no pointer (pack() returns `src` when there is no base), so it
         * walks the plan itself, not a 27 KB copy on the stack */
        pack_walk(p, &k); /* measure */
        k.base = calloc(1, k.used ? k.used : 1);
        if (!k.base)
                return error_set(err, ENOMEM, "cannot allocate");
        p->arena_size = k.used;
        k.used = 0;
        pack_walk(p, &k); /* copy */
        p->arena = k.base;
        return 0;
}

/* `path` as written in the spec: relative paths are relative to the spec file's directory. */
static char *plan_spec_relative(const struct spec *s, const char *path)
{
        char *out;
        if (path[0] == '/')
                return strdup(path);
        _cleanup_free_ char *copy = strdup(s->path);
        if (!copy)
                return NULL;
        const char *dir = dirname(copy);
        if (!strcmp(dir, ".")) /* a spec in the working directory: the path as written */
                return strdup(path);
        while (path[0] == '.' && path[1] == '/')
                path += 2;
        if (asprintf(&out, "%s/%s", dir, path) < 0)
                return NULL;
        return out;
}

/* The same, absolute: a bind source is opened by crib's monitor too, which works from /. */
static char *spec_absolute(const struct spec *s, const char *path)
{
        char *rel = plan_spec_relative(s, path), *out, cwd[PATH_MAX];
        if (!rel || rel[0] == '/')
                return rel;
        if (!getcwd(cwd, sizeof cwd) || asprintf(&out, "%s/%s", cwd, rel) < 0)
                out = NULL;
        free(rel);
        return out;
}

static int plan_add_op(struct plan *p, struct mount_op op, struct error *err)
{
        if (p->nmounts == PLAN_MAX_MOUNTS)
                return error_set(err, E2BIG, "too many mounts");
        p->mounts[p->nmounts++] = op;
        return 0;
}

/* The ranges the id maps may take ids from (idmap_resolve), as the spec's maps need them. */
struct subids {
        struct idmap_range uids[IDMAP_MAX_SUBIDS], gids[IDMAP_MAX_SUBIDS];
        size_t nuids, ngids;
        /* root of a nested user namespace maps what is mapped in its own, itself */
        bool own_uids, own_gids;
};

static int plan_subids(const struct plan *p, const struct spec *s, const struct plan_host *h,
                       struct subids *ret, struct error *err)
{
        const char *user = NULL;
        struct account acct;

        /* the user's name, to find its lines in /etc/subuid; only when a map may need them
         * (reading /etc/passwd is not free) */
        /* root maps its own range, by default and for `auto` */
        bool uid_map = spec_in_file(s, SPEC_KEY_IDMAP_UID);
        bool gid_map = spec_in_file(s, SPEC_KEY_IDMAP_GID);
        bool root_range =
                p->privileged && (!uid_map || s->uidmap.is_auto || !gid_map || s->gidmap.is_auto);
        if (uid_map || gid_map || root_range) {
                account_of(p->host_uid, &acct);
                user = acct.name[0] ? acct.name : NULL;
        }
        /* root of a user namespace that is not the host's (rootless podman runs crib so): it
         * may map what is mapped in its own, writing the maps itself (the kernel's rule for a
         * writer with CAP_SETUID and CAP_SETGID there), not the host's /etc/subuid ranges */
        bool nested_root = h->euid == 0 && !h->initial_userns;
        ret->own_uids = nested_root && uid_map && !s->uidmap.is_auto;
        ret->own_gids = nested_root && gid_map && !s->gidmap.is_auto;
        if (ret->own_uids) {
                memcpy(ret->uids, h->own_uids, h->nown_uids * sizeof ret->uids[0]);
                ret->nuids = h->nown_uids;
                uid_map = false;
        }
        if (ret->own_gids) {
                memcpy(ret->gids, h->own_gids, h->nown_gids * sizeof ret->gids[0]);
                ret->ngids = h->nown_gids;
                gid_map = false;
        }
        /* only read /etc/subuid when the map may need it */
        if (uid_map && !p->privileged) {
                _cleanup_fclose_ FILE *f = fopen("/etc/subuid", "re");
                if (f && idmap_read_subids(f, user, p->host_uid, ret->uids, &ret->nuids, err) < 0)
                        return error_wrap(err, "/etc/subuid");
        }
        if (gid_map && !p->privileged) {
                _cleanup_fclose_ FILE *f = fopen("/etc/subgid", "re");
                if (f && idmap_read_subids(f, user, p->host_uid, ret->gids, &ret->ngids, err) < 0)
                        return error_wrap(err, "/etc/subgid");
        }
        if (root_range) {
                /* root's own ranges (crib gives it one when it has none: cmd/main.c) */
                _cleanup_fclose_ FILE *fu = fopen("/etc/subuid", "re");
                _cleanup_fclose_ FILE *fg = fopen("/etc/subgid", "re");
                if (fu)
                        idmap_read_subids(fu, user, p->host_uid, ret->uids, &ret->nuids, err);
                if (fg)
                        idmap_read_subids(fg, user, p->host_uid, ret->gids, &ret->ngids, err);
        }
        return 0;
}

/* The container's user, groups and supplementary groups are mapped, and can be set. */
static int plan_ids_mapped(struct plan *p, const struct spec *s, struct error *err)
{
        char where[PATH_MAX + 64];
        if (p->privileged && idmap_maps_host_root(&p->uidmap))
                plan_warn(p,
                          "the spec maps host uid 0 into the container (%s): a process there that "
                          "is host root can change the host's files, devices and kernel settings "
                          "it can reach",
                          phrase_where(s, SPEC_KEY_IDMAP_UID, s->uidmap.line, where, sizeof where));
        char change[512];
        if (idmap_outside(&p->uidmap, s->uid) < 0) {
                phrase_error(err, s, SPEC_KEY_PROCESS_USER,
                             "uid %u is not mapped into the container", s->uid);
                return error_hint(err, "%s, or run as a mapped user such as 0",
                                  phrase_change(s->front, SPEC_KEY_IDMAP_UID, PHRASE_ON, change,
                                                sizeof change));
        }
        if (idmap_outside(&p->gidmap, s->gid) < 0) {
                phrase_error(err, s, SPEC_KEY_PROCESS_USER,
                             "gid %u is not mapped into the container", s->gid);
                return error_hint(err, "%s",
                                  phrase_change(s->front, SPEC_KEY_IDMAP_GID, PHRASE_ON, change,
                                                sizeof change));
        }
        for (size_t i = 0; i < s->ngroups; i++)
                if (idmap_outside(&p->gidmap, s->groups[i]) < 0)
                        return phrase_error(err, s, SPEC_KEY_PROCESS_GROUPS,
                                            "group %u is not mapped into the container",
                                            s->groups[i]);
        if (s->groups_set && p->deny_setgroups) {
                phrase_error(err, s, SPEC_KEY_PROCESS_GROUPS,
                             "supplementary groups need setgroups(2), which the kernel denies "
                             "with an unprivileged single-gid map");
                return error_hint(err, "%s",
                                  phrase_change(s->front, SPEC_KEY_PROCESS_GROUPS, PHRASE_ON,
                                                change, sizeof change));
        }
        return 0;
}

/* The id maps of the container's user namespace, and whether setgroups(2) must be denied. */
static int plan_maps(struct plan *p, const struct spec *s, const struct plan_host *h,
                     struct error *err)
{
        struct subids sub = {.nuids = 0};

        if (plan_subids(p, s, h, &sub, err) < 0)
                return -1;
        if (idmap_resolve(s, &s->uidmap, "uid", p->host_uid, p->privileged, sub.uids, sub.nuids,
                          &p->uidmap, err) < 0 ||
            idmap_resolve(s, &s->gidmap, "gid", p->host_gid, p->privileged, sub.gids, sub.ngids,
                          &p->gidmap, err) < 0)
                return -1;
        if (sub.own_uids)
                p->uidmap.use_helper = false;
        if (sub.own_gids)
                p->gidmap.use_helper = false;
        /* unprivileged single-id maps need "deny" (root of a nested namespace writes its own
         * ranges with CAP_SETGID, and need not); and under a user namespace that already
         * denies setgroups (crib run inside `unshare -r`), every nested one denies it too */
        p->deny_setgroups =
                (!p->privileged && !sub.own_gids && !p->gidmap.use_helper) || h->setgroups_denied;
        return plan_ids_mapped(p, s, err);
}

static int plan_ids(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        if (p->userns && plan_maps(p, pl->s, pl->h, err) < 0)
                return -1;
        /* clear the host's supplementary groups, unless the kernel forbids setgroups(2) */
        p->set_groups = !p->deny_setgroups;
        return 0;
}

/* Whether a host user other than root and `uid` can walk to the rootfs, whose descriptor is
 * `fd`: no directory above it shuts them out. Walked up by "..", from the directory itself, so
 * a symlink on the way does not matter. The rootfs does not count: the container owns it, and
 * may chmod it. */
static bool reachable_by_others(int fd, uid_t uid)
{
        struct stat st, top;
        struct reach_cache cache = {.asked = false};
        if (stat("/", &top) < 0)
                return true;
        _cleanup_close_ int dir = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
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
 * exemption. */
static bool may_write(const struct spec *s, bool ro)
{
        return !ro || (s->caps & (1ULL << CAP_SYS_ADMIN));
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
static int plan_root_rootfs(struct plan *p, const struct spec *s, const struct plan_host *h, int fd,
                            const struct stat *st, unsigned line, struct error *err)
{
        if (st->st_uid == 0 && idmap_outside(&p->uidmap, 0) > 0) {
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
        if (!may_write(s, s->readonly_rootfs) || !reachable_by_others(fd, 0))
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
static int plan_user_rootfs(struct plan *p, const struct spec *s, int fd, unsigned line,
                            struct error *err)
{
        if (!may_write(s, s->readonly_rootfs) || !reachable_by_others(fd, p->host_uid))
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

/* The read-write binds other users can reach, for one warning (a plan holds four, and a spec
 * 256 mounts): the first one's line and source, and the others' lines. */
struct bind_reach {
        int rootfs;       /* the rootfs's descriptor (O_PATH) */
        int rootfs_reach; /* whether others reach it: -1 not asked yet */
        unsigned n, line;
        const char *src;
        char lines[96];
        char above[PATH_MAX + 4]; /* a directory above the first one, to shut */
};

/* A bind the container may write: what it writes there is on the host as it is in the rootfs
 * (plan_root_rootfs, plan_user_rootfs), so a setuid file it made would run as its owner for any
 * host user who can reach the source; a nosuid mount inside the container does not change that
 * on the host. The spec names each bind itself, and podman's and Docker's users take the same
 * risk with theirs, so crib warns rather than refuse (plan_bind_warn): for a directory others
 * can reach, and for a file the container may chmod (one of its uids owns it) in a directory
 * others can reach, or with a second link. But a bind of the rootfs, of a directory in it or of one
 * that holds it would undo readonly_rootfs: where the rootfs check would refuse a writable rootfs
 * (in a user namespace, a rootfs others reach), such a bind is refused as that rootfs would be. */
static int plan_bind_reach(struct plan *p, const struct spec *s, const struct spec_mount *m,
                           const char *src, struct bind_reach *b, struct error *err)
{
        uid_t me = p->privileged ? 0 : p->host_uid;
        struct stat st, rst;
        struct reach_cache cache = {.asked = false};
        char who[128];
        if (!may_write(s, m->opts & SPEC_MNT_RO))
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
static void plan_bind_warn(struct plan *p, const struct spec *s, const struct bind_reach *b)
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

/* The rootfs is opened once, by name, and everything is checked on that descriptor; the
 * child opens the name once more and refuses anything but this directory (step_bind_rootfs). */
static int plan_rootfs(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        _cleanup_free_ char *path = plan_spec_relative(s, s->rootfs);
        unsigned line = spec_line(s, SPEC_KEY_CONTAINER_ROOTFS);
        struct stat st, root;
        char self[64], resolved[PATH_MAX];
        if (!path)
                return error_set(err, ENOMEM, "cannot allocate");
        _cleanup_close_ int fd = open(path, O_PATH | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) < 0) {
                int e = errno;
                error_at_errno(err, e, s->path, line, "rootfs '%s' %s", path,
                               e == ENOENT ? "does not exist" : "cannot be read");
                if (e == ENOENT)
                        return error_hint(err,
                                          "build a busybox rootfs there with: "
                                          "rootfs-tools/mkrootfs %s",
                                          path);
                return -1;
        }
        if (!S_ISDIR(st.st_mode))
                return error_at(err, s->path, line, "rootfs '%s' is not a directory", path);
        if (stat("/", &root) == 0 && st.st_dev == root.st_dev && st.st_ino == root.st_ino) {
                error_at(err, s->path, line, "rootfs '%s' is the host's root directory", path);
                return error_hint(err, "a container needs a root filesystem of its own; build a "
                                       "busybox one with: rootfs-tools/mkrootfs DIR");
        }
        /* The name later steps find it by (container.c opens it again, and refuses another
         * directory by its device and inode). A user's absolute path stays as written: what
         * resolving it costs (a readlink of /proc/self/fd, whose entries are new in every
         * process) buys nothing there. A relative one is resolved, as the monitor works from
         * /, and root's. Who else can reach it is asked of the descriptor, not of the name
         * (reachable_by_others walks up from it by ".."), so a symlink on the way cannot hide
         * an open directory. */
        if (path[0] == '/' && !p->privileged) {
                snprintf(resolved, sizeof resolved, "%s", path);
        } else {
                snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
                ssize_t n = readlink(self, resolved, sizeof resolved - 1);
                if (n <= 0 || (size_t)n >= sizeof resolved - 1 || resolved[0] != '/')
                        return error_set(err, n < 0 ? errno : ENAMETOOLONG,
                                         "cannot resolve rootfs '%s'", path);
                resolved[n] = '\0';
        }
        p->rootfs = plan_keep(&pl->sc, strdup(resolved));
        if (!p->rootfs)
                return error_set(err, ENOMEM, "cannot allocate");
        if (p->privileged && p->userns && plan_root_rootfs(p, s, h, fd, &st, line, err) < 0)
                return -1;
        if (!p->privileged && p->userns && plan_user_rootfs(p, s, fd, line, err) < 0)
                return -1;
        p->rootfs_dev = st.st_dev;
        p->rootfs_ino = st.st_ino;
        /* search (x) permission on the directory itself: "." is looked up in it */
        _cleanup_close_ int dot = openat(fd, ".", O_PATH | O_CLOEXEC);
        if (dot < 0) {
                error_at_errno(err, errno, s->path, line, "rootfs '%s' is not accessible to uid %u",
                               p->rootfs, (unsigned)p->host_uid);
                return error_hint(err, "every directory on the way to it needs search (x) "
                                       "permission for you");
        }
        pl->rootfs = take_fd(&fd); /* for the binds' check (plan_bind_reach) */
        return 0;
}

/* crib's own mounts, in order, each with the condition it is made under. Every mount a
 * container could make a device node in is nodev (the rootfs bind too, in mounts.c): with
 * user = no it is real root and keeps CAP_MKNOD. Only the standard nodes in /dev, devpts, and
 * device files the spec binds one by one open. */
enum default_when {
        ALWAYS,
        WITH_NS,           /* the container has namespace `ns` of its own */
        WITHOUT_NS,        /* it shares the host's */
        WITHOUT_NS_IF_DIR, /* it shares the host's, and the host has directory `src` */
        IF_HOST_CHR,       /* the host has character device `src` (checked by the child in a user
                            * namespace, which binds it; here for real root, which copies it) */
        IF_TTY_GID,        /* gid 5 (tty) is mapped (or there is no user namespace) */
        UNLESS_TTY_GID,    /* it is not: devpts without gid=5, or the mount fails */
};

#define HARD   (MS_NOSUID | MS_NODEV | MS_NOEXEC)
#define DEVPTS "newinstance,ptmxmode=0666,mode=0620"
#define DEV_NODE(name)                                                                             \
        {                                                                                          \
                IF_HOST_CHR, 0,                                                                    \
                {                                                                                  \
                        .kind = MOP_DEV_NODE, .src = "/dev/" name, .dst = "/dev/" name             \
                }                                                                                  \
        }
#define SYMLINK(target, link)                                                                      \
        {                                                                                          \
                ALWAYS, 0,                                                                         \
                {                                                                                  \
                        .kind = MOP_SYMLINK, .src = target, .dst = link                            \
                }                                                                                  \
        }

static const struct default_mount {
        enum default_when when;
        int ns; /* CLONE_NEW* for WITH_NS, WITHOUT_NS, WITHOUT_NS_IF_DIR */
        struct mount_op op;
} default_mounts[] = {
        /* proc of the container's own pid namespace, or the host's */
        {WITH_NS, CLONE_NEWPID, {.kind = MOP_PROC, .dst = "/proc", .flags = HARD}},
        {WITHOUT_NS,
         CLONE_NEWPID,
         {.kind = MOP_BIND,
          .src = "/proc",
          .dst = "/proc",
          .flags = MS_REC | MS_NODEV,
          .src_is_dir = true}},
        {ALWAYS,
         0,
         {.kind = MOP_TMPFS,
          .dst = "/dev",
          .flags = MS_NOSUID | MS_NODEV | MS_STRICTATIME,
          .data = "mode=755,size=65536k"}},
        /* a host without one of these goes without it in the container too */
        DEV_NODE("null"),
        DEV_NODE("zero"),
        DEV_NODE("full"),
        DEV_NODE("random"),
        DEV_NODE("urandom"),
        DEV_NODE("tty"),
        {IF_TTY_GID,
         0,
         {.kind = MOP_DEVPTS,
          .dst = "/dev/pts",
          .flags = MS_NOSUID | MS_NOEXEC,
          .data = DEVPTS ",gid=5"}},
        {UNLESS_TTY_GID,
         0,
         {.kind = MOP_DEVPTS, .dst = "/dev/pts", .flags = MS_NOSUID | MS_NOEXEC, .data = DEVPTS}},
        SYMLINK("pts/ptmx", "/dev/ptmx"),
        {ALWAYS,
         0,
         {.kind = MOP_TMPFS, .dst = "/dev/shm", .flags = HARD, .data = "mode=1777,size=65536k"}},
        /* the ipc namespace's message queues, or the host's where it has them */
        {WITH_NS, CLONE_NEWIPC, {.kind = MOP_MQUEUE, .dst = "/dev/mqueue", .flags = HARD}},
        {WITHOUT_NS_IF_DIR,
         CLONE_NEWIPC,
         {.kind = MOP_BIND,
          .src = "/dev/mqueue",
          .dst = "/dev/mqueue",
          .flags = MS_NODEV,
          .src_is_dir = true}},
        SYMLINK("/proc/self/fd", "/dev/fd"),
        SYMLINK("/proc/self/fd/0", "/dev/stdin"),
        SYMLINK("/proc/self/fd/1", "/dev/stdout"),
        SYMLINK("/proc/self/fd/2", "/dev/stderr"),
        /* a sysfs of our own shows our network namespace; otherwise the host's, read-only */
        {WITH_NS, CLONE_NEWNET, {.kind = MOP_SYSFS, .dst = "/sys", .flags = MS_RDONLY | HARD}},
        {WITHOUT_NS,
         CLONE_NEWNET,
         {.kind = MOP_BIND,
          .src = "/sys",
          .dst = "/sys",
          .flags = MS_REC | MS_RDONLY | HARD,
          .src_is_dir = true}},
};
#undef HARD
#undef DEVPTS
#undef DEV_NODE
#undef SYMLINK

/* crib's own mounts: the rows of the table above whose condition holds. */
static int plan_default_mounts(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        bool tty_gid = !p->userns || idmap_outside(&p->gidmap, 5) >= 0;
        struct stat st;

        for (size_t i = 0; i < sizeof default_mounts / sizeof default_mounts[0]; i++) {
                const struct default_mount *d = &default_mounts[i];
                struct mount_op op = d->op;
                bool has_ns = p->clone_flags & d->ns;
                bool take = false;
                switch (d->when) {
                case ALWAYS:
                        take = true;
                        break;
                case WITH_NS:
                        take = has_ns;
                        break;
                case WITHOUT_NS:
                        take = !has_ns;
                        break;
                case WITHOUT_NS_IF_DIR:
                        take = !has_ns && stat(op.src, &st) == 0 && S_ISDIR(st.st_mode);
                        break;
                case IF_HOST_CHR:
                        /* in a user namespace the host's node is bound, and the child looks
                         * at it where it opens it (mounts.c); real root copies it: its number
                         * is needed now */
                        if (p->userns) {
                                take = true;
                                break;
                        }
                        take = stat(op.src, &st) == 0 && S_ISCHR(st.st_mode);
                        op.dev = take ? st.st_rdev : 0;
                        break;
                case IF_TTY_GID:
                        take = tty_gid;
                        break;
                case UNLESS_TTY_GID:
                        take = !tty_gid;
                        break;
                }
                if (take && plan_add_op(p, op, err) < 0)
                        return -1;
        }
        return 0;
}

/* One mount of the spec's [mounts]: a tmpfs, or a bind of a source that exists, checked for
 * who else can reach it (plan_bind_reach). */
static int plan_spec_mount(struct plan *p, const struct spec *s, const struct spec_mount *m,
                           struct bind_reach *reach, struct scratch *sc, struct error *err)
{
        struct mount_op op = {.dst = m->dst, .line = m->line};
        struct stat st;
        if (m->opts & SPEC_MNT_RO)
                op.flags |= MS_RDONLY;
        if (m->opts & SPEC_MNT_NOSUID)
                op.flags |= MS_NOSUID;
        if (m->opts & SPEC_MNT_NODEV)
                op.flags |= MS_NODEV;
        if (m->opts & SPEC_MNT_NOEXEC)
                op.flags |= MS_NOEXEC;
        if (m->opts & SPEC_MNT_STRICTATIME)
                op.flags |= MS_STRICTATIME;
        if (m->kind == SPEC_MOUNT_TMPFS) {
                op.kind = MOP_TMPFS;
                op.flags |= MS_NODEV;
                op.data = m->data;
        } else {
                char *src = spec_absolute(s, m->src);
                if (!src)
                        return error_set(err, ENOMEM, "cannot allocate");
                if (stat(src, &st) < 0) {
                        int e = errno;
                        error_at_errno(err, e == ENOENT ? 0 : e, s->path, m->line,
                                       "bind source '%s' %s", src,
                                       e == ENOENT ? "does not exist" : "cannot be read");
                        free(src);
                        return -1;
                }
                op.kind = MOP_BIND;
                if (!(op.src = plan_keep(sc, src)))
                        return error_set(err, ENOMEM, "cannot allocate");
                if (plan_bind_reach(p, s, m, op.src, reach, err) < 0)
                        return -1;
                op.src_is_dir = S_ISDIR(st.st_mode);
                /* a directory's device nodes do not open; a device the spec binds by name
                 * (/dev/ttyUSB0) does */
                if (op.src_is_dir)
                        op.flags |= MS_NODEV;
                if (m->opts & SPEC_MNT_RECURSIVE)
                        op.flags |= MS_REC;
        }
        return plan_add_op(p, op, err);
}

/* The spec's [mounts], in order, after crib's own; one warning for the read-write binds other
 * users can reach. */
static int plan_spec_mounts(struct planning *pl, struct error *err)
{
        const struct spec *s = pl->s;
        struct bind_reach reach = {.rootfs = pl->rootfs, .rootfs_reach = -1};

        for (size_t i = 0; i < s->nmounts; i++)
                if (plan_spec_mount(pl->p, s, &s->mounts[i], &reach, &pl->sc, err) < 0)
                        return -1;
        plan_bind_warn(pl->p, s, &reach);
        return 0;
}

static int plan_env(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        struct scratch *sc = &pl->sc;
        size_t n = s->nenv;
        bool has_path = false, has_home = false, has_term = false;
        for (size_t i = 0; i < n; i++) {
                has_path |= !strncmp(s->env[i], "PATH=", 5);
                has_home |= !strncmp(s->env[i], "HOME=", 5);
                has_term |= !strncmp(s->env[i], "TERM=", 5);
        }
        p->envp = plan_keep(sc, calloc(n + 4, sizeof *p->envp));
        if (!p->envp)
                return error_set(err, ENOMEM, "cannot allocate");
        for (size_t i = 0; i < n; i++)
                p->envp[i] = s->env[i];
        if (!has_path)
                p->envp[n++] = "PATH=" PLAN_DEFAULT_PATH;
        if (!has_home)
                p->envp[n++] = p->uid == 0 ? "HOME=/root" : "HOME=/";
        if (p->terminal && !has_term) {
                const char *t = h->term;
                char *term;
                if (asprintf(&term, "TERM=%s", t && *t ? t : "xterm") < 0 || !plan_keep(sc, term))
                        return error_set(err, ENOMEM, "cannot allocate");
                p->envp[n++] = term;
        }
        return 0;
}

static void plan_warn(struct plan *p, const char *fmt, ...)
{
        va_list ap;
        if (p->nwarnings == sizeof p->warnings / sizeof p->warnings[0])
                return;
        va_start(ap, fmt);
        vsnprintf(p->warnings[p->nwarnings++], sizeof p->warnings[0], fmt, ap);
        va_end(ap);
}

/* Where crib looks for a program it runs (a network helper, nft): the system's directories
 * only, so that neither a writable directory nor $PATH (root's could be a user's) decides. */
/* Find NAME (of Debian's PACKAGE) for `what` in the system's directories; *ret is kept in sc. */
static int plan_find_program(struct plan *p, const struct spec *s, const char *name,
                             const char *package, const char *what, const char **ret,
                             struct scratch *sc, struct error *err)
{
        static const char *const dirs[] = {"/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin",
                                           "/sbin"};
        for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
                char path[64];
                struct stat st, dir;
                snprintf(path, sizeof path, "%s/%s", dirs[i], name);
                if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || stat(dirs[i], &dir) < 0)
                        continue;
                if (st.st_uid != 0 || dir.st_uid != 0 || (st.st_mode & 022) ||
                    (dir.st_mode & 022)) {
                        error_at(err, s->path, p->net_line,
                                 "'%s' is not root's, or others may change it; crib does not run "
                                 "it %s",
                                 path, what);
                        return error_hint(err, "reinstall it: sudo apt install --reinstall %s",
                                          package);
                }
                if (!(*ret = plan_keep(sc, strdup(path))))
                        return error_set(err, ENOMEM, "cannot allocate");
                return 0;
        }
        error_at(err, s->path, p->net_line, "mode = %s needs %s %s, which is not installed",
                 spec_net_mode_name(s->net_mode), name, what);
        return error_hint(err, "install it: sudo apt install %s", package);
}

/* A mount of one generated file, unless the spec mounts something of its own there. */
static int plan_file(struct plan *p, const struct spec *s, const char *dst, char *text,
                     struct scratch *sc, struct error *err)
{
        if (!plan_keep(sc, text))
                return error_set(err, ENOMEM, "cannot allocate");
        for (size_t i = 0; i < s->nmounts; i++)
                if (!strcmp(s->mounts[i].dst, dst) || !strcmp(s->mounts[i].dst, "/etc") ||
                    !strcmp(s->mounts[i].dst, "/"))
                        return 0;
        return plan_add_op(p, (struct mount_op){.kind = MOP_FILE, .dst = dst, .data = text}, err);
}

/* [network]: the helper, the published ports, resolv.conf and hosts, ping without NET_RAW. */
static int plan_network(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        struct scratch *sc = &pl->sc;
        p->net_mode = s->net_mode;
        p->net_line = spec_line(s, SPEC_KEY_NETWORK_MODE);
        p->host_loopback = s->host_loopback;
        snprintf(p->run_dir, sizeof p->run_dir, "%s", h->run_dir);
        memcpy(p->ports, s->ports, s->nports * sizeof s->ports[0]);
        p->nports = s->nports;
        if (!spec_net_has_helper(s->net_mode))
                return 0;
        /* ICMP echo sockets for every group the container has: ping needs no NET_RAW */
        uint32_t lo = 0, hi = 2147483646;
        if (p->userns && p->gidmap.n) {
                lo = UINT32_MAX, hi = 0;
                for (size_t i = 0; i < p->gidmap.n; i++) {
                        const struct idmap_range *r = &p->gidmap.r[i];
                        if (r->inside < lo)
                                lo = r->inside;
                        if (r->inside + (r->count - 1) > hi)
                                hi = r->inside + (r->count - 1);
                }
        }
        snprintf(p->ping_range, sizeof p->ping_range, "%u %u", lo, hi);
        bool slirp = s->net_mode == SPEC_NET_SLIRP4NETNS;
        if (plan_find_program(p, s, slirp ? "slirp4netns" : "pasta",
                              slirp ? "slirp4netns" : "passt", "as the network helper",
                              &p->net_helper, sc, err) < 0)
                return -1;
        /* the helpers connect what the container sends for 127.0.0.1 or ::1 to the host's own:
         * a socket bound to the tap (SO_BINDTODEVICE, IP_PKTINFO: no capability needed) sends
         * it there, so a rule in the container's namespace drops it on the way out */
        char change[128];
        if (!s->host_loopback &&
            plan_find_program(p, s, "nft", "nftables",
                              "to keep the container away from the host's loopback", &p->nft, sc,
                              err) < 0)
                return error_hint(err, "or %s if the container may reach the host's local services",
                                  phrase_change(s->front, SPEC_KEY_NETWORK_HOST_LOOPBACK, PHRASE_ON,
                                                change, sizeof change));

        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f)
                return error_set(err, ENOMEM, "cannot allocate");
        fprintf(f, "# made by crib for a container with [network] mode = %s\n",
                spec_net_mode_name(s->net_mode));
        for (size_t i = 0; i < s->ndns; i++)
                fprintf(f, "nameserver %s\n", s->dns[i]);
        if (!s->ndns) /* the helper's own forwarder, which asks the host's resolver */
                fprintf(f, "nameserver %s\n", NET_DNS_ADDR(s->net_mode));
        fclose(f);
        if (plan_file(p, s, "/etc/resolv.conf", text, sc, err) < 0)
                return -1;
        text = NULL;
        f = open_memstream(&text, &len);
        if (!f)
                return error_set(err, ENOMEM, "cannot allocate");
        fprintf(f, "# made by crib\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost "
                   "ip6-loopback\n");
        if (s->hostname)
                fprintf(f, "127.0.1.1\t%s\n", s->hostname);
        fclose(f);
        return plan_file(p, s, "/etc/hosts", text, sc, err);
}

/* A level's bound on processes ([limits] nproc: 2048 at the default level) is RLIMIT_NPROC in a
 * user namespace, where the kernel (Linux 5.14 and later) counts each container uid's processes
 * and threads in that namespace alone, and container root has no host CAP_SYS_RESOURCE to pass
 * it. Without one (user = no) the limit binds no one: real root is exempt, and any other uid's
 * count is of its processes on the whole host. There a level's bound becomes the pids.max of the
 * cgroup crib makes anyway for the device program (plan_default_pids); the spec's own nproc stays
 * what it says, RLIMIT_NPROC. */
static bool plan_nproc_as_pids(const struct plan *p, const struct spec *s, int resource)
{
        return resource == RLIMIT_NPROC && !p->userns &&
               spec_origin(s, SPEC_KEY_LIMITS_NPROC)->kind == SPEC_FROM_LEVEL;
}

void plan_caps_for_uid(struct plan *p, uid_t uid)
{
        p->cap_permitted = p->cap_effective = uid == 0 ? p->cap_bounding : p->cap_user;
        p->cap_inheritable = p->cap_ambient = uid == 0 ? 0 : p->cap_user;
}

/* Real root's capabilities (no user namespace): what crib itself may hold, the bounding set it
 * runs under (a root inside another container may lack some), of the capabilities in *set. */
static int plan_caps_real_root(struct plan *p, const struct spec *s, const struct plan_host *h,
                               uint64_t known, uint64_t *set, struct error *err)
{
        uint64_t own = h->cap_bounding_known ? h->cap_bounding : known;
        uint64_t missing = *set & ~own;
        unsigned line = spec_line(s, SPEC_KEY_SECURITY_CAPABILITIES);
        /* the spec's own list is a demand; a level's is a ceiling (below) */
        if (missing && spec_in_file(s, SPEC_KEY_SECURITY_CAPABILITIES)) {
                int c = __builtin_ctzll(missing);
                error_at(err, s->path, line,
                         "capability %s is not in crib's own bounding set, so a container "
                         "without a user namespace cannot have it",
                         capname_of(c) ? capname_of(c) : "?");
                return error_hint(err, "leave it out, or run crib where root has it (see CapBnd "
                                       "in /proc/self/status)");
        }
        *set &= own; /* a level's list is a ceiling */
        if (*set & (1ULL << CAP_SYS_PTRACE))
                plan_warn(p,
                          "%s with SYS_PTRACE: the container is host root with ptrace(2), which "
                          "can take over any process it sees%s%s%s",
                          phrase_off(s->front, SPEC_KEY_NAMESPACES_USER),
                          s->ns_pid ? "" : ", and with ",
                          s->ns_pid ? "" : phrase_off(s->front, SPEC_KEY_NAMESPACES_PID),
                          s->ns_pid ? "" : " it sees the host's");
        return 0;
}

/* Capability sets: computed here so the child only applies them. */
static int plan_caps(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        p->cap_last = h->cap_last;
        uint64_t known = p->cap_last >= 63 ? ~0ULL : (1ULL << (p->cap_last + 1)) - 1;
        uint64_t unknown = s->caps_named & ~known;
        if (unknown) {
                char names[256] = "";
                for (int c = 0; c < 64; c++)
                        if (unknown & (1ULL << c))
                                snprintf(names + strlen(names), sizeof names - strlen(names),
                                         "%s%s", names[0] ? " " : "",
                                         capname_of(c) ? capname_of(c) : "?");
                plan_warn(p, "this kernel knows capabilities up to %d (%s); dropping the newer %s",
                          p->cap_last, capname_of(p->cap_last) ? capname_of(p->cap_last) : "?",
                          names);
        }
        uint64_t set = s->caps & known;
        if (!p->userns && plan_caps_real_root(p, s, h, known, &set, err) < 0)
                return -1;
        /* The bounding set is the level's (or the spec's) for every uid. Root gets it at exec;
         * a user other than root gets only what the spec names (Docker's rule: an image's
         * USER drops its privilege for a reason, and the word `default` or a level's list names
         * nothing), through the ambient set. An OCI config's sets are its own: caps_file is its
         * bounding set, and caps_no_ambient says it gave that user none to inherit. */
        p->cap_bounding = set;
        p->cap_user = s->caps_no_ambient ? 0 : set & s->caps_file;
        plan_caps_for_uid(p, s->uid);
        p->no_new_privs = s->no_new_privileges;
        p->masked = &s->masked; /* copied into the plan by plan_pack() */
        p->readonly = &s->readonly;
        /* CAP_SYS_ADMIN may unmount or remount what the setup mounted in the same user
         * namespace (masks, read-only paths and binds, nodev and nosuid everywhere): below one
         * of the workload's own, the kernel locks it (lockmounts.c). At every level: the
         * nodev of the rootfs keeps host devices shut at unconfined too. */
        if ((set & (1ULL << CAP_SYS_ADMIN)) && p->userns)
                p->nest_flags = CLONE_NEWUSER | CLONE_NEWNS |
                                (p->clone_flags & (CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWCGROUP));
        else if ((set & (1ULL << CAP_SYS_ADMIN)) &&
                 (s->masked.n || s->readonly.n || s->readonly_rootfs))
                plan_warn(p,
                          "%s with SYS_ADMIN: the container is host root and can undo its masked "
                          "and read-only paths (the kernel locks mounts only for a user namespace "
                          "below the one that made them), and leave its cgroup and with it the "
                          "device program",
                          phrase_off(s->front, SPEC_KEY_NAMESPACES_USER));
        return 0;
}

/* [limits]: what the child (or for root the parent) sets with setrlimit(2). A level's limit is
 * a ceiling, never above crib's own; the spec's own is a demand, refused when crib cannot raise
 * its hard limit that far. */
static int plan_rlimits(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        for (int r = 0; r < SPEC_NLIMITS; r++) {
                const struct spec_limit *l = &s->limits[r];
                const struct rlimit cur = h->rlimits[r];
                if (!l->set || plan_nproc_as_pids(p, s, r))
                        continue;
                uint64_t soft = l->soft, hard = l->hard;
                /* crib's own hard limit is in the way, and it may not raise it */
                bool above = h->rlimit_known[r] && hard > cur.rlim_max && !h->cap_sys_resource;
                if (above && !spec_in_file(s, spec_limit_key(r))) {
                        /* a level's limit is a ceiling, not a demand: never above the caller's */
                        hard = cur.rlim_max;
                        if (soft > hard)
                                soft = hard;
                } else if (above) {
                        char have[32];
                        if (cur.rlim_max == RLIM_INFINITY)
                                snprintf(have, sizeof have, "unlimited");
                        else
                                snprintf(have, sizeof have, "%llu",
                                         (unsigned long long)cur.rlim_max);
                        phrase_error(err, s, spec_limit_key(r),
                                     "limit '%s' asks for a hard limit above your own (%s); only "
                                     "root (with CAP_SYS_RESOURCE) can raise it",
                                     spec_limit_name(r), have);
                        char most[160];
                        return error_hint(err,
                                          "ask for %s, or raise your own hard limit first "
                                          "(/etc/security/limits.conf)",
                                          phrase_at_most(s->front, spec_limit_key(r),
                                                         spec_limit_name(r), have, most,
                                                         sizeof most));
                }
                p->rlimits[p->nrlimits].resource = r;
                p->rlimits[p->nrlimits].lim.rlim_cur = soft;
                p->rlimits[p->nrlimits].lim.rlim_max = hard;
                p->nrlimits++;
        }
        return 0;
}

/* The descriptors the workload gets besides 0, 1 and 2: each must be open in crib. */
static int plan_pass_fds(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        for (size_t i = 0; i < s->npass_fds; i++)
                if (s->pass_fds[i] == h->closed_fd)
                        return error_at(err, s->path, spec_line(s, SPEC_KEY_PROCESS_PASS_FDS),
                                        "pass_fds: fd %d is not open", s->pass_fds[i]);
        p->pass_fds = s->pass_fds;
        p->npass_fds = s->npass_fds;
        return 0;
}

/* Prepare the seccomp program: built into crib for a built-in profile, or compiled now. */
static int plan_seccomp(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        const char *name = s->seccomp_text ? "the config's"
                           : s->seccomp    ? s->seccomp
                                           : "unconfined";
        unsigned line = spec_line(s, SPEC_KEY_SECURITY_SECCOMP);
        if (!s->seccomp_text && !strcmp(name, "unconfined")) {
                snprintf(p->seccomp_how, sizeof p->seccomp_how, "none (seccomp = unconfined)");
                return 0;
        }
        if (!h->seccomp_filters) {
                if (s->seccomp_require) {
                        char change[256];
                        phrase_error(err, s, SPEC_KEY_SECURITY_SECCOMP_MODE,
                                     "%s%s%s is required, but this kernel has no seccomp filters",
                                     s->seccomp_text ? "the config's seccomp profile"
                                                     : "seccomp profile '",
                                     s->seccomp_text ? "" : name, s->seccomp_text ? "" : "'");
                        return error_hint(err,
                                          "use a kernel built with CONFIG_SECCOMP_FILTER=y, or %s",
                                          phrase_change(s->front, SPEC_KEY_SECURITY_SECCOMP_MODE,
                                                        PHRASE_OFF, change, sizeof change));
                }
                plan_warn(p,
                          "this kernel has no seccomp filters (CONFIG_SECCOMP_FILTER); running "
                          "without the seccomp profile '%s'",
                          name);
                snprintf(p->seccomp_how, sizeof p->seccomp_how, "none (no kernel support)");
                return 0;
        }
        _cleanup_free_ char *text = NULL;
        /* a built-in profile's text is read in place: its program is usually compiled already,
         * and then the text is not read at all */
        const char *builtin = s->seccomp_text ? NULL : profile_builtin_text(name);
        char label[4096];
        if (s->seccomp_text) {
                text = strdup(s->seccomp_text);
                snprintf(label, sizeof label, "%s: .linux.seccomp", s->path);
        } else if (builtin) {
                snprintf(label, sizeof label, "profiles/seccomp/%s", name);
        } else {
                _cleanup_free_ char *path = plan_spec_relative(s, name);
                _cleanup_fclose_ FILE *f = path ? fopen(path, "re") : NULL;
                if (!f) {
                        return error_at_errno(err, errno, s->path, line,
                                              "cannot open seccomp profile '%s'",
                                              path ? path : name);
                }
                text = calloc(1, 1024 * 1024 + 1);
                if (text && fread(text, 1, 1024 * 1024, f) == 1024 * 1024)
                        return error_at(err, s->path, line, "seccomp profile '%s' is over 1 MiB",
                                        path);
                snprintf(label, sizeof label, "%s", path);
        }
        if (!builtin && !text)
                return error_set(err, ENOMEM, "cannot allocate");
        return seccomp_prepare(builtin ? name : NULL, builtin ? builtin : text, label,
                               seccomp_native_arch(), p->cap_bounding, &p->seccomp, p->seccomp_how,
                               sizeof p->seccomp_how, err);
}

/* AppArmor: is it there, and must the profile be applied? The child applies it on exec. */
static int plan_apparmor(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        const char *name = s->apparmor ? s->apparmor : "unconfined";
        unsigned line = spec_line(s, SPEC_KEY_SECURITY_APPARMOR);
        if (!strcmp(name, "unconfined"))
                return 0;
        /* prefer, unless apparmor_mode says require, or the spec names the profile itself and
         * does not say prefer */
        p->apparmor_required =
                s->apparmor_require || (spec_in_file(s, SPEC_KEY_SECURITY_APPARMOR) &&
                                        !spec_in_file(s, SPEC_KEY_SECURITY_APPARMOR_MODE));
        if (h->apparmor) {
                snprintf(p->apparmor, sizeof p->apparmor, "%s", name);
                return 0;
        }
        if (p->apparmor_required) {
                char change[256];
                phrase_error(err, s,
                             line ? SPEC_KEY_SECURITY_APPARMOR : SPEC_KEY_SECURITY_APPARMOR_MODE,
                             "AppArmor profile '%s' was asked for, but %s", name, h->apparmor_why);
                return error_hint(err, "%s; or run without it: %s", h->apparmor_fix,
                                  phrase_change(s->front, SPEC_KEY_SECURITY_APPARMOR, PHRASE_OFF,
                                                change, sizeof change));
        }
        plan_warn(p, "AppArmor is not available (%s); running without the profile '%s'\n%s",
                  h->apparmor_why, name, h->apparmor_fix);
        p->apparmor_warning = p->nwarnings;
        return 0;
}

/* Resources: where the container's cgroup goes, and which limits it gets. What cannot be
 * applied fails the spec, or with resources_mode = prefer is dropped with a warning. */

/* The keys that set each controller's limits, SPEC_NKEYS past the last */
static const enum spec_key ctrl_keys[CGROUP_NCTRL][4] = {
        [CGROUP_MEMORY] = {SPEC_KEY_RESOURCES_MEMORY, SPEC_KEY_RESOURCES_MEMORY_HIGH,
                           SPEC_KEY_RESOURCES_MEMORY_SWAP, SPEC_NKEYS},
        [CGROUP_CPU] = {SPEC_KEY_RESOURCES_CPUS, SPEC_KEY_RESOURCES_CPU_WEIGHT, SPEC_NKEYS},
        [CGROUP_PIDS] = {SPEC_KEY_RESOURCES_PIDS, SPEC_NKEYS},
        [CGROUP_IO] = {SPEC_KEY_RESOURCES_IO_WEIGHT, SPEC_NKEYS},
};

/* user = no: the devices its device program lets it open. The nodes crib copies into /dev, the
 * ptmx and ptys of its devpts (Unix98 pty majors 136 to 143), each device file the spec binds
 * by name, and a character device crib's stdio is (a serial console). */
static int plan_devices(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct plan_host *h = pl->h;
        const struct cgroup_host *c = &h->cgroup;
        (void)err;
        p->ndevices = 0;
        if (p->userns)
                return 0;
        const char *why = !c->base[0]                  ? c->why
                          : !c->clone_into             ? "no clone3(2) with CLONE_INTO_CGROUP"
                          : access(c->mount, W_OK) < 0 ? "the cgroup v2 hierarchy is read-only here"
                                                       : NULL;
        if (why) {
                snprintf(p->devices_why, sizeof p->devices_why,
                         "no device program: %s (the nodev mounts keep host devices shut)", why);
                return 0;
        }
        struct cgroup_device *d = p->devices;
        d[p->ndevices++] = (struct cgroup_device){'c', 5, 5, 2};      /* /dev/pts/ptmx */
        d[p->ndevices++] = (struct cgroup_device){'c', 136, 143, -1}; /* /dev/pts/N */
        struct stat st;
#define ADD_DEVICE(type, dev)                                                                      \
        (d[p->ndevices++] =                                                                        \
                 (struct cgroup_device){(type), major(dev), major(dev), (int32_t)minor(dev)})
        for (size_t i = 0; i < p->nmounts && p->ndevices < CGROUP_MAX_DEVICES; i++) {
                const struct mount_op *op = &p->mounts[i];
                char type = 0;
                dev_t dev = op->dev;
                if (op->kind == MOP_DEV_NODE) {
                        type = 'c';
                } else if (op->kind == MOP_BIND && !op->src_is_dir && stat(op->src, &st) == 0 &&
                           (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
                        type = S_ISCHR(st.st_mode) ? 'c' : 'b';
                        dev = st.st_rdev;
                }
                if (type)
                        ADD_DEVICE(type, dev);
        }
        /* crib's own stdio, which the workload has already: a serial console or a VT opens
         * again as /dev/stdin (pts are in the list above) */
        for (int fd = 0; fd < 3 && p->ndevices < CGROUP_MAX_DEVICES; fd++) {
                dev_t dev = h->stdio_chr[fd];
                if (dev && (major(dev) < 136 || major(dev) > 143))
                        ADD_DEVICE('c', dev);
        }
#undef ADD_DEVICE
        p->device_program = true;
        return 0;
}

/* Why controller k cannot take the limits here (NULL: it can), and the fix. */
static const char *limits_why(const struct cgroup_host *c, int k, const char **ret_fix)
{
        if (!(c->available & CGROUP_BIT(k))) {
                *ret_fix = c->ctrl_fix[k];
                return c->ctrl_why[k];
        }
        if (!c->clone_into) {
                *ret_fix = "use a newer kernel (Debian bullseye's 5.10 and later have it)";
                return "crib needs clone3(2) with CLONE_INTO_CGROUP for them (Linux 5.7)";
        }
        return NULL;
}

/* The limits of the controllers in `ctrls` that cannot be applied for one reason, `why`: the
 * spec's error naming the keys that set them, or with resources_mode = prefer, a warning and
 * the limits dropped. */
static int limits_fail(struct plan *p, const struct spec *s, unsigned ctrls, const char *why,
                       const char *fix, struct error *err)
{
        enum spec_key keys[16];
        size_t n = 0;
        char names[64] = "", change[512];
        unsigned left = ctrls;
        for (int k = 0; k < CGROUP_NCTRL; k++) {
                if (!(ctrls & CGROUP_BIT(k)))
                        continue;
                left &= ~CGROUP_BIT(k);
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                         !names[0] ? ""
                         : left    ? ", "
                                   : " and ",
                         cgroup_ctrl_name(k));
                for (const enum spec_key *key = ctrl_keys[k]; *key != SPEC_NKEYS; key++)
                        if (spec_in_file(s, *key) && n < sizeof keys / sizeof keys[0])
                                keys[n++] = *key;
        }
        if (!n) /* asked for by no key of the spec's own (it has none): the section */
                keys[n++] = SPEC_KEY_RESOURCES_MODE;
        if (s->resources_require) {
                phrase_error(err, s, keys[0], "the %s limits cannot be applied: %s", names, why);
                return error_hint(
                        err, "%s; or run without the %s limits: %s", fix, names,
                        phrase_change_all(s->front, keys, n, PHRASE_OFF, change, sizeof change));
        }
        plan_warn(p, "the %s limits are skipped: %s\n%s", names, why, fix);
        p->limits.need &= ~ctrls;
        if (ctrls & CGROUP_BIT(CGROUP_MEMORY))
                p->limits.memory_max = p->limits.memory_high = p->limits.memory_swap = CGROUP_UNSET;
        if (ctrls & CGROUP_BIT(CGROUP_PIDS))
                p->limits.pids_max = CGROUP_UNSET;
        if (ctrls & CGROUP_BIT(CGROUP_IO))
                p->limits.io_weight = 0;
        if (ctrls & CGROUP_BIT(CGROUP_CPU))
                p->limits.cpu_quota = p->limits.cpu_weight = 0;
        return 0;
}

/* Each limit the host cannot take, the controllers that share a reason together: the reason
 * most basic first (cgroup.c: the kernel, the boot command line, cgroup v1, delegation). */
static int plan_limits(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        const struct cgroup_host *c = &h->cgroup;
        p->limits = s->resources;
        unsigned todo = p->limits.need;
        for (int k = 0; k < CGROUP_NCTRL; k++) {
                const char *fix, *other_fix, *why;
                if (!(todo & CGROUP_BIT(k)) || !(why = limits_why(c, k, &fix)))
                        continue;
                unsigned same = 0;
                for (int j = k; j < CGROUP_NCTRL; j++) {
                        const char *w =
                                (todo & CGROUP_BIT(j)) ? limits_why(c, j, &other_fix) : NULL;
                        if (w && !strcmp(w, why))
                                same |= CGROUP_BIT(j);
                }
                todo &= ~same;
                if (limits_fail(p, s, same, why, fix, err) < 0)
                        return -1;
        }
        return 0;
}

/* `path` is `dir` or below it */
static bool below(const char *path, const char *dir)
{
        size_t n = strlen(dir);
        return n && !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/* An engine's cgroupsPath (an OCI config's, as cgroup_oci_path() read it: no "." or ".."
 * components): the container's cgroup goes there. Where crib cannot put it there (no cgroup v2,
 * no clone3 into a cgroup, a path outside what is delegated to a user) the container runs as it
 * would without one, and crib says so: it is a placement, and the limits fail closed on their
 * own (plan_limits). Root may use any path of the hierarchy, as runc does; a user only one
 * below the parent of crib's own cgroup, where it may make cgroups. */
static void plan_cgroup_path(struct plan *p, const struct spec *s, const struct plan_host *h)
{
        const struct cgroup_host *c = &h->cgroup;
        char full[1024];
        const char *why = NULL;
        int n = -1;
        if (!c->v2 || !c->mount[0])
                why = c->why[0] ? c->why : "no cgroup v2 hierarchy is mounted";
        else if (!c->clone_into)
                why = "crib needs clone3(2) with CLONE_INTO_CGROUP for it (Linux 5.7)";
        else if (s->cgroups_path[0] != '/' && !c->own_parent[0])
                why = "it is relative to crib's own cgroup, which is unknown";
        else if (s->cgroups_path[0] == '/')
                n = snprintf(full, sizeof full, "%s%s", c->mount, s->cgroups_path);
        else
                n = snprintf(full, sizeof full, "%s/%s", c->own_parent, s->cgroups_path);
        if (!why && (n < 0 || (size_t)n >= sizeof full))
                why = "the path is too long";
        else if (!why && p->privileged && below(full, c->base))
                why = "it is the cgroup crib keeps for its own containers' names";
        else if (!why && !p->privileged &&
                 (!below(full, c->own_parent) || !strcmp(full, c->own_parent) ||
                  faccessat(AT_FDCWD, c->own_parent, W_OK, AT_EACCESS) < 0))
                why = "it is not below the cgroup this user may make cgroups in (the parent of "
                      "crib's own)";
        if (why) {
                plan_warn(p,
                          "the container's cgroup is not where the engine asked (cgroupsPath "
                          "'%s'): %s",
                          s->cgroups_path, why);
                return;
        }
        snprintf(p->cgroup_path, sizeof p->cgroup_path, "%s", full);
        snprintf(p->cgroup_top, sizeof p->cgroup_top, "%s",
                 p->privileged ? c->mount : c->own_parent);
        p->cgroup = true;
        p->cgroup_systemd = false;
}

/* user = no: a level's bound on processes (nproc_as_pids) as the pids.max of the cgroup the
 * device program needs anyway, unless the spec's [resources] says pids itself. No cgroup is
 * made for it alone (a start would cost a cgroup more): without a device program, or without
 * the pids controller, there is no bound, as crib.ini(5) says. */
static int plan_default_pids(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        (void)err;
        const struct spec_limit *l = &s->limits[RLIMIT_NPROC];
        const struct rlimit *own = &h->rlimits[RLIMIT_NPROC];
        if (!l->set || !plan_nproc_as_pids(p, s, RLIMIT_NPROC) || l->hard == RLIM_INFINITY ||
            !p->device_program || (p->limits.need & CGROUP_BIT(CGROUP_PIDS)) ||
            !(h->cgroup.available & CGROUP_BIT(CGROUP_PIDS)))
                return 0;
        uint64_t max = l->hard;
        /* a level's limit is a ceiling, as for the other limits (plan_rlimits) */
        if (h->rlimit_known[RLIMIT_NPROC] && !h->cap_sys_resource && max > own->rlim_max)
                max = own->rlim_max;
        if (max == RLIM_INFINITY || max > INT64_MAX)
                return 0;
        p->limits.pids_max = (int64_t)max;
        p->limits.need |= CGROUP_BIT(CGROUP_PIDS);
        return 0;
}

/* The container's cgroup: for its limits, for a real-root container's device program, and
 * where an engine asks for one. */
static int plan_cgroup(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        const struct cgroup_host *c = &h->cgroup;
        (void)err;
        p->cgroup = p->limits.need || p->device_program;
        if (p->cgroup) {
                snprintf(p->cgroup_base, sizeof p->cgroup_base, "%s", c->base);
                p->cgroup_systemd = c->systemd;
        }
        if (s->cgroups_path)
                plan_cgroup_path(p, s, h);
        return 0;
}

/* May the child write its own id maps (and limits)? The kernel lets a process in the new user
 * namespace map its own euid and egid alone, the gid only with setgroups denied. Root's child
 * has no capability left in the parent namespace, so root's limits stay with the parent. */
static int plan_self_maps(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct plan_host *h = pl->h;
        const struct idmap *u = &p->uidmap, *g = &p->gidmap;
        (void)err;
        p->self_maps = p->userns && u->n == 1 && !u->use_helper && u->r[0].count == 1 &&
                       u->r[0].outside == h->euid && g->n == 1 && !g->use_helper &&
                       g->r[0].count == 1 && g->r[0].outside == h->egid && p->deny_setgroups &&
                       !(p->privileged && p->nrlimits) &&
                       /* a helper joins the namespaces before the setup goes on: the parent
                        * says when (GO) */
                       !p->net_helper;
        return 0;
}

/* Which namespaces the container gets: outside a user namespace, only root may make them. */
static int plan_namespaces(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        p->userns = s->ns_user;
        if (!p->userns && pl->h->euid != 0) {
                char change[256];
                phrase_error(err, s, SPEC_KEY_NAMESPACES_USER,
                             "%s needs root: only root may create namespaces outside a user "
                             "namespace",
                             phrase_off(s->front, SPEC_KEY_NAMESPACES_USER));
                return error_hint(err, "%s",
                                  phrase_change(s->front, SPEC_KEY_NAMESPACES_USER, PHRASE_ON,
                                                change, sizeof change));
        }
        p->clone_flags = CLONE_NEWNS | (s->ns_user ? CLONE_NEWUSER : 0) |
                         (s->ns_pid ? CLONE_NEWPID : 0) | (s->ns_ipc ? CLONE_NEWIPC : 0) |
                         (s->ns_uts ? CLONE_NEWUTS : 0) | (s->ns_net ? CLONE_NEWNET : 0) |
                         (s->ns_cgroup ? CLONE_NEWCGROUP : 0);
        return 0;
}

/* The spec's process as it asks for it: its strings and lists for now, which plan_pack() copies
 * into the plan. */
static int plan_process(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        (void)err;
        p->argv = s->args;
        p->cwd = s->cwd ? s->cwd : "/";
        p->uid = s->uid;
        p->gid = s->gid;
        p->groups = s->groups;
        p->ngroups = s->ngroups;
        p->umask = s->umask;
        p->hostname = s->hostname;
        p->readonly_rootfs = s->readonly_rootfs;
        p->init = s->init;
        p->loopback = s->ns_net;
        p->terminal =
                s->terminal == TERMINAL_YES || (s->terminal == TERMINAL_AUTO && pl->h->stdin_tty);
        return 0;
}

/* The order of planning. Each pass writes its part of the plan; a pass reads only what the rows
 * above it wrote. */
static const struct pass passes[] = {
        /* first: only root may go without a user namespace, and every pass asks which there are */
        {"the namespaces", plan_namespaces},
        /* the spec's command, ids and terminal, as asked: checked and completed below */
        {"the process", plan_process},
        /* before anything that asks whose a file is: the container's ids on the host */
        {"the id maps", plan_ids},
        /* opened once, and checked against the maps: who owns it, who else can reach it */
        {"the rootfs", plan_rootfs},
        /* /proc, /dev and /sys first: the spec's mounts go over them */
        {"crib's own mounts", plan_default_mounts},
        /* the binds checked against the rootfs opened above */
        {"the spec's mounts", plan_spec_mounts},
        /* HOME by the container's uid, TERM when it has a terminal */
        {"the environment", plan_env},
        /* the bounding set before seccomp: the profile's rules depend on it */
        {"the capabilities", plan_caps},
        /* a level's limits never above crib's own; the spec's refused if crib cannot raise them */
        {"the resource limits", plan_rlimits},
        /* each open in crib now, or the spec fails before anything exists */
        {"the descriptors passed on", plan_pass_fds},
        /* built into crib, or compiled now: the child only loads it */
        {"the seccomp program", plan_seccomp},
        /* the child applies it at exec; here, whether this host has AppArmor at all */
        {"the AppArmor profile", plan_apparmor},
        /* what the host's cgroups can take, or the spec fails (or warns, with prefer) */
        {"the cgroup's limits", plan_limits},
        /* after every mount: the devices the mounts give it are the ones it may open */
        {"the device program", plan_devices},
        /* on the cgroup the device program needs anyway */
        {"a level's bound on processes", plan_default_pids},
        /* where the cgroup goes, if the limits or the device program need one */
        {"the container's cgroup", plan_cgroup},
        /* after the spec's mounts: resolv.conf and hosts unless the spec mounts its own */
        {"the network", plan_network},
        /* last: the maps, the limits and the network helper decide */
        {"who writes the id maps", plan_self_maps},
};

int plan_build(const struct spec *s, const struct plan_host *h, bool trace, struct plan *ret,
               struct error *err)
{
        struct planning pl = {.p = ret, .s = s, .h = h, .sc = {.n = 0}, .rootfs = -1};
        struct plan *p = ret;
        int r = 0;
        memset(p, 0, sizeof *p);
        p->trace = trace;
        p->spec_path = s->path;
        p->front = s->front;
        p->host_uid = h->uid;
        p->host_gid = h->gid;
        /* root of the host: root in a user namespace of its own (unshare -r) is not */
        p->privileged = h->euid == 0 && h->initial_userns;

        for (size_t i = 0; r == 0 && i < sizeof passes / sizeof passes[0]; i++)
                r = passes[i].run(&pl, err);
        struct sock_filter *insns = p->seccomp.insns;
        if (r == 0)
                r = plan_pack(p, err); /* the plan's own copy of the program too */
        free(insns);
        scratch_free(&pl.sc);
        if (pl.rootfs >= 0)
                close(pl.rootfs);
        if (r < 0)
                memset(p, 0, sizeof *p);
        return r;
}
