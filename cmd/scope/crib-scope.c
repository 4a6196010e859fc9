/* crib-scope UNIT PID DESCRIPTION - ask the caller's systemd user manager for a transient scope
 * named UNIT, holding PID, with Delegate=yes, and wait until it exists.
 *
 * crib runs it (runtime/cgroup/systemd.c) when an ordinary user's containers need a cgroup
 * (spec [resources]) and the user's own cgroup is not delegated to them, as in an ssh session
 * or a system service: systemd then moves PID (crib's own process) into a new cgroup that
 * belongs to the user, where crib makes the container's. crib is one static binary; this
 * helper is a program of its own because it links libsystemd (sd-bus), which Debian ships
 * only as a shared library.
 *
 * D-Bus: org.freedesktop.systemd1.Manager.StartTransientUnit(name, mode "fail", properties
 * [Description, PIDs, Delegate, CollectMode], aux []) on the user bus (sd_bus_open_user:
 * $DBUS_SESSION_BUS_ADDRESS, or $XDG_RUNTIME_DIR/bus), then the manager's JobRemoved signal
 * for the job it returned: "done" means the scope runs with PID in it.
 *
 * Exit status: 0 done; 1 systemd refused or the job failed (the reason on stderr); 2 the user
 * manager cannot be reached; 125 bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

struct job {
        const char *path; /* the job StartTransientUnit returned */
        char result[64];  /* its JobRemoved result, once seen */
        int seen;
};

static int on_job_removed(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        (void)error;
        struct job *j = userdata;
        uint32_t id;
        const char *path, *unit, *result;
        if (sd_bus_message_read(m, "uoss", &id, &path, &unit, &result) < 0)
                return 0;
        if (j->path && !strcmp(path, j->path)) {
                snprintf(j->result, sizeof j->result, "%s", result);
                j->seen = 1;
        }
        return 0;
}

static double now(void)
{
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
        if (argc != 4 || atol(argv[2]) <= 0) {
                fprintf(stderr, "usage: crib-scope UNIT PID DESCRIPTION\n");
                return 125;
        }
        const char *unit = argv[1], *desc = argv[3];
        uint32_t pid = (uint32_t)atol(argv[2]);
        sd_bus *bus = NULL;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message *m = NULL, *reply = NULL;
        struct job job = {0};
        int r = sd_bus_open_user(&bus);
        if (r < 0) {
                fprintf(stderr, "crib-scope: cannot reach your systemd user manager: %s\n",
                        strerror(-r));
                return 2;
        }
        /* before the call, so the signal cannot pass unseen */
        r = sd_bus_match_signal(bus, NULL, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                                "org.freedesktop.systemd1.Manager", "JobRemoved", on_job_removed,
                                &job);
        if (r >= 0)
                r = sd_bus_message_new_method_call(
                        bus, &m, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                        "org.freedesktop.systemd1.Manager", "StartTransientUnit");
        if (r >= 0)
                r = sd_bus_message_append(m, "ss", unit, "fail");
        if (r >= 0)
                r = sd_bus_message_open_container(m, 'a', "(sv)");
        if (r >= 0)
                r = sd_bus_message_append(m, "(sv)(sv)(sv)(sv)", "Description", "s", desc, "PIDs",
                                          "au", 1, pid, "Delegate", "b", 1, "CollectMode", "s",
                                          "inactive-or-failed");
        if (r >= 0)
                r = sd_bus_message_close_container(m);
        if (r >= 0)
                r = sd_bus_message_append(m, "a(sa(sv))", 0);
        if (r < 0) {
                fprintf(stderr, "crib-scope: cannot build the request: %s\n", strerror(-r));
                return 1;
        }
        r = sd_bus_call(bus, m, 0, &error, &reply);
        if (r < 0) {
                fprintf(stderr, "crib-scope: systemd refused the scope '%s': %s\n", unit,
                        error.message ? error.message : strerror(-r));
                return 1;
        }
        if (sd_bus_message_read(reply, "o", &job.path) < 0) {
                fprintf(stderr, "crib-scope: no job in systemd's answer\n");
                return 1;
        }
        /* the job's end: at most 30 s */
        double until = now() + 30;
        while (!job.seen && now() < until) {
                r = sd_bus_process(bus, NULL);
                if (r < 0)
                        break;
                if (r == 0)
                        sd_bus_wait(bus, 1000 * 1000);
        }
        if (!job.seen) {
                fprintf(stderr, "crib-scope: the scope '%s' did not start within 30 s\n", unit);
                return 1;
        }
        if (strcmp(job.result, "done")) {
                fprintf(stderr, "crib-scope: starting the scope '%s' ended with '%s'\n", unit,
                        job.result);
                return 1;
        }
        sd_bus_message_unref(reply);
        sd_bus_message_unref(m);
        sd_bus_unref(bus);
        return 0;
}
