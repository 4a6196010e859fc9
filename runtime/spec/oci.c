/* oci.c - config.json (OCI runtime spec 1.x) into crib's spec; see oci.h.
 *
 * Each part of the config has a function here, in the order of the runtime spec's config.md;
 * each takes the JSON path it reads, so an error says which value was wrong. What crib makes
 * of itself (/proc, /dev, /dev/pts, /dev/shm, /dev/mqueue, /sys: plan.c's default mounts) is
 * recognised in .mounts and left to crib, which mounts them at least as strictly.
 */
#define _GNU_SOURCE
#include "oci.h"

#include <ctype.h>
#include <errno.h>
#include <json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "capname.h"
#include "cleanup.h"
#include "syntax.h"
#include "words.h"

struct ctx {
        struct spec *s;
        struct error *err;
        bool process_file; /* a process.json: its paths have no ".process" in front */
        bool update;       /* `update --resources`: the file is .linux.resources, and -1 lifts */
};

#define PATHLEN 160

static int bad(struct ctx *c, const char *jpath, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static int bad(struct ctx *c, const char *jpath, const char *fmt, ...)
{
        char text[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(text, sizeof text, fmt, ap);
        va_end(ap);
        if (c->process_file && !strncmp(jpath, ".process", 8))
                jpath = jpath[8] ? jpath + 8 : ".";
        if (c->update && !strncmp(jpath, ".linux.resources", 16))
                jpath = jpath[16] ? jpath + 16 : ".";
        return error_at(c->err, c->s->path, 0, "%s: %s", jpath, text);
}

static int nomem(struct ctx *c)
{
        return error_set(c->err, ENOMEM, "cannot allocate");
}

/* The member `key` of `obj`, NULL when absent or null (the spec's "optional"). */
static json_object *member(json_object *obj, const char *key)
{
        json_object *v;
        if (!obj || !json_object_object_get_ex(obj, key, &v) ||
            json_object_is_type(v, json_type_null))
                return NULL;
        return v;
}

/* A JSON path one level down (cut at PATHLEN: paths are for messages only) */
static void sub(char *buf, const char *parent, const char *key)
{
        if (snprintf(buf, PATHLEN, "%s.%s", parent, key) >= PATHLEN)
                buf[PATHLEN - 1] = '\0';
}

static void idx(char *buf, const char *parent, size_t i)
{
        if (snprintf(buf, PATHLEN, "%s[%zu]", parent, i) >= PATHLEN)
                buf[PATHLEN - 1] = '\0';
}

static int want(struct ctx *c, json_object *v, const char *jpath, json_type t, const char *what)
{
        if (!json_object_is_type(v, t))
                return bad(c, jpath, "must be %s", what);
        return 0;
}

/* obj.key as a string: 1 with *ret set, 0 when absent, -1 on a wrong type */
static int get_str(struct ctx *c, json_object *obj, const char *parent, const char *key,
                   const char **ret)
{
        char p[PATHLEN];
        json_object *v = member(obj, key);
        *ret = NULL;
        if (!v)
                return 0;
        sub(p, parent, key);
        if (want(c, v, p, json_type_string, "a string") < 0)
                return -1;
        *ret = json_object_get_string(v);
        if (strlen(*ret) != (size_t)json_object_get_string_len(v))
                return bad(c, p, "must not contain a NUL character");
        return 1;
}

static int get_bool(struct ctx *c, json_object *obj, const char *parent, const char *key, bool *ret)
{
        char p[PATHLEN];
        json_object *v = member(obj, key);
        if (!v)
                return 0;
        sub(p, parent, key);
        if (want(c, v, p, json_type_boolean, "true or false") < 0)
                return -1;
        *ret = json_object_get_boolean(v);
        return 1;
}

/* An integer from min to max (JSON numbers without a fraction). */
static int as_int(struct ctx *c, json_object *v, const char *jpath, int64_t min, int64_t max,
                  int64_t *ret)
{
        if (want(c, v, jpath, json_type_int, "a number") < 0)
                return -1;
        errno = 0;
        int64_t n = json_object_get_int64(v);
        if (errno || n < min || n > max)
                return bad(c, jpath, "must be a number from %lld to %lld", (long long)min,
                           (long long)max);
        *ret = n;
        return 0;
}

static int as_u64(struct ctx *c, json_object *v, const char *jpath, uint64_t *ret)
{
        if (want(c, v, jpath, json_type_int, "a number") < 0)
                return -1;
        errno = 0;
        if (json_object_get_int64(v) < 0)
                return bad(c, jpath, "must be a number from 0 up");
        *ret = json_object_get_uint64(v);
        if (errno)
                return bad(c, jpath, "must be a number below 2^64");
        return 0;
}

static int get_int(struct ctx *c, json_object *obj, const char *parent, const char *key,
                   int64_t min, int64_t max, int64_t *ret)
{
        char p[PATHLEN];
        json_object *v = member(obj, key);
        if (!v)
                return 0;
        sub(p, parent, key);
        return as_int(c, v, p, min, max, ret) < 0 ? -1 : 1;
}

/* obj.key as an array of at most `max` strings: 1 with *ret (borrowed) set, 0 when absent */
static int get_strings(struct ctx *c, json_object *obj, const char *parent, const char *key,
                       size_t max, json_object **ret)
{
        char p[PATHLEN], q[PATHLEN];
        json_object *v = member(obj, key);
        *ret = NULL;
        if (!v)
                return 0;
        sub(p, parent, key);
        if (want(c, v, p, json_type_array, "a list of strings") < 0)
                return -1;
        size_t n = json_object_array_length(v);
        if (n > max)
                return bad(c, p, "has %zu entries; crib takes at most %zu", n, max);
        for (size_t i = 0; i < n; i++) {
                json_object *e = json_object_array_get_idx(v, i);
                idx(q, p, i);
                if (want(c, e, q, json_type_string, "a string") < 0)
                        return -1;
                if (strlen(json_object_get_string(e)) != (size_t)json_object_get_string_len(e))
                        return bad(c, q, "must not contain a NUL character");
        }
        *ret = v;
        return 1;
}

static char **strv_of(json_object *a)
{
        size_t n = json_object_array_length(a);
        char **v = calloc(n + 1, sizeof *v);
        for (size_t i = 0; v && i < n; i++)
                if (!(v[i] = strdup(json_object_get_string(json_object_array_get_idx(a, i))))) {
                        words_free(v);
                        return NULL;
                }
        return v;
}

static void set_from(struct spec *s, enum spec_key k)
{
        s->origins[k] = (struct spec_origin){.kind = SPEC_FROM_FILE};
}

/* ---- root, hostname ---- */

static int oci_root(struct ctx *c, json_object *cfg)
{
        json_object *root = member(cfg, "root");
        const char *path;
        if (!root)
                return bad(c, ".root", "is missing: the bundle's root filesystem");
        if (want(c, root, ".root", json_type_object, "an object") < 0)
                return -1;
        int r = get_str(c, root, ".root", "path", &path);
        if (r < 0)
                return -1;
        if (r == 0 || !path[0])
                return bad(c, ".root.path", "is missing: the bundle's root filesystem");
        if (!(c->s->rootfs = strdup(path)))
                return nomem(c);
        set_from(c->s, SPEC_KEY_CONTAINER_ROOTFS);
        if ((r = get_bool(c, root, ".root", "readonly", &c->s->readonly_rootfs)) < 0)
                return -1;
        if (r)
                set_from(c->s, SPEC_KEY_CONTAINER_READONLY_ROOTFS);
        return 0;
}

static int oci_hostname(struct ctx *c, json_object *cfg)
{
        const char *h, *d;
        int r = get_str(c, cfg, "", "hostname", &h);
        if (r < 0 || get_str(c, cfg, "", "domainname", &d) < 0)
                return -1;
        if (d && d[0])
                return bad(c, ".domainname", "is not supported by crib yet");
        if (r == 0 || !h[0])
                return 0;
        size_t n = strlen(h);
        bool ok = n <= 64 && h[0] != '-' && h[0] != '.';
        for (size_t i = 0; ok && i < n; i++)
                ok = isalnum((unsigned char)h[i]) || h[i] == '-' || h[i] == '.';
        if (!ok)
                return bad(c, ".hostname",
                           "'%s' is not a host name (letters, digits, '-' and "
                           "'.', at most 64)",
                           h);
        if (!(c->s->hostname = strdup(h)))
                return nomem(c);
        set_from(c->s, SPEC_KEY_CONTAINER_HOSTNAME);
        return 0;
}

/* ---- process ---- */

static int oci_user(struct ctx *c, json_object *proc)
{
        json_object *user = member(proc, "user"), *gids;
        int64_t v;
        int r;
        const char *name;
        if (!user)
                return 0;
        if (want(c, user, ".process.user", json_type_object, "an object") < 0)
                return -1;
        if (get_str(c, user, ".process.user", "username", &name) < 0)
                return -1;
        if (name && name[0])
                return bad(c, ".process.user.username", "is for Windows; give uid and gid");
        if ((r = get_int(c, user, ".process.user", "uid", 0, 0xfffffffe, &v)) < 0)
                return -1;
        if (r)
                c->s->uid = (uint32_t)v;
        if ((r = get_int(c, user, ".process.user", "gid", 0, 0xfffffffe, &v)) < 0)
                return -1;
        if (r)
                c->s->gid = (uint32_t)v;
        set_from(c->s, SPEC_KEY_PROCESS_USER);
        if ((r = get_int(c, user, ".process.user", "umask", 0, 0777, &v)) < 0)
                return -1;
        if (r) {
                c->s->umask = (mode_t)v;
                set_from(c->s, SPEC_KEY_PROCESS_UMASK);
        }
        if (!(gids = member(user, "additionalGids")))
                return 0;
        if (want(c, gids, ".process.user.additionalGids", json_type_array, "a list of numbers") < 0)
                return -1;
        size_t n = json_object_array_length(gids);
        if (n > SPEC_MAX_GROUPS)
                return bad(c, ".process.user.additionalGids",
                           "has %zu entries; crib takes at "
                           "most %d",
                           n, SPEC_MAX_GROUPS);
        for (size_t i = 0; i < n; i++) {
                char p[PATHLEN];
                idx(p, ".process.user.additionalGids", i);
                if (as_int(c, json_object_array_get_idx(gids, i), p, 0, 0xfffffffe, &v) < 0)
                        return -1;
                c->s->groups[i] = (gid_t)v;
        }
        c->s->ngroups = n;
        c->s->groups_set = true;
        set_from(c->s, SPEC_KEY_PROCESS_GROUPS);
        return 0;
}

static int cap_set(struct ctx *c, json_object *caps, const char *key, bool *present, uint64_t *ret)
{
        char p[PATHLEN], q[PATHLEN];
        json_object *list;
        *ret = 0;
        int r = get_strings(c, caps, ".process.capabilities", key, 64, &list);
        *present = r > 0;
        if (r <= 0)
                return r;
        sub(p, ".process.capabilities", key);
        for (size_t i = 0; i < json_object_array_length(list); i++) {
                const char *name = json_object_get_string(json_object_array_get_idx(list, i));
                int cap = strncmp(name, "CAP_", 4) ? -1 : capname_parse(name);
                if (cap < 0 || cap > 63) {
                        idx(q, p, i);
                        return bad(c, q, "unknown capability '%s'", name);
                }
                *ret |= 1ULL << cap;
        }
        return 0;
}

/* crib gives the workload one set of capabilities (bounding, permitted and effective; and, to
 * a user other than root, inheritable and ambient so they survive its exec: plan.c). A
 * config whose sets crib cannot give exactly is refused. */
static int oci_capabilities(struct ctx *c, json_object *proc)
{
        json_object *caps = member(proc, "capabilities");
        uint64_t b = 0, e = 0, p = 0, i = 0, a = 0;
        bool hb, he, hp, hi, ha;
        set_from(c->s, SPEC_KEY_SECURITY_CAPABILITIES);
        c->s->caps = 0;
        if (!caps)
                return 0;
        if (want(c, caps, ".process.capabilities", json_type_object, "an object") < 0 ||
            cap_set(c, caps, "bounding", &hb, &b) < 0 ||
            cap_set(c, caps, "effective", &he, &e) < 0 ||
            cap_set(c, caps, "permitted", &hp, &p) < 0 ||
            cap_set(c, caps, "inheritable", &hi, &i) < 0 ||
            cap_set(c, caps, "ambient", &ha, &a) < 0)
                return -1;
        /* a user other than root given none to inherit: it keeps the bounding set and has no
         * capability after its exec, whatever its effective and permitted sets were, as under
         * runc (podman's config for --user: those empty, or the bounding set) */
        if (c->s->uid != 0 && !i && !a && (e == b || !e) && (p == b || !p)) {
                c->s->caps = c->s->caps_named = c->s->caps_file = b;
                c->s->caps_no_ambient = true;
                return 0;
        }
        if (e != b || p != b)
                return bad(c,
                           he && e != b ? ".process.capabilities.effective"
                                        : ".process.capabilities.permitted",
                           "differs from .process.capabilities.bounding; crib gives the workload "
                           "one set of capabilities");
        uint64_t want_ia = c->s->uid == 0 ? 0 : b;
        if (i != want_ia && (hi || want_ia))
                return bad(c, ".process.capabilities.inheritable",
                           "must be %s for uid %u: crib gives %s",
                           want_ia ? "the bounding set" : "empty", (unsigned)c->s->uid,
                           want_ia ? "a user other than root its capabilities through the "
                                     "ambient set"
                                   : "root none to inherit");
        if (a != want_ia && (ha || want_ia))
                return bad(c, ".process.capabilities.ambient",
                           "must be %s for uid %u: crib gives %s",
                           want_ia ? "the bounding set" : "empty", (unsigned)c->s->uid,
                           want_ia ? "a user other than root its capabilities through the "
                                     "ambient set"
                                   : "root none through the ambient set");
        c->s->caps = c->s->caps_named = c->s->caps_file = b;
        (void)hb;
        return 0;
}

static int oci_rlimits(struct ctx *c, json_object *proc)
{
        json_object *list = member(proc, "rlimits");
        if (!list)
                return 0;
        if (want(c, list, ".process.rlimits", json_type_array, "a list") < 0)
                return -1;
        size_t n = json_object_array_length(list);
        if (n > SPEC_NLIMITS)
                return bad(c, ".process.rlimits", "has %zu entries; there are %d limits", n,
                           SPEC_NLIMITS);
        for (size_t i = 0; i < n; i++) {
                char p[PATHLEN], q[PATHLEN];
                json_object *e = json_object_array_get_idx(list, i), *v;
                const char *type;
                idx(p, ".process.rlimits", i);
                if (want(c, e, p, json_type_object, "an object") < 0 ||
                    get_str(c, e, p, "type", &type) < 0)
                        return -1;
                int res = -1;
                for (int k = 0; type && k < SPEC_NLIMITS; k++)
                        if (!strncmp(type, "RLIMIT_", 7) && spec_limit_name(k) &&
                            !strcasecmp(type + 7, spec_limit_name(k)))
                                res = k;
                sub(q, p, "type");
                if (res < 0)
                        return bad(c, q, "'%s' is not a limit crib knows (RLIMIT_NOFILE, ...)",
                                   type ? type : "");
                struct spec_limit *l = &c->s->limits[res];
                if (l->set)
                        return bad(c, q, "%s is given twice", type);
                sub(q, p, "soft");
                if (!(v = member(e, "soft")) || as_u64(c, v, q, &l->soft) < 0)
                        return v ? -1 : bad(c, q, "is missing");
                sub(q, p, "hard");
                if (!(v = member(e, "hard")) || as_u64(c, v, q, &l->hard) < 0)
                        return v ? -1 : bad(c, q, "is missing");
                if (l->soft > l->hard)
                        return bad(c, p, "soft is above hard");
                l->set = true;
                set_from(c->s, spec_limit_key(res));
        }
        return 0;
}

static int oci_process(struct ctx *c, json_object *cfg)
{
        json_object *proc = member(cfg, "process"), *list;
        const char *cwd, *aa, *label;
        int r;
        int64_t v;
        bool b;
        if (!proc)
                return bad(c, ".process", "is missing: crib needs a program to run");
        if (want(c, proc, ".process", json_type_object, "an object") < 0)
                return -1;
        if ((r = get_strings(c, proc, ".process", "args", OCI_MAX_ARGS, &list)) < 0)
                return -1;
        if (!r || !json_object_array_length(list))
                return bad(c, ".process.args", "is missing or empty: crib needs a program to run");
        if (!(c->s->args = strv_of(list)))
                return nomem(c);
        if (!c->s->args[0][0])
                return bad(c, ".process.args[0]", "is empty");
        set_from(c->s, SPEC_KEY_PROCESS_ARGS);
        if ((r = get_strings(c, proc, ".process", "env", SPEC_MAX_ENV, &list)) < 0)
                return -1;
        if (r) {
                for (size_t i = 0; i < json_object_array_length(list); i++) {
                        const char *e = json_object_get_string(json_object_array_get_idx(list, i));
                        if (!strchr(e, '=') || e[0] == '=') {
                                char p[PATHLEN];
                                idx(p, ".process.env", i);
                                return bad(c, p, "'%s' is not NAME=VALUE", e);
                        }
                }
                if (!(c->s->env = strv_of(list)))
                        return nomem(c);
                c->s->nenv = json_object_array_length(list);
                set_from(c->s, SPEC_KEY_PROCESS_ENV);
        }
        if ((r = get_str(c, proc, ".process", "cwd", &cwd)) < 0)
                return -1;
        if (r) {
                if (!syntax_clean_path(cwd))
                        return bad(c, ".process.cwd", "'%s' is not an absolute path without '..'",
                                   cwd);
                if (!(c->s->cwd = strdup(cwd)))
                        return nomem(c);
                set_from(c->s, SPEC_KEY_PROCESS_CWD);
        }
        c->s->terminal = TERMINAL_NO;
        if ((r = get_bool(c, proc, ".process", "terminal", &b)) < 0)
                return -1;
        if (r && b)
                c->s->terminal = TERMINAL_YES;
        set_from(c->s, SPEC_KEY_PROCESS_TERMINAL);
        if (oci_user(c, proc) < 0 || oci_capabilities(c, proc) < 0 || oci_rlimits(c, proc) < 0)
                return -1;
        c->s->no_new_privileges = false;
        if (get_bool(c, proc, ".process", "noNewPrivileges", &c->s->no_new_privileges) < 0)
                return -1;
        set_from(c->s, SPEC_KEY_SECURITY_NO_NEW_PRIVILEGES);
        if ((r = get_str(c, proc, ".process", "apparmorProfile", &aa)) < 0)
                return -1;
        if (r && aa[0]) {
                if (strlen(aa) > 200)
                        return bad(c, ".process.apparmorProfile", "is longer than 200 characters");
                if (!(c->s->apparmor = strdup(aa)))
                        return nomem(c);
                c->s->apparmor_require = true; /* asked for by name: applied, or an error */
        }
        set_from(c->s, SPEC_KEY_SECURITY_APPARMOR);
        if ((r = get_int(c, proc, ".process", "oomScoreAdj", -1000, 1000, &v)) < 0)
                return -1;
        if (r)
                return bad(c, ".process.oomScoreAdj", "is not supported by crib yet");
        if (get_str(c, proc, ".process", "selinuxLabel", &label) < 0)
                return -1;
        if (label && label[0])
                return bad(c, ".process.selinuxLabel", "crib has no SELinux support");
        if (member(proc, "ioPriority") || member(proc, "scheduler") ||
            member(proc, "execCPUAffinity"))
                return bad(c,
                           member(proc, "ioPriority")  ? ".process.ioPriority"
                           : member(proc, "scheduler") ? ".process.scheduler"
                                                       : ".process.execCPUAffinity",
                           "is not supported by crib yet");
        return 0;
}

/* ---- mounts ---- */

/* A mount crib makes itself (plan.c's default mounts): destination and type. */
static bool crib_makes(const char *dst, const char *type)
{
        static const char *const own[][2] = {
                {"/proc", "proc"},
                {"/dev", "tmpfs"},
                {"/dev/pts", "devpts"},
                {"/dev/shm", "tmpfs"},
                {"/dev/mqueue", "mqueue"},
                {"/sys", "sysfs"},
                {"/sys/fs/cgroup", "cgroup"},
                {"/sys/fs/cgroup", "cgroup2"},
        };
        for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
                if (!strcmp(dst, own[i][0]) && type && !strcmp(type, own[i][1]))
                        return true;
        return false;
}

static int oci_mount(struct ctx *c, json_object *m, const char *p)
{
        const char *dst, *type, *src;
        json_object *opts;
        char q[PATHLEN];
        if (want(c, m, p, json_type_object, "an object") < 0 ||
            get_str(c, m, p, "destination", &dst) < 0 || get_str(c, m, p, "type", &type) < 0 ||
            get_str(c, m, p, "source", &src) < 0 || get_strings(c, m, p, "options", 64, &opts) < 0)
                return -1;
        sub(q, p, "destination");
        if (!dst)
                return bad(c, q, "is missing");
        if (!syntax_clean_path(dst))
                return bad(c, q, "'%s' is not an absolute path without '..'", dst);
        /* crib's own /proc, /dev, /sys...; /sys/fs/cgroup is not made yet (README) */
        if (crib_makes(dst, type))
                return 0;
        bool bind = type && !strcmp(type, "bind");
        unsigned flags = 0;
        char data[256] = "";
        size_t used = 0;
        for (size_t i = 0; opts && i < json_object_array_length(opts); i++) {
                const char *o = json_object_get_string(json_object_array_get_idx(opts, i));
                static const char *const noops[] = {"rw",   "private",  "rprivate",  "suid", "dev",
                                                    "exec", "relatime", "tmpcopyup", "z",    "Z"};
                bool noop = false;
                for (size_t k = 0; k < sizeof noops / sizeof noops[0]; k++)
                        noop |= !strcmp(o, noops[k]);
                if (noop)
                        continue;
                if (!strcmp(o, "bind")) {
                        bind = true;
                } else if (!strcmp(o, "rbind")) {
                        bind = true;
                        flags |= SPEC_MNT_RECURSIVE;
                } else if (!strcmp(o, "ro")) {
                        flags |= SPEC_MNT_RO;
                } else if (!strcmp(o, "nosuid")) {
                        flags |= SPEC_MNT_NOSUID;
                } else if (!strcmp(o, "nodev")) {
                        flags |= SPEC_MNT_NODEV;
                } else if (!strcmp(o, "noexec")) {
                        flags |= SPEC_MNT_NOEXEC;
                } else if (!strcmp(o, "strictatime") && !bind) {
                        flags |= SPEC_MNT_STRICTATIME;
                } else if ((!strncmp(o, "size=", 5) || !strncmp(o, "mode=", 5) ||
                            !strncmp(o, "nr_inodes=", 10)) &&
                           strlen(o) < 40 && !strchr(o, ',') &&
                           used + strlen(o) + 2 < sizeof data) {
                        used += (size_t)snprintf(data + used, sizeof data - used, "%s%s",
                                                 used ? "," : "", o);
                } else {
                        char r[PATHLEN];
                        sub(q, p, "options");
                        idx(r, q, i);
                        return bad(c, r, "crib cannot honour mount option '%s'", o);
                }
        }
        if (c->s->nmounts == SPEC_MAX_MOUNTS)
                return bad(c, p, "more than %d mounts", SPEC_MAX_MOUNTS);
        struct spec_mount *sm = &c->s->mounts[c->s->nmounts];
        memset(sm, 0, sizeof *sm);
        sub(q, p, "type");
        if (bind) {
                if (used)
                        return bad(c, p, "a bind mount takes no size=, mode= or nr_inodes=");
                if (!src || !src[0])
                        return bad(c, p, "a bind mount needs a source");
                if (flags & SPEC_MNT_STRICTATIME)
                        return bad(c, p, "crib takes strictatime for a tmpfs only");
                sm->kind = SPEC_MOUNT_BIND;
                if (!(sm->src = strdup(src)))
                        return nomem(c);
        } else if (type && !strcmp(type, "tmpfs")) {
                sm->kind = SPEC_MOUNT_TMPFS;
                if (used && !(sm->data = strdup(data)))
                        return nomem(c);
                flags &= ~SPEC_MNT_RECURSIVE;
        } else {
                return bad(c, q,
                           "crib cannot mount '%s' at '%s' (it mounts bind and tmpfs, and "
                           "proc, sysfs, devpts and mqueue at their usual places itself)",
                           type ? type : "(none)", dst);
        }
        sm->opts = flags;
        if (!(sm->dst = strdup(dst)))
                return nomem(c);
        c->s->nmounts++;
        set_from(c->s, bind ? SPEC_KEY_MOUNTS_BIND : SPEC_KEY_MOUNTS_TMPFS);
        return 0;
}

static int oci_mounts(struct ctx *c, json_object *cfg)
{
        json_object *list = member(cfg, "mounts");
        if (!list)
                return 0;
        if (want(c, list, ".mounts", json_type_array, "a list") < 0)
                return -1;
        for (size_t i = 0; i < json_object_array_length(list); i++) {
                char p[PATHLEN];
                idx(p, ".mounts", i);
                if (oci_mount(c, json_object_array_get_idx(list, i), p) < 0)
                        return -1;
        }
        return 0;
}

/* ---- linux ---- */

static int oci_namespaces(struct ctx *c, json_object *lx)
{
        json_object *list = member(lx, "namespaces");
        struct spec *s = c->s;
        bool mount = false;
        s->ns_user = s->ns_pid = s->ns_ipc = s->ns_uts = s->ns_net = s->ns_cgroup = false;
        static const enum spec_key keys[] = {SPEC_KEY_NAMESPACES_USER, SPEC_KEY_NAMESPACES_PID,
                                             SPEC_KEY_NAMESPACES_IPC,  SPEC_KEY_NAMESPACES_UTS,
                                             SPEC_KEY_NAMESPACES_NET,  SPEC_KEY_NAMESPACES_CGROUP,
                                             SPEC_KEY_NAMESPACES_MOUNT};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
                set_from(s, keys[k]);
        if (list && want(c, list, ".linux.namespaces", json_type_array, "a list") < 0)
                return -1;
        for (size_t i = 0; list && i < json_object_array_length(list); i++) {
                char p[PATHLEN], q[PATHLEN];
                json_object *e = json_object_array_get_idx(list, i);
                const char *type, *path;
                idx(p, ".linux.namespaces", i);
                if (want(c, e, p, json_type_object, "an object") < 0 ||
                    get_str(c, e, p, "type", &type) < 0 || get_str(c, e, p, "path", &path) < 0)
                        return -1;
                sub(q, p, "path");
                if (path && path[0])
                        return bad(c, q,
                                   "joining an existing namespace is not supported by crib "
                                   "yet");
                bool *flag = NULL;
                if (!type)
                        type = "";
                if (!strcmp(type, "user"))
                        flag = &s->ns_user;
                else if (!strcmp(type, "pid"))
                        flag = &s->ns_pid;
                else if (!strcmp(type, "ipc"))
                        flag = &s->ns_ipc;
                else if (!strcmp(type, "uts"))
                        flag = &s->ns_uts;
                else if (!strcmp(type, "network"))
                        flag = &s->ns_net;
                else if (!strcmp(type, "cgroup"))
                        flag = &s->ns_cgroup;
                else if (!strcmp(type, "mount"))
                        flag = &mount;
                sub(q, p, "type");
                if (!flag)
                        return bad(c, q, "'%s' is not a namespace crib can make", type);
                if (*flag)
                        return bad(c, q, "'%s' is given twice", type);
                *flag = true;
        }
        if (!mount)
                return bad(c, ".linux.namespaces", "has no mount namespace: crib always makes one");
        return 0;
}

static int oci_idmap(struct ctx *c, json_object *lx, const char *key, struct spec_idmap *m,
                     enum spec_key k)
{
        char p[PATHLEN], q[PATHLEN];
        json_object *list = member(lx, key);
        sub(p, ".linux", key);
        if (!list)
                return 0;
        if (want(c, list, p, json_type_array, "a list") < 0)
                return -1;
        size_t n = json_object_array_length(list);
        if (n > SPEC_MAX_RANGES)
                return bad(c, p, "has %zu ranges; crib takes at most %d", n, SPEC_MAX_RANGES);
        if (!n)
                return 0;
        for (size_t i = 0; i < n; i++) {
                json_object *e = json_object_array_get_idx(list, i), *v;
                int64_t val[3];
                static const char *const names[] = {"containerID", "hostID", "size"};
                idx(q, p, i);
                if (want(c, e, q, json_type_object, "an object") < 0)
                        return -1;
                for (size_t f = 0; f < 3; f++) {
                        char r[PATHLEN];
                        sub(r, q, names[f]);
                        if (!(v = member(e, names[f])))
                                return bad(c, r, "is missing");
                        if (as_int(c, v, r, f == 2 ? 1 : 0, 0xffffffffLL, &val[f]) < 0)
                                return -1;
                }
                if (val[0] + val[2] > 0x100000000LL || val[1] + val[2] > 0x100000000LL)
                        return bad(c, q, "the range goes past the last id");
                m->ranges[i] = (struct spec_range){.inside = (uint32_t)val[0],
                                                   .outside = (uint32_t)val[1],
                                                   .count = (uint32_t)val[2],
                                                   .line = 1};
        }
        m->n = n;
        m->line = 1; /* a map was given (spec.h: 0 says none) */
        set_from(c->s, k);
        return 0;
}

static int oci_paths(struct ctx *c, json_object *lx, const char *key, struct spec_paths *l,
                     enum spec_key k)
{
        char p[PATHLEN], q[PATHLEN];
        json_object *list;
        int r = get_strings(c, lx, ".linux", key, SPEC_MAX_PATHS, &list);
        if (r <= 0)
                return r;
        sub(p, ".linux", key);
        for (size_t i = 0; i < json_object_array_length(list); i++) {
                const char *path = json_object_get_string(json_object_array_get_idx(list, i));
                idx(q, p, i);
                if (!syntax_clean_path(path))
                        return bad(c, q, "'%s' is not an absolute path without '..'", path);
                if (!(l->items[l->n++] = strdup(path)))
                        return nomem(c);
        }
        set_from(c->s, k);
        return 0;
}

/* The OCI form of a seccomp profile (libseccomp's actions and operators) in crib's profile
 * format (profiles/seccomp/default says it), compiled by plan.c as any profile is. */
static int seccomp_errno(struct ctx *c, json_object *obj, const char *p, const char *key, FILE *out)
{
        int64_t e = EPERM;
        if (get_int(c, obj, p, key, 1, 4095, &e) < 0)
                return -1;
        const char *name = strerrorname_np((int)e);
        if (!name) {
                char q[PATHLEN];
                sub(q, p, key);
                return bad(c, q, "%lld is not an errno crib knows", (long long)e);
        }
        fprintf(out, "errno %s", name);
        return 0;
}

static int seccomp_rule(struct ctx *c, json_object *rule, const char *p, FILE *out)
{
        char q[PATHLEN];
        const char *action;
        json_object *names, *args;
        if (want(c, rule, p, json_type_object, "an object") < 0 ||
            get_str(c, rule, p, "action", &action) < 0)
                return -1;
        int r = get_strings(c, rule, p, "names", 1024, &names);
        sub(q, p, "names");
        if (r < 0)
                return -1;
        if (!r || !json_object_array_length(names))
                return bad(c, q, "is missing or empty");
        fputc('[', out);
        sub(q, p, "action");
        if (action && !strcmp(action, "SCMP_ACT_ALLOW"))
                fputs("allow", out);
        else if (action && !strcmp(action, "SCMP_ACT_ERRNO")) {
                if (seccomp_errno(c, rule, p, "errnoRet", out) < 0)
                        return -1;
        } else
                return bad(c, q, "crib cannot honour '%s' (it allows, or fails with an errno)",
                           action ? action : "(none)");
        if ((args = member(rule, "args"))) {
                char a[PATHLEN];
                sub(a, p, "args");
                if (want(c, args, a, json_type_array, "a list") < 0)
                        return -1;
                size_t n = json_object_array_length(args);
                if (n > 6)
                        return bad(c, a, "has %zu conditions; crib takes at most 6", n);
                for (size_t i = 0; i < n; i++) {
                        json_object *e = json_object_array_get_idx(args, i);
                        int64_t index;
                        uint64_t value = 0, two = 0;
                        const char *op;
                        char b[PATHLEN], d[PATHLEN];
                        idx(b, a, i);
                        if (want(c, e, b, json_type_object, "an object") < 0 ||
                            (r = get_int(c, e, b, "index", 0, 5, &index)) < 0 ||
                            get_str(c, e, b, "op", &op) < 0)
                                return -1;
                        if (!r)
                                return bad(c, b, "needs an index");
                        sub(d, b, "value");
                        if (member(e, "value") && as_u64(c, member(e, "value"), d, &value) < 0)
                                return -1;
                        sub(d, b, "valueTwo");
                        if (member(e, "valueTwo") && as_u64(c, member(e, "valueTwo"), d, &two) < 0)
                                return -1;
                        static const char *const ops[][2] = {
                                {"SCMP_CMP_EQ", "=="}, {"SCMP_CMP_NE", "!="},
                                {"SCMP_CMP_LT", "<"},  {"SCMP_CMP_LE", "<="},
                                {"SCMP_CMP_GT", ">"},  {"SCMP_CMP_GE", ">="}};
                        const char *sym = NULL;
                        for (size_t k = 0; op && k < sizeof ops / sizeof ops[0]; k++)
                                if (!strcmp(op, ops[k][0]))
                                        sym = ops[k][1];
                        if (sym)
                                fprintf(out, " if arg%d %s %llu", (int)index, sym,
                                        (unsigned long long)value);
                        else if (op && !strcmp(op, "SCMP_CMP_MASKED_EQ"))
                                fprintf(out, " if arg%d & %llu == %llu", (int)index,
                                        (unsigned long long)value, (unsigned long long)two);
                        else {
                                sub(d, b, "op");
                                return bad(c, d, "'%s' is not a libseccomp comparison",
                                           op ? op : "(none)");
                        }
                }
        }
        fputs("]\n", out);
        for (size_t i = 0; i < json_object_array_length(names); i++) {
                const char *n = json_object_get_string(json_object_array_get_idx(names, i));
                bool ok = n[0] && strlen(n) < 64;
                for (const char *x = n; ok && *x; x++)
                        ok = islower((unsigned char)*x) || isdigit((unsigned char)*x) || *x == '_';
                if (!ok) {
                        char w[PATHLEN];
                        sub(q, p, "names");
                        idx(w, q, i);
                        return bad(c, w, "'%s' is not a system call name", n);
                }
                fprintf(out, "%s\n", n);
        }
        return 0;
}

static int oci_seccomp(struct ctx *c, json_object *lx)
{
        json_object *sc = member(lx, "seccomp"), *flags, *arches, *rules;
        const char *dflt, *listener;
        const char *p = ".linux.seccomp";
        set_from(c->s, SPEC_KEY_SECURITY_SECCOMP);
        if (!sc)
                return 0; /* none asked for: none (the OCI spec's meaning) */
        if (want(c, sc, p, json_type_object, "an object") < 0 ||
            get_str(c, sc, p, "defaultAction", &dflt) < 0 ||
            get_str(c, sc, p, "listenerPath", &listener) < 0 ||
            get_strings(c, sc, p, "flags", 16, &flags) < 0 ||
            get_strings(c, sc, p, "architectures", 32, &arches) < 0)
                return -1;
        if (listener && listener[0])
                return bad(c, ".linux.seccomp.listenerPath", "crib has no seccomp notify support");
        for (size_t i = 0; flags && i < json_object_array_length(flags); i++) {
                const char *f = json_object_get_string(json_object_array_get_idx(flags, i));
                /* the filter is as strict without them (SPEC_ALLOW would turn a mitigation off) */
                if (strcmp(f, "SECCOMP_FILTER_FLAG_TSYNC") &&
                    strcmp(f, "SECCOMP_FILTER_FLAG_LOG") &&
                    strcmp(f, "SECCOMP_FILTER_FLAG_SPEC_ALLOW")) {
                        char q[PATHLEN];
                        idx(q, ".linux.seccomp.flags", i);
                        return bad(c, q, "crib cannot honour '%s'", f);
                }
        }
        char *text = NULL;
        size_t len = 0;
        _cleanup_fclose_ FILE *out = open_memstream(&text, &len);
        if (!out)
                return nomem(c);
        fputs("default ", out);
        if (!dflt || strcmp(dflt, "SCMP_ACT_ERRNO")) {
                fclose(steal_ptr(&out));
                free(text);
                return bad(c, ".linux.seccomp.defaultAction",
                           "crib cannot honour '%s': a profile's default must be SCMP_ACT_ERRNO",
                           dflt ? dflt : "(none)");
        }
        int r = seccomp_errno(c, sc, p, "defaultErrnoRet", out);
        fputc('\n', out);
        if (r == 0 && (rules = member(sc, "syscalls"))) {
                if (want(c, rules, ".linux.seccomp.syscalls", json_type_array, "a list") < 0)
                        r = -1;
                else if (json_object_array_length(rules) > 256)
                        r = bad(c, ".linux.seccomp.syscalls", "has more than 256 rules");
                for (size_t i = 0; r == 0 && i < json_object_array_length(rules); i++) {
                        char q[PATHLEN];
                        idx(q, ".linux.seccomp.syscalls", i);
                        r = seccomp_rule(c, json_object_array_get_idx(rules, i), q, out);
                }
        }
        fclose(steal_ptr(&out));
        if (r < 0) {
                free(text);
                return -1;
        }
        c->s->seccomp_text = text;
        c->s->seccomp_require = true;
        set_from(c->s, SPEC_KEY_SECURITY_SECCOMP_MODE);
        return 0;
}

/* Device rules crib's own /dev already gives (plan.c): null, zero, full, random, urandom, tty,
 * and the container's ptys; and /dev/console (5:1), in containerd's and Docker's defaults,
 * which crib never makes (runc binds a terminal's pty there), so the rule lets nothing in. */
static bool crib_device(json_object *e)
{
        json_object *ma = member(e, "major"), *mi = member(e, "minor"), *t = member(e, "type");
        if (!ma || !json_object_is_type(ma, json_type_int) ||
            (t && strcmp(json_object_get_string(t), "c")))
                return false;
        int64_t maj = json_object_get_int64(ma), min = mi ? json_object_get_int64(mi) : -1;
        if (maj == 1)
                return min == 3 || min == 5 || min == 7 || min == 8 || min == 9;
        if (maj == 5)
                return min == 0 || min == 1 || min == 2;
        return maj == 136;
}

static int oci_resources(struct ctx *c, json_object *lx)
{
        json_object *res = member(lx, "resources"), *o;
        struct cgroup_limits *l = &c->s->resources;
        const char *p = ".linux.resources";
        int64_t v;
        int r;
        if (!res)
                return 0;
        if (want(c, res, p, json_type_object, "an object") < 0)
                return -1;
        if ((o = member(res, "devices"))) {
                if (want(c, o, ".linux.resources.devices", json_type_array, "a list") < 0)
                        return -1;
                for (size_t i = 0; i < json_object_array_length(o); i++) {
                        json_object *e = json_object_array_get_idx(o, i);
                        char q[PATHLEN];
                        bool allow = false;
                        idx(q, ".linux.resources.devices", i);
                        if (want(c, e, q, json_type_object, "an object") < 0 ||
                            get_bool(c, e, q, "allow", &allow) < 0)
                                return -1;
                        /* crib's /dev holds only its own nodes: a deny, or an allow of one of
                         * them, changes nothing */
                        if (allow && !crib_device(e))
                                return bad(c, q,
                                           "allowing this device is not supported by crib "
                                           "yet");
                }
        }
        if ((o = member(res, "memory"))) {
                const char *m = ".linux.resources.memory";
                int64_t limit = CGROUP_UNSET, swap;
                if (want(c, o, m, json_type_object, "an object") < 0)
                        return -1;
                if ((r = get_int(c, o, m, "limit", -1, INT64_MAX, &limit)) < 0)
                        return -1;
                if (r && limit != -1 && limit < 4096)
                        return bad(c, ".linux.resources.memory.limit", "is below 4096 bytes");
                if (r && limit != -1) { /* -1: no limit, nothing to apply */
                        l->memory_max = limit;
                        l->need |= CGROUP_BIT(CGROUP_MEMORY);
                        set_from(c->s, SPEC_KEY_RESOURCES_MEMORY);
                } else if (r && c->update) { /* -1 in an update: the limit lifted */
                        l->memory_max = CGROUP_MAX;
                        l->need |= CGROUP_BIT(CGROUP_MEMORY);
                }
                if ((r = get_int(c, o, m, "swap", -1, INT64_MAX, &swap)) < 0)
                        return -1;
                if (r) {
                        /* OCI's swap is memory plus swap; cgroup v2's swap.max is swap alone */
                        if (swap != -1 &&
                            (!limit || limit == CGROUP_UNSET || limit == -1 || swap < limit))
                                return bad(c, ".linux.resources.memory.swap",
                                           "must be -1, or at least .limit (memory plus swap)");
                        if (swap != -1) {
                                l->memory_swap = swap - limit;
                                l->need |= CGROUP_BIT(CGROUP_MEMORY);
                                set_from(c->s, SPEC_KEY_RESOURCES_MEMORY_SWAP);
                        } else if (c->update) {
                                l->memory_swap = CGROUP_MAX;
                                l->need |= CGROUP_BIT(CGROUP_MEMORY);
                        }
                }
                static const char *const unsupported[] = {"reservation", "kernel", "kernelTCP",
                                                          "swappiness"};
                for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
                        if (member(o, unsupported[i])) {
                                char q[PATHLEN];
                                sub(q, m, unsupported[i]);
                                return bad(c, q, "is not supported by crib yet");
                        }
                bool b = false;
                if (get_bool(c, o, m, "disableOOMKiller", &b) < 0)
                        return -1;
                if (b)
                        return bad(c, ".linux.resources.memory.disableOOMKiller",
                                   "cgroup v2 has no such switch");
        }
        if ((o = member(res, "cpu"))) {
                const char *cp = ".linux.resources.cpu";
                /* an update without a period keeps the container's (0 here) */
                int64_t quota = 0, period = c->update ? 0 : 100000, shares;
                const char *set;
                if (want(c, o, cp, json_type_object, "an object") < 0)
                        return -1;
                if ((r = get_int(c, o, cp, "shares", 2, 262144, &shares)) < 0)
                        return -1;
                /* 1024 is cgroup v1's default, which containerd sends for every container:
                 * no preference, so no cpu controller is needed for it */
                /* in an update 1024 is asked for: the weight it converts to */
                if (r && (shares != 1024 || c->update)) { /* the conversion runc and crun use */
                        l->cpu_weight = (uint32_t)(1 + ((shares - 2) * 9999) / 262142);
                        l->need |= CGROUP_BIT(CGROUP_CPU);
                        set_from(c->s, SPEC_KEY_RESOURCES_CPU_WEIGHT);
                }
                int rp;
                if ((rp = get_int(c, o, cp, "period", 1000, 1000000, &period)) < 0 ||
                    (r = get_int(c, o, cp, "quota", -1, 0xfffffffeLL, &quota)) < 0)
                        return -1;
                if (c->update && rp && (!r || quota == 0))
                        return bad(c, ".linux.resources.cpu.period",
                                   "needs a quota beside it in an update (-1 for none)");
                if (r && quota > 0) {
                        l->cpu_quota = (uint32_t)quota;
                        l->cpu_period = (uint32_t)period;
                        l->need |= CGROUP_BIT(CGROUP_CPU);
                        set_from(c->s, SPEC_KEY_RESOURCES_CPUS);
                } else if (r && quota == -1 && c->update) {
                        l->cpu_quota = CGROUP_CPU_MAX;
                        l->cpu_period = (uint32_t)period;
                        l->need |= CGROUP_BIT(CGROUP_CPU);
                }
                if (get_str(c, o, cp, "cpus", &set) < 0)
                        return -1;
                if (set && set[0])
                        return bad(c, ".linux.resources.cpu.cpus", "is not supported by crib yet");
                if (get_str(c, o, cp, "mems", &set) < 0)
                        return -1;
                if (set && set[0])
                        return bad(c, ".linux.resources.cpu.mems", "is not supported by crib yet");
                if (member(o, "realtimeRuntime") || member(o, "realtimePeriod") ||
                    member(o, "idle"))
                        return bad(c, cp,
                                   "realtime and idle settings are not supported by crib "
                                   "yet");
        }
        if ((o = member(res, "pids"))) {
                if (want(c, o, ".linux.resources.pids", json_type_object, "an object") < 0 ||
                    (r = get_int(c, o, ".linux.resources.pids", "limit", -1, 4194304, &v)) < 0)
                        return -1;
                if (r && v == 0 && c->update)
                        return bad(c, ".linux.resources.pids.limit",
                                   "0 means no change to runc and no limit to crun: give -1 "
                                   "for no limit, or leave it out");
                if (r && v > 0) { /* 0 and -1: no limit, nothing to apply */
                        l->pids_max = v;
                        l->need |= CGROUP_BIT(CGROUP_PIDS);
                        set_from(c->s, SPEC_KEY_RESOURCES_PIDS);
                } else if (r && v == -1 && c->update) { /* in an update, -1 lifts it */
                        l->pids_max = CGROUP_MAX;
                        l->need |= CGROUP_BIT(CGROUP_PIDS);
                }
        }
        if ((o = member(res, "blockIO"))) {
                if (want(c, o, ".linux.resources.blockIO", json_type_object, "an object") < 0 ||
                    (r = get_int(c, o, ".linux.resources.blockIO", "weight", 10, 1000, &v)) < 0)
                        return -1;
                if (r) {
                        l->io_weight = (uint32_t)(1 + (v - 10) * 9999 / 990);
                        l->need |= CGROUP_BIT(CGROUP_IO);
                        set_from(c->s, SPEC_KEY_RESOURCES_IO_WEIGHT);
                }
                json_object_object_foreach(o, k, val)
                {
                        if (strcmp(k, "weight") && val &&
                            !(json_object_is_type(val, json_type_array) &&
                              !json_object_array_length(val))) {
                                char q[PATHLEN];
                                sub(q, ".linux.resources.blockIO", k);
                                return bad(c, q, "is not supported by crib yet");
                        }
                }
        }
        static const char *const unsupported[] = {"hugepageLimits", "network", "rdma", "unified"};
        for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++) {
                json_object *u = member(res, unsupported[i]);
                bool empty = u && ((json_object_is_type(u, json_type_array) &&
                                    !json_object_array_length(u)) ||
                                   (json_object_is_type(u, json_type_object) &&
                                    !json_object_object_length(u)));
                if (u && !empty) {
                        char q[PATHLEN];
                        sub(q, p, unsupported[i]);
                        return bad(c, q, "is not supported by crib yet");
                }
        }
        if (l->need)
                set_from(c->s, SPEC_KEY_RESOURCES_MODE);
        return 0;
}

static int oci_linux(struct ctx *c, json_object *cfg)
{
        json_object *lx = member(cfg, "linux"), *o;
        const char *str;
        if (!lx)
                return bad(c, ".linux", "is missing: crib runs Linux containers");
        if (want(c, lx, ".linux", json_type_object, "an object") < 0)
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
        if (get_str(c, lx, ".linux", "cgroupsPath", &str) < 0)
                return -1;
        if (str && str[0] && !(c->s->cgroups_path = strdup(str)))
                return error_set(c->err, ENOMEM, "cannot allocate");
        if (get_str(c, lx, ".linux", "rootfsPropagation", &str) < 0)
                return -1;
        if (str && str[0] && strcmp(str, "private") && strcmp(str, "rprivate"))
                return bad(c, ".linux.rootfsPropagation",
                           "crib cannot honour '%s': its mounts are private", str);
        if ((o = member(lx, "sysctl"))) {
                if (want(c, o, ".linux.sysctl", json_type_object, "an object") < 0)
                        return -1;
                json_object_object_foreach(o, k, val)
                {
                        (void)val;
                        /* podman's default: ping sockets for group 0. Without it ping sockets
                         * are closed to the container (stricter, not looser) */
                        if (strcmp(k, "net.ipv4.ping_group_range")) {
                                char q[PATHLEN];
                                snprintf(q, sizeof q, ".linux.sysctl[\"%.60s\"]", k);
                                return bad(c, q, "setting sysctls is not supported by crib yet");
                        }
                }
        }
        if ((o = member(lx, "devices"))) {
                if (want(c, o, ".linux.devices", json_type_array, "a list") < 0)
                        return -1;
                for (size_t i = 0; i < json_object_array_length(o); i++) {
                        const char *path;
                        char q[PATHLEN];
                        idx(q, ".linux.devices", i);
                        json_object *e = json_object_array_get_idx(o, i);
                        if (want(c, e, q, json_type_object, "an object") < 0 ||
                            get_str(c, e, q, "path", &path) < 0)
                                return -1;
                        if (!crib_device(e))
                                return bad(c, q,
                                           "'%s': adding devices is not supported by crib "
                                           "yet",
                                           path ? path : "");
                }
        }
        static const char *const unsupported[] = {"intelRdt", "personality", "timeOffsets",
                                                  "memoryPolicy"};
        for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
                if (member(lx, unsupported[i])) {
                        char q[PATHLEN];
                        sub(q, ".linux", unsupported[i]);
                        return bad(c, q, "is not supported by crib yet");
                }
        if (get_str(c, lx, ".linux", "mountLabel", &str) < 0)
                return -1;
        if (str && str[0])
                return bad(c, ".linux.mountLabel", "crib has no SELinux support");
        return 0;
}

static const char *const hook_kinds[OCI_HOOK_KINDS] = {
        "prestart", "createRuntime", "poststart", "poststop", "createContainer", "startContainer"};

/* .hooks: each kind crib runs (those in the runtime's namespaces: oci.h) checked in full and
 * kept as compact JSON for the state directory; the kinds that run inside the container's
 * namespaces are refused. */
static int oci_hooks(struct ctx *c, json_object *cfg, char **ret)
{
        json_object *hooks = member(cfg, "hooks");
        *ret = NULL;
        if (!hooks)
                return 0;
        if (want(c, hooks, ".hooks", json_type_object, "an object") < 0)
                return -1;
        for (int k = 0; k < OCI_HOOK_KINDS; k++) {
                char p[PATHLEN], q[PATHLEN];
                json_object *list = member(hooks, hook_kinds[k]);
                sub(p, ".hooks", hook_kinds[k]);
                if (!list)
                        continue;
                if (want(c, list, p, json_type_array, "a list") < 0)
                        return -1;
                size_t n = json_object_array_length(list);
                if (n && k >= OCI_HOOK_CREATE_CONTAINER)
                        return bad(c, p,
                                   "is not supported by crib yet (these hooks run inside the "
                                   "container's namespaces; crib runs prestart, createRuntime, "
                                   "poststart and poststop)");
                if (n > OCI_MAX_HOOKS)
                        return bad(c, p, "has %zu hooks; crib takes at most %d", n, OCI_MAX_HOOKS);
                for (size_t i = 0; i < n; i++) {
                        json_object *h = json_object_array_get_idx(list, i), *l;
                        const char *path;
                        int64_t t;
                        idx(q, p, i);
                        if (want(c, h, q, json_type_object, "an object") < 0 ||
                            get_str(c, h, q, "path", &path) < 0 ||
                            get_strings(c, h, q, "args", OCI_MAX_HOOK_ARGS, &l) < 0 ||
                            get_strings(c, h, q, "env", OCI_MAX_HOOK_ARGS, &l) < 0 ||
                            get_int(c, h, q, "timeout", 1, 3600, &t) < 0)
                                return -1;
                        if (!path || !syntax_clean_path(path)) {
                                char r[PATHLEN];
                                sub(r, q, "path");
                                return bad(c, r, "'%s' is not an absolute path without '..'",
                                           path ? path : "(missing)");
                        }
                }
        }
        const char *text = json_object_to_json_string_ext(
                hooks, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        if (strlen(text) > OCI_MAX_HOOKS_JSON)
                return bad(c, ".hooks", "is over %d KiB", OCI_MAX_HOOKS_JSON >> 10);
        if (!(*ret = strdup(text)))
                return nomem(c);
        return 0;
}

int oci_hooks_of(const char *json, enum oci_hook_kind kind, struct oci_hook *hooks,
                 struct error *err)
{
        size_t n = 0;
        json_object *all = json && json[0] ? json_tokener_parse(json) : NULL, *list, *v;
        if (!all || !json_object_object_get_ex(all, hook_kinds[kind], &list) ||
            !json_object_is_type(list, json_type_array)) {
                json_object_put(all);
                return 0;
        }
        for (size_t i = 0; i < json_object_array_length(list) && n < OCI_MAX_HOOKS; i++) {
                json_object *h = json_object_array_get_idx(list, i);
                struct oci_hook *o = &hooks[n];
                memset(o, 0, sizeof *o);
                if (!json_object_object_get_ex(h, "path", &v) ||
                    !(o->path = strdup(json_object_get_string(v))))
                        goto nomem;
                n++;
                o->args = json_object_object_get_ex(h, "args", &v) ? strv_of(v) : NULL;
                o->env = json_object_object_get_ex(h, "env", &v) ? strv_of(v) : NULL;
                if (!o->args) {
                        /* none: the path alone, as argv[0] */
                        o->args = calloc(2, sizeof *o->args);
                        if (!o->args || !(o->args[0] = strdup(o->path)))
                                goto nomem;
                }
                if (!o->env && !(o->env = calloc(1, sizeof *o->env)))
                        goto nomem;
                o->timeout =
                        json_object_object_get_ex(h, "timeout", &v) ? json_object_get_int(v) : 0;
        }
        json_object_put(all);
        return (int)n;
nomem:
        json_object_put(all);
        oci_hooks_free(hooks, n);
        return error_set(err, ENOMEM, "cannot allocate");
}

void oci_hooks_free(struct oci_hook *hooks, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free(hooks[i].path);
                for (char **a = hooks[i].args; a && *a; a++)
                        free(*a);
                for (char **e = hooks[i].env; e && *e; e++)
                        free(*e);
                free(hooks[i].args);
                free(hooks[i].env);
        }
}

static int oci_annotations(struct ctx *c, json_object *cfg, char **ret)
{
        json_object *a = member(cfg, "annotations");
        const char *text = "{}";
        if (a) {
                if (want(c, a, ".annotations", json_type_object, "an object") < 0)
                        return -1;
                json_object_object_foreach(a, k, v)
                {
                        if (!v || !json_object_is_type(v, json_type_string)) {
                                char q[PATHLEN];
                                snprintf(q, sizeof q, ".annotations[\"%.60s\"]", k);
                                return bad(c, q, "must be a string");
                        }
                }
                text = json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN |
                                                                 JSON_C_TO_STRING_NOSLASHESCAPE);
                if (strlen(text) > OCI_MAX_ANNOTATIONS_JSON)
                        return bad(c, ".annotations", "are over %d bytes",
                                   OCI_MAX_ANNOTATIONS_JSON);
        }
        if (!(*ret = strdup(text)))
                return nomem(c);
        return 0;
}

/* The JSON object in `f`, at most OCI_MAX_CONFIG bytes, nothing after it; NULL on error. */
static json_object *read_object(struct ctx *c, const char *path, FILE *f)
{
        json_object *obj = NULL;
        _cleanup_free_ char *buf = malloc(OCI_MAX_CONFIG + 1);
        if (!buf) {
                nomem(c);
                return NULL;
        }
        size_t n = fread(buf, 1, OCI_MAX_CONFIG + 1, f);
        if (ferror(f)) {
                error_set(c->err, errno, "cannot read '%s'", path);
                return NULL;
        }
        if (n > OCI_MAX_CONFIG) {
                error_at(c->err, path, 0, "is over %d bytes", OCI_MAX_CONFIG);
                return NULL;
        }
        json_tokener *tok = json_tokener_new();
        if (!tok) {
                nomem(c);
                return NULL;
        }
        obj = json_tokener_parse_ex(tok, buf, (int)n);
        enum json_tokener_error je = json_tokener_get_error(tok);
        size_t at = json_tokener_get_parse_end(tok);
        json_tokener_free(tok);
        if (!obj || je != json_tokener_success || at != n) {
                error_at(c->err, path, 0, "not JSON: %s at byte %zu",
                         obj && je == json_tokener_success ? "text after the object"
                                                           : json_tokener_error_desc(je),
                         at);
                json_object_put(obj);
                return NULL;
        }
        if (!json_object_is_type(obj, json_type_object)) {
                bad(c, ".", "must be an object");
                json_object_put(obj);
                return NULL;
        }
        return obj;
}

/* A file that holds one member of a larger object (process.json is config.json's .process):
 * read, and put under `key` in a new object, so the config's readers take it as they are.
 * The new object (the caller's to put), or NULL with c->err set; *ret_inner is the file's. */
static json_object *read_under(struct ctx *c, const char *path, FILE *f, const char *key,
                               json_object **ret_inner)
{
        json_object *inner = read_object(c, path, f);
        if (!inner)
                return NULL;
        json_object *outer = json_object_new_object();
        if (!outer || json_object_object_add(outer, key, inner) < 0) {
                json_object_put(outer);
                json_object_put(inner);
                nomem(c);
                return NULL;
        }
        *ret_inner = inner;
        return outer;
}

int oci_load_process(const char *path, FILE *f, struct oci_process *ret, struct error *err)
{
        struct oci_process op = {0};
        struct spec *s = &op.spec;
        struct ctx c = {.s = s, .err = err, .process_file = true};
        int r = -1;

        error_clear(err);
        spec_init(s);
        s->front = SPEC_FRONT_OCI;
        if (!(s->path = strdup(path)))
                return error_set(err, ENOMEM, "cannot allocate");
        /* the process object is the file: as config.json's .process, so one reader serves */
        json_object *proc;
        json_object *cfg = read_under(&c, path, f, "process", &proc);
        if (!cfg)
                goto out;
        op.has_caps = member(proc, "capabilities") != NULL;
        op.has_rlimits = member(proc, "rlimits") != NULL;
        if (oci_process(&c, cfg) < 0)
                goto out;
        r = 0;
out:
        json_object_put(cfg);
        if (r < 0) {
                spec_free(s);
                return -1;
        }
        *ret = op;
        return 0;
}

