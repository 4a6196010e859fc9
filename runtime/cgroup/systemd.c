/* systemd.c - a delegated cgroup from the user's systemd, for a user whose own is not.
 *
 * Kernel features: none of its own; cgroup v2 as in tree.c. systemd's: a transient scope
 * with Delegate=yes (systemd.resource-control(5)) made by the user's manager on request
 * (crib-scope, over D-Bus), which moves crib's process into a cgroup that belongs to the
 * user. crib then moves itself one level down (SCOPE/supervisor: cgroup v2 gives controllers
 * only to the children of a cgroup without processes of its own) and makes the container's
 * cgroup beside it (SCOPE/crib-NAME). The scope ends when its last process does (crib's, after
 * the container's), and systemd removes it (CollectMode=inactive-or-failed). Whether the
 * user's systemd can give one (its bus, crib-scope) is a host fact: host/cgroupfacts.c.
 *
 *   user@UID.service/app.slice/crib-NAME-PID.scope/supervisor     crib (or its monitor)
 *   user@UID.service/app.slice/crib-NAME-PID.scope/crib-NAME      the container
 *
 * And where crib is a unit's main process (`crib generate systemd`'s units, Delegate=yes),
 * its own cgroup is the unit's, delegated to it (host/cgroupfacts.c tells): crib moves one
 * level down in it the same way, and the container's cgroup goes beside it, inside the unit,
 * so that systemctl stop's SIGKILL at the timeout and the unit's limits reach it:
 *
 *   system.slice/crib-NAME.service/supervisor      crib        (a user's: user@UID.service/
 *   system.slice/crib-NAME.service/NAME            the container      app.slice/..., crib-NAME)
 */
#define _GNU_SOURCE
#include "cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/sys.h"

int cgroup_systemd_scope(const char *name, struct trace *t, char *ret_base, size_t len,
                         struct error *err)
{
        char unit[160], desc[160], pid[16], own[1100], helper[512];
        /* found again here, never taken from a plan file: it runs outside every namespace */
        if (!cgroup_scope_helper(helper, sizeof helper))
                return error_set(err, ENOENT, "crib-scope is not installed beside crib");
        snprintf(unit, sizeof unit, "crib-%s-%d.scope", name, (int)getpid());
        snprintf(desc, sizeof desc, "crib container %s", name);
        snprintf(pid, sizeof pid, "%d", (int)getpid());
        pid_t child = fork();
        if (child < 0)
                return error_set(err, errno, "cannot fork");
        if (child == 0) {
                /* its errors go to our stderr, which the caller shows (a monitor's: the log) */
                execl(helper, helper, unit, pid, desc, (char *)NULL);
                _exit(127);
        }
        int st;
        while (waitpid(child, &st, 0) < 0 && errno == EINTR)
                ;
        trace_line(t, "  %s %s %s: exit %d", helper, unit, pid,
                   WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
        if (!WIFEXITED(st) || WEXITSTATUS(st)) {
                error_set(err, 0, "your systemd did not give crib a delegated cgroup (scope '%s')",
                          unit);
                return error_hint(err, "see crib-scope's message above; or run crib in a "
                                       "delegated scope yourself: systemd-run --user --scope -p "
                                       "Delegate=yes, in front of the command that starts it "
                                       "(crib run ..., podman run ...)");
        }
        /* where systemd put us: the scope; then one level down, so the scope may hand out
         * its controllers */
        _cleanup_close_ int self = open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (self < 0 || cgroup_of(self, own, sizeof own) < 0)
                return error_set(err, errno, "cannot find crib's cgroup after systemd moved it");
        /* the scope asked for, in the user's manager's subtree, the user's own */
        char mine[1000];
        struct stat sst;
        snprintf(mine, sizeof mine, "/user.slice/user-%u.slice/user@%u.service/",
                 (unsigned)geteuid(), (unsigned)geteuid());
        size_t ol = strlen(own), ul = strlen(unit);
        if (ol <= ul || own[ol - ul - 1] != '/' || strcmp(own + ol - ul, unit) ||
            !strstr(own, mine) || strstr(own, "/..") || stat(own, &sst) < 0 ||
            sst.st_uid != geteuid())
                return error_set(err, EPERM,
                                 "systemd put crib in '%s', not in a scope '%s' of yours", own,
                                 unit);
        snprintf(ret_base, len, "%s", own);
        char sup[1200];
        snprintf(sup, sizeof sup, "%s/supervisor", own);
        if (mkdir(sup, 0755) < 0 && errno != EEXIST)
                return error_set(err, errno, "cannot make the cgroup '%s'", sup);
        snprintf(sup, sizeof sup, "%s/supervisor/cgroup.procs", own);
        _cleanup_close_ int fd = open(sup, O_WRONLY | O_CLOEXEC);
        if (fd < 0 || sys_write_all(fd, pid, strlen(pid)) < 0)
                return error_set(err, errno, "cannot move crib into '%s'", sup);
        trace_line(t, "  systemd's scope: %s; crib moved to its supervisor cgroup", own);
        return 0;
}

int cgroup_unit_enter(const char *unit, struct trace *t, struct error *err)
{
        char sup[1200], pid[16];
        snprintf(pid, sizeof pid, "%d", (int)getpid());
        snprintf(sup, sizeof sup, "%s/supervisor", unit);
        if (mkdir(sup, 0755) < 0 && errno != EEXIST)
                return error_set(err, errno, "cannot make the cgroup '%s'", sup);
        snprintf(sup, sizeof sup, "%s/supervisor/cgroup.procs", unit);
        _cleanup_close_ int fd = open(sup, O_WRONLY | O_CLOEXEC);
        if (fd < 0 || sys_write_all(fd, pid, strlen(pid)) < 0)
                return error_set(err, errno, "cannot move crib into '%s'", sup);
        trace_line(t,
                   "  the unit's cgroup %s is delegated to crib (Delegate=yes): crib moved to "
                   "its supervisor cgroup, the container's goes beside it",
                   unit);
        return 0;
}
