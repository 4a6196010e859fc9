/* phrase.c - a setting in the words of the user who can change it; see phrase.h.
 *
 * No kernel feature: a table and string formatting. The engine's flags are podman's (docker
 * takes the same), named only where one flag obviously sets the value; containerd's ctr has
 * flags of its own, and the config.json path says it for every engine.
 */
#define _GNU_SOURCE
#include "phrase.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* One change of a setting: its crib.ini words; its config.json words, with %s for the path;
 * the flag of `podman run` for it, which either sets the value (the change is to leave it out)
 * or is itself the change. */
struct way {
        const char *ini;
        const char *oci;
        const char *flag;
        bool flag_sets;
};

struct row {
        const char *json;    /* the path in config.json, NULL: it has no such setting */
        const char *off_ini; /* a namespace that is off, as a message names it */
        const char *off_oci;
        struct way off, on, own;
};

#define LEAVE_OUT(ini_words, flag_name)                                                            \
        {                                                                                          \
                (ini_words), "leave out %s", (flag_name), true                                     \
        }
#define LIMIT(path, flag_name)                                                                     \
        {                                                                                          \
                .json = (path), .off = LEAVE_OUT("set resources_mode = prefer", (flag_name))       \
        }
#define NAMESPACE(key, name, flag_name)                                                            \
        {                                                                                          \
                .json = ".linux.namespaces", .off_ini = key " = no",                               \
                .off_oci = "no " name " namespace",                                                \
                .off = {"set " key " = no in [namespaces]",                                        \
                        "leave the " name " namespace out of %s", (flag_name), false},             \
                .on = { "set " key " = yes in [namespaces]",                                       \
                        "add a " name " namespace to %s",                                          \
                        NULL,                                                                      \
                        false }                                                                    \
        }

static const struct row rows[SPEC_NKEYS] = {
        [SPEC_KEY_CONTAINER_ROOTFS] = {.json = ".root.path"},
        [SPEC_KEY_CONTAINER_READONLY_ROOTFS] = {.json = ".root.readonly",
                                                .on = {"set readonly_rootfs = yes",
                                                       "set %s to true", "--read-only", false}},
        [SPEC_KEY_PROCESS_USER] = {.json = ".process.user"},
        /* (the config.json words name the map, not the groups: it is the map that is short) */
        [SPEC_KEY_PROCESS_GROUPS] = {.json = ".process.user.additionalGids",
                                     .on = {"use 'gid = auto' in [idmap] (through newgidmap)",
                                            "map more gids than your own in .linux.gidMappings, "
                                            "through newgidmap (rootless podman maps your "
                                            "/etc/subgid range)",
                                            NULL, false}},
        [SPEC_KEY_NAMESPACES_USER] =
                {.json = ".linux.namespaces",
                 .off_ini = "user = no",
                 .off_oci = "no user namespace",
                 .off = {"set user = no in [namespaces]", "leave the user namespace out of %s",
                         "--userns=host", false},
                 .on = {"remove 'user = no' to run as yourself in a user namespace",
                        "add a user namespace to %s, with .linux.uidMappings and "
                        ".linux.gidMappings (rootless podman does)",
                        NULL, false}},
        [SPEC_KEY_NAMESPACES_PID] = NAMESPACE("pid", "pid", "--pid=host"),
        [SPEC_KEY_NAMESPACES_IPC] = NAMESPACE("ipc", "ipc", "--ipc=host"),
        [SPEC_KEY_NAMESPACES_UTS] = NAMESPACE("uts", "uts", "--uts=host"),
        [SPEC_KEY_NAMESPACES_NET] = NAMESPACE("net", "network", "--network=host"),
        [SPEC_KEY_NAMESPACES_CGROUP] = NAMESPACE("cgroup", "cgroup", "--cgroupns=host"),
        [SPEC_KEY_IDMAP_UID] = {.json = ".linux.uidMappings",
                                .on = {"map it in [idmap] (for example 'uid = auto' to use your "
                                       "/etc/subuid range)",
                                       "map it in %s (rootless podman maps your /etc/subuid "
                                       "range)",
                                       NULL, false},
                                .own = {"use 'uid = auto', or map only ranges listed in "
                                        "/etc/subuid",
                                        "map only ranges listed in /etc/subuid in %s (rootless "
                                        "podman maps them)",
                                        NULL, false}},
        [SPEC_KEY_IDMAP_GID] = {.json = ".linux.gidMappings",
                                .on = {"map it in [idmap] (for example 'gid = auto')",
                                       "map it in %s (rootless podman maps your /etc/subgid "
                                       "range)",
                                       NULL, false},
                                .own = {"use 'gid = auto', or map only ranges listed in "
                                        "/etc/subgid",
                                        "map only ranges listed in /etc/subgid in %s (rootless "
                                        "podman maps them)",
                                        NULL, false}},
        [SPEC_KEY_MOUNTS_BIND] = {.json = ".mounts",
                                  .on = {"bind your own in [mounts]", "bind your own in %s",
                                         "--volume", false}},
        [SPEC_KEY_SECURITY_CAPABILITIES] = {.json = ".process.capabilities"},
        [SPEC_KEY_SECURITY_SECCOMP] = {.json = ".linux.seccomp",
                                       .off = {"set seccomp = unconfined in [security]",
                                               "leave out %s", "--security-opt seccomp=unconfined",
                                               false}},
        [SPEC_KEY_SECURITY_SECCOMP_MODE] = {.json = ".linux.seccomp",
                                            .off = {"set seccomp_mode = prefer", "leave out %s",
                                                    "--security-opt seccomp=unconfined", false}},
        [SPEC_KEY_SECURITY_APPARMOR] = {.json = ".process.apparmorProfile",
                                        .off = {"set apparmor = unconfined in [security]",
                                                "leave out %s",
                                                "--security-opt apparmor=unconfined", false}},
        [SPEC_KEY_SECURITY_APPARMOR_MODE] = {.json = ".process.apparmorProfile",
                                             .off = {"set apparmor_mode = prefer", "leave out %s",
                                                     "--security-opt apparmor=unconfined", false}},
        [SPEC_KEY_LIMITS_CPU... SPEC_KEY_LIMITS_RTTIME] = {.json = ".process.rlimits"},
        [SPEC_KEY_RESOURCES_MEMORY] = LIMIT(".linux.resources.memory.limit", "--memory"),
        [SPEC_KEY_RESOURCES_MEMORY_HIGH] = {.off = {"set resources_mode = prefer", NULL, NULL,
                                                    false}},
        [SPEC_KEY_RESOURCES_MEMORY_SWAP] = LIMIT(".linux.resources.memory.swap", "--memory-swap"),
        [SPEC_KEY_RESOURCES_MEMORY_LOW] =
                LIMIT(".linux.resources.memory.reservation", "--memory-reservation"),
        [SPEC_KEY_RESOURCES_CPUS] = LIMIT(".linux.resources.cpu.quota", "--cpus"),
        [SPEC_KEY_RESOURCES_CPU_WEIGHT] = LIMIT(".linux.resources.cpu.shares", "--cpu-shares"),
        [SPEC_KEY_RESOURCES_PIDS] = LIMIT(".linux.resources.pids.limit", "--pids-limit"),
        [SPEC_KEY_RESOURCES_IO_WEIGHT] = LIMIT(".linux.resources.blockIO.weight", "--blkio-weight"),
        [SPEC_KEY_RESOURCES_CPUSET_CPUS] = LIMIT(".linux.resources.cpu.cpus", "--cpuset-cpus"),
        [SPEC_KEY_RESOURCES_CPUSET_MEMS] = LIMIT(".linux.resources.cpu.mems", "--cpuset-mems"),
        [SPEC_KEY_RESOURCES_MODE] = LIMIT(".linux.resources", NULL),
        /* crib.ini's alone: an engine gives a container its network itself */
        [SPEC_KEY_NETWORK_MODE] = {.off = {"set mode = none in [network]", NULL, NULL, false}},
        [SPEC_KEY_NETWORK_HOST_LOOPBACK] = {.on = {"set host_loopback = yes in [network]", NULL,
                                                   NULL, false}},
};

const char *phrase_json(enum spec_key k)
{
        return (unsigned)k < SPEC_NKEYS ? rows[k].json : NULL;
}

static const struct way *way_of(enum spec_key k, enum phrase_way way)
{
        if ((unsigned)k >= SPEC_NKEYS)
                return NULL;
        const struct way *w = way == PHRASE_ON    ? &rows[k].on
                              : way == PHRASE_OWN ? &rows[k].own
                                                  : &rows[k].off;
        return w->ini ? w : NULL;
}

/* append to buf (len bytes, NUL-terminated), cut at its end */
static void add(char *buf, size_t len, const char *fmt, ...) CRIB_PRINTF(3, 4);
static void add(char *buf, size_t len, const char *fmt, ...)
{
        size_t used = strnlen(buf, len);
        if (used + 1 >= len)
                return;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf + used, len - used, fmt, ap);
        va_end(ap);
}

const char *phrase_change_all(enum spec_front f, const enum spec_key *keys, size_t n,
                              enum phrase_way way, char *buf, size_t len)
{
        const struct way *first = n ? way_of(keys[0], way) : NULL;
        if (!len)
                return buf;
        buf[0] = '\0';
        if (!first)
                return buf;
        /* crib.ini's words, or a front end without them in the table (the key is crib.ini's
         * alone: an engine's spec never has it set) */
        if (f == SPEC_FRONT_INI || !first->oci || !rows[keys[0]].json) {
                snprintf(buf, len, "%s", first->ini);
                return buf;
        }
        char paths[512] = "", flags[256] = "";
        size_t nflags = 0;
        for (size_t i = 0; i < n; i++) {
                const struct way *w = way_of(keys[i], way);
                const char *json = rows[keys[i]].json;
                if (!w || !json || (i && strstr(paths, json)))
                        continue;
                add(paths, sizeof paths, "%s%s", paths[0] ? " and " : "", json);
                if (w->flag && !strstr(flags, w->flag)) {
                        add(flags, sizeof flags, "%s%s", flags[0] ? ", " : "", w->flag);
                        nflags++;
                }
        }
        snprintf(buf, len, first->oci, paths);
        if (nflags)
                add(buf, len, " (%spodman run %s)", first->flag_sets ? "set by " : "", flags);
        return buf;
}

const char *phrase_change(enum spec_front f, enum spec_key k, enum phrase_way way, char *buf,
                          size_t len)
{
        return phrase_change_all(f, &k, 1, way, buf, len);
}

const char *phrase_at_most(enum spec_front f, enum spec_key k, const char *name, const char *value,
                           char *buf, size_t len)
{
        if (f == SPEC_FRONT_OCI && phrase_json(k))
                snprintf(buf, len, "at most %s in %s (podman run --ulimit %s=%s:%s)", value,
                         phrase_json(k), name, value, value);
        else
                snprintf(buf, len, "at most %s", value);
        return buf;
}

const char *phrase_section(enum spec_front f, enum spec_key k, char *buf, size_t len)
{
        const char *section = NULL, *key = NULL;
        if (f == SPEC_FRONT_OCI || !spec_key_at((size_t)k, &section, &key))
                snprintf(buf, len, "the config");
        else
                snprintf(buf, len, "[%s]", section);
        return buf;
}

const char *phrase_off(enum spec_front f, enum spec_key k)
{
        if ((unsigned)k >= SPEC_NKEYS || !rows[k].off_ini)
                return "";
        return f == SPEC_FRONT_OCI ? rows[k].off_oci : rows[k].off_ini;
}

static int error_of(struct error *err, const struct spec *s, enum spec_key k, unsigned line,
                    const char *text)
{
        const char *json = phrase_json(k);
        if (s->front == SPEC_FRONT_OCI && json)
                return error_at(err, s->path, 0, "%s: %s", json, text);
        return error_at(err, s->path, line ? line : spec_line(s, k), "%s", text);
}

int phrase_error(struct error *err, const struct spec *s, enum spec_key k, const char *fmt, ...)
{
        char text[sizeof err->msg];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(text, sizeof text, fmt, ap);
        va_end(ap);
        return error_of(err, s, k, 0, text);
}

int phrase_error_line(struct error *err, const struct spec *s, enum spec_key k, unsigned line,
                      const char *fmt, ...)
{
        char text[sizeof err->msg];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(text, sizeof text, fmt, ap);
        va_end(ap);
        return error_of(err, s, k, line, text);
}

const char *phrase_where(const struct spec *s, enum spec_key k, unsigned line, char *buf,
                         size_t len)
{
        const char *json = phrase_json(k);
        if (s->front == SPEC_FRONT_OCI && json)
                snprintf(buf, len, "%s: %s", s->path, json);
        else
                snprintf(buf, len, "%s:%u", s->path, line ? line : spec_line(s, k));
        return buf;
}
