build-arm-linux-gnueabihf/runtime/levels.o: runtime/levels.c \
 runtime/levels.h build-arm-linux-gnueabihf/levels-data.h
runtime/levels.h:
build-arm-linux-gnueabihf/levels-data.h:
