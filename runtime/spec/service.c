/* service.c - the [service] section: what crib's monitor does for a detached container that
 * runs as a service (runtime/launch/monitor.c). Pure: no system calls. See keys.h.
 *
 *   restart = no | on-failure[:N] | always | unless-stopped
 *   notify = crib | container       under a Type=notify unit: who says READY=1
 *
 * docker's and podman's words and meanings; crib.ini(5) says where crib differs. N is the
 * most restarts on-failure makes, 0 (as docker's on-failure:0) for no limit.
 *
 *   healthcheck = PROGRAM ARGS... | none
 *   healthcheck_interval = DURATION        (30s)
 *   healthcheck_timeout = DURATION         (30s)
 *   healthcheck_retries = N                (3)
 *   healthcheck_start_period = DURATION    (0s)
 *   on_unhealthy = none | kill | restart   (none)
 *
 * docker's HEALTHCHECK: the check runs as `crib exec` runs a program (runtime/launch/health.c).
 * A DURATION is a number and a unit, ms, s, m or h ("500ms", "30s", "1m"); at most a day.
 */
#include "keys.h"

#include <stddef.h>
#include <string.h>

#include "base/words.h"

/* on-failure's N: at most this many, so that a typo of a few more digits is an error */
#define RESTART_MAX_LIMIT 1000000

static const char *const restart_names[] = {
        [SPEC_RESTART_NO] = "no",
        [SPEC_RESTART_ON_FAILURE] = "on-failure",
        [SPEC_RESTART_ALWAYS] = "always",
        [SPEC_RESTART_UNLESS_STOPPED] = "unless-stopped",
};

const char *spec_restart_name(enum spec_restart r)
{
        return (size_t)r < sizeof restart_names / sizeof restart_names[0] ? restart_names[r] : "?";
}

int parse_restart(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        const char *v = e->value;
        const char *colon = strchr(v, ':');
        size_t n = colon ? (size_t)(colon - v) : strlen(v);
        for (size_t i = 0; i < sizeof restart_names / sizeof restart_names[0]; i++) {
                if (strlen(restart_names[i]) != n || strncmp(v, restart_names[i], n))
                        continue;
                uint32_t max = 0;
                if (colon && i != SPEC_RESTART_ON_FAILURE)
                        return bad_value(err, s, e,
                                         "'%s': only on-failure takes a number of restarts, not "
                                         "'%s'",
                                         k->name, v);
                if (colon && parse_u32(colon + 1, RESTART_MAX_LIMIT, &max) < 0)
                        return bad_value(err, s, e,
                                         "'%s': on-failure's number of restarts must be 0 (no "
                                         "limit) to %d, not '%s'",
                                         k->name, RESTART_MAX_LIMIT, colon + 1);
                s->restart = (enum spec_restart)i;
                s->restart_max = max;
                return 0;
        }
        return bad_value(err, s, e,
                         "'%s' must be no, on-failure[:N], always or unless-stopped, not '%s'",
                         k->name, v);
}

static const char *const unhealthy_names[] = {
        [SPEC_UNHEALTHY_NONE] = "none",
        [SPEC_UNHEALTHY_KILL] = "kill",
        [SPEC_UNHEALTHY_RESTART] = "restart",
};

const char *spec_on_unhealthy_name(enum spec_on_unhealthy u)
{
        return (size_t)u < sizeof unhealthy_names / sizeof unhealthy_names[0] ? unhealthy_names[u]
                                                                              : "?";
}

int parse_healthcheck(struct spec *s, const struct key *k, const struct ini_entry *e,
                      struct error *err)
{
        char **v = NULL;
        size_t n = 0;
        if (!strcmp(e->value, "none")) { /* an image's HEALTHCHECK NONE; a spec's own undo */
                words_free(s->health.argv);
                s->health.argv = NULL;
                return 0;
        }
        if (words_split(e->raw, &v, &n, err) < 0)
                return error_at(err, s->path, e->line, "%s: %s", k->name, err->msg);
        if (n == 0) {
                words_free(v);
                return bad_value(err, s, e, "'%s' needs the program to run, or none", k->name);
        }
        words_free(s->health.argv);
        s->health.argv = v;
        return 0;
}

/* at most a day, in milliseconds */
#define DURATION_MAX_MS (24u * 3600 * 1000)

int parse_duration(struct spec *s, const struct key *k, const struct ini_entry *e,
                   struct error *err)
{
        static const struct {
                const char *unit;
                uint32_t ms;
        } units[] = {{"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}};
        const char *v = e->value;
        size_t digits = strspn(v, "0123456789");
        uint32_t n = 0;
        if (digits && digits <= 9) {
                for (size_t i = 0; i < digits; i++)
                        n = n * 10 + (uint32_t)(v[i] - '0');
                for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
                        if (strcmp(v + digits, units[i].unit))
                                continue;
                        uint64_t ms = (uint64_t)n * units[i].ms;
                        bool zero_ok = k->offset == offsetof(struct spec, health.start_period_ms);
                        if (ms > DURATION_MAX_MS || (!ms && !zero_ok))
                                break;
                        *FIELD(s, k, uint32_t) = (uint32_t)ms;
                        return 0;
                }
        }
        return bad_value(err, s, e,
                         "'%s' must be a duration from %s to a day, a number and ms, s, m or h "
                         "(\"500ms\", \"30s\", \"1m\"), not '%s'",
                         k->name,
                         k->offset == offsetof(struct spec, health.start_period_ms) ? "0s" : "1ms",
                         v);
}

int parse_retries(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        uint32_t n;
        if (parse_u32(e->value, 1000, &n) < 0 || n == 0)
                return bad_value(err, s, e, "'%s' must be 1 to 1000, not '%s'", k->name, e->value);
        *FIELD(s, k, uint32_t) = n;
        return 0;
}

int parse_on_unhealthy(struct spec *s, const struct key *k, const struct ini_entry *e,
                       struct error *err)
{
        for (size_t i = 0; i < sizeof unhealthy_names / sizeof unhealthy_names[0]; i++)
                if (!strcmp(e->value, unhealthy_names[i])) {
                        s->health.on_unhealthy = (enum spec_on_unhealthy)i;
                        return 0;
                }
        return bad_value(err, s, e, "'%s' must be none, kill or restart, not '%s'", k->name,
                         e->value);
}
int parse_notify(struct spec *s, const struct key *k, const struct ini_entry *e, struct error *err)
{
        if (!strcmp(e->value, "crib"))
                s->notify = SPEC_NOTIFY_CRIB;
        else if (!strcmp(e->value, "container"))
                s->notify = SPEC_NOTIFY_CONTAINER;
        else
                return bad_value(err, s, e, "'%s' must be crib or container, not '%s'", k->name,
                                 e->value);
        return 0;
}
