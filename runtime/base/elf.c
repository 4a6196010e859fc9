/* elf.c - read an ELF header (elf(5)) to tell the user why a program cannot run: built for
 * another architecture, or its program interpreter (dynamic loader) is missing. */
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
