/* ocispec.c - the config.json `crib oci spec` writes: a starting point a user edits, that crib
 * runs as it is (runc's `spec` has the same role and much the same content).
 *
 * Pure: it builds JSON with json-c from the tables below and the ids it is given; cmd/ writes
 * the file. No kernel feature is used here; what it describes is namespaces(7) (pid, network,
 * ipc, uts, mount, cgroup), the usual mounts of a container's /proc, /dev and /sys, a small
 * capability set (capabilities(7)) and, with `rootless`, a user namespace
 * (user_namespaces(7)) mapping the caller's own uid and gid to 0.
 *
 * The default, as root: a shell ("sh") on a terminal, as uid 0 with CAP_AUDIT_WRITE, CAP_KILL
 * and CAP_NET_BIND_SERVICE alone, no_new_privs, at most 1024 open files, a read-only "rootfs"
 * beside config.json, its own namespaces but no user namespace (so its root is the host's,
 * with what little the capabilities leave), the kernel's sensitive /proc and /sys files
 * masked or read-only, and every device refused to the cgroup's device rules.
 *
 * Rootless (a user, who cannot map other ids without newuidmap): a user namespace with the
 * caller's uid and gid as 0, and no network namespace of its own (the user could not give it
 * an interface), no cgroup resources (a user's cgroup is rarely delegated), and no uid=/gid=
 * mount options (those ids are not mapped). runc's --rootless also replaces the /sys mount
 * with a bind of the host's; crib keeps its own /sys either way (mounts.c binds the host's
 * read-only where the kernel refuses a sysfs), so the sysfs entry stays.
 */
#define _GNU_SOURCE
#include "ocispec.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

/* process.capabilities: each of its three sets */
static const char *const spec_caps[] = {"CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE"};

/* .mounts: destination, type, source, then options (NULL-terminated) */
#define SPEC_MAX_OPTS 8
static const struct {
        const char *dst, *type, *src;
        const char *opts[SPEC_MAX_OPTS];
} spec_mounts[] = {
        {"/proc", "proc", "proc", {NULL}},
        {"/dev", "tmpfs", "tmpfs", {"nosuid", "strictatime", "mode=755", "size=65536k", NULL}},
        {"/dev/pts",
         "devpts",
         "devpts",
         {"nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620", "gid=5", NULL}},
        {"/dev/shm",
         "tmpfs",
         "shm",
         {"nosuid", "noexec", "nodev", "mode=1777", "size=65536k", NULL}},
        {"/dev/mqueue", "mqueue", "mqueue", {"nosuid", "noexec", "nodev", NULL}},
        {"/sys", "sysfs", "sysfs", {"nosuid", "noexec", "nodev", "ro", NULL}},
        {"/sys/fs/cgroup",
         "cgroup",
         "cgroup",
         {"nosuid", "noexec", "nodev", "relatime", "ro", NULL}},
};

/* .linux.maskedPaths and .linux.readonlyPaths: what a container must not read, or write */
static const char *const spec_masked[] = {
        "/proc/acpi",
        "/proc/asound",
        "/proc/kcore",
        "/proc/keys",
        "/proc/latency_stats",
        "/proc/timer_list",
        "/proc/timer_stats",
        "/proc/sched_debug",
        "/proc/scsi",
        "/sys/firmware",
        "/sys/devices/virtual/tpm",
};
static const char *const spec_readonly[] = {"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys",
                                            "/proc/sysrq-trigger"};

static json_object *strings(const char *const *list, size_t n)
{
        json_object *a = json_object_new_array();
        for (size_t i = 0; a && i < n; i++)
                json_object_array_add(a, json_object_new_string(list[i]));
        return a;
}

#define STRINGS(list) strings(list, sizeof list / sizeof list[0])

static json_object *process(void)
{
        json_object *p = json_object_new_object(), *user = json_object_new_object(),
                    *caps = json_object_new_object(), *nofile = json_object_new_object(),
                    *rlimits = json_object_new_array();
        static const char *const args[] = {"sh"};
        static const char *const env[] = {
                "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "TERM=xterm"};
        json_object_object_add(p, "terminal", json_object_new_boolean(1));
        json_object_object_add(user, "uid", json_object_new_int(0));
        json_object_object_add(user, "gid", json_object_new_int(0));
        json_object_object_add(p, "user", user);
        json_object_object_add(p, "args", STRINGS(args));
        json_object_object_add(p, "env", STRINGS(env));
        json_object_object_add(p, "cwd", json_object_new_string("/"));
        static const char *const sets[] = {"bounding", "effective", "permitted"};
        for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
                json_object_object_add(caps, sets[i], STRINGS(spec_caps));
        json_object_object_add(p, "capabilities", caps);
        json_object_object_add(nofile, "type", json_object_new_string("RLIMIT_NOFILE"));
        json_object_object_add(nofile, "hard", json_object_new_int(1024));
        json_object_object_add(nofile, "soft", json_object_new_int(1024));
        json_object_array_add(rlimits, nofile);
        json_object_object_add(p, "rlimits", rlimits);
        json_object_object_add(p, "noNewPrivileges", json_object_new_boolean(1));
        return p;
}

static json_object *mounts(bool rootless)
{
        json_object *a = json_object_new_array();
        for (size_t i = 0; i < sizeof spec_mounts / sizeof spec_mounts[0]; i++) {
                json_object *m = json_object_new_object(), *opts = json_object_new_array();
                json_object_object_add(m, "destination",
                                       json_object_new_string(spec_mounts[i].dst));
                json_object_object_add(m, "type", json_object_new_string(spec_mounts[i].type));
                json_object_object_add(m, "source", json_object_new_string(spec_mounts[i].src));
                for (const char *const *o = spec_mounts[i].opts; *o; o++)
                        if (!rootless || (strncmp(*o, "uid=", 4) && strncmp(*o, "gid=", 4)))
                                json_object_array_add(opts, json_object_new_string(*o));
                if (json_object_array_length(opts))
                        json_object_object_add(m, "options", opts);
                else
                        json_object_put(opts);
                json_object_array_add(a, m);
        }
        return a;
}

/* [{"containerID":0,"hostID":ID,"size":1}] */
static json_object *map_to_root(unsigned id)
{
        json_object *a = json_object_new_array(), *m = json_object_new_object();
        json_object_object_add(m, "containerID", json_object_new_int(0));
        json_object_object_add(m, "hostID", json_object_new_int64(id));
        json_object_object_add(m, "size", json_object_new_int(1));
        json_object_array_add(a, m);
        return a;
}

static json_object *linux_part(bool rootless, unsigned uid, unsigned gid)
{
        json_object *lx = json_object_new_object(), *ns = json_object_new_array();
        static const char *const types[] = {"pid", "network", "ipc", "uts", "mount", "cgroup"};
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
                if (rootless && !strcmp(types[i], "network"))
                        continue;
                json_object *n = json_object_new_object();
                json_object_object_add(n, "type", json_object_new_string(types[i]));
                json_object_array_add(ns, n);
        }
        if (rootless) {
                json_object *n = json_object_new_object();
                json_object_object_add(n, "type", json_object_new_string("user"));
                json_object_array_add(ns, n);
                json_object_object_add(lx, "uidMappings", map_to_root(uid));
                json_object_object_add(lx, "gidMappings", map_to_root(gid));
        } else {
                /* every device refused, beyond those a container always has */
                json_object *res = json_object_new_object(), *devs = json_object_new_array(),
                            *all = json_object_new_object();
                json_object_object_add(all, "allow", json_object_new_boolean(0));
                json_object_object_add(all, "access", json_object_new_string("rwm"));
                json_object_array_add(devs, all);
                json_object_object_add(res, "devices", devs);
                json_object_object_add(lx, "resources", res);
        }
        json_object_object_add(lx, "namespaces", ns);
        json_object_object_add(lx, "maskedPaths", STRINGS(spec_masked));
        json_object_object_add(lx, "readonlyPaths", STRINGS(spec_readonly));
        return lx;
}

char *oci_spec_default(bool rootless, unsigned uid, unsigned gid)
{
        json_object *s = json_object_new_object(), *root = json_object_new_object();
        if (!s || !root)
                return NULL;
        json_object_object_add(s, "ociVersion", json_object_new_string("1.0.2"));
        json_object_object_add(root, "path", json_object_new_string("rootfs"));
        json_object_object_add(root, "readonly", json_object_new_boolean(1));
        json_object_object_add(s, "root", root);
        json_object_object_add(s, "process", process());
        json_object_object_add(s, "hostname", json_object_new_string("crib"));
        json_object_object_add(s, "mounts", mounts(rootless));
        json_object_object_add(s, "linux", linux_part(rootless, uid, gid));
        const char *text = json_object_to_json_string_ext(
                s,
                JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
        char *ret = text ? strdup(text) : NULL;
        json_object_put(s);
        return ret;
}
