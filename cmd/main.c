/* main.c - the crib command line: parse argv, call runtime/, print the one message, exit.
 * Its table of commands (below main's helpers) is what crib dispatches, and what an unknown
 * command is told.
 *
 *   crib run [--trace] [-d] [--name NAME] [--count N] SPEC [-- PROGRAM ARGS...]   (run.c)
 *   crib run [-d] [--name NAME] [--rm] [--print-spec] [FLAGS] IMAGE [PROGRAM ARGS...]
 *   crib ps | exec | stop | kill | rm | wait | logs ...   (lifecycle.c)
 *   crib spec | levels | version | help
 *   crib check ...    (check.c)
 *   crib bench ...    (bench.c)
 *   crib seccomp ...  (seccomp.c)
 *   crib pull ...     (the crib-pull program beside crib: cmd/pull/crib-pull.c)
 *   crib image ...    (the crib-image program beside crib: cmd/image/crib-image.c)
 *   crib oci ...      (oci.c: runc's command line; also as crib-runc or runc, a link to crib)
 *   crib generate systemd SPEC [--name NAME] [--user]   (unit.c)
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lifecycle.h"
#include "plan/plan.h"
#include "base/sys.h"
#include "base/words.h"
#include "output.h"

#ifndef CRIB_VERSION
#define CRIB_VERSION "0.1"
#endif

static const char example_spec[] =
#include "example.h"
        ;

static const char usage[] =
        "usage: crib run [--trace[=explain]|--trace=svg FILE] [--step] [-d] [--name NAME] "
        "[--log-size BYTES] "
        "[--count N]\n"
        "                SPEC.ini|DIR [-- PROGRAM ARGS...]\n"
        "                          run a container; DIR: the DIR/crib.ini of 'crib image\n"
        "                          import'; -d: in the background, print its name;\n"
        "                          --count N: N containers one after the other, from one\n"
        "                          plan (their seccomp filter cloned from a template where\n"
        "                          the kernel has SECCOMP_CLONE_FILTER)\n"
        "       crib run [--trace[=explain]] [-d] [--name NAME] [--rm] [--print-spec] [-e K=V]\n"
        "                [--env-file FILE] [-v SRC:DST[:ro]] [-p [ADDR:]HOST:CTR[/udp]]\n"
        "                [-u UID[:GID]] [-w DIR] [--network none|pasta|slirp4netns|host]\n"
        "                [--memory BYTES] [--cpus N] [--pids-limit N] [--level LEVEL]\n"
        "                [--cap-add CAP] [--cap-drop CAP] [--read-only] [-i] [-t]\n"
        "                [--restart no|on-failure[:N]|always|unless-stopped]\n"
        "                IMAGE [PROGRAM ARGS...]\n"
        "                          run a container of an image of the store, with a\n"
        "                          writable layer of its own (crib rm or --rm removes it);\n"
        "                          the flags are crib.ini keys: --print-spec prints them\n"
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
        "       crib plan SPEC [-- PROGRAM ARGS...]\n"
        "       crib plan [FLAGS] IMAGE [PROGRAM ARGS...]\n"
        "                          print what crib run would do with these, making nothing\n"
        "       crib check [--spec SPEC] [--rootfs DIR] [--format=ini]\n"
        "       crib check --report [--format=markdown|json] [--spec SPEC] [--rootfs DIR]\n"
        "       crib check --compare A.json B.json\n"
        "                          test what this kernel supports, end to end\n"
        "       crib bench --rootfs DIR [--quick] [--levels] [--format=csv]\n"
        "       crib bench --seccomp [--format=csv]\n"
        "                          measure what the sandbox costs\n"
        "       crib bench --own SPEC [--runs N]\n"
        "                          time crib run's work before the clone, cold and warm\n"
        "       crib seccomp export|show|explain|builtin ...\n"
        "                          the seccomp programs ('crib seccomp help')\n"
        "       crib pull [--platform P] [--quiet] [--tls-verify=false] [--authfile FILE]\n"
        "                 [--cert-dir DIR] REF\n"
        "                          fetch an image from a registry into crib's store\n"
        "       crib image import [--platform P] [--max-size SIZE] SOURCE DIR\n"
        "                          a saved image (docker save, OCI layout, docker export)\n"
        "                          made into DIR/rootfs and DIR/crib.ini ('crib image help')\n"
        "       crib image import [--name REF] SOURCE\n"
        "                          put a saved image in the image store\n"
        "       crib image rm DIR             remove an import\n"
        "       crib image platform           this machine's platform, as images name it\n"
        "       crib image prune              remove from the store what nothing uses\n"
        "       crib images [--format json]   the images of the store\n"
        "       crib rmi NAME|ID              remove an image's name, or the image\n"
        "       crib system df                what the image store holds\n"
        "       crib oci [--root DIR] [--log FILE] [--log-format text|json] COMMAND ...\n"
        "                          runc's command line, for podman and containerd (also\n"
        "                          as crib-runc or runc, a link to crib; see crib(1));\n"
        "                          COMMAND: create, start, run, state, list, kill, delete,\n"
        "                          ps, exec, pause, resume, update, spec, features, version\n"
        "       crib generate systemd SPEC [--name NAME] [--user]\n"
        "                          print a systemd unit (Type=notify) that runs SPEC\n"
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

/* Run the helper program `name` from beside crib, or from ../lib/crib/ (make install, the
 * package); argv[-1] is crib's word for the command ("pull"): it becomes the helper's
 * argv[0]. Returns only when there is none. */
