build-aarch64-linux-gnu-static/runtime/sync.o: runtime/sync.c \
 runtime/sync.h runtime/error.h
runtime/sync.h:
runtime/error.h:
