/* ociops.c - crib as an OCI runtime: create, start, kill, delete; see ociops.h.
 *
 * Kernel features: a fifo(7) as the start signal (runtime/steps/start.c: the set-up process
 * blocks opening it for writing until start opens it for reading), pidfd signals (store.c),
 * cgroup.kill (ocicgroup.c).
 *
 * create: config.json goes through the OCI front end (oci.h) into a spec, the plan is built
 * from it as for `crib run`, the state directory gets its record, the plan, the bundle and
 * annotations (file `oci`) and the exec fifo; the container is set up in full and its process
 * waits on the fifo. crib create then exits, and the engine that ran it (conmon, containerd's
 * shim: subreapers) adopts the container's process and waits for it, as it does runc's: so in
 * this mode there is no crib monitor, and no log. Its stdio is crib create's, as the OCI spec
 * says.
 *
 * run: create and start in one process, which stays the container's parent (clone(2) made it
 * ours) and follows it as crib run follows its own (launch/follow.c: the forwarded signals
 * taken from a signalfd(2), blocked from before create so none is lost, the terminal relayed
 * when no console socket takes it), reaps it with waitpid(2), and deletes it.
 */
#define _GNU_SOURCE
#include "ociops.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "base/cleanup.h"
#include "launch/container.h"
#include "launch/follow.h"
#include "host/kernel.h"
#include "ocicgroup.h"
#include "state/state.h"

/* ---- create ---- */

struct creating {
        const struct oci_runtime *rt;
        const struct ociops_create *req;
        struct error err;
        bool failed;
        json_object *saved; /* the `oci` object, for the hooks */
        char cgroup[1200];  /* the container's own cgroup, "" for none */
};

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
        _cleanup_close_ int dir = state_open_path(c->rt->root, geteuid(), c->req->id, &c->err);
        if (dir < 0 ||
            (c->cgroup[0] &&
             state_write(dir, OCISTATE_CGROUP_FILE, c->cgroup, strlen(c->cgroup), &c->err) < 0) ||
            record_write_pid(dir, pid, workload, &c->err) < 0 ||
            (c->req->pid_file && ocistate_pid_file(c->req->pid_file, pid, &c->err) < 0)) {
                kill(pid, SIGKILL);
                c->failed = true;
        } else if (c->req->ret_pid) {
                *c->req->ret_pid = pid;
        }
}

/* Parent (crib create): the namespaces exist, the setup waits for GO: prestart (deprecated,
 * run where runc runs it) and createRuntime, each with the state on stdin */
static int on_before_go(void *ctx, pid_t pid, struct error *err)
{
        struct creating *c = ctx;
        struct ocistate st = {.id = c->req->id,
                              .status = STORE_CREATING,
                              .pid = pid,
                              .created = time(NULL),
                              .saved = c->saved};
        int r = ocistate_hooks(c->rt, c->saved, OCI_HOOK_PRESTART, "prestart", &st, err);
        if (r == 0)
                r = ocistate_hooks(c->rt, c->saved, OCI_HOOK_CREATE_RUNTIME, "createRuntime", &st,
                                   err);
        return r;
}

/* Parent: the terminal's master to the engine's console socket; or, for run without one, to
 * run, which relays it to its own terminal */
static void on_pty(void *ctx, int master)
{
        struct creating *c = ctx;
        if (!c->req->console && c->req->ret_master) {
                if (*c->req->ret_master >= 0)
                        close(*c->req->ret_master);
                *c->req->ret_master = master;
        } else if (ocistate_console(c->req->console, master, &c->err) < 0) {
                c->failed = true;
        }
}

static void on_warn(void *ctx, const char *line)
{
        struct creating *c = ctx;
        if (c->rt->warn)
                c->rt->warn(c->rt->ctx, line);
}

/* --root's missing parents, 0700, as runc makes them; the root itself is made and checked by
 * state_open_root() */
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

/* The bundle's config.json into `oc` (its path into `config`), as the engine asked for it: the
 * descriptors it keeps, its cgroup, its terminal */
