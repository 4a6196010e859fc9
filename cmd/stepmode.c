/* stepmode.c - crib run --step, for people learning how a container is made: before each step
 * (crib's own from the clone on, then the container's setup from its third: the first two run
 * while crib writes the id maps), crib says which step comes, in which process (its pid on the
 * host), and the files under /proc/PID that show what the step will change; then it waits for
 * Enter on the terminal (q and Enter stops the container).
 *
 * What a pause can and cannot change: the steps run exactly as without --step, with the same
 * checks (the plan is made before the first pause, and the setup still opens the rootfs and the
 * bind sources by the descriptors it planned with); a pause only gives time. In that time the
 * user can do to the setup process what its owner can always do to it (read its /proc files;
 * until the step "make the setup process not dumpable" even ptrace it: it is the user's own
 * process, in the user's own container); nothing a pause allows reaches past what the user
 * could do without crib. */
#define _GNU_SOURCE
#include "stepmode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "output.h"

int stepmode_open(struct stepmode *s, struct error *err)
{
        s->tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
        if (s->tty < 0) {
                error_set(err, errno, "--step waits for Enter on a terminal, and there is none");
                return error_hint(err, "run crib run --step from a terminal (an ssh session "
                                       "or a console)");
        }
        return 0;
}

void stepmode_close(struct stepmode *s)
{
        if (s->tty >= 0)
                close(s->tty);
        s->tty = -1;
}

/* The files of /proc/PID that show what a step named `step` changes, most telling first */
static const char *look_at(const char *step)
{
        static const struct {
                const char *word, *files;
        } by_word[] = {
                {"id map", "uid_map gid_map status(Uid, Gid)"},
                {"root in the user", "status(Uid, Gid) uid_map"},
                {"mount", "mountinfo"},
                {"pivot_root", "mountinfo root"},
                {"rootfs", "mountinfo"},
                {"hide", "mountinfo"},
                {"capabilit", "status(CapInh, CapPrm, CapEff, CapBnd, CapAmb)"},
                {"bounding", "status(CapBnd)"},
                {"container user", "status(Uid, Gid, Groups, Cap*)"},
                {"no_new_privs", "status(NoNewPrivs)"},
                {"seccomp", "status(Seccomp, Seccomp_filters)"},
                {"AppArmor", "attr/current attr/exec"},
                {"cgroup", "cgroup"},
                {"dumpable", "status(Uid) and who owns the files of /proc/PID"},
                {"descriptor", "fd/"},
                {"close", "fd/"},
                {"hostname", "ns/uts"},
                {"loopback", "net/dev"},
                {"OOM", "oom_score_adj"},
                {"limits", "limits"},
                {"exec", "exe cmdline"},
        };
        for (size_t i = 0; i < sizeof by_word / sizeof by_word[0]; i++)
                if (strstr(step, by_word[i].word))
                        return by_word[i].files;
        return "ns/ status";
}

int stepmode_prompt(void *ctx, const char *step, pid_t pid)
{
        struct stepmode *s = ctx;
        output_line(stderr, "crib: step %s", step);
        output_line(stderr, "crib:   in pid %d on the host; look now at /proc/%d/: %s", (int)pid,
                    (int)pid, look_at(step));
        output_line(stderr, "crib:   (and ls -l /proc/%d/ns; cat /proc/%d/status)", (int)pid,
                    (int)pid);
        static const char ask[] = "crib:   Enter: run it; q and Enter: stop the container ";
        if (write(s->tty, ask, sizeof ask - 1) < 0)
                return -1;
        char line[64];
        ssize_t n;
        while ((n = read(s->tty, line, sizeof line - 1)) < 0 && errno == EINTR)
                ;
        if (n <= 0)
                return -1; /* the terminal is gone: nobody can say go on */
        line[n] = '\0';
        return line[0] == 'q' || line[0] == 'Q' ? -1 : 0;
}
