/* bench.c - `crib bench`: what the sandbox costs, measured with crib's own code.
 *
 *   crib bench --rootfs DIR [--quick] [--levels] [--format=csv|table]
 *   crib bench --seccomp [--format=csv|table]
 *
 * dd from /dev/zero to /dev/null (block sizes 1, 4k, 1M; three runs each, the median) on the
 * host, on the host under crib's default seccomp filter only, and in a crib container at the
 * default level (and every level with --levels); the same static dd (the rootfs's busybox)
 * everywhere, timed by dd itself. Then the container start time, and what installing the
 * seccomp filter costs on each path: compiling with libseccomp, the program built into crib,
 * the kernel's load, and the clone from a template (SECCOMP_CLONE_FILTER, on a kernel that has
 * it: `crib run --count N` takes that path). --seccomp: that last table alone.
 *
 *   crib bench --own SPEC [--runs N]
 *
 * crib's own work before the clone, as `crib run SPEC` does it: read the spec, ask the host
 * (plan_host_gather) and plan, N times (default 50) in this process. The first time is what
 * each `crib run` pays, its memory and caches cold; the median of the others is the same code
 * warm, so the difference is the cost of touching memory for the first time, not of the work.
 * Page faults (getrusage) are counted for each.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "host/kernel.h"
#include "plan/plan.h"
#include "seccomp/seccomp.h"
#include "spec/spec.h"
#include "specfile.h"
#include "base/trace.h"
#include "output.h"

int cmd_bench(int argc, char **argv);

#define MAX_ENVS 5

struct bench {
        const char *rootfs;
        char busybox[4096];
        char tmp[64];
        double target; /* seconds a dd run should last */
        int runs;
        struct seccomp_program prog; /* the default filter, for the "seccomp" column */
        const char *names[MAX_ENVS]; /* the environments: host, seccomp, then levels */
        int nenv;
        double mbps[3][MAX_ENVS]; /* dd's speed, per block size and environment */
};

/* dd's block sizes */
static const long sizes[] = {1, 4096, 1 << 20};
static const char *const labels[] = {"1", "4k", "1M"};

static int cmp_double(const void *a, const void *b)
{
        double x = *(const double *)a, y = *(const double *)b;
        return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
        qsort(v, (size_t)n, sizeof *v, cmp_double);
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Run argv (stdio to /dev/null); env 0: as is, 1: under the seccomp filter. Returns the wall
 * time in seconds, or -1 when it failed. */
static double run_dd(struct bench *b, char *const argv[], int env)
{
        uint64_t t0 = trace_now_us();
        pid_t pid = fork();
        if (pid == 0) {
                int devnull = open("/dev/null", O_RDWR);
                dup2(devnull, STDIN_FILENO);
                dup2(devnull, STDOUT_FILENO);
                dup2(devnull, STDERR_FILENO);
                if (env == 1) {
                        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
                            seccomp_load_filter(b->prog.insns, b->prog.n, 0) < 0)
                                _exit(126);
                }
                execv(argv[0], argv);
                _exit(127);
        }
        int st;
        if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
                return -1;
        return (double)(trace_now_us() - t0) / 1e6;
}

/* The command of one environment: the host's, or `crib run` of a spec at `level`. */
static double dd_once(struct bench *b, int env, const char *level, long bs, long count)
{
        char bsarg[32], countarg[32];
        snprintf(bsarg, sizeof bsarg, "bs=%ld", bs);
        snprintf(countarg, sizeof countarg, "count=%ld", count);
        if (env < 2) {
                char *argv[] = {"dd", "if=/dev/zero", "of=/dev/null", bsarg, countarg, NULL};
                char *full[] = {b->busybox, argv[0], argv[1], argv[2], argv[3], argv[4], NULL};
                return run_dd(b, full, env);
        }
        char spec[128];
        snprintf(spec, sizeof spec, "%s/%s.ini", b->tmp, level);
        FILE *f = fopen(spec, "we");
        if (!f)
                return -1;
        fprintf(f,
                "[container]\nrootfs = %s\n[security]\nlevel = %s\n[process]\n"
                "args = /bin/busybox dd if=/dev/zero of=/dev/null %s %s\n",
                b->rootfs, level, bsarg, countarg);
        fclose(f);
        char *argv[] = {"/proc/self/exe", "run", spec, NULL};
        return run_dd(b, argv, 2);
}

/* dd's own time: the run's, less that environment's start and exit (a count=0 run). */
static double dd_time(struct bench *b, int env, const char *level, long bs, long count, double base)
{
        double t = dd_once(b, env, level, bs, count);
        if (t < 0)
                return -1;
        t -= base;
        return t > 1e-6 ? t : 1e-6;
}

static double baseline(struct bench *b, int env, const char *level)
{
        double v[5];
        for (int i = 0; i < 5; i++)
                if ((v[i] = dd_once(b, env, level, 1, 0)) < 0)
                        return -1;
        return median(v, 5);
}

static long calibrate(struct bench *b, long bs)
{
        long count = 1024;
        for (;;) {
                double s = dd_time(b, 0, NULL, bs, count, 0);
                if (s < 0)
                        return -1;
                if (s >= b->target / 10 ||
                    count > (long)((1LL << 40) / bs > 0x7fffffff ? 0x7fffffff : (1LL << 40) / bs)) {
                        double c = (double)count * b->target / s;
                        return c < 1 ? 1 : (long)c;
                }
                count *= 10;
        }
}

/* Child: one filter install, the call alone timed; -1 when it failed */
static long clone_from(void *arg)
{
        return syscall(SYS_seccomp, 4 /* SECCOMP_CLONE_FILTER */, 0, (long)*(int *)arg);
}

static long load_program(void *arg)
{
        const struct seccomp_program *prog = arg;
        return seccomp_load_filter(prog->insns, prog->n, 0);
}

/* The microseconds `install` takes in a forked child with no_new_privs (a filter is for good:
 * each measurement needs a process of its own); -1 when it failed */
static double time_in_child(long (*install)(void *), void *arg)
{
        int p[2];
        double t = -1;
        if (pipe(p) < 0)
                return -1;
        pid_t pid = fork();
        if (pid == 0) {
                prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                uint64_t t0 = trace_now_us();
                long r = install(arg);
                double dt = r < 0 ? -1 : (double)(trace_now_us() - t0);
                _exit(write(p[1], &dt, sizeof dt) == sizeof dt ? 0 : 1);
        }
        close(p[1]);
        if (pid < 0 || read(p[0], &t, sizeof t) != sizeof t)
                t = -1;
        close(p[0]);
        if (pid > 0)
                waitpid(pid, NULL, 0);
        return t;
}

/* The clone's cost: a template (runtime/seccomp/seccomp_template.c) holding the program, and
 * n children with no_new_privs that clone its filter, each timing its call. -1 when the
 * kernel has no SECCOMP_CLONE_FILTER, or the template cannot start (why in `why`). */
static double clone_cost(struct bench *b, double *t, int n, char *why, size_t whylen)
{
        if (!seccomp_kernel_has_clone_filter()) {
                snprintf(why, whylen, "this kernel has no SECCOMP_CLONE_FILTER");
                return -1;
        }
        struct seccomp_template tmpl;
        struct error err;
        if (seccomp_template_start(&b->prog, &tmpl, &err) < 0) {
                snprintf(why, whylen, "no template: %.200s: %s", err.msg, strerror(err.errnum));
                return -1;
        }
        for (int i = 0; i < n; i++)
                t[i] = time_in_child(clone_from, &tmpl.pidfd);
        seccomp_template_stop(&tmpl);
        for (int i = 0; i < n; i++)
                if (t[i] < 0) {
                        snprintf(why, whylen, "a clone from the template failed");
                        return -1;
                }
        return median(t, n);
}

static void seccomp_costs(struct bench *b, const struct spec *d, bool csv)
{
        const char *text = profile_builtin_text("default");
        const char *label = "profiles/seccomp/default";
        const char *arch = seccomp_native_arch();
        struct seccomp_program prog;
        struct error err;
        char how[1024];
        double t[15];
        int n = b->runs * 3 > 15 ? 15 : b->runs * 3;
        unsigned kmaj, kmin;
        seccomp_kernel_version(&kmaj, &kmin);

        for (int i = 0; i < n; i++) {
                struct profile p;
                uint64_t t0 = trace_now_us();
                if (profile_builtin("default", &p, &err) < 0 ||
                    seccomp_compile(&p, arch, d->caps, kmaj, kmin, &prog, &err) < 0)
                        return;
                t[i] = (double)(trace_now_us() - t0);
                profile_free(&p);
                seccomp_program_free(&prog);
        }
        double compile = median(t, n);
        for (int i = 0; i < n; i++) {
                uint64_t t0 = trace_now_us();
                if (seccomp_prepare("default", text, label, arch, d->caps, &prog, how, sizeof how,
                                    &err) < 0)
                        return;
                t[i] = (double)(trace_now_us() - t0);
                seccomp_program_free(&prog);
        }
        double builtin = median(t, n);
        for (int i = 0; i < n; i++)
                t[i] = time_in_child(load_program, &b->prog);
        double kernel = median(t, n);
        char why[300] = "";
        double clone = clone_cost(b, t, n, why, sizeof why);
        if (csv) {
                printf("seccomp_compile_us,%.0f\nseccomp_builtin_us,%.0f\n"
                       "seccomp_kernel_load_us,%.0f\n",
                       compile, builtin, kernel);
                if (clone >= 0)
                        printf("seccomp_clone_us,%.1f\n", clone);
                else
                        printf("seccomp_clone,n/a\n");
                return;
        }
        printf("\nseccomp install cost, default profile for %s (%zu instructions), median of %d\n",
               arch, b->prog.n, n);
        printf("  %-46s %9.0f us\n", "compile with libseccomp (a profile of one's own)", compile);
        printf("  %-46s %9.0f us\n", "built-in program (compiled at build time)", builtin);
        printf("  %-46s %9.0f us\n", "kernel load: seccomp(SET_MODE_FILTER)", kernel);
        if (clone >= 0)
                printf("  %-46s %11.1f us\n", "clone from a template (SECCOMP_CLONE_FILTER)",
                       clone);
        else
                printf("  %-46s %12s\n  (%s)\n", "clone from a template (SECCOMP_CLONE_FILTER)",
                       "n/a", why);
}

static double start_time(struct bench *b, int n)
{
        double t[64];
        char spec[128];
        snprintf(spec, sizeof spec, "%s/true.ini", b->tmp);
        FILE *f = fopen(spec, "we");
        if (!f)
                return -1;
        fprintf(f, "[container]\nrootfs = %s\n[process]\nargs = /bin/true\n", b->rootfs);
        fclose(f);
        if (n > 64)
                n = 64;
        for (int i = 0; i < n; i++) {
                uint64_t t0 = trace_now_us();
                pid_t pid = fork();
                if (pid == 0) {
                        int devnull = open("/dev/null", O_RDWR);
                        dup2(devnull, 0);
                        dup2(devnull, 1);
                        dup2(devnull, 2);
                        execl("/proc/self/exe", "crib", "run", spec, (char *)NULL);
                        _exit(127);
                }
                int st;
                waitpid(pid, &st, 0);
                if (!WIFEXITED(st) || WEXITSTATUS(st))
                        return -1;
                t[i] = (double)(trace_now_us() - t0);
        }
        return median(t, n);
}

static long minor_faults(void)
{
        struct rusage ru;
        return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt : 0;
}

/* `crib bench --own SPEC`: crib run's parse, host lookups and plan, `runs` times in this
 * process; the first (cold) and the median of the others (warm), with their page faults. */
static int own_work(const char *path, int runs)
{
        double t[200], part[3][200]; /* the whole run; its spec, host lookups and plan */
        long faults[200];
        struct error err;
        error_clear(&err);
        if (runs < 2)
                runs = 2;
        if (runs > 200)
                runs = 200;
        for (int i = 0; i < runs; i++) {
                long f0 = minor_faults();
                uint64_t t0 = trace_now_us();
                char spec_path[4096]; /* SPEC, or DIR/crib.ini: as crib run opens it */
                FILE *f = specfile_open(path, spec_path, sizeof spec_path, &err);
                if (!f)
                        return output_error(&err);
                struct spec spec;
                int loaded = spec_load(spec_path, f, false, &spec, &err);
                fclose(f);
                if (loaded < 0)
                        return output_error(&err);
                uint64_t t1 = trace_now_us();
                struct plan_host host;
                plan_host_gather(&spec, &host);
                uint64_t t2 = trace_now_us();
                struct plan plan;
                int planned = plan_build(&spec, &host, NULL, &plan, &err);
                spec_free(&spec);
                if (planned < 0)
                        return output_error(&err);
                uint64_t t3 = trace_now_us();
                t[i] = (double)(t3 - t0);
                part[0][i] = (double)(t1 - t0);
                part[1][i] = (double)(t2 - t1);
                part[2][i] = (double)(t3 - t2);
                faults[i] = minor_faults() - f0;
                plan_free(&plan);
        }
        double first = t[0];
        long first_faults = faults[0];
        double warm_faults[200];
        for (int i = 1; i < runs; i++)
                warm_faults[i - 1] = (double)faults[i];
        printf("crib's own work before the clone (spec + host lookups + plan of '%s'), in one "
               "process\n",
               path);
        printf("  %-46s %9.0f us %6ld page faults\n", "first run (what each crib run pays)", first,
               first_faults);
        printf("  %-46s %9.0f us %6.0f page faults\n", "warm: the median of the next runs",
               median(t + 1, runs - 1), median(warm_faults, runs - 1));
        static const char *const parts[] = {"read and check the spec", "host lookups",
                                            "plan (and seccomp program)"};
        printf("  of which                                            first       warm\n");
        for (int k = 0; k < 3; k++)
                printf("    %-44s %9.0f us %7.0f us\n", parts[k], part[k][0],
                       median(part[k] + 1, runs - 1));
        return 0;
}

