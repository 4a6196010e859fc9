/* elf.c - read an ELF header (elf(5)) to tell the user why a program cannot run: built for
 * another architecture, or for a newer ARM than this one (the ARM EABI's build attributes,
 * "Addenda to, and Errata in, the ABI for the Arm Architecture"), or its program interpreter
 * (dynamic loader) is missing. */
#include "elf.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static uint16_t rd16(const unsigned char *p, bool le)
{
        return le ? (uint16_t)(p[0] | p[1] << 8) : (uint16_t)(p[1] | p[0] << 8);
}

static uint32_t rd32(const unsigned char *p, bool le)
{
        return le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                               (uint32_t)p[3] << 24
                  : (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 |
                               (uint32_t)p[0] << 24;
}

static uint64_t rd64(const unsigned char *p, bool le)
{
        return le ? (uint64_t)rd32(p, le) | (uint64_t)rd32(p + 4, le) << 32
                  : (uint64_t)rd32(p + 4, le) | (uint64_t)rd32(p, le) << 32;
}

int elf_inspect(int fd, struct elf_info *ret)
{
        unsigned char h[64];
        memset(ret, 0, sizeof *ret);
        ssize_t n = pread(fd, h, sizeof h, 0);
        if (n < 0)
                return -1;
        if (n >= 2 && h[0] == '#' && h[1] == '!') {
                char line[256];
                ssize_t m = pread(fd, line, sizeof line - 1, 2);
                if (m < 0)
                        m = 0;
                line[m] = '\0';
                char *s = line + strspn(line, " \t");
                s[strcspn(s, " \t\n")] = '\0';
                ret->is_script = true;
                snprintf(ret->interp, sizeof ret->interp, "%s", s);
                return 0;
        }
        if (n < 52 || memcmp(h, ELFMAG, SELFMAG) != 0)
                return 0;
        bool le = h[EI_DATA] == ELFDATA2LSB;
        ret->is_elf = true;
        ret->bits = h[EI_CLASS] == ELFCLASS64 ? 64 : 32;
        ret->machine = rd16(h + 18, le);
        uint64_t phoff;
        unsigned phentsize, phnum;
        if (ret->bits == 64) {
                if (n < 64)
                        return 0;
                phoff = rd64(h + 32, le);
                phentsize = rd16(h + 54, le);
                phnum = rd16(h + 56, le);
        } else {
                phoff = rd32(h + 28, le);
                phentsize = rd16(h + 42, le);
                phnum = rd16(h + 44, le);
        }
        for (unsigned i = 0; i < phnum && i < 64 && phentsize >= 32 && phentsize <= 64; i++) {
                unsigned char ph[64];
                if (pread(fd, ph, phentsize, (off_t)(phoff + (uint64_t)i * phentsize)) !=
                    (ssize_t)phentsize)
                        break;
                if (rd32(ph, le) != PT_INTERP)
                        continue;
                uint64_t off = ret->bits == 64 ? rd64(ph + 8, le) : rd32(ph + 4, le);
                uint64_t size = ret->bits == 64 ? rd64(ph + 32, le) : rd32(ph + 16, le);
                if (size >= sizeof ret->interp)
                        size = sizeof ret->interp - 1;
                ssize_t m = pread(fd, ret->interp, (size_t)size, (off_t)off);
                ret->interp[m > 0 ? m : 0] = '\0';
                break;
        }
        return 0;
}

const char *elf_machine_name(uint16_t machine, int bits)
{
        switch (machine) {
        case EM_X86_64:
                return "x86-64";
        case EM_386:
                return "32-bit x86";
        case EM_ARM:
                return "32-bit ARM";
        case EM_AARCH64:
                return "64-bit ARM (aarch64)";
        case EM_RISCV:
                return bits == 64 ? "64-bit RISC-V" : "32-bit RISC-V";
        case EM_PPC64:
                return "64-bit PowerPC";
        case EM_PPC:
                return "32-bit PowerPC";
        case EM_S390:
                return "s390";
        case EM_MIPS:
                return "MIPS";
        case EM_LOONGARCH:
                return "LoongArch";
        default:
                return "unknown-architecture";
        }
}

uint16_t elf_native_machine(void)
{
#if defined(__x86_64__)
        return EM_X86_64;
#elif defined(__i386__)
        return EM_386;
#elif defined(__aarch64__)
        return EM_AARCH64;
#elif defined(__arm__)
        return EM_ARM;
#elif defined(__riscv)
        return EM_RISCV;
#elif defined(__powerpc64__)
        return EM_PPC64;
#elif defined(__s390__)
        return EM_S390;
#else
        return EM_NONE;
#endif
}

#define SHT_ARM_ATTRIBUTES_ 0x70000003
#define TAG_FILE            1
#define TAG_CPU_ARCH        6

/* an unsigned LEB128 at *p (below end), advancing *p; -1 when it runs past end */
static int64_t uleb(const unsigned char **p, const unsigned char *end)
{
        uint64_t v = 0;
        for (int shift = 0; *p < end && shift < 35; shift += 7) {
                unsigned char b = *(*p)++;
                v |= (uint64_t)(b & 0x7f) << shift;
                if (!(b & 0x80))
                        return (int64_t)v;
        }
        return -1;
}

/* Tag_CPU_arch in an attributes section: "A", then per vendor a length, the vendor's name and
 * its subsections; the file-wide subsection (Tag_File) lists tag/value pairs, where tags 4 and
 * 5 (CPU names), 32 and odd tags above 32 carry strings, the others numbers */
static int arch_in_attributes(const unsigned char *a, size_t len)
{
        if (len < 1 || a[0] != 'A')
                return -1;
        const unsigned char *p = a + 1, *end = a + len;
        while (end - p >= 4) {
                uint32_t vlen = rd32(p, true);
                if (vlen < 4 || vlen > (size_t)(end - p))
                        return -1;
                const unsigned char *vend = p + vlen;
                const unsigned char *name = p + 4;
                const unsigned char *q = memchr(name, '\0', (size_t)(vend - name));
                if (!q)
                        return -1;
                bool aeabi = !strcmp((const char *)name, "aeabi");
                q++;
                while (aeabi && vend - q >= 5) {
                        unsigned char tag = *q;
                        uint32_t slen = rd32(q + 1, true);
                        if (slen < 5 || slen > (size_t)(vend - q))
                                return -1;
                        const unsigned char *s = q + 5, *send = q + slen;
                        while (tag == TAG_FILE && s < send) {
                                int64_t t = uleb(&s, send);
                                if (t < 0)
                                        return -1;
                                bool text = t == 4 || t == 5 || t == 67 || (t > 32 && (t & 1));
                                if (t == 32) { /* Tag_compatibility: a number and a string */
                                        if (uleb(&s, send) < 0)
                                                return -1;
                                        text = true;
                                }
                                if (text) {
                                        const unsigned char *z =
                                                memchr(s, '\0', (size_t)(send - s));
                                        if (!z)
                                                return -1;
                                        s = z + 1;
                                        continue;
                                }
                                int64_t v = uleb(&s, send);
                                if (v < 0)
                                        return -1;
                                if (t == TAG_CPU_ARCH)
                                        return (int)v;
                        }
                        q = send;
                }
                p = vend;
        }
        return -1;
}

int elf_arm_cpu_arch(int fd)
{
        unsigned char h[52];
        if (pread(fd, h, sizeof h, 0) != (ssize_t)sizeof h || memcmp(h, ELFMAG, SELFMAG) != 0 ||
            h[EI_CLASS] != ELFCLASS32 || h[EI_DATA] != ELFDATA2LSB || rd16(h + 18, true) != EM_ARM)
                return -1;
        uint32_t shoff = rd32(h + 32, true);
        unsigned shentsize = rd16(h + 46, true), shnum = rd16(h + 48, true);
        if (!shoff || shentsize < 40 || shentsize > 64)
                return -1;
        for (unsigned i = 0; i < shnum && i < 256; i++) {
                unsigned char sh[64];
                if (pread(fd, sh, shentsize, (off_t)shoff + (off_t)i * shentsize) !=
                    (ssize_t)shentsize)
                        return -1;
                if (rd32(sh + 4, true) != SHT_ARM_ATTRIBUTES_)
                        continue;
                uint32_t off = rd32(sh + 16, true), size = rd32(sh + 20, true);
                unsigned char a[4096];
                if (size > sizeof a)
                        size = sizeof a;
                ssize_t n = pread(fd, a, size, off);
                return n > 0 ? arch_in_attributes(a, (size_t)n) : -1;
        }
        return -1;
}

const char *elf_arm_arch_name(int tag)
{
        static const char *const names[] = {
                "ARMv3 or older",   "ARMv4",           "ARMv4T",  "ARMv5T",
                "ARMv5TE",          "ARMv5TEJ",        "ARMv6",   "ARMv6KZ",
                "ARMv6T2",          "ARMv6K",          "ARMv7",   "ARMv6-M",
                "ARMv6S-M",         "ARMv7E-M",        "ARMv8-A", "ARMv8-R",
                "ARMv8-M baseline", "ARMv8-M mainline"};
        if (tag >= 0 && tag < (int)(sizeof names / sizeof names[0]))
                return names[tag];
        return "a newer ARM";
}

int elf_arm_platform_arch(const char *platform)
{
        /* 32-bit ARM kernels name the platform "v<N>l" (or "v<N>b") */
        if (!platform || platform[0] != 'v' || platform[1] < '4' || platform[1] > '9')
                return -1;
        switch (platform[1]) {
        case '6':
                return 7; /* ARMv6KZ: the ARM1176 of the Raspberry Pi Zero and 1 */
        case '7':
                return 10;
        case '4':
        case '5':
                return 5;
        default:
                return 14;
        }
}

/* the generation of a Tag_CPU_arch, in tenths (an ARMv6T2 is 6.5: v6 with Thumb-2) */
static int generation(int tag)
{
        if (tag <= 5)
                return 50;
        if (tag == 8)
                return 65;
        if (tag <= 9 || tag == 11 || tag == 12)
                return 60;
        if (tag == 10 || tag == 13)
                return 70;
        return 80;
}

bool elf_arm_runs_on(int tag, int machine)
{
        if (tag < 0 || machine < 0)
                return true; /* unknown: let the kernel decide */
        return generation(tag) <= generation(machine);
}
