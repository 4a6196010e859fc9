/* parse.h - what the files of the OCI front end share, and no one else includes: the state of
 * one file's reading, the JSON accessors (json.c), and the reader of each part of config.json
 * (config.c calls them in the order of the runtime spec's config.md).
 *
 * Every reader takes the JSON path of what it reads and returns 0, or -1 with c->err set to
 * "FILE: JSONPATH: what is wrong" (oci_bad).
 */
#ifndef CRIB_OCI_PARSE_H
#define CRIB_OCI_PARSE_H

#include <json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "oci.h"

struct oci_ctx {
        struct spec *s;
        struct error *err;
        bool process_file; /* a process.json: its paths have no ".process" in front */
        bool update;       /* `update --resources`: the file is .linux.resources, and -1 lifts */
};

#define PATHLEN             160
#define OCI_MAX_DEVICE_PATH 255 /* .linux.devices[].path */

/* ---- json.c ---- */

/* An error at JSON path jpath of the file being read; -1. */
int oci_bad(struct oci_ctx *c, const char *jpath, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
int oci_nomem(struct oci_ctx *c);
json_object *oci_member(json_object *obj, const char *key);
void oci_sub(char *buf, const char *parent, const char *key);
void oci_idx(char *buf, const char *parent, size_t i);
int oci_want(struct oci_ctx *c, json_object *v, const char *jpath, json_type t, const char *what);
int oci_get_str(struct oci_ctx *c, json_object *obj, const char *parent, const char *key,
                const char **ret);
int oci_get_bool(struct oci_ctx *c, json_object *obj, const char *parent, const char *key,
                 bool *ret);
int oci_as_int(struct oci_ctx *c, json_object *v, const char *jpath, int64_t min, int64_t max,
               int64_t *ret);
int oci_as_u64(struct oci_ctx *c, json_object *v, const char *jpath, uint64_t *ret);
int oci_get_int(struct oci_ctx *c, json_object *obj, const char *parent, const char *key,
                int64_t min, int64_t max, int64_t *ret);
int oci_get_strings(struct oci_ctx *c, json_object *obj, const char *parent, const char *key,
                    size_t max, json_object **ret);
/* A copy of a checked list of strings, NULL-terminated (words_free); NULL when out of memory */
char **oci_strv_of(json_object *a);
/* The spec's key k came from the file */
void oci_set_from(struct spec *s, enum spec_key k);
json_object *oci_read_object(struct oci_ctx *c, const char *path, FILE *f);
json_object *oci_read_under(struct oci_ctx *c, const char *path, FILE *f, const char *key,
                            json_object **ret_inner);

/* ---- the parts ---- */

int oci_process(struct oci_ctx *c, json_object *cfg);  /* .process: ociprocess.c */
int oci_mounts(struct oci_ctx *c, json_object *cfg);   /* .mounts: ocimounts.c */
int oci_linux(struct oci_ctx *c, json_object *cfg);    /* .linux: linux.c */
int oci_seccomp(struct oci_ctx *c, json_object *lx);   /* .linux.seccomp: ociseccomp.c */
int oci_resources(struct oci_ctx *c, json_object *lx); /* .linux.resources: ociresources.c */
int oci_hooks(struct oci_ctx *c, json_object *cfg, char **ret); /* .hooks: ocihooks.c */

#endif
