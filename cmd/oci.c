/* oci.c - crib as an OCI runtime: runc's command line, for podman (conmon) and containerd's
 * runc shim, on crib's own state directory and plan.
 *
 *   crib-runc [GLOBAL] COMMAND ...     (crib installed or linked under the name crib-runc)
 *   crib oci [GLOBAL] COMMAND ...      (the same, from crib itself)
 *
 *   GLOBAL   --root DIR  --log FILE  --log-format text|json  (--debug, --systemd-cgroup,
 *            --rootless B: accepted, no effect)
 *   create [--bundle DIR] [--pid-file FILE] [--console-socket PATH] [--no-pivot]
 *          [--no-new-keyring] [--preserve-fds N] ID
 *   start ID                  let the created container exec its process
 *   state ID                  the OCI state, as JSON
 *   kill [--all] ID [SIGNAL]  SIGTERM unless told
 *   delete [--force] ID
 *   ps --format json ID       the container's pids
 *   pause ID, resume ID       freeze and thaw its cgroup (the cgroup v2 freezer)
 *   update --resources FILE|- ID   new cgroup limits, as OCI resources JSON (- is stdin)
 *   exec [--process FILE | [-e K=V]... [--cwd DIR] [--user UID[:GID]] [--cap CAP]...]
 *        [--detach] [--pid-file FILE] [--tty --console-socket PATH] ID [COMMAND ARGS...]
 *                             a process in the running container (runtime/launch/enter.c,
 *                             as `crib exec`); with --detach, left to the caller once it runs
 *   version, --version        "runc version ..." first, as containerd's shim reads it
 *
 * create: config.json goes through the OCI front end (runtime/spec/oci.c) into a spec, the
 * plan is built from it as for `crib run`, the state directory gets its record, the plan, the
 * bundle and annotations (file `oci`) and the exec fifo; the container is set up in full and
 * its process waits on the fifo (runtime/steps/start.c). crib create then exits, and the
 * engine that ran it (conmon, containerd's shim: subreapers) adopts the container's process
 * and waits for it, as it does runc's: so in this mode there is no crib monitor, and no log.
 * Its stdio is crib create's, as the OCI spec says.
 *
 * hooks (runtime/launch/hooks.c): prestart and createRuntime from create, while the setup waits
 * for GO (container_hooks.before_go), poststart from start, poststop from delete; the config's
 * checked .hooks are kept in the state directory's `oci` file for the last two.
 *
 * exec: process.json is read by the OCI front end as config.json's .process is, and checked
 * against the container's plan: an exec gets at most the workload's capabilities, its AppArmor
 * profile, its seccomp filter, and no_new_privs when the workload has it (a process.json that
 * says false does not lift it); anything beyond that is an error naming what was asked.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "capname.h"
#include "cgroup.h"
#include "cleanup.h"
#include "container.h"
#include "enter.h"
#include "hooks.h"
#include "lifecycle.h"
#include "procfile.h"
#include "oci.h"
#include "output.h"
#include "plan.h"
#include "record.h"
#include "state.h"
#include "sys.h"
#include "termsafe.h"
#include "userns.h"

#ifndef CRIB_VERSION
#define CRIB_VERSION "0.1"
#endif

#define FIFO "exec.fifo"
/* the state directory's `oci` file: bundle, rootfs, annotations and hooks */
#define OCI_SAVED_MAX (OCI_MAX_ANNOTATIONS_JSON + OCI_MAX_HOOKS_JSON + 16384)
#define PAUSED        "paused"
#define CGROUP_FILE   "cgroup" /* the container's own cgroup, as create made it */

static const char *log_path;
static bool log_json;
static bool systemd_cgroup; /* --systemd-cgroup: cgroupsPath is systemd's SLICE:PREFIX:NAME */

/* --log FILE: each error and warning also as a line there; with --log-format json a JSON
 * object {"level","msg","time"}, the form containerd's shim and podman read. The engines show
 * these lines to their user: the message goes in with its control characters escaped, as on
 * crib's own terminal (output.h). */
static void log_line(const char *level, const char *raw)
{
        if (!log_path)
                return;
        char msg[TERMSAFE_SIZE(2048)];
        termsafe_escape(msg, sizeof msg, raw, strnlen(raw, 2048));
        _cleanup_close_ int fd =
                open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
        if (fd < 0)
                return;
        char when[64];
        struct timespec ts;
        struct tm tm;
        clock_gettime(CLOCK_REALTIME, &ts);
        gmtime_r(&ts.tv_sec, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        if (!log_json) {
                /* logfmt: a quote or backslash of the message's escaped, so it ends no field */
                char q[sizeof msg * 2];
                size_t n = 0;
                for (const char *m = msg; *m && n + 2 < sizeof q; m++) {
                        if (*m == '"' || *m == '\\')
                                q[n++] = '\\';
                        q[n++] = *m;
                }
                q[n] = '\0';
                dprintf(fd, "time=\"%s\" level=%s msg=\"crib: %s\"\n", when, level, q);
                return;
        }
        json_object *o = json_object_new_object();
        json_object_object_add(o, "level", json_object_new_string(level));
        char text[sizeof msg + 8];
        snprintf(text, sizeof text, "crib: %s", msg);
        json_object_object_add(o, "msg", json_object_new_string(text));
        json_object_object_add(o, "time", json_object_new_string(when));
        const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
                                                                  JSON_C_TO_STRING_NOSLASHESCAPE);
        dprintf(fd, "%s\n", s);
        json_object_put(o);
}

static int fail(const struct error *err)
{
        char text[sizeof err->msg + sizeof err->hint + 256];
        if (err->errnum)
                snprintf(text, sizeof text, "%s: %s", err->msg, strerror(err->errnum));
        else
                snprintf(text, sizeof text, "%s", err->msg);
        log_line("error", text);
        return output_error(err);
}

static int usage(const char *fmt, const char *arg)
{
        struct error err;
        error_set(&err, 0, fmt, arg);
        error_hint(&err, "see crib(1), OCI RUNTIME");
        return fail(&err);
}

static void on_warn(void *ctx, const char *line)
{
        (void)ctx;
        log_line("warning", line);
}

static int no_such(const char *id, struct error *err)
{
        /* podman and containerd look for "does not exist" */
        return error_set(err, ENOENT, "container \"%s\" does not exist", id);
}

static int open_id(const char *id, struct opened *o, struct error *err)
{
        char path[4096];
        o->root = o->dir = -1;
        if (!state_name_valid(id))
                return no_such(id, err);
        if (lifecycle_root_path(path, sizeof path, err) < 0 ||
            (o->root = state_open_root(path, geteuid(), err)) < 0)
                return -1;
        o->dir = state_open(o->root, id, err);
        if (o->dir < 0)
                return err->errnum == ENOENT ? no_such(id, err) : -1;
        return record_read(o->dir, id, &o->rec, err);
}

/* ID's directory, locked, and what its record says; closed again on failure. */
static int open_locked(const char *id, struct opened *o, struct error *err)
{
        if (open_id(id, o, err) < 0 || state_lock(o->dir, true, err) < 0 ||
            record_read(o->dir, id, &o->rec, err) < 0) {
                opened_close(o);
                return -1;
        }
        return 0;
}

/* Ended but not yet reaped by its parent (the engine): stopped, as runc says */
static bool zombie(pid_t pid)
{
        char path[64], text[512];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
        if (n <= 0)
                return true;
        text[n] = '\0';
        const char *paren = strrchr(text, ')');
        return !paren || paren[1] != ' ' || paren[2] == 'Z' || paren[2] == 'X';
}

static bool running(const struct opened *o)
{
        return o->rec.pid_alive && !zombie(o->rec.pid);
}

/* The OCI status: created while the exec fifo is there (crib start removes it), paused while
 * the pause mark is (pause makes it once the cgroup is frozen, resume removes it) */
static const char *status_of(const struct opened *o)
{
        struct stat st;
        if (!running(o))
                return o->rec.pid ? "stopped" : "creating";
        if (fstatat(o->dir, FIFO, &st, AT_SYMLINK_NOFOLLOW) == 0)
                return "created";
        if (fstatat(o->dir, PAUSED, &st, AT_SYMLINK_NOFOLLOW) == 0)
                return "paused";
        return "running";
}

/* Signal the recorded process if it is still the one recorded (a pidfd, checked after the
 * open, so a reused pid is never signalled); 0 when it has ended. */
static int signal_process(pid_t pid, uint64_t start, int sig, struct error *err)
{
        if (pid <= 0 || !start)
                return 0;
        int fd = (int)syscall(SYS_pidfd_open, pid, 0);
        if (fd < 0)
                return errno == ESRCH ? 0 : error_set(err, errno, "cannot open process %d", pid);
        int r = 0;
        if (state_proc_start(pid) == start &&
            syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0) < 0 && errno != ESRCH)
                r = error_set(err, errno, "cannot send %s to process %d", sigabbrev_np(sig), pid);
        close(fd);
        return r;
}

/* The container's own cgroup, as create made it and wrote it down (CGROUP_FILE). Where the plan
 * alone cannot name it (a user's, in systemd's scope, carries the pid of the crib that made it)
 * the workload could not be asked either: it may have moved itself where no rule finds it, or
 * been reaped. Read back, it must still be one crib makes for this plan (container_leaf_valid);
 * a container made by a crib that wrote none is found by its name under the plan's base. */
static void leaf_top_of(const struct opened *o, const char *id, char *buf, size_t len, char *top,
                        size_t tlen);
static void leaf_of(const struct opened *o, const char *id, char *buf, size_t len)
{
        leaf_top_of(o, id, buf, len, NULL, 0);
}

/* The same, and for a cgroup at the engine's cgroupsPath the cgroup crib made it from (the
 * plan's cgroup_top; "" for crib's own names) */
static void leaf_top_of(const struct opened *o, const char *id, char *buf, size_t len, char *top,
                        size_t tlen)
{
        struct plan p;
        struct error ignored;
        buf[0] = '\0';
        if (top)
                top[0] = '\0';
        if (lifecycle_read_plan(o->dir, &p, &ignored) < 0)
                return;
        if (top && p.cgroup_path[0])
                snprintf(top, tlen, "%s", p.cgroup_top);
        if (p.cgroup && state_read(o->dir, CGROUP_FILE, buf, len, &ignored) > 0) {
                if (!container_leaf_valid(&p, buf))
                        buf[0] = '\0';
        } else if (p.cgroup && p.cgroup_path[0]) {
                snprintf(buf, len, "%s", p.cgroup_path);
        } else if (p.cgroup && p.cgroup_base[0] && !p.cgroup_systemd) {
                cgroup_leaf(p.cgroup_base, id, buf, len);
        }
        plan_free(&p);
}

/* ---- the state, and the hooks that read it ---- */

/* The OCI state of a container: what `state` prints and hooks read on stdin. `saved` is the
 * state directory's `oci` object (bundle, rootfs, annotations), or NULL. */
static json_object *state_object(const char *id, const char *status, pid_t pid, uint64_t created,
                                 json_object *saved)
{
        json_object *out = json_object_new_object(), *v;
        json_object_object_add(out, "ociVersion", json_object_new_string("1.0.2"));
        json_object_object_add(out, "id", json_object_new_string(id));
        json_object_object_add(out, "pid", json_object_new_int(pid));
        json_object_object_add(out, "status", json_object_new_string(status));
        const char *keys[] = {"bundle", "rootfs"};
        for (size_t i = 0; i < 2; i++)
                json_object_object_add(out, keys[i],
                                       json_object_new_string(saved && json_object_object_get_ex(
                                                                               saved, keys[i], &v)
                                                                      ? json_object_get_string(v)
                                                                      : ""));
        char when[64];
        time_t t = (time_t)created;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S.000000000Z", &tm);
        json_object_object_add(out, "created", json_object_new_string(when));
        json_object_object_add(out, "owner", json_object_new_string(""));
        if (saved && json_object_object_get_ex(saved, "annotations", &v))
                json_object_object_add(out, "annotations", json_object_get(v));
        else
                json_object_object_add(out, "annotations", json_object_new_object());
        return out;
}

/* The state directory's `oci` object, or NULL */
static json_object *read_saved(int dir, struct error *err)
{
        _cleanup_free_ char *text = malloc(OCI_SAVED_MAX);
        if (!text || state_read(dir, "oci", text, OCI_SAVED_MAX, err) < 0)
                return NULL;
        return json_tokener_parse(text);
}

/* Run the hooks of `kind` in the saved object's "hooks", each with the state on stdin. A
 * prestart or createRuntime hook's failure is the caller's error; poststart's and poststop's
 * are warnings, as the runtime spec says, and the rest still run. */
static int run_hooks(json_object *saved, enum oci_hook_kind kind, const char *name,
                     json_object *state, struct error *err)
{
        json_object *h;
        if (!saved || !json_object_object_get_ex(saved, "hooks", &h))
                return 0;
        struct oci_hook hooks[OCI_MAX_HOOKS];
        int n = oci_hooks_of(json_object_get_string(h), kind, hooks, err);
        if (n < 0)
                return -1;
        const char *text = json_object_to_json_string_ext(
                state, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        bool fatal = kind == OCI_HOOK_PRESTART || kind == OCI_HOOK_CREATE_RUNTIME;
        int r = 0;
        for (int i = 0; i < n && !r; i++) {
                struct error herr;
                error_clear(&herr);
                if (hook_run(&hooks[i], name, text, &herr) == 0)
                        continue;
                if (fatal) {
                        *err = herr;
                        r = -1;
                } else {
                        char line[sizeof herr.msg + 64];
                        snprintf(line, sizeof line, "%s%s%s", herr.msg, herr.errnum ? ": " : "",
                                 herr.errnum ? strerror(herr.errnum) : "");
                        log_line("warning", line);
                        output_warning_line(NULL, line);
                }
        }
        oci_hooks_free(hooks, (size_t)n);
        return r;
}

/* ---- create ---- */

struct creating {
        const char *id;
        const char *pid_file;
        const char *console;
        char root[4096];
        struct error err;
        bool failed;
        json_object *saved; /* create: the `oci` object, for the hooks */
        char cgroup[1200];  /* the container's own cgroup, "" for none */
};

/* the container's own cgroup into its state directory, when it has one */
static int write_cgroup_file(int dir, const char *path, struct error *err)
{
        return path[0] ? state_write(dir, CGROUP_FILE, path, strlen(path), err) : 0;
}

/* write `pid` to FILE atomically (a temporary file beside it, renamed), as runc does */
static int write_pid_file(const char *path, pid_t pid, struct error *err)
{
        char tmp[4200], text[32];
        int n = snprintf(tmp, sizeof tmp, "%s.crib-%d", path, (int)getpid());
        if (n < 0 || (size_t)n >= sizeof tmp)
                return error_set(err, ENAMETOOLONG, "pid file '%s'", path);
        snprintf(text, sizeof text, "%d", (int)pid);
        _cleanup_close_ int fd =
                open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 || sys_write_all(fd, text, strlen(text)) < 0 || rename(tmp, path) < 0) {
                int e = errno;
                unlink(tmp);
                return error_set(err, e, "cannot write the pid file '%s'", path);
        }
        return 0;
}

/* Parent (crib create): the container's own cgroup is made */
static void on_cgroup(void *ctx, const char *path)
{
        struct creating *c = ctx;
        snprintf(c->cgroup, sizeof c->cgroup, "%s", path);
}

/* Parent (crib create): the workload waits on the fifo now */
static void on_created(void *ctx, pid_t pid, pid_t workload)
{
        struct creating *c = ctx;
        /* opened only now: the container's process, cloned from us, holds none of it */
        _cleanup_close_ int dir = state_open_path(c->root, geteuid(), c->id, &c->err);
        if (dir < 0 || write_cgroup_file(dir, c->cgroup, &c->err) < 0 ||
            record_write_pid(dir, pid, workload, &c->err) < 0 ||
            (c->pid_file && write_pid_file(c->pid_file, pid, &c->err) < 0)) {
                kill(pid, SIGKILL);
                c->failed = true;
        }
}

/* Parent (crib create): the namespaces exist, the setup waits for GO: prestart (deprecated,
 * run where runc runs it) and createRuntime, each with the state on stdin */
static int on_before_go(void *ctx, pid_t pid, struct error *err)
{
        struct creating *c = ctx;
        json_object *st = state_object(c->id, "creating", pid, (uint64_t)time(NULL), c->saved);
        int r = run_hooks(c->saved, OCI_HOOK_PRESTART, "prestart", st, err);
        if (r == 0)
                r = run_hooks(c->saved, OCI_HOOK_CREATE_RUNTIME, "createRuntime", st, err);
        json_object_put(st);
        return r;
}

/* Parent: the terminal's master to the engine's console socket (SCM_RIGHTS) */
static void on_pty(void *ctx, int master)
{
        struct creating *c = ctx;
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        _cleanup_close_ int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (!c->console || strlen(c->console) >= sizeof a.sun_path || s < 0) {
                error_set(&c->err, s < 0 ? errno : 0, "no console socket for the terminal");
                c->failed = true;
                close(master);
                return;
        }
        memcpy(a.sun_path, c->console, strlen(c->console));
        char byte = '\0', cbuf[CMSG_SPACE(sizeof(int))] = {0};
        struct iovec iov = {.iov_base = &byte, .iov_len = 1};
        struct msghdr mh = {.msg_iov = &iov,
                            .msg_iovlen = 1,
                            .msg_control = cbuf,
                            .msg_controllen = sizeof cbuf};
        struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cm), &master, sizeof master);
        if (connect(s, (struct sockaddr *)&a, sizeof a) < 0 || sendmsg(s, &mh, MSG_NOSIGNAL) < 0) {
                error_set(&c->err, errno, "cannot send the terminal to '%s'", c->console);
                c->failed = true;
        }
        close(master);
}

/* What the state directory keeps of the config (file `oci`), for state, start and delete */
static json_object *saved_object(const char *bundle, const char *rootfs,
                                 const struct oci_config *oc)
{
        json_object *o = json_object_new_object();
        json_object *a = json_tokener_parse(oc->annotations);
        json_object_object_add(o, "bundle", json_object_new_string(bundle));
        json_object_object_add(o, "rootfs", json_object_new_string(rootfs));
        json_object_object_add(o, "annotations", a ? a : json_object_new_object());
        if (oc->hooks)
                json_object_object_add(o, "hooks", json_object_new_string(oc->hooks));
        return o;
}

static int write_oci_file(int dir, json_object *saved, struct error *err)
{
        const char *s = json_object_to_json_string_ext(saved, JSON_C_TO_STRING_PLAIN);
        return state_write(dir, "oci", s, strlen(s), err);
}

/* --root's missing parents, 0700, as runc makes them (containerd's shim passes
 * /run/containerd/runc/NAMESPACE before anything made /run/containerd/runc); the root itself
 * is made and checked by state_open_root() */
static void make_parents(const char *root)
{
        char path[4096];
        if (!root || root[0] != '/' || strlen(root) >= sizeof path)
                return;
        strcpy(path, root);
        for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
                *p = '\0';
                mkdir(path, 0700);
                *p = '/';
        }
}

