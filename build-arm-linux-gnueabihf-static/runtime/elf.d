build-arm-linux-gnueabihf-static/runtime/elf.o: runtime/elf.c \
 runtime/elf.h
runtime/elf.h:
