/* archive.h - a tarball source read with libarchive: listed once, each entry then found again by
 * its position in a pass of its own over the same descriptor. */
#ifndef CRIB_ARCHIVE_H
#define CRIB_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"

struct archive;

struct tarball_entry {
        char *name;
        uint64_t size, ordinal;
        char *data; /* kept small files, else NULL */
        char *link; /* a symbolic or hard link's target (cleaned, from the top), else NULL */
};

/* what a tarball holds: its entries of interest, in order */
struct tarball {
        struct tarball_entry *e;
        size_t n, cap, kept;
};

/* a libarchive reader of a descriptor through pread(2): its own offset, the name never used */
struct tarball_fd {
        int fd;
        off_t off;
        unsigned char *buf;
};

/* A reader of tar, gzip, zstd or xz; NULL when out of memory. */
struct archive *tarball_reader_new(void);
/* Open `a` on the tarball source's descriptor, from its start; `r` lives as long as `a`, and
 * its buffer is the caller's to free. */
int tarball_fd_open(struct archive *a, struct tarball_fd *r, int fd);

/* List the tarball `fd` (named `file` in errors) into `t`: its regular files and links at most
 * two directories deep, the small metadata files read into memory. */
int tarball_list(struct tarball *t, int fd, const char *file, struct error *err);
/* The entry `name` of the listing, links followed; NULL when there is none. */
struct tarball_entry *tarball_find(struct tarball *t, const char *name);
void tarball_free(struct tarball *t);

#endif
