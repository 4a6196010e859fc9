/* test_state.c - runtime/state/state.c on a real directory: the root's checks, names, create
 * (one of two wins), locks, atomic writes that never follow a planted symlink, removal, and a
 * process's start time. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "state/state.h"

int main(void)
{
        struct error err;
        char path[256], buf[256];
        char tmpl[] = "/tmp/crib-state-test.XXXXXX";
        const char *top = mkdtemp(tmpl);
        ok(top != NULL, "a scratch directory");

        ok(state_root_path(NULL, 1000, "/run/user/1000", path, sizeof path, &err) == 0 &&
                   !strcmp(path, "/run/user/1000/crib"),
           "a user's root: XDG_RUNTIME_DIR/crib");
        ok(state_root_path(NULL, 0, "/run/user/0", path, sizeof path, &err) == 0 &&
                   !strcmp(path, "/run/crib"),
           "root's: /run/crib");
        ok(state_root_path("/srv/x", 1000, NULL, path, sizeof path, &err) == 0 &&
                   !strcmp(path, "/srv/x"),
           "--root wins");
        ok(state_root_path(NULL, 1000, NULL, path, sizeof path, &err) < 0 &&
                   strstr(err.msg, "XDG_RUNTIME_DIR is not set") && strstr(err.hint, "--root"),
           "no XDG_RUNTIME_DIR: an error that names the way out");

        snprintf(path, sizeof path, "%s/root", top);
        int root = state_open_root(path, geteuid(), &err);
        struct stat st;
        ok(root >= 0 && fstat(root, &st) == 0 && (st.st_mode & 0777) == 0700,
           "the root is made 0700 and opened");
        chmod(path, 0777);
        ok(state_open_root(path, geteuid(), &err) < 0 && strstr(err.msg, "not yours alone"),
           "a root others may write is refused: %s", err.msg);
        chmod(path, 0700);
        ok(state_open_root(path, geteuid() + 1, &err) < 0, "so is one another user owns");
        snprintf(buf, sizeof buf, "%s/link", top);
        ok(symlink(path, buf) == 0 && state_open_root(buf, geteuid(), &err) < 0,
           "and a root that is a symlink");

        ok(state_name_valid("web-1") && state_name_valid("a.b_c") && state_name_valid("9"),
           "names: letters, digits, '_', '.', '-'");
        ok(!state_name_valid("") && !state_name_valid("..") && !state_name_valid(".x") &&
                   !state_name_valid("a/b") && !state_name_valid("-x") &&
                   !state_name_valid(
                           "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
           "not empty, '..', a dot first, a '/', a '-' first or 65 long");

        int a = state_create(root, "web", &err);
        ok(a >= 0, "create 'web'");
        ok(state_create(root, "web", &err) < 0 && err.errnum == EEXIST &&
                   strstr(err.msg, "the name 'web' is taken"),
           "a second create of 'web' says the name is taken");
        ok(state_create(root, "../x", &err) < 0 && err.errnum == EINVAL, "'../x' is refused");

        /* two processes at once: exactly one wins */
        int wins = 0;
        for (int round = 0; round < 20; round++) {
                char name[32];
                snprintf(name, sizeof name, "race%d", round);
                pid_t kids[2];
                for (int k = 0; k < 2; k++)
                        if ((kids[k] = fork()) == 0) {
                                struct error e2;
                                _exit(state_create(root, name, &e2) >= 0 ? 0 : 1);
                        }
                int won = 0;
                for (int k = 0; k < 2; k++) {
                        int status;
                        waitpid(kids[k], &status, 0);
                        won += WIFEXITED(status) && WEXITSTATUS(status) == 0;
                }
                wins += won == 1;
                state_remove(root, name, &err);
        }
        ok(wins == 20, "two creates of one name at once: exactly one wins, 20 times of 20");

        /* a new directory appears locked by its maker, through its name never unlocked */
        int made = state_create(root, "made", &err);
        int other = state_open(root, "made", &err);
        ok(made >= 0 && other >= 0 && state_lock(other, false, &err) < 0,
           "a new directory is locked by its maker when it appears");
        close(made);
        close(other);
        state_remove(root, "made", &err);
        /* what a crib killed between its mkdir and its rename leaves: removed once nobody
         * holds it */
        pid_t dead = fork();
        if (dead == 0)
                _exit(0);
        waitpid(dead, NULL, 0);
        char gone[64], busy_name[64], unlocked[64];
        snprintf(gone, sizeof gone, ".new-gone-%d", (int)dead);
        snprintf(busy_name, sizeof busy_name, ".new-busy-%d", (int)dead);
        /* a maker between its mkdir and its flock: alive, lock still free */
        snprintf(unlocked, sizeof unlocked, ".new-unlocked-%d", (int)getpid());
        mkdirat(root, gone, 0700);
        mkdirat(root, busy_name, 0700);
        mkdirat(root, unlocked, 0700);
        int busy = openat(root, busy_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        flock(busy, LOCK_EX);
        close(state_create(root, "after", &err));
        ok(faccessat(root, gone, F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
                   faccessat(root, busy_name, F_OK, AT_SYMLINK_NOFOLLOW) == 0,
           "a stale '.new-' directory is removed, one being made is not");
        ok(faccessat(root, unlocked, F_OK, AT_SYMLINK_NOFOLLOW) == 0,
           "nor one whose maker lives but has not locked it yet (the race of two creates)");
        close(busy);
        unlinkat(root, busy_name, AT_REMOVEDIR);
        unlinkat(root, unlocked, AT_REMOVEDIR);
        state_remove(root, "after", &err);
        /* two creates of one name at once, many times: exactly one wins and the other is told
         * the name is taken, never something else (each also sweeps the other's `.new-`) */
        int rounds_bad = 0;
        for (int round = 0; round < 200 && !rounds_bad; round++) {
                int go[2];
                if (pipe(go) < 0)
                        break;
                pid_t kid[2];
                for (int k = 0; k < 2; k++) {
                        kid[k] = fork();
                        if (kid[k] == 0) {
                                char c;
                                close(go[1]);
                                if (read(go[0], &c, 1) < 0)
                                        _exit(3);
                                struct error e = {0};
                                int fd = state_create(root, "race", &e);
                                if (fd >= 0)
                                        _exit(0);
                                _exit(e.errnum == EEXIST && strstr(e.msg, "is taken") ? 1 : 2);
                        }
                }
                close(go[0]);
                close(go[1]); /* both read EOF at once */
                int ws[2];
                waitpid(kid[0], &ws[0], 0);
                waitpid(kid[1], &ws[1], 0);
                int a0 = WEXITSTATUS(ws[0]), a1 = WEXITSTATUS(ws[1]);
                if (a0 + a1 != 1 || (a0 != 0 && a1 != 0))
                        rounds_bad = round + 1;
                state_remove(root, "race", &err);
        }
        ok(!rounds_bad,
           "200 rounds of two creates of one name: one wins, one is told it is "
           "taken (first bad round: %d)",
           rounds_bad);
        DIR *listing = fdopendir(openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        int leftovers = 0;
        for (struct dirent *de; listing && (de = readdir(listing));)
                leftovers += !strncmp(de->d_name, ".new-", 5);
        ok(listing && leftovers == 0, "no '.new-' directory left by the creates above (%d)",
           leftovers);
        if (listing)
                closedir(listing);

        ok(state_lock(a, false, &err) == 0, "lock 'web'");
        int b = state_open(root, "web", &err);
        ok(b >= 0 && state_lock(b, false, &err) < 0 && err.errnum == EWOULDBLOCK,
           "a second descriptor cannot take the lock: %s", err.msg);
        close(a);
        ok(state_lock(b, false, &err) == 0, "closing the first releases it");

        ok(state_write(b, "pid", "42\n", 3, &err) == 0, "write a file");
        ok(state_read(b, "pid", buf, sizeof buf, &err) == 3 && !strcmp(buf, "42\n"),
           "read it back");
        ok(state_write(b, "pid", "43\n", 3, &err) == 0 &&
                   state_read(b, "pid", buf, sizeof buf, &err) == 3 && !strcmp(buf, "43\n"),
           "a rewrite replaces it");
        snprintf(buf, sizeof buf, "%s/root/web", top);
        int tmpfiles = 0;
        char cmd[512];
        snprintf(cmd, sizeof cmd, "ls -A %s | grep -c tmp", buf);
        FILE *ls = popen(cmd, "r");
        if (ls && fscanf(ls, "%d", &tmpfiles) != 1)
                tmpfiles = -1;
        if (ls)
                pclose(ls);
        ok(tmpfiles == 0, "no temporary file is left");

        /* a symlink planted where a state file goes is replaced, never written through */
        snprintf(path, sizeof path, "%s/victim", top);
        int v = open(path, O_CREAT | O_WRONLY, 0600);
        close(v);
        ok(symlinkat(path, b, "status") == 0, "plant a symlink where 'status' goes");
        ok(state_read(b, "status", buf, sizeof buf, &err) < 0 && err.errnum == ELOOP,
           "reading a planted symlink fails (ELOOP)");
        ok(state_write(b, "status", "x", 1, &err) == 0, "writing over it replaces the link");
        struct stat vs;
        ok(stat(path, &vs) == 0 && vs.st_size == 0, "and the file it pointed to is unchanged");
        ok(state_write(b, "../x", "x", 1, &err) < 0 && state_write(b, ".hidden", "x", 1, &err) < 0,
           "file names with a '/' or a dot first are refused");

        ok(state_name_generate(root, 7, buf, sizeof buf, &err) == 0 && state_name_valid(buf) &&
                   strchr(buf, '_'),
           "a generated name: %s", buf);
        char first[sizeof buf];
        snprintf(first, sizeof first, "%s", buf);
        close(state_create(root, first, &err));
        ok(state_name_generate(root, 7, buf, sizeof buf, &err) == 0 && strcmp(buf, first),
           "the same seed gives another name once the first is taken (%s)", buf);

        close(b);
        ok(state_remove(root, "web", &err) == 0, "remove 'web'");
        ok(state_open(root, "web", &err) < 0 && err.errnum == ENOENT &&
                   strstr(err.msg, "no container named 'web'"),
           "it is gone");

        uint64_t me = state_proc_start(getpid());
        ok(me > 0 && state_proc_start(getpid()) == me, "this process's start time: %llu",
           (unsigned long long)me);
        pid_t k = fork();
        if (k == 0)
                _exit(0);
        waitpid(k, NULL, 0);
        ok(state_proc_start(k) == 0, "a process that is gone: 0");

        close(root);
        snprintf(cmd, sizeof cmd, "rm -rf %s", top);
        ok(system(cmd) == 0, "clean up");
        return tap_done();
}
