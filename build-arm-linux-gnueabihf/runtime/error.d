build-arm-linux-gnueabihf/runtime/error.o: runtime/error.c \
 runtime/error.h
runtime/error.h:
