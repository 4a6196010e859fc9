/* limits.c - a container's limits, written when its cgroup is made (tree.c) and changed while
 * it runs (crib oci update).
 *
 * Kernel features: the cgroup v2 controllers' files memory.max, memory.high, memory.swap.max,
 * memory.low, cpu.max and cpu.weight (cpu in cgroup v2: Linux 4.15), pids.max, io.weight,
 * cpuset.cpus and cpuset.mems (cpuset in cgroup v2: Linux 5.0). A limit is written
 * to NAME, where the container cannot reach it, and a copy to NAME/container for programs that
 * read them from inside.
 */
#define _GNU_SOURCE
#include "cgroup.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void cgroup_format_bytes(int64_t v, char *buf, size_t len)
{
        static const char units[] = "KMGT";
        if (v == CGROUP_MAX) {
                snprintf(buf, len, "max");
                return;
        }
        int u = -1;
        while (u < 3 && v >= 1024 && v % 1024 == 0) {
                v /= 1024;
                u++;
        }
        if (u < 0)
                snprintf(buf, len, "%" PRId64, v);
        else
                snprintf(buf, len, "%" PRId64 "%c", v, units[u]);
}

static void value(int64_t v, char *buf, size_t len)
{
        if (v == CGROUP_MAX)
                snprintf(buf, len, "max");
        else
                snprintf(buf, len, "%" PRId64, v);
}

/* cpuset.WHAT (cpus or mems) = list, unless "": the kernel takes only CPUs and memory nodes this
 * machine has (EINVAL, or ERANGE), which the parent's cpuset.WHAT.effective lists */
static int write_cpuset(const char *dir, const char *what, const char *list, struct trace *t,
                        struct error *err)
{
        char file[32], have[256] = "";
        if (!list[0])
                return 0;
        snprintf(file, sizeof file, "cpuset.%s", what);
        if (cgroup_write_file(dir, file, list, t, err) == 0)
                return 0;
        if (err->errnum != EINVAL && err->errnum != ERANGE) /* ERANGE: past the kernel's bitmap */
                return -1;
        char path[1300];
        snprintf(path, sizeof path, "%s/../cpuset.%s.effective", dir, what);
        FILE *f = fopen(path, "re");
        if (f) {
                if (!fgets(have, sizeof have, f))
                        have[0] = '\0';
                have[strcspn(have, "\n")] = '\0';
                fclose(f);
        }
        return error_hint(err, "the %s this machine offers the container are %s",
                          !strcmp(what, "cpus") ? "CPUs" : "memory nodes",
                          have[0] ? have : "in cpuset.*.effective of its parent cgroup");
}

int cgroup_write_limits(const char *dir, const struct cgroup_limits *l, struct trace *t,
                        struct error *err)
{
        char v[64];
        const struct {
                const char *file;
                int64_t v;
        } sizes[] = {
                {"memory.max", l->memory_max},       {"memory.high", l->memory_high},
                {"memory.swap.max", l->memory_swap}, {"memory.low", l->memory_low},
                {"pids.max", l->pids_max},
        };
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                if (sizes[i].v == CGROUP_UNSET)
                        continue;
                value(sizes[i].v, v, sizeof v);
                if (cgroup_write_file(dir, sizes[i].file, v, t, err) < 0)
                        return -1;
        }
        if (l->cpu_quota) { /* period 0 (an update without one): the cgroup's stays */
                int n = l->cpu_quota == CGROUP_CPU_MAX ? snprintf(v, sizeof v, "max")
                                                       : snprintf(v, sizeof v, "%u", l->cpu_quota);
                if (l->cpu_period)
                        snprintf(v + n, sizeof v - (size_t)n, " %u", l->cpu_period);
                if (cgroup_write_file(dir, "cpu.max", v, t, err) < 0)
                        return -1;
        }
        if (l->cpu_weight) {
                snprintf(v, sizeof v, "%u", l->cpu_weight);
                if (cgroup_write_file(dir, "cpu.weight", v, t, err) < 0)
                        return -1;
        }
        if (l->io_weight) {
                snprintf(v, sizeof v, "default %u", l->io_weight);
                if (cgroup_write_file(dir, "io.weight", v, t, err) < 0)
                        return -1;
        }
        if (write_cpuset(dir, "cpus", l->cpuset_cpus, t, err) < 0 ||
            write_cpuset(dir, "mems", l->cpuset_mems, t, err) < 0)
                return -1;
        return 0;
}

/* The cgroup a container's controllers are enabled from, down to its leaf: for an engine's
 * path the plan's top (cgroup_make_at's); for crib's own names the hierarchy's root as root
 * (cgroup_make enables it for crib's base) and the delegated base as a user. -1 when leaf is
 * not that deep. */
static int top_of(const char *leaf, const char *top, char *buf, size_t len)
{
        snprintf(buf, len, "%s", top && top[0] ? top : leaf);
        for (int up = top && top[0] ? 0 : geteuid() == 0 ? 2 : 1; up > 0; up--) {
                char *slash = strrchr(buf, '/');
                if (!slash || slash == buf)
                        return -1;
                *slash = '\0';
        }
        return 0;
}

unsigned cgroup_available_to(const char *leaf, const char *top)
{
        char dir[1024];
        return top_of(leaf, top, dir, sizeof dir) < 0 ? 0 : cgroup_controllers(dir);
}

/* Every file cgroup_write_limits would write for `l` is in dir, or an error naming the first that
 * is not (memory.swap.max without swap accounting, for one) */
static int limit_files_exist(const char *dir, const struct cgroup_limits *l, struct error *err)
{
        const struct {
                bool set;
                const char *file;
        } files[] = {
                {l->memory_max != CGROUP_UNSET, "memory.max"},
                {l->memory_high != CGROUP_UNSET, "memory.high"},
                {l->memory_swap != CGROUP_UNSET, "memory.swap.max"},
                {l->memory_low != CGROUP_UNSET, "memory.low"},
                {l->pids_max != CGROUP_UNSET, "pids.max"},
                {l->cpu_quota != 0, "cpu.max"},
                {l->cpu_weight != 0, "cpu.weight"},
                {l->io_weight != 0, "io.weight"},
                {l->cpuset_cpus[0] != '\0', "cpuset.cpus"},
                {l->cpuset_mems[0] != '\0', "cpuset.mems"},
        };
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
                char path[1300];
                snprintf(path, sizeof path, "%s/%s", dir, files[i].file);
                if (files[i].set && access(path, W_OK) < 0)
                        return error_set(err, errno, "cannot write '%s'", path);
        }
        return 0;
}

int cgroup_update(const char *leaf, const char *top, const struct cgroup_limits *l, struct trace *t,
                  struct error *err)
{
        /* the controllers, as the container's cgroup was made: from its top down to the leaf,
         * whose only child holds the processes */
        char from[1024], inner[1200];
        if (top_of(leaf, top, from, sizeof from) < 0)
                return error_set(err, EINVAL, "'%s' is not a container's cgroup", leaf);
        snprintf(inner, sizeof inner, "%s/container", leaf);
        unsigned have = cgroup_controllers(from);
        for (int c = 0; c < CGROUP_NCTRL; c++)
                if ((l->need & CGROUP_BIT(c)) && !(have & CGROUP_BIT(c)))
                        return error_set(err, 0, "the %s controller is not available to '%s'",
                                         cgroup_ctrl_name(c), leaf);
        if (cgroup_walk_down(from, leaf, l->need, false, t, err) < 0 ||
            cgroup_enable(leaf, l->need, t, err) < 0)
                return -1;
        /* every file there before any is written: a failure changes no limit */
        if (limit_files_exist(leaf, l, err) < 0 || limit_files_exist(inner, l, err) < 0)
                return -1;
        if (cgroup_write_limits(leaf, l, t, err) < 0)
                return -1;
        /* the copy the container reads; the leaf's hold */
        return cgroup_write_limits(inner, l, t, err);
}
