/* crib-image - `crib image ...`: saved images made into a rootfs and a spec for crib.
 *
 *   crib image import [--platform OS/ARCH[/VARIANT]] SOURCE DIR
 *   crib image rm DIR
 *   crib image platform
 *
 * A program of its own, beside crib, because it needs libarchive (tar, gzip, zstd) and
 * libcrypto (sha256), which Debian ships as shared libraries only for the host's architecture
 * in most setups: crib itself stays one static binary that cross-builds for every Raspberry Pi.
 * crib execs this from beside itself (or ../lib/crib/); the layers of work are in
 * runtime/image/ (import.c), this file only parses argv, prints and picks the exit status.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "import.h"
#include "output.h"
#include "platform.h"

static const char usage[] =
        "usage: crib image import [--platform OS/ARCH[/VARIANT]] SOURCE DIR\n"
        "                          make DIR/rootfs and DIR/crib.ini from a saved image:\n"
        "                          a docker save or podman save tarball, an OCI image layout\n"
        "                          (directory or tarball), or a docker export tarball\n"
        "       crib image rm DIR    remove an import (as you: with the files of your\n"
        "                          subordinate ids, which you cannot remove yourself)\n"
        "       crib image platform  this machine's platform, as images name it\n"
        "See crib(1).\n";

static int usage_error(const char *msg, const char *arg)
{
        fprintf(stderr, "crib: ");
        fprintf(stderr, msg, arg);
        fprintf(stderr, "\ncrib: hint: run 'crib image help' for the usage\n");
        return EXIT_CRIB_ERROR;
}

static bool tty;
static bool shown;

static void progress(void *ctx, enum import_phase ph, size_t layer, size_t n, uint64_t bytes,
                     uint64_t total)
{
        (void)ctx;
        (void)total;
        static size_t last_layer = (size_t)-1;
        static uint64_t last_us;
        struct timespec now;
        if (!tty)
                return;
        /* a few times a second at most: a Raspberry Pi's serial console is slow */
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t us = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
        if (layer == last_layer && us - last_us < 200000)
                return;
        last_layer = layer;
        last_us = us;
        if (ph == IMPORT_CHECKING)
                fprintf(stderr, "\rcrib: checking digests: %.1f MB\033[K", (double)bytes / 1e6);
        else
                fprintf(stderr, "\rcrib: layer %zu of %zu: %.1f MB written\033[K", layer, n,
                        (double)bytes / 1e6);
        shown = true;
}

static int cmd_import(int argc, char **argv)
{
        struct import_opts o = {.progress = progress};
        struct platform forced;
        struct error err;
        error_clear(&err);
        for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "--platform") && i + 1 < argc) {
                        if (platform_parse(argv[++i], &forced, &err) < 0)
                                return output_error(&err);
                        o.platform = &forced;
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
        if (!o.source || !o.dir)
                return usage_error("%s", "'crib image import' needs a SOURCE and a DIR");
        tty = isatty(STDERR_FILENO);
        struct import_result *r = calloc(1, sizeof *r);
        if (!r)
                return usage_error("%s", "out of memory");
        int ok = image_import(&o, r, &err);
        if (shown)
                fprintf(stderr, "\r\033[K");
        if (ok < 0) {
                free(r);
                return output_error(&err);
        }
        const struct layer_stats *s = &r->stats;
        if (s->devices)
                fprintf(stderr,
                        "crib: note: %" PRIu64 " device nodes or sockets were not made (such as "
                        "'%s'): crib gives each container its own /dev\n",
                        s->devices, s->device_example);
        if (s->xattrs)
                fprintf(stderr,
                        "crib: note: %" PRIu64 " extended attributes were refused by the "
                        "filesystem or the kernel (such as %s)\n",
                        s->xattrs, s->xattr_example);
        if (s->unowned && r->userns && !r->subids) {
                output_warning("%" PRIu64 " files of the image belong to other users (such as "
                               "'%s', of id %u); %s, so they are yours (root's inside)",
                               s->unowned, s->unowned_example, s->unowned_uid,
                               r->no_helper ? "newuidmap and newgidmap are not installed "
                                              "(package uidmap)"
                                            : "you have no range in /etc/subuid and "
                                              "/etc/subgid");
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
                output_warning("%" PRIu64 " files of the image have owners beyond the ids you "
                               "may map (such as '%s', of id %u); they are root's inside",
                               s->unowned, s->unowned_example, s->unowned_uid);
        }
        for (size_t i = 0; i < r->spec.nwarnings; i++)
                output_warning("%s", r->spec.warnings[i]);
        printf("imported %s %s%s%s%s: %zu layer%s, %" PRIu64 " files, %.1f MB into %s\n", r->kind,
               r->platform[0] ? r->platform : "(platform not given)",
               r->manifest[0] ? " (manifest " : "", r->manifest[0] ? r->manifest : "",
               r->manifest[0] ? ")" : "", r->nlayers, r->nlayers == 1 ? "" : "s", s->entries,
               (double)s->bytes / 1e6, o.dir);
        printf("run it with: crib run %s/crib.ini\n", o.dir);
        free(r);
        return fflush(stdout) == 0 ? 0 : EXIT_CRIB_ERROR;
}

int main(int argc, char **argv)
{
        if (argc < 2)
                return usage_error("%s", "'crib image' needs a command");
        if (!strcmp(argv[1], "import"))
                return cmd_import(argc - 2, argv + 2);
        if (!strcmp(argv[1], "rm") && argc == 3) {
                struct error err;
                error_clear(&err);
                return image_remove(argv[2], &err) < 0 ? output_error(&err) : 0;
        }
        if (!strcmp(argv[1], "platform") && argc == 2) {
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
