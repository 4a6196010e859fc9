/* procfile.c - see procfile.h. */
#include "procfile.h"

#include <stdio.h>

#include "cleanup.h"

long procfile_long(const char *path)
{
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        long v;
        if (!f || fscanf(f, "%ld", &v) != 1)
                return -1;
        return v;
}
