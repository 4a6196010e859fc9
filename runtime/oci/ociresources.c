/* ociresources.c - config.json's .linux.resources into crib's cgroup limits (cgroup v2's
 * memory.max, memory.swap.max, memory.low, cpu.max, cpu.weight, pids.max, io.weight,
 * cpuset.cpus and cpuset.mems), converted as runc and crun convert cgroup v1's numbers; the device
 * rules, which the device program applies; see oci.h.
 *
 * The same reader serves `update --resources` (oci_load_resources): there -1 lifts a limit
 * (CGROUP_MAX) and a value not given is left as it is.
 */
#define _GNU_SOURCE
#include "parse.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* one rule's major or minor: absent or -1 is any */
static int dev_number(struct oci_ctx *c, json_object *e, const char *q, const char *key,
                      int64_t max, int64_t *ret)
{
        *ret = -1;
        return oci_get_int(c, e, q, key, -1, max, ret) < 0 ? -1 : 0;
}

/* .devices: the device rules, runc's way (spec.h: the last match wins, none denies), which the
 * device program applies (plan/confine.c, cgroup/devices.c). In an update they are checked and
 * left: the program made at create stays, as runc's update leaves the devices alone. */
static int res_devices(struct oci_ctx *c, json_object *o, struct cgroup_limits *l)
{
        (void)l;
        struct spec *s = c->s;
        if (oci_want(c, o, ".linux.resources.devices", json_type_array, "a list") < 0)
                return -1;
        size_t n = json_object_array_length(o);
        if (n > SPEC_MAX_DEVICE_RULES)
                return oci_bad(c, ".linux.resources.devices",
                               "has %zu rules; crib takes at most %d", n, SPEC_MAX_DEVICE_RULES);
        for (size_t i = 0; i < n; i++) {
                json_object *e = json_object_array_get_idx(o, i);
                struct cgroup_device_rule r = {.type = 'a'};
                const char *type = NULL, *access = NULL;
                char q[PATHLEN], k[PATHLEN];
                oci_idx(q, ".linux.resources.devices", i);
                if (oci_want(c, e, q, json_type_object, "an object") < 0 ||
                    oci_get_bool(c, e, q, "allow", &r.allow) < 0 ||
                    oci_get_str(c, e, q, "type", &type) < 0 ||
                    oci_get_str(c, e, q, "access", &access) < 0 ||
                    /* the kernel's numbers: 12 bits of major, 20 of minor */
                    dev_number(c, e, q, "major", 4095, &r.major) < 0 ||
                    dev_number(c, e, q, "minor", 1048575, &r.minor) < 0)
                        return -1;
                if (!oci_member(e, "allow")) {
                        oci_sub(k, q, "allow");
                        return oci_bad(c, k, "is missing");
                }
                if (type && type[0] && strcmp(type, "a") && strcmp(type, "c") &&
                    strcmp(type, "b")) {
                        oci_sub(k, q, "type");
                        return oci_bad(c, k, "'%.20s' is not 'a', 'c' or 'b'", type);
                }
                if (type && type[0])
                        r.type = type[0];
                /* none given: all three, as cgroup v1's "a" */
                for (const char *a = access && access[0] ? access : "rwm"; *a; a++) {
                        unsigned bit = *a == 'r'   ? CGROUP_DEV_READ
                                       : *a == 'w' ? CGROUP_DEV_WRITE
                                       : *a == 'm' ? CGROUP_DEV_MKNOD
                                                   : 0;
                        if (!bit) {
                                oci_sub(k, q, "access");
                                return oci_bad(c, k, "'%.20s' is not made of 'r', 'w' and 'm'",
                                               access);
                        }
                        r.access |= bit;
                }
                if (!c->update)
                        s->dev_rules[s->ndev_rules++] = r;
        }
        return 0;
}

/* .memory.swap: OCI's swap is memory plus swap; cgroup v2's swap.max is swap alone */
static int res_swap(struct oci_ctx *c, json_object *o, int64_t limit, struct cgroup_limits *l)
{
        int64_t swap;
        int r = oci_get_int(c, o, ".linux.resources.memory", "swap", -1, INT64_MAX, &swap);
        if (r <= 0)
                return r;
        if (swap != -1 && (!limit || limit == CGROUP_UNSET || limit == -1 || swap < limit))
                return oci_bad(c, ".linux.resources.memory.swap",
                               "must be -1, or at least .limit (memory plus swap)");
        if (swap != -1) {
                l->memory_swap = swap - limit;
                l->need |= CGROUP_BIT(CGROUP_MEMORY);
                oci_set_from(c->s, SPEC_KEY_RESOURCES_MEMORY_SWAP);
        } else if (c->update) {
                l->memory_swap = CGROUP_MAX;
                l->need |= CGROUP_BIT(CGROUP_MEMORY);
        }
        return 0;
}

/* .memory: memory.max and memory.swap.max */
static int res_memory(struct oci_ctx *c, json_object *o, struct cgroup_limits *l)
{
        const char *m = ".linux.resources.memory";
        int64_t limit = CGROUP_UNSET;
        int r;
        if (oci_want(c, o, m, json_type_object, "an object") < 0)
                return -1;
        if ((r = oci_get_int(c, o, m, "limit", -1, INT64_MAX, &limit)) < 0)
                return -1;
        if (r && limit != -1 && limit < 4096)
                return oci_bad(c, ".linux.resources.memory.limit", "is below 4096 bytes");
        if (r && limit != -1) { /* -1: no limit, nothing to apply */
                l->memory_max = limit;
                l->need |= CGROUP_BIT(CGROUP_MEMORY);
                oci_set_from(c->s, SPEC_KEY_RESOURCES_MEMORY);
        } else if (r && c->update) { /* -1 in an update: the limit lifted */
                l->memory_max = CGROUP_MAX;
                l->need |= CGROUP_BIT(CGROUP_MEMORY);
        }
        if (res_swap(c, o, limit, l) < 0)
                return -1;
        int64_t low = CGROUP_UNSET;
        if ((r = oci_get_int(c, o, m, "reservation", -1, INT64_MAX, &low)) < 0)
                return -1;
        if (r && low >= 0) { /* memory.low, as runc and crun set it on cgroup v2 */
                l->memory_low = low;
                l->need |= CGROUP_BIT(CGROUP_MEMORY);
                oci_set_from(c->s, SPEC_KEY_RESOURCES_MEMORY_LOW);
        } else if (r && c->update) { /* -1 in an update: the reservation lifted */
                l->memory_low = 0;
                l->need |= CGROUP_BIT(CGROUP_MEMORY);
        }
        /* cgroup v1's alone: cgroup v2 has no file for them (runc and crun warn or fail) */
        static const char *const unsupported[] = {"kernel", "kernelTCP", "swappiness"};
        for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
                if (oci_member(o, unsupported[i])) {
                        char q[PATHLEN];
                        oci_sub(q, m, unsupported[i]);
                        return oci_bad(c, q, "is cgroup v1's alone: cgroup v2 has no such limit");
                }
        bool b = false;
        if (oci_get_bool(c, o, m, "disableOOMKiller", &b) < 0)
                return -1;
        if (b)
                return oci_bad(c, ".linux.resources.memory.disableOOMKiller",
                               "cgroup v2 has no such switch");
        return 0;
}

/* .cpu.quota and .period: cpu.max */
static int res_cpu_max(struct oci_ctx *c, json_object *o, struct cgroup_limits *l)
{
        const char *cp = ".linux.resources.cpu";
        /* an update without a period keeps the container's (0 here) */
        int64_t quota = 0, period = c->update ? 0 : 100000;
        int r, rp;
        if ((rp = oci_get_int(c, o, cp, "period", 1000, 1000000, &period)) < 0 ||
            (r = oci_get_int(c, o, cp, "quota", -1, 0xfffffffeLL, &quota)) < 0)
                return -1;
        if (c->update && rp && (!r || quota == 0))
                return oci_bad(c, ".linux.resources.cpu.period",
                               "needs a quota beside it in an update (-1 for none)");
        if (r && quota > 0) {
                l->cpu_quota = (uint32_t)quota;
                l->cpu_period = (uint32_t)period;
                l->need |= CGROUP_BIT(CGROUP_CPU);
                oci_set_from(c->s, SPEC_KEY_RESOURCES_CPUS);
        } else if (r && quota == -1 && c->update) {
                l->cpu_quota = CGROUP_CPU_MAX;
                l->cpu_period = (uint32_t)period;
                l->need |= CGROUP_BIT(CGROUP_CPU);
        }
        return 0;
}

/* .cpu: cpu.weight and cpu.max */
static int res_cpu(struct oci_ctx *c, json_object *o, struct cgroup_limits *l)
{
        const char *cp = ".linux.resources.cpu";
        int64_t shares;
        const char *set;
        int r;
        if (oci_want(c, o, cp, json_type_object, "an object") < 0)
                return -1;
        if ((r = oci_get_int(c, o, cp, "shares", 2, 262144, &shares)) < 0)
                return -1;
        /* 1024 is cgroup v1's default, which containerd sends for every container:
         * no preference, so no cpu controller is needed for it */
        /* in an update 1024 is asked for: the weight it converts to */
        if (r && (shares != 1024 || c->update)) { /* the conversion runc and crun use */
                l->cpu_weight = (uint32_t)(1 + ((shares - 2) * 9999) / 262142);
                l->need |= CGROUP_BIT(CGROUP_CPU);
                oci_set_from(c->s, SPEC_KEY_RESOURCES_CPU_WEIGHT);
        }
        if (res_cpu_max(c, o, l) < 0)
                return -1;
        /* cpuset.cpus and cpuset.mems; "" leaves them as they are */
        static const struct {
                const char *key, *what;
                size_t field;
                enum spec_key from;
        } sets[] = {
                {"cpus", "CPUs", offsetof(struct cgroup_limits, cpuset_cpus),
                 SPEC_KEY_RESOURCES_CPUSET_CPUS},
                {"mems", "memory nodes", offsetof(struct cgroup_limits, cpuset_mems),
                 SPEC_KEY_RESOURCES_CPUSET_MEMS},
        };
        for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
                if (oci_get_str(c, o, cp, sets[i].key, &set) < 0)
                        return -1;
                if (!set || !set[0])
                        continue;
                if (!spec_cpuset_list_valid(set)) {
                        char q[PATHLEN];
                        oci_sub(q, cp, sets[i].key);
                        return oci_bad(c, q, "must be a list of %s and ranges, as \"0-1,3\"",
                                       sets[i].what);
                }
                snprintf((char *)l + sets[i].field, CGROUP_LIST_LEN, "%s", set);
                l->need |= CGROUP_BIT(CGROUP_CPUSET);
                oci_set_from(c->s, sets[i].from);
        }
        if (oci_member(o, "realtimeRuntime") || oci_member(o, "realtimePeriod") ||
            oci_member(o, "idle"))
                return oci_bad(c, cp, "realtime and idle settings are not supported by crib yet");
        return 0;
}

/* .pids: pids.max */
static int res_pids(struct oci_ctx *c, json_object *o, struct cgroup_limits *l)
{
        int64_t v;
        int r;
        if (oci_want(c, o, ".linux.resources.pids", json_type_object, "an object") < 0 ||
            (r = oci_get_int(c, o, ".linux.resources.pids", "limit", -1, 4194304, &v)) < 0)
                return -1;
        if (r && v == 0 && c->update)
                return oci_bad(c, ".linux.resources.pids.limit",
                               "0 means no change to runc and no limit to crun: give -1 "
                               "for no limit, or leave it out");
        if (r && v > 0) { /* 0 and -1: no limit, nothing to apply */
                l->pids_max = v;
                l->need |= CGROUP_BIT(CGROUP_PIDS);
                oci_set_from(c->s, SPEC_KEY_RESOURCES_PIDS);
        } else if (r && v == -1 && c->update) { /* in an update, -1 lifts it */
                l->pids_max = CGROUP_MAX;
                l->need |= CGROUP_BIT(CGROUP_PIDS);
        }
        return 0;
}

/* .blockIO: io.weight; the per-device settings are refused unless empty */
static int res_blockio(struct oci_ctx *c, json_object *o, struct cgroup_limits *l)
{
        int64_t v;
        int r;
        if (oci_want(c, o, ".linux.resources.blockIO", json_type_object, "an object") < 0 ||
            (r = oci_get_int(c, o, ".linux.resources.blockIO", "weight", 10, 1000, &v)) < 0)
                return -1;
        if (r) {
                l->io_weight = (uint32_t)(1 + (v - 10) * 9999 / 990);
                l->need |= CGROUP_BIT(CGROUP_IO);
                oci_set_from(c->s, SPEC_KEY_RESOURCES_IO_WEIGHT);
        }
        json_object_object_foreach(o, k, val)
        {
                if (strcmp(k, "weight") && val &&
                    !(json_object_is_type(val, json_type_array) &&
                      !json_object_array_length(val))) {
                        char q[PATHLEN];
                        oci_sub(q, ".linux.resources.blockIO", k);
                        return oci_bad(c, q, "is not supported by crib yet");
                }
        }
        return 0;
}

/* The members of .linux.resources crib reads, in the order they are checked (the first error
 * is the one reported) */
static const struct {
        const char *key;
        int (*read)(struct oci_ctx *c, json_object *o, struct cgroup_limits *l);
} members[] = {
        {"devices", res_devices}, /* the device program's rules */
        {"memory", res_memory},   /* memory.max, memory.swap.max */
        {"cpu", res_cpu},         /* cpu.weight, cpu.max */
        {"pids", res_pids},       /* pids.max */
        {"blockIO", res_blockio}, /* io.weight */
};

int oci_resources(struct oci_ctx *c, json_object *lx)
{
        json_object *res = oci_member(lx, "resources"), *o;
        struct cgroup_limits *l = &c->s->resources;
        const char *p = ".linux.resources";
        if (!res)
                return 0;
        if (oci_want(c, res, p, json_type_object, "an object") < 0)
                return -1;
        for (size_t i = 0; i < sizeof members / sizeof members[0]; i++)
                if ((o = oci_member(res, members[i].key)) && members[i].read(c, o, l) < 0)
                        return -1;
        static const char *const unsupported[] = {"hugepageLimits", "network", "rdma", "unified"};
        for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++) {
                json_object *u = oci_member(res, unsupported[i]);
                bool empty = u && ((json_object_is_type(u, json_type_array) &&
                                    !json_object_array_length(u)) ||
                                   (json_object_is_type(u, json_type_object) &&
                                    !json_object_object_length(u)));
                if (u && !empty) {
                        char q[PATHLEN];
                        oci_sub(q, p, unsupported[i]);
                        return oci_bad(c, q, "is not supported by crib yet");
                }
        }
        if (l->need)
                oci_set_from(c->s, SPEC_KEY_RESOURCES_MODE);
        return 0;
}
