/* creds.c - who the container's processes are: ids, groups, parent-death signal, umask, cwd.
 *
 * Kernel features: setresuid(2)/setresgid(2)/setgroups(2) inside the user namespace (the ids
 * are the container's, translated through the id maps), prctl(2) PR_SET_PDEATHSIG, umask(2),
 * chdir(2), and getcwd(2), which says "(unreachable)" for a working directory outside the
 * process's root.
 *
 * What goes wrong: an id the maps do not cover is EINVAL (the plan checks that first);
 * setgroups(2) is EPERM after "deny" was written to /proc/PID/setgroups, which an unprivileged
 * single-id map requires; any change of credentials clears the parent-death signal, so it is
 * set again after each. The working directory is a path the container (its image) chooses:
 * one that leads outside its root, through a link of /proc to a descriptor of the host, would
 * give the workload the host's files (CVE-2024-21626). No such descriptor is open by then
 * (fds.c), and the directory is checked after the chdir, as runc checks it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "step.h"
#include "base/sys.h"

/* Child: the maps are written. The clone child starts as the overflow id until then; now it
 * takes id 0 of the namespace, when 0 is mapped, so the files it creates belong to root. */
int step_become_root(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        if (!p->userns)
                return step_skip(c, "no user namespace (user = no): crib's ids are the host's");
        if (idmap_outside(&p->gidmap, 0) >= 0) {
                int r = setresgid(0, 0, 0);
                trace_line(&c->trace, "  setresgid(0, 0, 0) = %d", r);
                if (r < 0)
                        return error_set(err, errno, "cannot become gid 0 in the user namespace");
        }
        if (idmap_outside(&p->uidmap, 0) >= 0) {
                int r = setresuid(0, 0, 0);
                trace_line(&c->trace, "  setresuid(0, 0, 0) = %d", r);
                if (r < 0)
                        return error_set(err, errno, "cannot become uid 0 in the user namespace");
        }
        return 0;
}

/* Child: make the kernel kill us when our parent dies, then check it is still there (it could
 * have died just before). The setup's step, and again after each change of ids. */
static int parent_death(struct child *c, struct error *err)
{
        int r = prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        trace_line(&c->trace, "  prctl(PR_SET_PDEATHSIG, SIGKILL) = %d", r);
        if (r < 0)
                return error_set(err, errno, "cannot set the parent-death signal");
        struct pollfd pfd = {.fd = c->chan.fd, .events = POLLIN};
        if (c->chan.fd >= 0 && poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLHUP | POLLERR)))
                _exit(125); /* the parent is gone: nobody to report to */
        return 0;
}

/* Child: the setup process, once it is root in the user namespace. */
int step_parent_death(struct child *c, struct error *err)
{
        return parent_death(c, err);
}

/* Child: the workload's process, the last change of ids before exec. */
int step_switch_user(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        if (p->set_groups) {
                int r = setgroups(p->ngroups, p->groups);
                trace_line(&c->trace, "  setgroups(%zu, [...]) = %d", p->ngroups, r);
                if (r < 0)
                        return error_set(err, errno, "cannot set the supplementary groups");
        }
        int r = setresgid(p->gid, p->gid, p->gid);
        trace_line(&c->trace, "  setresgid(%u, %u, %u) = %d", p->gid, p->gid, p->gid, r);
        if (r < 0)
                return error_set(err, errno, "cannot switch to gid %u", p->gid);
        r = setresuid(p->uid, p->uid, p->uid);
        trace_line(&c->trace, "  setresuid(%u, %u, %u) = %d", p->uid, p->uid, p->uid, r);
        if (r < 0)
                return error_set(err, errno, "cannot switch to uid %u", p->uid);
        /* the change of credentials cleared the parent-death signal */
        return parent_death(c, err);
}

/* Child: the workload's process, as the container user, so cwd is checked with its rights. */
int step_umask_cwd(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        umask(p->umask);
        trace_line(&c->trace, "  umask(0%03o)", (unsigned)p->umask);
        if (sys_chdir(&c->trace, p->cwd, err) < 0) {
                if (err->errnum == ENOENT)
                        return error_set(err, ENOENT,
                                         "working directory '%s' does not exist in the container",
                                         p->cwd);
                return error_wrap(err, "working directory");
        }
        /* the kernel's own answer, not glibc's (which turns "(unreachable)" into ENOENT) */
        char cwd[PATH_MAX];
        long n = syscall(SYS_getcwd, cwd, sizeof cwd);
        if (n < 0)
                return error_set(err, errno, "cannot check the working directory '%s'", p->cwd);
        if (cwd[0] != '/') {
                error_set(err, 0, "working directory '%s' is outside the container's root", p->cwd);
                return error_hint(err, "the working directory must be a directory of the "
                                       "container; a link of /proc that leads elsewhere is "
                                       "refused");
        }
        return 0;
}
