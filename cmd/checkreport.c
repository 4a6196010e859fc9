/* checkreport.c - `crib check --report` and `crib check --compare A.json B.json`: what crib
 * check found, written for a bug report to a kernel's or a distribution's maintainers.
 *
 *   --report               Markdown: the machine (kernel, board, distribution, command line,
 *                          the config options crib's features depend on), the verdict, then
 *                          each feature: what was tried and what the kernel answered, what it
 *                          means for crib, the smallest change that fixes it
 *   --report --format=json the same as one JSON document, which --compare reads
 *   --compare A.json B.json what changed from A to B (a kernel upgrade, a config change):
 *                          exit status 0 when no feature's status changed, 1 when one did
 *
 * Nothing of who ran it: every text goes through check_scrub (runtime/check/machine.c) and
 * the report says so at its top. Markdown text is made safe for the terminal and for a table:
 * control characters as \xNN, '|', '`', '*', '\\', '[' and ']' escaped, '<' as &lt;. */
#define _GNU_SOURCE
#include "checkreport.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cleanup.h"
#include "base/termsafe.h"
#include "output.h"

/* `s`, scrubbed and escaped for Markdown text, into a new buffer (NULL: out of memory) */
static char *md(const char *s)
{
        char scrubbed[2048];
        snprintf(scrubbed, sizeof scrubbed, "%s", s ? s : "");
        check_scrub(scrubbed, sizeof scrubbed);
        size_t n = strlen(scrubbed);
        _cleanup_free_ char *safe = malloc(TERMSAFE_SIZE(n));
        char *out = malloc(5 * TERMSAFE_SIZE(n) + 1), *o = out;
        if (!safe || !out) {
                free(out);
                return NULL;
        }
        termsafe_escape(safe, TERMSAFE_SIZE(n), scrubbed, n);
        for (const char *c = safe; *c; c++) {
                if (*c == '<') {
                        memcpy(o, "&lt;", 4), o += 4;
                        continue;
                }
                /* '\\' too: before a '|' of the text, a backslash of its own would escape
                 * the escaping one, and the '|' would end the cell; '[' and ']' make no link */
                if (strchr("|`*\\[]", *c))
                        *o++ = '\\';
                *o++ = *c;
        }
        *o = '\0';
        return out;
}

/* One Markdown fragment: fmt's one %s is `s`, made safe */
static void put_md(const char *fmt, const char *s)
{
        _cleanup_free_ char *v = md(s);
        printf(fmt, v ? v : "(out of memory)");
}

static const char *verdict(int code)
{
        return code == 0   ? "everything the default level needs works"
               : code == 1 ? "crib runs containers here, with some protections missing"
                           : "crib cannot run containers here";
}

static void markdown_machine(const struct check_machine *m)
{
        printf("## The machine\n\n| | |\n|---|---|\n");
        put_md("| kernel | %s |\n", m->kernel);
        put_md("| board | %s |\n",
               m->board[0] ? m->board : "none named (no device tree: a PC or a virtual machine)");
        put_md("| distribution | %s |\n", m->distribution);
        put_md("| kernel command line | %s |\n", m->cmdline);
        if (!m->config_source[0]) {
                printf("| kernel config | none here (/proc/config.gz, /boot/config-%s) |\n",
                       m->release);
                return;
        }
        put_md("| kernel config | %s |\n", m->config_source);
        for (size_t i = 0; i < m->nconfig; i++) {
                char line[96];
                snprintf(line, sizeof line, "%s%s%s", m->config[i].key,
                         strcmp(m->config[i].value, "is not set") ? "=" : " ", m->config[i].value);
                put_md("| | %s |\n", line);
        }
}

/* Each feature: what was tried and answered, what it means, the fix */
static void markdown_features(const struct check_row *rows, size_t n)
{
        printf("\n## Features\n\n| feature | status | the default level |\n|---|---|---|\n");
        for (size_t i = 0; i < n; i++)
                printf("| %s | %s | %s |\n", rows[i].feature, check_status_name(rows[i].status),
                       check_need_name(rows[i].need));
        for (size_t i = 0; i < n; i++) {
                const struct check_row *r = &rows[i];
                printf("\n### %s: %s\n\n", r->feature, check_status_name(r->status));
                put_md("- tried, and what the kernel answered: %s\n", r->evidence);
                if (r->config[0])
                        put_md("- kernel config: %s\n", r->config);
                printf("- what it means: %s\n", check_meaning(r));
                if (r->remedy[0] && r->status != CHECK_OK)
                        put_md("- the smallest fix: %s\n", r->remedy);
        }
}

