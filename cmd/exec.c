/* exec.c - crib exec: a new process in a running container.
 *
 *   crib exec [-t] [-u UID:GID] [-e K=V]... [-w DIR] NAME -- PROGRAM ARGS...
 *
 * The container by name is runtime/state/store.h; what it runs, and how a process joins a
 * container, is runtime/launch/enter.c.
 */
#define _GNU_SOURCE
#include "lifecycle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch/enter.h"
#include "output.h"
#include "launch/sealed.h"
#include "state/store.h"
#include "base/syntax.h"

int lifecycle_seal(const struct plan *p, bool trace, struct error *err)
{
        if (!sealed_needed(p))
                return 0;
        if (trace)
                output_line(stderr, "crib: trace: no user namespace and SYS_PTRACE: running "
                                    "again from a sealed copy of crib");
        return sealed_reexec(crib_argv, environ, err);
}

int cmd_exec(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        static const char use[] =
                "usage: crib exec [-t] [-u UID:GID] [-e K=V]... [-w DIR] NAME -- PROGRAM ARGS...";
        struct enter_request rq = {0};
        char *env[65];
        size_t nenv = 0;
        const char *name = NULL;
        int i = 0;
        for (; i < argc && !name; i++) {
                const char *a = argv[i];
                if (!strcmp(a, "-t") || !strcmp(a, "--tty")) {
                        rq.tty = true;
                } else if ((!strcmp(a, "-u") || !strcmp(a, "--user")) && i + 1 < argc) {
                        bool has_gid = false;
                        if (syntax_uid_gid(argv[++i], &rq.uid, &rq.gid, &has_gid) < 0 || !has_gid)
                                return lifecycle_usage(
                                        "'%s' is not UID:GID (numbers, as inside the "
                                        "container)",
                                        argv[i]);
                        rq.user_set = true;
                } else if ((!strcmp(a, "-e") || !strcmp(a, "--env")) && i + 1 < argc) {
                        if (!strchr(argv[++i], '=') || argv[i][0] == '=')
                                return lifecycle_usage("'%s' is not K=V", argv[i]);
                        if (nenv == 64)
                                return lifecycle_usage("%s", "at most 64 -e");
                        env[nenv++] = argv[i];
                } else if ((!strcmp(a, "-w") || !strcmp(a, "--workdir")) && i + 1 < argc) {
                        rq.cwd = argv[++i];
                        if (rq.cwd[0] != '/')
                                return lifecycle_usage(
                                        "'%s' is not an absolute path in the container", rq.cwd);
                } else if (a[0] == '-') {
                        return lifecycle_usage("unknown option '%s' for 'crib exec'", a);
                } else {
                        name = a;
                }
        }
        if (i < argc && !strcmp(argv[i], "--"))
                i++;
        if (!name || i >= argc)
                return lifecycle_usage("%s", use);
        env[nenv] = NULL;
        rq.argv = &argv[i];
        rq.env = nenv ? env : NULL;

        struct stored o;
        struct plan plan;
        enum store_status state;
        int r = -1, code = 0;
        if (lifecycle_open(name, false, &o, &err) < 0 ||
            (r = store_exec_target(&o, &plan, &state, &err)) < 0) {
                code = output_error(&err);
        } else if (r > 0) {
                error_set(&err, 0, "'%s' is not running", name);
                code = output_error(&err);
        } else {
                rq.pid = o.rec.pid;
                rq.start = o.rec.pid_start;
                rq.workload = o.rec.workload;
                rq.workload_start = o.rec.workload_start;
        }
        bool planned = r == 0;
        if (planned && lifecycle_seal(&plan, plan.trace, &err) < 0) {
                code = output_error(&err);
                planned = false;
        }
        if (planned) {
                struct container_hooks hooks = {.warn = output_warning_line};
                int status;
                if (container_enter(&plan, &rq, &hooks, &status, &err) < 0)
                        code = output_error(&err);
                else
                        code = lifecycle_exit_status(status);
                plan_free(&plan);
        }
        return code;
}
