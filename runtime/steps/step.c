/* step.c - how a step runs and reports: the runner of a table of steps, a step's beginning, end,
 * skip and failure, and the trace lines and warnings a step sends to crib.
 *
 * A table (struct table, step.h) is run in order by one process: the setup process and the
 * workload's (launch/child.c, launch/init.c), and crib exec's joiner and entered process
 * (launch/enter.c). Each step begins (numbered across the tables, traced with its pid), runs,
 * and ends: "done in N us", or "skipped: WHY" when it said it had nothing to do (step_skip). A
 * step that fails sends its error to crib (or, after `crib start`, to the exec fifo: start.c)
 * and ends the process. Nothing here prints: trace lines, warnings and errors travel to the
 * parent over the sync socket (sync.h), and crib prints them.
 *
 * Where it sits: in steps/, below launch/, so that a step includes only the contract (step.h)
 * and what is beneath it, never the processes that run it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "step.h"

void child_emit_over_sync(void *ctx, const char *line)
{
        struct child *c = ctx;
        struct sync_msg m = {.type = SYNC_TRACE};
        struct error ignored;
        snprintf(m.u.text, sizeof m.u.text, "%s", line);
        sync_send(&c->chan, &m, -1, &ignored);
}

void child_warn(struct child *c, const char *fmt, ...)
{
        struct sync_msg m = {.type = SYNC_WARN};
        struct error ignored;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(m.u.text, sizeof m.u.text, fmt, ap);
        va_end(ap);
        sync_send(&c->chan, &m, -1, &ignored);
}

#ifdef CRIB_TEST_HOOKS
/* Child: the fault tests' hook (tests/e2e/13-faults.t), in test builds only (the Makefile's
 * CRIB_TEST_HOOKS: BUILD/tests/crib-hooks; the crib that ships has no such code). With
 * CRIB_TEST_STOP_AT set to a step's name as --trace prints it, the child waits before that step
 * until crib is gone (its end of the sync socket hangs up; at most 60 s), then runs the step as
 * if crib had died just then. It only delays the setup and changes nothing it does. */
static void test_stop_at(struct child *c, const char *name)
{
        const char *at = getenv("CRIB_TEST_STOP_AT");
        if (!at || strcmp(at, name))
                return;
        trace_line(&c->trace, "  CRIB_TEST_STOP_AT: waiting for crib to go away");
        struct pollfd pfd = {.fd = c->chan.fd, .events = 0}; /* POLLHUP is always reported */
        int r;
        do
                r = poll(&pfd, 1, 60 * 1000);
        while (r < 0 && errno == EINTR);
}
#endif

/* Child: a step begins: its number (counted across both tables), its name and our pid. */
/* crib run --step: say which step comes, and wait for the go-ahead. Not before the third: the
 * first two run while crib writes the id maps and sends GO, which the second reads (userns.c) */
static void step_wait(struct child *c, const struct step *s)
{
        struct sync_msg m = {.type = SYNC_STEP};
        struct error err;
        int fd = -1;
        error_clear(&err);
        snprintf(m.u.text, sizeof m.u.text, "%zu/%zu  %s", c->step, c->nsteps, s->name);
        if (sync_send(&c->chan, &m, -1, &err) < 0 || sync_recv(&c->chan, &m, &fd, &err) <= 0 ||
            m.type != SYNC_STEP_GO) {
                if (!err.msg[0])
                        error_set(&err, EPROTO, "no go-ahead from crib");
                error_wrap(&err, "crib run --step, before the step '%s'", s->name);
                step_failed(c, &err);
        }
        if (fd >= 0)
                close(fd);
}

void step_begin(struct child *c, const struct step *s)
{
        c->step++;
        if (c->plan->step_mode && c->step >= 3)
                step_wait(c, s);
        if (c->trace.on) { /* getpid() and the clock only for the trace */
                c->step_start = trace_now_us();
                trace_line(&c->trace, "step %2zu/%zu  %s  (pid %d)", c->step, c->nsteps, s->name,
                           (int)getpid());
                if (c->trace.explain)
                        trace_line(&c->trace, "  why: %s  [%s]", s->why, s->where);
        }
#ifdef CRIB_TEST_HOOKS
        test_stop_at(c, s->name);
#endif
}

void step_done(struct child *c)
{
        if (c->trace.on && !c->step_skipped)
                trace_line(&c->trace, "  done in %llu us",
                           (unsigned long long)(trace_now_us() - c->step_start));
        c->step_skipped = false;
}

int step_skip(struct child *c, const char *fmt, ...)
{
        char why[900];
        va_list ap;
        c->step_skipped = true;
        if (!c->trace.on)
                return 0;
        va_start(ap, fmt);
        vsnprintf(why, sizeof why, fmt, ap);
        va_end(ap);
        return trace_skip(&c->trace, "%s", why);
}

_Noreturn void step_failed(struct child *c, const struct error *err)
{
        struct sync_msg m = {.type = SYNC_ERROR};
        struct error ignored;
        m.u.err = *err;
        if (c->start_fd >= 0)
                start_report(c, err);
        else
                sync_send(&c->chan, &m, -1, &ignored);
        _exit(error_exit_status(err));
}

void steps_run(struct child *c, const struct table *t)
{
        struct error err;
        error_clear(&err);
        for (size_t i = 0; i < t->n; i++) {
                step_begin(c, &t->steps[i]);
                if (t->steps[i].run(c, &err) < 0)
                        step_failed(c, &err);
                step_done(c);
        }
}
