build-arm-linux-gnueabihf-static/runtime/levels.o: runtime/levels.c \
 runtime/levels.h build-arm-linux-gnueabihf-static/levels-data.h
runtime/levels.h:
build-arm-linux-gnueabihf-static/levels-data.h:
