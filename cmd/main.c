/* main.c - the crib command line: parse argv, call runtime/, print the one message, exit.
 * Its table of commands (below main's helpers) is what crib dispatches, and what an unknown
 * command is told.
 *
 *   crib run [--trace] [-d] [--name NAME] [--count N] SPEC [-- PROGRAM ARGS...]
 *   crib ps | exec | stop | kill | rm | wait | logs ...   (lifecycle.c)
 *   crib spec | levels | version | help
 *   crib check ...    (check.c)
 *   crib bench ...    (bench.c)
 *   crib seccomp ...  (seccomp.c)
 *   crib image ...    (the crib-image program beside crib: cmd/image/crib-image.c)
 *   crib oci ...      (oci.c: runc's command line; also as crib-runc, a link to crib)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "container.h"
#include "lifecycle.h"
#include "log.h"
#include "monitor.h"
#include "plan.h"
#include "sealed.h"
#include "spec.h"
#include "specfile.h"
#include "state.h"
#include "sys.h"
#include "trace.h"
#include "userns.h"
#include "words.h"
#include "output.h"

#ifndef CRIB_VERSION
#define CRIB_VERSION "0.1"
#endif

static const char example_spec[] =
#include "example.h"
        ;

static const char usage[] =
        "usage: crib run [--trace] [-d] [--name NAME] [--log-size BYTES] [--count N]\n"
        "                SPEC.ini|DIR [-- PROGRAM ARGS...]\n"
        "                          run a container; DIR: the DIR/crib.ini of 'crib image\n"
        "                          import'; -d: in the background, print its name;\n"
        "                          --count N: N containers one after the other, from one\n"
        "                          plan (their seccomp filter cloned from a template where\n"
        "                          the kernel has SECCOMP_CLONE_FILTER)\n"
        "       crib ps [-a] [--format=table|ini|json]\n"
        "                          list the running (-a: all) containers\n"
        "       crib exec [-t] [-u UID:GID] [-e K=V]... [-w DIR] NAME -- PROGRAM ARGS...\n"
        "                          run a program in a running container\n"
        "       crib stop [-t SECONDS] NAME   SIGTERM, then SIGKILL after SECONDS (10)\n"
        "       crib kill NAME [SIGNAL]       send a signal (TERM unless told)\n"
        "       crib rm [-f] NAME...          forget a stopped container (-f: kill it first)\n"
        "       crib wait NAME                wait for it to end; its exit status\n"
        "       crib logs [-f] [--tail N] NAME\n"
        "                          a detached container's output\n"
        "       crib spec          print an annotated example spec that runs as is\n"
        "       crib levels        print the security levels side by side\n"
        "       crib check [--spec SPEC] [--rootfs DIR] [--format=ini]\n"
        "                          test what this kernel supports, end to end\n"
        "       crib bench --rootfs DIR [--quick] [--levels] [--format=csv]\n"
        "       crib bench --seccomp [--format=csv]\n"
        "                          measure what the sandbox costs\n"
        "       crib bench --own SPEC [--runs N]\n"
        "                          time crib run's work before the clone, cold and warm\n"
        "       crib seccomp export|show|explain|builtin ...\n"
        "                          the seccomp programs ('crib seccomp help')\n"
        "       crib image import [--platform P] [--max-size SIZE] SOURCE DIR\n"
        "                          a saved image (docker save, OCI layout, docker export)\n"
        "                          made into DIR/rootfs and DIR/crib.ini ('crib image help')\n"
        "       crib image rm DIR             remove an import\n"
        "       crib image platform           this machine's platform, as images name it\n"
        "       crib oci [--root DIR] [--log FILE] [--log-format text|json] COMMAND ...\n"
        "                          runc's command line, for podman and containerd (also\n"
        "                          as crib-runc, a link to crib; see crib(1)); COMMAND:\n"
        "                          create, start, state, kill, delete, ps, exec, pause,\n"
        "                          resume, update, version\n"
        "       crib --root DIR COMMAND ...   keep the containers' state in DIR\n"
        "       crib version\n"
        "       crib help\n"
        "\n"
        "Runs PROGRAM (or the spec's [process] args) in a container described by SPEC.ini,\n"
        "as you, with no daemon. See crib(1) and crib.ini(5).\n"
        "\n"
        "Exit status: the workload's own; 128+N when signal N killed it; 125 when crib\n"
        "failed (spec, command line, setup); 126 when the program could not be executed;\n"
        "127 when it was not found in the container.\n";

static int usage_error(const char *fmt, const char *arg)
{
        output_usage_error(fmt, arg);
        return EXIT_CRIB_ERROR;
}

char **crib_argv; /* lifecycle.h */

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

static int cmd_run(int argc, char **argv)
{
        bool trace = false, detach = false;
        const char *path = NULL;
        char name[STATE_NAME_MAX + 1] = "";
        uint64_t log_limit = LOG_LIMIT_DEFAULT;
        char **override = NULL;
        long count = 1;
        struct error err;
        error_clear(&err);

        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "--")) {
                        override = &argv[i + 1];
                        if (!*override)
                                return usage_error("%s", "'--' must be followed by a program");
                        break;
                } else if (!strcmp(argv[i], "--trace")) {
                        trace = true;
                } else if (!strcmp(argv[i], "-d") || !strcmp(argv[i], "--detach")) {
                        detach = true;
                } else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
                        if (!state_name_valid(argv[++i]))
                                return usage_error("'%s' is not a container name (1 to 64 "
                                                   "letters, digits, '_', '.' or '-', starting "
                                                   "with a letter or digit)",
                                                   argv[i]);
                        snprintf(name, sizeof name, "%s", argv[i]);
                } else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
                        char *end;
                        count = strtol(argv[++i], &end, 10);
                        if (*end || end == argv[i] || count < 1 || count > 1000)
                                return usage_error("'%s' is not a number of containers (1 to "
                                                   "1000)",
                                                   argv[i]);
                } else if (!strcmp(argv[i], "--log-size") && i + 1 < argc) {
                        if (parse_size(argv[++i], &log_limit) < 0)
                                return usage_error("'%s' is not a size for the log (bytes, or "
                                                   "with k or M; at least 8k)",
                                                   argv[i]);
                } else if (argv[i][0] == '-' && argv[i][1]) {
                        return usage_error("unknown option '%s' for 'crib run'", argv[i]);
                } else if (!path) {
                        path = argv[i];
                } else {
                        return usage_error("unexpected argument '%s' (put the program after "
                                           "'--')",
                                           argv[i]);
                }
        }
        if (!path)
                return usage_error("%s", "'crib run' needs a spec file");
        if (count > 1 && (detach || name[0]))
                return usage_error("%s", "'--count' starts unnamed containers in the foreground, "
                                         "one after the other: not with -d or --name");

        uint64_t t0 = trace_now_us();
        char spec_path[4096]; /* SPEC, or DIR/crib.ini */
        _cleanup_fclose_ FILE *f = specfile_open(path, spec_path, sizeof spec_path, &err);
        if (!f)
                return output_error(&err);
        path = spec_path;
        struct spec spec;
        int loaded = spec_load(path, f, override != NULL, &spec, &err);
        fclose(steal_ptr(&f)); /* nothing of crib's stays open while the container runs */
        if (loaded < 0)
                return output_error(&err);
        if (override && spec_override_args(&spec, override, &err) < 0) {
                spec_free(&spec);
                return output_error(&err);
        }
        /* host root with ptrace(2) could reach crib's binary through /proc/1/exe: run from a
         * sealed copy of it instead (sealed.c), before anything is planned */
        if (!spec.ns_user && (spec.caps & (1ULL << CAP_SYS_PTRACE)) && !sealed_running()) {
                if (trace)
                        fprintf(stderr, "crib: trace: parent: user = no with SYS_PTRACE: "
                                        "running again from a sealed copy of crib\n");
                spec_free(&spec);
                sealed_reexec(crib_argv, environ, &err);
                return output_error(&err);
        }
        /* the host's facts planning depends on: ids, terminal, environment, kernel */
        struct plan_host host;
        plan_host_gather(&spec, &host);
        if (detach)
                host.stdin_tty = false; /* its stdin is /dev/null: terminal = auto gives none */
        /* slirp4netns's API socket (for publish) lives under the state root for a moment */
        if (spec.net_mode == SPEC_NET_SLIRP4NETNS && spec.nports &&
            lifecycle_root_path(host.run_dir, sizeof host.run_dir, &err) < 0) {
                spec_free(&spec);
                return output_error(&err);
        }
        /* root's containers map root's own range of ids: give it one the first time */
        if (host.euid == 0 && host.initial_userns && spec.ns_user &&
            (!spec_in_file(&spec, SPEC_KEY_IDMAP_UID) || spec.uidmap.is_auto ||
             !spec_in_file(&spec, SPEC_KEY_IDMAP_GID) || spec.gidmap.is_auto)) {
                char note[256];
                if (userns_root_range(note, sizeof note, &err) < 0) {
                        spec_free(&spec);
                        return output_error(&err);
                }
                if (note[0])
                        output_warning("%s", note);
        }
        struct plan plan;
        int planned = plan_build(&spec, &host, trace, &plan, &err);
        spec_free(&spec); /* the plan keeps nothing of it */
        if (planned < 0)
                return output_error(&err);
        if (trace) {
                output_line(stderr,
                            "crib: trace: parent: read spec '%s' and plan the container  %llu us",
                            path, (unsigned long long)(trace_now_us() - t0));
                output_line(stderr, "crib: trace: parent:   seccomp program: %s", plan.seccomp_how);
        }
        for (size_t i = 0; i < plan.nwarnings; i++) {
                /* AppArmor off: said once per boot and user, always with --trace */
                if (i + 1 == plan.apparmor_warning && !trace && said_this_boot("apparmor-off"))
                        continue;
                output_warning_line(NULL, plan.warnings[i]);
        }

        struct container_hooks hooks = {.trace = output_trace_line, .warn = output_warning_line};
        int status = 0, code;
        if ((detach || name[0]) &&
            lifecycle_create(&plan, path, name, sizeof name, detach, &err) < 0) {
                plan_free(&plan);
                return output_error(&err);
        }
        if (detach) {
                char root[4096];
                pid_t monitor;
                struct monitor_opts mo = {.root = root,
                                          .uid = geteuid(),
                                          .name = name,
                                          .log_limit = log_limit,
                                          .exit_status = lifecycle_exit_status};
                if (lifecycle_root_path(root, sizeof root, &err) < 0 ||
                    monitor_start(&plan, &mo, &hooks, &monitor, &err) < 0)
                        code = output_error(&err);
                else
                        code = printf("%s\n", name) < 0 ? EXIT_CRIB_ERROR : 0;
                plan_free(&plan);
                return code;
        }
        if (name[0]) {
                /* listed while it runs: this process is its monitor */
                lifecycle_record_self(name);
                hooks.running = record_running;
                hooks.ctx = name;
        }
        /* a batch: its containers clone the filter from one template, when the kernel can */
        struct seccomp_template tmpl = {.pidfd = -1, .pid = -1};
        if (count > 1 && plan.seccomp.n)
                start_template(&plan, &tmpl, trace);
        hooks.seccomp_template = tmpl.pid > 0 ? &tmpl : NULL;
        code = 0;
        for (long i = 0; i < count; i++) {
                uint64_t t1 = trace_now_us();
                int one;
                if (container_run(&plan, &hooks, &status, &err) < 0)
                        one = output_error(&err);
                else
                        one = lifecycle_exit_status(status);
                if (name[0])
                        lifecycle_forget(name);
                if (trace)
                        fprintf(stderr,
                                "crib: trace: parent: container exited, status %d, %llu us after "
                                "clone\n",
                                one, (unsigned long long)(trace_now_us() - t1));
                if (count > 1)
                        fprintf(stderr, "crib: container %ld of %ld: exit status %d\n", i + 1,
                                count, one);
                if (one)
                        code = one; /* the batch's status: its last failure's */
                error_clear(&err);
        }
        seccomp_template_stop(&tmpl);
        plan_free(&plan);
        return code;
}

/* `crib image ...` is crib-image's (it links libarchive, which crib does not: crib stays
 * static); run it from beside crib, or from ../lib/crib/ (make install). argv[-1] is the word
 * "image" of crib's command line: it becomes crib-image's argv[0]. */
static int cmd_image(int argc, char **argv)
{
        (void)argc;
        char exe[1024], path[1100];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n > 0 && exe[0] == '/') {
                exe[n] = '\0';
                const char *dir = dirname(exe);
                const char *const tries[] = {"%s/crib-image", "%s/../lib/crib/crib-image"};
                for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
                        snprintf(path, sizeof path, tries[i], dir);
                        if (access(path, X_OK) == 0) {
                                argv[-1] = path;
                                execv(path, argv - 1);
                                break;
                        }
                }
        }
        struct error err;
        error_set(&err, 0, "'crib image' needs crib-image, which is not installed beside crib");
        error_hint(&err, "it is built by 'make' where libarchive and libcrypto are: sudo apt-get "
                         "install libarchive-dev libssl-dev, then make (and make install)");
        return output_error(&err);
}

int cmd_levels(int argc, char **argv);
int cmd_seccomp(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_bench(int argc, char **argv);

static int cmd_spec(int argc, char **argv)
{
        (void)argc, (void)argv;
        fputs(example_spec, stdout);
        return 0;
}

static int cmd_version(int argc, char **argv)
{
        (void)argc, (void)argv;
        printf("crib %s\n", CRIB_VERSION);
        return 0;
}

static int cmd_help(int argc, char **argv)
{
        (void)argc, (void)argv;
        fputs(usage, stdout);
        return 0;
}

/* crib's commands, in the order of `crib help`: what main() dispatches, and what an unknown
 * command is told (tests/e2e/32-cli.t checks each is in `crib help` and crib(1)) */
static const struct command {
        const char *name;
        int (*run)(int argc, char **argv); /* the arguments after the command's name */
        bool no_args;                      /* 'crib NAME' takes no arguments */
} commands[] = {
        {"run", cmd_run, false},         /* this file */
        {"ps", cmd_ps, false},           /* lifecycle.c */
        {"exec", cmd_exec, false},       /* lifecycle.c */
        {"stop", cmd_stop, false},       /* lifecycle.c */
        {"kill", cmd_kill, false},       /* lifecycle.c */
        {"rm", cmd_rm, false},           /* lifecycle.c */
        {"wait", cmd_wait, false},       /* lifecycle.c */
        {"logs", cmd_logs, false},       /* lifecycle.c */
        {"spec", cmd_spec, true},        /* this file */
        {"levels", cmd_levels, true},    /* levels.c */
        {"check", cmd_check, false},     /* check.c */
        {"bench", cmd_bench, false},     /* bench.c */
        {"seccomp", cmd_seccomp, false}, /* seccomp.c */
        {"image", cmd_image, false},     /* crib-image, beside crib */
        {"oci", cmd_oci, false},         /* oci.c; also before --root, above */
        {"version", cmd_version, true},  /* this file */
        {"help", cmd_help, true},        /* this file */
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Words other tools take, which crib does not, and what crib does instead */
static const struct {
        const char *word, *instead;
} elsewhere[] = {
        {"pull", "crib does not fetch images yet: save one (podman save -o image.tar IMAGE, or "
                 "docker save), then crib image import image.tar DIR and crib run DIR"},
        {"start", "'crib run -d SPEC' starts a container in the background ('crib oci start' is "
                  "runc's, for engines)"},
        {"create", "'crib run -d SPEC' starts a container in the background ('crib oci create' "
                   "is runc's, for engines)"},
};

/* No command, or one crib does not have: say which, the one it is closest to (a typo), and
 * every command crib has. */
static int unknown_command(const char *cmd)
{
        struct error err;
        char list[512] = "";
        const char *best = NULL, *instead = NULL;
        /* one edit up to five letters, two from six: 'exce' is 'exec', 'pull' is not 'kill' */
        size_t bestd = cmd && strlen(cmd) > 5 ? 3 : 2;
        for (size_t i = 0; i < NCOMMANDS; i++) {
                size_t d = cmd ? words_distance(cmd, commands[i].name) : SIZE_MAX;
                if (d < bestd)
                        bestd = d, best = commands[i].name;
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                         commands[i].name);
        }
        for (size_t i = 0; cmd && i < sizeof elsewhere / sizeof elsewhere[0]; i++)
                if (!strcmp(cmd, elsewhere[i].word))
                        instead = elsewhere[i].instead;
        if (!cmd)
                error_set(&err, 0, "no command given");
        else if (best && !instead)
                error_set(&err, 0, "unknown command '%s'; did you mean '%s'?", cmd, best);
        else
                error_set(&err, 0, "unknown command '%s'", cmd);
        if (instead)
                error_hint(&err, "%s", instead);
        error_hint(&err, "crib's commands: %s", list);
        error_hint(&err, "run 'crib help' for the usage");
        return output_error(&err);
}

int main(int argc, char **argv)
{
        crib_argv = argv;
        /* `crib run`'s spec, plan and what reads them reach ~90 KB down the stack: fault it in
         * with one call (sys.h) rather than page by page (18 of its ~140 page faults) */
        sys_prefault_stack(96 * 1024);
        /* a caller that ignores SIGCHLD (SIG_IGN survives exec) would have the kernel reap our
         * children, and crib's init the workload, unseen: the container would never end */
        signal(SIGCHLD, SIG_DFL);
        /* an engine runs its runtime by path with runc's command line: crib-runc is crib */
        const char *self = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
        if (!strcmp(self, "crib-runc"))
                return cmd_oci(argc - 1, argv + 1);
        if (argc >= 2 && !strcmp(argv[1], "oci"))
                return cmd_oci(argc - 2, argv + 2); /* its own --root, as runc's */
        if (argc >= 3 && !strcmp(argv[1], "--root")) {
                /* absolute: crib run -d's monitor works from / */
                static char root[4096];
                char cwd[2048];
                if (argv[2][0] != '/' && getcwd(cwd, sizeof cwd))
                        snprintf(root, sizeof root, "%s/%s", cwd, argv[2]);
                else
                        snprintf(root, sizeof root, "%s", argv[2]);
                lifecycle_root_override = root;
                argc -= 2;
                argv += 2;
        }
        if (argc < 2)
                return unknown_command(NULL);
        const char *cmd = argv[1];
        if (!strcmp(cmd, "--version"))
                cmd = "version";
        else if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
                cmd = "help";
        for (size_t i = 0; i < NCOMMANDS; i++) {
                if (strcmp(cmd, commands[i].name))
                        continue;
                if (commands[i].no_args && argc > 2)
                        return usage_error("'crib %s' takes no arguments", cmd);
                return commands[i].run(argc - 2, argv + 2);
        }
        return unknown_command(cmd);
}
