/* test_seccomp_actions - profiles with every action compile (runtime/seccomp/seccomp_compile.c)
 * into programs that answer what the profile says, run by bpf_run: a deny-list (default allow
 * or log) with no ENOSYS guard in front, an allow-list (default errno, kill, trap) with one. */
#define _GNU_SOURCE
#include <linux/audit.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "host/kernel.h"
#include "seccomp/bpf.h"
#include "seccomp/seccomp.h"
#include "../lib/tap.h"

/* a number above every one these profiles name, on each architecture crib builds for */
#define ABOVE 1000

static int compile(const char *text, struct seccomp_program *prog, struct error *err)
{
        struct profile p;
        unsigned kmaj, kmin;
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        if (!f)
                return error_set(err, errno, "fmemopen");
        int r = profile_parse(f, "t.profile", &p, err);
        fclose(f);
        if (r < 0)
                return -1;
        seccomp_kernel_version(&kmaj, &kmin);
        r = seccomp_compile(&p, seccomp_native_arch(), 0, kmaj, kmin, prog, err);
        profile_free(&p);
        return r;
}

/* what the program answers for system call `nr` of the native architecture, arguments 0 */
static uint32_t answer(const struct seccomp_program *prog, long nr)
{
        struct seccomp_data d = {.nr = (int)nr, .arch = seccomp_arch_token(seccomp_native_arch())};
        return bpf_run(prog->insns, prog->n, &d);
}

static void deny_list(void)
{
        struct seccomp_program prog;
        struct error err;
        int r = compile("default allow\n[errno EACCES]\nmkdirat\n[kill]\nuname\n"
                        "[kill-thread]\ngetppid\n[trap]\ngetuid\n[log]\ngetgid\n",
                        &prog, &err);
        ok(r == 0, "a deny-list with every action compiles%s%s", r ? ": " : "", r ? err.msg : "");
        if (r)
                return;
        ok(answer(&prog, __NR_getpid) == SECCOMP_RET_ALLOW, "getpid, named by no rule: ALLOW");
        ok(answer(&prog, __NR_mkdirat) == (SECCOMP_RET_ERRNO | EACCES), "mkdirat: ERRNO(EACCES)");
        ok(answer(&prog, __NR_uname) == SECCOMP_RET_KILL_PROCESS, "uname: KILL_PROCESS");
        ok(answer(&prog, __NR_getppid) == SECCOMP_RET_KILL_THREAD, "getppid: KILL_THREAD");
        ok(answer(&prog, __NR_getuid) == SECCOMP_RET_TRAP, "getuid: TRAP");
        ok(answer(&prog, __NR_getgid) == SECCOMP_RET_LOG, "getgid: LOG");
        ok(answer(&prog, ABOVE) == SECCOMP_RET_ALLOW &&
                   answer(&prog, 0x3fffffff) == SECCOMP_RET_ALLOW,
           "a number above every named one: ALLOW, no ENOSYS guard in front");
#if defined(__x86_64__)
        /* its rules name x86_64's calls: the 32-bit ABI's (setuid32 of int 0x80) would pass it,
         * so a call of that ABI is killed, as under runc with architectures [x86_64] */
        struct seccomp_data i386 = {.nr = 213 /* setuid32 */, .arch = AUDIT_ARCH_I386};
        ok((bpf_run(prog.insns, prog.n, &i386) & SECCOMP_RET_ACTION_FULL) ==
                   SECCOMP_RET_KILL_THREAD,
           "an i386 call (setuid32) under a deny-list: killed, not let through unnamed");
#endif
        seccomp_program_free(&prog);

        r = compile("default log\n[errno EPERM]\nmkdirat\n", &prog, &err);
        ok(r == 0 && answer(&prog, __NR_getpid) == SECCOMP_RET_LOG &&
                   answer(&prog, ABOVE) == SECCOMP_RET_LOG &&
                   answer(&prog, __NR_mkdirat) == (SECCOMP_RET_ERRNO | EPERM),
           "default log: LOG for the rest, above the named ones too (no guard)");
        if (r == 0)
                seccomp_program_free(&prog);

        r = compile("default allow\n", &prog, &err);
        ok(r == 0 && prog.n > 0 && answer(&prog, __NR_getpid) == SECCOMP_RET_ALLOW &&
                   answer(&prog, ABOVE) == SECCOMP_RET_ALLOW,
           "default allow and no rule: a program that allows all%s%s", r ? ": " : "",
           r ? err.msg : "");
        if (r == 0)
                seccomp_program_free(&prog);

        r = compile("default allow\n[allow]\ngetpid\n[errno EPERM]\nmkdirat\n", &prog, &err);
        ok(r == 0 && answer(&prog, __NR_getpid) == SECCOMP_RET_ALLOW &&
                   answer(&prog, __NR_mkdirat) == (SECCOMP_RET_ERRNO | EPERM),
           "a rule of the default's action is passed over, not refused%s%s", r ? ": " : "",
           r ? err.msg : "");
        if (r == 0)
                seccomp_program_free(&prog);
}

static void allow_list(void)
{
        struct seccomp_program prog;
        struct error err;
        static const struct {
                const char *dflt;
                uint32_t ret;
        } d[] = {
                {"errno EPERM", SECCOMP_RET_ERRNO | EPERM},
                {"kill", SECCOMP_RET_KILL_PROCESS},
                {"kill-thread", SECCOMP_RET_KILL_THREAD},
                {"trap", SECCOMP_RET_TRAP},
        };
        for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
                char text[128];
                snprintf(text, sizeof text, "default %s\n[allow]\ngetpid mkdirat\n", d[i].dflt);
                int r = compile(text, &prog, &err);
                ok(r == 0, "default %s compiles%s%s", d[i].dflt, r ? ": " : "", r ? err.msg : "");
                if (r)
                        continue;
                ok(answer(&prog, __NR_getpid) == SECCOMP_RET_ALLOW, "default %s: getpid ALLOW",
                   d[i].dflt);
                ok(answer(&prog, __NR_uname) == d[i].ret, "default %s: uname gets the default",
                   d[i].dflt);
                ok(answer(&prog, ABOVE) == (SECCOMP_RET_ERRNO | ENOSYS),
                   "default %s: a number above the named ones: ENOSYS, the guard", d[i].dflt);
                seccomp_program_free(&prog);
        }
}

int main(void)
{
        deny_list();
        allow_list();
        return tap_done();
}
