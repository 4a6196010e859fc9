/* lifecycle.h - the commands of containers that outlive `crib run` (lifecycle.c), and what
 * `crib run --name` and `-d` (main.c) record with them. */
#ifndef CRIB_LIFECYCLE_H
#define CRIB_LIFECYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"
#include "plan.h"
#include "record.h"

/* `crib --root DIR`: the state root, else NULL for the default (state.h) */
extern const char *lifecycle_root_override;

/* crib's exit status for a container's wait status: the workload's, or 128+N for signal N */
int lifecycle_exit_status(int status);
int lifecycle_root_path(char *buf, size_t len, struct error *err);
/* crib's argv as main() got it: what a re-execution from a sealed copy runs again */
extern char **crib_argv;
/* A container without a user namespace whose bounding set holds SYS_PTRACE is host root with
 * ptrace(2): it could open /proc/PID/exe of crib's processes in it (crib's init, crib exec's
 * entered process) and rewrite crib's binary once nothing runs it (CVE-2019-5736). For such a
 * plan, run this command again from a sealed copy of crib (sealed.c) before anything of the
 * container is touched; returns 0 when there is no need, else only on failure. */
int lifecycle_seal(const struct plan *p, bool trace, struct error *err);
/* The plan a container was started with (its state directory's `plan`), read back. */
int lifecycle_read_plan(int dir, struct plan *ret, struct error *err);

/* Make the container's state directory (a name is generated into `name` when it is empty;
 * a name in use is an error) with its record and its plan. */
int lifecycle_create(struct plan *p, const char *spec_path, char *name, size_t name_len,
                     bool detached, struct error *err);
/* A foreground `crib run --name`: this process follows it; the workload runs; remove it. */
void lifecycle_record_self(const char *name);
void lifecycle_record_running(const char *name, pid_t pid, pid_t workload);
int lifecycle_forget(const char *name);

int cmd_ps(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_kill(int argc, char **argv);
int cmd_rm(int argc, char **argv);
int cmd_wait(int argc, char **argv);
int cmd_logs(int argc, char **argv);
int cmd_exec(int argc, char **argv);
/* oci.c: runc's command line (crib oci ..., or crib as crib-runc) */
int cmd_oci(int argc, char **argv);

/* A signal by name (TERM, SIGTERM) or number; -1 when it is none. */
int lifecycle_parse_signal(const char *s);

/* A container's state root and directory, opened, and its record. */
struct opened {
        int root, dir;
        struct record rec;
};
/* Close both (each -1 afterwards). */
void opened_close(struct opened *o);

#endif
