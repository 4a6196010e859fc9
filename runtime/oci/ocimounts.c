/* ocimounts.c - config.json's .mounts into crib's spec: bind mounts and tmpfs, with the options
 * crib can honour (mount(2)'s flags, tmpfs's size=, mode= and nr_inodes=); see oci.h.
 *
 * What crib makes of itself (/proc, /dev, /dev/pts, /dev/shm, /dev/mqueue, /sys: plan/fs.c's
 * default mounts) is recognised in .mounts and left to crib, which mounts them at least as
 * strictly. The cgroup mount at /sys/fs/cgroup (every engine sends one) becomes the spec's
 * [mounts] cgroup: crib mounts the container's own cgroup there, read-only when its options
 * say "ro" (steps/mounts.c). Any other type, or an option crib cannot honour, is an error
 * naming its path.
 */
#define _GNU_SOURCE
#include "parse.h"
#include "base/syntax.h"

#include <stdio.h>
#include <string.h>

/* A mount crib makes itself (plan.c's default mounts): destination and type. */
static bool crib_makes(const char *dst, const char *type)
{
        static const char *const own[][2] = {
                {"/proc", "proc"},     {"/dev", "tmpfs"},         {"/dev/pts", "devpts"},
                {"/dev/shm", "tmpfs"}, {"/dev/mqueue", "mqueue"}, {"/sys", "sysfs"},
        };
        for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
                if (!strcmp(dst, own[i][0]) && type && !strcmp(type, own[i][1]))
                        return true;
        return false;
}

/* The cgroup mount at /sys/fs/cgroup (type cgroup or cgroup2, as engines send it on cgroup v1
 * and v2 hosts alike): crib's own, of the container's cgroup, as runc makes it */
static bool cgroup_mount(const char *dst, const char *type)
{
        return !strcmp(dst, "/sys/fs/cgroup") && type &&
               (!strcmp(type, "cgroup") || !strcmp(type, "cgroup2"));
}

/* The options crib honours, sorted as `runc features` lists them */
const struct oci_mount_option oci_mount_options[] = {
        {"bind", OCI_MOPT_BIND, 0},
        {"dev", OCI_MOPT_NOOP, 0},
        {"exec", OCI_MOPT_NOOP, 0},
        {"nodev", OCI_MOPT_FLAG, SPEC_MNT_NODEV},
        {"noexec", OCI_MOPT_FLAG, SPEC_MNT_NOEXEC},
        {"nosuid", OCI_MOPT_FLAG, SPEC_MNT_NOSUID},
        {"private", OCI_MOPT_NOOP, 0},
        {"rbind", OCI_MOPT_RBIND, 0},
        {"relatime", OCI_MOPT_NOOP, 0},
        {"ro", OCI_MOPT_FLAG, SPEC_MNT_RO},
        {"rprivate", OCI_MOPT_NOOP, 0},
        {"rw", OCI_MOPT_NOOP, 0},
        {"strictatime", OCI_MOPT_TMPFS, SPEC_MNT_STRICTATIME},
        {"suid", OCI_MOPT_NOOP, 0},
        {"tmpcopyup", OCI_MOPT_NOOP, 0},
        {"z", OCI_MOPT_ENGINE, 0},
        {"Z", OCI_MOPT_ENGINE, 0},
};
const size_t oci_nmount_options = sizeof oci_mount_options / sizeof oci_mount_options[0];

/* The options of mount p: bind and rbind, the flags, and a tmpfs's data (size=, mode=,
 * nr_inodes=) into data, *used bytes of it; an option crib cannot honour is refused */
static int mount_options(struct oci_ctx *c, json_object *opts, const char *p, bool *bind,
                         unsigned *flags, char *data, size_t len, size_t *used)
{
        for (size_t i = 0; opts && i < json_object_array_length(opts); i++) {
                const char *o = json_object_get_string(json_object_array_get_idx(opts, i));
                const struct oci_mount_option *m = NULL;
                for (size_t k = 0; !m && k < oci_nmount_options; k++)
                        if (!strcmp(o, oci_mount_options[k].name))
                                m = &oci_mount_options[k];
                if (m && m->kind == OCI_MOPT_BIND) {
                        *bind = true;
                } else if (m && m->kind == OCI_MOPT_RBIND) {
                        *bind = true;
                        *flags |= SPEC_MNT_RECURSIVE;
                } else if (m && m->kind == OCI_MOPT_FLAG) {
                        *flags |= m->flag;
                } else if (m && m->kind == OCI_MOPT_TMPFS && !*bind) {
                        *flags |= m->flag;
                } else if (m && (m->kind == OCI_MOPT_NOOP || m->kind == OCI_MOPT_ENGINE)) {
                        continue;
                } else if ((!strncmp(o, "size=", 5) || !strncmp(o, "mode=", 5) ||
                            !strncmp(o, "nr_inodes=", 10)) &&
                           strlen(o) < 40 && !strchr(o, ',') && *used + strlen(o) + 2 < len) {
                        *used += (size_t)snprintf(data + *used, len - *used, "%s%s",
                                                  *used ? "," : "", o);
                } else {
                        char q[PATHLEN], r[PATHLEN];
                        oci_sub(q, p, "options");
                        oci_idx(r, q, i);
                        return oci_bad(c, r, "crib cannot honour mount option '%s'", o);
                }
        }
        return 0;
}

