/* floor.c - the kernel's part of crib's default level, and nothing else: the floor under
 * `crib run` of /bin/true, for tests/bench/start-time (issue 18).
 *
 *   floor ROOTFS [unconfined [nest | early]] [times]
 *
 * Straight-line system calls, no spec, no plan, no trace, no sync messages, no checks beyond
 * the return codes: clone into all seven namespaces (user, mount, pid, net, ipc, uts, cgroup),
 * the caller's own ids as the maps, the rootfs bound onto itself, /proc, /dev as a tmpfs with
 * crib's six nodes bound from the host, devpts, /dev/shm, mqueue and its symlinks, sysfs
 * read-only, pivot_root, Docker's masked and read-only paths, the hostname, loopback up, the
 * bounding set and capabilities of the default level, no_new_privs, crib's built-in folded
 * Docker-equivalent filter loaded raw, and an init that starts the workload with
 * clone(CLONE_VM|CLONE_VFORK) and reaps it. `unconfined` leaves out what level = unconfined
 * leaves out (masks, capabilities, no_new_privs, filter). `times` prints each phase's time in
 * microseconds to stderr, to set beside `crib run --trace`'s steps.
 *
 * At level = unconfined the workload keeps CAP_SYS_ADMIN, and crib locks the setup's mounts
 * (lockmounts.c) by giving it a user namespace below the container's, with a copy of the mount
 * namespace and network, UTS and cgroup namespaces of its own. `early` adds that work as crib
 * does it (launch/nestns.c): the lower user namespace is made first, with the network, UTS and
 * cgroup namespaces it owns (one unshare(2) in a helper), the setup joins those three (it holds
 * every capability in them: it is in the parent user namespace, with the euid that owns the
 * lower one), and the workload at the end joins the lower user namespace and copies only the
 * mount namespace: one network namespace. (crib joins only the network namespace early, and
 * copies the UTS and cgroup ones with the mount namespace.) `nest` adds it as crib does under
 * an engine's hooks: after the setup's mounts, a second network namespace per container.
 *
 * A measuring tool, not a launcher: it runs as an unprivileged user (its own id mapped to 0),
 * exits 1 at the first failure, and holds none of crib's guarantees (init keeps its
 * capabilities, nothing is checked against a hostile rootfs).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/capability.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host/kernel.h"
#include "seccomp/seccomp.h"

#define TRY(x)                                                                                     \
        do {                                                                                       \
                if ((x) < 0) {                                                                     \
                        perror(#x);                                                                \
                        _exit(1);                                                                  \
                }                                                                                  \
        } while (0)

static bool times;
enum nest { NEST_NONE, NEST_LATE, NEST_EARLY };
static long long t_last;

static long long now_us(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* the time since the last mark, for `times` */
static void mark(const char *phase)
{
        long long t = now_us();
        if (times)
                fprintf(stderr, "floor: %-28s %6lld us\n", phase, t - t_last);
        t_last = t;
}

static void put(const char *path, const char *text)
{
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        TRY(fd);
        TRY(write(fd, text, strlen(text)));
        close(fd);
}

static void dev_node(const char *name)
{
        char host[64], dst[64];
        snprintf(host, sizeof host, "/dev/%s", name);
        snprintf(dst, sizeof dst, "dev/%s", name);
        int fd = open(dst, O_CREAT | O_WRONLY | O_CLOEXEC, 0666);
        TRY(fd);
        close(fd);
        TRY(mount(host, dst, NULL, MS_BIND, NULL));
}

static char workload_stack[64 * 1024];
static int workload(void *arg)
{
        (void)arg;
        execl("/bin/true", "true", (char *)NULL);
        _exit(127);
}

/* Docker's default masked and read-only paths, as crib's default level has them */
static const char *const masked[] = {"proc/asound",
                                     "proc/acpi",
                                     "proc/kcore",
                                     "proc/keys",
                                     "proc/latency_stats",
                                     "proc/timer_list",
                                     "proc/timer_stats",
                                     "proc/sched_debug",
                                     "proc/scsi",
                                     "sys/firmware",
                                     "sys/devices/virtual/powercap"};
static const char *const readonly[] = {"proc/bus", "proc/fs", "proc/irq", "proc/sys",
                                       "proc/sysrq-trigger"};

/* A helper in a user namespace of its own below ours, with `flags`' namespaces, which it owns;
 * it maps itself (0 to our 0) when `self_map`, else it only makes itself dumpable so that we
 * may write its maps. It waits until *ret_done is closed; returned once it is there. */
static pid_t lower_helper(int flags, bool self_map, int *ret_done)
{
        int ready[2], done[2];
        TRY(pipe2(ready, O_CLOEXEC));
        TRY(pipe2(done, O_CLOEXEC));
        pid_t child = fork();
        TRY(child);
        char b = 'u';
        if (child == 0) {
                close(ready[0]);
                close(done[1]);
                TRY(unshare(CLONE_NEWUSER | flags));
                if (self_map) {
                        put("/proc/self/setgroups", "deny");
                        put("/proc/self/gid_map", "0 0 1");
                        put("/proc/self/uid_map", "0 0 1");
                } else {
                        TRY(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0));
                }
                TRY(write(ready[1], &b, 1));
                TRY(read(done[0], &b, 1));
                _exit(0);
        }
        close(ready[1]);
        close(done[0]);
        TRY(read(ready[0], &b, 1));
        close(ready[0]);
        *ret_done = done[1];
        return child;
}

/* Late (crib's lockmounts.c), with the container's /proc mounted: the helper's maps written
 * through its /proc/PID files; the returned fd names its user namespace. */
static int lower_userns_late(void)
{
        int done;
        pid_t child = lower_helper(0, false, &done);
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/gid_map", (int)child);
        put(path, "0 0 1");
        snprintf(path, sizeof path, "/proc/%d/uid_map", (int)child);
        put(path, "0 0 1");
        snprintf(path, sizeof path, "/proc/%d/ns/user", (int)child);
        int userfd = open(path, O_RDONLY | O_CLOEXEC);
        TRY(userfd);
        close(done); /* it exits on its own; not waited for, as crib does not (a zombie
                      * until this pid 1 exits) */
        return userfd;
}

/* Early, before the container's /proc exists (the host's shows other pids): the helper makes
 * the lower user namespace with the network, UTS and cgroup namespaces it owns, and maps
 * itself; we join those three through a pidfd (Linux 5.8), and keep the helper until the
 * workload has joined its user namespace (*ret_done closed). */
static int lower_userns_early(int *ret_done)
{
        pid_t child = lower_helper(CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWCGROUP, true, ret_done);
        int pidfd = (int)syscall(SYS_pidfd_open, child, 0);
        TRY(pidfd);
        TRY(setns(pidfd, CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWCGROUP));
        return pidfd;
}

static void loopback_up(void)
{
        int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        struct ifreq ifr = {.ifr_name = "lo"};
        TRY(ioctl(s, SIOCGIFFLAGS, &ifr));
        ifr.ifr_flags |= IFF_UP;
        TRY(ioctl(s, SIOCSIFFLAGS, &ifr));
        close(s);
}

static int setup(const char *rootfs, int go, bool confined, enum nest nest, uid_t uid, gid_t gid)
{
        char b, line[64];
        TRY(read(go, &b, 1));
        mark("child: wait for the go");
        put("/proc/self/setgroups", "deny");
        snprintf(line, sizeof line, "0 %u 1", (unsigned)gid);
        put("/proc/self/gid_map", line);
        snprintf(line, sizeof line, "0 %u 1", (unsigned)uid);
        put("/proc/self/uid_map", line);
        TRY(setresgid(0, 0, 0));
        TRY(setresuid(0, 0, 0));
        mark("id maps, root in the userns");
        int lower = -1, lower_done = -1;
        if (nest == NEST_EARLY) {
                lower = lower_userns_early(&lower_done);
                mark("early: lower userns, net, uts, cgroup");
        }
        TRY(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
        TRY(mount(rootfs, rootfs, NULL, MS_BIND | MS_REC, NULL));
        TRY(chdir(rootfs));
        TRY(mount("proc", "proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL));
        TRY(mount("tmpfs", "dev", "tmpfs", MS_NOSUID | MS_NODEV | MS_STRICTATIME,
                  "mode=755,size=65536k"));
        dev_node("null");
        dev_node("zero");
        dev_node("full");
        dev_node("random");
        dev_node("urandom");
        dev_node("tty");
        TRY(mkdir("dev/pts", 0755));
        TRY(mount("devpts", "dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
                  "newinstance,ptmxmode=0666,mode=0620"));
        TRY(symlink("pts/ptmx", "dev/ptmx"));
        TRY(mkdir("dev/shm", 0755));
        TRY(mount("tmpfs", "dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                  "mode=1777,size=65536k"));
        TRY(mkdir("dev/mqueue", 0755));
        TRY(mount("mqueue", "dev/mqueue", "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL));
        TRY(symlink("/proc/self/fd", "dev/fd"));
        TRY(symlink("/proc/self/fd/0", "dev/stdin"));
        TRY(symlink("/proc/self/fd/1", "dev/stdout"));
        TRY(symlink("/proc/self/fd/2", "dev/stderr"));
        TRY(mount("sysfs", "sys", "sysfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL));
        mark("mounts: rootfs, proc, dev, sys");
        TRY(syscall(SYS_pivot_root, ".", "."));
        TRY(umount2(".", MNT_DETACH));
        TRY(chdir("/"));
        mark("pivot_root");
        if (confined) {
                for (size_t i = 0; i < sizeof masked / sizeof masked[0]; i++) {
                        struct stat st;
                        if (stat(masked[i], &st) < 0)
                                continue;
                        if (S_ISDIR(st.st_mode))
                                TRY(mount("tmpfs", masked[i], "tmpfs", MS_RDONLY, "size=0"));
                        else
                                TRY(mount("/dev/null", masked[i], NULL, MS_BIND, NULL));
                }
                for (size_t i = 0; i < sizeof readonly / sizeof readonly[0]; i++) {
                        if (access(readonly[i], F_OK) < 0)
                                continue;
                        TRY(mount(readonly[i], readonly[i], NULL, MS_BIND | MS_REC, NULL));
                        TRY(mount(NULL, readonly[i], NULL,
                                  MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV |
                                          MS_NOEXEC,
                                  NULL));
                }
        }
        mark("masked and read-only paths");
        TRY(sethostname("floor", 5));
        loopback_up();
        mark("hostname, loopback up");
        if (nest == NEST_LATE) {
                /* as crib's lockmounts.c: after every mount, a lower user namespace, joined,
                 * and copies of the mount, network, UTS and cgroup namespaces in it */
                int fd = lower_userns_late();
                TRY(setns(fd, CLONE_NEWUSER));
                close(fd);
                TRY(unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWCGROUP));
                loopback_up();
                mark("nest: lower userns, 4 copies");
        } else if (nest == NEST_EARLY) {
                TRY(setns(lower, CLONE_NEWUSER));
                close(lower);
                close(lower_done);
                TRY(unshare(CLONE_NEWNS));
                mark("early: join it, copy mount ns");
        }
        uint64_t caps = 0xa80425fbULL; /* Docker's default set, as crib's default level */
        if (confined) {
                for (int cap = 0; cap <= CAP_LAST_CAP; cap++)
                        if (!(caps & (1ULL << cap)))
                                TRY(prctl(PR_CAPBSET_DROP, cap, 0, 0, 0));
                struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
                struct __user_cap_data_struct d[2] = {
                        {(uint32_t)caps, (uint32_t)caps, 0},
                        {(uint32_t)(caps >> 32), (uint32_t)(caps >> 32), 0}};
                TRY(syscall(SYS_capset, &h, d));
                TRY(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
                mark("bounding set, capset, nnp");
                unsigned kmaj, kmin;
                seccomp_kernel_version(&kmaj, &kmin);
                const struct seccomp_builtin *f =
                        seccomp_builtin_find("default", seccomp_native_arch(), caps, kmaj, kmin);
                if (!f) {
                        fprintf(stderr, "floor: no built-in filter for this kernel\n");
                        _exit(1);
                }
                TRY(seccomp_load_filter(f->insns, f->n, 0));
                mark("seccomp filter");
        }
        /* init: the workload's process shares this memory until its exec */
        pid_t pid = clone(workload, workload_stack + sizeof workload_stack,
                          CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
        TRY(pid);
        int st;
        TRY(waitpid(pid, &st, 0));
        mark("init: clone, exec, exit of true");
        _exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

int main(int argc, char **argv)
{
        if (argc < 2) {
                fprintf(stderr, "usage: floor ROOTFS [unconfined [nest | early]] [times]\n");
                return 2;
        }
        bool confined = true;
        enum nest nest = NEST_NONE;
        for (int i = 2; i < argc; i++) {
                if (!strcmp(argv[i], "unconfined"))
                        confined = false;
                else if (!strcmp(argv[i], "nest"))
                        nest = NEST_LATE;
                else if (!strcmp(argv[i], "early"))
                        nest = NEST_EARLY;
                else if (!strcmp(argv[i], "times"))
                        times = true;
        }
        t_last = now_us();
        uid_t uid = getuid();
        gid_t gid = getgid();
        int go[2];
        TRY(pipe2(go, O_CLOEXEC));
        if (nest != NEST_NONE && confined) {
                fprintf(stderr, "floor: nest and early go with unconfined\n");
                return 2;
        }
        /* early: the network, UTS and cgroup namespaces come from the lower user namespace */
        int late = nest == NEST_EARLY ? 0 : CLONE_NEWUTS | CLONE_NEWNET | CLONE_NEWCGROUP;
        pid_t pid = (pid_t)syscall(SYS_clone,
                                   CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |
                                           late | SIGCHLD,
                                   NULL, NULL, NULL, 0);
        TRY(pid);
        if (pid != 0)
                mark("clone(seven namespaces)");
        if (pid == 0) {
                t_last = now_us();
                close(go[1]);
                return setup(argv[1], go[0], confined, nest, uid, gid);
        }
        close(go[0]);
        TRY(write(go[1], "g", 1));
        close(go[1]);
        int st;
        TRY(waitpid(pid, &st, 0));
        mark("parent: until the child exits");
        return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
