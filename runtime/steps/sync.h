/* sync.h - the parent <-> container messages.
 *
 * One SOCK_SEQPACKET | SOCK_CLOEXEC socketpair (unix(7)): message boundaries are kept, and the
 * container's end closes by itself when the workload's execve(2) succeeds, so the parent reads
 * EOF after SYNC_EXEC exactly when the workload is running. Messages are fixed size, typed and
 * numbered; both sides check the numbers, so a lost or stray message is an error, not a hang.
 *
 *   parent -> child   SYNC_ROOTFS the rootfs as an idmapped mount tree, as SCM_RIGHTS (root's
 *                                 containers whose rootfs host root owns; before SYNC_GO)
 *                     SYNC_LAYER  one layer of an image as an idmapped mount tree, as
 *                                 SCM_RIGHTS, with its number, l/0 first (root's containers
 *                                 of a store image in a user namespace; before SYNC_GO)
 *                     SYNC_NEST   the workload's user namespace, then its network namespace,
 *                                 each as SCM_RIGHTS with its CLONE_NEW* flag (plan.nest_early:
 *                                 launch/nestns.c; before SYNC_GO)
 *                     SYNC_GO     the id maps are written; go on with the setup (with the
 *                                 setup process's pid as crib sees it: crib create's hooks
 *                                 read it)
 *                     SYNC_STEP_GO  crib run --step: run the step just announced
 *   child -> parent   SYNC_TRACE  a --trace line
 *                     SYNC_WARN   a warning for the user (say, an escapable chroot fallback)
 *                     SYNC_PTY    the terminal's master side, as SCM_RIGHTS
 *                     SYNC_EXEC   about to execve the workload (EOF next means it runs)
 *                     SYNC_ERROR  setup or exec failed; carries the struct error
 *                     SYNC_PID    `crib exec` only (enter.c): the pid of the process that
 *                                 will exec, as crib sees it (it was started in the
 *                                 container's pid namespace by the process that joined it)
 *                     SYNC_CREATED `crib create` only (start.c): set up, waiting for `crib
 *                                 start`; the last message (crib create exits)
 *                     SYNC_STEP   crib run --step (step.c): "N/M NAME", the step about to
 *                                 run; the sender waits for SYNC_STEP_GO
 *
 * crib-image's id-map helper speaks it too (image/import.c): SYNC_GO from the parent once it
 * has unshared, SYNC_ERROR back when newuidmap or newgidmap failed, EOF when the ids are mapped.
 *
 * Where it sits: in steps/, the lowest layer that speaks it. The steps are one end of the
 * channel: struct child holds it (step.h), every step reports through it (step.c: trace lines,
 * warnings, errors), and some steps are sync points themselves (userns.c waits for SYNC_GO,
 * pty.c passes the terminal, start.c and exec.c say SYNC_CREATED and SYNC_EXEC). The other end,
 * the parent and crib's monitor, is in launch/, above, and includes it from there. Not in
 * base/: base knows nothing of containers, and these messages name the rootfs, the terminal
 * and the exec. Not behind an interface of step.h: the steps would still need the message
 * types, and the format is one fact that both ends must read from one file.
 */
#ifndef CRIB_SYNC_H
#define CRIB_SYNC_H

#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"

enum sync_type {
        SYNC_GO = 1,
        SYNC_TRACE,
        SYNC_WARN,
        SYNC_PTY,
        SYNC_EXEC,
        SYNC_ERROR,
        SYNC_ROOTFS,
        SYNC_PID,
        SYNC_CREATED,
        SYNC_STEP,
        SYNC_STEP_GO,
        SYNC_LAYER,
        SYNC_NEST,
};

struct sync_msg {
        uint32_t type;
        uint32_t seq;
        union {
                struct error err;
                char text[1024];
                int32_t pid;
                uint32_t layer; /* SYNC_LAYER: its number, 0 the topmost */
                int32_t nsflag; /* SYNC_NEST: CLONE_NEWUSER or CLONE_NEWNET */
        } u;
};

struct sync_chan {
        int fd;
        uint32_t send_seq, recv_seq;
        /* the process that sent the last message received, as the kernel tells it in our pid
         * namespace (SCM_CREDENTIALS, unix(7)), when the receiving end has SO_PASSCRED set
         * (sync_pass_credentials); 0 otherwise */
        pid_t sender;
};

/* Have the kernel tell, with each message `c` receives, the pid of the process that sent it
 * (c->sender): how crib learns the workload's pid from its SYNC_EXEC or SYNC_CREATED. The kernel
 * writes it, in the receiver's pid namespace; before the workload's exec only crib's code
 * sends. */
int sync_pass_credentials(struct sync_chan *c, struct error *err);

/* Send `m` (its seq is filled in); pass_fd >= 0 rides along as SCM_RIGHTS. */
int sync_send(struct sync_chan *c, struct sync_msg *m, int pass_fd, struct error *err);
/* Receive one message: 1 = got one, 0 = EOF, -1 = error. *ret_fd gets a passed fd or -1. */
int sync_recv(struct sync_chan *c, struct sync_msg *m, int *ret_fd, struct error *err);

/* The error a SYNC_ERROR message carries, its strings terminated whatever the sender wrote. */
void sync_error_of(const struct sync_msg *m, struct error *ret);

#endif
