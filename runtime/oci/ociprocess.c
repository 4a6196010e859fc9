/* ociprocess.c - config.json's .process into crib's spec: the program, its environment and
 * directory, its user and groups, its capabilities, its resource limits (setrlimit(2)) and its
 * security settings; see oci.h.
 *
 * The same reader serves a process.json (`runc exec --process`), whose paths have no
 * ".process" in front (oci_bad strips it). crib gives the workload one set of capabilities:
 * a config whose sets crib cannot give exactly is refused, never loosened.
 */
#define _GNU_SOURCE
#include "parse.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/capname.h"
#include "base/syntax.h"

static int oci_user(struct oci_ctx *c, json_object *proc)
{
        json_object *user = oci_member(proc, "user"), *gids;
        int64_t v;
        int r;
        const char *name;
        if (!user)
                return 0;
        if (oci_want(c, user, ".process.user", json_type_object, "an object") < 0)
                return -1;
        if (oci_get_str(c, user, ".process.user", "username", &name) < 0)
                return -1;
        if (name && name[0])
                return oci_bad(c, ".process.user.username", "is for Windows; give uid and gid");
        if ((r = oci_get_int(c, user, ".process.user", "uid", 0, 0xfffffffe, &v)) < 0)
                return -1;
        if (r)
                c->s->uid = (uint32_t)v;
        if ((r = oci_get_int(c, user, ".process.user", "gid", 0, 0xfffffffe, &v)) < 0)
                return -1;
        if (r)
                c->s->gid = (uint32_t)v;
        oci_set_from(c->s, SPEC_KEY_PROCESS_USER);
        if ((r = oci_get_int(c, user, ".process.user", "umask", 0, 0777, &v)) < 0)
                return -1;
        if (r) {
                c->s->umask = (mode_t)v;
                oci_set_from(c->s, SPEC_KEY_PROCESS_UMASK);
        }
        if (!(gids = oci_member(user, "additionalGids")))
                return 0;
        if (oci_want(c, gids, ".process.user.additionalGids", json_type_array,
                     "a list of numbers") < 0)
                return -1;
        size_t n = json_object_array_length(gids);
        if (n > SPEC_MAX_GROUPS)
                return oci_bad(c, ".process.user.additionalGids",
                               "has %zu entries; crib takes at "
                               "most %d",
                               n, SPEC_MAX_GROUPS);
        for (size_t i = 0; i < n; i++) {
                char p[PATHLEN];
                oci_idx(p, ".process.user.additionalGids", i);
                if (oci_as_int(c, json_object_array_get_idx(gids, i), p, 0, 0xfffffffe, &v) < 0)
                        return -1;
                c->s->groups[i] = (gid_t)v;
        }
        c->s->ngroups = n;
        c->s->groups_set = true;
        oci_set_from(c->s, SPEC_KEY_PROCESS_GROUPS);
        return 0;
}

static int cap_set(struct oci_ctx *c, json_object *caps, const char *key, bool *present,
                   uint64_t *ret)
{
        char p[PATHLEN], q[PATHLEN];
        json_object *list;
        *ret = 0;
        int r = oci_get_strings(c, caps, ".process.capabilities", key, 64, &list);
        *present = r > 0;
        if (r <= 0)
                return r;
        oci_sub(p, ".process.capabilities", key);
        for (size_t i = 0; i < json_object_array_length(list); i++) {
                const char *name = json_object_get_string(json_object_array_get_idx(list, i));
                int cap = strncmp(name, "CAP_", 4) ? -1 : capname_parse(name);
                if (cap < 0 || cap > 63) {
                        oci_idx(q, p, i);
                        return oci_bad(c, q, "unknown capability '%s'", name);
                }
                *ret |= 1ULL << cap;
        }
        return 0;
}

/* .process.capabilities.KEY's bits in `set` that are not in `within`: an error at that path
 * saying why (`what` names `within`), or 0 when there are none */
static int cap_within(struct oci_ctx *c, const char *key, uint64_t set, uint64_t within,
                      const char *what)
{
        uint64_t out = set & ~within;
        if (!out)
                return 0;
        char path[64];
        int cap = __builtin_ctzll(out);
        snprintf(path, sizeof path, ".process.capabilities.%s", key);
        return oci_bad(c, path, "has CAP_%s, which is not in %s",
                       capname_of(cap) ? capname_of(cap) : "?", what);
}

/* The five sets, given as runc gives them: the bounding set first, then effective, permitted
 * and inheritable (capset(2)), then the ambient set (prctl(2) PR_CAP_AMBIENT_RAISE). Each is
 * checked against what makes it possible: crib gives no set beyond the bounding set (for root,
 * an inheritable capability outside it would come back at exec: capabilities(7)); the kernel
 * refuses an effective capability not permitted; an ambient one not both permitted and
 * inheritable it would not raise, and it is left out with a warning, as runc does. What the sets
 * mean after the workload's exec is the kernel's rule (capabilities(7), "Transformation of
 * capabilities during execve()"): root keeps the bounding set; a user other than root keeps the
 * ambient set alone (none: no capability, as under runc for podman's --user). */
static int oci_capabilities(struct oci_ctx *c, json_object *proc)
{
        json_object *caps = oci_member(proc, "capabilities");
        uint64_t b = 0, e = 0, p = 0, i = 0, a = 0;
        bool hb, he, hp, hi, ha;
        oci_set_from(c->s, SPEC_KEY_SECURITY_CAPABILITIES);
        c->s->caps = 0;
        if (!caps)
                return 0;
        if (oci_want(c, caps, ".process.capabilities", json_type_object, "an object") < 0 ||
            cap_set(c, caps, "bounding", &hb, &b) < 0 ||
            cap_set(c, caps, "effective", &he, &e) < 0 ||
            cap_set(c, caps, "permitted", &hp, &p) < 0 ||
            cap_set(c, caps, "inheritable", &hi, &i) < 0 ||
            cap_set(c, caps, "ambient", &ha, &a) < 0)
                return -1;
        static const char bset[] = "the bounding set (crib gives no capability beyond it)";
        if (cap_within(c, "permitted", p, b, bset) < 0 ||
            cap_within(c, "effective", e, p,
                       "the permitted set (the kernel refuses it: capset(2))") < 0 ||
            cap_within(c, "inheritable", i, b, bset) < 0 ||
            cap_within(c, "ambient", a, b, bset) < 0)
                return -1;
        /* one the kernel would not raise (not both permitted and inheritable): left out, with
         * a warning (plan/confine.c), as runc does; buildah's RUN names them so */
        c->s->caps_ambient_dropped = a & ~(p & i);
        a &= p & i;
        c->s->caps = c->s->caps_named = c->s->caps_file = b;
        c->s->caps_sets = true;
        c->s->caps_effective = e;
        c->s->caps_permitted = p;
        c->s->caps_inheritable = i;
        c->s->caps_ambient = a;
        /* a user other than root with no ambient set has no capability after its exec */
        c->s->caps_no_ambient = c->s->uid != 0 && !a;
        (void)hb, (void)he, (void)hp, (void)hi, (void)ha;
        return 0;
}

static int oci_rlimits(struct oci_ctx *c, json_object *proc)
{
        json_object *list = oci_member(proc, "rlimits");
        if (!list)
                return 0;
        if (oci_want(c, list, ".process.rlimits", json_type_array, "a list") < 0)
                return -1;
        size_t n = json_object_array_length(list);
        if (n > SPEC_NLIMITS)
                return oci_bad(c, ".process.rlimits", "has %zu entries; there are %d limits", n,
                               SPEC_NLIMITS);
        for (size_t i = 0; i < n; i++) {
                char p[PATHLEN], q[PATHLEN];
                json_object *e = json_object_array_get_idx(list, i), *v;
                const char *type;
                oci_idx(p, ".process.rlimits", i);
                if (oci_want(c, e, p, json_type_object, "an object") < 0 ||
                    oci_get_str(c, e, p, "type", &type) < 0)
                        return -1;
                int res = -1;
                for (int k = 0; type && k < SPEC_NLIMITS; k++)
                        if (!strncmp(type, "RLIMIT_", 7) && spec_limit_name(k) &&
                            !strcasecmp(type + 7, spec_limit_name(k)))
                                res = k;
                oci_sub(q, p, "type");
                if (res < 0)
                        return oci_bad(c, q, "'%s' is not a limit crib knows (RLIMIT_NOFILE, ...)",
                                       type ? type : "");
                struct spec_limit *l = &c->s->limits[res];
                if (l->set)
                        return oci_bad(c, q, "%s is given twice", type);
                oci_sub(q, p, "soft");
                if (!(v = oci_member(e, "soft")) || oci_as_u64(c, v, q, &l->soft) < 0)
                        return v ? -1 : oci_bad(c, q, "is missing");
                oci_sub(q, p, "hard");
                if (!(v = oci_member(e, "hard")) || oci_as_u64(c, v, q, &l->hard) < 0)
                        return v ? -1 : oci_bad(c, q, "is missing");
                if (l->soft > l->hard)
                        return oci_bad(c, p, "soft is above hard");
                l->set = true;
                oci_set_from(c->s, spec_limit_key(res));
        }
        return 0;
}

/* .process's program: args, env, cwd, terminal */
static int process_program(struct oci_ctx *c, json_object *proc)
{
        json_object *list;
        const char *cwd;
        int r;
        bool b;
        if ((r = oci_get_strings(c, proc, ".process", "args", OCI_MAX_ARGS, &list)) < 0)
                return -1;
        if (!r || !json_object_array_length(list))
                return oci_bad(c, ".process.args",
                               "is missing or empty: crib needs a program to run");
        if (!(c->s->args = oci_strv_of(list)))
                return oci_nomem(c);
        if (!c->s->args[0][0])
                return oci_bad(c, ".process.args[0]", "is empty");
        oci_set_from(c->s, SPEC_KEY_PROCESS_ARGS);
        if ((r = oci_get_strings(c, proc, ".process", "env", SPEC_MAX_ENV, &list)) < 0)
                return -1;
        if (r) {
                for (size_t i = 0; i < json_object_array_length(list); i++) {
                        const char *e = json_object_get_string(json_object_array_get_idx(list, i));
                        if (!strchr(e, '=') || e[0] == '=') {
                                char p[PATHLEN];
                                oci_idx(p, ".process.env", i);
                                return oci_bad(c, p, "'%s' is not NAME=VALUE", e);
                        }
                }
                if (!(c->s->env = oci_strv_of(list)))
                        return oci_nomem(c);
                c->s->nenv = json_object_array_length(list);
                oci_set_from(c->s, SPEC_KEY_PROCESS_ENV);
        }
        if ((r = oci_get_str(c, proc, ".process", "cwd", &cwd)) < 0)
                return -1;
        if (r) {
                if (!syntax_clean_path(cwd))
                        return oci_bad(c, ".process.cwd",
                                       "'%s' is not an absolute path without '..'", cwd);
                if (!(c->s->cwd = strdup(cwd)))
                        return oci_nomem(c);
                oci_set_from(c->s, SPEC_KEY_PROCESS_CWD);
        }
        c->s->terminal = TERMINAL_NO;
        if ((r = oci_get_bool(c, proc, ".process", "terminal", &b)) < 0)
                return -1;
        if (r && b)
                c->s->terminal = TERMINAL_YES;
        oci_set_from(c->s, SPEC_KEY_PROCESS_TERMINAL);
        return 0;
}

/* .process's security settings, and what crib refuses */
static int process_security(struct oci_ctx *c, json_object *proc)
{
        const char *aa, *label;
        int r;
        int64_t v;
        c->s->no_new_privileges = false;
        if (oci_get_bool(c, proc, ".process", "noNewPrivileges", &c->s->no_new_privileges) < 0)
                return -1;
        oci_set_from(c->s, SPEC_KEY_SECURITY_NO_NEW_PRIVILEGES);
        if ((r = oci_get_str(c, proc, ".process", "apparmorProfile", &aa)) < 0)
                return -1;
        if (r && aa[0]) {
                if (strlen(aa) > 200)
                        return oci_bad(c, ".process.apparmorProfile",
                                       "is longer than 200 characters");
                if (!(c->s->apparmor = strdup(aa)))
                        return oci_nomem(c);
                c->s->apparmor_require = true; /* asked for by name: applied, or an error */
        }
        oci_set_from(c->s, SPEC_KEY_SECURITY_APPARMOR);
        if ((r = oci_get_int(c, proc, ".process", "oomScoreAdj", -1000, 1000, &v)) < 0)
                return -1;
        /* the setup writes it for the container's processes (steps/oom.c); an exec gets the
         * container's, as under runc 1.1 */
        c->s->oom_score_adj_set = r > 0;
        c->s->oom_score_adj = r > 0 ? (int)v : 0;
        if (oci_get_str(c, proc, ".process", "selinuxLabel", &label) < 0)
                return -1;
        if (label && label[0])
                return oci_bad(c, ".process.selinuxLabel", "crib has no SELinux support");
        if (oci_member(proc, "ioPriority") || oci_member(proc, "scheduler") ||
            oci_member(proc, "execCPUAffinity"))
                return oci_bad(c,
                               oci_member(proc, "ioPriority")  ? ".process.ioPriority"
                               : oci_member(proc, "scheduler") ? ".process.scheduler"
                                                               : ".process.execCPUAffinity",
                               "is not supported by crib yet");
        return 0;
}

int oci_process(struct oci_ctx *c, json_object *cfg)
{
        json_object *proc = oci_member(cfg, "process");
        if (!proc)
                return oci_bad(c, ".process", "is missing: crib needs a program to run");
        if (oci_want(c, proc, ".process", json_type_object, "an object") < 0)
                return -1;
        if (process_program(c, proc) < 0 || oci_user(c, proc) < 0 ||
            oci_capabilities(c, proc) < 0 || oci_rlimits(c, proc) < 0 ||
            process_security(c, proc) < 0)
                return -1;
        return 0;
}
