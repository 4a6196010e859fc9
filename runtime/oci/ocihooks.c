/* ocihooks.c - config.json's .hooks, checked and kept as compact JSON for the state directory,
 * and read back a kind at a time for the runtime to run (launch/hooks.c runs one); see oci.h.
 *
 * crib runs every kind (oci.h says where each runs): the ones in the runtime's namespaces from
 * the front end (runtime/container/), createContainer and startContainer from the container's
 * own processes (the plan carries them: runtime/steps/ocihooks_in.c). Each list, argv and
 * environment has a limit.
 */
#define _GNU_SOURCE
#include "parse.h"
#include "base/syntax.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const hook_kinds[OCI_HOOK_KINDS] = {
        "prestart", "createRuntime", "createContainer", "startContainer", "poststart", "poststop"};

const char *oci_hook_name(enum oci_hook_kind kind)
{
        return kind >= 0 && kind < OCI_HOOK_KINDS ? hook_kinds[kind] : NULL;
}

/* .hooks: each kind checked in full and kept as compact JSON for the state directory */
int oci_hooks(struct oci_ctx *c, json_object *cfg, char **ret)
{
        json_object *hooks = oci_member(cfg, "hooks");
        *ret = NULL;
        if (!hooks)
                return 0;
        if (oci_want(c, hooks, ".hooks", json_type_object, "an object") < 0)
                return -1;
        for (int k = 0; k < OCI_HOOK_KINDS; k++) {
                char p[PATHLEN], q[PATHLEN];
                json_object *list = oci_member(hooks, hook_kinds[k]);
                oci_sub(p, ".hooks", hook_kinds[k]);
                if (!list)
                        continue;
                if (oci_want(c, list, p, json_type_array, "a list") < 0)
                        return -1;
                size_t n = json_object_array_length(list);
                if (n > OCI_MAX_HOOKS)
                        return oci_bad(c, p, "has %zu hooks; crib takes at most %d", n,
                                       OCI_MAX_HOOKS);
                for (size_t i = 0; i < n; i++) {
                        json_object *h = json_object_array_get_idx(list, i), *l;
                        const char *path;
                        int64_t t;
                        oci_idx(q, p, i);
                        if (oci_want(c, h, q, json_type_object, "an object") < 0 ||
                            oci_get_str(c, h, q, "path", &path) < 0 ||
                            oci_get_strings(c, h, q, "args", OCI_MAX_HOOK_ARGS, &l) < 0 ||
                            oci_get_strings(c, h, q, "env", OCI_MAX_HOOK_ARGS, &l) < 0 ||
                            oci_get_int(c, h, q, "timeout", 1, 3600, &t) < 0)
                                return -1;
                        if (!path || !syntax_clean_path(path)) {
                                char r[PATHLEN];
                                oci_sub(r, q, "path");
                                return oci_bad(c, r, "'%s' is not an absolute path without '..'",
                                               path ? path : "(missing)");
                        }
                }
        }
        const char *text = json_object_to_json_string_ext(
                hooks, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        if (strlen(text) > OCI_MAX_HOOKS_JSON)
                return oci_bad(c, ".hooks", "is over %d KiB", OCI_MAX_HOOKS_JSON >> 10);
        if (!(*ret = strdup(text)))
                return oci_nomem(c);
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
                o->args = json_object_object_get_ex(h, "args", &v) ? oci_strv_of(v) : NULL;
                o->env = json_object_object_get_ex(h, "env", &v) ? oci_strv_of(v) : NULL;
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
