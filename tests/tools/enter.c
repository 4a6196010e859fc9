/* enter [--trace] [-t] [-u UID:GID] [-e K=V]... [-w DIR] [--start TICKS] SPEC PID -- CMD...
 *
 * The test driver of container_enter() (runtime/launch/enter.c), beside `crib exec`, which
 * reads the plan and the pid from a container's state: this one plans SPEC as `crib run` does
 * (spec_load, plan_host_gather, plan_build) and runs CMD in the container whose first process is
 * PID (crib run's clone child). Exits as `crib run` does: the program's status, 128+N for a signal,
 * 125/126/127 with the error on stderr. tests/e2e/20-exec.t uses it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "launch/enter.h"
#include "spec/spec.h"

static void print_line(void *ctx, const char *line)
{
        fprintf(stderr, "%s: %s\n", (const char *)ctx, line);
}

static int fail(const struct error *err)
{
        fprintf(stderr, "enter: error: %s", err->msg);
        if (err->errnum)
                fprintf(stderr, ": %s", strerror(err->errnum));
        fprintf(stderr, "\n");
        if (err->hint[0])
                fprintf(stderr, "  hint: %s\n", err->hint);
        return error_exit_status(err);
}

int main(int argc, char **argv)
{
        struct enter_request rq = {0};
        bool trace = false;
        char *env[64];
        size_t nenv = 0;
        const char *spec_path = NULL, *pid = NULL;
        int i;
        for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
                if (!strcmp(argv[i], "--trace"))
                        trace = true;
                else if (!strcmp(argv[i], "-t"))
                        rq.tty = true;
                else if (!strcmp(argv[i], "-u") && i + 1 < argc) {
                        unsigned u, g;
                        if (sscanf(argv[++i], "%u:%u", &u, &g) != 2)
                                return fprintf(stderr, "enter: -u UID:GID\n"), 125;
                        rq.user_set = true;
                        rq.uid = u;
                        rq.gid = g;
                } else if (!strcmp(argv[i], "-e") && i + 1 < argc && nenv < 63)
                        env[nenv++] = argv[++i];
                else if (!strcmp(argv[i], "-w") && i + 1 < argc)
                        rq.cwd = argv[++i];
                else if (!strcmp(argv[i], "--start") && i + 1 < argc)
                        rq.start = strtoull(argv[++i], NULL, 10);
                else if (!spec_path)
                        spec_path = argv[i];
                else if (!pid)
                        pid = argv[i];
                else
                        return fprintf(stderr, "enter: unexpected '%s'\n", argv[i]), 125;
        }
        if (!spec_path || !pid || i + 1 >= argc)
                return fprintf(stderr, "usage: enter [options] SPEC PID -- CMD...\n"), 125;
        env[nenv] = NULL;
        rq.env = nenv ? env : NULL;
        rq.pid = (pid_t)atoi(pid);
        rq.argv = &argv[i + 1];

        struct error err;
        error_clear(&err);
        FILE *f = fopen(spec_path, "re");
        if (!f)
                return fprintf(stderr, "enter: cannot open '%s'\n", spec_path), 125;
        struct spec spec;
        int loaded = spec_load(spec_path, f, true, &spec, &err);
        fclose(f);
        if (loaded < 0)
                return fail(&err);
        struct plan_host host;
        plan_host_gather(&spec, &host);
        struct plan plan;
        int planned = plan_build(&spec, &host, &(struct plan_opts){.trace = trace}, &plan, &err);
        spec_free(&spec);
        if (planned < 0)
                return fail(&err);
        struct container_hooks hooks = {
                .trace = print_line, .warn = print_line, .ctx = (void *)"enter"};
        int status = 0, code;
        if (container_enter(&plan, &rq, &hooks, &status, &err) < 0)
                code = fail(&err);
        else if (WIFEXITED(status))
                code = WEXITSTATUS(status);
        else
                code = 128 + WTERMSIG(status);
        plan_free(&plan);
        return code;
}
