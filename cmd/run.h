/* run.h - what `crib run`'s command line asks, parsed, its spec read and its image's directory
 * planned: shared by `crib plan` (plan.c), which takes the same command line and prints the
 * plan instead of running it. */
#ifndef CRIB_RUN_H
#define CRIB_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "container/imgrootfs.h"
#include "image/imgstore.h"
#include "launch/notify.h"
#include "runimage.h"
#include "spec/spec.h"
#include "state/state.h"

/* What `crib run`'s command line asks */
struct run_request {
        bool trace, explain, detach;   /* --trace, --trace=explain */
        bool step;                     /* --step (stepmode.c) */
        const char *svg;               /* --trace=svg FILE (tracesvg.c), or NULL */
        const char *path;              /* SPEC or DIR, as given; then spec_path */
        char spec_path[4096];          /* SPEC, or DIR/crib.ini */
        char name[STATE_NAME_MAX + 1]; /* --name, or the one lifecycle_create generates */
        uint64_t log_limit;            /* --log-size */
        char **override;               /* the program after '--', or NULL */
        long count;                    /* --count */
        const char *image;             /* IMAGE as typed, or NULL for a SPEC */
        struct run_flags flags;        /* IMAGE's flags (runimage.c) */
        bool from_image;               /* IMAGE, or a spec with image = REF */
        struct imgrootfs img;          /* then its directory in the store */
        int store;                     /* the image store's ROOT, open from the lookup of the
                                        * image to its container's directory; else -1 */
        char store_path[4096];         /* its path */
        struct store_image *found;     /* the image, looked up once: IMAGE's when its crib.ini
                                        * was read (malloc'd; NULL until then) */
        bool plan;                     /* crib plan: the same command line planned and printed,
                                        * nothing made (plan.c) */
        struct notify_proxy notify;    /* notify = container under a unit (unit.c) */
};

/* argv into `rq`, for crib run or (`plan`) crib plan; 0, or the exit status of a usage error
 * (said) */
int run_parse(int argc, char **argv, bool plan, struct run_request *rq);

/* Read the spec file (or DIR/crib.ini, or IMAGE's) into `spec`, with the program after '--';
 * crib plan's may have none. Nothing is left to free on failure. 1: --print-spec printed the
 * spec instead. */
int run_read_spec(struct run_request *rq, struct spec *spec, struct error *err);

/* A restart policy where it cannot be: `spec` freed, -1 */
int run_check_restart(const struct run_request *rq, struct spec *spec, struct error *err);

/* A container of an image: its directory in the store (for crib plan: what it would be, made
 * nowhere, imgrootfs_predict), and so the rootfs in `spec`; `spec` is freed on failure. */
int run_image_dir(struct run_request *rq, struct spec *spec, struct error *err);

/* An error of planning IMAGE's spec text said in the words of the flag that wrote its line */
void run_blame(const struct run_request *rq, struct error *err);

/* The image store and image found, let go */
void run_release(struct run_request *rq);

#endif
