/* procfile.h - read one number from a /proc or /sys file (a sysctl, cap_last_cap). */
#ifndef CRIB_PROCFILE_H
#define CRIB_PROCFILE_H

/* The number at the start of the file, or -1 when it cannot be read. */
long procfile_long(const char *path);

#endif
