build-aarch64-linux-gnu/runtime/error.o: runtime/error.c runtime/error.h
runtime/error.h:
