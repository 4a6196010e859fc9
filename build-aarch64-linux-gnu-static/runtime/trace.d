build-aarch64-linux-gnu-static/runtime/trace.o: runtime/trace.c \
 runtime/trace.h runtime/error.h
runtime/trace.h:
runtime/error.h:
