/* bindsrc.h - root's detached copies of the bind sources, opened by the parent before the
 * clone. */
#ifndef CRIB_BINDSRC_H
#define CRIB_BINDSRC_H

#include "base/error.h"
#include "plan/plan.h"
#include "steps/step.h"

/* Root: open a detached copy of every bind source's mount tree into fds->src. 0, or -1 with
 * err set. */
int launch_open(const struct plan *p, struct launch_fds *fds, struct error *err);
/* Close what launch_open opened. */
void launch_close(const struct plan *p, struct launch_fds *fds);

#endif
