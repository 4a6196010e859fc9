/* exec.c - start the workload: look the program up on the container's PATH and execve(2) it,
 * and when that fails, say why in terms a user can act on.
 *
 * Kernel feature: execve(2). ENOENT for a file that exists means its program interpreter
 * (the dynamic loader named in PT_INTERP, or the "#!" line) is missing; ENOEXEC usually means a
 * binary built for another architecture: both are read from the file's header (elf.c). On
 * 32-bit ARM the kernel runs a program built for a newer ARM than the machine (Debian's armhf,
 * ARMv7, on a Raspberry Pi Zero, ARMv6) until its first newer instruction kills it with SIGILL;
 * so crib compares the program's build attributes with the machine's AT_PLATFORM (getauxval(3))
 * first, and refuses such a program with the reason.
 *
 * The program's path is the container's (an image's entrypoint), and execve(2) follows a link
 * of /proc such as /proc/self/fd/N to whatever that descriptor is. No descriptor of the host is
 * open by now (fds.c: the first layer); as a second, the path is resolved first with openat2(2)
 * RESOLVE_NO_MAGICLINKS (Linux 5.6), and a program reached only through such a link is
 * refused. The root and working directory are the container's already, so '..' and absolute
 * symlinks stay inside it as they do for execve.
 *
 * Where it sits: last. The socket to the parent is close-on-exec, so the parent reads EOF
 * exactly when execve succeeded; on failure this process sends the error and exits 127 (not
 * found) or 126 (cannot execute), as shells do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif

#include "step.h"
#include "base/cleanup.h"
#include "base/elf.h"

const char *container_path(const struct plan *p)
{
        for (char **e = p->envp; *e; e++)
                if (!strncmp(*e, "PATH=", 5))
                        return *e + 5;
        return PLAN_DEFAULT_PATH;
}

/* 32-bit ARM: the architecture of the program at `path` when it is newer than the machine's
 * (its Tag_CPU_arch), else -1 */
static int arm_too_new(const char *path)
{
#if defined(__arm__)
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
        int tag = fd < 0 ? -1 : elf_arm_cpu_arch(fd);
        int machine = elf_arm_platform_arch((const char *)getauxval(AT_PLATFORM));
        return elf_arm_runs_on(tag, machine) ? -1 : tag;
#else
        (void)path;
        return -1;
#endif
}

/* The program at `path` is reached only through a link of /proc (a magic link): openat2(2)
 * refuses the path with RESOLVE_NO_MAGICLINKS (ELOOP) and finds it without. Never true before
 * Linux 5.6. */
bool exec_through_magic_link(const char *path)
{
#if defined(SYS_openat2) && defined(RESOLVE_NO_MAGICLINKS)
        struct open_how how = {.flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_MAGICLINKS};
        int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
        if (fd >= 0 || errno != ELOOP) {
                if (fd >= 0)
                        close(fd);
                return false;
        }
        /* ELOOP for a loop of symlinks too: only a path that resolves without the flag */
        fd = open(path, O_PATH | O_CLOEXEC);
        if (fd < 0)
                return false;
        close(fd);
        return true;
#else
        (void)path;
        return false;
#endif
}

static int explain(struct child *c, const char *path, int e, struct error *err)
{
        if (e == EXDEV) { /* try_exec: exec_through_magic_link; the file is not opened */
                error_set(err, 0,
                          "cannot execute '%s': its path leads through a link of /proc, which "
                          "could lead out of the container",
                          path);
                return error_hint(err, "name the program by its path inside the container");
        }
        struct elf_info info = {0};
        struct utsname u;
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0)
                elf_inspect(fd, &info);
        if (uname(&u) < 0)
                strcpy(u.machine, "this one");
        bool foreign = info.is_elf && info.machine != elf_native_machine();

        if (e == ENOENT && fd >= 0) {
                if (foreign)
                        goto foreign;
                error_set(err, e, "cannot execute '%s': its %s '%s' is missing from the container",
                          path, info.is_script ? "interpreter" : "program interpreter",
                          info.interp[0] ? info.interp : "?");
                return error_hint(err, "copy the libraries and loader the program needs into the "
                                       "rootfs, or use a statically linked build");
        }
        int tag = e == ENOEXEC && !foreign ? arm_too_new(path) : -1;
        if (tag >= 0) {
                const char *platform = (const char *)getauxval(AT_PLATFORM);
                int machine = elf_arm_platform_arch(platform);
                error_set(err, e,
                          "cannot execute '%s': it is built for %s; this machine is %s (%s)", path,
                          elf_arm_arch_name(tag), elf_arm_arch_name(machine), u.machine);
                return error_hint(err,
                                  "use a rootfs built for %s or older: Raspberry Pi OS's "
                                  "(its armhf is ARMv6), or Debian's armel",
                                  elf_arm_arch_name(machine));
        }
        if (e == ENOEXEC || (e == ENOENT && foreign)) {
                if (foreign)
                        goto foreign;
                return error_set(err, e,
                                 "cannot execute '%s': it is neither a program for this machine "
                                 "nor a script with a '#!' line",
                                 path);
        }
        if (e == EACCES) {
                error_set(err, e, "cannot execute '%s'", path);
                return error_hint(err,
                                  "the file needs execute permission for uid %u, and its "
                                  "filesystem must not be mounted noexec",
                                  (unsigned)c->plan->uid);
        }
        return error_set(err, e, "cannot execute '%s'", path);
