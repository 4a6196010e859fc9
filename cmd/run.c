/* run.c - `crib run`: read the spec, plan the container, record it when it has a name or runs
 * in the background, and run it (runtime/container), once or --count times.
 *
 *   crib run [--trace[=explain]] [-d] [--name NAME] [--log-size BYTES] [--count N] SPEC [-- PROGRAM
 * ARGS...] crib run [--trace[=explain]] [-d] [--name NAME] [--rm] [--print-spec] [FLAGS] IMAGE
 * [PROGRAM ARGS...]
 *
 * An IMAGE (a name or id of the image store's, runimage.c's flags over its crib.ini), or a
 * spec saying `image = REF`, gets a directory of its own in the store
 * (runtime/container/imgrootfs.c: an overlay, or a copy) and a record, like -d's, which
 * `crib rm` removes with the directory; --rm removes both when the container ends. The store
 * is opened and checked once, and the image looked up once: its crib.ini and its layers are
 * those of the one image found, whatever a pull does to its name meanwhile.
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
#include "base/words.h"
#include "launch/sealed.h"
#include "spec/spec.h"
#include "specfile.h"
#include "state/state.h"
#include "host/subids.h"
#include "base/trace.h"
#include "output.h"
#include "run.h"
#include "runimage.h"
#include "stepmode.h"
#include "tracesvg.h"
#include "unit.h"
#include "container/imgrootfs.h"
#include "image/imgstore.h"
#include <fcntl.h>
#include <sys/stat.h>

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

/* The ways of running that do not go together: 0, or the exit status of a usage error */
static int run_check_modes(const struct run_request *rq)
{
        /* a container in step mode is one the user watches from a terminal: no batch, none
         * left running, none with a name crib exec could join mid-way */
        if (rq->svg && (rq->detach || rq->count > 1 || rq->trace || rq->step))
                return usage_error("%s", "'--trace=svg FILE' draws one container run in the "
                                         "foreground: not with -d, --count, --trace or --step");
        if (rq->step && (rq->detach || rq->name[0] || rq->count > 1 || rq->image))
                return usage_error("%s", "'--step' runs one container of a spec in the "
                                         "foreground: not with -d, --name, --count or an image");
        if (rq->count > 1 && (rq->detach || rq->name[0]))
                return usage_error("%s", "'--count' starts unnamed containers in the foreground, "
                                         "one after the other: not with -d or --name");
        if (rq->plan && (rq->trace || rq->svg || rq->step || rq->count > 1))
                return usage_error("%s", "'--trace', '--step' and '--count' are about a run: "
                                         "crib plan prints the plan and runs nothing");
        return 0;
}

int run_parse(int argc, char **argv, bool plan, struct run_request *rq)
{
        const char *verb = plan ? "plan" : "run";
        *rq = (struct run_request){
                .log_limit = LOG_LIMIT_DEFAULT, .count = 1, .store = -1, .plan = plan};
        int taken;
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "--")) {
                        rq->override = &argv[i + 1];
                        if (!*rq->override)
                                return usage_error("%s", "'--' must be followed by a program");
                        break;
                } else if (!strcmp(argv[i], "--trace")) {
                        rq->trace = true;
                } else if (!strcmp(argv[i], "--trace=explain")) {
                        rq->trace = rq->explain = true;
                } else if (!strcmp(argv[i], "--trace=svg") && i + 1 < argc) {
                        rq->svg = argv[++i];
                } else if (!strcmp(argv[i], "--step")) {
                        rq->step = true;
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
                } else if ((taken = runimage_take(&rq->flags, argc, argv, i)) != 0) {
                        if (taken < 0)
                                return usage_error("'%s' needs a value", argv[i]);
                        i += taken - 1;
                } else if (argv[i][0] == '-' && argv[i][1]) {
                        char msg[256];
                        snprintf(msg, sizeof msg, "unknown option '%s' for 'crib %s'", argv[i],
                                 verb);
                        return usage_error("%s", msg);
                } else if (!rq->path && specfile_is_image(argv[i])) {
                        /* IMAGE [PROGRAM ARGS...], as podman: the rest is the program */
                        rq->path = rq->image = argv[i];
                        i += i + 1 < argc && !strcmp(argv[i + 1], "--");
                        rq->override = i + 1 < argc ? &argv[i + 1] : NULL;
                        break;
                } else if (!rq->path) {
                        rq->path = argv[i];
                } else {
                        return usage_error("unexpected argument '%s' (put the program after "
                                           "'--')",
                                           argv[i]);
                }
        }
        if (!rq->path)
                return usage_error("'crib %s' needs an image or a spec file", verb);
        const struct run_flags *f = &rq->flags;
        /* --rm is a spec's too (one with image = REF); the rest are keys a spec writes */
        if (!rq->image && (f->n || f->print_spec || f->tty || f->interactive)) {
                char msg[128];
                snprintf(msg, sizeof msg,
                         "'%s' is for 'crib %s IMAGE'; a spec says it with its keys "
                         "(crib.ini(5))",
                         f->n            ? f->f[0].flag
                         : f->print_spec ? "--print-spec"
                                         : "-i/-t",
                         verb);
                return usage_error("%s", msg);
        }
        if (rq->image && rq->count > 1)
                return usage_error("%s", "'--count' is for a spec, not an image");
        return run_check_modes(rq);
}

/* The image store's ROOT (docs/store.md), opened and checked, and the image `what` found in
 * it, into rq->store and rq->found: once a run */
static int find_image(struct run_request *rq, const char *what, struct error *err)
{
        if (!rq->found && !(rq->found = malloc(sizeof *rq->found)))
                return error_set(err, ENOMEM, "cannot allocate");
        rq->store = store_open_mine(false, rq->store_path, sizeof rq->store_path, err);
        return rq->store < 0 ? -1 : store_find_image_bare(rq->store, what, rq->found, err);
}

/* What find_image() holds, let go */
void run_release(struct run_request *rq)
{
        if (rq->store >= 0)
                close(rq->store);
        rq->store = -1;
        free(rq->found);
        rq->found = NULL;
}

/* IMAGE: its crib.ini with the flags' keys (runimage.c), loaded as a spec named IMAGE; an
 * error of a flag's line names the flag. 1 when --print-spec printed the text instead. */
/* Which flag wrote each line of an IMAGE's spec text (runimage_ini), for errors of planning too */
static char image_lines[RUNIMAGE_MAX_LINES][96];

static int run_load_image(struct run_request *rq, struct spec *spec, struct error *err)
{
        char(*lines)[96] = image_lines;
        _cleanup_free_ char *text = NULL;
        size_t len = 0;
        if (find_image(rq, rq->image, err) < 0) {
                struct stat st;
                if (stat(rq->image, &st) == 0) /* specfile_is_image: not the caller's own */
                        error_hint(err,
                                   "'%s' here is not yours alone, so it is read as an image; "
                                   "'crib run ./%s' runs it as a spec",
                                   rq->image, rq->image);
                return -1;
        }
        int fd = store_open_spec(rq->store, rq->found, err);
        _cleanup_fclose_ FILE *f = fd < 0 ? NULL : fdopen(fd, "re");
        if (!f) {
                if (fd >= 0)
                        close(fd);
                return fd < 0 ? -1 : error_set(err, errno, "cannot read the image's crib.ini");
        }
        rq->flags.args = rq->override;
        if (runimage_ini(&rq->flags, rq->image, f, &text, &len, lines, err) < 0)
                return -1;
        if (rq->flags.print_spec)
                return fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0
                               ? 1
                               : error_set(err, errno, "cannot write the spec");
        snprintf(rq->spec_path, sizeof rq->spec_path, "%s", rq->image);
        rq->path = rq->spec_path;
        _cleanup_fclose_ FILE *m = fmemopen(text, len, "r");
        if (!m)
                return error_set(err, errno, "cannot read the spec");
        if (spec_load(rq->path, m, rq->override || rq->plan, spec, err) < 0) {
                runimage_blame(err, rq->path, lines);
                return -1;
        }
        return 0;
}

/* Read the spec file (or DIR/crib.ini, or IMAGE's) into `spec`, with the program after '--'
 * (crib plan's may have none: it plans the rest); nothing is left to free on failure. A plan that
 * would be host root with ptrace(2) runs crib again from a sealed copy here (not crib plan's): this
 * returns only when that failed. 1:
 * --print-spec, done. */
int run_read_spec(struct run_request *rq, struct spec *spec, struct error *err)
{
        if (rq->image) {
                int r = run_load_image(rq, spec, err);
                if (r != 0)
                        return r;
        } else {
                _cleanup_fclose_ FILE *f =
                        specfile_open(rq->path, rq->spec_path, sizeof rq->spec_path, err);
                if (!f)
                        return -1;
                rq->path = rq->spec_path;
                int loaded = spec_load(rq->path, f, rq->override || rq->plan, spec, err);
                fclose(steal_ptr(&f)); /* nothing of crib's stays open while the container runs */
                if (loaded < 0)
                        return -1;
        }
        if (rq->override && spec_override_args(spec, rq->override, err) < 0) {
                spec_free(spec);
                return -1;
        }
        /* host root with ptrace(2) could reach crib's binary through /proc/1/exe: run from a
         * sealed copy of it instead (sealed.c), before anything is planned */
        if (!rq->plan && !spec->ns_user && (spec->caps & (1ULL << CAP_SYS_PTRACE)) &&
            !sealed_running()) {
                if (rq->trace)
                        fprintf(stderr, "crib: trace: parent: user = no with SYS_PTRACE: "
                                        "running again from a sealed copy of crib\n");
                spec_free(spec);
                sealed_reexec(crib_argv, environ, err);
                return -1;
        }
        return 0;
}

/* [service] restart is crib's monitor's, so for `crib run -d` only: in the foreground what ran
 * crib is the supervisor (systemd's Restart=), as podman applies --restart to a detached
 * container; and a container --rm removes when it ends cannot be restarted (docker refuses
 * the two together too). `spec` is freed on failure. */
int run_check_restart(const struct run_request *rq, struct spec *spec, struct error *err)
{
        /* [service] healthcheck, the same: crib's monitor runs the checks, or crib itself
         * under a unit (unit.c) */
        if (unit_check_health(spec, rq->detach, rq->image, rq->name, rq->count, err) < 0) {
                spec_free(spec);
                if (rq->image)
                        runimage_blame(err, rq->path, image_lines);
                return -1;
        }
        if (spec->restart == SPEC_RESTART_NO)
                return 0;
        const char *policy = spec_restart_name(spec->restart);
        unsigned line = spec_line(spec, SPEC_KEY_SERVICE_RESTART);
        if (rq->flags.rm) {
                error_at(err, spec->path, line,
                         "'--rm' cannot go with restart = %s: a container removed when it ends "
                         "cannot be restarted",
                         policy);
                error_hint(err, "drop one of the two (docker refuses them together too)");
        } else if (!rq->detach && !unit_notify_socket()) {
                error_at(err, spec->path, line,
                         "restart = %s is for a detached container: 'crib run -d'", policy);
                error_hint(err, "in the foreground, what runs crib restarts it: systemd's "
                                "Restart= in the unit 'crib generate systemd' writes");
        } else {
                return 0;
        }
        spec_free(spec);
        if (rq->image)
                runimage_blame(err, rq->path, image_lines);
        return -1;
}

/* A container of an image (IMAGE, or a spec's image = REF): a name (crib's own when none was
 * given: it is recorded, as -d's are), its directory in the store, and so the rootfs in
 * `spec`; `spec` is freed on failure. IMAGE's store and image are those its crib.ini was
 * read from (run_load_image); a spec's are found here. Either way the store is let go, but
 * for crib plan, which prints the image and lets it go itself: it takes no name and makes no
 * directory, it only says what crib run would make (imgrootfs_predict). */
int run_image_dir(struct run_request *rq, struct spec *spec, struct error *err)
{
        if (!spec->image) {
                if (!rq->plan)
                        run_release(rq);
                return 0;
        }
        if (rq->count > 1) { /* one directory a container: --count would share it */
                run_release(rq);
                spec_free(spec);
                return error_set(err, 0, "'--count' is for a spec with a rootfs, not an image");
        }
        rq->from_image = true;
        struct imgrootfs_opts o = {.name = rq->name, .userns = spec->ns_user};
        int made;
        if (rq->plan)
                made = (rq->found || find_image(rq, spec->image, err) == 0) &&
                       imgrootfs_predict(rq->store, rq->store_path, rq->found, &o, &rq->img, err) ==
                               0;
        else
                made = (rq->name[0] || lifecycle_name(rq->name, sizeof rq->name, err) == 0) &&
                       (rq->found || find_image(rq, spec->image, err) == 0) &&
                       imgrootfs_make(rq->store, rq->store_path, rq->found, &o, &rq->img, err) == 0;
        if (!rq->plan)
                run_release(rq); /* nothing of the store stays open while the container runs */
        if (made) {
                spec->rootfs = strdup(rq->img.rootfs);
                spec->image_dir = strdup(rq->img.dir);
                spec->overlay_layers = rq->img.nlayers;
                spec->overlay_idmapped = rq->img.idmapped;
                spec->overlay_volatile = rq->flags.rm; /* removed at its end: never synced */
                if (spec->rootfs && spec->image_dir)
                        return 0;
                error_set(err, ENOMEM, "cannot allocate");
        }
        spec_free(spec);
        return -1;
}

