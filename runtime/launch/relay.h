/* relay.h - the parent's side of a container process's standard streams, when crib stands
 * between them and the user's terminal:
 *   a pty: the container opened it in its own devpts and sent the master over the sync socket
 *          (`crib run` with a terminal, `crib exec -t`); crib's terminal goes raw meanwhile;
 *   pipes: `crib exec` without -t, where crib exec's own 0, 1 or 2 is a terminal: the process
 *          gets pipes instead, so no process of the container ever holds the user's terminal
 *          (one left running would read what is typed at the shell later, as podman avoids).
 * Used by `crib run` (container.c) and `crib exec` (enter.c), from the poll(2) loop that
 * follows the container's process (follow.c).
 *
 * Nothing in the relay blocks on the container: its side of every descriptor is non-blocking,
 * input waits in a buffer while the container does not read, and crib stops reading its stdin
 * until the buffer is written, so a workload that never reads cannot stop crib from forwarding
 * a signal or restoring the terminal.
 */
#ifndef CRIB_RELAY_H
#define CRIB_RELAY_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <termios.h>

/* the most descriptors relay_poll() adds */
#define RELAY_MAX_POLL 4

struct relay {
        int master;      /* the container's pty, or -1 */
        int in;          /* pipes: the write end of the process's stdin, or -1 */
        int out[2];      /* pipes: the read ends of its stdout and stderr (each -1 if not ours) */
        bool stdin_open; /* still reading our stdin */
        bool hung_up;    /* pty: the container closed its side */
        bool raw;        /* our terminal is in raw mode, to restore */
        struct termios saved;
        char buf[4096]; /* read from our stdin, not yet written to the container */
        size_t len, off;
};

/* An idle relay: nothing to relay yet. */
void relay_init(struct relay *r);
/* Parent: relay to the pty `master` from now on; our terminal (if stdin is one) goes raw. */
void relay_start(struct relay *r, int master);
/* Parent: relay our stdin to `in` and `out`, `err` to our stdout and stderr (-1: not relayed). */
void relay_start_pipes(struct relay *r, int in, int out, int err);
/* Parent: whether anything is being relayed. */
bool relay_active(const struct relay *r);
/* Parent: append the descriptors to poll to `pfd`; how many (at most RELAY_MAX_POLL). */
int relay_poll(struct relay *r, struct pollfd *pfd);
/* Parent: after poll(2), copy what `pfd[0..n)` (relay_poll's) says is ready. */
void relay_handle(struct relay *r, const struct pollfd *pfd, int n);
/* Parent: what the container wrote is copied out until it has no more ready (never waiting
 * for it), our terminal restored, everything closed. */
void relay_end(struct relay *r);

#endif
