/* nestns.h - the workload's user namespace and the network namespace it owns, made by the
 * parent before the setup's first mount (plan.nest_early). */
#ifndef CRIB_NESTNS_H
#define CRIB_NESTNS_H

#include "base/error.h"
#include "base/trace.h"
#include "plan/plan.h"
#include "steps/sync.h"

#include <sys/types.h>

/* Parent, for plan.nest_early (else it says why not and returns 0): a helper process of ours
 * joins the user namespace of `setup` (mapped, waiting for GO), becomes its root and starts a
 * process in a user namespace below it, with a network namespace, whose maps it writes (every
 * id of the namespace above as itself); we send both namespaces over `chan` (SYNC_NEST) and let
 * the helper exit. Returns the helper's pid, to be reaped once GO is sent (it exits on its own
 * meanwhile), 0 when skipped, or -1 with err set. */
pid_t nestns_make(const struct plan *p, pid_t setup, struct sync_chan *chan, const struct trace *t,
                  struct error *err);

#endif
