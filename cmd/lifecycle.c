/* lifecycle.c - containers that outlive the command that started them:
 *
 *   crib run -d [--name NAME] [--log-size BYTES] SPEC [-- PROGRAM ARGS...]   (main.c, with this)
 *   crib stop [-t SECONDS] NAME      SIGTERM, then SIGKILL after SECONDS (10)
 *   crib kill NAME [SIGNAL]          SIGTERM unless told, as runc's
 *
 * stop, rm -f and kill with TERM, KILL, INT or QUIT write the stop marker before they signal
 * (store_signal_stop): a [service] restart policy never undoes them.
 *   crib rm [-f] NAME                -f: kill it first if it runs
 *   crib wait NAME                   until it ends; prints and exits with its exit status
 *   crib logs [-f] [--tail N] NAME   a detached container's output
 *   crib exec ...                    a new process in a running container (exec.c)
 *
 * Global: `crib --root DIR COMMAND ...` puts the state somewhere else, as runc's flag does.
 * Containers by name are runtime/state/store.h (on state.h, record.h, log.h); the process that
 * follows a detached container is runtime/launch/monitor.c; crib ps is ps.c.
 */
#define _GNU_SOURCE
#include "lifecycle.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "state/log.h"
#include "output.h"
#include "container/imgrootfs.h"
#include "state/record.h"
#include "state/state.h"
#include "state/store.h"

const char *lifecycle_root_override;

int lifecycle_exit_status(int status)
{
        if (WIFEXITED(status))
                return WEXITSTATUS(status);
        return 128 + WTERMSIG(status);
}

int lifecycle_root_path(char *buf, size_t len, struct error *err)
{
        return state_root_path(lifecycle_root_override, geteuid(), getenv("XDG_RUNTIME_DIR"), buf,
                               len, err);
}

/* ---- crib run --name / -d: the record before the start (runtime/state/store.c) ---- */

int lifecycle_name(char *name, size_t name_len, struct error *err)
{
        char root[4096];
        if (lifecycle_root_path(root, sizeof root, err) < 0)
                return -1;
        return store_name(root, name, name_len, err);
}

int lifecycle_create(const struct plan *p, const char *spec_path, const char *name, bool detached,
                     struct error *err)
{
        char root[4096];
        if (lifecycle_root_path(root, sizeof root, err) < 0)
                return -1;
        return store_create(root, p, spec_path, name, detached, err);
}

int lifecycle_forget(const char *name)
{
        char root[4096];
        struct error ignored;
        if (lifecycle_root_path(root, sizeof root, &ignored) < 0)
                return -1;
        return store_forget(root, name);
}

void lifecycle_record_running(const char *name, pid_t pid, pid_t workload)
{
        char root[4096];
        struct error err;
        if (lifecycle_root_path(root, sizeof root, &err) < 0)
                return;
        if (store_record_running(root, name, pid, workload, &err) < 0)
                output_error(&err);
}

void lifecycle_record_exit(const char *name, int code)
{
        char root[4096];
        struct error err;
        if (lifecycle_root_path(root, sizeof root, &err) < 0)
                return;
        _cleanup_close_ int dir = state_open_path(root, geteuid(), name, &err);
        if (dir < 0 || record_write_exit(dir, code, &err) < 0)
                output_error(&err);
}

/* ---- the commands on a container by name ---- */

int lifecycle_usage(const char *fmt, const char *arg)
{
        output_usage_error(fmt, arg);
        return EXIT_CRIB_ERROR;
}

int lifecycle_parse_signal(const char *s)
{
        char *end;
        long n = strtol(s, &end, 10);
        if (*s && !*end)
                return n > 0 && n < NSIG ? (int)n : -1;
        if (!strncasecmp(s, "SIG", 3))
                s += 3;
        for (int sig = 1; sig < NSIG; sig++) {
                const char *abbrev = sigabbrev_np(sig);
                if (abbrev && !strcasecmp(s, abbrev))
                        return sig;
        }
        return -1;
}

/* NAME opened from the state root (locked too, for a command that changes it); a name
 * there is none of gets the hint where to look */
int lifecycle_open(const char *name, bool locked, struct stored *c, struct error *err)
{
        char root[4096];
        c->root = c->dir = -1;
        if (lifecycle_root_path(root, sizeof root, err) < 0)
                return -1;
        int r = locked ? store_open_locked(root, name, c, err) : store_open(root, name, c, err);
        if (r < 0 && err->errnum == ENOENT && !err->hint[0])
                error_hint(err, "'crib ps -a' lists the containers");
        return r;
}

/* Its record is final: the exit recorded, or no one left to record it (record.h) */
static bool active(const struct record *r)
{
        return r->phase != RECORD_STOPPED;
}

/* The signals that end a container as crib stop would (its default stop signal, SIGKILL, and
 * the two a terminal sends): crib kill with one of them is a stop, which a restart policy
 * never undoes; others (HUP, USR1: a reload) are the workload's business */
static bool ends_it(int sig)
{
        return sig == SIGTERM || sig == SIGKILL || sig == SIGINT || sig == SIGQUIT;
}

int cmd_kill(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        if (argc < 1 || argc > 2)
                return lifecycle_usage("%s", "usage: crib kill NAME [SIGNAL]");
        int sig = argc == 2 ? lifecycle_parse_signal(argv[1]) : SIGTERM;
        if (sig < 0)
                return lifecycle_usage("'%s' is not a signal (say TERM, SIGKILL or 9)", argv[1]);
        struct stored o;
        int code = 0;
        if (lifecycle_open(argv[0], false, &o, &err) < 0)
                code = output_error(&err);
        else if (!o.rec.pid_alive && !(o.rec.restarting && ends_it(sig))) {
                error_set(&err, 0, "'%s' is not running", argv[0]);
                code = output_error(&err);
        } else if (ends_it(sig) ? store_signal_stop(&o, sig, &err) < 0
                                : store_signal(o.rec.pid, o.rec.pid_start, sig, &err) < 0)
                code = output_error(&err);
        store_close(&o);
        return code;
}

int cmd_stop(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        long seconds = 10;
        const char *name = NULL;
        for (int i = 0; i < argc; i++) {
                if ((!strcmp(argv[i], "-t") || !strcmp(argv[i], "--time")) && i + 1 < argc) {
                        char *end;
                        seconds = strtol(argv[++i], &end, 10);
                        if (*end || seconds < 0 || seconds > 86400)
                                return lifecycle_usage(
                                        "'%s' is not a number of seconds (0 to 86400)", argv[i]);
                } else if (argv[i][0] == '-' || name) {
                        return lifecycle_usage("%s", "usage: crib stop [-t SECONDS] NAME");
                } else {
                        name = argv[i];
                }
        }
        if (!name)
                return lifecycle_usage("%s", "usage: crib stop [-t SECONDS] NAME");
        struct stored o;
        bool killed = false;
        int code = 0;
        int r = lifecycle_open(name, false, &o, &err) < 0 || state_lock(o.dir, true, &err) < 0 ||
                store_stop(&o, seconds, &killed, &err) < 0;
        if (killed) /* (said once SIGKILL was sent and waited for) */
                output_warning("'%s' did not stop within %ld s of SIGTERM: SIGKILL", name, seconds);
        if (r)
                code = output_error(&err);
        store_close(&o);
        return code;
}

/* Stop what is left of it, and remove it: a container of an image its directory in the image
 * store (runtime/container/imgrootfs.c), as its plan says, then its record. In that order: a
 * directory crib could not remove keeps its record, which `crib ps -a` shows and a second `crib
 * rm` retries; without it the directory would pin its image with no name left to remove it by */
static int rm_one(struct stored *o, struct error *err)
{
        struct plan p;
        struct error ignored;
        bool planned = store_read_plan(o->dir, &p, &ignored) == 0;
        int r = store_kill(o, err);
        if (r == 0 && planned && p.image_dir)
                r = imgrootfs_remove(&p, err);
        if (r == 0 && store_remove(o, err) < 0 && err->errnum != ENOENT)
                r = -1;
        if (planned)
                plan_free(&p);
        return r;
}

int cmd_rm(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        bool force = false;
        int code = 0;
        if (argc >= 1 && (!strcmp(argv[0], "-f") || !strcmp(argv[0], "--force"))) {
                force = true;
                argc--, argv++;
        }
        if (argc < 1)
                return lifecycle_usage("%s", "usage: crib rm [-f] NAME...");
        for (int i = 0; i < argc; i++) {
                struct stored o;
                const char *name = argv[i];
                if (lifecycle_open(name, true, &o, &err) < 0) {
                        code = output_error(&err);
                } else if (active(&o.rec) && !force) {
                        error_set(&err, 0, "'%s' is %s", name, record_phase_name(o.rec.phase));
                        error_hint(&err, "'crib stop %s' first, or 'crib rm -f %s'", name, name);
                        code = output_error(&err);
                } else if (rm_one(&o, &err) < 0) {
                        code = output_error(&err);
                }
                store_close(&o);
        }
        return code;
}

/* A container `crib oci create` made for an engine (its state directory has oci.c's `oci`
 * file) has no monitor and no log of crib's: what crib's own commands would read there is the
 * engine's. An error saying so, naming the engine's command, for `what` crib cannot give. */
static int engine_made(const struct stored *o, const char *name, const char *what, const char *ask,
                       struct error *err)
{
        if (!store_engine_made(o))
                return 0;
        error_set(err, 0, "container '%s' was made by an engine (crib oci create): its %s", name,
                  what);
        return error_hint(err, "ask the engine: %s", ask);
}

int cmd_wait(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        if (argc != 1 || argv[0][0] == '-')
                return lifecycle_usage("%s", "usage: crib wait NAME");
        struct stored o;
        int code;
        if (lifecycle_open(argv[0], false, &o, &err) < 0 ||
            engine_made(&o, argv[0],
                        "exit status is the engine's (its process is the engine's child)",
                        "'podman wait NAME' under podman, 'ctr task wait ID' under containerd",
                        &err) < 0) {
                code = output_error(&err);
        } else {
                store_wait(&o, -1);
                if (o.rec.has_exit) {
                        printf("%d\n", o.rec.exit_status);
                        code = o.rec.exit_status;
                } else {
                        error_set(&err, 0, "the exit status of '%s' is unknown: %s", argv[0],
                                  o.rec.why ? o.rec.why : "its record is gone");
                        code = output_error(&err);
                }
        }
        store_close(&o);
        return code;
}

static bool still_active(void *ctx)
{
        struct stored *o = ctx;
        struct error err;
        return record_read(o->dir, o->rec.name, &o->rec, &err) == 0 && active(&o->rec);
}

int cmd_logs(int argc, char **argv)
{
        struct error err;
        error_clear(&err);
        bool follow = false;
        long tail = -1;
        const char *name = NULL;
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "-f") || !strcmp(argv[i], "--follow")) {
                        follow = true;
                } else if (!strcmp(argv[i], "--tail") && i + 1 < argc) {
                        char *end;
                        tail = strtol(argv[++i], &end, 10);
                        if (*end || tail < 0)
                                return lifecycle_usage("'%s' is not a number of lines", argv[i]);
                } else if (argv[i][0] == '-' || name) {
                        return lifecycle_usage("%s", "usage: crib logs [-f] [--tail N] NAME");
                } else {
                        name = argv[i];
                }
        }
        if (!name)
                return lifecycle_usage("%s", "usage: crib logs [-f] [--tail N] NAME");
        struct stored o;
        int code = 0;
        int64_t at;
        if (lifecycle_open(name, false, &o, &err) < 0 ||
            engine_made(&o, name, "output is the engine's, crib keeps no log of it",
                        "'podman logs NAME' under podman; under containerd the client that "
                        "started the task has it",
                        &err) < 0) {
                code = output_error(&err);
        } else if ((at = log_copy(o.dir, STDOUT_FILENO, tail, &err)) < 0 ||
                   (follow && log_follow(o.dir, STDOUT_FILENO, at, still_active, &o, &err) < 0)) {
                code = output_error(&err);
        }
        store_close(&o);
        return code;
}
