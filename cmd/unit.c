/* unit.c - crib and systemd: systemd is the supervisor of crib's services.
 *
 *   crib generate systemd SPEC [--name NAME] [--user]    print a unit that runs SPEC
 *
 * The unit runs `crib run --name NAME SPEC` in the foreground as its Type=notify main process:
 * crib says READY=1 (with MAINPID, its own pid) when the workload runs, the point `crib run -d`
 * returns at, or with [service] notify = container passes the container's own sd_notify on
 * (runtime/launch/notify.c). crib stays the unit's main process: it forwards systemctl stop's
 * SIGTERM to the workload (runtime/launch/follow.c) and exits with the workload's status, so
 * Restart= sees the workload's end. KillMode=mixed: SIGTERM goes to crib alone, which passes
 * it on in the one way crib always does (crib's init to the workload), and when the stop
 * timeout runs out SIGKILL goes to every process of the unit's cgroup, the container's
 * included: with Delegate=yes the container's cgroup is made inside the unit's
 * (runtime/cgroup/systemd.c). control-group would signal the container's processes behind
 * crib's back, and crib's init as well; process would leave them at the timeout.
 *
 * Why a command and not a generator (Quadlet's idea, systemd.generator(7)): a generator runs
 * at every boot and daemon-reload, early, as root, over files in /etc/crib/ and
 * ~/.config/crib/, and turns any spec there into a running service; a mistake in it is a boot
 * problem, and its output is not seen until it is. `crib generate systemd` prints the unit for
 * the user to read, keep and edit; systemctl does the rest. A generator can be built on this
 * one later (the same text per spec file).
 */
#define _GNU_SOURCE
#include "unit.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/words.h"
#include "lifecycle.h"
#include "output.h"
#include "specfile.h"
#include "state/state.h"

/* where the container finds crib's socket, and the name it is told (crun's convention) */
#define UNIT_NOTIFY_DST "/run/notify/notify.sock"

const char *unit_notify_socket(void)
{
        const char *s = getenv("NOTIFY_SOCKET");
        return s && s[0] ? s : NULL;
}

void unit_tell_running(void *ctx, pid_t pid, pid_t workload)
{
        struct unit_run *u = ctx;
        struct error err;
        if (u->name)
                lifecycle_record_running(u->name, pid, workload);
        /* [service] healthcheck: the monitor's checker (health.c), forked from crib's only
         * thread once the pid record is written (the checks enter by it); it dies with crib
         * (PR_SET_PDEATHSIG), and unit_run_ended reaps it when the run ends */
        u->run_pid = pid;
        if (u->plan && u->plan->health.argv &&
            (u->checker = health_start(u->plan, &u->health, pid, &err)) < 0)
                output_warning("%s: %s", err.msg, strerror(err.errnum));
        /* notify = container: the container says READY itself, through crib */
        if (u->notify && !u->proxy && notify_ready(u->notify, &err) < 0)
                output_warning("%s: %s", err.msg, strerror(err.errnum));
}

int unit_check_health(struct spec *spec, bool detach, bool image, const char *name, long count,
                      struct error *err)
{
        bool unit = !detach && unit_notify_socket() && count == 1;
        if (spec->health.argv && !detach && !unit && image) {
                words_free(spec->health.argv); /* podman's run without a monitor has none */
                spec->health.argv = NULL;
        }
        if (!spec->health.argv || detach || (unit && name[0]))
                return 0;
        error_at(err, spec->path, spec_line(spec, SPEC_KEY_SERVICE_HEALTHCHECK),
                 unit ? "healthcheck under a unit needs '--name NAME': the checks record the "
                        "health in the container's state"
                      : "healthcheck is for a detached container: 'crib run -d'");
        return error_hint(err, "crib's monitor runs the checks, or crib itself as a Type=notify "
                               "unit's ExecStart ('crib generate systemd'); in the foreground "
                               "otherwise, 'crib exec' from what runs crib");
}

int unit_run_health(struct unit_run *u, const struct plan *plan, struct error *err)
{
        if (lifecycle_root_path(u->root, sizeof u->root, err) < 0)
                return -1;
        u->plan = plan;
        u->health = (struct health_opts){.root = u->root, .uid = geteuid(), .name = u->name};
        return 0;
}

int unit_run_ended(struct unit_run *u, int code, bool failed)
{
        enum health_end end = HEALTH_END_NONE;
        if (u->plan && u->plan->health.argv && u->run_pid > 0)
                end = health_stop(u->checker, &u->health, u->run_pid);
        u->checker = 0;
        u->run_pid = 0;
        /* kill is not undone: the unit's RestartPreventExitStatus= names this status */
        return end == HEALTH_END_KILLED && !failed ? EXIT_UNHEALTHY_KILLED : code;
}

/* notify = container's two mounts: a tmpfs on /run (unless the spec mounts something there),
 * first, so the socket's mountpoint is made in it whoever owns the rootfs's /run (an
 * unprivileged container root cannot create /run/notify in a rootfs of host root's without an
 * idmapped mount), as podman's containers get a tmpfs /run; and the socket, last. */
static int notify_mounts(struct spec *spec, const char *sock, unsigned line, struct error *err)
{
        bool own_run = false;
        for (size_t i = 0; i < spec->nmounts; i++)
                own_run |= !strcmp(spec->mounts[i].dst, "/run");
        if (spec->nmounts + 2 > SPEC_MAX_MOUNTS)
                return error_at(err, spec->path, line,
                                "notify = container needs two mounts, and [mounts] has %zu of "
                                "at most %d",
                                spec->nmounts, SPEC_MAX_MOUNTS);
        struct spec_mount run = {.kind = SPEC_MOUNT_TMPFS,
                                 .dst = strdup("/run"),
                                 .data = strdup("mode=755,size=1m"),
                                 .opts = SPEC_MNT_NOSUID | SPEC_MNT_NODEV,
                                 .line = line};
        struct spec_mount bind = {.kind = SPEC_MOUNT_BIND,
                                  .src = strdup(sock),
                                  .dst = strdup(UNIT_NOTIFY_DST),
                                  .opts = SPEC_MNT_NOSUID | SPEC_MNT_NODEV | SPEC_MNT_NOEXEC,
                                  .line = line};
        if (!run.dst || !run.data || !bind.src || !bind.dst) {
                free(run.dst), free(run.data), free(bind.src), free(bind.dst);
                return error_set(err, ENOMEM, "out of memory");
        }
        if (own_run) {
                free(run.dst), free(run.data);
        } else {
                memmove(spec->mounts + 1, spec->mounts, spec->nmounts * sizeof *spec->mounts);
                spec->mounts[0] = run;
                spec->nmounts++;
        }
        spec->mounts[spec->nmounts++] = bind;
        return 0;
}

int unit_notify_prepare(struct spec *spec, struct notify_proxy *np, struct error *err)
{
        const char *forward = unit_notify_socket();
        unsigned line = spec_line(spec, SPEC_KEY_SERVICE_NOTIFY);
        char root[4096];
        if (!forward || spec->notify != SPEC_NOTIFY_CONTAINER)
                return 0;
        for (size_t i = 0; i < spec->nenv; i++)
                if (!strncmp(spec->env[i], "NOTIFY_SOCKET=", 14))
                        return error_at(err, spec->path, line,
                                        "notify = container sets NOTIFY_SOCKET, and [process] "
                                        "env sets it too");
        if (spec->nmounts + 2 > SPEC_MAX_MOUNTS)
                return notify_mounts(spec, "", line, err); /* the error, before any socket */
        _cleanup_close_ int rootfd = -1;
        if (lifecycle_root_path(root, sizeof root, err) < 0 ||
            (rootfd = state_open_root(root, geteuid(), err)) < 0 ||
            notify_proxy_open(np, root, forward, err) < 0)
                return -1;
        char **env = realloc(spec->env, (spec->nenv + 2) * sizeof *env);
        if (!env)
                return error_set(err, ENOMEM, "out of memory");
        spec->env = env;
        if (!(env[spec->nenv] = strdup("NOTIFY_SOCKET=" UNIT_NOTIFY_DST)))
                return error_set(err, ENOMEM, "out of memory");
        env[++spec->nenv] = NULL;
        return notify_mounts(spec, np->path, line, err);
}

/* the characters a word of ExecStart= may have as they are */
static bool plain(unsigned char c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               strchr("/._-+,:=@", c);
}

int unit_exec_word(const char *word, char *buf, size_t len)
{
        bool quote = !word[0];
        for (const unsigned char *c = (const unsigned char *)word; *c; c++)
                quote |= !plain(*c);
        size_t at = 0;
#define PUT(...)                                                                                   \
        do {                                                                                       \
                int n_ = snprintf(buf + at, len - at, __VA_ARGS__);                                \
                if (n_ < 0 || (size_t)n_ >= len - at)                                              \
                        return -1;                                                                 \
                at += (size_t)n_;                                                                  \
        } while (0)
        if (!len)
                return -1;
        if (quote)
                PUT("\"");
        for (const unsigned char *c = (const unsigned char *)word; *c; c++) {
                if (*c == '%')
                        PUT("%%%%"); /* a specifier's sign, doubled: one % */
                else if (*c == '$')
                        PUT("$$"); /* a variable's sign, doubled: one $ */
                else if (*c == '\\' || *c == '"')
                        PUT("\\%c", *c);
                else if (*c < 0x20 || *c == 0x7f)
                        PUT("\\x%02x", *c);
                else
                        PUT("%c", *c);
        }
        if (quote)
                PUT("\"");
#undef PUT
        return 0;
}

/* What the command line of crib generate systemd asks */
struct generate {
        const char *spec_arg;
        const char *name;
        bool user;
};

static int generate_usage(const char *what)
{
        struct error err;
        error_set(&err, 0, "%s", what);
        error_hint(&err, "usage: crib generate systemd SPEC [--name NAME] [--user]");
        return output_error(&err);
}

/* NAME: --name, or the spec file's name without .ini (an image's DIR for DIR/crib.ini) */
static int generate_name(const struct generate *g, const char *path, char *buf, size_t len)
{
        if (g->name) {
                snprintf(buf, len, "%s", strlen(g->name) < len ? g->name : "");
        } else {
                char copy[4096];
                snprintf(copy, sizeof copy, "%s", path);
                char *slash = strrchr(copy, '/');
                if (slash && !strcmp(slash, "/crib.ini")) {
                        *slash = '\0';
                        slash = strrchr(copy, '/');
                }
                char *base = slash ? slash + 1 : copy;
                size_t n = strlen(base);
                if (n > 4 && !strcmp(base + n - 4, ".ini"))
                        base[n - 4] = '\0';
                if (strlen(base) >= len)
                        base[0] = '\0'; /* too long: not a name */
                memcpy(buf, base, strlen(base) + 1);
        }
        if (state_name_valid(buf))
                return 0;
        struct error err;
        error_set(&err, 0, "'%s' is not a container name", buf);
        error_hint(&err, "a name is 1 to 64 of A-Z a-z 0-9 _ . -, starting with a letter or a "
                         "digit: give one with --name NAME");
        return output_error(&err);
}