static void markdown_will(const struct check_row *rows, size_t n)
{
        printf("\n## What crib will and will not do on this kernel\n\n");
        for (size_t i = 0; i < n; i++)
                if (rows[i].status == CHECK_OK && rows[i].need != NEED_OPTIONAL)
                        printf("- will use %s\n", rows[i].feature);
        for (size_t i = 0; i < n; i++)
                if (rows[i].status != CHECK_OK && rows[i].status != CHECK_NOT_TRIED &&
                    rows[i].need != NEED_OPTIONAL)
                        printf("- will not have %s: %s\n", rows[i].feature,
                               check_meaning(&rows[i]));
}

void check_report_markdown(const struct check_machine *m, const struct check_row *rows, size_t n,
                           int code)
{
        printf("# crib check report\n\n"
               "Written by `crib check --report` (crib %s) for a bug report. It holds no user "
               "names and no paths under home directories: crib wrote USER and ~ in their "
               "place. Read it before you post it all the same.\n\n",
               CRIB_VERSION);
        markdown_machine(m);
        printf("\n## Verdict\n\n%s (exit status %d).\n", verdict(code), code);
        markdown_features(rows, n);
        markdown_will(rows, n);
}

/* a scrubbed string into a JSON object */
static void jstr(json_object *o, const char *key, const char *s)
{
        char v[2048];
        snprintf(v, sizeof v, "%s", s ? s : "");
        check_scrub(v, sizeof v);
        json_object_object_add(o, key, json_object_new_string(v));
}

void check_report_json(const struct check_machine *m, const struct check_row *rows, size_t n,
                       int code)
{
        json_object *doc = json_object_new_object(), *mach = json_object_new_object();
        json_object *cfg = json_object_new_object(), *feats = json_object_new_array();
        json_object_object_add(doc, "report", json_object_new_string("crib check"));
        json_object_object_add(doc, "format", json_object_new_int(1));
        json_object_object_add(doc, "crib", json_object_new_string(CRIB_VERSION));
        jstr(mach, "kernel", m->kernel);
        jstr(mach, "release", m->release);
        jstr(mach, "arch", m->arch);
        jstr(mach, "board", m->board);
        jstr(mach, "distribution", m->distribution);
        jstr(mach, "cmdline", m->cmdline);
        jstr(mach, "config_source", m->config_source);
        for (size_t i = 0; i < m->nconfig; i++)
                jstr(cfg, m->config[i].key, m->config[i].value);
        json_object_object_add(mach, "config", cfg);
        json_object_object_add(doc, "machine", mach);
        json_object_object_add(doc, "exit_status", json_object_new_int(code));
        json_object_object_add(doc, "verdict", json_object_new_string(verdict(code)));
        for (size_t i = 0; i < n; i++) {
                json_object *f = json_object_new_object();
                jstr(f, "id", rows[i].id);
                jstr(f, "feature", rows[i].feature);
                jstr(f, "status", check_status_name(rows[i].status));
                jstr(f, "need", check_need_name(rows[i].need));
                jstr(f, "tried", rows[i].evidence);
                jstr(f, "config", rows[i].config);
                jstr(f, "meaning", check_meaning(&rows[i]));
                jstr(f, "remedy", rows[i].status == CHECK_OK ? "" : rows[i].remedy);
                json_object_array_add(feats, f);
        }
        json_object_object_add(doc, "features", feats);
        output_json(stdout, json_object_to_json_string_ext(
                                    doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(doc);
}

/* ---- --compare ---- */

struct report {
        const char *path;
        json_object *doc, *machine, *features;
        size_t n;
};

/* `o`'s string member `key`, or an error naming the JSON path */
static const char *member(const struct report *r, json_object *o, const char *where,
                          const char *key, struct error *err)
{
        json_object *v;
        if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string)) {
                error_set(err, 0, "%s: %s.%s: not a string", r->path, where, key);
                return NULL;
        }
        return json_object_get_string(v);
}

static int load(struct report *r, const char *path, struct error *err)
{
        r->path = path;
        r->doc = json_object_from_file(path);
        if (!r->doc)
                return error_set(err, errno, "%s: not a JSON document (%s)", path,
                                 json_util_get_last_err());
        json_object *v;
        if (!json_object_object_get_ex(r->doc, "report", &v) ||
            strcmp(json_object_get_string(v), "crib check")) {
                error_set(err, 0, "%s: .report: not a crib check report", path);
                return error_hint(err, "make one with crib check --report --format=json > FILE");
        }
        if (!json_object_object_get_ex(r->doc, "machine", &r->machine) ||
            !json_object_is_type(r->machine, json_type_object))
                return error_set(err, 0, "%s: .machine: not an object", path);
        if (!json_object_object_get_ex(r->doc, "features", &r->features) ||
            !json_object_is_type(r->features, json_type_array))
                return error_set(err, 0, "%s: .features: not an array", path);
        r->n = json_object_array_length(r->features);
        for (size_t i = 0; i < r->n; i++) {
                json_object *f = json_object_array_get_idx(r->features, i);
                char where[48];
                snprintf(where, sizeof where, ".features[%zu]", i);
                if (!json_object_is_type(f, json_type_object))
                        return error_set(err, 0, "%s: %s: not an object", path, where);
                const char *keys[] = {"id", "feature", "status", "tried"};
                for (size_t k = 0; k < 4; k++)
                        if (!member(r, f, where, keys[k], err))
                                return -1;
        }
        return 0;
}

/* The feature `id` of `r`, or NULL */
static json_object *find(const struct report *r, const char *id)
{
        for (size_t i = 0; i < r->n; i++) {
                json_object *f = json_object_array_get_idx(r->features, i), *v;
                if (json_object_object_get_ex(f, "id", &v) &&
                    !strcmp(json_object_get_string(v), id))
                        return f;
        }
        return NULL;
}

static const char *str(json_object *o, const char *key)
{
        json_object *v;
        return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
                       ? json_object_get_string(v)
                       : "";
}

static void compare_machine(const struct report *a, const struct report *b)
{
        put_md("| | %s | ", a->path);
        put_md("%s |\n|---|---|---|\n", b->path);
        const char *keys[] = {"release", "arch", "board", "distribution", "cmdline"};
        for (size_t k = 0; k < 5; k++) {
                const char *x = str(a->machine, keys[k]), *y = str(b->machine, keys[k]);
                if (k < 2 || strcmp(x, y)) {
                        printf("| %s | ", keys[k]);
                        put_md("%s | ", x);
                        put_md("%s |\n", y);
                }
        }
        put_md("| verdict | %s | ", str(a->doc, "verdict"));
        put_md("%s |\n", str(b->doc, "verdict"));
}

/* The features whose status changed, or that one report lacks; the count of changes */
static size_t compare_features(const struct report *a, const struct report *b)
{
        size_t changed = 0, same = 0;
        printf("\n## Features whose status changed\n\n");
        put_md("| feature | %s | ", a->path);
        put_md("%s |\n|---|---|---|\n", b->path);
        for (size_t i = 0; i < a->n; i++) {
                json_object *x = json_object_array_get_idx(a->features, i);
                json_object *y = find(b, str(x, "id"));
                if (y && !strcmp(str(x, "status"), str(y, "status"))) {
                        same++;
                        continue;
                }
                changed++;
                put_md("| %s | ", str(x, "feature"));
                put_md("%s | ", str(x, "status"));
                put_md("%s |\n", y ? str(y, "status") : "not in this report");
        }
        for (size_t i = 0; i < b->n; i++) {
                json_object *y = json_object_array_get_idx(b->features, i);
                if (find(a, str(y, "id")))
                        continue;
                changed++;
                put_md("| %s | not in this report | ", str(y, "feature"));
                put_md("%s |\n", str(y, "status"));
        }
        if (!changed)
                printf("| (none) | | |\n");
        printf("\n%zu feature%s changed, %zu the same.\n", changed, changed == 1 ? "" : "s", same);
        return changed;
}

/* The evidence of the features in both, where it changed and their status not */
static void compare_evidence(const struct report *a, const struct report *b)
{
        bool head = false;
        for (size_t i = 0; i < a->n; i++) {
                json_object *x = json_object_array_get_idx(a->features, i);
                json_object *y = find(b, str(x, "id"));
                if (!y || strcmp(str(x, "status"), str(y, "status")) ||
                    !strcmp(str(x, "tried"), str(y, "tried")))
                        continue;
                if (!head)
                        printf("\n## Same status, other evidence\n\n");
                head = true;
                put_md("- %s:\n", str(x, "feature"));
                put_md("  - before: %s\n", str(x, "tried"));
                put_md("  - after: %s\n", str(y, "tried"));
        }
}

int check_compare(const char *pa, const char *pb, struct error *err)
{
        struct report a = {0}, b = {0};
        int rc = -1;
        if (load(&a, pa, err) == 0 && load(&b, pb, err) == 0) {
                printf("# crib check --compare\n\n");
                compare_machine(&a, &b);
                rc = compare_features(&a, &b) ? 1 : 0;
                compare_evidence(&a, &b);
        }
        json_object_put(a.doc);
        json_object_put(b.doc);
        return rc;
}
