build-arm-linux-gnueabihf-static/runtime/sys.o: runtime/sys.c \
 runtime/sys.h runtime/error.h runtime/trace.h
runtime/sys.h:
runtime/error.h:
runtime/trace.h:
