/* lifecycle.h - the commands of containers that outlive `crib run` (lifecycle.c), and what
 * `crib run --name` and `-d` (main.c) record with them. */
#ifndef CRIB_LIFECYCLE_H
#define CRIB_LIFECYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/error.h"
#include "plan/plan.h"

/* `crib --root DIR`: the state root, else NULL for the default (state.h) */
extern const char *lifecycle_root_override;

/* crib's exit status for a container's wait status: the workload's, or 128+N for signal N */
int lifecycle_exit_status(int status);
int lifecycle_root_path(char *buf, size_t len, struct error *err);
/* crib's argv as main() got it: what a re-execution from a sealed copy runs again */
extern char **crib_argv;
/* Run this command again from a sealed copy of crib when a container of plan `p` needs it
 * (sealed_needed(), runtime/launch/sealed.h), before anything of the container is touched;
 * returns 0 when there is no need, else only on failure. */
int lifecycle_seal(const struct plan *p, bool trace, struct error *err);

/* A name for a container no other has (crib run -d without --name), into `name`: the plan is
 * built with it (plan_opts.name), then made with lifecycle_create(). */
int lifecycle_name(char *name, size_t name_len, struct error *err);
/* Make the container's state directory `name` (store_create(), runtime/state/store.h) in the
 * state root of this command, with its record and its plan, which was built with that name. */
int lifecycle_create(const struct plan *p, const char *spec_path, const char *name, bool detached,
                     struct error *err);
/* A foreground `crib run --name`: the workload runs; remove it. */
void lifecycle_record_running(const char *name, pid_t pid, pid_t workload);
/* crib run in the foreground of an image's container, which stays: how it ended */
void lifecycle_record_exit(const char *name, int code);
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
/* a usage error: printed, and EXIT_CRIB_ERROR */
int lifecycle_usage(const char *fmt, const char *arg);
struct stored;
/* NAME opened from the state root (locked too, for a command that changes it) */
int lifecycle_open(const char *name, bool locked, struct stored *c, struct error *err);

#endif
