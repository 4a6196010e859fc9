/* follow.h - the parent's side of the processes it started in a container, from the fork to
 * their end: the sync messages, the forwarded signals, SIGCHLD, the terminal (follow.c).
 * Used by `crib run` (container.c), `crib exec` (enter.c) and, to follow the monitor until
 * the workload runs, `crib run -d` (monitor.c). */
#ifndef CRIB_FOLLOW_H
#define CRIB_FOLLOW_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "container.h"
#include "base/error.h"
#include "relay.h"
#include "steps/sync.h"
#include "base/trace.h"
#include "notify.h"

struct follow {
        /* what the caller sets (follow_init sets the rest) */
        const struct container_hooks *hooks; /* trace, warn and pty: where the messages go */
        struct trace *trace;                 /* the caller's, for the signals we forward */
        /* the process followed: signals are forwarded to it, its wait status is the result;
         * -1 until its SYNC_PID (crib exec) */
        pid_t pid;
        /* crib exec: the joiner, which starts `pid` and names it (SYNC_PID): reaped before the
         * end; -1: none */
        pid_t joiner;
        bool wait_start;    /* crib create: SYNC_CREATED ends it, the container left waiting */
        bool detach;        /* crib exec --detach: `pid` is left to our parent once it runs */
        bool until_exec;    /* crib run -d: SYNC_EXEC ends it (the monitor follows the rest) */
        bool block_sigpipe; /* crib exec: SIGPIPE blocked too (follow_block_signals) */
        /* EOF after SYNC_EXEC, with no error: the program runs; NULL: nothing to do */
        void (*running)(void *ctx);
        /* on SIGCHLD, after `pid` and the joiner: the caller's other children; or NULL */
        void (*reap_others)(void *ctx);
        void *ctx; /* for running and reap_others */
        /* [service] notify = container: the socket the container's sd_notify reaches, read in
         * the loop and passed on to systemd (notify.c); NULL: none */
        struct notify_proxy *notify;

        /* the state, and what the following found */
        struct sync_chan chan; /* our end of the sync socket; fd -1 once it closed */
        int sigfd;             /* the forwarded signals and SIGCHLD; -1: none to take */
        bool blocked;          /* they are blocked; `old` is the mask to restore */
        sigset_t old;
        sigset_t pending;   /* signals to forward once `pid` is known */
        bool reaped;        /* `pid` was reaped: `status` is its wait status */
        bool exited;        /* detach: `pid` exited, left unreaped for our parent (WNOWAIT) */
        bool joiner_reaped; /* the joiner was reaped */
        int status;
        pid_t workload; /* the sender of SYNC_EXEC or SYNC_CREATED (sync.h); 0: not known */
        bool exec_seen, have_error;
        bool created; /* wait_start: set up, waiting for crib start; we leave it so */
        struct error child_err;
        struct relay relay;
};

/* Nothing to follow yet: no socket, no signalfd, no process; lines go to `h`, our own trace
 * lines to `t`. */
void follow_init(struct follow *f, const struct container_hooks *h, struct trace *t);
/* Parent: the sync socket; ours in f->chan, the child's end in *ret_child_end. */
int follow_open(struct follow *f, int *ret_child_end, struct error *err);
/* Parent, before the fork: block the forwarded signals (forwarded_signals()) and SIGCHLD, so
 * none sent early is lost, and take them from a signalfd. With f->block_sigpipe, SIGPIPE too
 * (not taken: the relay's write to a pipe its reader closed sees EPIPE instead), taken back
 * before the mask is restored (follow_close). */
int follow_block_signals(struct follow *f, struct error *err);
/* Parent: follow until the process ends (or runs, detached; or waits for crib start; or, with
 * until_exec, execs) and, with a joiner, the joiner is reaped, and its socket is closed: every
 * message read, the terminal relayed, signals forwarded, children reaped. -1 on an error of
 * ours (poll, a protocol error); the process's own error is in f->child_err (have_error). */
int follow_run(struct follow *f, struct error *err);
/* Parent: a step failed after the fork: kill the process and the joiner, and reap them. */
void follow_kill(struct follow *f);
/* Parent: close the socket and the signalfd, end the relay, restore the signal mask. */
void follow_close(struct follow *f);

/* A trace's emit function that hands each line to the container_hooks `ctx`'s trace. */
void follow_trace_hook(void *ctx, const char *line);

#endif
