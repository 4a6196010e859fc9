/* oci.c - crib as an OCI runtime: runc's command line, for podman (conmon) and containerd's
 * runc shim, on crib's own state directory and plan. The verbs are runtime/container's
 * (ociops.h: create, start, run, kill, delete; ocistate.h: state, list; ocicgroup.h: ps, pause,
 * resume, update; ociexec.h: exec); this file reads argv, prints, and keeps the --log file.
 *
 *   crib-runc [GLOBAL] COMMAND ...     (crib installed or linked under the name crib-runc)
 *   crib oci [GLOBAL] COMMAND ...      (the same, from crib itself)
 *
 *   GLOBAL   --root DIR  --log FILE  --log-format text|json  (--debug, --systemd-cgroup,
 *            --rootless B: accepted, no effect)
 *   create [--bundle DIR] [--pid-file FILE] [--console-socket PATH] [--no-pivot]
 *          [--no-new-keyring] [--preserve-fds N] ID
 *   start ID                  let the created container exec its process
 *   run [create's options] [--detach] [--keep] ID
 *                             create + start; then wait for it as its parent, passing signals
 *                             on (and the terminal, without a console socket), exit with its
 *                             status, delete it (ociops_run)
 *   state ID                  the OCI state, as JSON
 *   list [--format table|json] [--quiet]   the containers create made, as runc lists them
 *   kill [--all] ID [SIGNAL]  SIGTERM unless told
 *   delete [--force] ID
 *   ps --format json ID       the container's pids
 *   pause ID, resume ID       freeze and thaw its cgroup (the cgroup v2 freezer)
 *   update --resources FILE|- ID   new cgroup limits, as OCI resources JSON (- is stdin)
 *   exec [--process FILE | [-e K=V]... [--cwd DIR] [--user UID[:GID]] [--cap CAP]...]
 *        [--detach] [--pid-file FILE] [--tty --console-socket PATH] ID [COMMAND ARGS...]
 *                             a process in the running container (runtime/launch/enter.c,
 *                             as `crib exec`); with --detach, left to the caller once it runs
 *   spec [--bundle DIR] [--rootless]   a config.json to start from (runtime/oci/ocispec.c)
 *   version, --version        "runc version ..." first, as containerd's shim reads it
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "host/account.h"
#include "host/kernel.h"
#include "lifecycle.h"
#include "ocicli.h"
#include "container/ociops.h"
#include "container/ocistate.h"
#include "oci/ocispec.h"
#include "output.h"
#include "state/state.h"

#ifndef CRIB_VERSION
#define CRIB_VERSION "0.1"
#endif

/* ---- create, start, state, list, kill, delete ---- */

/* create's arguments into `c` (with run's --detach and --keep where `detach` and `keep` are
 * given): 0, or the exit status of the usage error */
static int create_args(const char *cmd, int argc, char **argv, struct ociops_create *c,
                       bool *detach, bool *keep)
{
        const char *preserve = "0";
        bool ignored; /* crib always pivots; it makes no session keyring */
        const struct opt opts[] = {{"--bundle", "-b", .str = &c->bundle},
                                   {"--pid-file", NULL, .str = &c->pid_file},
                                   {"--console-socket", NULL, .str = &c->console},
                                   {"--preserve-fds", NULL, .str = &preserve},
                                   {"--no-pivot", NULL, .flag = &ignored},
                                   {"--no-new-keyring", NULL, .flag = &ignored},
                                   /* run's alone: create's list ends here */
                                   {detach ? "--detach" : NULL, "-d", .flag = detach},
                                   {"--keep", NULL, .flag = keep},
                                   {NULL}};
        int i = ocicli_parse(cmd, NULL, argc, argv, opts, &c->id, 1, false);
        if (i < 0)
                return -1 - i;
        char *end;
        c->preserve_fds = strtol(preserve, &end, 10);
        if (*end || !*preserve || c->preserve_fds < 0 || c->preserve_fds > SPEC_MAX_FDS)
                return ocicli_usage("--preserve-fds '%s' is not a number from 0 to 64", preserve);
        if (!c->id)
                return ocicli_usage("%s needs a container id", cmd);
        if (!state_name_valid(c->id))
                return ocicli_usage(
                        "'%s' is not a container id crib takes (1 to 64 letters, digits, "
                        "'_', '.' or '-', starting with a letter or digit)",
                        c->id);
        return 0;
}

static int oci_create(int argc, char **argv)
{
        struct ociops_create c = {.bundle = ".", .root_parents = lifecycle_root_override != NULL};
        int code = create_args("create", argc, argv, &c, NULL, NULL);
        if (code)
                return code;
        struct error err;
        error_clear(&err);
        if (ocicli_where(&err) < 0 || ociops_create(&ocicli_rt, &c, &err) < 0)
                return ocicli_fail(&err);
        return 0;
}

/* run [create's options] [--detach] [--keep] ID: create and start; then, unless detached,
 * wait for the container, passing signals on, and exit with its status (128 + N for signal N)
 * once it is deleted, as runc run does */
static int oci_run(int argc, char **argv)
{
        struct ociops_run r = {
                .create = {.bundle = ".", .root_parents = lifecycle_root_override != NULL}};
        int code = create_args("run", argc, argv, &r.create, &r.detach, &r.keep);
        if (code)
                return code;
        struct error err;
        error_clear(&err);
        int status = 0;
        if (ocicli_where(&err) < 0 || ociops_run(&ocicli_rt, &r, &status, &code, &err) < 0) {
                int failed = ocicli_fail(&err);
                return code ? code : failed;
        }
        return lifecycle_exit_status(status);
}

static int oci_start(int argc, char **argv)
{
        int code = 0;
        const char *id = ocicli_only_id(argc, argv, "start", &code);
        struct error err;
        error_clear(&err);
        if (id && (ocicli_where(&err) < 0 || ociops_start(&ocicli_rt, id, &code, &err) < 0)) {
                int failed = ocicli_fail(&err);
                return code ? code : failed;
        }
        return code;
}

static int oci_state(int argc, char **argv)
{
        int code = 0;
        const char *id = ocicli_only_id(argc, argv, "state", &code);
        struct error err;
        error_clear(&err);
        json_object *st = NULL;
        if (!id)
                return code;
        if (ocicli_where(&err) < 0 || !(st = ocistate_state(&ocicli_rt, id, &err)))
                return ocicli_fail(&err);
        output_json(stdout, json_object_to_json_string_ext(
                                    st, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(st);
        return 0;
}

/* list [--format table|json] [--quiet]: the containers `state` can show (those create made;
 * crib run's own have no `oci` file), as runc lists them: a table of ID, PID, STATUS, BUNDLE,
 * CREATED and OWNER, or a JSON array of their states, or their IDs alone */
static int oci_list(int argc, char **argv)
{
        const char *format = "table";
        bool quiet = false;
        const struct opt opts[] = {
                {"--format", "-f", .str = &format}, {"--quiet", "-q", .flag = &quiet}, {NULL}};
        int i = ocicli_parse("list", NULL, argc, argv, opts, NULL, 0, false);
        if (i < 0)
                return -1 - i;
        if (strcmp(format, "table") && strcmp(format, "json"))
                return ocicli_usage("--format '%s' is not table or json", format);
        struct error err;
        error_clear(&err);
        json_object *all = NULL;
        if (ocicli_where(&err) < 0 || !(all = ocistate_list(&ocicli_rt, &err)))
                return ocicli_fail(&err);
        /* the state root is the caller's alone (state_open_root), so is every container in it */
        struct account me;
        account_of(geteuid(), &me);
        bool json = !strcmp(format, "json");
        if (json)
                output_json(stdout,
                            json_object_to_json_string_ext(
                                    all, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
        else if (!quiet)
                printf("%-12s %-8s %-8s %-40s %-30s %s\n", "ID", "PID", "STATUS", "BUNDLE",
                       "CREATED", "OWNER");
        for (size_t k = 0; !json && k < json_object_array_length(all); k++) {
                json_object *st = json_object_array_get_idx(all, k), *v;
                const char *key[] = {"id", "pid", "status", "bundle", "created"};
                const char *f[5];
                for (size_t j = 0; j < 5; j++)
                        f[j] = json_object_object_get_ex(st, key[j], &v) ? json_object_get_string(v)
                                                                         : "";
                /* the bundle is the engine's path: escaped, as each cell */
                if (quiet)
                        output_line(stdout, "%s", f[0]);
                else
                        output_line(stdout, "%-12s %-8s %-8s %-40s %-30s %s", f[0], f[1], f[2],
                                    f[3], f[4], me.name);
        }
        json_object_put(all);
        return 0;
}

static int oci_kill(int argc, char **argv)
{
        bool all = false;
        const char *pos[2] = {NULL, NULL};
        const struct opt opts[] = {{"--all", "-a", .flag = &all}, {NULL}};
        if (ocicli_parse("kill", NULL, argc, argv, opts, pos, 2, false) < 0 || !pos[0])
                return ocicli_usage("%s", "usage: kill [--all] ID [SIGNAL]");
        int sig = pos[1] ? lifecycle_parse_signal(pos[1]) : SIGTERM;
        if (sig < 0)
                return ocicli_usage("'%s' is not a signal (say TERM, SIGKILL or 9)", pos[1]);
        struct error err;
        error_clear(&err);
        if (ocicli_where(&err) < 0 || ociops_kill(&ocicli_rt, pos[0], sig, all, &err) < 0)
                return ocicli_fail(&err);
        return 0;
}

static int oci_delete(int argc, char **argv)
{
        bool force = false;
        const char *id = NULL;
        const struct opt opts[] = {{"--force", "-f", .flag = &force}, {NULL}};
        if (ocicli_parse("delete", NULL, argc, argv, opts, &id, 1, false) < 0 || !id)
                return ocicli_usage("%s", "usage: delete [--force] ID");
        struct error err;
        error_clear(&err);
        if (ocicli_where(&err) < 0 || ociops_delete(&ocicli_rt, id, force, &err) < 0)
                return ocicli_fail(&err);
        return 0;
}

/* ---- the commands ---- */

static int not_yet(const char *cmd)
{
        struct error err;
        error_set(&err, ENOSYS, "'%s' is not supported by crib's OCI runtime yet", cmd);
        return ocicli_fail(&err);
}

static int oci_version(int argc, char **argv)
{
        (void)argc, (void)argv;
        printf("runc version 1.1.0 (crib %s)\nspec: 1.0.2\n", CRIB_VERSION);
        return 0;
}

/* features: what crib's OCI front end takes (runtime/oci/features.c), as runc's JSON */
static int oci_features_cmd(int argc, char **argv)
{
        (void)argv;
        if (argc)
                return ocicli_usage("%s", "usage: crib oci features");
        char *text = oci_features();
        if (!text) {
                struct error err;
                error_set(&err, ENOMEM, "cannot make the features document");
                return ocicli_fail(&err);
        }
        printf("%s\n", text);
        free(text);
        return 0;
}

/* spec [--bundle DIR] [--rootless]: a config.json to start from (runtime/oci/ocispec.c), in
 * the bundle, never over one there; with --rootless for the caller, in a user namespace */
static int oci_spec_cmd(int argc, char **argv)
{
        const char *bundle = ".";
        bool rootless = false;
        const struct opt opts[] = {{"--bundle", "-b", .str = &bundle},
                                   {"--rootless", NULL, .flag = &rootless},
                                   {NULL}};
        int i = ocicli_parse("spec", NULL, argc, argv, opts, NULL, 0, false);
        if (i < 0)
                return -1 - i;
        struct error err;
        error_clear(&err);
        _cleanup_close_ int dir = open(bundle, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (dir < 0) {
                error_set(&err, errno, "cannot open the bundle '%s'", bundle);
                return ocicli_fail(&err);
        }
        _cleanup_free_ char *text = oci_spec_default(rootless, geteuid(), getegid());
        if (!text) {
                error_set(&err, ENOMEM, "cannot make the config");
                return ocicli_fail(&err);
        }
        /* O_EXCL: not over a file there, nor through a symbolic link by that name */
        _cleanup_close_ int fd = openat(dir, "config.json",
                                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0) {
                if (errno != EEXIST) {
                        error_set(&err, errno, "cannot create '%s/config.json'", bundle);
                } else {
                        error_set(&err, 0, "'%s/config.json' exists", bundle);
                        error_hint(&err, "remove it first: spec never writes over a config");
                }
                return ocicli_fail(&err);
        }
        size_t len = strlen(text);
        text[len++] = '\n'; /* over its NUL: written by length */
        if (write(fd, text, len) != (ssize_t)len || close(take_fd(&fd)) < 0) {
                error_set(&err, errno, "cannot write '%s/config.json'", bundle);
                unlinkat(dir, "config.json", 0);
                return ocicli_fail(&err);
        }
        return 0;
}

/* runc's commands crib takes, in crib(1)'s order: what cmd_oci dispatches, and what an unknown
 * command is told (tests/e2e/32-cli.t checks each is in `crib help` and crib(1)) */
static const struct {
        const char *name;
        int (*run)(int argc, char **argv); /* the arguments after the command's name */
} oci_commands[] = {
        {"create", oci_create},    {"start", oci_start},
        {"run", oci_run},          {"state", oci_state},
        {"list", oci_list},        {"kill", oci_kill},
        {"delete", oci_delete},    {"ps", ocicli_ps},
        {"exec", ocicli_exec},     {"pause", ocicli_pause},
        {"resume", ocicli_resume}, {"update", ocicli_update},
        {"spec", oci_spec_cmd},    {"features", oci_features_cmd},
        {"version", oci_version},
};

/* No command, or one crib's OCI runtime does not have: say which, and list those it has. */
static int oci_unknown(const char *cmd)
{
        struct error err;
        char list[256] = "";
        for (size_t i = 0; i < sizeof oci_commands / sizeof oci_commands[0]; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                         oci_commands[i].name);
        if (cmd)
                error_set(&err, 0, "unknown command '%s'", cmd);
        else
                error_set(&err, 0, "no command given");
        error_hint(&err, "crib oci's commands: %s", list);
        error_hint(&err, "see crib(1), OCI RUNTIME");
        return ocicli_fail(&err);
}

/* runc's global options, before the command: how many argv holds; or the exit status (below
 * 0: -1 - it) when one is wrong, or when it was --version */
static int globals(int argc, char **argv)
{
        bool version = false, accepted; /* --debug, --rootless B: no effect */
        const char *format = NULL, *cmd = NULL, *rootless;
        const struct opt opts[] = {{"--version", "-v", .flag = &version},
                                   {"--root", NULL, .str = &lifecycle_root_override},
                                   {"--log", NULL, .str = &ocicli_log_path},
                                   {"--log-format", NULL, .str = &format},
                                   {"--systemd-cgroup", NULL, .flag = &ocicli_rt.systemd_cgroup},
                                   {"--debug", NULL, .flag = &accepted},
                                   {"--rootless", NULL, .str = &rootless},
                                   {NULL}};
        int i = ocicli_parse("crib oci", "unknown global option '%s'", argc, argv, opts, &cmd, 1,
                             true);
        if (i < 0 || version)
                return i < 0 ? i : -1 - oci_version(0, NULL);
        if (format && strcmp(format, "json") && strcmp(format, "text"))
                return -1 - ocicli_usage("--log-format '%s' is not text or json", format);
        ocicli_log_json = format && !strcmp(format, "json");
        return cmd ? i - 1 : argc;
}

int cmd_oci(int argc, char **argv)
{
        static char rootless_root[4096];
        int i = globals(argc, argv);
        if (i < 0)
                return -1 - i;
        if (i == argc)
                return oci_unknown(NULL);
        /* rootless podman runs us as root of its user namespace: /run/crib is not ours there,
         * the user's XDG_RUNTIME_DIR is (runc does the same) */
        const char *xdg = getenv("XDG_RUNTIME_DIR");
        if (!lifecycle_root_override && geteuid() == 0 && xdg && xdg[0] == '/' &&
            !userns_is_initial()) {
                snprintf(rootless_root, sizeof rootless_root, "%s/crib", xdg);
                lifecycle_root_override = rootless_root;
        }
        const char *cmd = argv[i];
        argc -= i + 1;
        argv += i + 1;
        for (size_t k = 0; k < sizeof oci_commands / sizeof oci_commands[0]; k++)
                if (!strcmp(cmd, oci_commands[k].name))
                        return oci_commands[k].run(argc, argv);
        static const char *const later[] = {"checkpoint", "restore", "events"};
        for (size_t k = 0; k < sizeof later / sizeof later[0]; k++)
                if (!strcmp(cmd, later[k]))
                        return not_yet(cmd);
        return oci_unknown(cmd);
}
