build-aarch64-linux-gnu/runtime/sys.o: runtime/sys.c runtime/sys.h \
 runtime/error.h runtime/trace.h
runtime/sys.h:
runtime/error.h:
runtime/trace.h:
