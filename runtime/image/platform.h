/* platform.h - which image platform (os/architecture/variant) this machine runs, and which
 * manifest of a multi-architecture image fits it (OCI image-index "platform", GOARCH names).
 *
 * Pure: the facts come in as strings, read by the caller from uname(2), getauxval(AT_PLATFORM)
 * and /proc/cpuinfo, so every board can be tested anywhere.
 */
#ifndef CRIB_PLATFORM_H
#define CRIB_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

struct platform {
        char os[16];
        char arch[16];
        char variant[8]; /* "" when the architecture has none that matters */
};

/* The platform from `uname -m` (`machine`), the auxiliary vector's AT_PLATFORM (`at_platform`,
 * NULL when absent) and the "CPU part" of /proc/cpuinfo (`cpu_part`, NULL when absent). On
 * 32-bit ARM the lowest of what they say wins: a Raspberry Pi Zero or 1 (ARM1176, part 0xb76)
 * is ARMv6 even though its cpuinfo says "CPU architecture: 7". Unknown machines keep their
 * uname name as the architecture. */
void platform_detect(const char *machine, const char *at_platform, const char *cpu_part,
                     struct platform *ret);

/* "linux/arm/v6", "linux/amd64" */
void platform_format(const struct platform *p, char *buf, size_t len);
/* Parse "OS/ARCH[/VARIANT]"; -1 (with the error) when it is not one. */
int platform_parse(const char *s, struct platform *ret, struct error *err);

/* How well an image's platform fits the machine: 0 when it cannot run there, higher is better
 * (an exact variant beats an older one the machine also runs: arm/v6 on an arm/v7 machine).
 * `variant` may be NULL or "". */
int platform_score(const struct platform *machine, const char *os, const char *arch,
                   const char *variant);

struct json_object;

/* An image config's "os", "architecture" and "variant", "" where it says none; `os` and `arch`
 * take 16 bytes, `variant` 8. */
void platform_of_config(struct json_object *cfg, char *os, char *arch, char *variant);
/* "OS/ARCH[/VARIANT]" for messages, "?" for what is unknown */
void platform_describe(char *buf, size_t len, const char *os, const char *arch,
                       const char *variant);
/* The error when none of the `n` platforms an image has (`have`, described) fits `machine`, or
 * the --platform asked for when `forced`; returns -1. */
int platform_no_match(const char (*have)[64], size_t n, const struct platform *machine, bool forced,
                      struct error *err);

#endif
