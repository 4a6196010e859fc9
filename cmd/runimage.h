/* runimage.h - `crib run [FLAGS] IMAGE`: podman's flags as crib.ini(5) keys over the image's
 * own spec (runimage.c), one INI text that the spec loader reads as it reads any file. */
#ifndef CRIB_RUNIMAGE_H
#define CRIB_RUNIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/error.h"

#define RUNIMAGE_MAX_FLAGS 256
#define RUNIMAGE_MAX_LINES 1024

struct run_flag {
        const char *flag;  /* as typed: "-e", "--memory" */
        const char *value; /* its value; NULL for a switch */
};

struct run_flags {
        struct run_flag f[RUNIMAGE_MAX_FLAGS];
        size_t n;
        bool rm, interactive, tty, print_spec;
        char **args; /* CMD ARGS... after IMAGE, or NULL: the spec's args */
};

/* argv[i] is one of the image flags: 1 + the values it took; 0 when it is not one; -1 when
 * its value is missing (the caller says so) */
int runimage_take(struct run_flags *f, int argc, char **argv, int i);

/* The INI text of `image` (as typed, for `image =`): the image's crib.ini `spec` (NULL: none,
 * as for --print-spec without a store) with the flags' keys over it, in crib.ini(5)'s
 * sections. `ret_lines[LINE]` (1-based) names the flag or "the image's crib.ini" that wrote
 * each line, for errors ("" for the others and the one after the last); the rest of its
 * RUNIMAGE_MAX_LINES is not touched (each page a fault): give it zeroed. Malloc'd text in
 * *ret. */
int runimage_ini(const struct run_flags *f, const char *image, FILE *spec, char **ret,
                 size_t *ret_len, char (*ret_lines)[96], struct error *err);

/* An error of the spec loader about the text `label` (runimage_ini's) said in the words of the
 * flag that wrote the line */
void runimage_blame(struct error *err, const char *label, char (*lines)[96]);

#endif
