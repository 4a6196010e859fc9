/* unit.h - crib and systemd (unit.c): `crib generate systemd`, and what `crib run` in the
 * foreground does as a Type=notify unit's ExecStart. */
#ifndef CRIB_UNIT_H
#define CRIB_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/error.h"
#include "launch/health.h"
#include "launch/notify.h"
#include "plan/plan.h"
#include "spec/spec.h"

/* What the running hook of `crib run` in the foreground tells: the record of a named
 * container, and systemd (READY=1, unless the container says it itself) */
struct unit_run {
        const char *name;   /* the record's name, or NULL */
        const char *notify; /* $NOTIFY_SOCKET, or NULL */
        struct notify_proxy *proxy;
        /* [service] healthcheck under a unit: the plan (NULL: none), the run's first process
         * and its checker (health.c) */
        const struct plan *plan;
        struct health_opts health;
        pid_t run_pid, checker;
        char root[4096]; /* health.root's */
};

/* $NOTIFY_SOCKET when it is set and not empty (crib runs as a Type=notify unit), else NULL */
const char *unit_notify_socket(void);
/* container_hooks.running for crib run in the foreground; ctx is a struct unit_run */
void unit_tell_running(void *ctx, pid_t pid, pid_t workload);
/* crib run: [service] healthcheck in the foreground only under a unit (NOTIFY_SOCKET, one
 * container) with --name, where crib itself runs the checks; an image's is left out in the
 * foreground elsewhere (spec->health.argv NULL). -1 with the FILE:LINE error. */
int unit_check_health(struct spec *spec, bool detach, bool image, const char *name, long count,
                      struct error *err);
/* crib run in the foreground under a unit, the plan with a healthcheck: u ready to run it */
int unit_run_health(struct unit_run *u, const struct plan *plan, struct error *err);
/* crib run in the foreground: the run has ended with exit status `code` (`failed`: crib's own
 * error); its checker (if any) killed and reaped. The status to exit with: code, or
 * EXIT_UNHEALTHY_KILLED when on_unhealthy = kill killed the run. */
int unit_run_ended(struct unit_run *u, int code, bool failed);
/* [service] notify = container under a unit: crib's socket (np) made under the state root, and
 * the spec given its bind mount at /run/notify/notify.sock and NOTIFY_SOCKET naming it.
 * Nothing to do (0) when crib is not a unit's or the spec says notify = crib. */
int unit_notify_prepare(struct spec *spec, struct notify_proxy *np, struct error *err);

/* `word` as one word of a unit's ExecStart= (systemd.service(5), "Command lines"): as it is
 * when it has only characters that need nothing, else in double quotes with C escapes; '%'
 * (a specifier) doubled, '$' (a variable) doubled. -1 when it does not fit in len. */
int unit_exec_word(const char *word, char *buf, size_t len);

int cmd_generate(int argc, char **argv);

#endif
