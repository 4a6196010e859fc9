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

#endif