/* The default level's spec and its seccomp program (into b->prog): what the seccomp rows and
 * the "seccomp" environment measure. Both are freed on failure. */
static int prepare_default(struct bench *b, struct spec *d, struct error *err)
{
        char how[1024];
        if (spec_from_level("default", d, err) < 0)
                return -1;
        if (seccomp_prepare("default", profile_builtin_text("default"), "profiles/seccomp/default",
                            seccomp_native_arch(), d->caps, &b->prog, how, sizeof how, err) < 0) {
                spec_free(d);
                return -1;
        }
        return 0;
}

/* `crib bench --seccomp`: the seccomp install costs alone: no rootfs, no dd, no container */
static int bench_seccomp_only(struct bench *b, bool csv)
{
        struct error err;
        struct spec d;
        if (prepare_default(b, &d, &err) < 0)
                return output_error(&err);
        seccomp_costs(b, &d, csv);
        seccomp_program_free(&b->prog);
        spec_free(&d);
        return 0;
}

/* dd in each environment, each block size: b->mbps */
static int bench_dd(struct bench *b, struct error *err)
{
        double base[MAX_ENVS];
        for (int e = 0; e < b->nenv; e++)
                if ((base[e] = baseline(b, e < 2 ? e : 2, b->names[e])) < 0) {
                        error_set(err, 0, "dd does not run in the '%s' environment", b->names[e]);
                        return -1;
                }
        for (int s = 0; s < 3; s++) {
                long count = calibrate(b, sizes[s]);
                if (count < 0) {
                        error_set(err, 0, "dd from the rootfs's busybox does not run on this host");
                        return -1;
                }
                for (int e = 0; e < b->nenv; e++) {
                        double v[9];
                        for (int r = 0; r < b->runs; r++) {
                                double secs = dd_time(b, e < 2 ? e : 2, b->names[e], sizes[s],
                                                      count, base[e]);
                                if (secs < 0) {
                                        error_set(err, 0, "dd failed in the '%s' environment",
                                                  b->names[e]);
                                        return -1;
                                }
                                v[r] = (double)sizes[s] * (double)count / secs / 1e6;
                        }
                        b->mbps[s][e] = median(v, b->runs);
                }
        }
        return 0;
}

/* b->mbps, as CSV or as a table with each environment's impact against the host */
static void bench_print_dd(const struct bench *b, bool csv)
{
        if (csv) {
                printf("block");
                for (int e = 0; e < b->nenv; e++)
                        printf(",%s_mbps", e < 2 ? b->names[e] : b->names[e]);
                printf("\n");
                for (int s = 0; s < 3; s++) {
                        printf("%s", labels[s]);
                        for (int e = 0; e < b->nenv; e++)
                                printf(",%.2f", b->mbps[s][e]);
                        printf("\n");
                }
                return;
        }
        printf("dd if=/dev/zero of=/dev/null (the rootfs's busybox), median of %d runs of "
               "~%.2f s; each environment's start and exit (a count=0 run) taken off\n",
               b->runs, b->target);
        printf("%-7s %-12s", "block", "host");
        for (int e = 1; e < b->nenv; e++)
                printf(" %-12s %-7s", e == 1 ? "seccomp" : b->names[e], "impact");
        printf("\n");
        for (int s = 0; s < 3; s++) {
                printf("%-7s %7.1f MB/s ", labels[s], b->mbps[s][0]);
                for (int e = 1; e < b->nenv; e++) {
                        double impact = (b->mbps[s][e] / b->mbps[s][0] - 1) * 100;
                        printf(" %7.1f MB/s %+6.0f%%", b->mbps[s][e], impact);
                }
                printf("\n");
        }
}

/* The rootfs's busybox, and a temporary directory in /tmp */
static int bench_prepare(struct bench *b, const char *root, struct error *err)
{
        struct stat st;
        snprintf(b->busybox, sizeof b->busybox, "%s/bin/busybox", root ? root : b->rootfs);
        if (!root || stat(b->busybox, &st) < 0) {
                error_set(err, errno ? errno : ENOENT, "no busybox in rootfs '%s'", b->rootfs);
                return -1;
        }
        b->rootfs = root;
        snprintf(b->tmp, sizeof b->tmp, "/tmp/crib-bench.XXXXXX");
        if (!mkdtemp(b->tmp)) {
                error_set(err, errno, "cannot make a temporary directory");
                return -1;
        }
        return 0;
}

static void bench_remove_tmp(const struct bench *b)
{
        char cmd[128];
        if (!b->tmp[0] || strstr(b->tmp, "XXXXXX")) /* bench_prepare made none */
                return;
        snprintf(cmd, sizeof cmd, "rm -rf %s", b->tmp);
        if (system(cmd) != 0)
                fprintf(stderr, "crib: warning: could not remove %s\n", b->tmp);
}

/* `crib bench --rootfs DIR`: dd everywhere, the start time, the seccomp costs */
static int bench_rootfs(struct bench *b, bool levels, bool csv)
{
        struct error err;
        error_clear(&err);
        if (!b->rootfs) {
                error_set(&err, 0,
                          "'crib bench' needs --rootfs DIR (a busybox rootfs, as "
                          "rootfs-tools/mkrootfs makes)");
                return output_error(&err);
        }
        struct spec d;
        if (prepare_default(b, &d, &err) < 0)
                return output_error(&err);
        _cleanup_free_ char *root = realpath(b->rootfs, NULL);
        int code = 0;
        if (bench_prepare(b, root, &err) < 0) {
                code = output_error(&err);
                goto out;
        }

        b->names[0] = "host", b->names[1] = "seccomp", b->names[2] = "default";
        b->nenv = 3;
        if (levels) {
                b->names[2] = "unconfined";
                b->names[3] = "default";
                b->names[4] = "strict";
                b->nenv = 5;
        }
        if (bench_dd(b, &err) < 0) {
                code = output_error(&err);
                goto out;
        }
        bench_print_dd(b, csv);

        double start = start_time(b, b->target < 1 ? 11 : 31);
        if (start < 0) {
                error_set(&err, 0,
                          "'crib run' of /bin/true in '%s' failed, so there is no start "
                          "time to report",
                          b->rootfs);
                error_hint(&err, "run it by hand to see why: crib run SPEC -- /bin/true");
                code = output_error(&err);
                goto out;
        }
        if (csv)
                printf("start_us,%.0f\n", start);
        else
                printf("\ncontainer start time (crib run of /bin/true, default level): %.0f us "
                       "(median)\n",
                       start);
        seccomp_costs(b, &d, csv);
out:
        bench_remove_tmp(b);
        seccomp_program_free(&b->prog);
        spec_free(&d);
        return code;
}

int cmd_bench(int argc, char **argv)
{
        struct bench b = {.target = 3, .runs = 3};
        bool csv = false, levels = false, seccomp_only = false;
        struct error err;
        error_clear(&err);
        const char *own = NULL;
        int own_runs = 50;
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "--own") && i + 1 < argc)
                        own = argv[++i];
                else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
                        own_runs = atoi(argv[++i]);
                else if (!strcmp(argv[i], "--rootfs") && i + 1 < argc)
                        b.rootfs = argv[++i];
                else if (!strcmp(argv[i], "--quick"))
                        b.target = 0.05;
                else if (!strcmp(argv[i], "--levels"))
                        levels = true;
                else if (!strcmp(argv[i], "--seccomp"))
                        seccomp_only = true;
                else if (!strcmp(argv[i], "--format=csv"))
                        csv = true;
                else if (!strcmp(argv[i], "--format=table"))
                        csv = false;
                else {
                        error_set(&err, 0, "unknown argument '%s' for 'crib bench'", argv[i]);
                        error_hint(&err, "crib bench --rootfs DIR [--quick] [--levels] "
                                         "[--format=table|csv]\n"
                                         "crib bench --seccomp [--format=table|csv]\n"
                                         "crib bench --own SPEC [--runs N]");
                        return output_error(&err);
                }
        }
        if (own)
                return own_work(own, own_runs);
        if (seccomp_only)
                return bench_seccomp_only(&b, csv);
        return bench_rootfs(&b, levels, csv);
}
