/* limits.c - the parsers of [limits] (setrlimit(2) values, soft and hard) and [resources]
 * (cgroup v2 limits: memory, CPUs, weights, pids, cpusets). Pure. See keys.h. */
#include "keys.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* --- [limits] ---------------------------------------------------------------------------- */

static const char *const limit_names[SPEC_NLIMITS] = {
        [RLIMIT_CPU] = "cpu",           [RLIMIT_FSIZE] = "fsize",
        [RLIMIT_DATA] = "data",         [RLIMIT_STACK] = "stack",
        [RLIMIT_CORE] = "core",         [RLIMIT_RSS] = "rss",
        [RLIMIT_NPROC] = "nproc",       [RLIMIT_NOFILE] = "nofile",
        [RLIMIT_MEMLOCK] = "memlock",   [RLIMIT_AS] = "as",
        [RLIMIT_LOCKS] = "locks",       [RLIMIT_SIGPENDING] = "sigpending",
        [RLIMIT_MSGQUEUE] = "msgqueue", [RLIMIT_NICE] = "nice",
        [RLIMIT_RTPRIO] = "rtprio",     [RLIMIT_RTTIME] = "rttime",
};

const char *spec_limit_name(int resource)
{
        return resource >= 0 && resource < SPEC_NLIMITS ? limit_names[resource] : NULL;
}

/* "unlimited", or a number with an optional k, m or g (powers of 1024). */
static int limit_value(const char *v, uint64_t *ret)
{
        char *end;
        if (!strcmp(v, "unlimited") || !strcmp(v, "infinity")) {
                *ret = RLIM_INFINITY;
                return 0;
        }
        if (!isdigit((unsigned char)*v))
                return -1;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 10);
        unsigned shift = 0;
        if (*end == 'k' || *end == 'K')
                shift = 10;
        else if (*end == 'm' || *end == 'M')
                shift = 20;
        else if (*end == 'g' || *end == 'G')
                shift = 30;
        if (errno || (shift && end[1]) || (!shift && *end) || n > (RLIM_INFINITY - 1) >> shift)
                return -1;
        *ret = (uint64_t)n << shift;
        return 0;
}

int parse_limit(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        struct spec_limit *l = &s->limits[k->offset];
        char buf[128];
        if (strlen(e->value) >= sizeof buf)
                return bad_value(err, s, e, "limit '%s' is too long", e->value);
        strcpy(buf, e->value);
        char *colon = strchr(buf, ':');
        if (colon)
                *colon = '\0';
        if (limit_value(buf, &l->soft) < 0 || limit_value(colon ? colon + 1 : buf, &l->hard) < 0)
                return bad_value(err, s, e,
                                 "limit '%s' must be a number (k, m, g allowed), 'unlimited', or "
                                 "SOFT:HARD, not '%s'",
                                 k->name, e->value);
        if (l->soft > l->hard)
                return bad_value(err, s, e, "limit '%s': the soft value is above the hard one",
                                 k->name);
        l->set = true;
        return 0;
}

/* --- [resources] ------------------------------------------------------------------------- */

/* Bytes: a number with K, M, G or T (powers of 1024), or max. */
static int bytes_value(const char *v, int64_t *ret)
{
        if (!strcmp(v, "max")) {
                *ret = CGROUP_MAX;
                return 0;
        }
        if (!isdigit((unsigned char)*v))
                return -1;
        char *end;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 10);
        const char *units = "KMGT";
        const char *u = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
        unsigned shift = u ? 10 * (unsigned)(u - units + 1) : 0;
        if (errno || (*end && (!u || end[1])) || n > (unsigned long long)(INT64_MAX >> shift))
                return -1;
        *ret = (int64_t)(n << shift);
        return 0;
}

int parse_res_bytes(struct spec *s, const struct key *k, const struct ini_entry *e,
                    struct error *err)
{
        int64_t v;
        if (bytes_value(e->value, &v) < 0)
                return bad_value(err, s, e,
                                 "'%s' must be a size in bytes (K, M, G, T allowed, as in 256M) "
                                 "or max, not '%s'",
                                 k->name, e->value);
        *FIELD(s, k, int64_t) = v;
        s->resources.need |= CGROUP_BIT(CGROUP_MEMORY);
        return 0;
}

int parse_cpus(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        (void)k;
        char *end;
        errno = 0;
        double v = strtod(e->value, &end);
        if (errno || *end || !isdigit((unsigned char)e->value[0]) || v < 0.01 || v > 1024)
                return bad_value(err, s, e,
                                 "'cpus' must be a number of CPUs from 0.01 to 1024, as in 1.5, "
                                 "not '%s'",
                                 e->value);
        s->resources.cpu_period = 100000;
        s->resources.cpu_quota = (uint32_t)(v * 100000 + 0.5);
        s->resources.need |= CGROUP_BIT(CGROUP_CPU);
        return 0;
}

int parse_weight(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        uint32_t v;
        if (parse_u32(e->value, 10000, &v) < 0 || v < 1)
                return bad_value(err, s, e, "'%s' must be a number from 1 to 10000, not '%s'",
                                 k->name, e->value);
        *FIELD(s, k, uint32_t) = v;
        s->resources.need |= CGROUP_BIT(!strcmp(k->name, "io_weight") ? CGROUP_IO : CGROUP_CPU);
        return 0;
}

int parse_pids(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        (void)k;
        uint32_t v;
        if (!strcmp(e->value, "max"))
                s->resources.pids_max = CGROUP_MAX;
        else if (parse_u32(e->value, 4194304, &v) == 0 && v >= 1)
                s->resources.pids_max = v;
        else
                return bad_value(err, s, e,
                                 "'pids' must be a number of processes from 1 up, or max, not "
                                 "'%s'",
                                 e->value);
        s->resources.need |= CGROUP_BIT(CGROUP_PIDS);
        return 0;
}

bool spec_cpuset_list_valid(const char *v)
{
        if (!v[0] || strlen(v) >= CGROUP_LIST_LEN)
                return false;
        for (const char *p = v;;) {
                char *end;
                if (!isdigit((unsigned char)*p))
                        return false;
                errno = 0;
                unsigned long a = strtoul(p, &end, 10), b = a;
                if (*end == '-') {
                        if (!isdigit((unsigned char)end[1]))
                                return false;
                        b = strtoul(end + 1, &end, 10);
                }
                if (errno || b < a || b > 65535)
                        return false;
                if (!*end)
                        return true;
                if (*end != ',')
                        return false;
                p = end + 1;
        }
}

int parse_cpuset(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        if (!spec_cpuset_list_valid(e->value))
                return bad_value(err, s, e,
                                 "'%s' must be a list of %s numbers and ranges, as in 0-1,3, not "
                                 "'%s'",
                                 k->name, !strcmp(k->name, "cpuset_cpus") ? "CPU" : "memory node",
                                 e->value);
        snprintf(FIELD(s, k, char), CGROUP_LIST_LEN, "%s", e->value);
        s->resources.need |= CGROUP_BIT(CGROUP_CPUSET);
        return 0;
}
