/* linux.c - config.json's .linux into crib's spec: the namespaces to make or join by path
 * (namespaces(7)), the id maps of a user namespace (user_namespaces(7)), masked and
 * read-only paths, the sysctls of the container's own namespaces, the device nodes to make,
 * the cgroupsPath as written (cgroupspath.c reads it), and what crib refuses (propagation other
 * than private); its .seccomp is ociseccomp.c's, its .resources ociresources.c's; see oci.h.
 */
#define _GNU_SOURCE
#include "parse.h"
#include "base/syntax.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const oci_namespace_types[OCI_NAMESPACE_TYPES] = {"mount", "user",    "pid",   "ipc",
                                                              "uts",   "network", "cgroup"};

/* An entry's path: the namespace file the container joins instead of making one (setns(2),
 * runtime/launch/joinns.c), as runc does; its type is checked when it is opened. The mount
 * namespace is never joined: the container's rootfs is built in a mount namespace of its own. */
static int oci_ns_path(struct oci_ctx *c, const char *p, bool mount, int k, const char *path)
{
        char q[PATHLEN];
        oci_sub(q, p, "path");
        if (mount)
                return oci_bad(c, q,
                               "crib does not join a mount namespace: it builds the container's "
                               "root filesystem in a mount namespace of its own (leave 'path' "
                               "out)");
        if (!syntax_clean_path(path))
                return oci_bad(c, q, "'%s' is not an absolute path without '..'", path);
        /* oci_namespace_types' order after "mount" is enum spec_ns's */
        if (!(c->s->ns_path[k] = strdup(path)))
                return oci_nomem(c);
        return 0;
}

static int oci_namespaces(struct oci_ctx *c, json_object *lx)
{
        json_object *list = oci_member(lx, "namespaces");
        struct spec *s = c->s;
        bool mount = false;
        s->ns_user = s->ns_pid = s->ns_ipc = s->ns_uts = s->ns_net = s->ns_cgroup = false;
        static const enum spec_key keys[] = {SPEC_KEY_NAMESPACES_USER, SPEC_KEY_NAMESPACES_PID,
                                             SPEC_KEY_NAMESPACES_IPC,  SPEC_KEY_NAMESPACES_UTS,
                                             SPEC_KEY_NAMESPACES_NET,  SPEC_KEY_NAMESPACES_CGROUP,
                                             SPEC_KEY_NAMESPACES_MOUNT};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
                oci_set_from(s, keys[k]);
        if (list && oci_want(c, list, ".linux.namespaces", json_type_array, "a list") < 0)
                return -1;
        for (size_t i = 0; list && i < json_object_array_length(list); i++) {
                char p[PATHLEN], q[PATHLEN];
                json_object *e = json_object_array_get_idx(list, i);
                const char *type, *path;
                oci_idx(p, ".linux.namespaces", i);
                if (oci_want(c, e, p, json_type_object, "an object") < 0 ||
                    oci_get_str(c, e, p, "type", &type) < 0 ||
                    oci_get_str(c, e, p, "path", &path) < 0)
                        return -1;
                /* in oci_namespace_types' order */
                bool *flags[OCI_NAMESPACE_TYPES] = {&mount,       &s->ns_user, &s->ns_pid,
                                                    &s->ns_ipc,   &s->ns_uts,  &s->ns_net,
                                                    &s->ns_cgroup};
                bool *flag = NULL;
                int kind = -1;
                if (!type)
                        type = "";
                for (int k = 0; k < OCI_NAMESPACE_TYPES; k++)
                        if (!strcmp(type, oci_namespace_types[k])) {
                                flag = flags[k];
                                kind = k;
                        }
                oci_sub(q, p, "type");
                if (!flag)
                        return oci_bad(c, q, "'%s' is not a namespace crib can make", type);
                if (*flag)
                        return oci_bad(c, q, "'%s' is given twice", type);
                *flag = true;
                if (path && path[0] && oci_ns_path(c, p, kind == 0, kind - 1, path) < 0)
                        return -1;
        }
        if (!mount)
                return oci_bad(c, ".linux.namespaces",
                               "has no mount namespace: crib always makes one");
        return 0;
}

static int oci_idmap(struct oci_ctx *c, json_object *lx, const char *key, struct spec_idmap *m,
                     enum spec_key k)
{
        char p[PATHLEN], q[PATHLEN];
        json_object *list = oci_member(lx, key);
        oci_sub(p, ".linux", key);
        if (!list)
                return 0;
        if (oci_want(c, list, p, json_type_array, "a list") < 0)
                return -1;
        size_t n = json_object_array_length(list);
        if (n > SPEC_MAX_RANGES)
                return oci_bad(c, p, "has %zu ranges; crib takes at most %d", n, SPEC_MAX_RANGES);
        if (!n)
                return 0;
        for (size_t i = 0; i < n; i++) {
                json_object *e = json_object_array_get_idx(list, i), *v;
                int64_t val[3];
                static const char *const names[] = {"containerID", "hostID", "size"};
                oci_idx(q, p, i);
                if (oci_want(c, e, q, json_type_object, "an object") < 0)
                        return -1;
                for (size_t f = 0; f < 3; f++) {
                        char r[PATHLEN];
                        oci_sub(r, q, names[f]);
                        if (!(v = oci_member(e, names[f])))
                                return oci_bad(c, r, "is missing");
                        if (oci_as_int(c, v, r, f == 2 ? 1 : 0, 0xffffffffLL, &val[f]) < 0)
                                return -1;
                }
                if (val[0] + val[2] > 0x100000000LL || val[1] + val[2] > 0x100000000LL)
                        return oci_bad(c, q, "the range goes past the last id");
                m->ranges[i] = (struct spec_range){.inside = (uint32_t)val[0],
                                                   .outside = (uint32_t)val[1],
                                                   .count = (uint32_t)val[2],
                                                   .line = 1};
        }
        m->n = n;
        m->line = 1; /* a map was given (spec.h: 0 says none) */
        oci_set_from(c->s, k);
        return 0;
}

static int oci_paths(struct oci_ctx *c, json_object *lx, const char *key, struct spec_paths *l,
                     enum spec_key k)
{
        char p[PATHLEN], q[PATHLEN];
        json_object *list;
        int r = oci_get_strings(c, lx, ".linux", key, SPEC_MAX_PATHS, &list);
        if (r <= 0)
                return r;
        oci_sub(p, ".linux", key);
        for (size_t i = 0; i < json_object_array_length(list); i++) {
                const char *path = json_object_get_string(json_object_array_get_idx(list, i));
                oci_idx(q, p, i);
                if (!syntax_clean_path(path))
                        return oci_bad(c, q, "'%s' is not an absolute path without '..'", path);
                if (!(l->items[l->n++] = strdup(path)))
                        return oci_nomem(c);
        }
        oci_set_from(c->s, k);
        return 0;
}

/* .linux.sysctl: each a sysctl of a namespace the container has of its own (spec/sysctlkey.c,
 * runc's rule), set in it by the setup (steps/sysctl.c). A network namespace joined by path
 * must not be the host's: the plan checks it (plan/tunables.c), and the setup once more. */
static int oci_sysctl(struct oci_ctx *c, json_object *lx)
{
        json_object *o = oci_member(lx, "sysctl");
        struct spec *s = c->s;
        if (!o)
                return 0;
        if (oci_want(c, o, ".linux.sysctl", json_type_object, "an object") < 0)
                return -1;
        if (json_object_object_length(o) > SPEC_MAX_SYSCTLS)
                return oci_bad(c, ".linux.sysctl", "has %d entries; crib takes at most %d",
                               json_object_object_length(o), SPEC_MAX_SYSCTLS);
        json_object_object_foreach(o, k, val)
        {
                char q[PATHLEN];
                struct error why;
                snprintf(q, sizeof q, ".linux.sysctl[\"%.*s\"]", SPEC_SYSCTL_KEY, k);
                if (oci_want(c, val, q, json_type_string, "a string") < 0)
                        return -1;
                const char *v = json_object_get_string(val);
                if ((size_t)json_object_get_string_len(val) != strlen(v))
                        return oci_bad(c, q, "its value has a NUL byte");
                int ns = spec_sysctl_ns(k, v, &why);
                if (ns < 0)
                        return oci_bad(c, q, "%s", why.msg);
                /* runc's rule: the container's own namespace of that kind, made or joined */
                static const char *const kinds[SPEC_NNS] = {[SPEC_NS_IPC] = "an IPC",
                                                            [SPEC_NS_NET] = "a network",
                                                            [SPEC_NS_UTS] = "a UTS"};
                bool own = ns == SPEC_NS_IPC   ? s->ns_ipc
                           : ns == SPEC_NS_NET ? s->ns_net
                                               : s->ns_uts;
                if (!own)
                        return oci_bad(c, q,
                                       "needs %s namespace of the container's own, and "
                                       ".linux.namespaces has none: it would change the host's",
                                       kinds[ns]);
                struct spec_sysctl *e = &s->sysctls[s->nsysctls];
                if (!(e->key = strdup(k)) || !(e->value = strdup(v))) {
                        free(e->key);
                        e->key = NULL;
                        return oci_nomem(c);
                }
                s->nsysctls++;
        }
        return 0;
}

/* A device node's path: under /dev (crib's own tmpfs, so a node is never made on a host
 * filesystem a mount brings in: plan/devnodes.c checks the mounts), each name neither empty,
 * "." nor "..". */
static bool device_path_ok(const char *path)
{
        size_t len = strnlen(path, OCI_MAX_DEVICE_PATH + 1);
        if (len > OCI_MAX_DEVICE_PATH || strncmp(path, "/dev/", 5) || path[len - 1] == '/')
                return false;
        for (const char *n = path + 5; *n;) {
                size_t l = strcspn(n, "/");
                if (!l || (l == 1 && n[0] == '.') || (l == 2 && n[0] == '.' && n[1] == '.'))
                        return false;
                n += l + (n[l] == '/');
        }
        return true;
}

/* one entry of .linux.devices */
static int oci_device(struct oci_ctx *c, json_object *e, const char *q, unsigned index,
                      struct spec_device *d)
{
        const char *path, *type;
        char k[PATHLEN];
        int64_t v;
        int r;
        if (oci_want(c, e, q, json_type_object, "an object") < 0 ||
            oci_get_str(c, e, q, "path", &path) < 0 || oci_get_str(c, e, q, "type", &type) < 0)
                return -1;
        oci_sub(k, q, "path");
        if (!path)
                return oci_bad(c, k, "is missing");
        if (!device_path_ok(path))
                return oci_bad(c, k,
                               "'%.80s' is not a path under /dev without '..', '.' or '//' (crib "
                               "makes device nodes only in the container's own /dev)",
                               path);
        oci_sub(k, q, "type");
        if (!type || strlen(type) != 1 || !strchr("cbup", type[0]))
                return oci_bad(c, k, "'%.20s' is not 'c', 'b', 'u' or 'p'", type ? type : "");
        d->type = type[0] == 'u' ? 'c' : type[0];
        d->index = index;
        for (int m = 0; m < 2; m++) {
                const char *key = m ? "minor" : "major";
                if ((r = oci_get_int(c, e, q, key, 0, m ? 1048575 : 4095, &v)) < 0)
                        return -1;
                if (!r && d->type != 'p') {
                        oci_sub(k, q, key);
                        return oci_bad(c, k, "is missing");
                }
                *(m ? &d->minor : &d->major) = r ? (uint32_t)v : 0;
        }
        /* runc's: 0666 unless given; the type's bits, which some engines send, dropped */
        d->mode = 0666;
        if ((r = oci_get_int(c, e, q, "fileMode", 0, UINT32_MAX, &v)) < 0)
                return -1;
        if (r && (v & ~(int64_t)(S_IFMT | 07777))) {
                oci_sub(k, q, "fileMode");
                return oci_bad(c, k, "%lld is not a file mode (0 to 07777)", (long long)v);
        }
        if (r)
                d->mode = (mode_t)(v & 07777);
        if (oci_get_int(c, e, q, "uid", 0, UINT32_MAX - 1, &v) < 0)
                return -1;
        d->uid = oci_member(e, "uid") ? (uint32_t)v : 0;
        if (oci_get_int(c, e, q, "gid", 0, UINT32_MAX - 1, &v) < 0)
                return -1;
        d->gid = oci_member(e, "gid") ? (uint32_t)v : 0;
        if (!(d->path = strdup(path)))
                return oci_nomem(c);
        return 0;
}

/* .linux.devices: the device nodes to make (plan/devnodes.c), each also allowed by the device
 * program, as runc adds them to its rules */
static int oci_devices(struct oci_ctx *c, json_object *lx)
{
        json_object *o = oci_member(lx, "devices");
        struct spec *s = c->s;
        if (!o)
                return 0;
        if (oci_want(c, o, ".linux.devices", json_type_array, "a list") < 0)
                return -1;
        size_t n = json_object_array_length(o);
        if (n > SPEC_MAX_DEVICES)
                return oci_bad(c, ".linux.devices", "has %zu entries; crib takes at most %d", n,
                               SPEC_MAX_DEVICES);
        for (size_t i = 0; i < n; i++) {
                char q[PATHLEN], k[PATHLEN];
                oci_idx(q, ".linux.devices", i);
                struct spec_device *d = &s->devices[s->ndevices];
                memset(d, 0, sizeof *d);
                if (oci_device(c, json_object_array_get_idx(o, i), q, (unsigned)i, d) < 0)
                        return -1;
                s->ndevices++;
                for (size_t j = 0; j + 1 < s->ndevices; j++)
                        if (!strcmp(s->devices[j].path, d->path)) {
                                oci_sub(k, q, "path");
                                return oci_bad(c, k, "'%s' is .linux.devices[%u]'s too", d->path,
                                               s->devices[j].index);
                        }
        }
        return 0;
}

int oci_linux(struct oci_ctx *c, json_object *cfg)
{
        json_object *lx = oci_member(cfg, "linux");
        const char *str;
        if (!lx)
                return oci_bad(c, ".linux", "is missing: crib runs Linux containers");
        if (oci_want(c, lx, ".linux", json_type_object, "an object") < 0)
                return -1;
        if (oci_namespaces(c, lx) < 0 ||
            oci_idmap(c, lx, "uidMappings", &c->s->uidmap, SPEC_KEY_IDMAP_UID) < 0 ||
            oci_idmap(c, lx, "gidMappings", &c->s->gidmap, SPEC_KEY_IDMAP_GID) < 0 ||
            oci_paths(c, lx, "maskedPaths", &c->s->masked, SPEC_KEY_SECURITY_MASKED_PATHS) < 0 ||
            oci_paths(c, lx, "readonlyPaths", &c->s->readonly, SPEC_KEY_SECURITY_READONLY_PATHS) <
                    0 ||
            oci_seccomp(c, lx) < 0 || oci_resources(c, lx) < 0)
                return -1;
        /* cgroupsPath: where the engine wants the container's cgroup (container/ociops.c reads it
         * with the --systemd-cgroup it was given; the plan says when it cannot be honoured) */
        if (oci_get_str(c, lx, ".linux", "cgroupsPath", &str) < 0)
                return -1;
        if (str && str[0] && !(c->s->cgroups_path = strdup(str)))
                return error_set(c->err, ENOMEM, "cannot allocate");
        if (oci_get_str(c, lx, ".linux", "rootfsPropagation", &str) < 0)
                return -1;
        if (str && str[0] && strcmp(str, "private") && strcmp(str, "rprivate"))
                return oci_bad(c, ".linux.rootfsPropagation",
                               "crib cannot honour '%s': its mounts are private", str);
        if (oci_sysctl(c, lx) < 0 || oci_devices(c, lx) < 0)
                return -1;
        static const char *const unsupported[] = {"intelRdt", "personality", "timeOffsets",
                                                  "memoryPolicy"};
        for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
                if (oci_member(lx, unsupported[i])) {
                        char q[PATHLEN];
                        oci_sub(q, ".linux", unsupported[i]);
                        return oci_bad(c, q, "is not supported by crib yet");
                }
        if (oci_get_str(c, lx, ".linux", "mountLabel", &str) < 0)
                return -1;
        if (str && str[0])
                return oci_bad(c, ".linux.mountLabel", "crib has no SELinux support");
        return 0;
}
