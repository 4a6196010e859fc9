/* ociproc.c - crib oci's commands on a running container's processes: runc's argv for them,
 * and their output (the runtime's verbs: runtime/container/ocicgroup.h, ociexec.h).
 *
 *   ps --format json ID       the container's pids
 *   pause ID, resume ID       freeze and thaw its cgroup (the cgroup v2 freezer)
 *   update --resources FILE|- ID   new cgroup limits, as OCI resources JSON (- is stdin)
 *   exec [--process FILE | [-e K=V]... [--cwd DIR] [--user UID[:GID]] [--cap CAP]...]
 *        [--detach] [--pid-file FILE] [--tty --console-socket PATH] ID [COMMAND ARGS...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/capname.h"
#include "lifecycle.h"
#include "container/ocicgroup.h"
#include "ocicli.h"
#include "container/ociexec.h"
#include "base/syntax.h"

/* ---- ps, pause, resume, update ---- */

/* ps --format json: the container's processes, as pids on the host (containerd's task ps) */
int ocicli_ps(int argc, char **argv)
{
        const char *id = NULL, *format = "table";
        const struct opt opts[] = {{"--format", "-f", .str = &format}, {NULL}};
        if (ocicli_parse("ps", NULL, argc, argv, opts, &id, 1, false) < 0 || !id ||
            strcmp(format, "json"))
                return ocicli_usage("%s", "usage: ps --format json ID (the table format is not "
                                          "supported yet)");
        static pid_t pids[OCICGROUP_MAX_PIDS];
        size_t n = 0;
        struct error err;
        error_clear(&err);
        if (ocicli_where(&err) < 0 ||
            ocicgroup_ps(&ocicli_rt, id, pids, OCICGROUP_MAX_PIDS, &n, &err) < 0)
                return ocicli_fail(&err);
        json_object *a = json_object_new_array();
        for (size_t i = 0; i < n; i++)
                json_object_array_add(a, json_object_new_int(pids[i]));
        puts(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN));
        json_object_put(a);
        return 0;
}

/* pause ID / resume ID */
static int oci_freeze(int argc, char **argv, bool freeze)
{
        int code = 0;
        const char *id = ocicli_only_id(argc, argv, freeze ? "pause" : "resume", &code);
        struct error err;
        error_clear(&err);
        if (id && (ocicli_where(&err) < 0 || ocicgroup_freeze(&ocicli_rt, id, freeze, &err) < 0))
                return ocicli_fail(&err);
        return code;
}

int ocicli_pause(int argc, char **argv)
{
        return oci_freeze(argc, argv, true);
}

int ocicli_resume(int argc, char **argv)
{
        return oci_freeze(argc, argv, false);
}

/* update [--resources FILE|-] ID: "-" is stdin, as containerd's shim sends it, podman names a
 * file. runc's single-limit flags (--memory, --pids-limit, ...) are not taken: neither engine
 * sends them. */
int ocicli_update(int argc, char **argv)
{
        const char *file = NULL, *id = NULL;
        const struct opt opts[] = {{"--resources", "-r", .str = &file}, {NULL}};
        int i = ocicli_parse(
                "update",
                "update: '%s' is not supported by crib: give the limits as OCI resources "
                "JSON (--resources FILE, or - for stdin)",
                argc, argv, opts, &id, 1, false);
        if (i < 0)
                return -1 - i;
        if (!file || !id)
                return ocicli_usage("usage: %s --resources FILE|- ID", "update");
        struct error err;
        error_clear(&err);
        bool from_stdin = !strcmp(file, "-");
        FILE *f = from_stdin ? stdin : fopen(file, "re");
        if (!f) {
                error_set(&err, errno, "cannot open '%s'", file);
                return ocicli_fail(&err);
        }
        int r = ocicli_where(&err) < 0
                        ? -1
                        : ocicgroup_update(&ocicli_rt, id, from_stdin ? "stdin" : file, f, &err);
        if (!from_stdin)
                fclose(f);
        return r < 0 ? ocicli_fail(&err) : 0;
}

/* ---- exec ---- */

/* exec's options that need more than a place to go: into the request, or the usage error */
static int exec_check(struct ociexec *x, const char *user, const char **caps, size_t ncaps,
                      const char *const *refused)
{
        uint32_t u = 0, g = 0; /* runc's --user: group 0 unless given */
        if (x->rq.cwd && x->rq.cwd[0] != '/')
                return ocicli_usage("--cwd '%s' is not an absolute path", x->rq.cwd);
        for (char **e = x->rq.env; e && *e; e++)
                if (!strchr(*e, '=') || (*e)[0] == '=')
                        return ocicli_usage("'%s' is not NAME=VALUE", *e);
        if (user && syntax_uid_gid(user, &u, &g, NULL) < 0)
                return ocicli_usage(
                        "--user '%s' is not UID[:GID] (numbers, as inside the container)", user);
        x->rq.user_set = user != NULL;
        x->rq.uid = u, x->rq.gid = g;
        for (size_t i = 0; i < ncaps; i++) {
                /* runc: added to the container's; crib: must be the container's */
                int cap = strncmp(caps[i], "CAP_", 4) ? -1 : capname_parse(caps[i]);
                if (cap < 0 || cap > 63)
                        return ocicli_usage("--cap '%s' is not a capability (CAP_NAME)", caps[i]);
                x->rq.caps |= 1ULL << cap;
        }
        x->rq.caps_set = ncaps > 0;
        if (refused[0] && strcmp(refused[0], "0"))
                return ocicli_usage("--preserve-fds '%s': an exec keeps only its stdio in crib",
                                    refused[0]);
        if (refused[1] && refused[1][0])
                return ocicli_usage("--process-label '%s': crib has no SELinux support",
                                    refused[1]);
        if (refused[2])
                return ocicli_usage("--cgroup '%s': an exec joins the container's own cgroup",
                                    refused[2]);
        if (refused[3])
                return ocicli_usage("--additional-gids '%s': give them in --process", refused[3]);
        return 0;
}

/* exec [--process FILE | -e K=V... --cwd DIR --user UID[:GID] --cap CAP...] [--detach]
 *      [--pid-file FILE] [--tty --console-socket PATH] ID [COMMAND ARGS...]
 * What podman (conmon) and containerd's shim call, always with --process and --detach. */
int ocicli_exec(int argc, char **argv)
{
        struct ociexec x = {.id = NULL};
        const char *env[65] = {NULL}, *caps[64], *user = NULL, *refused[4] = {NULL};
        size_t nenv = 0, ncaps = 0;
        bool ignored; /* --ignore-paused: crib refuses an exec into a paused container */
        const struct opt opts[] = {{"--process", "-p", .str = &x.process},
                                   {"--pid-file", NULL, .str = &x.pid_file},
                                   {"--console-socket", NULL, .str = &x.console},
                                   {"--cwd", NULL, .str = &x.rq.cwd},
                                   {"--env", "-e", .list = env, .n = &nenv},
                                   {"--user", "-u", .str = &user},
                                   {"--cap", "-c", .list = caps, .n = &ncaps},
                                   {"--apparmor", NULL, .str = &x.rq.apparmor},
                                   {"--preserve-fds", NULL, .str = &refused[0]},
                                   {"--process-label", NULL, .str = &refused[1]},
                                   {"--cgroup", NULL, .str = &refused[2]},
                                   {"--additional-gids", "-g", .str = &refused[3]},
                                   {"--detach", "-d", .flag = &x.rq.detach},
                                   {"--tty", "-t", .flag = &x.rq.tty},
                                   {"--no-new-privs", NULL, .flag = &x.rq.no_new_privs},
                                   {"--ignore-paused", NULL, .flag = &ignored},
                                   {NULL}};
        int i = ocicli_parse("exec", NULL, argc, argv, opts, &x.id, 1, true);
        if (i < 0)
                return -1 - i;
        if (!x.id)
                return ocicli_usage(
                        "%s", "usage: exec [OPTIONS] ID [COMMAND ARGS...] (or --process FILE)");
        if (x.process && i < argc)
                return ocicli_usage("exec: both --process and a command ('%s') were given",
                                    argv[i]);
        if (!x.process && i >= argc)
                return ocicli_usage("%s", "exec needs --process FILE or a command");
        x.rq.argv = &argv[i];
        x.rq.env = nenv ? (char **)env : NULL;
        int code = exec_check(&x, user, caps, ncaps, refused);
        struct error err;
        error_clear(&err);
        int status;
        if (code)
                return code;
        if (ocicli_where(&err) < 0 || ociexec_run(&ocicli_rt, &x, &status, &err) < 0)
                return ocicli_fail(&err);
        return lifecycle_exit_status(status);
}
