/* probe - a small static program that e2e tests run inside containers to read the truth from
 * there: what the kernel says about this process, and what happens when it tries things.
 *
 *   probe fds                  list open fds (not counting the one used to list them)
 *   probe orphans N            leave N orphaned children that exit at once, wait 300 ms, then
 *                              print how many zombies are left in this pid namespace
 *   probe wait-signal FILE     write "ready" to FILE, wait for a signal, print its name and
 *                              exit 42
 *   probe die SIGNUM           kill itself with SIGNUM (default action)
 *   probe exit N               exit with status N
 *   probe zombies              print how many zombies there are in this pid namespace
 *   probe bind PORT            bind a TCP socket to 127.0.0.1:PORT: print "bound" or the errno
 *   probe ids                  print the real and effective uid
 *   probe syscall NAME|NR [ARG...]   make the raw system call; print "ok" or the errno name
 *   probe ptrace-init          try to attach to pid 1 with ptrace; print "ok" or the errno
 *   probe as UID GID CMD...    run CMD as that user (no supplementary groups); the VM guests
 *                              use it where there is no setpriv
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <grp.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmd_fds(void)
{
        DIR *d = opendir("/proc/self/fd");
        struct dirent *e;
        if (!d)
                return perror("opendir /proc/self/fd"), 1;
        int own = dirfd(d);
        int first = 1;
        while ((e = readdir(d))) {
                if (e->d_name[0] == '.' || atoi(e->d_name) == own)
                        continue;
                printf("%s%s", first ? "" : " ", e->d_name);
                first = 0;
        }
        printf("\n");
        closedir(d);
        return 0;
}

static int count_zombies(void)
{
        DIR *d = opendir("/proc");
        struct dirent *e;
        int n = 0;
        if (!d)
                return -1;
        while ((e = readdir(d))) {
                char path[300], buf[512];
                if (e->d_name[0] < '0' || e->d_name[0] > '9')
                        continue;
                snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
                int fd = open(path, O_RDONLY);
                if (fd < 0)
                        continue;
                ssize_t r = read(fd, buf, sizeof buf - 1);
                close(fd);
                if (r <= 0)
                        continue;
                buf[r] = '\0';
                char *p = strrchr(buf, ')');
                if (p && p[1] == ' ' && p[2] == 'Z')
                        n++;
        }
        closedir(d);
        return n;
}

static void sleep_ms(long ms)
{
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
                ;
}

static int cmd_orphans(int n)
{
        pid_t mid = fork();
        if (mid == 0) {
                for (int i = 0; i < n; i++)
                        if (fork() == 0)
                                _exit(0);
                _exit(0); /* the children are now orphans: init must reap them */
        }
        waitpid(mid, NULL, 0);
        sleep_ms(300);
        printf("%d\n", count_zombies());
        return 0;
}

static volatile sig_atomic_t got;
static void on_signal(int sig)
{
        got = sig;
}

static int cmd_wait_signal(const char *file)
{
        static const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH};
        struct sigaction sa = {.sa_handler = on_signal};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
                sigaction(sigs[i], &sa, NULL);
        FILE *f = fopen(file, "w");
        if (!f)
                return perror(file), 1;
        fprintf(f, "ready %d\n", (int)getpid());
        fclose(f);
        while (!got)
                pause();
        printf("got SIG%s\n", sigabbrev_np(got));
        fflush(stdout);
        return 42;
}

static int cmd_bind(int port)
{
        struct sockaddr_in a = {.sin_family = AF_INET,
                                .sin_port = htons((uint16_t)port),
                                .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) < 0) {
                printf("%s\n", strerrorname_np(errno));
                return 1;
        }
        printf("bound\n");
        return 0;
}

static const struct {
        const char *name;
        long nr;
} calls[] = {
        {"keyctl", SYS_keyctl}, {"unshare", SYS_unshare}, {"mount", SYS_mount},
        {"clone3", SYS_clone3}, {"ptrace", SYS_ptrace},   {"personality", SYS_personality},
        {"socket", SYS_socket}, {"getpid", SYS_getpid},   {"reboot", SYS_reboot},
        {"bpf", SYS_bpf},       {"add_key", SYS_add_key}, {"chroot", SYS_chroot},
        {"acct", SYS_acct},     {"swapon", SYS_swapon},   {"kexec_load", SYS_kexec_load},
};

static int cmd_syscall(int argc, char **argv)
{
        long nr = -1, a[6] = {0};
        for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
                if (!strcmp(calls[i].name, argv[0]))
                        nr = calls[i].nr;
        if (nr < 0)
                nr = strtol(argv[0], NULL, 0);
        for (int i = 1; i < argc && i <= 6; i++)
                a[i - 1] = (long)strtoull(argv[i], NULL, 0);
        errno = 0;
        long r = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
        printf("%s\n", r < 0 ? strerrorname_np(errno) : "ok");
        return 0;
}

int main(int argc, char **argv)
{
        if (argc >= 5 && !strcmp(argv[1], "as")) {
                uid_t uid = (uid_t)atoi(argv[2]);
                gid_t gid = (gid_t)atoi(argv[3]);
                if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 ||
                    setresuid(uid, uid, uid) < 0)
                        return perror("probe as"), 125;
                execvp(argv[4], argv + 4);
                return perror(argv[4]), 127;
        }
        if (argc >= 3 && !strcmp(argv[1], "syscall"))
                return cmd_syscall(argc - 2, argv + 2);
        if (argc >= 2 && !strcmp(argv[1], "ptrace-init")) {
                long r = ptrace(PTRACE_ATTACH, 1, 0, 0);
                printf("%s\n", r < 0 ? strerrorname_np(errno) : "ok");
                return 0;
        }
        if (argc >= 3 && !strcmp(argv[1], "bind"))
                return cmd_bind(atoi(argv[2]));
        if (argc >= 2 && !strcmp(argv[1], "ids"))
                return printf("%d %d\n", (int)getuid(), (int)geteuid()), 0;
        if (argc >= 2 && !strcmp(argv[1], "fds"))
                return cmd_fds();
        if (argc >= 3 && !strcmp(argv[1], "orphans"))
                return cmd_orphans(atoi(argv[2]));
        if (argc >= 2 && !strcmp(argv[1], "zombies"))
                return printf("%d\n", count_zombies()), 0;
        if (argc >= 3 && !strcmp(argv[1], "wait-signal"))
                return cmd_wait_signal(argv[2]);
        if (argc >= 3 && !strcmp(argv[1], "die")) {
                int sig = atoi(argv[2]);
                signal(sig, SIG_DFL);
                sigset_t s;
                sigemptyset(&s);
                sigprocmask(SIG_SETMASK, &s, NULL);
                kill(getpid(), sig);
                sleep_ms(1000);
                return 99;
        }
        if (argc >= 3 && !strcmp(argv[1], "exit"))
                return atoi(argv[2]);
        fprintf(stderr, "usage: probe fds | orphans N | zombies | wait-signal FILE | die SIGNUM "
                        "| exit N | bind PORT | ids\n");
        return 2;
}
