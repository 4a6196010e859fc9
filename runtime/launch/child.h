/* child.h - the container's processes as crib starts them: the clone child's entry (child.c)
 * and crib's init (init.c).
 *
 * The setup process is the clone(2) child: pid 1 of the new pid namespace when there is one.
 * It runs the setup table (child.c), then starts the workload's process, which runs the
 * workload's table and execs (with init = no it runs that table itself); the setup process
 * stays as crib's init. What a step is, and what the steps share, is the contract one layer
 * down (steps/step.h), included here.
 */
#ifndef CRIB_CHILD_H
#define CRIB_CHILD_H

#include <signal.h>

#include "base/error.h"
#include "plan/plan.h"
#include "steps/step.h"

/* The signals crib passes on to the workload: the parent blocks them before the clone and
 * forwards them to the setup process, crib's init forwards them to the workload (follow.c).
 * Fills `ret` with them. */
void forwarded_signals(sigset_t *ret);

/* Child: run the setup table, then the workload's table (in a process of its own when crib's
 * init stays as pid 1), and exec the workload; never returns. */
_Noreturn void child_main(const struct plan *plan, int sync_fd, const struct launch_fds *fds);

/* Child, init.c: the setup process, after its table (init = yes). Start the workload's process,
 * which runs `workload` and execs; this process stays as crib's init, pid 1, and never returns.
 * Returns -1 only when the workload's process cannot be started. */
int init_start(struct child *c, const struct table *workload, struct error *err);

/* Child, init.c: the workload's process, the row before its exec: tell crib's init the setup is
 * done, and wait until init has let go of everything. */
int step_wait_init(struct child *c, struct error *err);

#endif
