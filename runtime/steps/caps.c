/* caps.c - the workload's capabilities: bounding, permitted, effective, inheritable, ambient.
 *
 * Kernel features: capabilities(7); prctl(2) PR_CAPBSET_DROP for the bounding set, capset(2)
 * for permitted/effective/inheritable, PR_CAP_AMBIENT (Linux 4.3) for the ambient set, and
 * PR_SET_KEEPCAPS so the permitted set survives the switch to a non-root user.
 *
 * Where it sits: the bounding set shrinks before the id switch, while the process still holds
 * CAP_SETPCAP; the other sets are set after it, because setresuid(2) to a non-root id clears
 * the effective set. The plan computed the sets (plan.c): root gets them from the bounding set
 * when it execs; another user gets them through the ambient set, which is why they are also
 * inheritable. In a user namespace all of this is relative to it: the caps act only on what
 * the namespace owns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "step.h"

static int count(uint64_t v)
{
        return __builtin_popcountll(v);
}

/* Drop from the bounding set every capability `keep` lacks and the set still has. Up to `last`,
 * the kernel's last as the parent read it (outside any filter of the container's), only a read
 * that says "not in the set" skips a drop, and a failed drop is an error: the container's
 * seccomp profile may answer PR_CAPBSET_READ or PR_CAPBSET_DROP with any errno, EINVAL too,
 * never with 0 (profiles name an errno). Past `last` (a cap_last_cap file that says less than
 * the kernel knows, as 08-hardening.t makes one) the drops go on until the kernel's EINVAL.
 * Reading costs a fraction of dropping: a drop builds new credentials, ~1.4 us on the
 * development machine. The number dropped, or -1 with `err` set. */
int caps_bounding_drop_all_but(uint64_t keep, int last, struct error *err)
{
        int dropped = 0;
        for (int cap = 0; cap < 64; cap++) {
                if (keep & (1ULL << cap))
                        continue;
                if (cap <= last && prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 0)
                        continue;
                if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) {
                        if (cap > last && errno == EINVAL)
                                break;
                        return error_set(err, errno,
                                         "cannot drop capability %d from the bounding set", cap);
                }
                dropped++;
        }
        return dropped;
}

/* Child: the setup process, before crib's init starts the workload's process: the bounding
 * set both of them keep is the container's, so each drops only what it has beyond that. */
int step_bounding_set_early(struct child *c, struct error *err)
{
        int dropped = caps_bounding_drop_all_but(c->plan->cap_bounding, c->plan->cap_last, err);
        if (dropped < 0)
                return -1;
        trace_line(&c->trace,
                   "  prctl(PR_CAPBSET_DROP, ...) for %d capabilities; keeping %d (%#llx), "
                   "which crib's init drops when it lets go",
                   dropped, count(c->plan->cap_bounding),
                   (unsigned long long)c->plan->cap_bounding);
        return 0;
}

/* Child: the workload's process, before the switch to the container user. The setup dropped
 * the rest already, unless the process is in a user namespace of its own since (lockmounts.c:
 * a new user namespace starts with a full bounding set) or joined the container (enter.c). */
int step_bounding_set(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        int dropped = caps_bounding_drop_all_but(p->cap_bounding, p->cap_last, err);
        if (dropped < 0)
                return -1;
        trace_line(&c->trace,
                   "  prctl(PR_CAPBSET_DROP, ...) for %d capabilities; keeping %d (%#llx)", dropped,
                   count(p->cap_bounding), (unsigned long long)p->cap_bounding);
        if (p->uid != 0) {
                /* keep the permitted set across setresuid to a non-root id */
                int r = prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
                trace_line(&c->trace, "  prctl(PR_SET_KEEPCAPS, 1) = %d", r);
                if (r < 0)
                        return error_set(err, errno,
                                         "cannot keep capabilities across the id change");
        }
        return 0;
}

/* Child: the workload's process, after the switch to the container user. */
int step_capabilities(struct child *c, struct error *err)
{
        const struct plan *p = c->plan;
        struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
        struct __user_cap_data_struct d[2] = {
                {(uint32_t)p->cap_effective, (uint32_t)p->cap_permitted,
                 (uint32_t)p->cap_inheritable},
                {(uint32_t)(p->cap_effective >> 32), (uint32_t)(p->cap_permitted >> 32),
                 (uint32_t)(p->cap_inheritable >> 32)},
        };
        int r = (int)syscall(SYS_capset, &h, d);
        trace_line(&c->trace, "  capset(effective=%#llx, permitted=%#llx, inheritable=%#llx) = %d",
                   (unsigned long long)p->cap_effective, (unsigned long long)p->cap_permitted,
                   (unsigned long long)p->cap_inheritable, r);
        if (r < 0)
                return error_set(err, errno, "cannot set the capabilities");
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && p->cap_ambient)
                return error_set(err, errno, "cannot clear the ambient capabilities");
        for (int cap = 0; cap <= p->cap_last; cap++) {
                if (!(p->cap_ambient & (1ULL << cap)))
                        continue;
                if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0) {
                        error_set(err, errno, "cannot raise capability %d in the ambient set", cap);
                        if (errno == EINVAL)
                                error_hint(err, "ambient capabilities need Linux 4.3 or later");
                        return -1;
                }
        }
        if (p->cap_ambient)
                trace_line(&c->trace, "  prctl(PR_CAP_AMBIENT_RAISE, ...) for %d capabilities",
                           count(p->cap_ambient));
        return 0;
}
