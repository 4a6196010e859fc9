/* test_sweep.c - runtime/launch/sweep.c on real processes: the mark is a user namespace right
 * below ours and never our own (nor our own mount namespace), taken alike from a process in it
 * or in one nested below it; the sweep kills every process in it or below it, and nothing
 * else. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "launch/sweep.h"

static bool put(const char *path, const char *text)
{
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        bool done = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
        if (fd >= 0)
                close(fd);
        return done;
}

/* A child that makes `depth` user namespaces, one below the other, says so on `ready` and
 * sleeps; depth 0: none, it stays in ours. Its pid, or -1. */
static pid_t sleeper(int depth)
{
        int p[2];
        if (pipe(p) < 0)
                return -1;
        pid_t pid = fork();
        if (pid == 0) {
                close(p[0]);
                char ok = 'y';
                for (int i = 0; i < depth; i++) {
                        /* mapped to itself, or the next one down cannot be made */
                        char map[64];
                        uid_t u = geteuid();
                        gid_t g = getegid();
                        if (unshare(CLONE_NEWUSER) < 0)
                                ok = 'n';
                        snprintf(map, sizeof map, "0 %u 1", (unsigned)u);
                        if (!put("/proc/self/uid_map", map) || !put("/proc/self/setgroups", "deny"))
                                ok = 'n';
                        snprintf(map, sizeof map, "0 %u 1", (unsigned)g);
                        if (!put("/proc/self/gid_map", map))
                                ok = 'n';
                }
                if (write(p[1], &ok, 1) != 1)
                        _exit(1);
                for (;;)
                        pause();
        }
        close(p[1]);
        char c = 0;
        if (pid < 0 || read(p[0], &c, 1) != 1 || c != 'y') {
                if (pid > 0) {
                        kill(pid, SIGKILL);
                        waitpid(pid, NULL, 0);
                }
                pid = -1;
        }
        close(p[0]);
        return pid;
}

/* whether `pid` ended by SIGKILL (reaped), within a second */
static bool killed(pid_t pid)
{
        int st;
        for (int i = 0; i < 100; i++) {
                pid_t r = waitpid(pid, &st, WNOHANG);
                if (r == pid)
                        return WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
                usleep(10000);
        }
        return false;
}

int main(void)
{
        struct sweep_mark m;
        errno = 0;
        ok(sweep_mark(getpid(), 0, CLONE_NEWUSER, &m) < 0 && errno == EPERM && !m.set,
           "our own user namespace is never a mark (EPERM): %s", strerror(errno));
        errno = 0;
        ok(sweep_mark(getpid(), 0, CLONE_NEWNS, &m) < 0 && errno == EPERM && !m.set,
           "nor our own mount namespace (EPERM): %s", strerror(errno));
        errno = 0;
        ok(sweep_mark(getpid(), 0, 0, &m) < 0 && errno == ENOENT && !m.set,
           "no namespace of the container's own: no mark (ENOENT)");
        bool more = true;
        ok(sweep_kill(&m, &more) == 0 && !more, "and without a mark, the sweep kills nothing");

        pid_t outside = sleeper(0), one = sleeper(1), two = sleeper(2);
        if (outside < 0 || one < 0 || two < 0) {
                printf("# unshare(CLONE_NEWUSER) is refused here (%s): no user namespaces to "
                       "sweep\n",
                       strerror(errno));
                for (int i = 0; i < 5; i++)
                        printf("ok %d # SKIP no user namespaces here\n", ++tap_n);
        } else {
                struct sweep_mark a, b;
                ok(sweep_mark(0, outside, CLONE_NEWUSER, &a) < 0 && errno == EPERM,
                   "a process in our own user namespace gives no mark, setup or workload");
                ok(sweep_mark(one, 0, CLONE_NEWUSER, &a) == 0 && a.set && a.user,
                   "a process in a user namespace below ours gives its mark");
                /* `two` made its own, then one below it: not `one`'s, a sibling's */
                ok(sweep_mark(0, two, CLONE_NEWUSER, &b) == 0 && b.set &&
                           (b.dev != a.dev || b.ino != a.ino),
                   "a process two below ours: the mark is the one right below ours, its own "
                   "parent, not another's");
                more = true;
                size_t n = sweep_kill(&a, &more);
                ok(n == 1 && !more && killed(one), "the sweep kills the one in it (%zu killed)", n);
                ok(kill(outside, 0) == 0 && kill(two, 0) == 0,
                   "and not ours, nor one in another namespace below ours");
                n = sweep_kill(&b, &more);
                ok(n == 1 && killed(two), "the other's sweep reaches two below ours (%zu)", n);
        }
        /* whatever a failed check left running */
        pid_t all[] = {outside, one, two};
        for (size_t i = 0; i < 3; i++)
                if (all[i] > 0 && kill(all[i], SIGKILL) == 0)
                        waitpid(all[i], NULL, 0);
        return tap_done();
}