static int oci_mount(struct oci_ctx *c, json_object *m, const char *p)
{
        const char *dst, *type, *src;
        json_object *opts;
        char q[PATHLEN];
        if (oci_want(c, m, p, json_type_object, "an object") < 0 ||
            oci_get_str(c, m, p, "destination", &dst) < 0 ||
            oci_get_str(c, m, p, "type", &type) < 0 || oci_get_str(c, m, p, "source", &src) < 0 ||
            oci_get_strings(c, m, p, "options", 64, &opts) < 0)
                return -1;
        oci_sub(q, p, "destination");
        if (!dst)
                return oci_bad(c, q, "is missing");
        if (!syntax_clean_path(dst))
                return oci_bad(c, q, "'%s' is not an absolute path without '..'", dst);
        /* crib's own /proc, /dev, /sys... */
        if (crib_makes(dst, type))
                return 0;
        bool bind = type && !strcmp(type, "bind");
        unsigned flags = 0;
        char data[256] = "";
        size_t used = 0;
        if (mount_options(c, opts, p, &bind, &flags, data, sizeof data, &used) < 0)
                return -1;
        if (cgroup_mount(dst, type)) {
                /* nosuid, nodev and noexec whatever it says; read-only when it says ro, as
                 * engines do unless the container is privileged */
                if (bind || used || (flags & (SPEC_MNT_RECURSIVE | SPEC_MNT_STRICTATIME)))
                        return oci_bad(c, p,
                                       "crib mounts the container's cgroup at '%s' with ro or rw, "
                                       "nosuid, nodev and noexec only",
                                       dst);
                c->s->cgroup_mount =
                        (flags & SPEC_MNT_RO) ? SPEC_CGROUP_MOUNT_RO : SPEC_CGROUP_MOUNT_RW;
                oci_set_from(c->s, SPEC_KEY_MOUNTS_CGROUP);
                return 0;
        }
        if (c->s->nmounts == SPEC_MAX_MOUNTS)
                return oci_bad(c, p, "more than %d mounts", SPEC_MAX_MOUNTS);
        struct spec_mount *sm = &c->s->mounts[c->s->nmounts];
        memset(sm, 0, sizeof *sm);
        oci_sub(q, p, "type");
        if (bind) {
                if (used)
                        return oci_bad(c, p, "a bind mount takes no size=, mode= or nr_inodes=");
                if (!src || !src[0])
                        return oci_bad(c, p, "a bind mount needs a source");
                if (flags & SPEC_MNT_STRICTATIME)
                        return oci_bad(c, p, "crib takes strictatime for a tmpfs only");
                sm->kind = SPEC_MOUNT_BIND;
                if (!(sm->src = strdup(src)))
                        return oci_nomem(c);
        } else if (type && !strcmp(type, "tmpfs")) {
                sm->kind = SPEC_MOUNT_TMPFS;
                if (used && !(sm->data = strdup(data)))
                        return oci_nomem(c);
                flags &= ~SPEC_MNT_RECURSIVE;
        } else {
                return oci_bad(c, q,
                               "crib cannot mount '%s' at '%s' (it mounts bind and tmpfs, and "
                               "proc, sysfs, devpts, mqueue and cgroup at their usual places "
                               "itself)",
                               type ? type : "(none)", dst);
        }
        sm->opts = flags;
        if (!(sm->dst = strdup(dst)))
                return oci_nomem(c);
        c->s->nmounts++;
        oci_set_from(c->s, bind ? SPEC_KEY_MOUNTS_BIND : SPEC_KEY_MOUNTS_TMPFS);
        return 0;
}

int oci_mounts(struct oci_ctx *c, json_object *cfg)
{
        json_object *list = oci_member(cfg, "mounts");
        if (!list)
                return 0;
        if (oci_want(c, list, ".mounts", json_type_array, "a list") < 0)
                return -1;
        for (size_t i = 0; i < json_object_array_length(list); i++) {
                char p[PATHLEN];
                oci_idx(p, ".mounts", i);
                if (oci_mount(c, json_object_array_get_idx(list, i), p) < 0)
                        return -1;
        }
        return 0;
}
