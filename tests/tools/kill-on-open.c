/* kill-on-open DIR -- COMMAND... - run COMMAND and SIGKILL it the moment it opens a file in DIR.
 *
 * For tests/e2e/13-faults.t: crib killed in the middle of writing its seccomp cache. A
 * fanotify(7) permission event (FAN_OPEN_PERM) holds the open until we answer, so the kill
 * lands after the file exists and before a byte is written, every time, which no timing can
 * do. Files COMMAND only tries to open and that do not exist make no event. Prints "killed at
 * PATH" or "not killed"; exits 0 when COMMAND was killed or ran to the end, 2 on a setup error.
 * Needs CAP_SYS_ADMIN (fanotify), so the test runs it as root only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
        if (argc < 4 || strcmp(argv[2], "--")) {
                fprintf(stderr, "usage: kill-on-open DIR -- COMMAND...\n");
                return 2;
        }
        int fan = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC, O_RDONLY | O_CLOEXEC);
        if (fan < 0 || fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN_PERM | FAN_EVENT_ON_CHILD,
                                     AT_FDCWD, argv[1]) < 0) {
                fprintf(stderr, "kill-on-open: fanotify on '%s': %s\n", argv[1], strerror(errno));
                return 2;
        }
        pid_t child = fork();
        if (child == 0) {
                execvp(argv[3], argv + 3);
                _exit(127);
        }
        char killed[PATH_MAX + 16] = "";
        int status;
        for (;;) {
                if (waitpid(child, &status, WNOHANG) == child)
                        break;
                struct pollfd pfd = {.fd = fan, .events = POLLIN};
                if (poll(&pfd, 1, 50) <= 0)
                        continue;
                char buf[4096] __attribute__((aligned(8)));
                ssize_t n = read(fan, buf, sizeof buf);
                for (struct fanotify_event_metadata *m = (void *)buf; n > 0 && FAN_EVENT_OK(m, n);
                     m = FAN_EVENT_NEXT(m, n)) {
                        if (m->fd < 0)
                                continue;
                        if (m->pid == child && !killed[0]) {
                                char link[64];
                                snprintf(link, sizeof link, "/proc/self/fd/%d", m->fd);
                                ssize_t k = readlink(link, killed, PATH_MAX);
                                killed[k > 0 ? k : 0] = '\0';
                                if (!killed[0])
                                        strcpy(killed, "?");
                                kill(child, SIGKILL); /* before it may go on with the open */
                        }
                        struct fanotify_response r = {.fd = m->fd, .response = FAN_ALLOW};
                        if (write(fan, &r, sizeof r) < 0)
                                perror("kill-on-open: fanotify response");
                        close(m->fd);
                }
        }
        if (killed[0])
                printf("killed at %s\n", killed);
        else
                printf("not killed (exit status %d)\n",
                       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        return 0;
}
