/* keys.c - the spec key table: each `section.key` of crib.ini(5), the parser of its value and
 * the field it sets; where each key's value came from (struct spec_origin). Pure. See spec.h
 * and keys.h. */
#include "keys.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/resource.h>

#include "levels.h"

#define F(field) offsetof(struct spec, field)

/* The spec's keys, in the order crib.ini(5) documents them; each row named by its enum
 * spec_key (spec.h). */
#define KEY(id, section, name, parse, offset, flags)                                               \
        [SPEC_KEY_##id] = {section, name, parse, offset, flags}
const struct key spec_keys[] = {
        KEY(CONTAINER_ROOTFS, "container", "rootfs", parse_string, F(rootfs), 0),
        KEY(CONTAINER_IMAGE, "container", "image", parse_string, F(image), 0),
        KEY(CONTAINER_HOSTNAME, "container", "hostname", parse_hostname, F(hostname), 0),
        KEY(CONTAINER_READONLY_ROOTFS, "container", "readonly_rootfs", parse_bool,
            F(readonly_rootfs), 0),
        KEY(PROCESS_ARGS, "process", "args", parse_args, 0, 0),
        KEY(PROCESS_ENV, "process", "env", parse_env, 0, KEY_REPEAT),
        KEY(PROCESS_CWD, "process", "cwd", parse_abs_path, F(cwd), 0),
        KEY(PROCESS_USER, "process", "user", parse_user, 0, 0),
        KEY(PROCESS_GROUPS, "process", "groups", parse_groups, 0, 0),
        KEY(PROCESS_UMASK, "process", "umask", parse_umask, 0, 0),
        KEY(PROCESS_TERMINAL, "process", "terminal", parse_terminal, 0, 0),
        KEY(PROCESS_INIT, "process", "init", parse_bool, F(init), 0),
        KEY(PROCESS_PASS_FDS, "process", "pass_fds", parse_fds, 0, 0),
        KEY(NAMESPACES_USER, "namespaces", "user", parse_bool, F(ns_user), 0),
        KEY(NAMESPACES_MOUNT, "namespaces", "mount", parse_mount_ns, 0, 0),
        KEY(NAMESPACES_PID, "namespaces", "pid", parse_bool, F(ns_pid), 0),
        KEY(NAMESPACES_IPC, "namespaces", "ipc", parse_bool, F(ns_ipc), 0),
        KEY(NAMESPACES_UTS, "namespaces", "uts", parse_bool, F(ns_uts), 0),
        KEY(NAMESPACES_NET, "namespaces", "net", parse_bool, F(ns_net), 0),
        KEY(NAMESPACES_CGROUP, "namespaces", "cgroup", parse_bool, F(ns_cgroup), 0),
        KEY(IDMAP_UID, "idmap", "uid", parse_idmap, F(uidmap), KEY_REPEAT),
        KEY(IDMAP_GID, "idmap", "gid", parse_idmap, F(gidmap), KEY_REPEAT),
        KEY(MOUNTS_BIND, "mounts", "bind", parse_bind, 0, KEY_REPEAT),
        KEY(MOUNTS_TMPFS, "mounts", "tmpfs", parse_tmpfs, 0, KEY_REPEAT),
        KEY(MOUNTS_CGROUP, "mounts", "cgroup", parse_cgroup_mount, 0, 0),
        KEY(SECURITY_LEVEL, "security", "level", parse_level, 0, 0),
        KEY(SECURITY_CAPABILITIES, "security", "capabilities", parse_caps, 0, 0),
        KEY(SECURITY_NO_NEW_PRIVILEGES, "security", "no_new_privileges", parse_bool,
            F(no_new_privileges), 0),
        KEY(SECURITY_MASKED_PATHS, "security", "masked_paths", parse_paths, F(masked), 0),
        KEY(SECURITY_READONLY_PATHS, "security", "readonly_paths", parse_paths, F(readonly), 0),
        KEY(SECURITY_SECCOMP, "security", "seccomp", parse_seccomp, 0, 0),
        KEY(SECURITY_SECCOMP_MODE, "security", "seccomp_mode", parse_mode, F(seccomp_require), 0),
        KEY(SECURITY_APPARMOR, "security", "apparmor", parse_apparmor, 0, 0),
        KEY(SECURITY_APPARMOR_MODE, "security", "apparmor_mode", parse_mode, F(apparmor_require),
            0),
/* [limits]: the field is the RLIMIT_* number, and the enum follows RLIMIT_* (spec_limit_key) */
#define LIMIT(ID, name) KEY(LIMITS_##ID, "limits", name, parse_limit, RLIMIT_##ID, 0)
        LIMIT(CPU, "cpu"),
        LIMIT(FSIZE, "fsize"),
        LIMIT(DATA, "data"),
        LIMIT(STACK, "stack"),
        LIMIT(CORE, "core"),
        LIMIT(RSS, "rss"),
        LIMIT(NPROC, "nproc"),
        LIMIT(NOFILE, "nofile"),
        LIMIT(MEMLOCK, "memlock"),
        LIMIT(AS, "as"),
        LIMIT(LOCKS, "locks"),
        LIMIT(SIGPENDING, "sigpending"),
        LIMIT(MSGQUEUE, "msgqueue"),
        LIMIT(NICE, "nice"),
        LIMIT(RTPRIO, "rtprio"),
        LIMIT(RTTIME, "rttime"),
#undef LIMIT
        KEY(RESOURCES_MEMORY, "resources", "memory", parse_res_bytes, F(resources.memory_max), 0),
        KEY(RESOURCES_MEMORY_HIGH, "resources", "memory_high", parse_res_bytes,
            F(resources.memory_high), 0),
        KEY(RESOURCES_MEMORY_SWAP, "resources", "memory_swap", parse_res_bytes,
            F(resources.memory_swap), 0),
        KEY(RESOURCES_MEMORY_LOW, "resources", "memory_low", parse_res_bytes,
            F(resources.memory_low), 0),
        KEY(RESOURCES_CPUS, "resources", "cpus", parse_cpus, 0, 0),
        KEY(RESOURCES_CPU_WEIGHT, "resources", "cpu_weight", parse_weight, F(resources.cpu_weight),
            0),
        KEY(RESOURCES_PIDS, "resources", "pids", parse_pids, 0, 0),
        KEY(RESOURCES_IO_WEIGHT, "resources", "io_weight", parse_weight, F(resources.io_weight), 0),
        KEY(RESOURCES_CPUSET_CPUS, "resources", "cpuset_cpus", parse_cpuset,
            F(resources.cpuset_cpus), 0),
        KEY(RESOURCES_CPUSET_MEMS, "resources", "cpuset_mems", parse_cpuset,
            F(resources.cpuset_mems), 0),
        KEY(RESOURCES_MODE, "resources", "resources_mode", parse_mode, F(resources_require), 0),
        KEY(NETWORK_MODE, "network", "mode", parse_net_mode, 0, 0),
        KEY(NETWORK_PUBLISH, "network", "publish", parse_publish, 0, KEY_REPEAT),
        KEY(NETWORK_DNS, "network", "dns", parse_dns, 0, KEY_REPEAT),
        KEY(NETWORK_HOST_LOOPBACK, "network", "host_loopback", parse_bool, F(host_loopback), 0),
        KEY(SERVICE_RESTART, "service", "restart", parse_restart, 0, 0),
        KEY(SERVICE_HEALTHCHECK, "service", "healthcheck", parse_healthcheck, 0, 0),
        KEY(SERVICE_HEALTHCHECK_INTERVAL, "service", "healthcheck_interval", parse_duration,
            F(health.interval_ms), 0),
        KEY(SERVICE_HEALTHCHECK_TIMEOUT, "service", "healthcheck_timeout", parse_duration,
            F(health.timeout_ms), 0),
        KEY(SERVICE_HEALTHCHECK_RETRIES, "service", "healthcheck_retries", parse_retries,
            F(health.retries), 0),
        KEY(SERVICE_HEALTHCHECK_START_PERIOD, "service", "healthcheck_start_period", parse_duration,
            F(health.start_period_ms), 0),
        KEY(SERVICE_ON_UNHEALTHY, "service", "on_unhealthy", parse_on_unhealthy, 0, 0),
        KEY(SERVICE_NOTIFY, "service", "notify", parse_notify, 0, 0),
};
#undef KEY
_Static_assert(sizeof spec_keys / sizeof spec_keys[0] == SPEC_NKEYS,
               "the key table and enum spec_key disagree");
#define SAME_ORDER(ID)                                                                             \
        _Static_assert(SPEC_KEY_LIMITS_##ID - SPEC_KEY_LIMITS_CPU == RLIMIT_##ID,                  \
                       "enum spec_key's [limits] follow RLIMIT_*")
SAME_ORDER(FSIZE);
SAME_ORDER(DATA);
SAME_ORDER(STACK);
SAME_ORDER(CORE);
SAME_ORDER(RSS);
SAME_ORDER(NPROC);
SAME_ORDER(NOFILE);
SAME_ORDER(MEMLOCK);
SAME_ORDER(AS);
SAME_ORDER(LOCKS);
SAME_ORDER(SIGPENDING);
SAME_ORDER(MSGQUEUE);
SAME_ORDER(NICE);
SAME_ORDER(RTPRIO);
SAME_ORDER(RTTIME);
#undef SAME_ORDER
_Static_assert(SPEC_KEY_LIMITS_RTTIME - SPEC_KEY_LIMITS_CPU == SPEC_NLIMITS - 1,
               "one [limits] key per RLIMIT_*");

const char *const spec_sections[] = {"container", "process", "namespaces", "idmap",   "mounts",
                                     "security",  "limits",  "resources",  "network", "service"};
const size_t spec_nsections = sizeof spec_sections / sizeof spec_sections[0];

bool spec_key_at(size_t i, const char **ret_section, const char **ret_key)
{
        if (i >= NKEYS || !spec_keys[i].section)
                return false;
        *ret_section = spec_keys[i].section;
        *ret_key = spec_keys[i].name;
        return true;
}

enum spec_key spec_limit_key(int resource)
{
        return (enum spec_key)(SPEC_KEY_LIMITS_CPU + resource);
}

const struct spec_origin *spec_origin(const struct spec *s, enum spec_key k)
{
        return &s->origins[k];
}

bool spec_in_file(const struct spec *s, enum spec_key k)
{
        return s->origins[k].kind == SPEC_FROM_FILE;
}

unsigned spec_line(const struct spec *s, enum spec_key k)
{
        return spec_in_file(s, k) ? s->origins[k].line : 0;
}

void spec_origin_text(const struct spec *s, enum spec_key k, char *buf, size_t len)
{
        const struct spec_origin *o = &s->origins[k];
        const char *level = levels_name(o->level);
        switch (o->kind) {
        case SPEC_FROM_DEFAULT:
                snprintf(buf, len, "built-in default");
                break;
        case SPEC_FROM_LEVEL:
                snprintf(buf, len, "level %s (profiles/levels/%s:%u)", level ? level : "?",
                         level ? level : "?", o->line);
                break;
        case SPEC_FROM_FILE:
                snprintf(buf, len, "%s:%u", s->path, o->line);
                break;
        case SPEC_FROM_CLI:
                snprintf(buf, len, "command line");
                break;
        }
}
