/* run.c - `crib run`: read the spec, plan the container, record it when it has a name or runs
 * in the background, and run it (runtime/container), once or --count times.
 *
 *   crib run [--trace] [-d] [--name NAME] [--log-size BYTES] [--count N] SPEC [-- PROGRAM ARGS...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "launch/container.h"
#include "host/kernel.h"
#include "lifecycle.h"
#include "state/log.h"
#include "launch/monitor.h"
#include "plan/plan.h"
#include "launch/sealed.h"
#include "spec/spec.h"
#include "specfile.h"
#include "state/state.h"
#include "host/subids.h"
#include "base/trace.h"
#include "output.h"

int cmd_run(int argc, char **argv);

static int usage_error(const char *fmt, const char *arg)
{
        output_usage_error(fmt, arg);
        return EXIT_CRIB_ERROR;
}

/* Whether the warning `what` was said already since the machine booted, to this user: a file
 * in the user's state directory (runtime/state) holds the boot's id. The first time, it is
 * written and the answer is no; without a state directory (no XDG_RUNTIME_DIR) it is always
 * no, and the warning is said every time. */
static bool said_this_boot(const char *what)
{
        char path[4096], boot[64] = "", was[64], file[64];
        struct error err;
        _cleanup_fclose_ FILE *b = fopen("/proc/sys/kernel/random/boot_id", "re");
        if (!b || !fgets(boot, sizeof boot, b))
                return false;
        if (state_root_path(NULL, geteuid(), getenv("XDG_RUNTIME_DIR"), path, sizeof path, &err) <
            0)
                return false;
        _cleanup_close_ int root = state_open_root(path, geteuid(), &err);
        if (root < 0)
                return false;
        /* "_" first: never a container's name, which starts with a letter or digit */
        snprintf(file, sizeof file, "_said-%s", what);
        if (state_read(root, file, was, sizeof was, &err) >= 0 && !strcmp(was, boot))
                return true;
        state_write(root, file, boot, strlen(boot), &err);
        return false;
}

/* BYTES, or with a k or M suffix; at least LOG_LIMIT_MIN, at most 1 GiB */
static int parse_size(const char *s, uint64_t *ret)
{
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno || end == s || s[0] == '-')
                return -1;
        if (*end == 'k' || *end == 'K')
                v *= 1024, end++;
        else if (*end == 'M')
                v *= 1024 * 1024, end++;
        if (*end || v < LOG_LIMIT_MIN || v > 1024ULL * 1024 * 1024)
                return -1;
        *ret = v;
        return 0;
}

static void record_running(void *ctx, pid_t pid, pid_t workload)
{
        lifecycle_record_running(ctx, pid, workload);
}

/* `crib run --count N`: a seccomp template for the batch (runtime/seccomp/seccomp_template.c),
 * on a kernel with SECCOMP_CLONE_FILTER; without one, each container loads the program. */
static void start_template(const struct plan *plan, struct seccomp_template *t, bool trace)
{
        struct error err;
        uint64_t t0 = trace_now_us();
        if (!seccomp_kernel_has_clone_filter()) {
                if (trace)
                        fprintf(stderr, "crib: trace: parent: no seccomp template: the kernel "
                                        "has no SECCOMP_CLONE_FILTER; each container loads the "
                                        "program\n");
                return;
        }
        if (seccomp_template_start(&plan->seccomp, t, &err) < 0) {
                if (trace)
                        output_line(stderr,
                                    "crib: trace: parent: no seccomp template: %s: %s; each "
                                    "container loads the program",
                                    err.msg, strerror(err.errnum));
                return;
        }
        if (trace)
                fprintf(stderr,
                        "crib: trace: parent: seccomp template pid %d holds the filter (%zu "
                        "instructions)  %llu us\n",
                        (int)t->pid, t->n, (unsigned long long)(trace_now_us() - t0));
}

/* What `crib run`'s command line asks */
struct run_request {
        bool trace, detach;
        const char *path;              /* SPEC or DIR, as given; then spec_path */
        char spec_path[4096];          /* SPEC, or DIR/crib.ini */
        char name[STATE_NAME_MAX + 1]; /* --name, or the one lifecycle_create generates */
        uint64_t log_limit;            /* --log-size */
        char **override;               /* the program after '--', or NULL */
        long count;                    /* --count */
};

/* argv into `rq`; 0, or the exit status of a usage error (said) */
static int run_parse(int argc, char **argv, struct run_request *rq)
{
        *rq = (struct run_request){.log_limit = LOG_LIMIT_DEFAULT, .count = 1};
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "--")) {
                        rq->override = &argv[i + 1];
                        if (!*rq->override)
                                return usage_error("%s", "'--' must be followed by a program");
                        break;
                } else if (!strcmp(argv[i], "--trace")) {
                        rq->trace = true;
                } else if (!strcmp(argv[i], "-d") || !strcmp(argv[i], "--detach")) {
                        rq->detach = true;
                } else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
                        if (!state_name_valid(argv[++i]))
                                return usage_error("'%s' is not a container name (1 to 64 "
                                                   "letters, digits, '_', '.' or '-', starting "
                                                   "with a letter or digit)",
                                                   argv[i]);
                        snprintf(rq->name, sizeof rq->name, "%s", argv[i]);
                } else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
                        char *end;
                        rq->count = strtol(argv[++i], &end, 10);
                        if (*end || end == argv[i] || rq->count < 1 || rq->count > 1000)
                                return usage_error("'%s' is not a number of containers (1 to "
                                                   "1000)",
                                                   argv[i]);
                } else if (!strcmp(argv[i], "--log-size") && i + 1 < argc) {
                        if (parse_size(argv[++i], &rq->log_limit) < 0)
                                return usage_error("'%s' is not a size for the log (bytes, or "
                                                   "with k or M; at least 8k)",
                                                   argv[i]);
                } else if (argv[i][0] == '-' && argv[i][1]) {
                        return usage_error("unknown option '%s' for 'crib run'", argv[i]);
                } else if (!rq->path) {
                        rq->path = argv[i];
                } else {
                        return usage_error("unexpected argument '%s' (put the program after "
                                           "'--')",
                                           argv[i]);
                }
        }
        if (!rq->path)
                return usage_error("%s", "'crib run' needs a spec file");
        if (rq->count > 1 && (rq->detach || rq->name[0]))
                return usage_error("%s", "'--count' starts unnamed containers in the foreground, "
                                         "one after the other: not with -d or --name");
        return 0;
}

/* Read the spec file (or DIR/crib.ini) into `spec`, with the program after '--'; nothing is
 * left to free on failure. A plan that would be host root with ptrace(2) runs crib again from
 * a sealed copy here: this returns only when that failed. */
static int run_read_spec(struct run_request *rq, struct spec *spec, struct error *err)
{
        _cleanup_fclose_ FILE *f =
                specfile_open(rq->path, rq->spec_path, sizeof rq->spec_path, err);
        if (!f)
                return -1;
        rq->path = rq->spec_path;
        int loaded = spec_load(rq->path, f, rq->override != NULL, spec, err);
        fclose(steal_ptr(&f)); /* nothing of crib's stays open while the container runs */
        if (loaded < 0)
                return -1;
        if (rq->override && spec_override_args(spec, rq->override, err) < 0) {
                spec_free(spec);
                return -1;
        }
        /* host root with ptrace(2) could reach crib's binary through /proc/1/exe: run from a
         * sealed copy of it instead (sealed.c), before anything is planned */
        if (!spec->ns_user && (spec->caps & (1ULL << CAP_SYS_PTRACE)) && !sealed_running()) {
                if (rq->trace)
                        fprintf(stderr, "crib: trace: parent: user = no with SYS_PTRACE: "
                                        "running again from a sealed copy of crib\n");
                spec_free(spec);
                sealed_reexec(crib_argv, environ, err);
                return -1;
        }
        return 0;
}

/* Plan the container from `spec` and the host's facts; `spec` is freed either way. */
static int run_plan(struct run_request *rq, struct spec *spec, struct plan *plan, struct error *err)
{
        /* the host's facts planning depends on: ids, terminal, environment, kernel */
        struct plan_host host;
        plan_host_gather(spec, &host);
        if (rq->detach)
                host.stdin_tty = false; /* its stdin is /dev/null: terminal = auto gives none */
        /* slirp4netns's API socket (for publish) lives under the state root for a moment */
        if (spec->net_mode == SPEC_NET_SLIRP4NETNS && spec->nports &&
            lifecycle_root_path(host.run_dir, sizeof host.run_dir, err) < 0) {
                spec_free(spec);
                return -1;
        }
        /* root's containers map root's own range of ids: give it one the first time */
        if (host.euid == 0 && host.initial_userns && spec->ns_user &&
            (!spec_in_file(spec, SPEC_KEY_IDMAP_UID) || spec->uidmap.is_auto ||
             !spec_in_file(spec, SPEC_KEY_IDMAP_GID) || spec->gidmap.is_auto)) {
                char note[256];
                if (userns_root_range(note, sizeof note, err) < 0) {
                        spec_free(spec);
                        return -1;
                }
                if (note[0])
                        output_warning("%s", note);
        }
        /* -d without --name: a name of crib's, which the plan is built with */
        if (rq->detach && !rq->name[0] && lifecycle_name(rq->name, sizeof rq->name, err) < 0) {
                spec_free(spec);
                return -1;
        }
        struct plan_opts opts = {.trace = rq->trace, .name = rq->name};
        int planned = plan_build(spec, &host, &opts, plan, err);
        spec_free(spec); /* the plan keeps nothing of it */
        return planned;
}

/* --trace's account of the planning (`us` it took), and the plan's warnings */
static void run_tell_plan(const struct run_request *rq, const struct plan *plan, uint64_t us)
{
        if (rq->trace) {
                output_line(stderr,
                            "crib: trace: parent: read spec '%s' and plan the container  %llu us",
                            rq->path, (unsigned long long)us);
                output_line(stderr, "crib: trace: parent:   seccomp program: %s",
                            plan->seccomp_how);
        }
        for (size_t i = 0; i < plan->nwarnings; i++) {
                /* AppArmor off: said once per boot and user, always with --trace */
                if (i + 1 == plan->apparmor_warning && !rq->trace && said_this_boot("apparmor-off"))
                        continue;
                output_warning_line(NULL, plan->warnings[i]);
        }
}

/* `crib run -d`: a monitor process runs the recorded container; print its name */
static int run_detached(struct run_request *rq, const struct plan *plan)
{
        struct container_hooks hooks = {.trace = output_trace_line, .warn = output_warning_line};
        struct error err;
        char root[4096];
        pid_t monitor;
        struct monitor_opts mo = {.root = root,
                                  .uid = geteuid(),
                                  .name = rq->name,
                                  .log_limit = rq->log_limit,
                                  .exit_status = lifecycle_exit_status};
        if (lifecycle_root_path(root, sizeof root, &err) < 0 ||
            monitor_start(plan, &mo, &hooks, &monitor, &err) < 0)
                return output_error(&err);
        return printf("%s\n", rq->name) < 0 ? EXIT_CRIB_ERROR : 0;
}

/* In the foreground: this process runs the container (--count times) and waits for it; its
 * exit status, or the last failure's of a batch */
static int run_foreground(struct run_request *rq, const struct plan *plan)
{
        struct container_hooks hooks = {.trace = output_trace_line, .warn = output_warning_line};
        struct error err;
        error_clear(&err);
        if (rq->name[0]) {
                /* listed while it runs: this process is its monitor */
                lifecycle_record_self(rq->name);
                hooks.running = record_running;
                hooks.ctx = rq->name;
        }
        /* a batch: its containers clone the filter from one template, when the kernel can */
        struct seccomp_template tmpl = {.pidfd = -1, .pid = -1};
        if (rq->count > 1 && plan->seccomp.n)
                start_template(plan, &tmpl, rq->trace);
        hooks.seccomp_template = tmpl.pid > 0 ? &tmpl : NULL;
        int status = 0, code = 0;
        for (long i = 0; i < rq->count; i++) {
                uint64_t t1 = trace_now_us();
                int one;
                if (container_run(plan, &hooks, &status, &err) < 0)
                        one = output_error(&err);
                else
                        one = lifecycle_exit_status(status);
                if (rq->name[0])
                        lifecycle_forget(rq->name);
                if (rq->trace)
                        fprintf(stderr,
                                "crib: trace: parent: container exited, status %d, %llu us after "
                                "clone\n",
                                one, (unsigned long long)(trace_now_us() - t1));
                if (rq->count > 1)
                        fprintf(stderr, "crib: container %ld of %ld: exit status %d\n", i + 1,
                                rq->count, one);
                if (one)
                        code = one; /* the batch's status: its last failure's */
                error_clear(&err);
        }
        seccomp_template_stop(&tmpl);
        return code;
}

/* `crib run`: the command line; the spec read and planned (the plan owns what it needs);
 * the container recorded when it has a name or runs in the background; then run */
int cmd_run(int argc, char **argv)
{
        struct run_request rq;
        struct error err;
        error_clear(&err);
        int code = run_parse(argc, argv, &rq);
        if (code)
                return code;
        uint64_t t0 = trace_now_us();
        struct spec spec;
        struct plan plan;
        if (run_read_spec(&rq, &spec, &err) < 0 || run_plan(&rq, &spec, &plan, &err) < 0)
                return output_error(&err);
        uint64_t planned = trace_now_us() - t0;
        /* a name that is taken is the one error, without the plan's warnings: nothing runs */
        if ((rq.detach || rq.name[0]) &&
            lifecycle_create(&plan, rq.path, rq.name, rq.detach, &err) < 0) {
                plan_free(&plan);
                return output_error(&err);
        }
        run_tell_plan(&rq, &plan, planned);
        code = rq.detach ? run_detached(&rq, &plan) : run_foreground(&rq, &plan);
        plan_free(&plan);
        return code;
}
