/* ociexec.c - crib oci exec; see ociexec.h.
 *
 * Kernel features: those of crib exec (runtime/launch/enter.c: setns(2) by pidfd or by
 * /proc/PID/ns files); a terminal's master side goes to the engine over SCM_RIGHTS
 * (ocistate.c).
 */
#define _GNU_SOURCE
#include "ociexec.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "base/cleanup.h"
#include "state/state.h"
#include "state/store.h"

struct execing {
        const struct oci_runtime *rt;
        const struct ociexec *x;
        struct error err;
        bool failed;
};

/* Parent (crib exec --detach): the program runs; its pid to the pid file, or it ends */
static void on_exec_created(void *ctx, pid_t pid, pid_t workload)
{
        struct execing *c = ctx;
        (void)workload; /* the exec'd process is the one that runs: pid */
        if (c->failed || (c->x->pid_file && ocistate_pid_file(c->x->pid_file, pid, &c->err) < 0)) {
                kill(pid, SIGKILL);
                c->failed = true;
        }
}

/* Parent: the terminal's master to the engine's console socket */
static void on_pty(void *ctx, int master)
{
        struct execing *c = ctx;
        if (ocistate_console(c->x->console, master, &c->err) < 0)
                c->failed = true;
}

static void on_warn(void *ctx, const char *line)
{
        struct execing *c = ctx;
        if (c->rt->warn)
                c->rt->warn(c->rt->ctx, line);
}

/* A process.json into the request: the whole environment, the ids, groups, capabilities,
 * limits, terminal, no_new_privs and AppArmor profile it names (container_enter checks each
 * against the container's plan) */
static void request_of_process(const struct oci_process *op, struct enter_request *rq,
                               struct plan_rlimit *limits)
{
        const struct spec *s = &op->spec;
        rq->argv = s->args;
        rq->env = s->env;
        rq->env_replace = true;
        if (s->cwd)
                rq->cwd = s->cwd;
        if (spec_in_file(s, SPEC_KEY_PROCESS_USER)) {
                rq->user_set = true;
                rq->uid = s->uid;
                rq->gid = s->gid;
        }
        rq->groups_set = true; /* none, unless additionalGids names some */
        rq->groups = s->groups;
        rq->ngroups = s->groups_set ? s->ngroups : 0;
        rq->tty = s->terminal == TERMINAL_YES;
        rq->caps_set = op->has_caps;
        rq->caps = s->caps;
        rq->caps_no_ambient = s->caps_no_ambient;
        rq->caps_sets = s->caps_sets;
        rq->caps_effective = s->caps_effective;
        rq->caps_permitted = s->caps_permitted;
        rq->caps_inheritable = s->caps_inheritable;
        rq->caps_ambient = s->caps_ambient;
        rq->no_new_privs = s->no_new_privileges;
        rq->apparmor = s->apparmor;
        if (op->has_rlimits) {
                rq->limits_set = true;
                for (int r = 0; r < SPEC_NLIMITS; r++)
                        if (s->limits[r].set)
                                limits[rq->nlimits++] = (struct plan_rlimit){
                                        .resource = r,
                                        .lim = {.rlim_cur = s->limits[r].soft,
                                                .rlim_max = s->limits[r].hard}};
                rq->limits = limits;
        }
}

/* --process FILE into the request (`op` keeps what it points to) */
static int load_process(struct ociexec *x, struct oci_process *op, struct plan_rlimit *limits,
                        struct error *err)
{
        _cleanup_fclose_ FILE *f = fopen(x->process, "re");
        if (!f)
                return error_set(err, errno, "cannot open '%s'", x->process);
        if (oci_load_process(x->process, f, op, err) < 0)
                return -1;
        request_of_process(op, &x->rq, limits);
        if (x->rq.tty && !x->console) {
                spec_free(&op->spec);
                return error_set(err, 0,
                                 "%s asks for a terminal, but no --console-socket was given",
                                 x->process);
        }
        return 0;
}

/* The running container's plan, and its processes into the request */
static int target(const struct oci_runtime *rt, struct ociexec *x, struct plan *plan,
                  struct error *err)
{
        struct stored o;
        enum store_status status;
        if (ocistate_open(rt, x->id, false, &o, err) < 0)
                return -1;
        int r = store_exec_target(&o, plan, &status, err);
        if (r > 0)
                return error_set(err, 0, "container \"%s\" is %s, not running", x->id,
                                 store_status_name(status));
        if (r < 0)
                return -1;
        x->rq.pid = o.rec.pid;
        x->rq.start = o.rec.pid_start;
        x->rq.workload = o.rec.workload;
        x->rq.workload_start = o.rec.workload_start;
        return 0;
}

int ociexec_run(const struct oci_runtime *rt, struct ociexec *x, int *ret_status, struct error *err)
{
        struct oci_process op;
        struct plan_rlimit limits[SPEC_NLIMITS];
        struct plan plan;
        if (x->process && load_process(x, &op, limits, err) < 0)
                return -1;
        int r = target(rt, x, &plan, err);
        if (r == 0 && ocistate_seal(rt, &plan, err) < 0) {
                plan_free(&plan);
                r = -1;
        }
        if (r == 0) {
                struct execing c = {.rt = rt, .x = x};
                struct container_hooks hooks = {.warn = on_warn,
                                                .created = on_exec_created,
                                                .pty = x->rq.tty && x->console ? on_pty : NULL,
                                                .ctx = &c};
                error_clear(&c.err);
                if (container_enter(&plan, &x->rq, &hooks, ret_status, err) < 0)
                        r = -1;
                else if (c.failed)
                        r = -1, *err = c.err;
                else if (x->rq.detach)
                        *ret_status = 0;
                plan_free(&plan);
        }
        if (x->process)
                spec_free(&op.spec);
        return r;
}
