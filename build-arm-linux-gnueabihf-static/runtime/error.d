build-arm-linux-gnueabihf-static/runtime/error.o: runtime/error.c \
 runtime/error.h
runtime/error.h:
