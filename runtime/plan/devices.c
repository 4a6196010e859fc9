/* devices.c - the devices a container may use: the device nodes an OCI config asks crib to make
 * (.linux.devices), as mount operations after every other mount (MOP_DEVICE, made by
 * steps/mounts.c), and the device program of its cgroup (cgroup/devices.c): what it lets open,
 * and, with an OCI config's rules (.linux.resources.devices), whether they can hold at all.
 *
 * No kernel feature here: planning stats the host's nodes (their numbers) and reads the
 * mounts the passes above planned; it changes nothing.
 *
 * The device program needs host root (BPF_PROG_LOAD of a cgroup device program takes
 * CAP_SYS_ADMIN of the host) and a writable cgroup v2 hierarchy (a hybrid host's
 * /sys/fs/cgroup/unified serves). Without it, an OCI config's rules are refused unless nothing
 * they deny can be opened in the container (devices_unenforced): nodes crib makes are its own
 * standard ones or the config's, which runc allows whatever the rules say; a device node from
 * the host opens only where a mount brings one (every mount crib makes is nodev but the nodes'
 * own binds), so each device file bound in is looked at: refused if the rules deny it and the
 * container could open it (root could; a user, as the host's permissions let the user); and
 * real root that may mount (CAP_SYS_ADMIN) can make a node on a filesystem of its own, so it is
 * refused unless the rules allow every device. In a user namespace mknod(2) of a device is
 * refused; a workload with CAP_SYS_ADMIN there can lift the nodev crib puts on the rootfs and
 * directory binds where the host's mount is not nodev itself, but a node it finds there opens
 * only with the invoking user's own host permissions, on a path that user gave crib: nothing
 * the user could not open on the host. That runs without a program (docs/oci.md).
 */
#define _GNU_SOURCE
#include "build.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

bool plan_device_given(const struct spec *s, const char *path)
{
        for (size_t i = 0; i < s->ndevices; i++)
                if (!strcmp(s->devices[i].path, path))
                        return true;
        return false;
}

/* `dir` is `path` or a directory above it */
static bool covers(const char *dir, const char *path)
{
        size_t n = strlen(dir);
        if (n == 1)
                return true;
        return !strncmp(dir, path, n) && (path[n] == '\0' || path[n] == '/');
}

/* Where one node goes: on crib's own /dev tmpfs, below no other mount and over none of crib's
 * own names (the child checks it again where it makes it: mounts.c). 1: crib's own /dev/ptmx
 * serves (runc too replaces a config's /dev/ptmx with its link to pts/ptmx); 0: make it. */
static int device_place(const struct plan *p, const struct spec *s, const struct spec_device *d,
                        struct error *err)
{
        bool dev_seen = false;
        for (size_t i = 0; i < p->nmounts; i++) {
                const struct mount_op *op = &p->mounts[i];
                if (!dev_seen && op->kind == MOP_TMPFS && !op->line && !strcmp(op->dst, "/dev")) {
                        dev_seen = true; /* crib's /dev: the nodes go here */
                        continue;
                }
                if (op->kind == MOP_SYMLINK && !strcmp(op->dst, d->path) &&
                    !strcmp(d->path, "/dev/ptmx") && d->type == 'c' && d->major == 5 &&
                    d->minor == 2)
                        return 1;
                if (op->kind == MOP_DEV_NODE || !covers(op->dst, d->path))
                        continue;
                return error_at(err, s->path, 0,
                                ".linux.devices[%u].path: '%s' %s '%s' (%s), not on the "
                                "container's own /dev, where crib makes device nodes",
                                d->index, d->path, strcmp(op->dst, d->path) ? "lies under" : "is",
                                op->dst,
                                op->kind == MOP_SYMLINK ? "a symlink crib makes" : "a mount");
        }
        if (!dev_seen)
                return error_at(err, s->path, 0, ".linux.devices[%u]: the container has no /dev",
                                d->index);
        return 0;
}

/* .linux.devices: one MOP_DEVICE each, after every mount. Real root makes the node (mknod(2))
 * with its numbers, mode and owner; in a user namespace mknod(2) of a device is refused, so the
 * host's node at the same path is bound instead, as runc does: it must be there, of the same
 * type and numbers, and keeps the host's mode and owner (runc's bind too). A FIFO is made in
 * either, with the config's mode and owner. */
int plan_device_nodes(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        for (size_t i = 0; i < s->ndevices; i++) {
                const struct spec_device *d = &s->devices[i];
                int r = device_place(p, s, d, err);
                if (r < 0)
                        return -1;
                if (r == 1)
                        continue;
                mode_t type = d->type == 'b' ? S_IFBLK : d->type == 'p' ? S_IFIFO : S_IFCHR;
                struct mount_op op = {.kind = MOP_DEVICE,
                                      .dst = d->path,
                                      .mode = type | d->mode,
                                      .dev = makedev(d->major, d->minor),
                                      .uid = d->uid,
                                      .gid = d->gid};
                struct stat st;
                /* only host root makes a device node: in a user namespace of the container's
                 * own, or in one crib runs in (rootless podman's), the host's is bound */
                if ((p->userns || !p->privileged) && type != S_IFIFO) {
                        if (stat(d->path, &st) < 0 || (st.st_mode & S_IFMT) != type ||
                            st.st_rdev != op.dev)
                                return error_at(
                                        err, s->path, 0,
                                        ".linux.devices[%u]: a container with a user namespace "
                                        "cannot make a device node (mknod(2) needs host root), "
                                        "and the host has no node '%c %u:%u' at '%s' to bind "
                                        "there instead",
                                        d->index, d->type, d->major, d->minor, d->path);
                        op.src = d->path;
                }
                if (plan_add_op(p, op, err) < 0)
                        return -1;
        }
        return 0;
}

/* The device a mount op gives: its type ('c', 'b') and numbers; 0 for none. crib's own nodes
 * in a user namespace (bound, not stat'ed when planned) are looked at here. */
