/* ps.c - crib ps: the containers of the state root, as a table, INI sections or JSON.
 *
 *   crib ps [-a] [--format=table|ini|json]    the running (-a: all) containers
 *
 * Each row is the container's record (runtime/state/record.h), the published ports of its plan
 * and the usage of its own cgroup, when it has one.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "base/cleanup.h"
#include "lifecycle.h"
#include "output.h"
#include "state/record.h"
#include "state/state.h"
#include "state/store.h"

static int usage(const char *fmt, const char *arg)
{
        output_usage_error(fmt, arg);
        return EXIT_CRIB_ERROR;
}

struct row {
        struct record rec;
        enum store_status status;
        struct cgroup_usage use; /* of its own cgroup ([resources]), else all -1 */
        char ports[512];         /* its published ports, "" for none */
        bool has_health;         /* [service] healthcheck: its health record (record.h) */
        struct record_health health;
};

/* The published ports, from the plan the container was started with: "A:H->P/tcp, ...". */
static void ports_of(int dir, struct row *row)
{
        struct plan p;
        struct error err;
        row->ports[0] = '\0';
        if (store_read_plan(dir, &p, &err) < 0)
                return;
        for (size_t i = 0; i < p.nports; i++) {
                char one[64];
                size_t used = strlen(row->ports);
                spec_port_format(&p.ports[i], one, sizeof one);
                snprintf(row->ports + used, sizeof row->ports - used, "%s%s", i ? "," : "", one);
        }
        plan_free(&p);
}

/* The usage of a running container's own cgroup: the one its first process is in, when that
 * is named after the container (a container without [resources] stays in crib's). */
static void usage_of(struct row *row)
{
        const struct record *r = &row->rec;
        row->use = (struct cgroup_usage){-1, -1, -1};
        char path[1200], leaf[160];
        _cleanup_close_ int dir = -1;
        if (!r->pid_alive)
                return;
        snprintf(path, sizeof path, "/proc/%d", (int)r->pid);
        dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        cgroup_leaf("", r->name, leaf, sizeof leaf);
        /* its init runs in NAME/container; the limits and the counts are NAME's */
        char *tail = NULL;
        if (dir < 0 || cgroup_of(dir, path, sizeof path) < 0 || !(tail = strrchr(path, '/')) ||
            strcmp(tail, "/container"))
                return;
        *tail = '\0';
        if (!(tail = strrchr(path, '/')) || strcmp(tail, leaf) ||
            state_proc_start(r->pid) != r->pid_start)
                return;
        cgroup_usage_read(path, &row->use);
}

static void human_bytes(int64_t v, char *buf, size_t len)
{
        const char *units = "KMGT";
        double d = (double)v;
        int u = -1;
        while (d >= 1024 && u < 3) {
                d /= 1024;
                u++;
        }
        if (v < 0)
                snprintf(buf, len, "-");
        else if (u < 0)
                snprintf(buf, len, "%lldB", (long long)v);
        else
                snprintf(buf, len, "%.*f%c", d < 10 ? 1 : 0, d, units[u]);
}

static int by_created(const void *a, const void *b)
{
        const struct row *x = a, *y = b;
        if (x->rec.created != y->rec.created)
                return x->rec.created < y->rec.created ? -1 : 1;
        return strcmp(x->rec.name, y->rec.name);
}

static void when(int64_t t, char *buf, size_t len)
{
        time_t tt = (time_t)t;
        struct tm tm;
        if (!t || !localtime_r(&tt, &tm))
                snprintf(buf, len, "-");
        else
                strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

static void duration(int64_t s, char *buf, size_t len)
{
        if (s < 0)
                snprintf(buf, len, "-");
        else if (s < 60)
                snprintf(buf, len, "%llds", (long long)s);
        else if (s < 3600)
                snprintf(buf, len, "%lldm%02llds", (long long)s / 60, (long long)s % 60);
        else if (s < 86400)
                snprintf(buf, len, "%lldh%02lldm", (long long)s / 3600, (long long)s % 3600 / 60);
        else
                snprintf(buf, len, "%lldd%02lldh", (long long)s / 86400,
                         (long long)s % 86400 / 3600);
}

/* A state's name in crib's words: "created" until its program runs (crib's own container is
 * set up, or an engine's waits for crib oci start), then running, paused or stopped; the one
 * definition of each is store_status() (runtime/state/store.h). */
static const char *state_name(const struct row *row)
{
        if (row->status == STORE_STOPPED && row->rec.restarting)
                return "restarting"; /* its monitor waits out the backoff, or sets it up again */
        return row->status == STORE_CREATING ? "created" : store_status_name(row->status);
}

/* The table's STATE: with a health check, as podman's STATUS, "running (healthy)"; `state` and
 * `health` apart in INI and JSON */
static const char *state_cell(const struct row *row, char *buf, size_t len)
{
        if (!row->has_health || row->status != STORE_RUNNING)
                return state_name(row);
        snprintf(buf, len, "%s (%s)", state_name(row), row->health.status);
        return buf;
}

static int64_t uptime_of(const struct row *row)
{
        const struct record *r = &row->rec;
        if (!r->started || row->status == STORE_CREATING || row->status == STORE_CREATED)
                return -1;
        if (row->status != STORE_STOPPED)
                return (int64_t)time(NULL) - r->started;
        return r->finished ? r->finished - r->started : -1;
}

static void exit_text(const struct row *row, char *buf, size_t len)
{
        const struct record *r = &row->rec;
        if (r->has_exit)
                snprintf(buf, len, "%d", r->exit_status);
        else if (row->status == STORE_STOPPED && !r->restarting)
                snprintf(buf, len, "?");
        else
                snprintf(buf, len, "-");
}

static void print_table(const struct row *rows, size_t n)
{
        /* STATE is 10 wide, wider when a health check's "running (unhealthy)" needs it, so
         * the columns after it stay in line */
        int sw = 10;
        for (size_t i = 0; i < n; i++) {
                char cell[64];
                int w = (int)strlen(state_cell(&rows[i], cell, sizeof cell));
                if (w > sw)
                        sw = w;
        }
        printf("%-24s %-*s %-8s %-19s %-7s %-4s %-6s %-8s %-4s %-24s %-8s %s\n", "NAME", sw,
               "STATE", "PID", "STARTED", "UPTIME", "EXIT", "MEM", "CPU", "PIDS", "PORTS",
               "RESTARTS", "COMMAND");
        for (size_t i = 0; i < n; i++) {
                const struct record *r = &rows[i].rec;
                const struct cgroup_usage *u = &rows[i].use;
                char pid[16] = "-", started[32], up[32], ex[8], mem[24], cpu[32] = "-",
                     pids[24] = "-", state[64];
                if (r->pid_alive)
                        snprintf(pid, sizeof pid, "%d", (int)r->pid);
                when(r->started, started, sizeof started);
                duration(uptime_of(&rows[i]), up, sizeof up);
                exit_text(&rows[i], ex, sizeof ex);
                human_bytes(u->memory, mem, sizeof mem);
                if (u->cpu_usec >= 0)
                        snprintf(cpu, sizeof cpu, "%.2fs", (double)u->cpu_usec / 1e6);
                if (u->pids >= 0)
                        snprintf(pids, sizeof pids, "%lld", (long long)u->pids);
                /* the command is the container's (a spec's, an image's): escaped, as each cell */
                output_line(stdout, "%-24s %-*s %-8s %-19s %-7s %-4s %-6s %-8s %-4s %-24s %-8u %s",
                            r->name, sw, state_cell(&rows[i], state, sizeof state), pid, started,
                            up, ex, mem, cpu, pids, rows[i].ports[0] ? rows[i].ports : "-",
                            r->restarts, r->command);
        }
        for (size_t i = 0; i < n; i++)
                if (rows[i].rec.why)
                        output_line(stdout, "# %s: exit status unknown: %s", rows[i].rec.name,
                                    rows[i].rec.why);
}

static void print_ini(const struct row *rows, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                const struct record *r = &rows[i].rec;
                char up[32], ex[8];
                duration(uptime_of(&rows[i]), up, sizeof up);
                exit_text(&rows[i], ex, sizeof ex);
                printf("%s[container %s]\nstate = %s\npid = %d\n", i ? "\n" : "", r->name,
                       state_name(&rows[i]), r->pid_alive ? (int)r->pid : 0);
                output_line(stdout, "command = %s", r->command);
                output_line(stdout, "spec = %s", r->spec);
                printf("created = %lld\nstarted = %lld\nfinished = %lld\nuptime = %s\n"
                       "exit_status = %s\ndetached = %s\n",
                       (long long)r->created, (long long)r->started, (long long)r->finished, up, ex,
                       r->detached ? "yes" : "no");
                if (r->why)
                        output_line(stdout, "why = %s", r->why);
                printf("restarts = %u\n", r->restarts);
                if (r->restarts)
                        printf("last_exit_status = %d\n", r->last_exit);
                const struct cgroup_usage *u = &rows[i].use;
                if (u->memory >= 0)
                        printf("memory_bytes = %lld\n", (long long)u->memory);
                if (u->cpu_usec >= 0)
                        printf("cpu_usec = %lld\n", (long long)u->cpu_usec);
                if (u->pids >= 0)
                        printf("pids = %lld\n", (long long)u->pids);
                if (rows[i].ports[0])
                        output_line(stdout, "ports = %s", rows[i].ports);
                const struct record_health *h = &rows[i].health;
                if (!rows[i].has_health)
                        continue;
                /* the output is the container's, escaped to printable ASCII (record_escape) */
                output_line(stdout, "health = %s", h->status);
                printf("health_failing_streak = %u\nhealth_checks = %u\nhealth_last_exit = %d\n"
                       "health_timed_out = %s\nhealth_time = %lld\n",
                       h->streak, h->checks, h->last_exit, h->timed_out ? "yes" : "no",
                       (long long)h->time);
                if (h->action[0])
                        output_line(stdout, "health_action = %s", h->action);
                output_line(stdout, "health_output = %s", h->output);
        }
}

static void print_json(const struct row *rows, size_t n)
{
        json_object *a = json_object_new_array();
        for (size_t i = 0; i < n; i++) {
                const struct record *r = &rows[i].rec;
                json_object *o = json_object_new_object();
                json_object_object_add(o, "name", json_object_new_string(r->name));
                json_object_object_add(o, "state", json_object_new_string(state_name(&rows[i])));
                json_object_object_add(o, "pid", r->pid_alive ? json_object_new_int(r->pid) : NULL);
                json_object_object_add(o, "command", json_object_new_string(r->command));
                json_object_object_add(o, "spec", json_object_new_string(r->spec));
                json_object_object_add(o, "created", json_object_new_int64(r->created));
                json_object_object_add(o, "started",
                                       r->started ? json_object_new_int64(r->started) : NULL);
                json_object_object_add(o, "finished",
                                       r->finished ? json_object_new_int64(r->finished) : NULL);
                int64_t up = uptime_of(&rows[i]);
                json_object_object_add(o, "uptime", up >= 0 ? json_object_new_int64(up) : NULL);
                json_object_object_add(o, "exit_status",
                                       r->has_exit ? json_object_new_int(r->exit_status) : NULL);
                json_object_object_add(o, "detached", json_object_new_boolean(r->detached));
                json_object_object_add(o, "restarts", json_object_new_int64(r->restarts));
                json_object_object_add(o, "last_exit_status",
                                       r->restarts ? json_object_new_int(r->last_exit) : NULL);
                if (r->why)
                        json_object_object_add(o, "why", json_object_new_string(r->why));
                const struct cgroup_usage *u = &rows[i].use;
                json_object_object_add(o, "memory_bytes",
                                       u->memory >= 0 ? json_object_new_int64(u->memory) : NULL);
                json_object_object_add(o, "cpu_usec",
                                       u->cpu_usec >= 0 ? json_object_new_int64(u->cpu_usec)
                                                        : NULL);
                json_object_object_add(o, "pids",
                                       u->pids >= 0 ? json_object_new_int64(u->pids) : NULL);
                const struct record_health *h = &rows[i].health;
                if (rows[i].has_health) {
                        json_object *j = json_object_new_object();
                        json_object_object_add(j, "status", json_object_new_string(h->status));
                        json_object_object_add(j, "failing_streak",
                                               json_object_new_int64(h->streak));
                        json_object_object_add(j, "checks", json_object_new_int64(h->checks));
                        json_object_object_add(j, "last_exit", json_object_new_int(h->last_exit));
                        json_object_object_add(j, "timed_out",
                                               json_object_new_boolean(h->timed_out));
                        json_object_object_add(j, "time", json_object_new_int64(h->time));
                        json_object_object_add(j, "action", json_object_new_string(h->action));
                        json_object_object_add(j, "output", json_object_new_string(h->output));
                        json_object_object_add(o, "health", j);
                }
                json_object *ports = json_object_new_array();
                char copy[sizeof rows[i].ports], *save = NULL;
                snprintf(copy, sizeof copy, "%s", rows[i].ports);
                for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
                        json_object_array_add(ports, json_object_new_string(t));
                json_object_object_add(o, "ports", ports);
                json_object_array_add(a, o);
        }
        output_json(stdout, json_object_to_json_string_ext(
                                    a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(a);
}

struct listing {
        bool all; /* -a: the stopped too */
        struct row *rows;
        size_t n, cap;
};

/* A container of the state root, as a row (store_each) */
static int add(void *ctx, struct stored *c)
{
        struct listing *l = ctx;
        enum store_status status = store_status(c);
        if (!l->all && status == STORE_STOPPED && !c->rec.restarting)
                return 0;
        if (l->n == l->cap) {
                size_t cap = l->cap ? l->cap * 2 : 16;
                struct row *grown = realloc(l->rows, cap * sizeof *l->rows);
                if (!grown)
                        return -1;
                l->rows = grown;
                l->cap = cap;
        }
        struct row *row = &l->rows[l->n++];
        row->rec = c->rec;
        row->status = status;
        ports_of(c->dir, row);
        usage_of(row);
        row->has_health = record_read_health(c->dir, &row->health) == 0;
        return 0;
}

int cmd_ps(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        bool all = false;
        enum { TABLE, INI, JSON } format = TABLE;
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "-a") || !strcmp(argv[i], "--all"))
                        all = true;
                else if (!strcmp(argv[i], "--format=table"))
                        format = TABLE;
                else if (!strcmp(argv[i], "--format=ini"))
                        format = INI;
                else if (!strcmp(argv[i], "--format=json"))
                        format = JSON;
                else
                        return usage("unknown option '%s' for 'crib ps' (-a, "
                                     "--format=table|ini|json)",
                                     argv[i]);
        }
        char root[4096];
        struct listing l = {.all = all};
        if (lifecycle_root_path(root, sizeof root, &err) < 0 ||
            store_each(root, add, &l, &err) < 0) {
                free(l.rows);
                return output_error(&err);
        }
        struct row *rows = l.rows;
        size_t n = l.n;
        if (n)
                qsort(rows, n, sizeof *rows, by_created);
        if (format == TABLE)
                print_table(rows, n);
        else if (format == INI)
                print_ini(rows, n);
        else
                print_json(rows, n);
        free(rows);
        return 0;
}
