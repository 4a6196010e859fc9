/* elf.h - just enough of an ELF header (elf(5)) to explain why an execve failed. */
#ifndef CRIB_ELF_H
#define CRIB_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_info {
        bool is_elf;
        bool is_script; /* "#!" */
        uint16_t machine;
        int bits;         /* 32 or 64 */
        char interp[256]; /* PT_INTERP, or the "#!" interpreter; empty when none */
};

/* Read the header of the open file `fd`. Returns -1 when it cannot be read at all. */
int elf_inspect(int fd, struct elf_info *ret);
/* "x86-64", "32-bit ARM", ... */
const char *elf_machine_name(uint16_t machine, int bits);
/* The e_machine of the programs this build of crib runs natively. */
uint16_t elf_native_machine(void);

/* 32-bit ARM: the architecture a program was built for, from its EABI build attributes (the
 * .ARM.attributes section, Tag_CPU_arch: 6 = ARMv6, 10 = ARMv7, 14 = ARMv8-A, ...), or -1
 * when the file has none. The kernel runs an ARMv7 program on an ARMv6 board (a Raspberry Pi
 * Zero or 1) until its first ARMv7 instruction: SIGILL, exit 132, and nothing said. */
int elf_arm_cpu_arch(int fd);
/* "ARMv7", "ARMv6KZ", ... for a Tag_CPU_arch value */
const char *elf_arm_arch_name(int tag);
/* The Tag_CPU_arch a machine runs, from its AT_PLATFORM ("v6l", "v7l", "v8l"), or -1. */
int elf_arm_platform_arch(const char *platform);
/* Whether a program of Tag_CPU_arch `tag` runs on a machine of `machine` (the value above):
 * ARMv6 boards lack Thumb-2, so ARMv6T2 and ARMv7 code does not run there. */
bool elf_arm_runs_on(int tag, int machine);

#endif
