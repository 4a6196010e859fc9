/* stepmode.h - crib run --step: before each step, what to look at from the host, and a wait
 * for Enter on the terminal (stepmode.c). */
#ifndef CRIB_STEPMODE_H
#define CRIB_STEPMODE_H

#include <sys/types.h>

#include "base/error.h"

struct stepmode {
        int tty; /* /dev/tty, read for the user's Enter */
};

/* Open the terminal the user answers on; -1 with `err` set when there is none. */
int stepmode_open(struct stepmode *s, struct error *err);
void stepmode_close(struct stepmode *s);
/* container_hooks.step: say what comes and what to look at in /proc/PID, then wait for a line:
 * 0 to go on, -1 when the user typed q (or the terminal is gone). ctx: the struct stepmode. */
int stepmode_prompt(void *ctx, const char *step, pid_t pid);

#endif
