/* check.h - what this kernel really supports: a real attempt per feature, in a throw-away
 * process, next to what the kernel config says. */
#ifndef CRIB_CHECK_H
#define CRIB_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "spec/spec.h"

enum check_status {
        CHECK_OK,
        CHECK_MISSING,    /* the kernel does not have it */
        CHECK_DISABLED,   /* it has it, switched off (sysctl, boot command line) */
        CHECK_RESTRICTED, /* a policy forbids it for this user */
        CHECK_ERROR,      /* the attempt failed otherwise */
        CHECK_NOT_TRIED,  /* nothing to try it on (no rootfs given), or not needed */
};

/* How much a row matters for running containers at the `default` level. */
enum check_need {
        NEED_ESSENTIAL, /* without it crib cannot run a container at all */
        NEED_DEFAULT,   /* the default level uses it: degraded without it */
        NEED_OPTIONAL,  /* informative */
};

struct check_row {
        char id[32];      /* INI section name: a-z 0-9 _ */
        char feature[64]; /* for people */
        enum check_status status;
        enum check_need need;
        char evidence[512]; /* errno of the attempt, sysctl values, versions */
        char config[160];   /* what the kernel config says, and which wins */
        char remedy[768];   /* when not ok */
};

#define CHECK_MAX_ROWS 40

/* Run every probe (or those `spec` needs, when given); rootfs: where to try pivot_root. */
size_t check_run(const struct spec *spec, const char *rootfs, struct check_row *rows);
const char *check_status_name(enum check_status s);
const char *check_need_name(enum check_need n);
/* What a row's status means for crib on this kernel, in a sentence */
const char *check_meaning(const struct check_row *r);

/* The machine a report describes (machine.c): nothing of who ran it */
#define CHECK_MACHINE_CONFIG 24
struct check_machine {
        char kernel[320]; /* uname -srvm: no host name */
        char release[96]; /* uname -r */
        char arch[65];    /* uname -m */
        char board[128];  /* the device tree's model; "" without one (a PC, most VMs) */
        char distribution[128];
        char cmdline[1024];      /* /proc/cmdline, scrubbed */
        char config_source[128]; /* "" without a kernel config */
        struct {
                char key[40];
                char value[40];
        } config[CHECK_MACHINE_CONFIG];
        size_t nconfig;
};
void check_machine(struct check_machine *m);
/* Remove who ran crib from `text` (NUL-terminated, in a buffer of len): the caller's home
 * directory (and sudo's user's) as "~", any /home/NAME as /home/USER, their user names as USER.
 * root's name is no one's and stays. */
void check_scrub(char *text, size_t len);

#endif