static void exec_helper(const char *name, char **argv)
{
        char exe[1024], path[1100];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0 || exe[0] != '/')
                return;
        exe[n] = '\0';
        const char *dir = dirname(exe);
        const char *const tries[] = {"%s/%s", "%s/../lib/crib/%s"};
        for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
                snprintf(path, sizeof path, tries[i], dir, name);
                if (access(path, X_OK) == 0) {
                        argv[-1] = path;
                        execv(path, argv - 1);
                        return;
                }
        }
}

/* crib-image, run from beside crib, or from ../lib/crib/ (make install), with `word` (when not
 * NULL) and then argv as its arguments; returns only when it cannot be run. */
static int exec_image(const char *word, int argc, char **argv)
{
        char exe[1024], path[1100];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        char **args = calloc((size_t)argc + 3, sizeof *args);
        if (args && n > 0 && exe[0] == '/') {
                exe[n] = '\0';
                const char *dir = dirname(exe);
                const char *const tries[] = {"%s/crib-image", "%s/../lib/crib/crib-image"};
                size_t k = 0;
                args[k++] = path;
                if (word)
                        args[k++] = (char *)word;
                for (int i = 0; i < argc; i++)
                        args[k++] = argv[i];
                for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
                        snprintf(path, sizeof path, tries[i], dir);
                        if (access(path, X_OK) == 0) {
                                execv(path, args);
                                break;
                        }
                }
        }
        free(args);
        struct error err;
        error_set(&err, 0, "'crib %s' needs crib-image, which is not installed beside crib",
                  word ? word : "image");
        error_hint(&err, "it is built by 'make' where libarchive and libcrypto are: sudo apt-get "
                         "install libarchive-dev libssl-dev, then make (and make install)");
        return output_error(&err);
}

/* `crib pull ...` is crib-pull's (it links libcurl, which Debian has only as a shared
 * library) */
static int cmd_pull(int argc, char **argv)
{
        (void)argc;
        exec_helper("crib-pull", argv);
        struct error err;
        error_set(&err, 0, "'crib pull' needs crib-pull, which is not installed beside crib");
        error_hint(&err, "it is built by 'make' where libcurl and libcrypto are: sudo apt-get "
                         "install libcurl4-openssl-dev libssl-dev, then make (and make install); "
                         "the Debian package is crib-pull");
        error_hint(&err, "without it: podman save -o image.tar IMAGE (or docker save), then crib "
                         "image import image.tar DIR");
        return output_error(&err);
}

/* `crib image ...` is crib-image's (it links libarchive, which crib does not: crib stays
 * static); so are the image store's commands, crib images, crib rmi and crib system */
static int cmd_image(int argc, char **argv)
{
        return exec_image(NULL, argc, argv);
}
static int cmd_images(int argc, char **argv)
{
        return exec_image("images", argc, argv);
}
static int cmd_rmi(int argc, char **argv)
{
        return exec_image("rmi", argc, argv);
}
static int cmd_system(int argc, char **argv)
{
        return exec_image("system", argc, argv);
}

int cmd_run(int argc, char **argv);
int cmd_levels(int argc, char **argv);
int cmd_seccomp(int argc, char **argv);
int cmd_generate(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_plan(int argc, char **argv);
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
        {"run", cmd_run, false},           /* run.c */
        {"ps", cmd_ps, false},             /* lifecycle.c */
        {"exec", cmd_exec, false},         /* lifecycle.c */
        {"stop", cmd_stop, false},         /* lifecycle.c */
        {"kill", cmd_kill, false},         /* lifecycle.c */
        {"rm", cmd_rm, false},             /* lifecycle.c */
        {"wait", cmd_wait, false},         /* lifecycle.c */
        {"logs", cmd_logs, false},         /* lifecycle.c */
        {"spec", cmd_spec, true},          /* this file */
        {"levels", cmd_levels, true},      /* levels.c */
        {"check", cmd_check, false},       /* check.c */
        {"plan", cmd_plan, false},         /* plan.c */
        {"bench", cmd_bench, false},       /* bench.c */
        {"seccomp", cmd_seccomp, false},   /* seccomp.c */
        {"generate", cmd_generate, false}, /* unit.c */
        {"pull", cmd_pull, false},         /* crib-pull, beside crib */
        {"image", cmd_image, false},       /* crib-image, beside crib */
        {"images", cmd_images, false},     /* crib-image */
        {"rmi", cmd_rmi, false},           /* crib-image */
        {"system", cmd_system, false},     /* crib-image: system df */
        {"oci", cmd_oci, false},           /* oci.c; also before --root, above */
        {"version", cmd_version, true},    /* this file */
        {"help", cmd_help, true},          /* this file */
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* Words other tools take, which crib does not, and what crib does instead */
static const struct {
        const char *word, *instead;
} elsewhere[] = {
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
        /* an engine runs its runtime by path with runc's command line: crib-runc is crib, and
         * so is a crib installed as runc, for an engine that runs plain "runc" from PATH (ctr
         * run --uidmap gives the shim task options without the container's BinaryName) */
        const char *self = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
        if (!strcmp(self, "crib-runc") || !strcmp(self, "runc"))
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
