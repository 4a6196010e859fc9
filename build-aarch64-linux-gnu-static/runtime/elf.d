build-aarch64-linux-gnu-static/runtime/elf.o: runtime/elf.c runtime/elf.h
runtime/elf.h:
