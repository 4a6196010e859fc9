/* storecmd.c - crib-image's commands over the image store (storecmd.h): argv into
 * runtime/image/ calls (storewrite.c, storeremove.c, imgstore.c), their results printed through
 * cmd/output.c (an image's names and platform are the image's strings: escaped there).
 *
 *   crib image import [--name REF] SOURCE    into the store (with DIR: import.c, as before)
 *   crib-image store-add --name REF [--platform P] LAYOUT
 *                                            crib pull's: prints the image id
 *   crib images [--format json]              NAME, ID, PLATFORM, CREATED, SIZE
 *   crib rmi NAME|ID                         a name, or an image with its names
 *   crib image prune                         what nothing uses
 *   crib system df                           what the store holds
 */
#define _GNU_SOURCE
#include "storecmd.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/cleanup.h"
#include "base/error.h"
#include "image/imgstore.h"
#include "image/storeremove.h"
#include "image/storewrite.h"
#include "output.h"

static int usage(const char *msg, const char *arg)
{
        output_usage_error(msg, arg);
        return EXIT_CRIB_ERROR;
}

/* ROOT opened (made when `create`); -2 when it does not exist and !create */
static int open_root(bool create, char *path, size_t len, struct error *err)
{
        int fd = store_open_mine(create, path, len, err);
        if (fd < 0 && !create && err->errnum == ENOENT)
                return -2;
        return fd;
}

/* bytes as people read them: 0 B, 512 B, 4.2 kB, 5.3 MB, 1.2 GB */
static const char *human(uint64_t n, char *buf, size_t len)
{
        static const char *const units[] = {"B", "kB", "MB", "GB", "TB"};
        double v = (double)n;
        size_t u = 0;
        while (v >= 1000 && u < 4)
                v /= 1000, u++;
        if (u == 0)
                snprintf(buf, len, "%" PRIu64 " B", n);
        else
                snprintf(buf, len, "%.1f %s", v, units[u]);
        return buf;
}

static void print_stats(const struct storeadd_result *r)
{
        if (r->stats.devices)
                output_line(stderr,
                            "crib: note: %" PRIu64 " device nodes or sockets were not made (such "
                            "as '%s'): crib gives each container its own /dev",
                            r->stats.devices, r->stats.device_example);
        if (r->stats.xattrs)
                output_line(stderr,
                            "crib: note: %" PRIu64 " extended attributes were not kept (such as "
                            "%s)",
                            r->stats.xattrs, r->stats.xattr_example);
        if (r->stats.unowned)
                output_line(stderr,
                            "crib: warning: %" PRIu64 " files of the image have owners beyond "
                            "the ids you may map (such as '%s', of id %u); they are root's inside",
                            r->stats.unowned, r->stats.unowned_example, r->stats.unowned_uid);
        for (size_t i = 0; i < r->spec.nwarnings; i++)
                output_line(stderr, "crib: warning: %s", r->spec.warnings[i]);
}

static bool shown;

/* on a terminal, a few times a second at most */
static void progress(void *ctx, size_t layer, size_t n, uint64_t bytes)
{
        (void)ctx;
        if (!output_progress_due(layer))
                return;
        fprintf(stderr, "\rcrib: layer %zu of %zu: %.1f MB written\033[K", layer, n,
                (double)bytes / 1e6);
        shown = true;
}

/* The image `o` names added to the store, its notes said; the result (free it), or NULL when
 * the error was said */
static struct storeadd_result *add(const struct storeadd_opts *o)
{
        char path[4096];
        struct error err;
        error_clear(&err);
        struct storeadd_opts oo = *o;
        _cleanup_free_ struct storeadd_result *r = calloc(1, sizeof *r);
        if (!r) {
                error_set(&err, ENOMEM, "cannot add the image");
                return output_error(&err), NULL;
        }
        if ((oo.root = open_root(true, path, sizeof path, &err)) < 0)
                return output_error(&err), NULL;
        if (isatty(STDERR_FILENO))
                oo.progress = progress;
        int ret = storeadd_run(&oo, r, &err);
        if (shown)
                fprintf(stderr, "\r\033[K");
        close(oo.root);
        if (ret < 0)
                return output_error(&err), NULL;
        print_stats(r);
        return steal_ptr(&r);
}

int storecmd_import(const char *source, const char *name, const struct platform *platform,
                    uint64_t max_bytes)
{
        struct storeadd_opts o = {
                .source = source, .name = name, .platform = platform, .max_bytes = max_bytes};
        _cleanup_free_ struct storeadd_result *r = add(&o);
        if (!r)
                return EXIT_CRIB_ERROR;
        char size[32];
        output_line(stdout, "imported %.19s%s%s%s from %s (%s): %zu layer%s, %zu new, %s written",
                    r->id, r->name[0] ? " as '" : "", r->name, r->name[0] ? "'" : "", source,
                    r->platform, r->nlayers, r->nlayers == 1 ? "" : "s", r->nnew,
                    human(r->stats.bytes, size, sizeof size));
        output_line(stdout, "run it with: crib run %s", r->name[0] ? r->name : r->id + 7);
        return fflush(stdout) == 0 ? 0 : EXIT_CRIB_ERROR;
}

int storecmd_add(int argc, char **argv)
{
        const char *name = NULL, *dir = NULL;
        struct platform forced;
        struct storeadd_opts o = {0};
        struct error err;
        error_clear(&err);
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "--name") && i + 1 < argc)
                        name = argv[++i];
                else if (!strcmp(argv[i], "--platform") && i + 1 < argc) {
                        if (platform_parse(argv[++i], &forced, &err) < 0)
                                return output_error(&err);
                        o.platform = &forced;
                } else if (argv[i][0] == '-')
                        return usage("unknown option '%s' for 'crib-image store-add'", argv[i]);
                else if (!dir)
                        dir = argv[i];
                else
                        return usage("unexpected argument '%s'", argv[i]);
        }
        if (!name || !dir)
                return usage("%s", "'crib-image store-add' needs --name REF and a LAYOUTDIR");
        o.source = dir;
        o.name = name;
        _cleanup_free_ struct storeadd_result *r = add(&o);
        if (!r)
                return EXIT_CRIB_ERROR;
        output_line(stdout, "%s", r->id);
        return fflush(stdout) == 0 ? 0 : EXIT_CRIB_ERROR;
}

/* --- crib images --------------------------------------------------------------------------- */

struct listing {
        struct json_object *json; /* --format json: the array, else NULL */
        char (*rows)[512];
        size_t n, cap;
};

static int add_row(struct listing *l, const char *name, const struct store_image *img)
{
        char created[32] = "", size[32], row[512];
        time_t t = (time_t)img->created;
        struct tm tm;
        if (img->created > 0 && gmtime_r(&t, &tm))
                strftime(created, sizeof created, "%Y-%m-%d %H:%M", &tm);
        snprintf(row, sizeof row, "%-48s %-12.12s  %-16s %-17s %s", name, img->id + 7,
                 img->platform[0] ? img->platform : "-", created[0] ? created : "-",
                 human(img->size, size, sizeof size));
        if (l->n == l->cap) {
                size_t cap = l->cap ? l->cap * 2 : 32;
                void *m = realloc(l->rows, cap * sizeof *l->rows);
                if (!m)
                        return -1;
                l->rows = m;
                l->cap = cap;
        }
        memcpy(l->rows[l->n++], row, sizeof row);
        return 0;
}

static int list_one(void *ctx, const struct store_image *img)
{
        struct listing *l = ctx;
        if (l->json) {
                struct json_object *o = json_object_new_object(), *ns = json_object_new_array();
                for (size_t i = 0; i < img->nnames; i++)
                        json_object_array_add(ns, json_object_new_string(img->names[i]));
                json_object_object_add(o, "id", json_object_new_string(img->id));
                json_object_object_add(o, "names", ns);
                json_object_object_add(o, "platform", json_object_new_string(img->platform));
                json_object_object_add(o, "created", json_object_new_int64(img->created));
                json_object_object_add(o, "size", json_object_new_int64((int64_t)img->size));
                json_object_object_add(o, "layers", json_object_new_int64((int64_t)img->nlayers));
                return json_object_array_add(l->json, o);
        }
        if (!img->nnames)
                return add_row(l, "<none>", img);
        for (size_t i = 0; i < img->nnames; i++)
                if (add_row(l, img->names[i], img) < 0)
                        return -1;
        return 0;
}

static int by_row(const void *a, const void *b)
{
        return strcmp(a, b);
}

int storecmd_images(int argc, char **argv)
{
        bool json = false;
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "--format") && i + 1 < argc && !strcmp(argv[i + 1], "json"))
                        json = true, i++;
                else if (!strcmp(argv[i], "--format") && i + 1 < argc)
                        return usage("'crib images --format %s': the formats are table (the "
                                     "default) and json",
                                     argv[i + 1]);
                else
                        return usage("unexpected argument '%s' for 'crib images'", argv[i]);
        }
        struct error err;
        error_clear(&err);
        char path[4096];
        struct listing l = {.json = json ? json_object_new_array() : NULL};
        int root = open_root(false, path, sizeof path, &err);
        if (root == -1)
                return output_error(&err);
        if (root >= 0 && store_each_image(root, list_one, &l, &err) < 0) {
                close(root);
                return output_error(&err);
        }
        if (root >= 0)
                close(root);
        if (json) {
                output_json(stdout, json_object_to_json_string_ext(l.json, JSON_C_TO_STRING_PLAIN));
                json_object_put(l.json);
        } else {
                qsort(l.rows, l.n, sizeof *l.rows, by_row);
                output_line(stdout, "%-48s %-12s  %-16s %-17s %s", "NAME", "ID", "PLATFORM",
                            "CREATED", "SIZE");
                for (size_t i = 0; i < l.n; i++)
                        output_line(stdout, "%s", l.rows[i]);
        }
        free(l.rows);
        return fflush(stdout) == 0 ? 0 : EXIT_CRIB_ERROR;
}

/* --- crib rmi, crib image prune, crib system df ------------------------------------------------
 */

int storecmd_rmi(int argc, char **argv)
{
        if (argc != 1 || argv[0][0] == '-')
                return usage("%s", "'crib rmi' takes one image: a NAME or an ID ('crib images' "
                                   "lists them)");
        struct error err;
        error_clear(&err);
        char path[4096], size[32];
        struct storermi_result r;
        int root = open_root(false, path, sizeof path, &err);
        if (root == -2) {
                error_set(&err, ENOENT, "no image '%s': the image store '%s' is empty", argv[0],
                          path);
                return output_error(&err);
        }
        if (root < 0)
                return output_error(&err);
        int ret = storermi_run(root, argv[0], &r, &err);
        close(root);
        if (ret < 0)
                return output_error(&err);
        if (r.image_removed)
                output_line(stdout, "removed image %.19s (%zu name%s, %zu layer%s, %s)", r.id,
                            r.nnames, r.nnames == 1 ? "" : "s", r.layers, r.layers == 1 ? "" : "s",
                            human(r.bytes, size, sizeof size));
        else
                output_line(stdout, "removed the name '%s'; image %.19s keeps its other names",
                            argv[0], r.id);
        return fflush(stdout) == 0 ? 0 : EXIT_CRIB_ERROR;
}

static int prune(int root, void *r, struct error *err)
{
        return storeprune_run(root, r, err);
}

static int df(int root, void *r, struct error *err)
{
        return storedf_run(root, r, err);
}

/* `fn` on the caller's store, which may not exist yet (then `fn` is not run: nothing to
 * count or remove); its error printed. -1 on error. */
static int on_store(int (*fn)(int root, void *r, struct error *err), void *r, char *path,
                    size_t len)
{
        struct error err;
        error_clear(&err);
        int root = open_root(false, path, len, &err);
        if (root == -1)
                return output_error(&err), -1;
        if (root < 0)
                return 0;
        int ret = fn(root, r, &err);
        close(root);
        return ret < 0 ? (output_error(&err), -1) : 0;
}

int storecmd_prune(int argc, char **argv)
{
        if (argc)
                return usage("unexpected argument '%s' for 'crib image prune'", argv[0]);
        char path[4096], size[32];
        struct storeprune_result r = {0};
        if (on_store(prune, &r, path, sizeof path) < 0)
                return EXIT_CRIB_ERROR;
        output_line(stdout,
                    "removed %zu image%s, %zu layer%s, %zu blob%s, %zu unfinished entr%s: %s",
                    r.images, r.images == 1 ? "" : "s", r.layers, r.layers == 1 ? "" : "s", r.blobs,
                    r.blobs == 1 ? "" : "s", r.tmp, r.tmp == 1 ? "y" : "ies",
                    human(r.bytes, size, sizeof size));
        return fflush(stdout) == 0 ? 0 : EXIT_CRIB_ERROR;
}

int storecmd_df(int argc, char **argv)
{
        if (argc != 1 || strcmp(argv[0], "df"))
                return usage("%s", "'crib system' has one command: df");
        char path[4096], s[5][32];
        struct storedf_result r = {0};
        if (on_store(df, &r, path, sizeof path) < 0)
                return EXIT_CRIB_ERROR;
        output_line(stdout, "%-12s %6s  %s", "TYPE", "COUNT", "SIZE");
        output_line(stdout, "%-12s %6zu  %s (their layers, each counted once)", "images", r.images,
                    human(r.images_bytes, s[0], sizeof s[0]));
        output_line(stdout, "%-12s %6zu  %s", "layers", r.layers,
                    human(r.layers_bytes, s[1], sizeof s[1]));
        output_line(stdout, "%-12s %6zu  %s", "containers", r.containers,
                    human(r.containers_bytes, s[2], sizeof s[2]));
        output_line(stdout, "%-12s %6zu  %s", "blobs", r.blobs,
                    human(r.blobs_bytes, s[3], sizeof s[3]));
        output_line(stdout, "%-12s %6s  %s (layers, containers and blobs) in %s", "total", "",
                    human(r.layers_bytes + r.containers_bytes + r.blobs_bytes, s[4], sizeof s[4]),
                    path);
        return fflush(stdout) == 0 ? 0 : EXIT_CRIB_ERROR;
}