int oci_load_resources(const char *path, FILE *f, struct cgroup_limits *ret, struct error *err)
{
        struct spec s;
        struct ctx c = {.s = &s, .err = err, .update = true};
        int r = -1;

        error_clear(err);
        spec_init(&s);
        s.front = SPEC_FRONT_OCI;
        if (!(s.path = strdup(path)))
                return error_set(err, ENOMEM, "cannot allocate");
        /* the file is what config.json has at .linux.resources, so one reader serves */
        json_object *res;
        json_object *lx = read_under(&c, path, f, "resources", &res);
        if (!lx)
                goto out;
        if (oci_resources(&c, lx) < 0)
                goto out;
        *ret = s.resources;
        r = 0;
out:
        json_object_put(lx);
        spec_free(&s);
        return r;
}

int oci_load(const char *path, FILE *f, struct oci_config *ret, struct error *err)
{
        struct oci_config oc = {0};
        struct spec *s = &oc.spec;
        struct ctx c = {.s = s, .err = err};
        json_object *cfg = NULL;
        int r = -1;

        error_clear(err);
        spec_init(s);
        s->front = SPEC_FRONT_OCI;
        s->init = false; /* as runc: the process is the container's pid 1 */
        s->apparmor_require = false;
        if (!(s->path = strdup(path)))
                return error_set(err, ENOMEM, "cannot allocate");
        if (!(cfg = read_object(&c, path, f)))
                goto out;
        const char *version;
        if (get_str(&c, cfg, "", "ociVersion", &version) < 0)
                goto out;
        if (!version || strncmp(version, "1.", 2)) {
                bad(&c, ".ociVersion", "'%s' is not a version 1 of the OCI runtime spec",
                    version ? version : "(missing)");
                goto out;
        }
        if (oci_root(&c, cfg) < 0 || oci_process(&c, cfg) < 0 || oci_hostname(&c, cfg) < 0 ||
            oci_mounts(&c, cfg) < 0 || oci_linux(&c, cfg) < 0 ||
            oci_hooks(&c, cfg, &oc.hooks) < 0 || oci_annotations(&c, cfg, &oc.annotations) < 0)
                goto out;
        if (s->hostname && !s->ns_uts) {
                bad(&c, ".hostname", "needs a uts namespace in .linux.namespaces");
                goto out;
        }
        if (!s->ns_user && (s->uidmap.n || s->gidmap.n)) {
                bad(&c, ".linux.uidMappings", "needs a user namespace in .linux.namespaces");
                goto out;
        }
        if (spec_check(s, err) < 0)
                goto out;
        r = 0;
out:
        json_object_put(cfg);
        if (r < 0) {
                oci_free(&oc);
                return -1;
        }
        *ret = oc;
        return 0;
}

void oci_free(struct oci_config *c)
{
        spec_free(&c->spec);
        free(c->annotations);
        c->annotations = NULL;
        free(c->hooks);
        c->hooks = NULL;
}
