/* ociresources.c - config.json's .linux.resources into crib's cgroup limits (cgroup v2's
 * memory.max, memory.swap.max, cpu.max, cpu.weight, pids.max, io.weight), converted as runc and
 * crun convert cgroup v1's numbers; the device rules are checked against crib's own /dev; see
 * oci.h.
 *
 * The same reader serves `update --resources` (oci_load_resources): there -1 lifts a limit
 * (CGROUP_MAX) and a value not given is left as it is.
 */
#define _GNU_SOURCE
#include "parse.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Device rules crib's own /dev already gives (plan.c): null, zero, full, random, urandom, tty,
 * and the container's ptys; and /dev/console (5:1), in containerd's and Docker's defaults,
 * which crib never makes (runc binds a terminal's pty there), so the rule lets nothing in. */
bool oci_crib_device(json_object *e)
{
        json_object *ma = oci_member(e, "major"), *mi = oci_member(e, "minor"),
                    *t = oci_member(e, "type");
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

/* .devices: crib's /dev holds only its own nodes, so a deny, or an allow of one of them,
 * changes nothing; any other allow is refused */
static int res_devices(struct oci_ctx *c, json_object *o, struct cgroup_limits *l)
{
        (void)l;
        if (oci_want(c, o, ".linux.resources.devices", json_type_array, "a list") < 0)
                return -1;
        for (size_t i = 0; i < json_object_array_length(o); i++) {
                json_object *e = json_object_array_get_idx(o, i);
                char q[PATHLEN];
                bool allow = false;
                oci_idx(q, ".linux.resources.devices", i);
                if (oci_want(c, e, q, json_type_object, "an object") < 0 ||
                    oci_get_bool(c, e, q, "allow", &allow) < 0)
                        return -1;
                if (allow && !oci_crib_device(e))
                        return oci_bad(c, q, "allowing this device is not supported by crib yet");
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
        static const char *const unsupported[] = {"reservation", "kernel", "kernelTCP",
                                                  "swappiness"};
        for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
                if (oci_member(o, unsupported[i])) {
                        char q[PATHLEN];
                        oci_sub(q, m, unsupported[i]);
                        return oci_bad(c, q, "is not supported by crib yet");
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
        if (oci_get_str(c, o, cp, "cpus", &set) < 0)
                return -1;
        if (set && set[0])
                return oci_bad(c, ".linux.resources.cpu.cpus", "is not supported by crib yet");
        if (oci_get_str(c, o, cp, "mems", &set) < 0)
                return -1;
        if (set && set[0])
                return oci_bad(c, ".linux.resources.cpu.mems", "is not supported by crib yet");
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
        {"devices", res_devices}, /* crib's /dev: nothing to limit, only to check */
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