static char op_device(const struct mount_op *op, dev_t *ret)
{
        struct stat st;
        if (op->kind == MOP_DEVICE && !S_ISFIFO(op->mode)) {
                *ret = op->dev;
                return S_ISBLK(op->mode) ? 'b' : 'c';
        }
        if (op->kind == MOP_DEV_NODE && op->dev) {
                *ret = op->dev;
                return 'c';
        }
        if ((op->kind == MOP_DEV_NODE || (op->kind == MOP_BIND && !op->src_is_dir)) &&
            stat(op->src, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
                *ret = st.st_rdev;
                return S_ISCHR(st.st_mode) ? 'c' : 'b';
        }
        return 0;
}

static bool in_list(const struct cgroup_device *d, size_t n, char type, dev_t dev)
{
        for (size_t i = 0; i < n; i++)
                if (d[i].type == type && major(dev) >= d[i].major_lo &&
                    major(dev) <= d[i].major_hi &&
                    (d[i].minor < 0 || (unsigned)d[i].minor == minor(dev)))
                        return true;
        return false;
}

/* The config's rules cannot be applied (`why`): refused unless no device they deny can open in
 * the container (see the top of this file); the list of crib's own is in p->devices. */
static int devices_unenforced(struct planning *pl, const char *why, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const char *hint = "allow the devices in .linux.resources.devices, leave out what brings "
                           "them in, or run the container as root on a host with cgroup v2 "
                           "(crib's device program)";
        /* real root that may mount can make and open any node on a filesystem of its own */
        if (!p->userns && (p->cap_bounding & (1ULL << CAP_SYS_ADMIN)) &&
            cgroup_rules_deny_some(p->dev_rules, p->ndev_rules)) {
                error_at(err, s->path, 0,
                         ".linux.resources.devices: cannot be applied: %s; and the container, "
                         "real root with CAP_SYS_ADMIN, can mount a filesystem and make and open "
                         "any device node there, which the rules deny",
                         why);
                return error_hint(err, "%s; or leave CAP_SYS_ADMIN out of .process.capabilities",
                                  hint);
        }
        for (size_t i = 0; i < p->nmounts; i++) {
                const struct mount_op *op = &p->mounts[i];
                dev_t dev;
                char type = op->kind == MOP_BIND ? op_device(op, &dev) : 0;
                if (!type || in_list(p->devices, p->ndevices_own, type, dev))
                        continue;
                /* a user opens the node with the host's permissions: what it cannot open
                 * either way is not reachable */
                bool r = !cgroup_rules_allow(p->dev_rules, p->ndev_rules, type, major(dev),
                                             minor(dev), CGROUP_DEV_READ) &&
                         (p->privileged || access(op->src, R_OK) == 0);
                bool w = !cgroup_rules_allow(p->dev_rules, p->ndev_rules, type, major(dev),
                                             minor(dev), CGROUP_DEV_WRITE) &&
                         (p->privileged || access(op->src, W_OK) == 0);
                if (!r && !w)
                        continue;
                error_at(err, s->path, 0,
                         ".linux.resources.devices: cannot be applied: %s; and the container "
                         "could open '%s' (%c %u:%u), bound at '%s', which the rules deny",
                         why, op->src, type, major(dev), minor(dev), op->dst);
                return error_hint(err, "%s", hint);
        }
        return 0;
}

/* The device program: what it lets open (plan.h: own first, then extra), or why there is
 * none. A container without a user namespace (real root) always gets one; so does any
 * container of an OCI config crib runs as root, whose rules it applies. */
int plan_devices(struct planning *pl, struct error *err)
{
        struct plan *p = pl->p;
        const struct spec *s = pl->s;
        const struct plan_host *h = pl->h;
        const struct cgroup_host *c = &h->cgroup;
        p->ndevices = p->ndevices_own = 0;
        p->dev_rules_on = s->dev_rules_set;
        p->ndev_rules = s->ndev_rules;
        memcpy(p->dev_rules, s->dev_rules, s->ndev_rules * sizeof s->dev_rules[0]);
        if (p->userns && !p->dev_rules_on)
                return 0;
        struct cgroup_device *d = p->devices;
        /* own: the ptys, crib's nodes and the config's */
        d[p->ndevices++] = (struct cgroup_device){'c', 5, 5, 2};      /* /dev/pts/ptmx */
        d[p->ndevices++] = (struct cgroup_device){'c', 136, 143, -1}; /* /dev/pts/N */
        dev_t dev;
        char type;
#define ADD_DEVICE(type, dev)                                                                      \
        (d[p->ndevices++] =                                                                        \
                 (struct cgroup_device){(type), major(dev), major(dev), (int32_t)minor(dev)})
        for (size_t i = 0; i < p->nmounts && p->ndevices < CGROUP_MAX_DEVICES; i++)
                if (p->mounts[i].kind != MOP_BIND && (type = op_device(&p->mounts[i], &dev)))
                        ADD_DEVICE(type, dev);
        p->ndevices_own = p->ndevices;
        /* extra: each device file a mount binds by name */
        for (size_t i = 0; i < p->nmounts && p->ndevices < CGROUP_MAX_DEVICES; i++)
                if (p->mounts[i].kind == MOP_BIND && (type = op_device(&p->mounts[i], &dev)))
                        ADD_DEVICE(type, dev);
        /* crib's own stdio, which the workload has already: a serial console or a VT opens
         * again as /dev/stdin (pts are in the list above) */
        for (int fd = 0; fd < 3 && p->ndevices < CGROUP_MAX_DEVICES; fd++) {
                dev = h->stdio_chr[fd];
                if (dev && (major(dev) < 136 || major(dev) > 143))
                        ADD_DEVICE('c', dev);
        }
#undef ADD_DEVICE
        const char *why = !p->privileged   ? "crib is not root here, and a device program needs "
                                             "host root (CAP_SYS_ADMIN) to load"
                          : !c->base[0]    ? (c->why[0] ? c->why : "no cgroup v2 hierarchy here")
                          : !c->clone_into ? "no clone3(2) with CLONE_INTO_CGROUP"
                          : access(c->mount, W_OK) < 0 ? "the cgroup v2 hierarchy is read-only here"
                                                       : NULL;
        if (why) {
                snprintf(p->devices_why, sizeof p->devices_why,
                         "no device program: %s (the nodev mounts keep host devices shut)", why);
                int r = p->dev_rules_on ? devices_unenforced(pl, why, err) : 0;
                p->ndevices = p->ndevices_own = 0;
                return r;
        }
        p->device_program = true;
        return 0;
}
