build-arm-linux-gnueabihf/runtime/sys.o: runtime/sys.c runtime/sys.h \
 runtime/error.h runtime/trace.h
runtime/sys.h:
runtime/error.h:
runtime/trace.h:
