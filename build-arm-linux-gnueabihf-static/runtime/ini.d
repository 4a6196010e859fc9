build-arm-linux-gnueabihf-static/runtime/ini.o: runtime/ini.c \
 runtime/ini.h runtime/error.h runtime/cleanup.h
runtime/ini.h:
runtime/error.h:
runtime/cleanup.h:
