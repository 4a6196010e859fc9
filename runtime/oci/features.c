/* features.c - what crib's OCI front end implements, as `runc features` prints it.
 *
 * The runtime spec's "Features structure" (features.md): an engine (containerd reads it) learns
 * from it what the runtime takes, before it writes a config.json. It is about crib, not about
 * this host: what the kernel offers is `crib check`'s. Each list comes from the table the
 * parser itself uses (the hooks of ocihooks.c, the namespaces of linux.c, the capability
 * names of base/capname.c, the mount options of ocimounts.c), so it cannot say more than create
 * accepts. A property crib cannot state exactly (seccomp's actions and architectures) is left
 * out, which the spec reads as "unknown", not "none". runc 1.1 prints no list of sysctls, nor
 * does the spec define one: which crib sets is crib(1)'s and docs/oci.md's to say.
 */
#define _GNU_SOURCE
#include "oci.h"

#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/capname.h"

static json_object *strings(const char *const *list, size_t n)
{
        json_object *a = json_object_new_array();
        for (size_t i = 0; a && i < n; i++)
                json_object_array_add(a, json_object_new_string(list[i]));
        return a;
}

static json_object *enabled(bool on)
{
        json_object *o = json_object_new_object();
        json_object_object_add(o, "enabled", json_object_new_boolean(on));
        return o;
}

/* "CAP_CHOWN", ...: every capability crib knows by name */
static json_object *capabilities(void)
{
        json_object *a = json_object_new_array();
        for (int c = 0; a && c < 64; c++) {
                const char *name = capname_of(c);
                char full[64];
                if (!name || isdigit((unsigned char)name[0]))
                        break; /* past the last name crib knows */
                snprintf(full, sizeof full, "CAP_%s", name);
                json_object_array_add(a, json_object_new_string(full));
        }
        return a;
}

char *oci_features(void)
{
        json_object *f = json_object_new_object(), *lx = json_object_new_object();
        if (!f || !lx)
                return NULL;
        /* the version `crib oci --version` says, and the first of version 1 (config.c takes
         * any 1.x) */
        json_object_object_add(f, "ociVersionMin", json_object_new_string("1.0.0"));
        json_object_object_add(f, "ociVersionMax", json_object_new_string("1.0.2"));
        const char *hooks[OCI_HOOK_KINDS];
        size_t nh = 0;
        for (int k = 0; k < OCI_HOOK_KINDS; k++) /* crib runs every kind */
                hooks[nh++] = oci_hook_name(k);
        json_object_object_add(f, "hooks", strings(hooks, nh));
        /* the options themselves, not the engine's marks (z, Z) nor a tmpfs's data */
        const char *opts[32];
        size_t no = 0;
        for (size_t i = 0; i < oci_nmount_options && no < sizeof opts / sizeof opts[0]; i++)
                if (oci_mount_options[i].kind != OCI_MOPT_ENGINE)
                        opts[no++] = oci_mount_options[i].name;
        json_object_object_add(f, "mountOptions", strings(opts, no));
        json_object_object_add(lx, "namespaces", strings(oci_namespace_types, OCI_NAMESPACE_TYPES));
        json_object_object_add(lx, "capabilities", capabilities());
        /* cgroup v2 only (v1 is refused: docs/oci.md), cgroupsPath as a path or, with
         * --systemd-cgroup, systemd's SLICE:PREFIX:NAME (cgroupspath.c) */
        json_object *cg = json_object_new_object();
        json_object_object_add(cg, "v1", json_object_new_boolean(0));
        json_object_object_add(cg, "v2", json_object_new_boolean(1));
        json_object_object_add(cg, "systemd", json_object_new_boolean(1));
        json_object_object_add(lx, "cgroup", cg);
        json_object_object_add(lx, "apparmor", enabled(true));
        json_object_object_add(lx, "selinux", enabled(false));
        json_object_object_add(lx, "intelRdt", enabled(false));
        json_object_object_add(f, "linux", lx);
        const char *text = json_object_to_json_string_ext(
                f, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
        char *ret = text ? strdup(text) : NULL;
        json_object_put(f);
        return ret;
}
