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
 *   probe procs N              start up to N children that wait (a bound on processes stops
 *                              them early): print "started K" and, when a fork failed, its
 *                              errno name; then let them go and reap them
 *   probe bind PORT            bind a TCP socket to 127.0.0.1:PORT: print "bound" or the errno
 *   probe ids                  print the real and effective uid
 *   probe hop SECONDS FILE     in the background, a process that forks and exits, again and
 *                              again, so that one is alive at any time and none stays long (an
 *                              escape from a kill that goes by pid): until SECONDS pass, then
 *                              it writes "survived GENERATION" to FILE
 *   probe syscall NAME|NR [ARG...]   make the raw system call; print "ok" or the errno name
 *   probe verdicts             the verdict of the filter we run under for every x86_64 and x32
 *                              system call number (with the argument values Docker's
 *                              conditional rules test), one "NR ARGS ANSWER" line each, without
 *                              running any call: see cmd_verdicts
 *   probe ptrace-init          try to attach to pid 1 with ptrace; print "ok" or the errno
 *   probe as UID GID CMD...    run CMD as that user (no supplementary groups); the VM guests
 *                              use it where there is no setpriv
 *   probe escape [--pid PID] [--path FILE] [--dev MAJ:MIN]
 *                              try every attack of the escape table (tests/e2e/15-escape.t) and
 *                              print one "NAME RESULT" line each: see escape_attacks below
 *   probe early                only the attacks on crib's init the escape table makes first thing
 *                              (ptrace-early, mem-early): the race of issue 11's hole 1
 *   probe tiocsti              push the letter Q into the terminal on fd 0 (TIOCSTI)
 *   probe tty FILE CMD...      on the host: run CMD on a new pty (its controlling terminal and
 *                              fd 0), then write what was typed into it and not read to FILE
 *   probe catch FILE           on the host: append the name of every SIGCONT, SIGWINCH and
 *                              SIGURG received to FILE, until SIGTERM (escape's signal target)
 *   probe raw-loopback PORT    the network helper's hole: write a TCP SYN for 127.0.0.1:PORT as
 *                              a raw frame to the default route's gateway (AF_PACKET), which a
 *                              helper would connect to the host's own loopback; print "sent"
 *                              or the errno of the step that failed
 *   probe dev-loopback PORT    the same hole without NET_RAW: sockets bound to the tap device
 *                              (SO_BINDTODEVICE) and IP_PKTINFO, for 127.0.0.1 and ::1
 *   probe listen-once PORT FILE  on the host: listen on 127.0.0.1 and ::1, TCP and UDP, for
 *                              5 s; FILE's last line names what was reached ("accepted" for
 *                              TCP on 127.0.0.1, udp4, tcp6, udp6) or says "nothing"
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <grp.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <poll.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/kexec.h>
#include <linux/keyctl.h>
#include <linux/perf_event.h>
#include <linux/reboot.h>
#include <net/ethernet.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <sys/timex.h>
#include <sys/uio.h>
#include <termios.h>

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

static int cmd_procs(int n)
{
        int p[2];
        int started = 0;
        const char *why = NULL;
        if (pipe(p) < 0)
                return perror("pipe"), 1;
        for (; started < n; started++) {
                pid_t pid = fork();
                if (pid < 0) {
                        why = strerrorname_np(errno);
                        break;
                }
                if (pid == 0) {
                        char c;
                        close(p[1]);
                        while (read(p[0], &c, 1) < 0 && errno == EINTR)
                                ;
                        _exit(0);
                }
        }
        printf("started %d%s%s\n", started, why ? " " : "", why ? why : "");
        fflush(stdout);
        close(p[1]); /* EOF: every child exits */
        while (wait(NULL) > 0 || errno == EINTR)
                ;
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
        {"setuid", SYS_setuid}, {"kcmp", SYS_kcmp},
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

/* probe verdicts: each call is made in a child that stacked a filter answering
 * SECCOMP_RET_TRACE to all but exit_group. Of stacked filters the strictest action wins: where
 * ours wins (the filter under test allows), the kernel, finding no tracer, fails the call with
 * ENOSYS without running it; where the filter under test denies (ERRNO, KILL), its answer
 * comes back. The child exits with the errno, or dies by the filter's signal. x86_64 only. */
#ifdef __x86_64__
static const char *verdict(long nr, const long *a)
{
        static char buf[64];
        pid_t pid = fork();
        if (pid == 0) {
                struct sock_filter f[] = {
                        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit_group, 0, 1),
                        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
                        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE),
                };
                struct sock_fprog prog = {.len = sizeof f / sizeof f[0], .filter = f};
                if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
                        syscall(SYS_exit_group, 255);
                long r = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
                syscall(SYS_exit_group, r < 0 ? errno : 0);
        }
        int st;
        if (pid < 0 || waitpid(pid, &st, 0) < 0)
                return "probe-failed";
        if (WIFSIGNALED(st))
                snprintf(buf, sizeof buf, "killed-by-%s", sigabbrev_np(WTERMSIG(st)));
        else if (WEXITSTATUS(st) == 255)
                return "probe-failed";
        else if (WEXITSTATUS(st) == 0)
                return "ran"; /* never: our filter answers all but exit_group */
        else
                snprintf(buf, sizeof buf, "%s", strerrorname_np(WEXITSTATUS(st)));
        return buf;
}
#endif

static int cmd_verdicts(void)
{
#ifdef __x86_64__
        /* the argument values Docker's default profile tests: clone's namespace flags,
         * personality's allowed personas, socket's family, and zeros for everything */
        static const long variants[][6] = {
                {0},
                {0x10000000 /* CLONE_NEWUSER */},
                {0x20000 /* CLONE_NEWNS */},
                {8},
                {0x20000},
                {0x20008},
                {0xffffffff},
                {1234},
                {40 /* AF_VSOCK */},
                {16 /* AF_NETLINK */, 3, 9 /* NETLINK_AUDIT */},
        };
        /* x86_64's numbers, x32's own (512 to 547) and a few of the ones x32 shares; not
         * 335 and 336 (uretprobe, uprobe since 6.11), which seccomp lets through unfiltered */
        for (long base = 0; base <= 0x40000000; base += 0x40000000)
                for (long nr = 0; nr < 548; nr++) {
                        if (nr == SYS_exit_group || nr == 335 || nr == 336 ||
                            (!base && nr > 460 && nr < 512) || (base && nr >= 16 && nr < 512))
                                continue;
                        bool cond = !base &&
                                    (nr == SYS_clone || nr == SYS_personality || nr == SYS_socket);
                        size_t nv = cond ? sizeof variants / sizeof variants[0] : 1;
                        for (size_t v = 0; v < nv; v++)
                                printf("%ld %lx,%lx,%lx %s\n", base | nr, variants[v][0],
                                       variants[v][1], variants[v][2],
                                       verdict(base | nr, variants[v]));
                }
        return 0;
#else
        fprintf(stderr, "probe verdicts: x86_64 only\n");
        return 2;
#endif
}

/* ---- probe escape: the attacks of the escape table ----
 *
 * Each attack is one function that returns one word: "ok" when the attack got what it was
 * after, otherwise why not (the errno name, or a word said at the attack). An attack that
 * could change the host is made harmless by its arguments: opens for writing never write,
 * privileged calls that would act get an argument the kernel refuses only after its
 * permission check (so the errno tells which came first: EPERM is the refusal, EINVAL the
 * bad argument, and such an attack answers "ok" for "permitted"), chmod sets the mode the
 * file already has. Whether a success reached the host is for the test to judge, from the
 * host (15-escape.t says how, row by row); what changes the probe's own state (namespaces,
 * ptrace) runs in a child. */

static struct {
        pid_t host_pid;                /* --pid: a process of the host's, in the host's numbers */
        const char *host_path;         /* --path: a file on the host, reachable only from outside */
        unsigned dev_major, dev_minor; /* --dev: the block device mknod tries (7:0, loop0) */
} esc = {0, NULL, 7, 0};

static const char *errname(void)
{
        return strerrorname_np(errno) ? strerrorname_np(errno) : "error";
}

/* run fn in a child (a fork, so namespaces it enters and tracees it takes die with it) and
 * return its word */
static const char *in_child(const char *(*fn)(void))
{
        static char word[64];
        int p[2];
        if (pipe(p) < 0)
                return errname();
        pid_t pid = fork();
        if (pid < 0)
                return errname();
        if (pid == 0) {
                close(p[0]);
                const char *w = fn();
                if (write(p[1], w, strlen(w)) < 0)
                        _exit(1);
                _exit(0);
        }
        close(p[1]);
        ssize_t n = read(p[0], word, sizeof word - 1);
        close(p[0]);
        waitpid(pid, NULL, 0);
        if (n <= 0)
                return "child-died";
        word[n] = '\0';
        return word;
}

/* the word for a call made only to pass a permission check: EPERM (or EACCES) is the refusal,
 * any other errno means the kernel let it through to the harmless argument */
static const char *permitted(long r, int refused_errno)
{
        if (r >= 0 || (errno != refused_errno && errno != EACCES && errno != ENOSYS))
                return "ok";
        return errname();
}

static const char *open_word(const char *path, int flags)
{
        int fd = open(path, flags);
        if (fd < 0)
                return errname();
        close(fd); /* never written */
        return "ok";
}

/* does FILE (a path seen from inside) hold the host's marker? */
static int reads_marker(const char *path)
{
        char buf[64] = "";
        int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return -1;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        return n > 0 && !strncmp(buf, "crib-host-marker", 16);
}

static const char *a_mount(void)
{
        if (mount("tmpfs", "/mnt", "tmpfs", 0, "size=16k") < 0)
                return errname();
        umount2("/mnt", MNT_DETACH);
        return "ok";
}

/* the first path of the default level's masked list that this kernel has (/proc/kcore is not
 * built into every kernel) */
static const char *masked_path(void)
{
        static const char *const paths[] = {"/proc/kcore", "/proc/keys", "/proc/timer_list",
                                            "/proc/interrupts", "/sys/firmware"};
        for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
                if (access(paths[i], F_OK) == 0)
                        return paths[i];
        return "/proc/kcore";
}

static const char *a_umount_masked(void)
{
        return umount2(masked_path(), MNT_DETACH) < 0 ? errname() : "ok";
}

static const char *a_remount_rw(void)
{
        /* keep every flag but read-only: the locked nosuid, nodev, noexec would refuse alone */
        struct statvfs v;
        if (statvfs("/proc/sys", &v) < 0)
                return errname();
        if (!(v.f_flag & ST_RDONLY))
                return "not-ro";
        unsigned long fl = MS_REMOUNT | MS_BIND;
        fl |= (v.f_flag & ST_NOSUID ? MS_NOSUID : 0) | (v.f_flag & ST_NODEV ? MS_NODEV : 0) |
              (v.f_flag & ST_NOEXEC ? MS_NOEXEC : 0) | (v.f_flag & ST_NOATIME ? MS_NOATIME : 0) |
              (v.f_flag & ST_NODIRATIME ? MS_NODIRATIME : 0) |
              (v.f_flag & ST_RELATIME ? MS_RELATIME : 0);
        return mount(NULL, "/proc/sys", NULL, fl, NULL) < 0 ? errname() : "ok";
}

static const char *a_umount_ro(void)
{
        return umount2("/proc/sys", MNT_DETACH) < 0 ? errname() : "ok";
}

/* a proc of the container's pid namespace that has none of the masks (unmounted at once) */
static const char *a_mount_proc(void)
{
        if (mount("proc", "/mnt", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
                return errname();
        umount2("/mnt", MNT_DETACH);
        return "ok";
}

/* /proc bound elsewhere without what is mounted on it (a non-recursive bind) */
static const char *a_bind_proc(void)
{
        if (mount("/proc", "/mnt", NULL, MS_BIND, NULL) < 0)
                return errname();
        umount2("/mnt", MNT_DETACH);
        return "ok";
}

/* the read-only /proc/sys bound elsewhere, and the copy made writable */
static const char *a_bind_rw(void)
{
        if (mount("/proc/sys", "/mnt", NULL, MS_BIND, NULL) < 0)
                return errname();
        int r = mount(NULL, "/mnt", NULL, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                      NULL);
        const char *w = r < 0 ? errname() : "ok";
        umount2("/mnt", MNT_DETACH);
        return w;
}

static const char *c_unshare_user(void)
{
        return unshare(CLONE_NEWUSER) < 0 ? errname() : "ok";
}
static const char *a_unshare_user(void)
{
        return in_child(c_unshare_user);
}

static const char *c_unshare_mnt(void)
{
        return unshare(CLONE_NEWNS) < 0 ? errname() : "ok";
}
static const char *a_unshare_mnt(void)
{
        return in_child(c_unshare_mnt);
}

/* setns into each namespace of pid 1: "ok" only for one that is not already the probe's own */
static const char *c_setns(void)
{
        static const char *const ns[] = {"mnt", "pid", "net", "uts", "ipc", "cgroup", "user"};
        const char *first = NULL;
        int own = 0;
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                char theirs[64], mine[64];
                struct stat a, b;
                snprintf(theirs, sizeof theirs, "/proc/1/ns/%s", ns[i]);
                snprintf(mine, sizeof mine, "/proc/self/ns/%s", ns[i]);
                int fd = open(theirs, O_RDONLY);
                if (fd < 0 || fstat(fd, &a) < 0 || stat(mine, &b) < 0) {
                        if (!first)
                                first = errname();
                        if (fd >= 0)
                                close(fd);
                        continue;
                }
                if (setns(fd, 0) < 0) {
                        if (!first)
                                first = errname();
                } else if (a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
                        close(fd);
                        return "ok";
                } else {
                        own = 1;
                }
                close(fd);
        }
        return own ? "own-ns" : first ? first : "none";
}
static const char *a_setns(void)
{
        return in_child(c_setns);
}

static const char *c_nested_mount(void)
{
        if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
                return errname();
        return mount("tmpfs", "/mnt", "tmpfs", 0, "size=16k") < 0 ? errname() : "ok";
}
static const char *a_nested_mount(void)
{
        return in_child(c_nested_mount);
}

/* a mask the container's root could not undo, undone from a user namespace of its own */
static const char *c_nested_unmask(void)
{
        if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
                return errname();
        return umount2(masked_path(), MNT_DETACH) < 0 ? errname() : "ok";
}
static const char *a_nested_unmask(void)
{
        return in_child(c_nested_unmask);
}

/* The race of issue 11's hole 1: the workload's first instructions, before crib's init may
 * have made itself non-dumpable. Run first thing in main; a tracee taken is let go at once. */
static const char *early_ptrace = "not-tried", *early_mem = "not-tried";
static void escape_early(void)
{
        if (ptrace(PTRACE_SEIZE, 1, 0, 0) == 0) {
                early_ptrace = "ok";
                if (ptrace(PTRACE_INTERRUPT, 1, 0, 0) == 0)
                        waitpid(1, NULL, __WALL);
                ptrace(PTRACE_DETACH, 1, 0, 0);
        } else {
                early_ptrace = errname();
        }
        early_mem = open_word("/proc/1/mem", O_RDWR);
}

static const char *a_ptrace_early(void)
{
        return early_ptrace;
}

static const char *a_mem_early(void)
{
        return early_mem;
}

static const char *c_ptrace_init(void)
{
        /* the tracer is this child: when it exits, pid 1 is detached */
        return ptrace(PTRACE_SEIZE, 1, 0, 0) < 0 ? errname() : "ok";
}
static const char *a_ptrace_init(void)
{
        return in_child(c_ptrace_init);
}

static const char *a_proc1_mem(void)
{
        return open_word("/proc/1/mem", O_RDWR);
}

static const char *a_proc1_exe(void)
{
        return open_word("/proc/1/exe", O_RDWR);
}

static const char *a_proc1_exe_reopen(void)
{
        char self[64];
        int fd = open("/proc/1/exe", O_PATH);
        if (fd < 0)
                return errname();
        snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
        const char *w = open_word(self, O_RDWR);
        close(fd);
        return w;
}

/* open each of pid 1's descriptors (FILE names one below each, or none) */
static const char *proc1_fds(const char *below)
{
        DIR *d = opendir("/proc/1/fd");
        if (!d)
                return errname();
        const char *w = "none";
        struct dirent *e;
        while ((e = readdir(d))) {
                char path[600];
                if (e->d_name[0] == '.')
                        continue;
                snprintf(path, sizeof path, "/proc/1/fd/%s%s%s", e->d_name, below ? "/" : "",
                         below ? below : "");
                if (below) {
                        int r = reads_marker(path);
                        if (r > 0) {
                                w = "ok";
                                break;
                        }
                        if (r < 0 && strcmp(w, "none") == 0)
                                w = errname();
                        continue;
                }
                int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
                if (fd >= 0) {
                        close(fd);
                        w = "ok";
                        break;
                }
                w = errname();
        }
        closedir(d);
        return w;
}

static const char *a_proc1_fd(void)
{
        return proc1_fds(NULL);
}

static const char *a_proc1_fd_host(void)
{
        if (!esc.host_path)
                return "no-path";
        const char *base = strrchr(esc.host_path, '/');
        return proc1_fds(base ? base + 1 : esc.host_path);
}

/* the host's marker through pid 1's root or working directory, straight and with .. out */
static const char *proc1_walk(const char *link)
{
        if (!esc.host_path)
                return "no-path";
        static const char *const ups[] = {"", "/../../../../../../.."};
        const char *w = NULL;
        for (size_t i = 0; i < sizeof ups / sizeof ups[0]; i++) {
                char path[600];
                snprintf(path, sizeof path, "/proc/1/%s%s%s", link, ups[i], esc.host_path);
                int r = reads_marker(path);
                if (r > 0)
                        return "ok";
                if (!w)
                        w = r < 0 ? errname() : "not-host";
        }
        return w;
}

static const char *a_proc1_root(void)
{
        return proc1_walk("root");
}

static const char *a_proc1_cwd(void)
{
        return proc1_walk("cwd");
}

static const char *a_keyctl(void)
{
        return syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, 0) < 0 ? errname() : "ok";
}

static const char *a_add_key(void)
{
        /* into the process keyring: gone with the probe */
        long r = syscall(SYS_add_key, "user", "crib-probe", "x", 1, KEY_SPEC_PROCESS_KEYRING);
        return r < 0 ? errname() : "ok";
}

static const char *a_bpf(void)
{
        /* r0 = 0; exit: a socket filter that drops everything */
        struct bpf_insn prog[2] = {
                {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0},
                {.code = BPF_JMP | BPF_EXIT},
        };
        union bpf_attr a;
        memset(&a, 0, sizeof a);
        a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
        a.insn_cnt = 2;
        a.insns = (uint64_t)(uintptr_t)prog;
        a.license = (uint64_t)(uintptr_t) "GPL";
        long fd = syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof a);
        if (fd < 0)
                return errname();
        close((int)fd);
        return "ok";
}

static const char *a_perf(void)
{
        /* a counter of every process on CPU 0: the whole host's, not the probe's own */
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.type = PERF_TYPE_SOFTWARE;
        a.config = PERF_COUNT_SW_CPU_CLOCK;
        a.disabled = 1;
        long fd = syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
        if (fd < 0)
                return errname();
        close((int)fd);
        return "ok";
}

static const char *a_io_uring(void)
{
        struct io_uring_params p;
        memset(&p, 0, sizeof p);
        long fd = syscall(SYS_io_uring_setup, 1, &p);
        if (fd < 0)
                return errname();
        close((int)fd);
        return "ok";
}

static const char *a_userfaultfd(void)
{
        /* without UFFD_USER_MODE_ONLY: kernel faults too, which needs CAP_SYS_PTRACE */
        long fd = syscall(SYS_userfaultfd, O_CLOEXEC);
        if (fd < 0)
                return errname();
        close((int)fd);
        return "ok";
}

static const char *a_kexec(void)
{
        /* an unknown flag (and too many segments): refused after the permission check */
        long r = syscall(SYS_kexec_load, 0, 1000000, NULL, 0x8000);
        return permitted(r, EPERM);
}

static const char *a_reboot(void)
{
        /* in a pid namespace this command is EINVAL once permitted; only in the host's would
         * it act (ctrl-alt-del off, which the test checks) */
        long r = syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
                         LINUX_REBOOT_CMD_CAD_OFF, NULL);
        if (r == 0)
                return "ok";
        return errno == EINVAL ? "own-pidns" : errname();
}

static const char *a_init_module(void)
{
        static char image[1];
        long r = syscall(SYS_init_module, image, 0, "");
        return permitted(r, EPERM);
}

static const char *a_open_by_handle(void)
{
        struct {
                struct file_handle h;
                unsigned char bytes[MAX_HANDLE_SZ];
        } fh;
        int mount_id;
        fh.h.handle_bytes = MAX_HANDLE_SZ;
        if (name_to_handle_at(AT_FDCWD, "/", &fh.h, &mount_id, 0) < 0) {
                /* a made-up handle: the errno still says whether the permission held */
                memset(&fh, 0, sizeof fh);
                fh.h.handle_bytes = 8;
                fh.h.handle_type = 1;
        }
        int root = open("/", O_RDONLY | O_DIRECTORY);
        if (root < 0)
                return errname();
        int fd = open_by_handle_at(root, &fh.h, O_RDONLY);
        int saved = errno;
        close(root);
        if (fd >= 0) {
                close(fd);
                return "ok";
        }
        errno = saved;
        return permitted(-1, EPERM);
}

static const char *a_kcore(void)
{
        char c;
        int fd = open("/proc/kcore", O_RDONLY);
        if (fd < 0)
                return errname();
        ssize_t n = read(fd, &c, 1);
        const char *w = n > 0 ? "ok" : n == 0 ? "empty" : errname();
        close(fd);
        return w;
}

static const char *a_sysrq(void)
{
        return open_word("/proc/sysrq-trigger", O_WRONLY);
}

static const char *a_core_pattern(void)
{
        return open_word("/proc/sys/kernel/core_pattern", O_WRONLY);
}

static const char *mknod_in(const char *dir)
{
        char path[300];
        snprintf(path, sizeof path, "%s/crib-probe-blk", dir);
        unlink(path);
        if (mknod(path, S_IFBLK | 0600, makedev(esc.dev_major, esc.dev_minor)) < 0)
                return errname();
        const char *w = open_word(path, O_RDONLY);
        unlink(path);
        return w;
}

static const char *a_mknod_dev(void)
{
        return mknod_in("/dev");
}

static const char *a_mknod_tmp(void)
{
        return mknod_in("/tmp");
}

static const char *a_mknod_root(void)
{
        return mknod_in("");
}

static const char *a_shipped_dev(void)
{
        /* a block device node the rootfs came with (15-escape.t makes one, as root) */
        if (access("/crib-shipped-blk", F_OK) < 0)
                return "absent";
        return open_word("/crib-shipped-blk", O_RDONLY);
}

static const char *raw_socket(int family, int type, int proto)
{
        int s = socket(family, type, proto);
        if (s < 0)
                return errname();
        close(s);
        return "ok";
}

static const char *a_raw_packet(void)
{
        return raw_socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
}

static const char *a_raw_inet(void)
{
        return raw_socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
}

static const char *a_tiocsti(void)
{
        /* one letter pushed into the input of the terminal on fd 0 (the test's own pty) */
        char c = 'Q';
        return ioctl(0, TIOCSTI, &c) < 0 ? errname() : "ok";
}

static const char *chmod_same(const char *path)
{
        /* the mode it has: a success changes nothing but the inode's ctime */
        struct stat st;
        if (stat(path, &st) < 0)
                return errname();
        return chmod(path, st.st_mode & 07777) < 0 ? errname() : "ok";
}

static const char *a_chmod_null(void)
{
        return chmod_same("/dev/null");
}

static const char *a_chmod_full(void)
{
        return chmod_same("/dev/full");
}

static const char *a_setuid(void)
{
        /* a setuid file of the container's root (or user), left for the test to find on the
         * host: first in /, else in /tmp */
        static const char *const paths[] = {"/crib-probe-suid", "/tmp/crib-probe-suid"};
        const char *w = NULL;
        for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
                struct stat st;
                unlink(paths[i]);
                int fd = open(paths[i], O_WRONLY | O_CREAT | O_EXCL, 0755);
                if (fd < 0) {
                        if (!w)
                                w = errname();
                        continue;
                }
                int r = fchmod(fd, 04755);
                if (r == 0)
                        r = fstat(fd, &st);
                close(fd);
                if (r == 0 && (st.st_mode & S_ISUID))
                        return "ok";
                if (!w)
                        w = r < 0 ? errname() : "not-setuid";
        }
        return w;
}

static const char *a_kill_host(void)
{
        if (!esc.host_pid)
                return "no-pid";
        return kill(esc.host_pid, SIGWINCH) < 0 ? errname() : "ok";
}

static const char *a_kill_all(void)
{
        return kill(-1, SIGCONT) < 0 ? errname() : "ok";
}

static const char *a_pidfd(void)
{
        if (!esc.host_pid)
                return "no-pid";
        long fd = syscall(SYS_pidfd_open, esc.host_pid, 0);
        if (fd < 0)
                return errname();
        long r = syscall(SYS_pidfd_send_signal, (int)fd, SIGURG, NULL, 0);
        const char *w = r < 0 ? errname() : "ok";
        close((int)fd);
        return w;
}

static const char *a_sethostname(void)
{
        /* the name it has already: nothing changes even where the namespace is the host's */
        char name[HOST_NAME_MAX + 1] = "";
        if (gethostname(name, sizeof name) < 0)
                return errname();
        return sethostname(name, strlen(name)) < 0 ? errname() : "ok";
}

static const char *a_settimeofday(void)
{
        /* neither time nor zone: only the permission check runs */
        return syscall(SYS_settimeofday, NULL, NULL) < 0 ? errname() : "ok";
}

static const char *a_adjtimex(void)
{
        /* a tick out of range: refused (EINVAL) after the permission check, nothing set */
        struct timex t;
        memset(&t, 0, sizeof t);
        t.modes = ADJ_TICK;
        t.tick = 1;
        return permitted(syscall(SYS_adjtimex, &t), EPERM);
}

static const char *a_swapon(void)
{
        return permitted(swapon("/crib-probe-no-such-swap", 0), EPERM);
}

static const char *a_swapoff(void)
{
        return permitted(swapoff("/crib-probe-no-such-swap"), EPERM);
}

static const char *a_acct(void)
{
        /* off, for this pid namespace: in a container's, its own accounting (none) */
        return syscall(SYS_acct, NULL) < 0 ? errname() : "ok";
}

/* in this order: what undoes a mask comes before what the mask protects */
static const struct {
        const char *name;
        const char *(*fn)(void);
} escape_attacks[] = {
        {"mount", a_mount},
        {"nested-mount", a_nested_mount},
        {"nested-unmask", a_nested_unmask},
        {"unshare-user", a_unshare_user},
        {"unshare-mnt", a_unshare_mnt},
        {"setns", a_setns},
        {"umount-masked", a_umount_masked},
        {"remount-rw", a_remount_rw},
        {"umount-ro", a_umount_ro},
        {"mount-proc", a_mount_proc},
        {"bind-proc", a_bind_proc},
        {"bind-rw", a_bind_rw},
        {"kcore", a_kcore},
        {"sysrq", a_sysrq},
        {"core-pattern", a_core_pattern},
        {"ptrace-early", a_ptrace_early},
        {"mem-early", a_mem_early},
        {"ptrace-init", a_ptrace_init},
        {"proc1-mem", a_proc1_mem},
        {"proc1-exe", a_proc1_exe},
        {"proc1-exe-reopen", a_proc1_exe_reopen},
        {"proc1-fd", a_proc1_fd},
        {"proc1-fd-host", a_proc1_fd_host},
        {"proc1-root", a_proc1_root},
        {"proc1-cwd", a_proc1_cwd},
        {"keyctl", a_keyctl},
        {"add_key", a_add_key},
        {"bpf", a_bpf},
        {"perf", a_perf},
        {"io_uring", a_io_uring},
        {"userfaultfd", a_userfaultfd},
        {"kexec", a_kexec},
        {"reboot", a_reboot},
        {"init_module", a_init_module},
        {"open_by_handle", a_open_by_handle},
        {"mknod-dev", a_mknod_dev},
        {"mknod-tmp", a_mknod_tmp},
        {"mknod-root", a_mknod_root},
        {"shipped-dev", a_shipped_dev},
        {"raw-packet", a_raw_packet},
        {"raw-inet", a_raw_inet},
        {"tiocsti", a_tiocsti},
        {"chmod-null", a_chmod_null},
        {"chmod-full", a_chmod_full},
        {"setuid", a_setuid},
        {"kill-host", a_kill_host},
        {"kill-all", a_kill_all},
        {"pidfd", a_pidfd},
        {"sethostname", a_sethostname},
        {"settimeofday", a_settimeofday},
        {"adjtimex", a_adjtimex},
        {"swapon", a_swapon},
        {"swapoff", a_swapoff},
        {"acct", a_acct},
};

/* facts the test judges some rows by: the namespaces, ids and pid 1's program */
static void escape_info(void)
{
        static const char *const ns[] = {"net", "uts", "pid", "user", "mnt"};
        char link[300];
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                char path[64];
                snprintf(path, sizeof path, "/proc/self/ns/%s", ns[i]);
                ssize_t n = readlink(path, link, sizeof link - 1);
                link[n > 0 ? n : 0] = '\0';
                printf("info-ns-%s %s\n", ns[i], n > 0 ? link : errname());
        }
        ssize_t n = readlink("/proc/1/exe", link, sizeof link - 1);
        link[n > 0 ? n : 0] = '\0';
        printf("info-init-exe %s\n", n > 0 ? link : errname());
        printf("info-ids %d:%d\n", (int)geteuid(), (int)getegid());
        printf("info-masked %s\n", masked_path());
}

static int cmd_escape(int argc, char **argv)
{
        for (int i = 0; i + 1 < argc; i += 2) {
                if (!strcmp(argv[i], "--pid"))
                        esc.host_pid = (pid_t)atoi(argv[i + 1]);
                else if (!strcmp(argv[i], "--path"))
                        esc.host_path = argv[i + 1];
                else if (!strcmp(argv[i], "--dev") &&
                         sscanf(argv[i + 1], "%u:%u", &esc.dev_major, &esc.dev_minor) == 2)
                        ;
                else
                        return fprintf(stderr, "probe escape: bad option '%s'\n", argv[i]), 2;
        }
        setvbuf(stdout, NULL, _IOLBF, 0);
        escape_info();
        for (size_t i = 0; i < sizeof escape_attacks / sizeof escape_attacks[0]; i++) {
                errno = 0;
                printf("%s %s\n", escape_attacks[i].name, escape_attacks[i].fn());
        }
        return 0;
}

static volatile sig_atomic_t caught[3], stop;
static void on_catch(int sig)
{
        if (sig == SIGTERM)
                stop = 1;
        else
                caught[sig == SIGCONT ? 0 : sig == SIGWINCH ? 1 : 2] = 1;
}

/* Host: the target of the signal attacks; each signal received becomes a line of FILE */
static int cmd_catch(const char *file)
{
        static const int sigs[] = {SIGCONT, SIGWINCH, SIGURG};
        static const char *const names[] = {"SIGCONT", "SIGWINCH", "SIGURG"};
        struct sigaction sa = {.sa_handler = on_catch};
        sigaction(SIGTERM, &sa, NULL);
        for (int i = 0; i < 3; i++)
                sigaction(sigs[i], &sa, NULL);
        while (!stop) {
                sleep_ms(20);
                for (int i = 0; i < 3; i++) {
                        if (!caught[i])
                                continue;
                        caught[i] = 0;
                        FILE *f = fopen(file, "a");
                        if (f) {
                                fprintf(f, "%s\n", names[i]);
                                fclose(f);
                        }
                }
        }
        return 0;
}

/* Host: run CMD with a new pseudo-terminal as its controlling terminal and its fd 0, as a user's
 * terminal would be; when it is gone, write to FILE what was typed into that terminal and not
 * read (what a TIOCSTI from a container would leave for the user's shell). Exits with CMD's
 * status. */
static int cmd_tty(const char *file, char **cmd)
{
        int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0)
                return perror("probe tty: /dev/ptmx"), 125;
        int s = open(ptsname(m), O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (s < 0)
                return perror("probe tty: pty"), 125;
        pid_t pid = fork();
        if (pid < 0)
                return perror("probe tty: fork"), 125;
        if (pid == 0) {
                if (setsid() < 0 || ioctl(s, TIOCSCTTY, 0) < 0 || dup2(s, 0) < 0)
                        _exit(125);
                execvp(cmd[0], cmd);
                _exit(127);
        }
        int st = 0;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
        struct termios t;
        char buf[64];
        ssize_t n = 0;
        if (tcgetattr(s, &t) == 0) {
                t.c_lflag &= ~(tcflag_t)ICANON; /* a letter without a newline is readable */
                t.c_cc[VMIN] = 0;
                t.c_cc[VTIME] = 0;
                if (tcsetattr(s, TCSANOW, &t) == 0)
                        n = read(s, buf, sizeof buf);
        }
        FILE *f = fopen(file, "w");
        if (!f)
                return perror(file), 125;
        if (n > 0)
                fwrite(buf, 1, (size_t)n, f);
        fclose(f);
        return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The default route's interface and gateway, from /proc/net/route. */
static int default_route(char *ifname, size_t len, struct in_addr *gw)
{
        FILE *f = fopen("/proc/net/route", "re");
        char line[256], name[IFNAMSIZ];
        unsigned dst, via;
        int found = -1;
        while (f && fgets(line, sizeof line, f))
                if (sscanf(line, "%15s %x %x", name, &dst, &via) == 3 && dst == 0 && via) {
                        snprintf(ifname, len, "%s", name);
                        gw->s_addr = via;
                        found = 0;
                        break;
                }
        if (f)
                fclose(f);
        return found;
}

/* The gateway's MAC address: a datagram makes the kernel ask (ARP), /proc/net/arp tells. */
static int gateway_mac(struct in_addr gw, unsigned char mac[6])
{
        char want[INET_ADDRSTRLEN], line[256], ip[64], hw[64];
        inet_ntop(AF_INET, &gw, want, sizeof want);
        for (int round = 0; round < 20; round++) {
                int s = socket(AF_INET, SOCK_DGRAM, 0);
                struct sockaddr_in a = {
                        .sin_family = AF_INET, .sin_port = htons(9), .sin_addr = gw};
                sendto(s, "x", 1, 0, (struct sockaddr *)&a, sizeof a);
                close(s);
                sleep_ms(50);
                FILE *f = fopen("/proc/net/arp", "re");
                while (f && fgets(line, sizeof line, f))
                        if (sscanf(line, "%63s %*s %*s %63s", ip, hw) == 2 && !strcmp(ip, want) &&
                            sscanf(hw, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1], &mac[2],
                                   &mac[3], &mac[4], &mac[5]) == 6) {
                                fclose(f);
                                return 0;
                        }
                if (f)
                        fclose(f);
        }
        return -1;
}

static uint16_t csum(const void *data, size_t n, uint32_t sum)
{
        const unsigned char *b = data;
        for (size_t i = 0; i + 1 < n; i += 2)
                sum += (uint32_t)(b[i] << 8 | b[i + 1]);
        if (n & 1)
                sum += (uint32_t)(b[n - 1] << 8);
        while (sum >> 16)
                sum = (sum & 0xffff) + (sum >> 16);
        return (uint16_t)~sum;
}

static int cmd_raw_loopback(int port)
{
        char ifname[IFNAMSIZ];
        struct in_addr gw, me;
        unsigned char gwmac[6], frame[14 + 20 + 20] = {0};
        int s = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_IP));
        if (s < 0)
                return printf("socket %s\n", strerrorname_np(errno)), 0;
        if (default_route(ifname, sizeof ifname, &gw) < 0)
                return printf("no-route\n"), 0;
        if (gateway_mac(gw, gwmac) < 0)
                return printf("no-arp\n"), 0;
        struct ifreq ifr = {0};
        snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
        if (ioctl(s, SIOCGIFADDR, &ifr) < 0)
                return printf("addr %s\n", strerrorname_np(errno)), 0;
        me = ((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr;
        unsigned char mymac[6];
        if (ioctl(s, SIOCGIFHWADDR, &ifr) < 0)
                return printf("hwaddr %s\n", strerrorname_np(errno)), 0;
        memcpy(mymac, ifr.ifr_hwaddr.sa_data, 6);
        int ifindex = (int)if_nametoindex(ifname);
        /* Ethernet */
        memcpy(frame, gwmac, 6);
        memcpy(frame + 6, mymac, 6);
        frame[12] = 0x08, frame[13] = 0x00;
        /* IPv4: to 127.0.0.1, from our address */
        unsigned char *ip = frame + 14;
        struct in_addr lo = {.s_addr = htonl(INADDR_LOOPBACK)};
        ip[0] = 0x45, ip[3] = 40, ip[6] = 0x40, ip[8] = 64, ip[9] = IPPROTO_TCP;
        memcpy(ip + 12, &me, 4);
        memcpy(ip + 16, &lo, 4);
        uint16_t c = csum(ip, 20, 0);
        ip[10] = (unsigned char)(c >> 8), ip[11] = (unsigned char)c;
        /* TCP SYN from port 40404 */
        unsigned char *tcp = ip + 20;
        tcp[0] = 40404 >> 8, tcp[1] = 40404 & 0xff, tcp[2] = (unsigned char)(port >> 8),
        tcp[3] = (unsigned char)port, tcp[7] = 1, tcp[12] = 5 << 4, tcp[13] = 0x02, tcp[14] = 0xff,
        tcp[15] = 0xff;
        unsigned char pseudo[12 + 20];
        memcpy(pseudo, ip + 12, 8);
        pseudo[8] = 0, pseudo[9] = IPPROTO_TCP, pseudo[10] = 0, pseudo[11] = 20;
        memcpy(pseudo + 12, tcp, 20);
        c = csum(pseudo, sizeof pseudo, 0);
        tcp[16] = (unsigned char)(c >> 8), tcp[17] = (unsigned char)c;
        struct sockaddr_ll to = {.sll_family = AF_PACKET,
                                 .sll_protocol = htons(ETH_P_IP),
                                 .sll_ifindex = ifindex,
                                 .sll_halen = 6};
        memcpy(to.sll_addr, gwmac, 6);
        for (int i = 0; i < 3; i++) /* a SYN may be lost; the listener counts one */
                if (sendto(s, frame, sizeof frame, 0, (struct sockaddr *)&to, sizeof to) < 0)
                        return printf("send %s\n", strerrorname_np(errno)), 0;
        return printf("sent\n"), 0;
}

/* 127.0.0.1:PORT, or [::1]:PORT; its length */
static socklen_t loopback_addr(int v6, int port, struct sockaddr_storage *ss)
{
        memset(ss, 0, sizeof *ss);
        if (!v6) {
                struct sockaddr_in *a = (struct sockaddr_in *)ss;
                a->sin_family = AF_INET;
                a->sin_port = htons((uint16_t)port);
                a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
                return sizeof *a;
        }
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)port);
        a->sin6_addr = in6addr_loopback;
        return sizeof *a;
}

static int listener(int family, int type, int port)
{
        int s = socket(family, type | SOCK_NONBLOCK, 0), one = 1;
        struct sockaddr_storage ss = {0};
        socklen_t len;
        if (s < 0)
                return -1;
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        len = loopback_addr(family == AF_INET6, port, &ss);
        if (family == AF_INET6)
                setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        if (bind(s, (struct sockaddr *)&ss, len) < 0 || (type == SOCK_STREAM && listen(s, 8) < 0)) {
                close(s);
                return -1;
        }
        return s;
}

/* 127.0.0.1 and ::1, TCP and UDP, on PORT, for 5 s: the last line of FILE names what was
 * reached ("accepted" for TCP on 127.0.0.1, then udp4, tcp6, udp6), or says "nothing" */
static int cmd_listen_once(int port, const char *file)
{
        static const char *const names[] = {"accepted", "udp4", "tcp6", "udp6"};
        struct pollfd p[4];
        p[0].fd = listener(AF_INET, SOCK_STREAM, port);
        p[1].fd = listener(AF_INET, SOCK_DGRAM, port);
        p[2].fd = listener(AF_INET6, SOCK_STREAM, port);
        p[3].fd = listener(AF_INET6, SOCK_DGRAM, port);
        if (p[0].fd < 0)
                return perror("listen-once"), 1;
        FILE *f = fopen(file, "w");
        if (!f)
                return 1;
        fprintf(f, "listening\n");
        fflush(f);
        bool hit[4] = {false};
        for (int i = 0; i < 4; i++)
                p[i].events = POLLIN;
        for (int round = 0; round < 50; round++) {
                poll(p, 4, 100);
                for (int i = 0; i < 4; i++)
                        if (p[i].fd >= 0 && p[i].revents)
                                hit[i] = true, p[i].fd = -1;
        }
        char line[64] = "";
        for (int i = 0; i < 4; i++)
                if (hit[i])
                        snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s",
                                 line[0] ? " " : "", names[i]);
        fprintf(f, "%s\n", line[0] ? line : "nothing");
        fclose(f);
        return 0;
}

/* The way to the host's loopback that needs no capability: a socket bound to the tap device
 * (SO_BINDTODEVICE, unprivileged since Linux 5.7) or a datagram sent with IP_PKTINFO naming it
 * leaves by the default route, for 127.0.0.1 or ::1, and a helper would connect it to the
 * host's own. Prints one NAME=RESULT per way: "sent", or the errno of the step that failed. */
static int cmd_dev_loopback(int port)
{
        char ifname[IFNAMSIZ], out[256] = "";
        struct in_addr gw;
        if (default_route(ifname, sizeof ifname, &gw) < 0)
                return printf("no-route\n"), 0;
        unsigned char mac[6];
        gateway_mac(gw, mac); /* the gateway's ARP entry, so the first frame is not lost */
        int ifindex = (int)if_nametoindex(ifname);
        for (int v6 = 0; v6 <= 1; v6++) {
                struct sockaddr_storage ss = {0};
                socklen_t len = loopback_addr(v6, port, &ss);
                for (int type = 0; type < 2; type++) {
                        int s = socket(ss.ss_family,
                                       (type ? SOCK_DGRAM : SOCK_STREAM) | SOCK_NONBLOCK, 0);
                        const char *r = "sent";
                        if (s < 0 || setsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, ifname,
                                                (socklen_t)strlen(ifname)) < 0) {
                                r = errname();
                        } else if (type) {
                                for (int i = 0; i < 3; i++)
                                        if (sendto(s, "x", 1, 0, (struct sockaddr *)&ss, len) < 0)
                                                r = errname();
                        } else if (connect(s, (struct sockaddr *)&ss, len) < 0 &&
                                   errno != EINPROGRESS) {
                                r = errname();
                        } else {
                                sleep_ms(300);
                        }
                        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s%s=%s",
                                 out[0] ? " " : "", type ? "udp" : "tcp", v6 ? "6" : "4", r);
                        if (s >= 0)
                                close(s);
                }
        }
        /* IP_PKTINFO: the interface named per datagram */
        int s = socket(AF_INET, SOCK_DGRAM, 0);
        struct sockaddr_in to = {.sin_family = AF_INET,
                                 .sin_port = htons((uint16_t)port),
                                 .sin_addr = {htonl(INADDR_LOOPBACK)}};
        char cbuf[CMSG_SPACE(sizeof(struct in_pktinfo))] = {0};
        struct iovec iov = {.iov_base = "x", .iov_len = 1};
        struct msghdr m = {.msg_name = &to,
                           .msg_namelen = sizeof to,
                           .msg_iov = &iov,
                           .msg_iovlen = 1,
                           .msg_control = cbuf,
                           .msg_controllen = sizeof cbuf};
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = IPPROTO_IP;
        c->cmsg_type = IP_PKTINFO;
        c->cmsg_len = CMSG_LEN(sizeof(struct in_pktinfo));
        ((struct in_pktinfo *)CMSG_DATA(c))->ipi_ifindex = ifindex;
        const char *r = "sent";
        for (int i = 0; i < 3; i++)
                if (sendmsg(s, &m, 0) < 0)
                        r = errname();
        printf("%s pktinfo=%s\n", out, r);
        return 0;
}

/* probe hop: see the top */
static int cmd_hop(int seconds, const char *file)
{
        time_t end = time(NULL) + seconds;
        long gen = 0;
        while (time(NULL) < end) {
                pid_t c = fork();
                if (c > 0)
                        _exit(0); /* the parent goes, the child goes on */
                gen += c == 0;
        }
        FILE *f = fopen(file, "w");
        if (f) {
                fprintf(f, "survived %ld\n", gen);
                fclose(f);
        }
        return 0;
}

int main(int argc, char **argv)
{
        if (argc >= 2 && (!strcmp(argv[1], "escape") || !strcmp(argv[1], "early")))
                escape_early(); /* before anything else: it is a race */
        if (argc >= 2 && !strcmp(argv[1], "early"))
                return printf("ptrace-early %s\nmem-early %s\n", early_ptrace, early_mem), 0;
        if (argc >= 5 && !strcmp(argv[1], "as")) {
                uid_t uid = (uid_t)atoi(argv[2]);
                gid_t gid = (gid_t)atoi(argv[3]);
                if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 ||
                    setresuid(uid, uid, uid) < 0)
                        return perror("probe as"), 125;
                execvp(argv[4], argv + 4);
                return perror(argv[4]), 127;
        }
        if (argc >= 2 && !strcmp(argv[1], "escape"))
                return cmd_escape(argc - 2, argv + 2);
        if (argc >= 4 && !strcmp(argv[1], "tty"))
                return cmd_tty(argv[2], argv + 3);
        if (argc >= 2 && !strcmp(argv[1], "tiocsti"))
                return printf("%s\n", a_tiocsti()), 0;
        if (argc >= 3 && !strcmp(argv[1], "catch"))
                return cmd_catch(argv[2]);
        if (argc >= 3 && !strcmp(argv[1], "syscall"))
                return cmd_syscall(argc - 2, argv + 2);
        if (argc >= 2 && !strcmp(argv[1], "verdicts"))
                return cmd_verdicts();
        if (argc >= 2 && !strcmp(argv[1], "ptrace-init")) {
                long r = ptrace(PTRACE_ATTACH, 1, 0, 0);
                printf("%s\n", r < 0 ? strerrorname_np(errno) : "ok");
                return 0;
        }
        if (argc >= 3 && !strcmp(argv[1], "bind"))
                return cmd_bind(atoi(argv[2]));
        if (argc >= 3 && !strcmp(argv[1], "raw-loopback"))
                return cmd_raw_loopback(atoi(argv[2]));
        if (argc >= 3 && !strcmp(argv[1], "dev-loopback"))
                return cmd_dev_loopback(atoi(argv[2]));
        if (argc >= 4 && !strcmp(argv[1], "listen-once"))
                return cmd_listen_once(atoi(argv[2]), argv[3]);
        if (argc >= 4 && !strcmp(argv[1], "hop"))
                return cmd_hop(atoi(argv[2]), argv[3]);
        if (argc >= 2 && !strcmp(argv[1], "ids"))
                return printf("%d %d\n", (int)getuid(), (int)geteuid()), 0;
        if (argc >= 2 && !strcmp(argv[1], "fds"))
                return cmd_fds();
        if (argc >= 3 && !strcmp(argv[1], "orphans"))
                return cmd_orphans(atoi(argv[2]));
        if (argc >= 3 && !strcmp(argv[1], "procs"))
                return cmd_procs(atoi(argv[2]));
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
        /* the host's copy, reached through a descriptor by tests/e2e/27-hostile.t: an escape */
        if (argc >= 2 && !strcmp(argv[1], "walked"))
                return printf("walked\n"), 42;
        fprintf(stderr, "usage: probe fds | orphans N | zombies | wait-signal FILE | die SIGNUM "
                        "| exit N | walked | bind PORT | ids | escape [--pid PID] [--path FILE] "
                        "[--dev MAJ:MIN] "
                        "| catch FILE\n");
        return 2;
}
