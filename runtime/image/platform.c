/* platform.c - this machine's image platform, and the fit of an image's (platform.h).
 *
 * The names are Go's GOOS/GOARCH, as the OCI image index and Docker's manifest lists use them;
 * 32-bit ARM adds a variant (v5, v6, v7) and arm64 may say v8. Engines have handed ARMv6 boards
 * (Raspberry Pi Zero and 1) arm/v7 images because the kernel's cpuinfo on those boards says
 * "CPU architecture: 7"; those images then die with SIGILL. Here the truth comes from uname's
 * machine (armv6l), the auxiliary vector's AT_PLATFORM ("v6l", getauxval(3)) and the CPU part
 * (0xb76 is the ARM1176 of those boards), and the lowest wins.
 *
 * An image says its platform in its index (a manifest's "platform") or in its config ("os",
 * "architecture", "variant"); when none of them fits, the error lists them all, once each.
 */
#include "platform.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 5, 6, 7, 8 from "armv6l", "v7l", "armv8l"; 0 when it says none */
static int arm_level(const char *s)
{
        if (!s)
                return 0;
        if (!strncmp(s, "arm", 3))
                s += 3;
        if (s[0] == 'v' && s[1] >= '4' && s[1] <= '9')
                return s[1] - '0';
        return 0;
}

/* the ARM cores that are older than their cpuinfo's "CPU architecture" says */
static int arm_part_level(const char *part)
{
        if (!part)
                return 0;
        unsigned long p = strtoul(part, NULL, 0);
        switch (p) {
        case 0xb76: /* ARM1176: Raspberry Pi Zero, Zero W, 1 */
        case 0xb36: /* ARM1136 */
        case 0xb56: /* ARM1156 */
        case 0xb02: /* ARM11 MPCore */
                return 6;
        case 0x926: /* ARM926: armv5 */
        case 0x946:
        case 0x966:
                return 5;
        default:
                return 0;
        }
}

void platform_detect(const char *machine, const char *at_platform, const char *cpu_part,
                     struct platform *ret)
{
        static const struct {
                const char *machine, *arch, *variant;
        } names[] = {
                {"x86_64", "amd64", ""},    {"amd64", "amd64", ""},
                {"i386", "386", ""},        {"i486", "386", ""},
                {"i586", "386", ""},        {"i686", "386", ""},
                {"aarch64", "arm64", "v8"}, {"arm64", "arm64", "v8"},
                {"ppc64le", "ppc64le", ""}, {"ppc64", "ppc64", ""},
                {"s390x", "s390x", ""},     {"riscv64", "riscv64", ""},
                {"mips64", "mips64", ""},   {"loongarch64", "loong64", ""},
        };
        memset(ret, 0, sizeof *ret);
        snprintf(ret->os, sizeof ret->os, "linux");
        const char *m = machine ? machine : "";
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
                if (!strcmp(m, names[i].machine)) {
                        snprintf(ret->arch, sizeof ret->arch, "%s", names[i].arch);
                        snprintf(ret->variant, sizeof ret->variant, "%s", names[i].variant);
                        return;
                }
        }
        if (!strncmp(m, "arm", 3)) {
                /* 32-bit ARM: armv5tel, armv6l, armv7l, armv8l (a 32-bit personality on arm64) */
                int level = arm_level(m);
                int aux = arm_level(at_platform), part = arm_part_level(cpu_part);
                if (aux && (!level || aux < level))
                        level = aux;
                if (part && (!level || part < level))
                        level = part;
                if (level > 7)
                        level = 7; /* 32-bit code on an ARMv8 core: arm/v7 is the newest there */
                snprintf(ret->arch, sizeof ret->arch, "arm");
                if (level)
                        snprintf(ret->variant, sizeof ret->variant, "v%c", (char)('0' + level));
                return;
        }
        snprintf(ret->arch, sizeof ret->arch, "%s", m[0] ? m : "unknown");
}

void platform_format(const struct platform *p, char *buf, size_t len)
{
        snprintf(buf, len, "%s/%s%s%s", p->os, p->arch, p->variant[0] ? "/" : "", p->variant);
}

