/* enter.h - a new process in a running container: `crib exec`. */
#ifndef CRIB_ENTER_H
#define CRIB_ENTER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "container.h"
#include "base/error.h"
#include "plan/execplan.h"
#include "find.h"
#include "plan/plan.h"

/* Run rq->argv in the container whose plan is `p` (the plan written when it started; the lead reads
 * it back with plan_from_bytes()). On success *ret_status is the wait status of the process; on
 * failure err->kind/exit status as for container_run (125 setup, 126 cannot execute, 127 not
 * found). */
int container_enter(const struct plan *p, const struct enter_request *rq,
                    const struct container_hooks *h, int *ret_status, struct error *err);

#endif
