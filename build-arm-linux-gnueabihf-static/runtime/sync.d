build-arm-linux-gnueabihf-static/runtime/sync.o: runtime/sync.c \
 runtime/sync.h runtime/error.h
runtime/sync.h:
runtime/error.h:
