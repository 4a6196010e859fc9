build-arm-linux-gnueabihf/runtime/elf.o: runtime/elf.c runtime/elf.h
runtime/elf.h:
