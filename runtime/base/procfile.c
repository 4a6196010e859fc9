/* procfile.c - see procfile.h. */
#include "procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"

long procfile_long(const char *path)
{
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        long v;
        if (!f || fscanf(f, "%ld", &v) != 1)
                return -1;
        return v;
}

int procfile_write(const char *path, const char *text)
{
        _cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0)
                return errno;
        size_t len = strlen(text);
        ssize_t n = write(fd, text, len);
        if (n < 0)
                return errno;
        return n == (ssize_t)len ? 0 : EIO;
}
