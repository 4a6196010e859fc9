/* state.h - the state directory of long-running containers (issue 13's groundwork): where it
 * is, a directory per container, names, a lock per container, files written atomically, and
 * whether a recorded pid is still the same process.
 *
 *   ROOT/                      0700, the user's own: $XDG_RUNTIME_DIR/crib, /run/crib as root,
 *                              or --root DIR (as runc's flag)
 *   ROOT/NAME/                 0700, one per container, made with mkdir(2): exactly one of two
 *                              `crib run --name NAME` at once wins
 *   ROOT/NAME/FILE             written to a temporary file and renamed over FILE (not
 *                              synced: state.c says why)
 *
 * Every path below ROOT is opened relative to ROOT's descriptor, without following symlinks
 * (openat(2) with O_NOFOLLOW, and names that are one component), so a file planted in ROOT by
 * a container that can write there leads nowhere else; ROOT itself must be a directory that
 * only its owner can write, or crib refuses it.
 */
#ifndef CRIB_STATE_H
#define CRIB_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"

#define STATE_NAME_MAX 64

/* The state root: `override` (--root) when given, else /run/crib for root (euid 0), else
 * XDG_RUNTIME_DIR/crib (`runtime_dir` is the variable's value, or NULL when unset). */
int state_root_path(const char *override, uid_t euid, const char *runtime_dir, char *buf,
                    size_t len, struct error *err);

/* Make the root (0700) if it is missing, open it, and check that `uid` owns it and no one else
 * may write it. A descriptor, or -1. */
int state_open_root(const char *path, uid_t uid, struct error *err);

/* A container name: 1 to 64 of [A-Za-z0-9_.-], starting with a letter or digit. */
bool state_name_valid(const char *name);
/* A readable name that is not in use under `root`, such as "quiet_otter", from `seed`. */
int state_name_generate(int root, uint32_t seed, char *buf, size_t len, struct error *err);

/* Make NAME's directory and open it, locked (state_lock) before anyone can see it; EEXIST
 * says the name is taken. A descriptor, or -1. */
int state_create(int root, const char *name, struct error *err);
/* Open NAME's directory (ENOENT: no such container). A descriptor, or -1. */
int state_open(int root, const char *name, struct error *err);
/* Open NAME's directory from the root's path (state_open_root's checks, then state_open), and
 * hold nothing else: for a process that must not keep descriptors of the state tree open
 * while it starts a container (its setup process would inherit them). */
int state_open_path(const char *root_path, uid_t uid, const char *name, struct error *err);
/* Take the container's lock (flock(2) on its directory): wait for it, or fail with
 * EWOULDBLOCK when `wait` is false. Released when the descriptor closes. */
int state_lock(int dir, bool wait, struct error *err);

/* Write FILE in the container's directory atomically (a temporary file, rename). */
int state_write(int dir, const char *file, const void *data, size_t len, struct error *err);
/* Read FILE (at most len - 1 bytes, NUL-terminated); the length, or -1 (ENOENT: none yet). */
ssize_t state_read(int dir, const char *file, char *buf, size_t len, struct error *err);
/* The exec fifo of `crib create` (runtime/steps/start.c): make FILE a fifo(7), mode 0622 (the
 * container's user writes it through its descriptor; the directory keeps everyone else out). */
int state_fifo_make(int dir, const char *file, struct error *err);
/* Open FILE, which must be a fifo, with open(2) `flags` (O_NOFOLLOW and O_CLOEXEC added). */
int state_fifo_open(int dir, const char *file, int flags, struct error *err);
/* Remove NAME's directory and the files in it (no subdirectories are followed). */
int state_remove(int root, const char *name, struct error *err);

/* The start time of `pid` (field 22 of /proc/PID/stat, clock ticks since boot), which tells a
 * recorded pid from a later process that got the same number; 0 when there is no such process. */
uint64_t state_proc_start(pid_t pid);
/* Whether `pid` is still the process whose start time was recorded as `start`, and has not
 * ended: a zombie (ended, not yet reaped by its parent: crib's monitor, or the engine that ran
 * crib oci create) has. The one test of "the recorded process runs" (record.c). */
bool state_proc_alive(pid_t pid, uint64_t start);

#endif