static int oci_create(int argc, char **argv)
{
        const char *bundle = ".", *id = NULL;
        struct creating c = {.id = NULL};
        long preserve = 0;
        for (int i = 0; i < argc; i++) {
                const char *a = argv[i];
                const char *v = i + 1 < argc ? argv[i + 1] : NULL;
                if ((!strcmp(a, "--bundle") || !strcmp(a, "-b")) && v)
                        bundle = argv[++i];
                else if (!strncmp(a, "--bundle=", 9))
                        bundle = a + 9;
                else if (!strcmp(a, "--pid-file") && v)
                        c.pid_file = argv[++i];
                else if (!strncmp(a, "--pid-file=", 11))
                        c.pid_file = a + 11;
                else if (!strcmp(a, "--console-socket") && v)
                        c.console = argv[++i];
                else if (!strncmp(a, "--console-socket=", 17))
                        c.console = a + 17;
                else if ((!strcmp(a, "--preserve-fds") && v) ||
                         !strncmp(a, "--preserve-fds=", 15)) {
                        const char *n = a[14] == '=' ? a + 15 : argv[++i];
                        char *end;
                        preserve = strtol(n, &end, 10);
                        if (*end || !*n || preserve < 0 || preserve > SPEC_MAX_FDS)
                                return usage("--preserve-fds '%s' is not a number from 0 to 64", n);
                } else if (!strcmp(a, "--no-pivot") || !strcmp(a, "--no-new-keyring"))
                        ; /* crib always pivots; it makes no session keyring */
                else if (a[0] == '-')
                        return usage("unknown option '%s' for create", a);
                else if (!id)
                        id = a;
                else
                        return usage("unexpected argument '%s' for create", a);
        }
        if (!id)
                return usage("%s", "create needs a container id");
        make_parents(lifecycle_root_override);
        if (!state_name_valid(id))
                return usage("'%s' is not a container id crib takes (1 to 64 letters, digits, "
                             "'_', '.' or '-', starting with a letter or digit)",
                             id);
        c.id = id;
        struct error err;
        error_clear(&err);
        _cleanup_free_ char *dir = realpath(bundle, NULL);
        if (!dir) {
                error_set(&err, errno, "bundle '%s'", bundle);
                return fail(&err);
        }
        char config[4200];
        snprintf(config, sizeof config, "%s/config.json", dir);
        _cleanup_fclose_ FILE *f = fopen(config, "re");
        if (!f) {
                error_set(&err, errno, "cannot open '%s'", config);
                return fail(&err);
        }
        struct oci_config oc;
        int loaded = oci_load(config, f, &oc, &err);
        fclose(steal_ptr(&f));
        if (loaded < 0)
                return fail(&err);
        for (long i = 0; i < preserve; i++)
                oc.spec.pass_fds[oc.spec.npass_fds++] = (int)(3 + i);
        /* the engine's cgroup for it, read as runc reads it: a path, or with --systemd-cgroup
         * systemd's SLICE:PREFIX:NAME (a user's default slice is user.slice) */
        if (oc.spec.cgroups_path) {
                char cg[1024];
                if (cgroup_oci_path(oc.spec.cgroups_path, systemd_cgroup,
                                    geteuid() == 0 && userns_is_initial(), cg, sizeof cg,
                                    &err) < 0) {
                        oci_free(&oc);
                        error_wrap(&err, "%s: .linux.cgroupsPath", config);
                        return fail(&err);
                }
                free(oc.spec.cgroups_path);
                if (!(oc.spec.cgroups_path = strdup(cg))) {
                        oci_free(&oc);
                        error_set(&err, ENOMEM, "cannot allocate");
                        return fail(&err);
                }
        }
        if (oc.spec.terminal == TERMINAL_YES && !c.console) {
                oci_free(&oc);
                error_set(&err, 0,
                          "config.json asks for a terminal, but no --console-socket was "
                          "given");
                return fail(&err);
        }
        struct plan_host host;
        plan_host_gather(&oc.spec, &host);
        host.stdin_tty = false;
        struct plan plan;
        int planned = plan_build(&oc.spec, &host, false, &plan, &err);
        if (planned < 0) {
                oci_free(&oc);
                return fail(&err);
        }
        plan.wait_start = true;
        /* before anything of the container exists: crib's init stays in it */
        if (lifecycle_seal(&plan, false, &err) < 0) {
                oci_free(&oc);
                return fail(&err);
        }
        for (size_t i = 0; i < plan.nwarnings; i++)
                log_line("warning", plan.warnings[i]);

        c.saved = saved_object(dir, plan.rootfs, &oc);
        /* hooks before the setup goes on: it must wait for GO, so the parent writes its maps */
        if (oc.hooks)
                plan.self_maps = false;
        char name[STATE_NAME_MAX + 1];
        snprintf(name, sizeof name, "%s", id);
        int code = 0;
        _cleanup_close_ int fifo = -1;
        struct opened o = {.root = -1, .dir = -1};
        if (lifecycle_create(&plan, config, name, sizeof name, true, &err) < 0) {
                if (err.errnum == EEXIST)
                        error_set(&err, EEXIST, "container \"%s\" already exists", id);
                code = fail(&err);
                goto out;
        }
        if (open_id(id, &o, &err) < 0 || write_oci_file(o.dir, c.saved, &err) < 0 ||
            state_fifo_make(o.dir, FIFO, &err) < 0 ||
            (fifo = state_fifo_open(o.dir, FIFO, O_PATH, &err)) < 0) {
                code = fail(&err);
                lifecycle_forget(id);
                goto out;
        }
        error_clear(&c.err);
        struct container_hooks hooks = {.warn = on_warn,
                                        .created = on_created,
                                        .cgroup = on_cgroup,
                                        .before_go = oc.hooks ? on_before_go : NULL,
                                        .pty = on_pty,
                                        .start_fifo = fifo,
                                        .ctx = &c};
        int status;
        /* nothing of the state tree goes along into the container but the fifo's O_PATH */
        opened_close(&o);
        if (lifecycle_root_path(c.root, sizeof c.root, &err) < 0) {
                code = fail(&err);
                lifecycle_forget(id);
        } else if (container_run(&plan, &hooks, &status, &err) < 0 || c.failed) {
                code = fail(c.failed ? &c.err : &err);
                lifecycle_forget(id);
        }
out:
        opened_close(&o);
        plan_free(&plan);
        oci_free(&oc);
        json_object_put(c.saved);
        return code;
}

/* ---- start, state, kill, delete ---- */

static int oci_start(int argc, char **argv)
{
        if (argc != 1 || argv[0][0] == '-')
                return usage("%s", "usage: start ID");
        const char *id = argv[0];
        struct error err;
        error_clear(&err);
        struct opened o;
        if (open_locked(id, &o, &err) < 0) {
                return fail(&err);
        }
        const char *status = status_of(&o);
        if (strcmp(status, "created")) {
                error_set(&err, 0, "container \"%s\" is %s, not created", id, status);
                opened_close(&o);
                return fail(&err);
        }
        /* O_NONBLOCK: no waiting for a writer that may never come (it died); poll instead */
        _cleanup_close_ int fd = state_fifo_open(o.dir, FIFO, O_RDONLY | O_NONBLOCK, &err);
        if (fd < 0) {
                opened_close(&o);
                return fail(&err);
        }
        char byte = 0;
        for (;;) {
                struct pollfd p = {.fd = fd, .events = POLLIN};
                if (poll(&p, 1, 100) > 0 && read(fd, &byte, 1) == 1)
                        break;
                if (state_proc_start(o.rec.pid) != o.rec.pid_start) {
                        error_set(&err, 0, "container \"%s\" ended before it was started", id);
                        opened_close(&o);
                        return fail(&err);
                }
        }
        /* started: no second start, and state says running */
        unlinkat(o.dir, FIFO, 0);
        struct error ignored;
        json_object *saved = read_saved(o.dir, &ignored);
        pid_t pid = o.rec.pid;
        uint64_t created = o.rec.created;
        opened_close(&o);
        /* end-of-file when the exec succeeded (close-on-exec), else "STATUS MESSAGE\nHINT" */
        fcntl(fd, F_SETFL, 0);
        char text[4096];
        size_t used = 0;
        ssize_t n;
        while (used < sizeof text - 1 && (n = read(fd, text + used, sizeof text - 1 - used)) != 0) {
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        break;
                used += (size_t)n;
        }
        text[used] = '\0';
        if (!used) {
                /* poststart: the program runs; a failure is a warning (the runtime spec) */
                json_object *st = state_object(id, "running", pid, created, saved);
                run_hooks(saved, OCI_HOOK_POSTSTART, "poststart", st, &err);
                json_object_put(st);
                json_object_put(saved);
                return 0;
        }
        json_object_put(saved);
        char *msg = strchr(text, ' ');
        int code = atoi(text);
        char *hint = msg ? strchr(msg, '\n') : NULL;
        if (hint)
                *hint++ = '\0';
        error_set(&err, 0, "%s", msg ? msg + 1 : text);
        if (hint && *hint)
                error_hint(&err, "%s", hint);
        fail(&err);
        return code > 0 && code < 256 ? code : EXIT_CRIB_ERROR;
}