foreign:
        error_set(err, ENOEXEC, "cannot execute '%s': it is a %s binary, and this machine is %s",
                  path, elf_machine_name(info.machine, info.bits), u.machine);
        return error_hint(err,
                          "use a rootfs built for %s, or install qemu-user-static and "
                          "binfmt-support to emulate %s programs",
                          u.machine, elf_machine_name(info.machine, info.bits));
}

static int try_exec(struct child *c, const char *path)
{
        const struct plan *p = c->plan;
        size_t argc = 0, envc = 0;
        while (p->argv[argc])
                argc++;
        while (p->envp[envc])
                envc++;
        if (exec_through_magic_link(path)) {
                trace_line(&c->trace, "  '%s' leads through a link of /proc: not run", path);
                return EXDEV;
        }
        if (arm_too_new(path) >= 0) {
                trace_line(&c->trace, "  '%s' is built for a newer ARM than this machine: not run",
                           path);
                return ENOEXEC;
        }
        trace_line(&c->trace, "  execve(\"%s\", argv[%zu], envp[%zu])", path, argc, envc);
        execve(path, p->argv, p->envp);
        return errno;
}

/* Child: the workload's process, as the container user; the last step. */
int step_exec(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        const char *prog = p->argv[0];
        sigset_t none;
        struct sync_msg m = {.type = SYNC_EXEC};

        /* the workload starts with no signal blocked (crib blocked the forwarded ones) */
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        /* after crib start, nobody listens: crib start reads EOF when the exec succeeds */
        if (c->chan.fd >= 0 && sync_send(&c->chan, &m, -1, err) < 0)
                return -1;

        if (strchr(prog, '/')) {
                int e = try_exec(c, prog);
                if (e == ENOENT && access(prog, F_OK) < 0) {
                        error_set(err, ENOENT, "'%s' does not exist in the container", prog);
                        return error_kind(err, ERROR_EXEC_NOTFOUND);
                }
                explain(c, prog, e, err);
                return error_kind(err, ERROR_EXEC_FAILED);
        }
        /* search the container's PATH, as execvp(3) would */
        const char *path = container_path(p);
        char cand[PATH_MAX];
        int saved = ENOENT;
        char found[PATH_MAX] = "";
        for (const char *dir = path; dir;) {
                const char *colon = strchr(dir, ':');
                size_t len = colon ? (size_t)(colon - dir) : strlen(dir);
                snprintf(cand, sizeof cand, "%.*s/%s", (int)len, len ? dir : ".", prog);
                dir = colon ? colon + 1 : NULL;
                int e = try_exec(c, cand);
                if (e == ENOENT && access(cand, F_OK) < 0)
                        continue;
                if (e == ENOTDIR)
                        continue;
                /* it exists but does not run: remember the first such and keep looking */
                if (!found[0]) {
                        saved = e;
                        snprintf(found, sizeof found, "%s", cand);
                }
        }
        if (found[0]) {
                explain(c, found, saved, err);
                return error_kind(err, ERROR_EXEC_FAILED);
        }
        error_set(err, ENOENT, "'%s' not found in the container", prog);
        error_hint(err, "crib looked in PATH=%s inside the rootfs '%s'", path, p->rootfs);
        return error_kind(err, ERROR_EXEC_NOTFOUND);
}