static int load_config(const struct oci_runtime *rt, const struct ociops_create *req,
                       const char *dir, char *config, size_t len, struct oci_config *oc,
                       struct error *err)
{
        snprintf(config, len, "%s/config.json", dir);
        _cleanup_fclose_ FILE *f = fopen(config, "re");
        if (!f)
                return error_set(err, errno, "cannot open '%s'", config);
        int loaded = oci_load(config, f, oc, err);
        fclose(steal_ptr(&f));
        if (loaded < 0)
                return -1;
        for (long i = 0; i < req->preserve_fds; i++)
                oc->spec.pass_fds[oc->spec.npass_fds++] = (int)(3 + i);
        /* the engine's cgroup for it, read as runc reads it: a path, or with --systemd-cgroup
         * systemd's SLICE:PREFIX:NAME (a user's default slice is user.slice) */
        if (oc->spec.cgroups_path) {
                char cg[1024];
                if (cgroup_oci_path(oc->spec.cgroups_path, rt->systemd_cgroup,
                                    geteuid() == 0 && userns_is_initial(), cg, sizeof cg,
                                    err) < 0) {
                        oci_free(oc);
                        return error_wrap(err, "%s: .linux.cgroupsPath", config);
                }
                free(oc->spec.cgroups_path);
                if (!(oc->spec.cgroups_path = strdup(cg))) {
                        oci_free(oc);
                        return error_set(err, ENOMEM, "cannot allocate");
                }
        }
        if (oc->spec.terminal == TERMINAL_YES && !req->console && !req->ret_master) {
                oci_free(oc);
                error_set(err, 0, "%s: .process.terminal: a terminal needs --console-socket",
                          config);
                error_hint(err, "give the engine's --console-socket PATH, or set "
                                ".process.terminal to false; crib-runc run without --detach "
                                "relays the terminal itself");
                return -1;
        }
        return 0;
}

/* The state the hooks that run inside the container read (createContainer, startContainer):
 * what `state` prints, but for what only the container knows when they run, which its process
 * adds (runtime/steps/ocihooks_in.c): its status, its pid as the host sees it, its rootfs as
 * planned. NULL when out of memory. */
static char *in_hook_state(const char *id, const char *bundle, const struct oci_config *oc)
{
        json_object *saved = ocistate_saved_new(bundle, "", oc);
        struct ocistate st = {
                .id = id, .status = STORE_CREATING, .created = time(NULL), .saved = saved};
        json_object *o = ocistate_json(&st);
        json_object_object_del(o, "status");
        json_object_object_del(o, "pid");
        json_object_object_del(o, "rootfs");
        char *text = strdup(json_object_to_json_string_ext(
                o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(o);
        json_object_put(saved);
        return text;
}

_Static_assert(OCI_MAX_HOOKS <= PLAN_MAX_HOOKS, "a plan takes every hook of a kind");

/* The plan, as for `crib run`, of a container that waits for start, with the hooks its own
 * processes run */
static int plan_of(const struct oci_runtime *rt, const char *id, const char *bundle,
                   struct oci_config *oc, struct plan *plan, struct error *err)
{
        struct plan_host host;
        plan_host_gather(&oc->spec, &host);
        host.stdin_tty = false;
        char name[STATE_NAME_MAX + 1];
        snprintf(name, sizeof name, "%s", id);
        /* the workload waits for crib start; the hooks run before the setup goes on */
        struct plan_opts opts = {.wait_start = true, .hooks = oc->hooks != NULL, .name = name};
        static const enum oci_hook_kind inside[PLAN_HOOK_WHENS] = {
                [PLAN_HOOK_SETUP] = OCI_HOOK_CREATE_CONTAINER,
                [PLAN_HOOK_START] = OCI_HOOK_START_CONTAINER};
        struct oci_hook found[PLAN_HOOK_WHENS][OCI_MAX_HOOKS];
        struct plan_hook in[PLAN_HOOK_WHENS][OCI_MAX_HOOKS];
        int n[PLAN_HOOK_WHENS] = {0, 0};
        _cleanup_free_ char *state = NULL;
        int planned = -1;
        for (int w = 0; w < PLAN_HOOK_WHENS; w++) {
                if ((n[w] = oci_hooks_of(oc->hooks, inside[w], found[w], err)) < 0) {
                        n[w] = 0;
                        goto out;
                }
                for (int i = 0; i < n[w]; i++)
                        in[w][i] = (struct plan_hook){found[w][i].path, found[w][i].args,
                                                      found[w][i].env, found[w][i].timeout};
                opts.in_hooks[w] = in[w];
                opts.nin_hooks[w] = (size_t)n[w];
        }
        if ((n[PLAN_HOOK_SETUP] || n[PLAN_HOOK_START]) &&
            !(opts.hook_state = state = in_hook_state(id, bundle, oc))) {
                error_set(err, ENOMEM, "cannot allocate");
                goto out;
        }
        planned = plan_build(&oc->spec, &host, &opts, plan, err);
out:
        for (int w = 0; w < PLAN_HOOK_WHENS; w++)
                oci_hooks_free(found[w], (size_t)n[w]);
        if (planned < 0)
                return -1;
        /* before anything of the container exists: crib's init stays in it */
        if (ocistate_seal(rt, plan, err) < 0) {
                plan_free(plan);
                return -1;
        }
        for (size_t i = 0; i < plan->nwarnings && rt->warn; i++)
                rt->warn(rt->ctx, plan->warnings[i]);
        return 0;
}

/* The state directory, with the `oci` file and the exec fifo (its O_PATH into *ret_fifo), then
 * the container, set up to wait on it */
static int make_container(struct creating *c, const struct plan *plan, const char *config,
                          bool hooks_given, struct error *err)
{
        const char *id = c->req->id;
        if (store_create(c->rt->root, plan, config, id, true, err) < 0) {
                if (err->errnum == EEXIST)
                        error_set(err, EEXIST, "container \"%s\" already exists", id);
                return -1;
        }
        _cleanup_close_ int fifo = -1;
        struct stored o;
        if (ocistate_open(c->rt, id, false, &o, err) < 0 ||
            ocistate_save(o.dir, c->saved, err) < 0 ||
            state_fifo_make(o.dir, STORE_FILE_FIFO, err) < 0 ||
            (fifo = state_fifo_open(o.dir, STORE_FILE_FIFO, O_PATH, err)) < 0) {
                store_close(&o);
                store_forget(c->rt->root, id);
                return -1;
        }
        /* nothing of the state tree goes along into the container but the fifo's O_PATH */
        store_close(&o);
        error_clear(&c->err);
        struct container_hooks hooks = {.warn = on_warn,
                                        .created = on_created,
                                        .cgroup = on_cgroup,
                                        .before_go = hooks_given ? on_before_go : NULL,
                                        .pty = on_pty,
                                        .start_fifo = fifo,
                                        .ctx = c};
        int status;
        if (container_run(plan, &hooks, &status, err) < 0 || c->failed) {
                if (c->failed)
                        *err = c->err;
                store_forget(c->rt->root, id);
                return -1;
        }
        return 0;
}

int ociops_create(const struct oci_runtime *rt, const struct ociops_create *req, struct error *err)
{
        if (req->root_parents)
                make_parents(rt->root);
        _cleanup_free_ char *dir = realpath(req->bundle, NULL);
        if (!dir)
                return error_set(err, errno, "bundle '%s'", req->bundle);
        char config[4200];
        struct oci_config oc;
        if (load_config(rt, req, dir, config, sizeof config, &oc, err) < 0)
                return -1;
        struct plan plan;
        if (plan_of(rt, req->id, dir, &oc, &plan, err) < 0) {
                oci_free(&oc);
                return -1;
        }
        struct creating c = {.rt = rt, .req = req};
        c.saved = ocistate_saved_new(dir, plan.rootfs, &oc);
        int r = make_container(&c, &plan, config, oc.hooks != NULL, err);
        plan_free(&plan);
        oci_free(&oc);
        json_object_put(c.saved);
        return r;
}

/* ---- start ---- */

/* Wait for the container's process to open the fifo for writing: it is set up and execs once
 * it can; -1 when it ended before */
static int released(const struct stored *o, int fd, const char *id, struct error *err)
{
        char byte = 0;
        for (;;) {
                struct pollfd p = {.fd = fd, .events = POLLIN};
                if (poll(&p, 1, 100) > 0 && read(fd, &byte, 1) == 1)
                        return 0;
                if (!state_proc_alive(o->rec.pid, o->rec.pid_start))
                        return error_set(err, 0, "container \"%s\" ended before it was started",
                                         id);
        }
}

/* What the container's process said about its exec: end-of-file when it succeeded
 * (close-on-exec), else "STATUS MESSAGE\nHINT": that error, and its status */
static int exec_result(int fd, int *ret_exit, struct error *err)
{
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
        if (!used)
                return 0;
        char *msg = strchr(text, ' ');
        int code = atoi(text);
        char *hint = msg ? strchr(msg, '\n') : NULL;
        if (hint)
                *hint++ = '\0';
        error_set(err, 0, "%s", msg ? msg + 1 : text);
        if (hint && *hint)
                error_hint(err, "%s", hint);
        *ret_exit = code > 0 && code < 256 ? code : EXIT_CRIB_ERROR;
        return -1;
}

int ociops_start(const struct oci_runtime *rt, const char *id, int *ret_exit, struct error *err)
{
        *ret_exit = 0;
        struct stored o;
        if (ocistate_open(rt, id, true, &o, err) < 0)
                return -1;
        enum store_status status = store_status(&o);
        if (status != STORE_CREATED) {
                error_set(err, 0, "container \"%s\" is %s, not created", id,
                          store_status_name(status));
                store_close(&o);
                return -1;
        }
        /* O_NONBLOCK: no waiting for a writer that may never come (it died); poll instead */
        _cleanup_close_ int fd =
                state_fifo_open(o.dir, STORE_FILE_FIFO, O_RDONLY | O_NONBLOCK, err);
        if (fd < 0 || released(&o, fd, id, err) < 0) {
                store_close(&o);
                return -1;
        }
        /* started: no second start, and state says running */
        unlinkat(o.dir, STORE_FILE_FIFO, 0);
        struct error ignored;
        json_object *saved = ocistate_saved(o.dir, &ignored);
        struct ocistate st = {
                .id = id, .status = STORE_RUNNING, .pid = o.rec.pid, .created = o.rec.created};
        store_close(&o);
        int r = exec_result(fd, ret_exit, err);
        if (r == 0) {
                /* poststart: the program runs; a failure is a warning (the runtime spec) */
                st.saved = saved;
                ocistate_hooks(rt, saved, OCI_HOOK_POSTSTART, "poststart", &st, &ignored);
        }
        json_object_put(saved);
        return r;
}

/* ---- kill, delete ---- */

int ociops_kill(const struct oci_runtime *rt, const char *id, int sig, bool all, struct error *err)
{
        struct stored o;
        if (ocistate_open(rt, id, false, &o, err) < 0)
                return -1;
        int r = 0;
        if (!o.rec.pid_alive) {
                r = error_set(err, 0, "container \"%s\" is not running", id);
        } else {
                if (all)
                        ocicgroup_signal(&o, id, sig);
                r = store_signal(o.rec.pid, o.rec.pid_start, sig, err);
        }
        store_close(&o);
        return r;
}

int ociops_delete(const struct oci_runtime *rt, const char *id, bool force, struct error *err)
{
        struct stored o;
        if (ocistate_open(rt, id, true, &o, err) < 0)
                /* as runc: nothing to delete is no error with --force */
                return force && err->errnum == ENOENT ? 0 : -1;
        enum store_status status = store_status(&o);
        if ((status == STORE_RUNNING || status == STORE_PAUSED) && !force) {
                error_set(err, 0, "container \"%s\" is %s", id, store_status_name(status));
                error_hint(err, "kill it first, or delete --force");
                store_close(&o);
                return -1;
        }
        /* created (as runc) or forced: it ends first */
        struct error ignored;
        if (o.rec.pid_alive) {
                ocicgroup_signal(&o, id, SIGKILL);
                store_signal(o.rec.pid, o.rec.pid_start, SIGKILL, &ignored);
                store_wait_gone(o.rec.pid, o.rec.pid_start, 2000);
        }
        /* what is left in its cgroup (without a pid namespace, the workload's orphans; or what
         * hid below it) ends with it, through cgroup.kill */
        char leaf[1200];
        ocistate_leaf(&o, id, leaf, sizeof leaf, NULL, 0);
        if (leaf[0])
                cgroup_remove(leaf);
        json_object *saved = ocistate_saved(o.dir, &ignored);
        struct ocistate st = {.id = id, .status = STORE_STOPPED, .created = o.rec.created};
        int r = state_remove(o.root, id, err);
        store_close(&o);
        /* poststop: the container is gone; a failure is a warning (the runtime spec) */
        st.saved = saved;
        ocistate_hooks(rt, saved, OCI_HOOK_POSTSTOP, "poststop", &st, &ignored);
        json_object_put(saved);
        return r;
}

/* ---- run ---- */

/* Parent (crib oci run): a container run made and could not see through: its process (our
 * child: reaped here, as no one else will while we live) ends, and it is deleted */
static void run_undo(const struct oci_runtime *rt, const char *id, pid_t pid, int *master)
{
        if (*master >= 0)
                close(*master);
        *master = -1;
        if (pid > 0) {
                kill(pid, SIGKILL);
                while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                        ;
        }
        struct error ignored;
        ociops_delete(rt, id, true, &ignored);
}

int ociops_run(const struct oci_runtime *rt, const struct ociops_run *req, int *ret_status,
               int *ret_exit, struct error *err)
{
        *ret_status = *ret_exit = 0;
        pid_t pid = -1;
        int master = -1;
        struct ociops_create c = req->create;
        c.ret_pid = &pid;
        /* a terminal without a console socket is ours to relay; detached, no one's (refused) */
        c.ret_master = req->detach ? NULL : &master;
        /* from before create, so none ends us: container_run passes on those of the setup
         * (it blocks them again and restores this mask), one sent during start waits, blocked,
         * and is passed on once the program runs */
        struct container_hooks none = {.ctx = NULL};
        struct trace quiet = {.on = false};
        struct follow f;
        follow_init(&f, &none, &quiet);
        if (!req->detach && follow_block_signals(&f, err) < 0) {
                follow_close(&f);
                return -1;
        }
        if (ociops_create(rt, &c, err) < 0) {
                if (master >= 0)
                        close(master);
                follow_close(&f);
                return -1;
        }
        if (pid <= 0) {
                error_set(err, 0, "container \"%s\" was made without a process", c.id);
                run_undo(rt, c.id, -1, &master);
                follow_close(&f);
                return -1;
        }
        if (ociops_start(rt, c.id, ret_exit, err) < 0) {
                run_undo(rt, c.id, pid, &master);
                follow_close(&f);
                return -1;
        }
        if (req->detach)
                return 0;
        /* follow it as crib run follows its container: every forwarded signal (and those
         * waiting since create) to its process, the terminal relayed, until it is reaped */
        f.pid = pid;
        if (master >= 0)
                relay_start(&f.relay, take_fd(&master));
        if (waitpid(pid, &f.status, WNOHANG) == pid)
                f.reaped = true; /* it ended already, its SIGCHLD maybe taken by create's loop */
        if (follow_run(&f, err) < 0) {
                follow_kill(&f);
                follow_close(&f);
                run_undo(rt, c.id, -1, &master);
                return -1;
        }
        *ret_status = f.status;
        follow_close(&f);
        if (req->keep)
                return 0;
        /* not --force: it ended, so it is stopped; anything else is not ours to end */
        return ociops_delete(rt, c.id, false, err);
}