int platform_parse(const char *s, struct platform *ret, struct error *err)
{
        memset(ret, 0, sizeof *ret);
        const char *a = strchr(s, '/');
        const char *v = a ? strchr(a + 1, '/') : NULL;
        size_t oslen = a ? (size_t)(a - s) : 0;
        size_t archlen = a ? (v ? (size_t)(v - a - 1) : strlen(a + 1)) : 0;
        if (!a || !oslen || !archlen || oslen >= sizeof ret->os || archlen >= sizeof ret->arch ||
            (v && (!v[1] || strlen(v + 1) >= sizeof ret->variant || strchr(v + 1, '/'))))
                return error_set(err, 0,
                                 "'%s' is not a platform (OS/ARCH or OS/ARCH/VARIANT, "
                                 "for example linux/arm/v6)",
                                 s);
        memcpy(ret->os, s, oslen);
        memcpy(ret->arch, a + 1, archlen);
        if (v)
                snprintf(ret->variant, sizeof ret->variant, "%s", v + 1);
        return 0;
}

int platform_score(const struct platform *machine, const char *os, const char *arch,
                   const char *variant)
{
        if (!os || !arch || strcmp(os, machine->os) || strcmp(arch, machine->arch))
                return 0;
        const char *v = variant ? variant : "";
        if (!strcmp(arch, "arm")) {
                /* an older variant runs on a newer core; never a newer one on an older */
                int want = arm_level(machine->variant), have = arm_level(v);
                if (!want)
                        return v[0] ? 0 : 1; /* the machine's level is unknown: only none */
                if (!v[0])
                        return 1;
                if (!have || have > want)
                        return 0;
                return 2 + have;
        }
        if (!strcmp(arch, "arm64"))
                return (!v[0] || !strcmp(v, "v8")) ? 2 : 0;
        if (!strcmp(arch, "amd64"))
                /* x86-64-v2..v4 need instructions not every machine has: only the baseline */
                return (!v[0] || !strcmp(v, "v1")) ? 2 : 0;
        return strcmp(v, machine->variant) ? (v[0] ? 0 : 1) : 2;
}

void platform_of_config(struct json_object *cfg, char *os, char *arch, char *variant)
{
        struct json_object *v;
        os[0] = arch[0] = variant[0] = '\0';
        if (json_object_object_get_ex(cfg, "os", &v) && json_object_is_type(v, json_type_string))
                snprintf(os, 16, "%s", json_object_get_string(v));
        if (json_object_object_get_ex(cfg, "architecture", &v) &&
            json_object_is_type(v, json_type_string))
                snprintf(arch, 16, "%s", json_object_get_string(v));
        if (json_object_object_get_ex(cfg, "variant", &v) &&
            json_object_is_type(v, json_type_string))
                snprintf(variant, 8, "%s", json_object_get_string(v));
}

void platform_describe(char *buf, size_t len, const char *os, const char *arch, const char *variant)
{
        snprintf(buf, len, "%s/%s%s%s", os[0] ? os : "?", arch[0] ? arch : "?",
                 variant[0] ? "/" : "", variant);
}

int platform_no_match(const char (*have)[64], size_t n, const struct platform *machine, bool forced,
                      struct error *err)
{
        char list[512] = "", me[64];
        size_t used = 0;
        for (size_t i = 0; i < n; i++) {
                bool dup = false;
                for (size_t j = 0; j < i; j++)
                        dup |= !strcmp(have[i], have[j]);
                if (dup)
                        continue;
                int w = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
                                 have[i]);
                if (w < 0 || (size_t)w >= sizeof list - used)
                        break;
                used += (size_t)w;
        }
        platform_format(machine, me, sizeof me);
        error_set(err, 0, "this image has %s%s; %s %s", list, strchr(list, ',') ? "" : " only",
                  forced ? "--platform asked for" : "this machine is", me);
        if (!forced)
                return error_hint(err, "'--platform OS/ARCH[/VARIANT]' imports one of those anyway "
                                       "(to run under an emulator such as qemu-user-static)");
        return -1;
}
