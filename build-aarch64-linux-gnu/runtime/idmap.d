build-aarch64-linux-gnu/runtime/idmap.o: runtime/idmap.c runtime/idmap.h \
 runtime/error.h runtime/spec.h
runtime/idmap.h:
runtime/error.h:
runtime/spec.h:
