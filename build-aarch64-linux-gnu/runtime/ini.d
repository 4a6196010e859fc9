build-aarch64-linux-gnu/runtime/ini.o: runtime/ini.c runtime/ini.h \
 runtime/error.h runtime/cleanup.h
runtime/ini.h:
runtime/error.h:
runtime/cleanup.h:
