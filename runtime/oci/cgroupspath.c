/* cgroupspath.c - an OCI config's linux.cgroupsPath, in runc's reading or systemd's
 * SLICE:PREFIX:NAME, as a path of the cgroup v2 hierarchy; see oci.h.
 *
 * The front end's grammar, not a cgroup mechanism: pure string work, no call to the kernel, so
 * it sits with the OCI front end (the caller says whether it is root; the plan puts the path
 * below the hierarchy it found, plan_cgroup_path). systemd's own rules for where a unit's
 * cgroup goes (systemd.slice(5): the dashes of a slice's name nest it) are followed without
 * asking systemd: crib makes the cgroups itself.
 */
#define _GNU_SOURCE
#include "oci.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* systemd's place for a slice: "a-b-c.slice" is /a.slice/a-b.slice/a-b-c.slice, "-.slice" the
 * root (""); appended to out */
static int expand_slice(const char *slice, char *out, size_t len, struct error *err)
{
        size_t sl = strlen(slice), used = strlen(out);
        if (!strcmp(slice, "-.slice"))
                return 0;
        if (sl <= 6 || strcmp(slice + sl - 6, ".slice") || strchr(slice, '/') || slice[0] == '-' ||
            strstr(slice, "--") || slice[sl - 7] == '-' || !strncmp(slice, "..", 2))
                return error_set(err, EINVAL,
                                 "'%s' is not a systemd slice (NAME.slice, its parents joined by "
                                 "dashes)",
                                 slice);
        for (size_t i = 0; i < sl - 6; i++) {
                if (slice[i] != '-' && i != sl - 7)
                        continue;
                int n = snprintf(out + used, len - used, "/%.*s.slice",
                                 (int)(slice[i] == '-' ? i : i + 1), slice);
                if (n < 0 || (size_t)n >= len - used)
                        return error_set(err, ENAMETOOLONG, "'%s' is too long", slice);
                used += (size_t)n;
        }
        return 0;
}

int cgroup_oci_path(const char *cgroups_path, bool systemd, bool root, char *buf, size_t len,
                    struct error *err)
{
        char out[1024] = "";
        size_t used = 0;
        const char *c1 = strchr(cgroups_path, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (systemd && c2 && !strchr(c2 + 1, ':')) {
                /* SLICE:PREFIX:NAME: the scope PREFIX-NAME.scope in SLICE, or the slice NAME
                 * (whose own name says where it is) */
                char slice[256], prefix[256], name[256];
                if ((size_t)(c1 - cgroups_path) >= sizeof slice ||
                    (size_t)(c2 - c1 - 1) >= sizeof prefix || strlen(c2 + 1) >= sizeof name)
                        return error_set(err, ENAMETOOLONG, "'%s' is too long", cgroups_path);
                snprintf(slice, sizeof slice, "%.*s", (int)(c1 - cgroups_path), cgroups_path);
                snprintf(prefix, sizeof prefix, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
                snprintf(name, sizeof name, "%s", c2 + 1);
                if (!slice[0])
                        snprintf(slice, sizeof slice, "%s", root ? "system.slice" : "user.slice");
                if (!name[0] || strchr(name, '/') || strchr(prefix, '/') || !strcmp(name, ".") ||
                    !strcmp(name, ".."))
                        return error_set(err, EINVAL, "'%s' is not a unit name", name);
                size_t nl = strlen(name);
                if (nl > 6 && !strcmp(name + nl - 6, ".slice")) {
                        if (expand_slice(name, out, sizeof out, err) < 0)
                                return -1;
                } else {
                        if (expand_slice(slice, out, sizeof out, err) < 0)
                                return -1;
                        used = strlen(out);
                        int n = snprintf(out + used, sizeof out - used, "/%s%s%s.scope", prefix,
                                         prefix[0] ? "-" : "", name);
                        if (n < 0 || (size_t)n >= sizeof out - used)
                                return error_set(err, ENAMETOOLONG, "'%s' is too long",
                                                 cgroups_path);
                }
        } else {
                /* a path: its components, no "." or "..", one slash between them */
                const char *p = cgroups_path;
                while (*p) {
                        while (*p == '/')
                                p++;
                        size_t n = strcspn(p, "/");
                        if (!n)
                                break;
                        if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
                                return error_set(err, EINVAL,
                                                 "'%s' has a '.' or '..' component: crib takes "
                                                 "only a plain path",
                                                 cgroups_path);
                        int w = snprintf(out + used, sizeof out - used, "%s%.*s",
                                         used || cgroups_path[0] == '/' ? "/" : "", (int)n, p);
                        if (w < 0 || (size_t)w >= sizeof out - used)
                                return error_set(err, ENAMETOOLONG, "'%s' is too long",
                                                 cgroups_path);
                        used += (size_t)w;
                        p += n;
                }
        }
        if (!out[0] || !strcmp(out, "/"))
                return error_set(err, EINVAL, "'%s' names no cgroup below the hierarchy's root",
                                 cgroups_path);
        if (strlen(out) >= len)
                return error_set(err, ENAMETOOLONG, "'%s' is too long", cgroups_path);
        snprintf(buf, len, "%s", out);
        return 0;
}
