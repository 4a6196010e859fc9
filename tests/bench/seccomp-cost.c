/* seccomp-cost - what installing the default seccomp filter costs, each path measured on its
 * own: compiling the profile with libseccomp, loading the compiled program from crib's cache,
 * and the kernel's seccomp(2) load of the program; SECCOMP_CLONE_FILTER where the kernel has
 * it. Medians of N runs, in microseconds. Used by `make bench`. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../runtime/seccomp.h"
#include "../../runtime/spec.h"
#include "../../runtime/trace.h"

static int cmp(const void *a, const void *b)
{
        uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
        return x < y ? -1 : x > y;
}

static double median(uint64_t *v, int n)
{
        qsort(v, (size_t)n, sizeof *v, cmp);
        return n % 2 ? (double)v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

int main(int argc, char **argv)
{
        int n = argc > 1 ? atoi(argv[1]) : 21;
        struct spec d;
        struct error err;
        struct seccomp_program prog;
        char how[1024];
        uint64_t t[256];
        if (n > 255)
                n = 255;
        if (spec_from_level("default", &d, &err) < 0)
                return fprintf(stderr, "%s\n", err.msg), 1;
        const char *text = profile_builtin_text("default");
        const char *arch = seccomp_native_arch();

        /* compile: a cache directory of our own that we empty each time */
        char dir[] = "/tmp/crib-bench-cache.XXXXXX";
        if (!mkdtemp(dir))
                return perror("mkdtemp"), 1;
        setenv("XDG_CACHE_HOME", dir, 1);
        char cmd[256];
        for (int i = 0; i < n; i++) {
                snprintf(cmd, sizeof cmd, "rm -rf %s/crib", dir);
                if (system(cmd) != 0)
                        return 1;
                if (geteuid() == 0) /* root's cache is fixed: measure the compiler itself */
                        setenv("XDG_CACHE_HOME", dir, 1);
                uint64_t t0 = trace_now_us();
                struct profile p;
                if (profile_builtin("default", &p, &err) < 0 ||
                    seccomp_compile(&p, arch, d.caps, 6, 1, &prog, &err) < 0)
                        return fprintf(stderr, "%s\n", err.msg), 1;
                t[i] = trace_now_us() - t0;
                profile_free(&p);
                if (i < n - 1)
                        seccomp_program_free(&prog);
        }
        double compile = median(t, n);
        size_t ninsns = prog.n;
        seccomp_program_free(&prog);

        /* cached load: prepare once (it stores), then time the loads */
        if (seccomp_prepare(text, "default", arch, d.caps, &prog, how, sizeof how, &err) < 0)
                return fprintf(stderr, "%s\n", err.msg), 1;
        seccomp_program_free(&prog);
        for (int i = 0; i < n; i++) {
                uint64_t t0 = trace_now_us();
                if (seccomp_prepare(text, "default", arch, d.caps, &prog, how, sizeof how, &err) <
                    0)
                        return 1;
                t[i] = trace_now_us() - t0;
                if (!strstr(how, "cached load"))
                        return fprintf(stderr, "not a cached load: %s\n", how), 1;
                if (i < n - 1)
                        seccomp_program_free(&prog);
        }
        double cached = median(t, n);

        /* the kernel's load, in a child each time (a filter cannot be unloaded) */
        int fds[2];
        for (int i = 0; i < n; i++) {
                if (pipe(fds) < 0)
                        return 1;
                pid_t pid = fork();
                if (pid == 0) {
                        struct sock_fprog fp = {.len = (unsigned short)prog.n,
                                                .filter = prog.insns};
                        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                        uint64_t t0 = trace_now_us();
                        long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp);
                        uint64_t dt = trace_now_us() - t0;
                        if (r < 0)
                                dt = ~0ULL;
                        if (write(fds[1], &dt, sizeof dt) != sizeof dt)
                                _exit(1);
                        _exit(0);
                }
                close(fds[1]);
                if (read(fds[0], &t[i], sizeof t[i]) != sizeof t[i] || t[i] == ~0ULL)
                        return fprintf(stderr, "seccomp load failed\n"), 1;
                close(fds[0]);
                waitpid(pid, NULL, 0);
        }
        double kernel = median(t, n);

        /* SECCOMP_CLONE_FILTER: ask the kernel (EINVAL: it has none) */
        pid_t pid = fork();
        if (pid == 0) {
                prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                long r = syscall(SYS_seccomp, 4, 0, -1);
                _exit(r < 0 && errno == EINVAL ? 1 : 0);
        }
        int st;
        waitpid(pid, &st, 0);
        bool clone_ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;

        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
                return 1;
        printf("seccomp install cost, default profile for %s (%zu instructions), median of %d:\n",
               arch, ninsns, n);
        printf("  %-44s %9.0f us\n", "compile with libseccomp (no cache)", compile);
        printf("  %-44s %9.0f us\n", "cached load (read and check the kept program)", cached);
        printf("  %-44s %9.0f us\n", "kernel load: seccomp(SET_MODE_FILTER)", kernel);
        printf("  %-44s %9.0f us\n", "cached path total (cached load + kernel load)",
               cached + kernel);
        printf("  %-44s %12s\n", "clone from a template (SECCOMP_CLONE_FILTER)",
               clone_ok ? "available" : "n/a: kernel");
        seccomp_program_free(&prog);
        spec_free(&d);
        return 0;
}
