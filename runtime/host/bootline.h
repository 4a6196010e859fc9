/* bootline.h - where a remedy on the kernel command line is made, for the hints crib gives. */
#ifndef CRIB_BOOTLINE_H
#define CRIB_BOOTLINE_H

#include <stdbool.h>

/* A Raspberry Pi (/proc/device-tree/model says so)? */
bool bootline_raspberry_pi(void);

/* " in /boot/firmware/cmdline.txt" (or /boot/cmdline.txt on older Raspberry Pi OS) on a
 * Raspberry Pi, where the kernel command line is that file's one line; "" elsewhere. */
const char *bootline_where(void);

#endif
