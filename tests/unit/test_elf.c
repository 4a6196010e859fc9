/* Unit tests of the ELF header reader (runtime/base/elf.c) on headers written to a memfd. */
#define _GNU_SOURCE
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elf.h"
#include "../lib/tap.h"

static int memfile(const void *buf, size_t n)
{
        int fd = memfd_create("elf", 0);
        if (write(fd, buf, n) != (ssize_t)n)
                return -1;
        return fd;
}

int main(void)
{
        struct elf_info info;

        /* a 32-bit little-endian ARM executable with a PT_INTERP */
        unsigned char arm[200] = {0x7f, 'E', 'L', 'F', ELFCLASS32, ELFDATA2LSB, 1};
        Elf32_Ehdr *eh = (Elf32_Ehdr *)arm;
        eh->e_machine = EM_ARM;
        eh->e_phoff = sizeof *eh;
        eh->e_phentsize = sizeof(Elf32_Phdr);
        eh->e_phnum = 1;
        Elf32_Phdr *ph = (Elf32_Phdr *)(arm + sizeof *eh);
        ph->p_type = PT_INTERP;
        ph->p_offset = 120;
        ph->p_filesz = 26;
        memcpy(arm + 120, "/lib/ld-linux-armhf.so.3", 25);
        int fd = memfile(arm, sizeof arm);
        ok(elf_inspect(fd, &info) == 0 && info.is_elf, "reads a 32-bit ELF header");
        ok(info.machine == EM_ARM && info.bits == 32, "machine and class");
        is_str(info.interp, "/lib/ld-linux-armhf.so.3", "PT_INTERP");
        is_str(elf_machine_name(info.machine, info.bits), "32-bit ARM", "machine name");
        close(fd);

        unsigned char x64[sizeof(Elf64_Ehdr)] = {0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB, 1};
        ((Elf64_Ehdr *)x64)->e_machine = EM_X86_64;
        fd = memfile(x64, sizeof x64);
        ok(elf_inspect(fd, &info) == 0 && info.is_elf && info.bits == 64 &&
                   info.machine == EM_X86_64 && !info.interp[0],
           "64-bit header, no interpreter");
        close(fd);

        fd = memfile("#!/bin/bash -e\necho\n", 20);
        ok(elf_inspect(fd, &info) == 0 && info.is_script, "a script");
        is_str(info.interp, "/bin/bash", "its interpreter");
        close(fd);

        fd = memfile("plain text", 10);
        ok(elf_inspect(fd, &info) == 0 && !info.is_elf && !info.is_script, "neither");
        close(fd);

        ok(elf_native_machine() != EM_NONE, "the native machine is known");
        return tap_done();
}
