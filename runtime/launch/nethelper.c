/* nethelper.c - the container's way out: a user-mode network helper for its network namespace,
 * and the host's ports published into it.
 *
 * Kernel features: network namespaces (network_namespaces(7)) and user namespaces
 * (user_namespaces(7)). The helper, a program Debian ships (slirp4netns, or pasta from the passt
 * package), joins the container's user and network namespaces by /proc/PID/ns/{user,net}
 * (setns(2)), makes a tap device there (tun(4), through /dev/net/tun) and configures it; then,
 * on the host's side, it turns what the container sends into ordinary sockets of its own, so
 * every connection is made by a process of the user who ran crib, with that user's rights, and
 * no setuid helper and no daemon are needed. Published ports are sockets the helper listens on
 * (slirp4netns: its API socket's add_hostfwd; pasta: -t and -u).
 *
 * Where it sits: the parent starts it after the clone (the namespaces exist) and after the id
 * maps (joining the user namespace makes it root there), waits until it says it is ready
 * (slirp4netns -r FD writes "1"; pasta writes its pid to --pid FILE, a pipe here), adds the
 * ports, and only then sends GO: the workload's first instruction already has its network.
 * It never outlives the container: it is our child with a parent-death signal (SIGKILL when
 * crib, or the monitor of `crib run -d`, dies, even by SIGKILL), slirp4netns also reads
 * --exit-fd (root's loses the signal at its exec: see struct nethelper_identity), and the parent
 * kills it when the container ends, however it ends. Like crib's init, it holds the least it can: a
 * session of its own (no terminal), /dev/null as stdin, no descriptor of crib's but the ones named
 * here, an empty environment but PATH.
 *
 * The boundary: the helper connects to whatever the container asks for, as the user; the
 * host's loopback (127.0.0.1 and ::1, where local services trust their callers) is not
 * reachable unless the spec says host_loopback = yes (slirp4netns --disable-host-loopback;
 * pasta --no-map-gw and no -T/-U). The helpers only block their gateway's alias for it: a packet
 * for 127.0.0.1 that leaves by the tap (a socket bound to the device needs no capability) is
 * connected to the host's own. netns.c drops those with an nftables rule in the container's
 * namespace; network.c takes NET_RAW and NET_ADMIN away. The helper goes into the container's
 * cgroup (clone3 CLONE_INTO_CGROUP), so its memory and socket buffers count against the
 * container's limits; as root, slirp4netns runs in its sandbox (--enable-sandbox). Root's
 * helper is not host root where the container has a user namespace: it runs as the container's
 * own root, in that namespace (nethelper_id.h).
 *
 * What goes wrong: the helper is not installed (plan.c names the package); /dev/net/tun is
 * missing or not 0666 (some sandboxes): the helper's own words are shown, with a remedy; a
 * host port is taken (checked before the clone); the helper dies (reported, early or late).
 */
#define _GNU_SOURCE
#include "nethelper.h"
#include "nethelper_id.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <json-c/json.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/cgroup.h"
#include "base/cleanup.h"
#include "spec/phrase.h"
#include "base/sys.h"

#define READY_MS    15000                     /* the helper's start, bounded */
#define API_MS      5000                      /* one answer of slirp4netns's API socket */
#define LOG_KEEP    65536                     /* what the helper may write once it runs */
#define NET_MAX_ARG (2 * SPEC_MAX_PORTS + 32) /* pasta: two per port */
#define NETNS_FD    5                         /* root's container: its netns, in the helper */

void nethelper_init(struct nethelper *h)
{
        memset(h, 0, sizeof *h);
        h->pid = -1;
        h->exit_w = h->log = -1;
}

/* The last `len` - 1 bytes at most of what the helper wrote. Its text ends at the first NUL:
 * once it runs, the log is grown with zeros to bound it (nethelper_start). */
static void read_log(int log, char *buf, size_t len)
{
        static char all[2 * LOG_KEEP];
        buf[0] = '\0';
        ssize_t n = log >= 0 ? pread(log, all, sizeof all - 1, 0) : -1;
        if (n <= 0)
                return;
        all[n] = '\0';
        n = (ssize_t)strlen(all);
        while (n > 0 && all[n - 1] == '\n')
                all[--n] = '\0';
        snprintf(buf, len, "%s", n > (ssize_t)len - 1 ? all + n - (ssize_t)len + 1 : all);
}

static const char *helper_name(const struct plan *p)
{
        return p->net_mode == SPEC_NET_PASTA ? "pasta" : "slirp4netns";
}

/* The helper failed to start: its words, and the remedy where we know one. */
static int helper_failed(const struct plan *p, const struct nethelper *h, const char *what,
                         struct error *err)
{
        char log[1024];
        read_log(h->log, log, sizeof log);
        /* one line: the printer shows a newline in a message as \x0a */
        for (char *c = log; (c = strchr(c, '\n'));)
                *c = '|';
        error_at(err, p->spec_path, p->net_line, "the network helper %s %s%s%s", helper_name(p),
                 what, log[0] ? ": " : "", log);
        char change[128];
        /* slirp4netns names the device; pasta says "Failed to open tun socket" */
        if (strstr(log, "/dev/net/tun") || strstr(log, "tun socket"))
                return error_hint(err,
                                  "the helper needs /dev/net/tun, which Debian makes 0666 "
                                  "(crw-rw-rw-); here it is missing or closed to you (some "
                                  "sandboxes make it 0600): 'sudo chmod 0666 /dev/net/tun', or %s",
                                  phrase_change(p->front, SPEC_KEY_NETWORK_MODE, PHRASE_OFF, change,
                                                sizeof change));
        return error_hint(err, "run it again with --trace to see how crib started it");
}

/* slirp4netns's API socket: a directory of its own under the state root (0700, ours), named
 * after our pid so that one a crib killed meanwhile left behind is swept by the next. Root's
 * container in a user namespace: its helper (the container's root) could not reach root's state
 * root, so the directory is /run/crib-net-PID (root's /run, which no one else writes), 0700 and
 * the helper's. */
static void sweep_dirs(int root, const char *prefix)
{
        _cleanup_closedir_ DIR *d = fdopendir(dup(root));
        struct dirent *e;
        size_t len = strlen(prefix);
        while (d && (e = readdir(d))) {
                char *end;
                if (strncmp(e->d_name, prefix, len))
                        continue;
                long pid = strtol(e->d_name + len, &end, 10);
                if (*end || pid <= 0 || pid > INT32_MAX)
                        continue;
                if (kill((pid_t)pid, 0) == 0 || errno == EPERM) /* its crib still runs */
                        continue;
                _cleanup_close_ int dir =
                        openat(root, e->d_name, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (dir >= 0)
                        unlinkat(dir, "api.sock", 0);
                unlinkat(root, e->d_name, AT_REMOVEDIR);
        }
}

static int make_dir(const struct plan *p, const struct nethelper_identity *id, struct nethelper *h,
                    struct error *err)
{
        struct stat st;
        const char *base = id->drop ? "/run" : p->run_dir,
                   *prefix = id->drop ? "crib-net-" : ".net-";
        if (!id->drop && mkdir(base, 0700) < 0 && errno != EEXIST)
                return error_set(err, errno, "cannot make '%s'", base);
        _cleanup_close_ int root = open(base, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (root < 0 || fstat(root, &st) < 0)
                return error_set(err, errno, "cannot open '%s'", base);
        if (st.st_uid != geteuid() || (st.st_mode & (id->drop ? 022 : 077)))
                return error_set(err, EPERM,
                                 "'%s' is not a directory only you can %s; crib does not put the "
                                 "network helper's socket there",
                                 base, id->drop ? "write" : "use");
        sweep_dirs(root, prefix);
        int n = snprintf(h->dir, sizeof h->dir, "%s/%s%d", base, prefix, (int)getpid());
        if (n < 0 || (size_t)n >= sizeof h->dir) {
                h->dir[0] = '\0';
                return error_set(err, ENAMETOOLONG,
                                 "the state directory '%s' is too long a path for a socket", base);
        }
        /* made through the root that was checked, not by its name again */
        const char *name = strrchr(h->dir, '/') + 1;
        if (mkdirat(root, name, 0700) < 0) {
                int e = errno;
                h->dir[0] = '\0';
                return error_set(err, e, "cannot make a directory for the helper's socket");
        }
        if (id->drop && fchownat(root, name, id->uid, id->gid, AT_SYMLINK_NOFOLLOW) < 0) {
                int e = errno;
                unlinkat(root, name, AT_REMOVEDIR);
                h->dir[0] = '\0';
                return error_set(err, e, "cannot give the helper's socket directory to uid %u",
                                 (unsigned)id->uid);
        }
        return 0;
}

static void remove_dir(struct nethelper *h)
{
        char sock[600];
        if (!h->dir[0])
                return;
        snprintf(sock, sizeof sock, "%s/api.sock", h->dir);
        unlink(sock);
        rmdir(h->dir);
        h->dir[0] = '\0';
}

/* The helper's command line; strings in `buf`. */
struct args {
        char *v[NET_MAX_ARG + 1];
        size_t n;
        char buf[16384];
        size_t used;
        bool full; /* something did not fit: never run a command line cut short */
};

static void arg(struct args *a, const char *fmt, ...) CRIB_PRINTF(2, 3);
static void arg(struct args *a, const char *fmt, ...)
{
        va_list ap;
        if (a->n == NET_MAX_ARG || a->used >= sizeof a->buf) {
                a->full = true;
                return;
        }
        va_start(ap, fmt);
        int n = vsnprintf(a->buf + a->used, sizeof a->buf - a->used, fmt, ap);
        va_end(ap);
        if (n < 0 || (size_t)n >= sizeof a->buf - a->used) {
                a->full = true;
                return;
        }
        a->v[a->n++] = a->buf + a->used;
        a->used += (size_t)n + 1;
}

/* The helper is handed the container's network namespace as a descriptor (NETNS_FD), opened
 * by crib, when it could not open /proc/PID/ns/net itself: root's container in a user
 * namespace, whose helper is that namespace's root already (exec_helper) and joins only the
 * network namespace; and a container with user = no, whose setup process is host root's and
 * not dumpable, so opening its /proc/PID/ns/net takes CAP_SYS_PTRACE, which pasta drops
 * before it opens the path. */
static bool netns_by_fd(const struct plan *p, const struct nethelper_identity *id)
{
        return id->drop || !p->userns;
}

/* fd 3: the ready pipe; fd 4: slirp4netns's exit pipe; NETNS_FD: the container's network
 * namespace, where netns_by_fd says. */
static void build_args(const struct plan *p, const struct nethelper_identity *id, pid_t pid,
                       const struct nethelper *h, struct args *a)
{
        char netns[64];
        if (netns_by_fd(p, id))
                snprintf(netns, sizeof netns, "/proc/self/fd/%d", NETNS_FD);
        else
                snprintf(netns, sizeof netns, "/proc/%d/ns/net", (int)pid);
        arg(a, "%s", p->net_helper);
        if (p->net_mode == SPEC_NET_SLIRP4NETNS) {
                arg(a, "--configure");
                arg(a, "--mtu=65520");
                if (!p->host_loopback)
                        arg(a, "--disable-host-loopback");
                /* as root: it drops every capability but NET_BIND_SERVICE and sees only /etc
                 * and /run of the host (its API socket must then be under /run); a user's
                 * cannot make the mount namespace */
                if (geteuid() == 0 && (!h->dir[0] || !strncmp(h->dir, "/run/", 5)))
                        arg(a, "--enable-sandbox");
                arg(a, "--enable-seccomp");
                arg(a, "--ready-fd=3");
                arg(a, "--exit-fd=4");
                if (h->dir[0])
                        arg(a, "--api-socket=%s/api.sock", h->dir);
                arg(a, "--netns-type=path");
                if (p->userns && !id->drop)
                        arg(a, "--userns-path=/proc/%d/ns/user", (int)pid);
                arg(a, "%s", netns);
                arg(a, "tap0");
        } else {
                /* root (of the container's user namespace, or host root with user = no): pasta
                 * would change to nobody, who cannot open our namespaces */
                if (geteuid() == 0 || id->drop)
                        arg(a, "--runas=0:0");
                arg(a, "--quiet");
                arg(a, "--foreground");
                arg(a, "--config-net");
                arg(a, "--pid=/proc/self/fd/3");
                arg(a, "--dns-forward=%s", NET_PASTA_DNS);
                arg(a, "--netns=%s", netns);
                if (p->userns && !id->drop)
                        arg(a, "--userns=/proc/%d/ns/user", (int)pid);
                else
                        arg(a, "--netns-only");
                if (!p->host_loopback) {
                        arg(a, "--no-map-gw");
                        arg(a, "-T");
                        arg(a, "none");
                        arg(a, "-U");
                        arg(a, "none");
                }
                size_t tcp = 0, udp = 0;
                for (size_t i = 0; i < p->nports; i++) {
                        const struct spec_port *port = &p->ports[i];
                        arg(a, "%s", port->udp ? "-u" : "-t");
                        arg(a, "%s/%u:%u", port->addr, port->host_port, port->port);
                        *(port->udp ? &udp : &tcp) += 1;
                }
                if (!tcp) {
                        arg(a, "-t");
                        arg(a, "none");
                }
                if (!udp) {
                        arg(a, "-u");
                        arg(a, "none");
                }
        }
        a->v[a->n] = NULL;
}

/* Helper, root's container in a user namespace, before exec: its own /dev/net/tun (the host's
 * may be 0600, root's), the container's root's ids, no supplementary group. In a mount
 * namespace of its own (nothing propagates to the host), a tmpfs over /dev/net holds a tun node
 * owned by the helper's uid; then the container's user namespace is joined (from here on every
 * capability is over the container's namespaces only) and id 0 there taken, which is the
 * container's root on the host. 0, or -1 with errno and what failed in `what`. */
static int become_container_root(const struct nethelper_identity *id, int userns, const char **what)
{
        *what = "unshare(CLONE_NEWNS)";
        if (unshare(CLONE_NEWNS) < 0)
                return -1;
        *what = "mount / private";
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                return -1;
        *what = "mount a tmpfs on /dev/net";
        if (mount("tmpfs", "/dev/net", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=4k") < 0)
                return -1;
        *what = "mknod /dev/net/tun";
        if (mknod("/dev/net/tun", S_IFCHR | 0600, makedev(10, 200)) < 0 ||
            chown("/dev/net/tun", id->uid, id->gid) < 0)
                return -1;
        /* pasta opens it again by /proc/self/fd/3: a pipe's inode is its maker's, 0600 */
        *what = "fchown the ready pipe";
        if (fchown(3, id->uid, id->gid) < 0)
                return -1;
        *what = "setgroups(0, NULL)";
        if (setgroups(0, NULL) < 0)
                return -1;
        *what = "setresgid";
        if (setresgid(id->rgid, id->gid, id->gid) < 0)
                return -1;
        *what = "setns(the container's user namespace)";
        if (setns(userns, CLONE_NEWUSER) < 0)
                return -1;
        *what = "setresuid(0) in the container's user namespace";
        if (setresuid(0, 0, 0) < 0)
                return -1;
        *what = "the ids taken";
        if (geteuid() != 0 || getegid() != 0) /* the parent checked the maps: never expected */
                return errno = EPERM, -1;
        return 0;
}

/* The helper's process: a session of its own, no signal blocked, SIGKILL when we die, stdio
 * as said above, fds 3, 4 and NETNS_FD as build_args says, nothing else; root's container in a
 * user namespace: as the container's root (become_container_root). Never returns. */
static _Noreturn void exec_helper(const struct args *a, const struct nethelper_identity *id,
                                  pid_t parent, int ready, int exitfd, int log, int userns,
                                  int netns)
{
        static char *const env[] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL};
        sigset_t none;
        sigemptyset(&none);
        signal(SIGPIPE, SIG_DFL);
        sigprocmask(SIG_SETMASK, &none, NULL);
        setsid();
        int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        /* above every fd we are about to fill, so none is overwritten before it is moved */
        int r = fcntl(ready, F_DUPFD_CLOEXEC, 10),
            e = exitfd >= 0 ? fcntl(exitfd, F_DUPFD_CLOEXEC, 10) : -1,
            n = netns >= 0 ? fcntl(netns, F_DUPFD_CLOEXEC, 10) : -1,
            u = userns >= 0 ? fcntl(userns, F_DUPFD_CLOEXEC, 10) : -1;
        int l = fcntl(log, F_DUPFD_CLOEXEC, 10);
        if (null < 0 || r < 0 || l < 0 || dup2(null, 0) < 0 || dup2(l, 1) < 0 || dup2(l, 2) < 0 ||
            dup2(r, 3) < 0 || (e >= 0 && dup2(e, 4) < 0) || (n >= 0 && dup2(n, NETNS_FD) < 0))
                _exit(127);
        if (e < 0)
                close(4);
        if (n < 0)
                close(NETNS_FD);
        const char *what;
        if (id->drop && become_container_root(id, u, &what) < 0) {
                dprintf(2, "crib: %s: %s\n", what, strerror(errno));
                _exit(127);
        }
        /* after the ids changed, which clears it */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
                _exit(127);
        closefrom(NETNS_FD + 1);
        execve(a->v[0], a->v, env);
        _exit(127);
}

static uint64_t now_ms(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Wait until `fd` is readable, the helper dies, a signal asks crib to stop, or `ms` pass. */
static int wait_for(const struct plan *p, struct nethelper *h, int fd, short events, int sigfd,
                    unsigned ms, const char *what, struct error *err)
{
        uint64_t end = now_ms() + ms;
        for (;;) {
                uint64_t now = now_ms();
                if (now >= end)
                        return helper_failed(p, h, what, err);
                struct pollfd pfd[2] = {{.fd = fd, .events = events},
                                        {.fd = sigfd, .events = POLLIN}};
                int n = poll(pfd, sigfd >= 0 ? 2 : 1, (int)(end - now));
                if (n < 0 && errno != EINTR)
                        return error_set(err, errno, "poll");
                if (n > 0 && pfd[0].revents)
                        return 0;
                if (n > 0 && sigfd >= 0 && pfd[1].revents) {
                        struct signalfd_siginfo si;
                        int stop = 0;
                        while (read(sigfd, &si, sizeof si) == (ssize_t)sizeof si)
                                if (si.ssi_signo != SIGCHLD)
                                        stop = (int)si.ssi_signo;
                        if (stop)
                                return error_set(err, EINTR,
                                                 "crib was asked to stop (%s) while the network "
                                                 "helper started",
                                                 sigabbrev_np(stop));
                }
                if (nethelper_reap(h)) {
                        char why[64];
                        snprintf(why, sizeof why, "exited (status %d) before it was ready",
                                 WIFEXITED(h->status) ? WEXITSTATUS(h->status)
                                                      : 128 + WTERMSIG(h->status));
                        return helper_failed(p, h, why, err);
                }
        }
}

/* One command on slirp4netns's API socket: add_hostfwd for `port`. */
static int add_hostfwd(const struct plan *p, struct nethelper *h, const struct spec_port *port,
                       int sigfd, struct trace *t, struct error *err)
{
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        snprintf(a.sun_path, sizeof a.sun_path, "%s/api.sock", h->dir);
        _cleanup_close_ int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a) < 0)
                return error_set(err, errno, "cannot reach slirp4netns's API socket '%s'",
                                 a.sun_path);
        json_object *args = json_object_new_object(), *cmd = json_object_new_object();
        json_object_object_add(args, "proto", json_object_new_string(nethelper_proto(port)));
        json_object_object_add(args, "host_addr", json_object_new_string(port->addr));
        json_object_object_add(args, "host_port", json_object_new_int(port->host_port));
        json_object_object_add(args, "guest_port", json_object_new_int(port->port));
        json_object_object_add(cmd, "execute", json_object_new_string("add_hostfwd"));
        json_object_object_add(cmd, "arguments", args);
        const char *text = json_object_to_json_string_ext(cmd, JSON_C_TO_STRING_PLAIN);
        int sent = sys_write_all(s, text, strlen(text));
        trace_line(t, "  slirp4netns API: %s", text);
        json_object_put(cmd);
        if (sent < 0 || shutdown(s, SHUT_WR) < 0)
                return error_set(err, errno, "cannot write to slirp4netns's API socket");
        char reply[1024];
        size_t got = 0;
        for (;;) {
                if (wait_for(p, h, s, POLLIN, sigfd, API_MS, "did not answer on its API socket",
                             err) < 0)
                        return -1;
                ssize_t n = read(s, reply + got, sizeof reply - 1 - got);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0 || (got += (size_t)n) == sizeof reply - 1)
                        break;
        }
        reply[got] = '\0';
        trace_line(t, "  slirp4netns API: %s", reply);
        json_object *r = json_tokener_parse(reply), *v, *desc;
        bool ok = r && json_object_object_get_ex(r, "return", &v);
        char why[256] = "no answer";
        if (!ok && r && json_object_object_get_ex(r, "error", &v) &&
            json_object_object_get_ex(v, "desc", &desc))
                snprintf(why, sizeof why, "%s", json_object_get_string(desc));
        json_object_put(r);
        if (!ok)
                return error_at(err, p->spec_path, port->line,
                                "slirp4netns cannot publish host port %s:%u/%s: %s", port->addr,
                                port->host_port, nethelper_proto(port), why);
        return 0;
}

int nethelper_start(const struct plan *p, pid_t pid, int cgroup_fd, int sigfd, struct nethelper *h,
                    struct trace *t, struct error *err)
{
        if (!p->net_helper)
                return 0;
        _cleanup_close_ int ready_r = -1, ready_w = -1, exit_r = -1, userns = -1, netns = -1;
        struct nethelper_identity id;
        if (nethelper_identity(p, &id, err) < 0)
                return -1;
        if (netns_by_fd(p, &id)) {
                /* opened here, as host root: the helper could not (netns_by_fd) */
                char path[64];
                snprintf(path, sizeof path, "/proc/%d/ns/user", (int)pid);
                if (id.drop && (userns = open(path, O_RDONLY | O_CLOEXEC)) < 0)
                        return error_set(err, errno, "cannot open '%s' for the network helper",
                                         path);
                snprintf(path, sizeof path, "/proc/%d/ns/net", (int)pid);
                netns = open(path, O_RDONLY | O_CLOEXEC);
                if (netns < 0)
                        return error_set(err, errno, "cannot open '%s' for the network helper",
                                         path);
        }
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) < 0)
                return error_set(err, errno, "cannot make a pipe");
        ready_r = fds[0], ready_w = fds[1];
        if (p->net_mode == SPEC_NET_SLIRP4NETNS) {
                if (pipe2(fds, O_CLOEXEC) < 0)
                        return error_set(err, errno, "cannot make a pipe");
                exit_r = fds[0], h->exit_w = fds[1];
                if (p->nports && make_dir(p, &id, h, err) < 0)
                        return -1;
        }
        h->log = memfd_create("crib-nethelper", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (h->log < 0)
                return error_set(err, errno, "cannot make a memfd for the helper's messages");
        struct args a = {.n = 0};
        build_args(p, &id, pid, h, &a);
        if (a.full)
                return error_set(err, E2BIG, "the network helper's command line is too long");
        char line[2048] = "";
        for (size_t i = 0; i < a.n; i++)
                snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", i ? " " : "",
                         a.v[i]);
        pid_t parent = getpid();
        uint64_t t0 = trace_now_us();
        h->pid = cgroup_fd >= 0 ? cgroup_clone_into(cgroup_fd, 0) : fork();
        if (h->pid == 0)
                exec_helper(&a, &id, parent, ready_w, exit_r, h->log, userns, netns);
        if (h->pid < 0)
                return error_set(err, errno, "cannot start the network helper");
        if (id.drop)
                trace_line(t,
                           "  the helper: own /dev/net/tun, setns(user), uid %u gid %u (the "
                           "container's root)",
                           (unsigned)id.uid, (unsigned)id.gid);
        trace_line(t, "  %s = %d; execve(\"%s\")",
                   cgroup_fd >= 0 ? "clone3(CLONE_INTO_CGROUP)" : "fork()", (int)h->pid, line);
        close(ready_w);
        ready_w = -1;
        if (wait_for(p, h, ready_r, POLLIN, sigfd, READY_MS, "did not get ready in 15 s", err) < 0)
                return -1;
        char buf[32];
        ssize_t n = read(ready_r, buf, sizeof buf);
        if (n <= 0) { /* closed without a word: it is dying */
                for (int i = 0; i < 100 && !nethelper_reap(h); i++)
                        usleep(10000);
                return helper_failed(p, h, "exited before it was ready", err);
        }
        trace_line(t, "  the helper is ready  %llu us", (unsigned long long)(trace_now_us() - t0));
        for (size_t i = 0; h->dir[0] && i < p->nports; i++)
                if (add_hostfwd(p, h, &p->ports[i], sigfd, t, err) < 0)
                        return -1;
        /* the ports are set: the socket is not needed, and its directory goes */
        remove_dir(h);
        /* from now on the helper may write only so much more */
        struct stat st;
        if (fstat(h->log, &st) == 0 && ftruncate(h->log, st.st_size + LOG_KEEP) == 0)
                fcntl(h->log, F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SEAL);
        return 0;
}

bool nethelper_reap(struct nethelper *h)
{
        if (h->pid <= 0 || waitpid(h->pid, &h->status, WNOHANG) != h->pid)
                return false;
        h->pid = -1;
        h->died = true;
        return true;
}

void nethelper_describe(const struct nethelper *h, char *buf, size_t len)
{
        char all[512];
        read_log(h->log, all, sizeof all);
        const char *log = strrchr(all, '\n') ? strrchr(all, '\n') + 1 : all; /* its last words */
        snprintf(buf, len,
                 "the network helper exited (%s %d) while the container runs: it has no "
                 "network now%s%s",
                 WIFSIGNALED(h->status) ? "signal" : "status",
                 WIFSIGNALED(h->status) ? WTERMSIG(h->status) : WEXITSTATUS(h->status),
                 log[0] ? "; it said: " : "", log);
}

void nethelper_stop(struct nethelper *h, struct trace *t)
{
        if (h->pid > 0) {
                kill(h->pid, SIGKILL);
                while (waitpid(h->pid, &h->status, 0) < 0 && errno == EINTR)
                        ;
                trace_line(t, "  kill(%d, SIGKILL); waitpid() = %d", (int)h->pid, (int)h->pid);
                h->pid = -1;
        }
        remove_dir(h);
        if (h->exit_w >= 0)
                close(h->exit_w);
        if (h->log >= 0)
                close(h->log);
        h->exit_w = h->log = -1;
}
