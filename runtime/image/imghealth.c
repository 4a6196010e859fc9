/* imghealth.c - an image's Healthcheck (config.config.Healthcheck, docker's HEALTHCHECK) as
 * crib's [service] keys: healthcheck, its interval, timeout, start period and retries
 * (crib.ini(5); the checks run in runtime/launch/health.c). No kernel feature.
 *
 * Docker's shape: Test is ["NONE"] (no check), ["CMD", PROGRAM, ARGS...], or ["CMD-SHELL",
 * COMMAND] (run by /bin/sh -c); Interval, Timeout and StartPeriod are nanoseconds, 0 for the
 * default; Retries a count, 0 for the default. Every string is the image's: each word goes
 * through imgspec_escape (WORD), as args do, and a test it refuses (a control character, bytes
 * that are not UTF-8, longer than a line) is left out with a note, never written in part; the
 * numbers are crib's own text of what it parsed.
 */
#include "imghealth.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "imgspec.h"

#define DAY_MS (24LL * 3600 * 1000)

/* a duration in nanoseconds as crib's "Nms": "" for 0 (the default) or one it cannot hold */
static void duration(struct json_object *hc, const char *key, bool zero_ok, char *buf, size_t len,
                     struct imghealth *h)
{
        struct json_object *v;
        buf[0] = '\0';
        if (!json_object_object_get_ex(hc, key, &v) || !json_object_is_type(v, json_type_int))
                return;
        int64_t ns = json_object_get_int64(v);
        if (ns == 0)
                return;
        int64_t ms = ns / 1000000;
        if (ns < 0 || (ms == 0 && !zero_ok) || ms > DAY_MS) {
                snprintf(h->note, sizeof h->note,
                         "not applied: the image's Healthcheck.%s (%lld ns): 1 ms to a day", key,
                         (long long)ns);
                return;
        }
        snprintf(buf, len, "%lldms", (long long)(ms ? ms : 1));
}

/* the test's words, escaped, in h->test; false (with a note) when one cannot be held */
static bool words(struct json_object *test, size_t from, bool shell, struct imghealth *h)
{
        size_t n = json_object_array_length(test), used = 0;
        struct error err;
        if (shell) {
                static const char sh[] = "/bin/sh -c ";
                memcpy(h->test, sh, sizeof sh);
                used = sizeof sh - 1;
                n = from + 1; /* CMD-SHELL takes one string */
        }
        for (size_t i = from; i < n; i++) {
                struct json_object *a = json_object_array_get_idx(test, i);
                char what[48];
                snprintf(what, sizeof what, "config.Healthcheck.Test[%zu]", i);
                if (!a || !json_object_is_type(a, json_type_string) || used + 30 > sizeof h->test ||
                    imgspec_escape(json_object_get_string(a), (size_t)json_object_get_string_len(a),
                                   IMGSPEC_WORD, h->test + used, sizeof h->test - 30 - used, what,
                                   &err) < 0) {
                        snprintf(h->note, sizeof h->note,
                                 "not applied: the image's Healthcheck (%s cannot be a crib.ini "
                                 "word)",
                                 what);
                        h->test[0] = '\0';
                        return false;
                }
                used += strlen(h->test + used);
                if (i + 1 < n)
                        h->test[used++] = ' ';
                h->test[used] = '\0';
        }
        return used > 0;
}

void imghealth_read(struct json_object *cfg, struct imghealth *ret)
{
        struct json_object *hc, *test, *t0, *r;
        memset(ret, 0, sizeof *ret);
        if (!cfg || !json_object_object_get_ex(cfg, "Healthcheck", &hc) ||
            !json_object_is_type(hc, json_type_object) ||
            !json_object_object_get_ex(hc, "Test", &test) ||
            !json_object_is_type(test, json_type_array) || !json_object_array_length(test))
                return; /* none, or docker's "inherit": nothing to inherit from here */
        t0 = json_object_array_get_idx(test, 0);
        const char *kind =
                t0 && json_object_is_type(t0, json_type_string) ? json_object_get_string(t0) : "";
        size_t n = json_object_array_length(test);
        if (!strcmp(kind, "NONE"))
                return;
        if (!(!strcmp(kind, "CMD") && n >= 2) && !(!strcmp(kind, "CMD-SHELL") && n == 2)) {
                snprintf(ret->note, sizeof ret->note,
                         "not applied: the image's Healthcheck (its Test is neither NONE, CMD "
                         "with a program nor CMD-SHELL with a command)");
                return;
        }
        if (!words(test, 1, !strcmp(kind, "CMD-SHELL"), ret))
                return;
        duration(hc, "Interval", false, ret->interval, sizeof ret->interval, ret);
        duration(hc, "Timeout", false, ret->timeout, sizeof ret->timeout, ret);
        duration(hc, "StartPeriod", true, ret->start_period, sizeof ret->start_period, ret);
        if (json_object_object_get_ex(hc, "Retries", &r) && json_object_is_type(r, json_type_int)) {
                int64_t v = json_object_get_int64(r);
                if (v >= 1 && v <= 1000)
                        snprintf(ret->retries, sizeof ret->retries, "%lld", (long long)v);
                else if (v)
                        snprintf(ret->note, sizeof ret->note,
                                 "not applied: the image's Healthcheck.Retries (%lld): 1 to 1000",
                                 (long long)v);
        }
}