static int oci_state(int argc, char **argv)
{
        if (argc != 1 || argv[0][0] == '-')
                return usage("%s", "usage: state ID");
        const char *id = argv[0];
        struct error err;
        error_clear(&err);
        struct opened o;
        if (open_id(id, &o, &err) < 0) {
                opened_close(&o);
                return fail(&err);
        }
        json_object *saved = read_saved(o.dir, &err);
        if (!saved) {
                opened_close(&o);
                return fail(&err);
        }
        json_object *out =
                state_object(id, status_of(&o), running(&o) ? o.rec.pid : 0, o.rec.created, saved);
        output_json(stdout, json_object_to_json_string_ext(
                                    out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(out);
        json_object_put(saved);
        opened_close(&o);
        return 0;
}

#define MAX_PIDS 4096

/* The pids of the cgroup `path` and of those below it (the container runs in NAME/container,
 * and may make cgroups of its own there), at most MAX_PIDS, depth first; the count. */
static size_t subtree_pids(const char *path, pid_t *pids, size_t n, int depth)
{
        char file[4200], line[32];
        snprintf(file, sizeof file, "%s/cgroup.procs", path);
        _cleanup_fclose_ FILE *f = fopen(file, "re");
        while (f && n < MAX_PIDS && fgets(line, sizeof line, f))
                if (atoi(line) > 0)
                        pids[n++] = (pid_t)atoi(line);
        _cleanup_closedir_ DIR *d = depth < 16 ? opendir(path) : NULL;
        struct dirent *e;
        while (d && n < MAX_PIDS && (e = readdir(d))) {
                /* ".h" is a cgroup too (a workload may hide in one): only . and .. are not */
                if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                        continue;
                if (snprintf(file, sizeof file, "%s/%s", path, e->d_name) < (int)sizeof file)
                        n = subtree_pids(file, pids, n, depth + 1);
        }
        return n;
}

/* The processes of the container's own cgroup and those below it; its path to `leaf`, or ""
 * when it has none. The workload cannot leave it: NAME is not its to write, and moving a
 * process needs write access to the common ancestor (cgroup.c). */
static size_t cgroup_pids(const struct opened *o, const char *id, pid_t *pids, char *leaf,
                          size_t len)
{
        struct stat st;
        leaf_of(o, id, leaf, len);
        if (!leaf[0] || stat(leaf, &st) < 0 || !S_ISDIR(st.st_mode)) {
                leaf[0] = '\0';
                return 0;
        }
        return subtree_pids(leaf, pids, 0, 0);
}

/* --all: every process of the container's cgroup too, when it has one of its own. SIGKILL
 * through cgroup.kill (Linux 5.14), the whole subtree at once; another signal with the cgroup
 * frozen while its pids are read and signalled, so none exits and has its pid reused by a
 * host process in between, and none forks a child that is missed. */
static void signal_cgroup(const struct opened *o, const char *id, int sig)
{
        static pid_t pids[MAX_PIDS];
        char leaf[1200], file[1300];
        leaf_of(o, id, leaf, sizeof leaf);
        if (!leaf[0])
                return;
        snprintf(file, sizeof file, "%s/cgroup.kill", leaf);
        _cleanup_close_ int kfd = sig == SIGKILL ? open(file, O_WRONLY | O_CLOEXEC) : -1;
        if (kfd >= 0 && write(kfd, "1", 1) == 1)
                return;
        struct error ignored;
        bool thaw = !cgroup_frozen(leaf) && cgroup_freeze(leaf, true, &ignored) == 0;
        size_t n = cgroup_pids(o, id, pids, leaf, sizeof leaf);
        for (size_t i = 0; i < n; i++)
                kill(pids[i], sig);
        if (thaw)
                cgroup_freeze(leaf, false, &ignored);
}

static int oci_kill(int argc, char **argv)
{
        bool all = false;
        if (argc >= 1 && (!strcmp(argv[0], "--all") || !strcmp(argv[0], "-a"))) {
                all = true;
                argc--, argv++;
        }
        if (argc < 1 || argc > 2 || argv[0][0] == '-')
                return usage("%s", "usage: kill [--all] ID [SIGNAL]");
        const char *id = argv[0];
        int sig = argc == 2 ? lifecycle_parse_signal(argv[1]) : SIGTERM;
        if (sig < 0)
                return usage("'%s' is not a signal (say TERM, SIGKILL or 9)", argv[1]);
        struct error err;
        error_clear(&err);
        struct opened o;
        int code = 0;
        if (open_id(id, &o, &err) < 0) {
                code = fail(&err);
        } else if (!running(&o)) {
                error_set(&err, 0, "container \"%s\" is not running", id);
                code = fail(&err);
        } else {
                if (all)
                        signal_cgroup(&o, id, sig);
                if (signal_process(o.rec.pid, o.rec.pid_start, sig, &err) < 0)
                        code = fail(&err);
        }
        opened_close(&o);
        return code;
}

static int oci_delete(int argc, char **argv)
{
        bool force = false;
        if (argc >= 1 && (!strcmp(argv[0], "--force") || !strcmp(argv[0], "-f"))) {
                force = true;
                argc--, argv++;
        }
        if (argc != 1 || argv[0][0] == '-')
                return usage("%s", "usage: delete [--force] ID");
        const char *id = argv[0];
        struct error err;
        error_clear(&err);
        struct opened o;
        if (open_locked(id, &o, &err) < 0) {
                if (force && err.errnum == ENOENT)
                        return 0; /* as runc: nothing to delete is no error with --force */
                return fail(&err);
        }
        const char *status = status_of(&o);
        if ((!strcmp(status, "running") || !strcmp(status, "paused")) && !force) {
                error_set(&err, 0, "container \"%s\" is %s", id, status);
                error_hint(&err, "kill it first, or delete --force");
                opened_close(&o);
                return fail(&err);
        }
        /* created (as runc) or forced: it ends first */
        if (o.rec.pid_alive) {
                signal_cgroup(&o, id, SIGKILL);
                signal_process(o.rec.pid, o.rec.pid_start, SIGKILL, &err);
                for (int i = 0; i < 100 && state_proc_start(o.rec.pid) == o.rec.pid_start &&
                                !zombie(o.rec.pid);
                     i++)
                        usleep(20000);
        }
        /* what is left in its cgroup (without a pid namespace, the workload's orphans; or what
         * hid below it) ends with it, through cgroup.kill */
        char leaf[1200];
        leaf_of(&o, id, leaf, sizeof leaf);
        if (leaf[0])
                cgroup_remove(leaf);
        struct error ignored;
        json_object *saved = read_saved(o.dir, &ignored);
        uint64_t created = o.rec.created;
        int code = 0;
        if (state_remove(o.root, id, &err) < 0)
                code = fail(&err);
        opened_close(&o);
        /* poststop: the container is gone; a failure is a warning (the runtime spec) */
        json_object *st = state_object(id, "stopped", 0, created, saved);
        run_hooks(saved, OCI_HOOK_POSTSTOP, "poststop", st, &err);
        json_object_put(st);
        json_object_put(saved);
        return code;
}

/* The pids below `pid` (their PPid: lines), depth first, into the JSON array; at most 4096 */
static void add_descendants(json_object *a, pid_t pid, int depth)
{
        pid_t kids[256];
        size_t n = depth < 64 ? procfile_children(pid, kids, 256) : 0;
        for (size_t i = 0; i < n && json_object_array_length(a) < 4096; i++) {
                json_object_array_add(a, json_object_new_int(kids[i]));
                add_descendants(a, kids[i], depth + 1);
        }
}

/* ps --format json: the container's processes, as pids on the host (containerd's task ps):
 * its cgroup's, when it has one of its own, else its process and those below it */
static int oci_ps(int argc, char **argv)
{
        const char *id = NULL;
        bool json = false;
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "--format=json") ||
                    (!strcmp(argv[i], "--format") && i + 1 < argc && !strcmp(argv[++i], "json")) ||
                    (!strcmp(argv[i], "-f") && i + 1 < argc && !strcmp(argv[++i], "json")))
                        json = true;
                else if (argv[i][0] != '-' && !id)
                        id = argv[i];
                else
                        return usage("%s", "usage: ps --format json ID (the table format is not "
                                           "supported yet)");
        }
        if (!id || !json)
                return usage("%s", "usage: ps --format json ID (the table format is not "
                                   "supported yet)");
        struct error err;
        error_clear(&err);
        struct opened o;
        if (open_id(id, &o, &err) < 0) {
                opened_close(&o);
                return fail(&err);
        }
        json_object *a = json_object_new_array();
        static pid_t pids[MAX_PIDS];
        char leaf[1200];
        size_t n = cgroup_pids(&o, id, pids, leaf, sizeof leaf);
        for (size_t i = 0; i < n; i++)
                json_object_array_add(a, json_object_new_int(pids[i]));
        /* no cgroup of its own: its process and those below it */
        if (!n && running(&o)) {
                json_object_array_add(a, json_object_new_int(o.rec.pid));
                add_descendants(a, o.rec.pid, 0);
        }
        puts(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN));
        json_object_put(a);
        opened_close(&o);
        return 0;
}

