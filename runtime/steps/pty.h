/* pty.h - parent side of the container's terminal; see pty.c. */
#ifndef CRIB_PTY_H
#define CRIB_PTY_H

#include <termios.h>

int pty_raw(int fd, struct termios *saved);
void pty_restore(int fd, const struct termios *saved);
void pty_copy_size(int from, int to);

#endif
