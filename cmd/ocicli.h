/* ocicli.h - what every `crib oci` command shares (ocicli.c): the --log file, errors and
 * usage errors, runc's option syntax, and the runtime's options. */
#ifndef CRIB_OCICLI_H
#define CRIB_OCICLI_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "container/ocistate.h"

/* --log FILE and --log-format json (oci.c's global options) */
extern const char *ocicli_log_path;
extern bool ocicli_log_json;
/* One line of `level` ("error", "warning") to the --log file, when there is one. */
void ocicli_log(const char *level, const char *raw);
/* Print the error (and log it); the exit status. */
int ocicli_fail(const struct error *err);
/* A usage error, with the hint to crib(1); the exit status. */
int ocicli_usage(const char *fmt, ...) CRIB_PRINTF(1, 2);

/* What the runtime's verbs get (runtime/container/ocistate.h): --systemd-cgroup, the warnings'
 * way to the log; ocicli_where() adds the state root, once a command's arguments are read. */
extern struct oci_runtime ocicli_rt;
int ocicli_where(struct error *err);

/* An option of a runc command: its names, and where it goes */
struct opt {
        const char *name, *letter; /* --name, and -l or NULL */
        const char **str;          /* it takes a value: here */
        bool *flag;                /* it takes none: set */
        const char **list;         /* it takes a value, again and again: here, at most 64 */
        size_t *n;
};

/* `cmd`'s options in argv (--name VALUE, --name=VALUE, -l VALUE, flags: `opts`, ending with a
 * NULL name); up to `npos` other arguments into `pos`, after which the parse ends when `stop`
 * (exec's command follows its ID). The index it ends at; or, after the usage error (`unknown`
 * for an unknown option, with it and `cmd`), -1 - its exit status. */
int ocicli_parse(const char *cmd, const char *unknown, int argc, char **argv,
                 const struct opt *opts, const char **pos, int npos, bool stop);

/* The one argument ID of `cmd` (start, state, pause, resume), or NULL after the usage error
 * (its exit status in *code) */
const char *ocicli_only_id(int argc, char **argv, const char *cmd, int *code);

/* ociproc.c: crib oci's commands on a running container's processes */
int ocicli_ps(int argc, char **argv);
int ocicli_pause(int argc, char **argv);
int ocicli_resume(int argc, char **argv);
int ocicli_update(int argc, char **argv);
int ocicli_exec(int argc, char **argv);

#endif
