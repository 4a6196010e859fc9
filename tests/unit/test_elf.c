/* Unit tests of the ELF header reader (runtime/base/elf.c) on headers written to a memfd. */
#define _GNU_SOURCE
#include <elf.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/elf.h"
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

        /* ARM build attributes: an ELF with one section, .ARM.attributes, whose file-wide
         * subsection names the CPU ("7-A", a string tag) and then Tag_CPU_arch */
        unsigned char attr[] = {'A', 0, 0, 0, 0,   'a', 'e', 'a', 'b', 'i', 0, 1, 0,
                                0,   0, 0, 5, '7', '-', 'A', 0,   6,   10,  8, 1};
        uint32_t sub = sizeof attr - 11, vendor = sizeof attr - 1;
        memcpy(attr + 1, &vendor, 4);
        memcpy(attr + 12, &sub, 4);
        unsigned char obj[300] = {0x7f, 'E', 'L', 'F', ELFCLASS32, ELFDATA2LSB, 1};
        Elf32_Ehdr *oh = (Elf32_Ehdr *)obj;
        oh->e_machine = EM_ARM;
        oh->e_shoff = 100;
        oh->e_shentsize = sizeof(Elf32_Shdr);
        oh->e_shnum = 1;
        Elf32_Shdr *sh = (Elf32_Shdr *)(obj + 100);
        sh->sh_type = 0x70000003; /* SHT_ARM_ATTRIBUTES */
        sh->sh_offset = 200;
        sh->sh_size = sizeof attr;
        memcpy(obj + 200, attr, sizeof attr);
        fd = memfile(obj, sizeof obj);
        ok(elf_arm_cpu_arch(fd) == 10, "Tag_CPU_arch of an ARMv7 program: 10");
        is_str(elf_arm_arch_name(10), "ARMv7", "named ARMv7");
        close(fd);
        obj[200 + 21] = 0;
        fd = memfile(obj, sizeof obj);
        ok(elf_arm_cpu_arch(fd) == -1, "attributes without Tag_CPU_arch: none");
        close(fd);
        obj[200] = 'B';
        fd = memfile(obj, sizeof obj);
        ok(elf_arm_cpu_arch(fd) == -1, "a section of another format: none");
        close(fd);
        fd = memfile(arm, sizeof arm);
        ok(elf_arm_cpu_arch(fd) == -1, "no section headers: none");
        close(fd);

        int v6 = elf_arm_platform_arch("v6l"), v7 = elf_arm_platform_arch("v7l");
        ok(v6 == 7 && v7 == 10 && elf_arm_platform_arch("v8l") == 14 &&
                   elf_arm_platform_arch("x86_64") == -1,
           "machines from AT_PLATFORM: v6l is ARMv6KZ, v7l ARMv7, v8l ARMv8-A");
        ok(!elf_arm_runs_on(10, v6), "ARMv7 does not run on a Pi Zero");
        ok(!elf_arm_runs_on(8, v6), "nor ARMv6T2 (Thumb-2)");
        ok(elf_arm_runs_on(6, v6) && elf_arm_runs_on(4, v6) && elf_arm_runs_on(9, v6),
           "ARMv6, ARMv5TE (armel) and ARMv6K do");
        ok(elf_arm_runs_on(10, v7) && !elf_arm_runs_on(14, v7), "ARMv7 runs on v7, ARMv8 not");
        ok(elf_arm_runs_on(-1, v6) && elf_arm_runs_on(10, -1), "unknown: let the kernel decide");
        return tap_done();
}
