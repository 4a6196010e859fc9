/* log.h - a detached container's output, kept in its state directory and bounded in size.
 *
 *   ROOT/NAME/log     what the container wrote last (stdout and stderr, in the order written)
 *   ROOT/NAME/log.1   what came before, when `log` filled up
 *
 * Rotation, not a cap: when `log` would grow past half the limit it is renamed over `log.1`
 * and a new `log` begins, so the two together never hold more than the limit, and what is kept
 * is always the latest output. A chatty service cannot fill the disk (or, under /run, the
 * memory), and `crib logs` always shows its most recent lines.
 */
#ifndef CRIB_LOG_H
#define CRIB_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"

#define LOG_LIMIT_DEFAULT (1024 * 1024) /* both files together, bytes */
#define LOG_LIMIT_MIN     (8 * 1024)

struct log_writer {
        char root[4096]; /* the state root's path, reopened (and checked) to rotate */
        char name[80];   /* the container's */
        uid_t uid;       /* who must own the root */
        uint64_t limit;
        uint64_t size; /* of `log` now */
        int fd;        /* `log`, or -1 */
};

/* Start `log` (empty) in NAME's directory. The writer holds no directory descriptor between
 * calls: only the log file's. */
int log_open(struct log_writer *w, int dir, struct error *err);
/* Append; rotate first when the limit says so. A write that fails is dropped (the container's
 * output must never block on its log). */
void log_write(struct log_writer *w, const char *buf, size_t n);
void log_close(struct log_writer *w);

/* Copy the log to `out` (fd): log.1 then log, the last `tail` lines only when tail >= 0.
 * Returns the offset reached in `log` (for following it), or -1. */
int64_t log_copy(int dir, int out, long tail, struct error *err);

/* Then copy what is added to `log` from `offset` on, across rotations, every 100 ms, until
 * more(ctx) says the container has ended (and its last output is copied). */
int log_follow(int dir, int out, int64_t offset, bool (*more)(void *ctx), void *ctx,
               struct error *err);

#endif
