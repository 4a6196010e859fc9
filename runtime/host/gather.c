/* gather.c - the host's facts that planning depends on (struct plan_host, host.h): the ids crib
 * runs as, its terminal and $TERM, the kernel's and crib's own capabilities and limits, and
 * which kernel features there are. Asked once, here, by cmd/ before plan_build(), so that
 * plan.c reads no process state of its own (the descriptors the spec passes on included).
 * Only reads: nothing is changed.
 *
 * Given the spec, only the facts planning that spec looks at are asked: system calls are not
 * free (reading the bounding set is one prctl(2) per capability), and crib's start time is
 * one of its measures. */
#define _GNU_SOURCE
#include "host.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "kernel.h"
#include "lsm.h"
#include "base/procfile.h"

/* Whether crib itself holds CAP_SYS_RESOURCE (root usually does; a root inside another
 * container may not), which raising a hard limit needs. */
static bool has_sys_resource(void)
{
        struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
        struct __user_cap_data_struct d[2];
        if (syscall(SYS_capget, &h, d) < 0)
                return false;
        return d[CAP_SYS_RESOURCE / 32].effective & (1u << (CAP_SYS_RESOURCE % 32));
}

void plan_host_gather(const struct spec *s, struct plan_host *h)
{
        /* without a spec, everything; with one, what planning it looks at */
        bool any_limit = false;
        for (int r = 0; s && r < SPEC_NLIMITS; r++)
                any_limit |= s->limits[r].set;

        memset(h, 0, sizeof *h);
        h->uid = getuid();
        h->euid = geteuid();
        h->gid = getgid();
        h->egid = getegid();
        /* Root's plan depends on the user namespace crib runs in: root of the host, or root
         * of a namespace of its own (unshare -r). A user's does not, and the lookup walks
         * /proc/self, whose entries are new for every process: the dearest of these facts. */
        bool setgroups_matters;
        if (!s || h->euid == 0) {
                h->initial_userns = userns_is_initial();
                setgroups_matters = !h->initial_userns;
                /* what root of this namespace may map into a nested one: what is mapped here */
                struct error ignored;
                _cleanup_fclose_ FILE *fu = NULL, *fg = NULL;
                if (!h->initial_userns && (!s || s->uidmap.n > 0) &&
                    (fu = fopen("/proc/self/uid_map", "re")))
                        idmap_read_own(fu, h->own_uids, &h->nown_uids, &ignored);
                if (!h->initial_userns && (!s || s->gidmap.n > 0) &&
                    (fg = fopen("/proc/self/gid_map", "re")))
                        idmap_read_own(fg, h->own_gids, &h->nown_gids, &ignored);
        } else {
                /* only a gid map newgidmap writes may allow setgroups; only the spec's makes one */
                setgroups_matters = s->gidmap.is_auto || s->gidmap.n > 0;
        }
        /* "deny" when a user namespace crib runs in denies setgroups(2) (unshare -r); the
         * initial one always allows it */
        if (setgroups_matters) {
                char sg[16] = "";
                _cleanup_fclose_ FILE *fsg = fopen("/proc/self/setgroups", "re");
                if (fsg && !fgets(sg, sizeof sg, fsg))
                        sg[0] = '\0';
                h->setgroups_denied = !strncmp(sg, "deny", 4);
        }

        h->stdin_tty = isatty(STDIN_FILENO);
        for (int fd = 0; fd < 3; fd++) {
                struct stat st;
                h->stdio_chr[fd] = fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) ? st.st_rdev : 0;
        }
        h->closed_fd = -1;
        for (size_t i = 0; s && i < s->npass_fds && h->closed_fd < 0; i++)
                if (fcntl(s->pass_fds[i], F_GETFD) < 0)
                        h->closed_fd = s->pass_fds[i];
        h->term = getenv("TERM");
        /* the limits, a device program (a real-root container's, an OCI config's rules) and
         * an engine's cgroupsPath need a cgroup */
        if (!s || s->resources.need || !s->ns_user || s->cgroups_path || s->dev_rules_set)
                cgroup_host_gather(&h->cgroup);

        /* the file, not a prctl(2) probe: it is the kernel's interface for this, and the
         * tests stand in an older kernel by binding another number over it (08-hardening.t) */
        long last = procfile_long("/proc/sys/kernel/cap_last_cap");
        h->cap_last = last > 0 && last < 64 ? (int)last : CAP_LAST_CAP;
        if (!s || !s->ns_user) {
                h->cap_bounding_known = true;
                for (int c = 0; c <= h->cap_last; c++)
                        if (prctl(PR_CAPBSET_READ, c, 0, 0, 0) == 1)
                                h->cap_bounding |= 1ULL << c;
        }
        if (!s || any_limit)
                h->cap_sys_resource = has_sys_resource();
        for (int r = 0; r < SPEC_NLIMITS; r++)
                if (!s || s->limits[r].set)
                        h->rlimit_known[r] = getrlimit(r, &h->rlimits[r]) == 0;

        if (s)
                host_gather_nsfiles(s, h);
        h->idmapped_mounts = userns_idmap_supported();
        h->seccomp_filters = seccomp_kernel_supported();
        h->apparmor = apparmor_available(h->apparmor_why, sizeof h->apparmor_why, h->apparmor_fix,
                                         sizeof h->apparmor_fix, NULL);
}
