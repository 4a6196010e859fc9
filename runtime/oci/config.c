/* config.c - config.json (OCI runtime spec 1.x) into crib's spec; see oci.h.
 *
 * The entry points: oci_load (config.json), oci_load_process (`exec --process`'s process.json)
 * and oci_load_resources (`update --resources`), which read their file with json.c and give it
 * to the readers of its parts, one file each in the order of the runtime spec's config.md:
 * .root and .hostname and .annotations here, .process (ociprocess.c), .mounts (ocimounts.c), .linux
 * (linux.c, with ociseccomp.c and ociresources.c), .hooks (ocihooks.c). Each reader takes the JSON
 * path it reads, so an error says which value was wrong. The spec is then checked as any spec is
 * (spec_check).
 */
#define _GNU_SOURCE
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int oci_root(struct oci_ctx *c, json_object *cfg)
{
        json_object *root = oci_member(cfg, "root");
        const char *path;
        if (!root)
                return oci_bad(c, ".root", "is missing: the bundle's root filesystem");
        if (oci_want(c, root, ".root", json_type_object, "an object") < 0)
                return -1;
        int r = oci_get_str(c, root, ".root", "path", &path);
        if (r < 0)
                return -1;
        if (r == 0 || !path[0])
                return oci_bad(c, ".root.path", "is missing: the bundle's root filesystem");
        if (!(c->s->rootfs = strdup(path)))
                return oci_nomem(c);
        oci_set_from(c->s, SPEC_KEY_CONTAINER_ROOTFS);
        if ((r = oci_get_bool(c, root, ".root", "readonly", &c->s->readonly_rootfs)) < 0)
                return -1;
        if (r)
                oci_set_from(c->s, SPEC_KEY_CONTAINER_READONLY_ROOTFS);
        return 0;
}

static int oci_hostname(struct oci_ctx *c, json_object *cfg)
{
        const char *h, *d;
        int r = oci_get_str(c, cfg, "", "hostname", &h);
        if (r < 0 || oci_get_str(c, cfg, "", "domainname", &d) < 0)
                return -1;
        if (d && d[0])
                return oci_bad(c, ".domainname", "is not supported by crib yet");
        if (r == 0 || !h[0])
                return 0;
        size_t n = strlen(h);
        bool ok = n <= 64 && h[0] != '-' && h[0] != '.';
        for (size_t i = 0; ok && i < n; i++)
                ok = isalnum((unsigned char)h[i]) || h[i] == '-' || h[i] == '.';
        if (!ok)
                return oci_bad(c, ".hostname",
                               "'%s' is not a host name (letters, digits, '-' and "
                               "'.', at most 64)",
                               h);
        if (!(c->s->hostname = strdup(h)))
                return oci_nomem(c);
        oci_set_from(c->s, SPEC_KEY_CONTAINER_HOSTNAME);
        return 0;
}

static int oci_annotations(struct oci_ctx *c, json_object *cfg, char **ret)
{
        json_object *a = oci_member(cfg, "annotations");
        const char *text = "{}";
        if (a) {
                if (oci_want(c, a, ".annotations", json_type_object, "an object") < 0)
                        return -1;
                json_object_object_foreach(a, k, v)
                {
                        if (!v || !json_object_is_type(v, json_type_string)) {
                                char q[PATHLEN];
                                snprintf(q, sizeof q, ".annotations[\"%.60s\"]", k);
                                return oci_bad(c, q, "must be a string");
                        }
                }
                text = json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN |
                                                                 JSON_C_TO_STRING_NOSLASHESCAPE);
                if (strlen(text) > OCI_MAX_ANNOTATIONS_JSON)
                        return oci_bad(c, ".annotations", "are over %d bytes",
                                       OCI_MAX_ANNOTATIONS_JSON);
        }
        if (!(*ret = strdup(text)))
                return oci_nomem(c);
        return 0;
}

int oci_load_process(const char *path, FILE *f, struct oci_process *ret, struct error *err)
{
        struct oci_process op = {0};
        struct spec *s = &op.spec;
        struct oci_ctx c = {.s = s, .err = err, .process_file = true};
        int r = -1;

        error_clear(err);
        spec_init(s);
        s->front = SPEC_FRONT_OCI;
        if (!(s->path = strdup(path)))
                return error_set(err, ENOMEM, "cannot allocate");
        /* the process object is the file: as config.json's .process, so one reader serves */
        json_object *proc;
        json_object *cfg = oci_read_under(&c, path, f, "process", &proc);
        if (!cfg)
                goto out;
        op.has_caps = oci_member(proc, "capabilities") != NULL;
        op.has_rlimits = oci_member(proc, "rlimits") != NULL;
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
        struct oci_ctx c = {.s = &s, .err = err, .update = true};
        int r = -1;

        error_clear(err);
        spec_init(&s);
        s.front = SPEC_FRONT_OCI;
        if (!(s.path = strdup(path)))
                return error_set(err, ENOMEM, "cannot allocate");
        /* the file is what config.json has at .linux.resources, so one reader serves */
        json_object *res;
        json_object *lx = oci_read_under(&c, path, f, "resources", &res);
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
        struct oci_ctx c = {.s = s, .err = err};
        json_object *cfg = NULL;
        int r = -1;

        error_clear(err);
        spec_init(s);
        s->front = SPEC_FRONT_OCI;
        s->init = false; /* as runc: the process is the container's pid 1 */
        s->apparmor_require = false;
        /* as runc: a device no rule of .linux.resources.devices allows does not open, a list
         * given or not (its standard nodes and .linux.devices' aside) */
        s->dev_rules_set = true;
        if (!(s->path = strdup(path)))
                return error_set(err, ENOMEM, "cannot allocate");
        if (!(cfg = oci_read_object(&c, path, f)))
                goto out;
        const char *version;
        if (oci_get_str(&c, cfg, "", "ociVersion", &version) < 0)
                goto out;
        if (!version || strncmp(version, "1.", 2)) {
                oci_bad(&c, ".ociVersion", "'%s' is not a version 1 of the OCI runtime spec",
                        version ? version : "(missing)");
                goto out;
        }
        if (oci_root(&c, cfg) < 0 || oci_process(&c, cfg) < 0 || oci_hostname(&c, cfg) < 0 ||
            oci_mounts(&c, cfg) < 0 || oci_linux(&c, cfg) < 0 ||
            oci_hooks(&c, cfg, &oc.hooks) < 0 || oci_annotations(&c, cfg, &oc.annotations) < 0)
                goto out;
        if (s->hostname && !s->ns_uts) {
                oci_bad(&c, ".hostname", "needs a uts namespace in .linux.namespaces");
                goto out;
        }
        if (!s->ns_user && (s->uidmap.n || s->gidmap.n)) {
                oci_bad(&c, ".linux.uidMappings", "needs a user namespace in .linux.namespaces");
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
