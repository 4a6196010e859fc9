/* ocicli.c - the conventions of runc's command line that every `crib oci` command shares:
 * the --log file an engine reads, the one error message and exit status, runc's option syntax,
 * and the state root the commands work in (ocicli.h). The commands: oci.c (the command table,
 * the global options and the container lifecycle), ociproc.c (a running container's
 * processes). */
#define _GNU_SOURCE
#include "ocicli.h"

#include <fcntl.h>
#include <json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "lifecycle.h"
#include "output.h"
#include "base/termsafe.h"

const char *ocicli_log_path;
bool ocicli_log_json;

/* --log FILE: each error and warning also as a line there; with --log-format json a JSON
 * object {"level","msg","time"}, the form containerd's shim and podman read. The engines show
 * these lines to their user: the message goes in with its control characters escaped, as on
 * crib's own terminal (output.h). */
void ocicli_log(const char *level, const char *raw)
{
        if (!ocicli_log_path)
                return;
        char msg[TERMSAFE_SIZE(2048)];
        termsafe_escape(msg, sizeof msg, raw, strnlen(raw, 2048));
        _cleanup_close_ int fd =
                open(ocicli_log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
        if (fd < 0)
                return;
        char when[64];
        struct timespec ts;
        struct tm tm;
        clock_gettime(CLOCK_REALTIME, &ts);
        gmtime_r(&ts.tv_sec, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        if (!ocicli_log_json) {
                /* logfmt: a quote or backslash of the message's escaped, so it ends no field */
                char q[sizeof msg * 2];
                size_t n = 0;
                for (const char *m = msg; *m && n + 2 < sizeof q; m++) {
                        if (*m == '"' || *m == '\\')
                                q[n++] = '\\';
                        q[n++] = *m;
                }
                q[n] = '\0';
                dprintf(fd, "time=\"%s\" level=%s msg=\"crib: %s\"\n", when, level, q);
                return;
        }
        json_object *o = json_object_new_object();
        json_object_object_add(o, "level", json_object_new_string(level));
        char text[sizeof msg + 8];
        snprintf(text, sizeof text, "crib: %s", msg);
        json_object_object_add(o, "msg", json_object_new_string(text));
        json_object_object_add(o, "time", json_object_new_string(when));
        const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
                                                                  JSON_C_TO_STRING_NOSLASHESCAPE);
        dprintf(fd, "%s\n", s);
        json_object_put(o);
}

int ocicli_fail(const struct error *err)
{
        char text[sizeof err->msg + sizeof err->hint + 256];
        if (err->errnum)
                snprintf(text, sizeof text, "%s: %s", err->msg, strerror(err->errnum));
        else
                snprintf(text, sizeof text, "%s", err->msg);
        ocicli_log("error", text);
        return output_error(err);
}

int ocicli_usage(const char *fmt, ...)
{
        struct error err;
        va_list ap;
        va_start(ap, fmt);
        error_setv(&err, 0, fmt, ap);
        va_end(ap);
        error_hint(&err, "see crib(1), OCI RUNTIME");
        return ocicli_fail(&err);
}

/* a warning of the plan's or the setup's: the --log file only */
static void on_warn(void *ctx, const char *line)
{
        (void)ctx;
        ocicli_log("warning", line);
}

/* a failed poststart or poststop hook: the --log file and stderr */
static void on_hook_warn(void *ctx, const char *line)
{
        ocicli_log("warning", line);
        output_warning_line(ctx, line);
}

struct oci_runtime ocicli_rt = {.warn = on_warn, .hook_warn = on_hook_warn};

/* The state root, once a verb's arguments are read (as crib's own commands find it) */
int ocicli_where(struct error *err)
{
        static char root[4096];
        ocicli_rt.root = root;
        ocicli_rt.self_argv = crib_argv;
        return lifecycle_root_path(root, sizeof root, err);
}

/* ---- runc's options ---- */

/* `cmd`'s options in argv (--name VALUE, --name=VALUE, -l VALUE, flags: `opts`, ending with a
 * NULL name); up to `npos` other arguments into `pos`, after which the parse ends when `stop`
 * (exec's command follows its ID). The index it ends at; or, after the usage error (`unknown`
 * for an unknown option, with it and `cmd`), -1 - its exit status. */
int ocicli_parse(const char *cmd, const char *unknown, int argc, char **argv,
                 const struct opt *opts, const char **pos, int npos, bool stop)
{
        int got = 0;
        for (int i = 0; i < argc; i++) {
                const char *a = argv[i], *eq = a[0] == '-' && a[1] == '-' ? strchr(a, '=') : NULL;
                if (a[0] != '-' || !a[1]) {
                        if (got == npos)
                                return -1 - ocicli_usage("unexpected argument '%s' for %s", a, cmd);
                        pos[got++] = a;
                        if (stop && got == npos)
                                return i + 1;
                        continue;
                }
                size_t len = eq ? (size_t)(eq - a) : strlen(a);
                const struct opt *o = opts;
                for (; o->name; o++)
                        if ((!strncmp(a, o->name, len) && !o->name[len]) ||
                            (o->letter && !strcmp(a, o->letter)))
                                if (!o->flag || !eq)
                                        break;
                if (!o->name)
                        return -1 - ocicli_usage(unknown ? unknown : "unknown option '%s' for %s",
                                                 a, cmd);
                if (o->flag) {
                        *o->flag = true;
                        continue;
                }
                if (!eq && i + 1 >= argc)
                        return -1 - ocicli_usage("option '%s' of %s needs a value", a, cmd);
                const char *v = eq ? eq + 1 : argv[++i];
                if (o->str)
                        *o->str = v;
                else if (*o->n == 64)
                        return -1 - ocicli_usage("at most 64 %s", o->name);
                else
                        o->list[(*o->n)++] = v;
        }
        return argc;
}

/* The one argument ID of `cmd` (start, state, pause, resume), or NULL after the usage error */
const char *ocicli_only_id(int argc, char **argv, const char *cmd, int *code)
{
        if (argc == 1 && argv[0][0] != '-')
                return argv[0];
        *code = ocicli_usage("usage: %s ID", cmd);
        return NULL;
}
