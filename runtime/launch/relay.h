/* relay.h - the parent's side of a container's terminal: copy between the user's terminal and
 * the pty's master, which the container opened in its own devpts and sent over the sync
 * socket. Used by `crib run` (container.c, where the functions are) and `crib exec` (enter.c). */
#ifndef CRIB_RELAY_H
#define CRIB_RELAY_H

#include <stdbool.h>
#include <termios.h>

struct relay {
        int master;      /* the container's pty, or -1 */
        bool stdin_open; /* still reading our stdin into it */
        bool hung_up;    /* the container closed its side */
        bool raw;        /* our terminal is in raw mode, to restore */
        struct termios saved;
};

/* Parent: relay to `master` from now on; our terminal (if stdin is one) goes raw. */
void relay_start(struct relay *r, int master);
/* Copy what the container's terminal wrote to our stdout; false once it is closed. */
bool relay_out(struct relay *r);
/* Copy our stdin to the container's terminal; at its end, the terminal's end-of-file. */
void relay_in(struct relay *r);
/* Drain what is left, restore our terminal, close the master. */
void relay_end(struct relay *r);

#endif
