/* check.c - `crib check`: what this kernel really supports, as a table or as INI; with
 * --report, as a report for a bug report (checkreport.c), and --compare, two such reports. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "base/cleanup.h"
#include "plan/plan.h"
#include "spec/spec.h"
#include "checkreport.h"
#include "specfile.h"
#include "base/termsafe.h"
#include "output.h"

int cmd_check(int argc, char **argv);

/* exit statuses of `crib check` */
enum { CHECK_EXIT_OK = 0, CHECK_EXIT_DEGRADED = 1, CHECK_EXIT_UNUSABLE = 2 };

/* the evidence quotes a spec's paths and a container's errors: escaped for the terminal first */
static void ini_value(const char *key, const char *raw)
{
        size_t n = strlen(raw);
        _cleanup_free_ char *v = malloc(TERMSAFE_SIZE(n));
        if (!v)
                return;
        termsafe_escape(v, TERMSAFE_SIZE(n), raw, n);
        printf("%s = \"", key);
        for (const char *c = v; *c; c++) {
                if (*c == '"' || *c == '\\' || *c == '#' || *c == ';')
                        putchar('\\');
                putchar(*c);
        }
        printf("\"\n");
}

/* 2 when an essential feature does not work, 1 when one the default level uses does not */
static int check_exit_code(const struct check_row *rows, size_t n)
{
        int code = CHECK_EXIT_OK;
        for (size_t i = 0; i < n; i++) {
                bool bad = rows[i].status != CHECK_OK && rows[i].status != CHECK_NOT_TRIED;
                if (bad && rows[i].need == NEED_ESSENTIAL)
                        code = CHECK_EXIT_UNUSABLE;
                else if (bad && rows[i].need == NEED_DEFAULT && code == CHECK_EXIT_OK)
                        code = CHECK_EXIT_DEGRADED;
        }
        return code;
}

/* --format=ini: one section a feature */
static void print_ini(const struct check_row *rows, size_t n, int code)
{
        printf("# crib check: one section a feature; exit status %d\n", code);
        for (size_t i = 0; i < n; i++) {
                printf("\n[%s]\n", rows[i].id);
                ini_value("feature", rows[i].feature);
                ini_value("status", check_status_name(rows[i].status));
                ini_value("need", rows[i].need == NEED_ESSENTIAL ? "essential"
                                  : rows[i].need == NEED_DEFAULT ? "default"
                                                                 : "optional");
                ini_value("evidence", rows[i].evidence);
                if (rows[i].config[0])
                        ini_value("config", rows[i].config);
                if (rows[i].remedy[0])
                        ini_value("remedy", rows[i].remedy);
        }
}

/* the table, and what it means for crib in one line */
static void print_table(const struct check_row *rows, size_t n, int code)
{
        printf("%-38s %-10s %s\n", "feature", "status", "evidence");
        for (size_t i = 0; i < n; i++) {
                const struct check_row *r = &rows[i];
                output_line(stdout, "%-38s %-10s %s", r->feature, check_status_name(r->status),
                            r->evidence);
                if (r->config[0])
                        output_line(stdout, "%-38s %-10s config: %s", "", "", r->config);
                if (r->remedy[0] && r->status != CHECK_OK)
                        output_line(stdout, "%-38s %-10s remedy: %s", "", "", r->remedy);
        }
        printf("\n%s\n", code == CHECK_EXIT_OK ? "everything the default level needs works"
                         : code == CHECK_EXIT_DEGRADED
                                 ? "crib runs containers here, with some protections "
                                   "missing (see the remedies above)"
                                 : "crib cannot run containers here (see the remedies "
                                   "above)");
}

static int check_usage(const char *fmt, const char *arg)
{
        struct error err;
        error_set(&err, 0, fmt, arg);
        error_hint(&err, "crib check [--spec SPEC] [--rootfs DIR] [--format=table|ini]\n"
                         "crib check --report [--format=markdown|json] [--spec SPEC] [--rootfs "
                         "DIR]\n"
                         "crib check --compare A.json B.json");
        return output_error(&err);
}

int cmd_check(int argc, char **argv)
{
        const char *spec_path = NULL, *rootfs = NULL, *format = NULL;
        bool ini = false, report = false;
        struct error err;
        struct spec spec;
        bool have_spec = false;
        _cleanup_free_ char *spec_rootfs = NULL;
        error_clear(&err);

        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "--spec") && i + 1 < argc)
                        spec_path = argv[++i];
                else if (!strcmp(argv[i], "--rootfs") && i + 1 < argc)
                        rootfs = argv[++i];
                else if (!strncmp(argv[i], "--format=", 9))
                        format = argv[i] + 9;
                else if (!strcmp(argv[i], "--report"))
                        report = true;
                else if (!strcmp(argv[i], "--compare") && argc == 3 && i == 0) {
                        int r = check_compare(argv[1], argv[2], &err);
                        return r < 0 ? output_error(&err) : r;
                } else
                        return check_usage("unknown argument '%s' for 'crib check'", argv[i]);
        }
        if (format && !strcmp(format, "ini") && !report)
                ini = true;
        else if (format && strcmp(format, report ? "markdown" : "table") &&
                 strcmp(format, report ? "json" : "table"))
                return check_usage("'--format=%s' is not one crib check writes here", format);
        if (spec_path) {
                char path[4096]; /* SPEC, or DIR/crib.ini */
                _cleanup_fclose_ FILE *f = specfile_open(spec_path, path, sizeof path, &err);
                if (!f)
                        return output_error(&err);
                spec_path = path;
                if (spec_load(spec_path, f, true, &spec, &err) < 0)
                        return output_error(&err);
                have_spec = true;
                if (!rootfs) {
                        struct plan_host host;
                        struct plan p;
                        plan_host_gather(&spec, &host);
                        if (plan_build(&spec, &host, NULL, &p, &err) == 0) {
                                spec_rootfs = strdup(p.rootfs);
                                rootfs = spec_rootfs;
                                plan_free(&p);
                        }
                }
        }

        struct check_row rows[CHECK_MAX_ROWS];
        size_t n = check_run(have_spec ? &spec : NULL, rootfs, rows);
        int code = check_exit_code(rows, n);
        struct check_machine m;
        if (report)
                check_machine(&m);
        if (report && format && !strcmp(format, "json"))
                check_report_json(&m, rows, n, code);
        else if (report)
                check_report_markdown(&m, rows, n, code);
        else if (ini)
                print_ini(rows, n, code);
        else
                print_table(rows, n, code);
        if (have_spec)
                spec_free(&spec);
        return code;
}