static void print_unit(const struct generate *g, const struct spec *spec, const char *name,
                       const char *exec_crib, const char *exec_spec)
{
        const char *restart = "no";
        if (spec->restart == SPEC_RESTART_ON_FAILURE)
                restart = "on-failure";
        else if (spec->restart == SPEC_RESTART_ALWAYS ||
                 spec->restart == SPEC_RESTART_UNLESS_STOPPED)
                restart = "always"; /* systemctl stop is never undone by Restart= */
        printf("# crib-%s.service: made by crib generate systemd%s from %s\n", name,
               g->user ? " --user" : "", exec_spec);
        printf("[Unit]\n"
               "Description=crib container %s\n"
               "Documentation=man:crib(1)\n",
               name);
        printf("\n[Service]\n"
               "# crib says READY=1 when the workload runs (notify = container: the container "
               "says it)\n"
               "Type=notify\n"
               "NotifyAccess=main\n"
               "ExecStart=%s run --name %s %s\n",
               exec_crib, name, exec_spec);
        /* a crib killed at the timeout leaves its record: the next start must not find it */
        printf("ExecStopPost=-%s rm -f %s\n", exec_crib, name);
        printf("# SIGTERM to crib, which passes it to the workload; at the timeout SIGKILL to "
               "all\n"
               "KillMode=mixed\n"
               "# crib stop's timeout\n"
               "TimeoutStopSec=10\n"
               "# the container's cgroup inside the unit's, its limits included\n"
               "Delegate=yes\n"
               "Restart=%s\n",
               restart);
        if (spec->restart == SPEC_RESTART_ON_FAILURE && spec->restart_max)
                printf("# restart = on-failure:%u: systemd bounds starts in time instead "
                       "(StartLimitBurst=, StartLimitIntervalSec=)\n",
                       spec->restart_max);
        if (spec->health.argv && spec->health.on_unhealthy == SPEC_UNHEALTHY_KILL)
                printf("# on_unhealthy = kill: crib exits %d, and Restart= does not undo it\n"
                       "RestartPreventExitStatus=%d\n",
                       EXIT_UNHEALTHY_KILLED, EXIT_UNHEALTHY_KILLED);
        printf("SyslogIdentifier=crib-%s\n", name);
        printf("\n[Install]\nWantedBy=%s\n", g->user ? "default.target" : "multi-user.target");
}

/* Where the unit goes and what to run then, on stderr: stdout is the unit alone */
static void print_hints(const struct generate *g, const char *name)
{
        if (!g->user) {
                fprintf(stderr,
                        "crib: save it as /etc/systemd/system/crib-%s.service, then: "
                        "systemctl daemon-reload && systemctl enable --now crib-%s\n",
                        name, name);
                return;
        }
        const char *user = getenv("USER"); /* getpwuid(3) is NSS's, which a static crib lacks */
        fprintf(stderr,
                "crib: save it as ~/.config/systemd/user/crib-%s.service, then: systemctl "
                "--user daemon-reload && systemctl --user enable --now crib-%s\n"
                "crib: for it to start at boot without a login, and to run after you log out: "
                "loginctl enable-linger %s\n",
                name, name, user && user[0] ? user : "$USER");
}

static int generate_systemd(const struct generate *g)
{
        struct error err;
        error_clear(&err);
        char path[4096], abs[4096], name[STATE_NAME_MAX + 1];
        _cleanup_fclose_ FILE *f = specfile_open(g->spec_arg, path, sizeof path, &err);
        struct spec spec;
        if (!f || spec_load(path, f, false, &spec, &err) < 0)
                return output_error(&err);
        char *real = realpath(path, NULL);
        snprintf(abs, sizeof abs, "%s", real ? real : path);
        free(real);
        char exe[4096];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = '\0';
        char exec_crib[4200], exec_spec[4200];
        int r = generate_name(g, abs, name, sizeof name);
        if (r == 0 && (exe[0] != '/' || unit_exec_word(exe, exec_crib, sizeof exec_crib) < 0 ||
                       unit_exec_word(abs, exec_spec, sizeof exec_spec) < 0)) {
                error_set(&err, 0, "cannot write crib's path ('%s') or the spec's ('%s') in a unit",
                          exe, abs);
                r = output_error(&err);
        }
        if (r == 0) {
                print_unit(g, &spec, name, exec_crib, exec_spec);
                print_hints(g, name);
        }
        spec_free(&spec);
        return r;
}

int cmd_generate(int argc, char **argv)
{
        struct generate g = {0};
        if (argc < 1 || strcmp(argv[0], "systemd"))
                return generate_usage(argc < 1 ? "what to generate is missing"
                                               : "crib generate knows 'systemd' only");
        for (int i = 1; i < argc; i++) {
                if (!strcmp(argv[i], "--user"))
                        g.user = true;
                else if (!strcmp(argv[i], "--name") && i + 1 < argc)
                        g.name = argv[++i];
                else if (argv[i][0] == '-' || g.spec_arg)
                        return generate_usage("unexpected argument to crib generate systemd");
                else
                        g.spec_arg = argv[i];
        }
        if (!g.spec_arg)
                return generate_usage("crib generate systemd needs a SPEC");
        return generate_systemd(&g);
}