/* ---- exec ---- */

/* Parent (crib exec --detach): the program runs; its pid to the pid file, or it ends */
static void on_exec_created(void *ctx, pid_t pid, pid_t workload)
{
        struct creating *c = ctx;
        (void)workload; /* the exec'd process is the one that runs: pid */
        if (c->failed || (c->pid_file && write_pid_file(c->pid_file, pid, &c->err) < 0)) {
                kill(pid, SIGKILL);
                c->failed = true;
        }
}

/* "UID[:GID]" as runc's --user takes it */
static int parse_user(const char *v, struct enter_request *rq)
{
        char *end;
        errno = 0;
        unsigned long u = strtoul(v, &end, 10), g = 0;
        if (end == v || (*end && *end != ':') || v[0] == '-' || errno || u > 0xfffffffe)
                return -1;
        if (*end == ':') {
                const char *gs = end + 1;
                g = strtoul(gs, &end, 10);
                if (end == gs || *end || *gs == '-' || errno || g > 0xfffffffe)
                        return -1;
        }
        rq->user_set = true;
        rq->uid = (uid_t)u;
        rq->gid = (gid_t)g;
        return 0;
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

/* exec [--process FILE | -e K=V... --cwd DIR --user UID[:GID] --cap CAP...] [--detach]
 *      [--pid-file FILE] [--tty --console-socket PATH] ID [COMMAND ARGS...]
 * What podman (conmon) and containerd's shim call, always with --process and --detach. */
static int oci_exec(int argc, char **argv)
{
        struct enter_request rq = {0};
        struct creating c = {.id = NULL};
        const char *process = NULL, *id = NULL;
        char *env[65];
        size_t nenv = 0;
        uint64_t caps = 0;
        bool caps_given = false;
        int i = 0;
        for (; i < argc && !id; i++) {
                const char *a = argv[i];
                const char *v = i + 1 < argc ? argv[i + 1] : NULL;
                const char *eq = a[0] == '-' && a[1] == '-' ? strchr(a, '=') : NULL;
                char opt[64];
                snprintf(opt, sizeof opt, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
                bool takes = !strcmp(opt, "--process") || !strcmp(opt, "-p") ||
                             !strcmp(opt, "--pid-file") || !strcmp(opt, "--console-socket") ||
                             !strcmp(opt, "--cwd") || !strcmp(opt, "--env") || !strcmp(opt, "-e") ||
                             !strcmp(opt, "--user") || !strcmp(opt, "-u") ||
                             !strcmp(opt, "--cap") || !strcmp(opt, "-c") ||
                             !strcmp(opt, "--preserve-fds") || !strcmp(opt, "--apparmor") ||
                             !strcmp(opt, "--process-label") || !strcmp(opt, "--cgroup") ||
                             !strcmp(opt, "--additional-gids") || !strcmp(opt, "-g");
                const char *val = NULL;
                if (takes) {
                        if (!eq && !v)
                                return usage("option '%s' of exec needs a value", a);
                        val = eq ? eq + 1 : argv[++i];
                }
                if (!strcmp(opt, "--process") || !strcmp(opt, "-p"))
                        process = val;
                else if (!strcmp(opt, "--pid-file"))
                        c.pid_file = val;
                else if (!strcmp(opt, "--console-socket"))
                        c.console = val;
                else if (!strcmp(opt, "--cwd")) {
                        if (val[0] != '/')
                                return usage("--cwd '%s' is not an absolute path", val);
                        rq.cwd = val;
                } else if (!strcmp(opt, "--env") || !strcmp(opt, "-e")) {
                        if (!strchr(val, '=') || val[0] == '=')
                                return usage("'%s' is not NAME=VALUE", val);
                        if (nenv == 64)
                                return usage("%s", "at most 64 --env");
                        env[nenv++] = (char *)val;
                } else if (!strcmp(opt, "--user") || !strcmp(opt, "-u")) {
                        if (parse_user(val, &rq) < 0)
                                return usage("--user '%s' is not UID[:GID] (numbers, as inside "
                                             "the container)",
                                             val);
                } else if (!strcmp(opt, "--cap") || !strcmp(opt, "-c")) {
                        /* runc: added to the container's; crib: must be the container's */
                        int cap = strncmp(val, "CAP_", 4) ? -1 : capname_parse(val);
                        if (cap < 0 || cap > 63)
                                return usage("--cap '%s' is not a capability (CAP_NAME)", val);
                        caps |= 1ULL << cap;
                        caps_given = true;
                } else if (!strcmp(opt, "--preserve-fds")) {
                        if (strcmp(val, "0"))
                                return usage("--preserve-fds '%s': an exec keeps only its stdio "
                                             "in crib",
                                             val);
                } else if (!strcmp(opt, "--apparmor")) {
                        rq.apparmor = val;
                } else if (!strcmp(opt, "--process-label")) {
                        if (val[0])
                                return usage("--process-label '%s': crib has no SELinux support",
                                             val);
                } else if (!strcmp(opt, "--cgroup")) {
                        return usage("--cgroup '%s': an exec joins the container's own cgroup",
                                     val);
                } else if (!strcmp(opt, "--additional-gids") || !strcmp(opt, "-g")) {
                        return usage("--additional-gids '%s': give them in --process", val);
                } else if (!strcmp(a, "--detach") || !strcmp(a, "-d")) {
                        rq.detach = true;
                } else if (!strcmp(a, "--tty") || !strcmp(a, "-t")) {
                        rq.tty = true;
                } else if (!strcmp(a, "--no-new-privs")) {
                        rq.no_new_privs = true;
                } else if (!strcmp(a, "--ignore-paused")) {
                        ; /* crib has no paused state */
                } else if (a[0] == '-') {
                        return usage("unknown option '%s' for exec", a);
                } else {
                        id = a;
                }
        }
        if (!id)
                return usage("%s",
                             "usage: exec [OPTIONS] ID [COMMAND ARGS...] (or --process FILE)");
        if (process && i < argc)
                return usage("exec: both --process and a command ('%s') were given", argv[i]);
        if (!process && i >= argc)
                return usage("%s", "exec needs --process FILE or a command");
        struct error err;
        error_clear(&err);
        struct oci_process op;
        bool loaded = false;
        struct plan_rlimit limits[SPEC_NLIMITS];
        if (process) {
                _cleanup_fclose_ FILE *f = fopen(process, "re");
                if (!f) {
                        error_set(&err, errno, "cannot open '%s'", process);
                        return fail(&err);
                }
                if (oci_load_process(process, f, &op, &err) < 0)
                        return fail(&err);
                loaded = true;
                request_of_process(&op, &rq, limits);
                if (rq.tty && !c.console) {
                        spec_free(&op.spec);
                        error_set(&err, 0,
                                  "%s asks for a terminal, but no --console-socket "
                                  "was given",
                                  process);
                        return fail(&err);
                }
        } else {
                env[nenv] = NULL;
                rq.argv = &argv[i];
                rq.env = nenv ? env : NULL;
                rq.caps_set = caps_given;
                rq.caps = caps;
        }
        c.id = id;
        struct opened o = {.root = -1, .dir = -1};
        struct plan plan;
        bool planned = false;
        int code = 0;
        if (open_id(id, &o, &err) < 0) {
                code = fail(&err);
        } else if (strcmp(status_of(&o), "running")) {
                error_set(&err, 0, "container \"%s\" is %s, not running", id, status_of(&o));
                code = fail(&err);
        } else if (lifecycle_read_plan(o.dir, &plan, &err) < 0) {
                code = fail(&err);
        } else {
                planned = true;
                rq.pid = o.rec.pid;
                rq.start = o.rec.pid_start;
                rq.workload = o.rec.workload;
                rq.workload_start = o.rec.workload_start;
        }
        opened_close(&o); /* nothing of the state tree goes along into the container */
        if (planned && lifecycle_seal(&plan, false, &err) < 0) {
                code = fail(&err);
                planned = false;
        }
        if (planned) {
                struct container_hooks hooks = {.warn = on_warn,
                                                .created = on_exec_created,
                                                .pty = rq.tty && c.console ? on_pty : NULL,
                                                .ctx = &c};
                int status;
                error_clear(&c.err);
                if (container_enter(&plan, &rq, &hooks, &status, &err) < 0)
                        code = fail(&err);
                else if (c.failed)
                        code = fail(&c.err);
                else
                        code = rq.detach ? 0 : lifecycle_exit_status(status);
                plan_free(&plan);
        }
        if (loaded)
                spec_free(&op.spec);
        return code;
}

/* ---- pause, resume ---- */

/* pause ID / resume ID: the cgroup v2 freezer on the container's own cgroup (crib makes one
 * when the container has limits or, as real root, a device program); its process must be in
 * it, else there is nothing crib could freeze all of */
static int oci_freeze(int argc, char **argv, bool freeze)
{
        const char *cmd = freeze ? "pause" : "resume";
        if (argc != 1 || argv[0][0] == '-')
                return usage("usage: %s ID", cmd);
        const char *id = argv[0];
        struct error err;
        error_clear(&err);
        struct opened o;
        if (open_locked(id, &o, &err) < 0)
                return fail(&err);
        const char *status = status_of(&o), *want = freeze ? "running" : "paused";
        char leaf[1200];
        int code = 0;
        if (strcmp(status, want)) {
                error_set(&err, 0, "container \"%s\" is %s, not %s", id, status, want);
                code = fail(&err);
                goto out;
        }
        static pid_t pids[MAX_PIDS];
        cgroup_pids(&o, id, pids, leaf, sizeof leaf);
        if (!leaf[0]) {
                error_set(&err, 0, "container \"%s\" has no cgroup v2 of its own to freeze", id);
                error_hint(&err, "crib makes one for a container with resource limits (a "
                                 "cgroup v2 host, or a delegated subtree for a user)");
                code = fail(&err);
                goto out;
        }
        if (cgroup_freeze(leaf, freeze, &err) < 0) {
                code = fail(&err);
                goto out;
        }
        if (freeze && state_write(o.dir, PAUSED, "", 0, &err) < 0) {
                cgroup_freeze(leaf, false, &err);
                code = fail(&err);
        } else if (!freeze) {
                unlinkat(o.dir, PAUSED, 0);
        }
out:
        opened_close(&o);
        return code;
}

/* update [--resources FILE|-] ID: new limits for the container's cgroup, from the OCI
 * resources JSON (config.json's .linux.resources; "-" is stdin, as containerd's shim sends it,
 * podman names a file). Only what it names changes; -1 lifts a limit. runc's single-limit
 * flags (--memory, --pids-limit, ...) are not taken: neither engine sends them. */
static int oci_update(int argc, char **argv)
{
        const char *file = NULL, *id = NULL;
        for (int i = 0; i < argc; i++) {
                const char *a = argv[i];
                if ((!strcmp(a, "--resources") || !strcmp(a, "-r")) && i + 1 < argc)
                        file = argv[++i];
                else if (!strncmp(a, "--resources=", 12))
                        file = a + 12;
                else if (a[0] == '-' && a[1])
                        return usage("update: '%s' is not supported by crib: give the limits as "
                                     "OCI resources JSON (--resources FILE, or - for stdin)",
                                     a);
                else if (!id)
                        id = a;
                else
                        return usage("usage: %s --resources FILE|- ID", "update");
        }
        if (!file || !id)
                return usage("usage: %s --resources FILE|- ID", "update");
        struct error err;
        error_clear(&err);
        struct cgroup_limits l;
        bool from_stdin = !strcmp(file, "-");
        FILE *f = from_stdin ? stdin : fopen(file, "re");
        if (!f) {
                error_set(&err, errno, "cannot open '%s'", file);
                return fail(&err);
        }
        int r = oci_load_resources(from_stdin ? "stdin" : file, f, &l, &err);
        if (!from_stdin)
                fclose(f);
        if (r < 0)
                return fail(&err);
        struct opened o;
        if (open_locked(id, &o, &err) < 0)
                return fail(&err);
        const char *status = status_of(&o);
        char leaf[1200];
        int code = 0;
        if (!strcmp(status, "stopped") || !strcmp(status, "creating")) {
                error_set(&err, 0, "container \"%s\" is %s: nothing to update", id, status);
                code = fail(&err);
                goto out;
        }
        char top[1024];
        leaf_top_of(&o, id, leaf, sizeof leaf, top, sizeof top);
        if (!leaf[0]) {
                error_set(&err, 0, "container \"%s\" has no cgroup v2 of its own to limit", id);
                error_hint(&err, "crib makes one for a container with resource limits (a "
                                 "cgroup v2 host, or a delegated subtree for a user)");
                code = fail(&err);
                goto out;
        }
        if (l.need) {
                /* as create refuses limits it cannot apply, naming the controller and why (the
                 * host's reasons, when they are why; else the container's parent lacks it) */
                unsigned have = cgroup_available_to(leaf, top);
                for (int k = 0; k < CGROUP_NCTRL; k++) {
                        if (!(l.need & CGROUP_BIT(k)) || (have & CGROUP_BIT(k)))
                                continue;
                        struct cgroup_host h;
                        cgroup_host_gather(&h);
                        bool host = !(h.available & CGROUP_BIT(k));
                        error_set(&err, 0, "the %s limits cannot be applied: %s",
                                  cgroup_ctrl_name(k),
                                  !host      ? "the container's parent cgroup does not have "
                                               "that controller"
                                  : h.why[0] ? h.why
                                             : h.ctrl_why[k]);
                        error_hint(&err, "%s",
                                   !host ? "the cgroup above the container's must have it (for a "
                                           "user, systemd delegates it: Delegate=)"
                                   : h.why[0] ? h.fix
                                              : h.ctrl_fix[k]);
                        code = fail(&err);
                        goto out;
                }
                struct trace t = {.on = false};
                if (cgroup_update(leaf, top, &l, &t, &err) < 0)
                        code = fail(&err);
        }
out:
        opened_close(&o);
        return code;
}

static int not_yet(const char *cmd)
{
        struct error err;
        error_set(&err, ENOSYS, "'%s' is not supported by crib's OCI runtime yet", cmd);
        return fail(&err);
}

static int oci_pause(int argc, char **argv)
{
        return oci_freeze(argc, argv, true);
}

static int oci_resume(int argc, char **argv)
{
        return oci_freeze(argc, argv, false);
}

static int oci_version(int argc, char **argv)
{
        (void)argc, (void)argv;
        printf("runc version 1.1.0 (crib %s)\nspec: 1.0.2\n", CRIB_VERSION);
        return 0;
}

/* runc's commands crib takes, in crib(1)'s order: what cmd_oci dispatches, and what an unknown
 * command is told (tests/e2e/32-cli.t checks each is in `crib help` and crib(1)) */
static const struct {
        const char *name;
        int (*run)(int argc, char **argv); /* the arguments after the command's name */
} oci_commands[] = {
        {"create", oci_create}, {"start", oci_start},     {"state", oci_state},
        {"kill", oci_kill},     {"delete", oci_delete},   {"ps", oci_ps},
        {"exec", oci_exec},     {"pause", oci_pause},     {"resume", oci_resume},
        {"update", oci_update}, {"version", oci_version},
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
        return fail(&err);
}

static char rootless_root[4096];

int cmd_oci(int argc, char **argv)
{
        int i = 0;
        for (; i < argc && argv[i][0] == '-'; i++) {
                const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
                if (!strcmp(a, "--version") || !strcmp(a, "-v")) {
                        printf("runc version 1.1.0 (crib %s)\nspec: 1.0.2\n", CRIB_VERSION);
                        return 0;
                } else if (!strcmp(a, "--root") && v) {
                        lifecycle_root_override = argv[++i];
                } else if (!strncmp(a, "--root=", 7)) {
                        lifecycle_root_override = a + 7;
                } else if (!strcmp(a, "--log") && v) {
                        log_path = argv[++i];
                } else if (!strncmp(a, "--log=", 6)) {
                        log_path = a + 6;
                } else if ((!strcmp(a, "--log-format") && v) || !strncmp(a, "--log-format=", 13)) {
                        const char *f = a[12] == '=' ? a + 13 : argv[++i];
                        if (strcmp(f, "json") && strcmp(f, "text"))
                                return usage("--log-format '%s' is not text or json", f);
                        log_json = !strcmp(f, "json");
                } else if (!strcmp(a, "--rootless") && v) {
                        i++;
                } else if (!strcmp(a, "--systemd-cgroup")) {
                        systemd_cgroup = true;
                } else if (!strcmp(a, "--debug") || !strncmp(a, "--rootless=", 11)) {
                        ; /* accepted */
                } else {
                        return usage("unknown global option '%s'", a);
                }
        }
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
        static const char *const later[] = {"run", "features", "checkpoint", "restore", "events"};
        for (size_t k = 0; k < sizeof later / sizeof later[0]; k++)
                if (!strcmp(cmd, later[k]))
                        return not_yet(cmd);
        return oci_unknown(cmd);
}