void run_blame(const struct run_request *rq, struct error *err)
{
        if (rq->image)
                runimage_blame(err, rq->path, image_lines);
}

/* The image's container's directory removed (with the plan, `p`, once there is one: in the
 * container's user namespace); nothing for a spec's rootfs */
static void run_image_drop(const struct run_request *rq, const struct plan *p)
{
        struct error err;
        if (!rq->from_image || !rq->img.dir[0])
                return;
        if (p) {
                if (imgrootfs_remove(p, &err) < 0)
                        output_error(&err);
                return;
        }
        struct plan *bare = calloc(1, sizeof *bare); /* nothing ran: the files are all yours */
        if (!bare)
                return;
        bare->image_dir = (char *)rq->img.dir;
        if (imgrootfs_remove(bare, &err) < 0)
                output_error(&err);
        free(bare);
}

/* The monitor of `crib run -d --rm IMAGE`, once the container ended: nothing of it stays; a
 * directory it could not remove keeps the record, for `crib ps -a` to show and `crib rm` */
static void run_at_end(const struct plan *p, const char *name)
{
        struct error ignored;
        if (imgrootfs_remove(p, &ignored) == 0)
                lifecycle_forget(name);
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
        struct plan_opts opts = {.trace = rq->trace || rq->svg,
                                 .explain = rq->explain,
                                 .step = rq->step,
                                 .name = rq->name};
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

/* A copy of the image's layers, where overlayfs cannot be used: said once, with its cost (or,
 * for root's overlay in a user namespace, its upper layer given to the container's root); and
 * stdin, which podman's containers get only with -i */
static int run_image_fill(struct run_request *rq, const struct plan *plan)
{
        struct error err;
        if (!rq->from_image)
                return 0;
        if (rq->image && !rq->flags.interactive && !rq->flags.tty && !rq->detach) {
                int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
                if (null >= 0 && null != 0)
                        dup2(null, 0), close(null);
        }
        if (!rq->img.why[0] && !rq->img.idmapped)
                return 0;
        if (rq->img.why[0])
                output_warning("this container gets a copy of the image's layers, %.1f MB written "
                               "(an overlay writes none): %s",
                               (double)rq->img.size / 1e6, rq->img.why);
        if (imgrootfs_fill(&rq->img, plan, &err) == 0)
                return 0;
        output_error(&err);
        run_image_drop(rq, plan);
        lifecycle_forget(rq->name);
        return -1;
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
                                  .exit_status = lifecycle_exit_status,
                                  .at_end = rq->flags.rm ? run_at_end : NULL};
        if (lifecycle_root_path(root, sizeof root, &err) < 0 ||
            monitor_start(plan, &mo, &hooks, &monitor, &err) < 0) {
                run_image_drop(rq, plan); /* the monitor removed the record */
                return output_error(&err);
        }
        return printf("%s\n", rq->name) < 0 ? EXIT_CRIB_ERROR : 0;
}

/* In the foreground: this process runs the container (--count times) and waits for it; its
 * exit status, or the last failure's of a batch */
static int run_foreground(struct run_request *rq, const struct plan *plan)
{
        struct container_hooks hooks = {.trace = output_trace_line, .warn = output_warning_line};
        struct error err;
        error_clear(&err);
        struct stepmode sm = {.tty = -1};
        if (rq->svg && tracesvg_check(rq->svg, &err) < 0)
                return output_error(&err); /* before the container runs, not after */
        if (rq->svg)
                hooks.trace = tracesvg_line; /* kept for the picture, not printed */
        if (rq->step) {
                if (stepmode_open(&sm, &err) < 0)
                        return output_error(&err);
                hooks.step = stepmode_prompt;
                hooks.ctx = &sm;
        }
        /* listed while it runs: this process is its monitor, as lifecycle_create recorded
         * it; and a Type=notify unit's main process: systemd hears READY=1 (unit.c) */
        struct unit_run ur = {.name = rq->name[0] ? rq->name : NULL,
                              .notify = rq->count == 1 ? unit_notify_socket() : NULL,
                              .proxy = rq->notify.fd >= 0 ? &rq->notify : NULL};
        if (plan->health.argv && unit_run_health(&ur, plan, &err) < 0) /* unit_check_health */
                return output_error(&err);
        if (ur.name || ur.notify) {
                hooks.running = unit_tell_running;
                hooks.ctx = &ur;
        }
        hooks.notify = ur.proxy;
        /* a batch: its containers clone the filter from one template, when the kernel can */
        struct seccomp_template tmpl = {.pidfd = -1, .pid = -1};
        if (rq->count > 1 && plan->seccomp.n)
                start_template(plan, &tmpl, rq->trace);
        hooks.seccomp_template = tmpl.pid > 0 ? &tmpl : NULL;
        int status = 0, code = 0;
        for (long i = 0; i < rq->count; i++) {
                uint64_t t1 = trace_now_us();
                int one;
                bool failed = container_run(plan, &hooks, &status, &err) < 0;
                one = failed ? output_error(&err) : lifecycle_exit_status(status);
                one = unit_run_ended(&ur, one, failed);
                if (rq->svg && tracesvg_write(rq->svg, one, &err) < 0)
                        one = output_error(&err);
                /* an image's container stays, stopped, for crib rm (as podman's), unless --rm
                 * or it never started */
                if (rq->from_image && (failed || rq->flags.rm))
                        run_image_drop(rq, plan);
                if (rq->name[0] && (!rq->from_image || failed || rq->flags.rm))
                        lifecycle_forget(rq->name);
                else if (rq->from_image)
                        lifecycle_record_exit(rq->name, one);
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
        stepmode_close(&sm);
        return code;
}

/* `crib run` once the spec is read: the image's directory, the plan, the record, the run */
static int run_spec(struct run_request *rq, struct spec *spec, uint64_t t0)
{
        struct error err;
        struct plan plan;
        error_clear(&err);
        if (run_image_dir(rq, spec, &err) < 0)
                return output_error(&err);
        if (run_plan(rq, spec, &plan, &err) < 0) {
                run_image_drop(rq, NULL);
                if (rq->image)
                        runimage_blame(&err, rq->path, image_lines);
                return output_error(&err);
        }
        uint64_t planned = trace_now_us() - t0;
        /* a name that is taken is the one error, without the plan's warnings: nothing runs */
        if ((rq->detach || rq->name[0]) &&
            lifecycle_create(&plan, rq->path, rq->name, rq->detach, &err) < 0) {
                run_image_drop(rq, NULL);
                plan_free(&plan);
                return output_error(&err);
        }
        run_tell_plan(rq, &plan, planned);
        if (run_image_fill(rq, &plan) < 0) {
                plan_free(&plan);
                return EXIT_CRIB_ERROR;
        }
        int code = rq->detach ? run_detached(rq, &plan) : run_foreground(rq, &plan);
        plan_free(&plan);
        return code;
}

/* `crib run`: the command line; the spec read and planned (the plan owns what it needs);
 * the container recorded when it has a name or runs in the background; then run */
int cmd_run(int argc, char **argv)
{
        struct run_request rq;
        struct error err;
        error_clear(&err);
        int code = run_parse(argc, argv, false, &rq);
        if (code)
                return code;
        uint64_t t0 = trace_now_us();
        struct spec spec;
        int read = run_read_spec(&rq, &spec, &err);
        if (read != 0) {
                run_release(&rq);
                return read > 0 ? 0 : output_error(&err); /* 1: --print-spec printed it */
        }
        if (run_check_restart(&rq, &spec, &err) < 0) {
                run_release(&rq);
                return output_error(&err);
        }
        notify_proxy_init(&rq.notify);
        if (!rq.detach && unit_notify_prepare(&spec, &rq.notify, &err) < 0) {
                notify_proxy_close(&rq.notify);
                spec_free(&spec);
                run_release(&rq);
                return output_error(&err);
        }
        code = run_spec(&rq, &spec, t0);
        notify_proxy_close(&rq.notify);
        return code;
}
