/* crib-image - `crib image ...`: saved images made into a rootfs and a spec for crib.
 *
 *   crib image import [--platform OS/ARCH[/VARIANT]] [--max-size SIZE] SOURCE DIR
 *   crib image rm DIR
 *   crib image platform
 *
 * A program of its own, beside crib, because it needs libarchive (tar, gzip, zstd) and
 * libcrypto (sha256), which Debian ships as shared libraries only for the host's architecture
 * in most setups: crib itself stays one static binary that cross-builds for every Raspberry Pi.
 * crib execs this from beside itself (or ../lib/crib/); the layers of work are in
 * runtime/image/ (import.c), this file only parses argv, prints and picks the exit status.
 *
 * What it prints may quote the image's strings (a config's User, a layer's file names, the
 * platform an index names) and the runtime leaves them as they are in its errors and warnings:
 * every message goes out through cmd/output.c, as crib's own do, which escapes each control
 * character (termsafe.h), so an image's ESC sequences show as \x1b[..., never act on the
 * terminal. Escaping at the one printer, not at each of the runtime's error_set()s, covers the
 * strings a future message quotes too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/error.h"
#include "image/import.h"
#include "output.h"
#include "image/platform.h"
#include "storecmd.h"

static const char usage[] =
        "usage: crib image import [--name REF] [--platform P] [--max-size SIZE] SOURCE\n"
        "                          put a saved image in the image store (crib images lists\n"
        "                          it; named REF, else the name the source gives it)\n"
        "       crib image import [--platform OS/ARCH[/VARIANT]] [--max-size SIZE] SOURCE DIR\n"
        "                          make DIR/rootfs and DIR/crib.ini from a saved image:\n"
        "                          a docker save or podman save tarball, an OCI image layout\n"
        "                          (directory or tarball), or a docker export tarball;\n"
        "                          --max-size: what its layers may write (default 16G)\n"
        "       crib image rm DIR    remove an import (as you: with the files of your\n"
        "                          subordinate ids, which you cannot remove yourself)\n"
        "       crib image platform  this machine's platform, as images name it\n"
        "       crib image prune     remove from the store what no name or container uses\n"
        "See crib(1).\n";

/* a line of stderr, "crib: " first, escaped by the printer */
static void say(const char *fmt, ...) CRIB_PRINTF(1, 2);
static void say(const char *fmt, ...)
{
        char raw[2048];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        output_line(stderr, "crib: %s", raw);
}

static int print_error(const struct error *err)
{
        return output_error(err);
}

static int usage_error(const char *msg, const char *arg)
{
        char *text = NULL;
        if (asprintf(&text, msg, arg) >= 0)
                output_line(stderr, "crib: %s", text);
        free(text);
        fprintf(stderr, "crib: hint: run 'crib image help' for the usage\n");
        return EXIT_CRIB_ERROR;
}

/* SIZE: a number of bytes with K, M, G or T after it (powers of 1024), "16G" */
static int parse_size(const char *s, uint64_t *ret)
{
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno || end == s || *s == '-' || *s == '+')
                return -1;
        int shift = 0;
        switch (*end) {
        case 'k':
        case 'K':
                shift = 10;
                break;
        case 'm':
        case 'M':
                shift = 20;
                break;
        case 'g':
        case 'G':
                shift = 30;
                break;
        case 't':
        case 'T':
                shift = 40;
                break;
        case '\0':
                break;
        default:
                return -1;
        }
        if (*end && end[1] && strcmp(end + 1, "B") && strcmp(end + 1, "iB"))
                return -1;
        if (!v || v > (IMPORT_MAX_BYTES >> shift))
                return -1;
        *ret = (uint64_t)v << shift;
        return 0;
}

static bool tty;
static bool shown;

static void progress(void *ctx, enum import_phase ph, size_t layer, size_t n, uint64_t bytes,
                     uint64_t total)
{
        (void)ctx;
        (void)total;
        if (!tty || !output_progress_due(layer))
                return;
        if (ph == IMPORT_CHECKING)
                fprintf(stderr, "\rcrib: checking digests: %.1f MB\033[K", (double)bytes / 1e6);
        else
                fprintf(stderr, "\rcrib: layer %zu of %zu: %.1f MB written\033[K", layer, n,
                        (double)bytes / 1e6);
        shown = true;
}

/* what the import could not keep, and why */
static void print_notes(const struct import_result *r)
{
        const struct layer_stats *s = &r->stats;
        if (s->devices)
                say("note: %" PRIu64 " device nodes or sockets were not made (such as '%s'): "
                    "crib gives each container its own /dev",
                    s->devices, s->device_example);
        if (s->xattrs)
                say("note: %" PRIu64 " extended attributes were refused by the filesystem or the "
                    "kernel (such as %s)",
                    s->xattrs, s->xattr_example);
        if (s->unowned && r->userns && !r->subids) {
                say("warning: %" PRIu64 " files of the image belong to other users (such as "
                    "'%s', of id %u); %s, so they are yours (root's inside)",
                    s->unowned, s->unowned_example, s->unowned_uid,
                    r->no_helper ? "newuidmap and newgidmap are not installed (package uidmap)"
                                 : "you have no range in /etc/subuid and /etc/subgid");
                fprintf(stderr, "crib: hint: what needs them owned apart breaks: daemons that "
                                "drop to their own user, setuid programs, apt's _apt sandbox\n");
                if (r->no_helper)
                        fprintf(stderr, "crib: hint: sudo apt-get install uidmap, then import "
                                        "again\n");
                else
                        fprintf(stderr, "crib: hint: sudo usermod --add-subuids 100000-165535 "
                                        "--add-subgids 100000-165535 $(id -un), then import "
                                        "again\n");
        } else if (s->unowned) {
                say("warning: %" PRIu64 " files of the image have owners beyond the ids you may "
                    "map (such as '%s', of id %u); they are root's inside",
                    s->unowned, s->unowned_example, s->unowned_uid);
        }
}

static int cmd_import(int argc, char **argv)
{
        struct import_opts o = {.progress = progress};
        const char *name = NULL;
        struct platform forced;
        struct error err;
        error_clear(&err);
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "--platform") && i + 1 < argc) {
                        if (platform_parse(argv[++i], &forced, &err) < 0)
                                return print_error(&err);
                        o.platform = &forced;
                } else if (!strcmp(argv[i], "--max-size") && i + 1 < argc) {
                        if (parse_size(argv[++i], &o.max_bytes) < 0)
                                return usage_error("--max-size '%s' is not a size such as 500M, "
                                                   "16G or 1T (at most 1024T)",
                                                   argv[i]);
                } else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
                        name = argv[++i];
                } else if (argv[i][0] == '-' && argv[i][1]) {
                        return usage_error("unknown option '%s' for 'crib image import'", argv[i]);
                } else if (!o.source) {
                        o.source = argv[i];
                } else if (!o.dir) {
                        o.dir = argv[i];
                } else {
                        return usage_error("unexpected argument '%s'", argv[i]);
                }
        }
        if (!o.source)
                return usage_error("%s", "'crib image import' needs a SOURCE");
        if (!o.dir)
                return storecmd_import(o.source, name, o.platform, o.max_bytes);
        if (name)
                return usage_error("%s", "--name is for an import into the image store (no DIR)");
        tty = isatty(STDERR_FILENO);
        struct import_result *r = calloc(1, sizeof *r);
        if (!r)
                return usage_error("%s", "out of memory");
        int ok = image_import(&o, r, &err);
        if (shown)
                fprintf(stderr, "\r\033[K");
        if (ok < 0) {
                free(r);
                return print_error(&err);
        }
        print_notes(r);
        const struct layer_stats *s = &r->stats;
        for (size_t i = 0; i < r->spec.nwarnings; i++)
                say("warning: %s", r->spec.warnings[i]);
        output_line(stdout, "imported %s %s%s%s%s: %zu layer%s, %" PRIu64 " files, %.1f MB into %s",
                    r->kind, r->platform[0] ? r->platform : "(platform not given)",
                    r->manifest[0] ? " (manifest " : "", r->manifest, r->manifest[0] ? ")" : "",
                    r->nlayers, r->nlayers == 1 ? "" : "s", s->entries, (double)s->bytes / 1e6,
                    o.dir);
        output_line(stdout, "run it with: crib run %s", o.dir);
        free(r);
        return fflush(stdout) == 0 ? 0 : EXIT_CRIB_ERROR;
}

int main(int argc, char **argv)
{
        if (argc < 2)
                return usage_error("%s", "'crib image' needs a command");
        if (!strcmp(argv[1], "import"))
                return cmd_import(argc - 2, argv + 2);
        /* the store's: crib images, crib rmi and crib system exec crib-image with their word */
        static const struct {
                const char *word;
                int (*run)(int argc, char **argv);
        } store_words[] = {
                {"store-add", storecmd_add}, /* crib pull's, hidden */
                {"images", storecmd_images}, {"rmi", storecmd_rmi},
                {"prune", storecmd_prune},   {"system", storecmd_df},
        };
        for (size_t i = 0; i < sizeof store_words / sizeof store_words[0]; i++)
                if (!strcmp(argv[1], store_words[i].word))
                        return store_words[i].run(argc - 2, argv + 2);
        if (!strcmp(argv[1], "rm") && argc != 3)
                return usage_error("%s", "'crib image rm' takes one argument: the directory "
                                         "an import made");
        if (!strcmp(argv[1], "platform") && argc != 2)
                return usage_error("%s", "'crib image platform' takes no arguments");
        if (!strcmp(argv[1], "rm")) {
                struct error err;
                error_clear(&err);
                return image_remove(argv[2], &err) < 0 ? print_error(&err) : 0;
        }
        if (!strcmp(argv[1], "platform")) {
                struct platform p;
                char buf[64];
                import_machine(&p);
                platform_format(&p, buf, sizeof buf);
                printf("%s\n", buf);
                return 0;
        }
        if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help")) {
                fputs(usage, stdout);
                return 0;
        }
        return usage_error("unknown command 'crib image %s'", argv[1]);
}
