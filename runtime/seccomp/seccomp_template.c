/* seccomp_template.c - a process that holds a loaded filter, for containers to clone it from.
 *
 * Kernel feature: seccomp(2) SECCOMP_CLONE_FILTER (op 4, flags 0, the pidfd passed by value),
 * proposed in September 2025 and not in mainline: the caller, which must have no seccomp mode
 * yet and have no_new_privs (or CAP_SYS_ADMIN in its user namespace), takes the filter of the
 * process the pidfd names, by reference, as a child shares its parent's after fork(2). No
 * program is checked, translated or JIT-compiled again: about a microsecond instead of the
 * load's hundreds. crib tests it on a patched 6.1 kernel (tests/vm/kernel/); on any other
 * kernel crib never starts a template and loads the program, as it always did.
 *
 * Where it pays: only where one crib invocation starts several containers with the same
 * compiled program: `crib run --count N`. For one container, a template costs a fork and a load,
 * more than the load it saves.
 *
 * Which template: one crib starts and owns, never a running container or a template another
 * invocation left. The OCI front end (an engine runs `crib create` once per container) would
 * need a template that outlives the invocation, found through a state directory; but a process
 * found that way may be anyone's of the same user, holding any filter, and an unprivileged
 * crib cannot read a filter back to check it (PTRACE_SECCOMP_GET_FILTER needs CAP_SYS_ADMIN in
 * the initial user namespace). So the engines' containers load their program, as before.
 *
 * Why a container never gets a filter weaker than its profile from it:
 *   - the template is crib's own child, started by this invocation with clone(CLONE_PIDFD): the
 *     pidfd names that process and no other, even after it dies (no pid reuse); nothing is read
 *     from a state directory, no running container is cloned from, and no template is shared
 *     between invocations or users;
 *   - from its first instruction it holds the least: PR_SET_PDEATHSIG(SIGKILL) (it dies with
 *     this crib), no descriptor but the one it reports on, no_new_privs, then the filter, then
 *     not dumpable (no process of the user can ptrace(2) it or read its memory); it runs no
 *     foreign code, only pause(2);
 *   - a filter, once loaded, can only be stacked on, never removed: whatever the template did
 *     afterwards could make the clone stricter, never weaker;
 *   - the template reports its load over a pipe before it is used; the setup process compares
 *     the program the template was given (a copy in its memory, inherited with fork semantics)
 *     with its own plan's, instruction by instruction, and clones only when they are equal;
 *   - after the clone, the setup process reads its Seccomp_filters from /proc/self/status: one,
 *     or the container fails (a second filter could only come from the template stacking one);
 *   - any error of the clone (the template died: ESRCH; the kernel has no such operation:
 *     EINVAL) leads to a normal load. The filter is never skipped.
 *
 * What can go wrong: the template is killed (by the user, the OOM killer): each later container
 * costs a load, and the trace says why. crib's own pid = no cleanup (container.c) spares it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "seccomp.h"
#include "base/trace.h"

#ifndef SECCOMP_CLONE_FILTER
#define SECCOMP_CLONE_FILTER 4
#endif

/* The template: a child of crib with its own copy of crib's memory; reports the load's errno
 * (0: loaded) on `report`, then waits for SIGKILL. Never returns. */
static _Noreturn void template_main(const struct sock_filter *insns, size_t n, int report,
                                    pid_t parent)
{
        int e = 0;
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
                e = errno ? errno : ESRCH;
        /* nothing of crib's but the report pipe: close_range(2), or one by one */
        if (!e && report != 3) {
                if (dup2(report, 3) < 0)
                        e = errno;
                report = 3;
        }
        if (syscall(SYS_close_range, 4, ~0U, 0) < 0)
                for (int fd = 4; fd < 1024; fd++)
                        close(fd);
        for (int fd = 0; fd < 3; fd++)
                close(fd);
        if (!e && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                e = errno;
        if (!e && seccomp_load_filter(insns, n, 0) < 0)
                e = errno;
        if (!e && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
                e = errno;
        if (write(report, &e, sizeof e) != sizeof e || e)
                _exit(1);
        close(report);
        for (;;)
                pause();
}

#ifdef CRIB_TEST_HOOKS
/* The allow-all program CRIB_TEST_TEMPLATE=other gives the template, for the test that a
 * template with another filter is refused (the VM guests): in test builds only (the Makefile's
 * CRIB_TEST_HOOKS). The crib that ships cannot be made to start a template with any program but
 * the plan's. */
static const struct sock_filter allow_all[] = {BPF_STMT(BPF_RET | BPF_K, 0x7fff0000U)};
#endif

/* Parent: crib run, before the batch's first container. */
int seccomp_template_start(const struct seccomp_program *prog, struct seccomp_template *ret,
                           struct error *err)
{
        *ret = (struct seccomp_template){.pidfd = -1, .pid = -1};
        const struct sock_filter *insns = prog->insns;
        size_t n = prog->n;
#ifdef CRIB_TEST_HOOKS
        const char *test = getenv("CRIB_TEST_TEMPLATE");
        if (test && !strcmp(test, "other")) {
                insns = allow_all;
                n = 1;
        }
#endif
        struct sock_filter *copy = calloc(n, sizeof *copy);
        if (!copy)
                return error_set(err, errno, "cannot keep the template's program");
        memcpy(copy, insns, n * sizeof *copy);

        _cleanup_close_ int r_end = -1, w_end = -1;
        int p[2];
        if (pipe2(p, O_CLOEXEC) < 0) {
                free(copy);
                return error_set(err, errno, "cannot make a pipe for the seccomp template");
        }
        r_end = p[0];
        w_end = p[1];
        int pidfd = -1;
        pid_t parent = getpid();
        struct clone_args ca = {
                .flags = CLONE_PIDFD, .pidfd = (uint64_t)(uintptr_t)&pidfd, .exit_signal = SIGCHLD};
        pid_t pid = (pid_t)syscall(SYS_clone3, &ca, sizeof ca);
        if (pid == 0)
                template_main(copy, n, w_end, parent);
        if (pid < 0) {
                free(copy);
                return error_set(err, errno, "cannot start the seccomp template (clone3)");
        }
        close(take_fd(&w_end));
        int e = 0;
        ssize_t got;
        while ((got = read(r_end, &e, sizeof e)) < 0 && errno == EINTR)
                ;
        *ret = (struct seccomp_template){.pidfd = pidfd, .pid = pid, .insns = copy, .n = n};
        if (got != sizeof e || e) {
                seccomp_template_stop(ret);
                return error_set(err, got == sizeof e ? e : ESRCH,
                                 "the seccomp template could not load the filter");
        }
        return 0;
}

/* Parent: after the batch's last container (the template would die with us anyway). */
void seccomp_template_stop(struct seccomp_template *t)
{
        if (t->pid > 0) {
                syscall(SYS_pidfd_send_signal, t->pidfd, SIGKILL, NULL, 0);
                while (waitpid(t->pid, NULL, 0) < 0 && errno == EINTR)
                        ;
        }
        if (t->pidfd >= 0)
                close(t->pidfd);
        free(t->insns);
        *t = (struct seccomp_template){.pidfd = -1, .pid = -1};
}

/* Child: Seccomp_filters from /proc/self/status, or -1 */
static int filters_count(void)
{
        _cleanup_fclose_ FILE *f = fopen("/proc/self/status", "re");
        char line[256];
        while (f && fgets(line, sizeof line, f))
                if (!strncmp(line, "Seccomp_filters:", 16))
                        return atoi(line + 16);
        return -1;
}

/* Child: the setup process, after no_new_privs, in its namespaces and pivoted root. */
int seccomp_template_clone(const struct seccomp_template *t, const struct seccomp_program *prog,
                           int *ret_count, uint64_t *ret_us, char *why, size_t whylen,
                           struct error *err)
{
        *ret_count = -1;
        *ret_us = 0;
        if (t->n != prog->n || memcmp(t->insns, prog->insns, prog->n * sizeof *prog->insns)) {
                snprintf(why, whylen,
                         "template pid %d holds another filter (%zu instructions, the plan's %zu, "
                         "not the same)",
                         (int)t->pid, t->n, prog->n);
                return 0;
        }
        uint64_t t0 = trace_now_us();
        long r = syscall(SYS_seccomp, SECCOMP_CLONE_FILTER, 0, (long)t->pidfd);
        *ret_us = trace_now_us() - t0;
        if (r < 0) {
                snprintf(why, whylen, "seccomp(SECCOMP_CLONE_FILTER, 0, pidfd of %d): %s",
                         (int)t->pid, strerror(errno));
                return 0;
        }
        /* -1: no /proc in this container to read it from; the checks above hold all the same */
        *ret_count = filters_count();
        if (*ret_count > 1)
                return error_set(err, 0,
                                 "the filter cloned from the seccomp template is not one filter "
                                 "(Seccomp_filters: %d)",
                                 *ret_count);
        return 1;
}
