/* store.h - containers by name, in the state root: the one place that makes a container's
 * directory, opens and locks it, says which state it is in, signals its recorded process, waits
 * for its end, reads its plan back and forgets it (store.c). Both front ends go through it:
 * crib's own commands (cmd/lifecycle.c, cmd/ps.c, crib run in cmd/main.c) and crib's OCI
 * runtime (runtime/container/ociops.c).
 *
 * Below it: the state directory (state.h: the root, a directory per name, locks, atomic files)
 * and the records (record.h: info, monitor, pid, exit, restarts, stop). Each call takes the
 * state root's path, as state_root_path() gives it, and checks the root is the caller's
 * (state_open_root).
 */
#ifndef CRIB_STORE_H
#define CRIB_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "plan/plan.h"
#include "record.h"

/* Files beside the records that say more about a container crib oci create made */
#define STORE_FILE_FIFO   "exec.fifo" /* the exec fifo: there until crib oci start */
#define STORE_FILE_PAUSED "paused" /* made once crib oci pause froze its cgroup, gone on resume */
#define STORE_FILE_OCI    "oci"    /* the config's bundle, rootfs, annotations and hooks */

/* A container's state root and directory, opened, and its record. */
struct stored {
        int root, dir; /* -1 when not open */
        struct record rec;
};

/* Which state a container is in: the one definition, for every command of both front ends.
 *   creating  its monitor (or crib oci create) sets it up; no process recorded yet
 *   created   its process runs and waits for crib oci start (the exec fifo is there)
 *   running   its process runs (the recorded pid, the same start time, not a zombie)
 *   paused    its process runs, its cgroup frozen (crib oci pause)
 *   stopped   its process has ended, or crib was killed before it recorded one */
enum store_status {
        STORE_CREATING,
        STORE_CREATED,
        STORE_RUNNING,
        STORE_PAUSED,
        STORE_STOPPED,
};

/* A name no container under `root` has (crib run -d without --name), into `name`: the plan is
 * built with it (plan_opts.name, which names its cgroup), then made with store_create(). */
int store_name(const char *root, char *name, size_t name_len, struct error *err);
/* Make NAME's directory under `root` (a name in use is an error, EEXIST) with its record and the
 * plan `p`, built with that name, and this process recorded as its monitor. */
int store_create(const char *root, const struct plan *p, const char *spec_path, const char *name,
                 bool detached, struct error *err);
/* Record `pid` as NAME's first process and `workload` as the workload's (0: not known) once
 * it runs. */
int store_record_running(const char *root, const char *name, pid_t pid, pid_t workload,
                         struct error *err);
/* Remove NAME's directory (a foreground crib run --name at its end, a failed create). */
int store_forget(const char *root, const char *name);

/* Open NAME and read its record (ENOENT: no such container). On failure nothing stays open;
 * store_close() is safe either way. */
int store_open(const char *root, const char *name, struct stored *ret, struct error *err);
/* The same, and its lock (waited for), and its record read again under the lock: a container
 * removed meanwhile (its name perhaps taken by a new one, which must not be touched in its
 * place) is ENOENT. */
int store_open_locked(const char *root, const char *name, struct stored *ret, struct error *err);
void store_close(struct stored *c);
/* Each container of the root whose record reads, in directory order: `fn` gets it opened (its
 * root -1: the listing's; closed after) and returns 0 to go on, else the listing stops. */
int store_each(const char *root, int (*fn)(void *ctx, struct stored *c), void *ctx,
               struct error *err);

/* Its state (above), and the state's name as the OCI runtime spec says it. */
enum store_status store_status(const struct stored *c);
const char *store_status_name(enum store_status s);
/* Whether it was made by an engine (crib oci create): no monitor of crib's follows it. */
bool store_engine_made(const struct stored *c);

/* Send `sig` to the process recorded as `pid` with start time `start`, if it is still that
 * process: through a pidfd (Linux 5.3), checked after the open, so a reused pid is never
 * signalled; on a kernel without pidfd_open(2) (ENOSYS), kill(2) after the same check. 0 when
 * sent or when it has ended; an unrecorded process (pid or start 0) is never signalled (kill(2)
 * would take pid 0 for the caller's process group). */
int store_signal(pid_t pid, uint64_t start, int sig, struct error *err);
/* Wait until the container's record is final (its exit recorded, or no one left to record
 * it), at most `ms` (-1: no limit): true when it is; c->rec is read again. Polls its monitor's
 * pidfd (readable when it exits), else every 100 ms. */
bool store_wait(struct stored *c, long ms);
/* Wait at most `ms` for the process recorded as `pid` with start time `start` to end (a
 * zombie has ended): through its pidfd, woken when it exits, else looking every millisecond.
 * true when it has ended, or was not that process. */
bool store_wait_gone(pid_t pid, uint64_t start, long ms);

/* crib stop, crib kill with a signal that ends it: the stop marker first (record.h: a restart
 * policy restarts nothing after it), then `sig` to the process recorded now (none while its
 * monitor is between two runs: the marker ends it). */
int store_signal_stop(struct stored *c, int sig, struct error *err);
/* crib stop: SIGTERM to its process (none when `seconds` is 0), then SIGKILL when its record is
 * not final within `seconds` (*ret_killed says so); nothing when it is final already. -1 when a
 * signal cannot be sent, or it still runs 10 s after SIGKILL. Its lock should be held. */
int store_stop(struct stored *c, long seconds, bool *ret_killed, struct error *err);
/* crib rm: end it (the stop marker, SIGKILL to its process, or to its monitor while it has none
 * yet and is not restarting it, unless that is this process) and wait for its record to be
 * final (10 s at most; then the monitor is killed, 1 s more); store_kill_remove also
 * removes it (store_remove). Its lock should be held. */
int store_kill(struct stored *c, struct error *err);
int store_kill_remove(struct stored *c, struct error *err);

/* For a new process in the container `c` opened (crib exec, crib oci exec): its state, and when
 * that is running, its plan (`ret_plan`, to plan_free); c->rec keeps the processes to join.
 * `c` is closed either way: the new process must not inherit anything of the state tree. 0
 * when running; 1 in another state (*ret_status says which; nothing to free); -1 when its plan
 * cannot be read. */
int store_exec_target(struct stored *c, struct plan *ret_plan, enum store_status *ret_status,
                      struct error *err);
/* The plan the container was started with (its directory's `plan`), read back. */
int store_read_plan(int dir, struct plan *ret, struct error *err);
/* Remove a stopped container: its cgroup when a killed monitor left it (if empty: rmdir, no
 * kill, as under another root a running container may have the same name and that cgroup),
 * then its directory. */
int store_remove(struct stored *c, struct error *err);

#endif
