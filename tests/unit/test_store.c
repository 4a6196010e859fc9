/* test_store.c - runtime/state/store.c on made-up state directories, and the two syntaxes of
 * runtime/base/syntax.c: a container's state from its records and marks (creating, created,
 * running, paused, stopped; a zombie and a reused pid are not running), signalling the recorded
 * process with and without pidfd_open(2) (ENOSYS, as on Linux < 5.3), opening under the lock a
 * container removed meanwhile, UID[:GID] and clean container paths. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "state/record.h"
#include "seccomp/seccomp.h"
#include "state/state.h"
#include "state/store.h"
#include "base/syntax.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

static char root[256];

static void put(int dir, const char *file, const char *text)
{
        struct error err;
        state_write(dir, file, text, strlen(text), &err);
}

/* a child that waits for a signal; its default action ends it */
static pid_t sleeper(void)
{
        pid_t pid = fork();
        if (pid == 0) {
                pause();
                _exit(0);
        }
        return pid;
}

/* whether `pid` still runs (it is ended and reaped then) */
static bool untouched(pid_t pid)
{
        usleep(20000);
        bool runs = waitpid(pid, NULL, WNOHANG) == 0;
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return runs;
}

/* how `pid` ended: its signal, or 0 when it exited or still runs after 2 s */
static int reaped_by(pid_t pid)
{
        int status;
        for (int i = 0; i < 200; i++) {
                pid_t r = waitpid(pid, &status, WNOHANG);
                if (r == pid)
                        return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
                usleep(10000);
        }
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return 0;
}

static const char *status_of(const char *name)
{
        struct stored c;
        struct error err;
        static char text[sizeof err.msg + 16];
        if (store_open(root, name, &c, &err) < 0)
                return snprintf(text, sizeof text, "error: %s", err.msg), text;
        snprintf(text, sizeof text, "%s", store_status_name(store_status(&c)));
        store_close(&c);
        return text;
}

static void test_status(void)
{
        struct error err;
        char text[256];
        int sroot = state_open_root(root, geteuid(), &err);
        int dir = state_create(sroot, "c1", &err);
        ok(sroot >= 0 && dir >= 0, "a state root and a container's directory");
        struct record r = {.created = 1000};
        snprintf(r.name, sizeof r.name, "c1");
        record_boot_id(r.boot, sizeof r.boot);
        record_write_info(dir, &r, &err);
        is_str(status_of("c1"), "stopped", "info alone (its crib was killed): stopped");
        record_write_monitor(dir, getpid(), &err);
        is_str(status_of("c1"), "creating", "a live monitor, no process yet: creating");

        pid_t child = sleeper();
        record_write_pid(dir, child, 0, &err);
        is_str(status_of("c1"), "running", "its process recorded and alive: running");
        ok(state_fifo_make(dir, STORE_FILE_FIFO, &err) == 0, "the exec fifo made");
        is_str(status_of("c1"), "created", "the exec fifo there: created (waits for start)");
        unlinkat(dir, STORE_FILE_FIFO, 0);
        put(dir, STORE_FILE_PAUSED, "");
        is_str(status_of("c1"), "paused", "the pause mark there: paused");
        unlinkat(dir, STORE_FILE_PAUSED, 0);

        /* ended, not yet reaped by its parent (the engine, or crib's monitor) */
        kill(child, SIGKILL);
        siginfo_t si;
        waitid(P_PID, (id_t)child, &si, WEXITED | WNOWAIT);
        ok(!state_proc_alive(child, state_proc_start(child)) && state_proc_start(child) > 0,
           "a zombie keeps its start time, but is not alive");
        is_str(status_of("c1"), "stopped", "its process a zombie: stopped, not running");
        struct stored c;
        ok(store_open(root, "c1", &c, &err) == 0 && !c.rec.pid_alive &&
                   c.rec.phase == RECORD_RUNNING,
           "while its monitor lives to record the end, the record is not final yet");
        store_close(&c);
        waitpid(child, NULL, 0);

        /* a pid record whose process is another now: never taken for the container's */
        pid_t other = sleeper();
        snprintf(text, sizeof text, "pid=%d\nstart=1\ntime=0\n", (int)other);
        put(dir, "pid", text);
        is_str(status_of("c1"), "stopped", "a live pid with another start time: stopped");
        ok(store_open(root, "c1", &c, &err) == 0 &&
                   store_signal(c.rec.pid, c.rec.pid_start, SIGTERM, &err) == 0,
           "signalling the recorded process: nothing to do");
        store_close(&c);
        ok(untouched(other), "and the process that has its pid now is not signalled");

        ok(store_open(root, "no-such", &c, &err) < 0 && err.errnum == ENOENT && c.dir < 0 &&
                   c.root < 0,
           "no such container: ENOENT, nothing left open");
        ok(store_open(root, "../c1", &c, &err) < 0 && err.errnum == EINVAL,
           "a name that is no container name is refused");
        put(dir, "plan", "not a plan");
        struct plan p;
        ok(store_read_plan(dir, &p, &err) < 0 && strstr(err.msg, "the container's plan") &&
                   strstr(err.hint, "another build of crib"),
           "a plan file crib did not write: refused, saying what to do");
        close(dir);
        close(sroot);
}

static void test_signal(void)
{
        struct error err;
        pid_t child = sleeper();
        ok(store_signal(child, state_proc_start(child), SIGTERM, &err) == 0 &&
                   reaped_by(child) == SIGTERM,
           "the recorded process gets the signal (pidfd_send_signal)");
        ok(store_signal(0, 0, SIGKILL, &err) == 0 && store_signal(getpid(), 0, SIGKILL, &err) == 0,
           "an unrecorded process (pid or start time 0) is never signalled");

        /* pidfd_open(2) fails with ENOSYS, as on Linux < 5.3: kill(2) after the same check */
        pid_t victim = sleeper(), bystander = sleeper();
        uint64_t vstart = state_proc_start(victim);
        /* a start time the bystander's is not (vstart + 1 was it, under load, when a clock tick
         * passed between the two forks) */
        uint64_t bwrong = state_proc_start(bystander) + 1;
        pid_t tester = fork();
        if (tester == 0) {
                struct sock_filter f[] = {
                        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
                        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
                        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                };
                if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
                    seccomp_load_filter(f, sizeof f / sizeof f[0], 0) < 0)
                        _exit(2);
                if (syscall(SYS_pidfd_open, victim, 0) >= 0 || errno != ENOSYS)
                        _exit(3);
                struct error e;
                if (store_signal(bystander, bwrong, SIGTERM, &e) < 0)
                        _exit(4);
                _exit(store_signal(victim, vstart, SIGTERM, &e) < 0 ? 5 : 0);
        }
        int status;
        waitpid(tester, &status, 0);
        ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
           "without pidfd_open (ENOSYS): store_signal succeeds (exit %d)",
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        ok(reaped_by(victim) == SIGTERM, "and the recorded process got the signal by kill(2)");
        ok(untouched(bystander), "and a pid with another start time did not");
}

/* another crib command holds the lock and removes the container meanwhile */
static void test_removed_meanwhile(void)
{
        struct error err;
        int sroot = state_open_root(root, geteuid(), &err);
        int dir = state_create(sroot, "gone", &err);
        close(dir);
        int ready[2];
        if (pipe(ready) < 0)
                return;
        pid_t holder = fork();
        if (holder == 0) {
                int d = state_open(sroot, "gone", &err);
                flock(d, LOCK_EX);
                (void)!write(ready[1], "x", 1);
                usleep(200000);
                state_remove(sroot, "gone", &err);
                _exit(0);
        }
        char x;
        (void)!read(ready[0], &x, 1);
        struct stored c;
        int r = store_open_locked(root, "gone", &c, &err);
        ok(r < 0 && err.errnum == ENOENT && strstr(err.hint, "removed it meanwhile"),
           "opened, then removed while waiting for its lock: ENOENT (%s)", err.msg);
        waitpid(holder, NULL, 0);
        close(ready[0]);
        close(ready[1]);
        close(sroot);
}

static void test_syntax(void)
{
        uint32_t u = 7, g = 7;
        bool has = true;
        ok(syntax_uid_gid("1000", &u, &g, &has) == 0 && u == 1000 && g == 7 && !has,
           "UID alone: no gid, the caller's default kept");
        ok(syntax_uid_gid("0:0", &u, &g, &has) == 0 && u == 0 && g == 0 && has, "0:0");
        ok(syntax_uid_gid("4294967294:1", &u, &g, &has) == 0 && u == 4294967294u && g == 1,
           "the highest id, 4294967294");
        static const char *const bad[] = {
                "",
                "-1",
                "+1",
                " 1",
                "1 ",
                "1:",
                ":1",
                "1:2:3",
                "1a",
                "1:-2",
                "0x10",
                "a:b",
                "1:+",
                "1::",
                "4294967295",
                "1:4294967295",
                "99999999999999999999",
        };
        int refused = 0;
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
                refused += syntax_uid_gid(bad[i], NULL, NULL, NULL) < 0;
        ok(refused == (int)(sizeof bad / sizeof bad[0]),
           "signs, spaces, empty parts, hex, (uid_t)-1 and overflow refused (%d of %zu)", refused,
           sizeof bad / sizeof bad[0]);

        ok(syntax_clean_path("/") && syntax_clean_path("/a/b") && syntax_clean_path("/a/..b") &&
                   syntax_clean_path("/a/b.."),
           "clean absolute paths, '..' inside a name too");
        ok(!syntax_clean_path("a/b") && !syntax_clean_path("") && !syntax_clean_path("/..") &&
                   !syntax_clean_path("/a/../b") && !syntax_clean_path("/a/.."),
           "relative, empty or with a '..' component: refused");
        char *longest = malloc(SYNTAX_PATH_MAX + 1);
        memset(longest, 'a', SYNTAX_PATH_MAX);
        longest[0] = '/';
        longest[SYNTAX_PATH_MAX - 1] = '\0';
        ok(syntax_clean_path(longest), "%d bytes with its NUL: taken", SYNTAX_PATH_MAX);
        longest[SYNTAX_PATH_MAX - 1] = 'a';
        longest[SYNTAX_PATH_MAX] = '\0';
        ok(!syntax_clean_path(longest), "one more: refused (the length cap)");
        free(longest);
}

int main(void)
{
        char tmpl[] = "/tmp/crib-store-test.XXXXXX";
        const char *top = mkdtemp(tmpl);
        snprintf(root, sizeof root, "%s/root", top);
        test_status();
        test_signal();
        test_removed_meanwhile();
        test_syntax();
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
        (void)!system(cmd);
        return tap_done();
}
